"""Writing a large report: terms rendered as rdflib renders them, results streamed as written.

:class:`urnld.shacl.TermRenderer` answers ``render_term(term, nsm)`` without rdflib's
character-by-character namespace split for IRIs under no bound namespace;
:meth:`urnld.shacl.Report.records` writes a compiled run's results from their rows; the
command's ``--json`` is written a result at a time. Each must give what the plain way gives.
"""

from __future__ import annotations

import contextlib
import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rdflib import BNode, Graph, Literal, URIRef
from rdflib.namespace import NamespaceManager
from rdflib.term import Node
from shacl_helpers import PREFIXES

from urnld.shacl import Report, TermRenderer, validate
from urnld.shacl._report import render_term

REPO = Path(__file__).parents[2]

# Nested namespaces (one a prefix of another), a URN namespace, one ending without a
# separator, and the XSD namespace literals' datatypes use.
BINDINGS = {
    "ex": "http://example.org/",
    "exa": "http://example.org/a/",
    "isbn": "urn:isbn:",
    "odd": "http://example.org/odd",
    "xsd": "http://www.w3.org/2001/XMLSchema#",
}
BASES = [*BINDINGS.values(), "http://other.example/", "urn:uuid:", "urn:", "https://w3id.org/x#"]


def _nsm() -> NamespaceManager:
    graph = Graph(bind_namespaces="core")
    for prefix, namespace in BINDINGS.items():
        graph.bind(prefix, namespace)
    return graph.namespace_manager


_LOCAL = st.text(alphabet="aZ09-._~/#:é%", max_size=8)
_IRIS = st.builds(lambda base, local: URIRef(base + local), st.sampled_from(BASES), _LOCAL)
_TERMS = st.one_of(
    _IRIS,
    st.builds(lambda text, dt: Literal(text, datatype=dt),
              st.text(max_size=4), st.one_of(st.none(), _IRIS)),
    st.builds(lambda text, lang: Literal(text, lang=lang),
              st.text(max_size=4), st.sampled_from(["en", "de-CH"])),
    st.builds(BNode, st.sampled_from(["b0", "x1"])),
    st.sampled_from([URIRef("http://example.org/with space"), URIRef("urn:x:<y>")]),
)


def _plain(term: Node, nsm: NamespaceManager) -> str | type[BaseException]:
    try:
        return render_term(term, nsm)
    except Exception as error:  # rdflib refuses an IRI it cannot write: so must the renderer
        return type(error)


@settings(max_examples=300, deadline=None)
@given(st.lists(_TERMS, max_size=12))
def test_a_renderer_writes_every_term_as_rdflib_does(terms: list[Node]) -> None:
    """In the same order on twin namespace managers (rdflib's answer may depend on what it
    rendered before): the same text, or the same refusal."""
    render, reference = TermRenderer(_nsm()), _nsm()
    for term in terms:
        try:
            got: str | type[BaseException] = render(term)
        except Exception as error:
            got = type(error)
        assert got == _plain(term, reference), term


def test_an_iri_under_no_bound_namespace_is_not_split(monkeypatch: pytest.MonkeyPatch) -> None:
    """What makes it fast: rdflib's split is not asked for a URN no prefix abbreviates, and a
    prefixed IRI is asked once however often it comes."""
    from rdflib import namespace

    calls: list[str] = []
    split = namespace.split_uri

    def counting(uri: str, *args: Any) -> Any:
        calls.append(uri)
        return split(uri, *args)

    monkeypatch.setattr(namespace, "split_uri", counting)
    render = TermRenderer(_nsm())
    assert render(URIRef("urn:nbn:de:101")) == "<urn:nbn:de:101>"
    assert calls == []
    assert [render(URIRef("http://example.org/a/b")) for _ in range(3)] == ["exa:b"] * 3
    assert len(calls) <= 2  # rdflib's normalizeUri splits once, compute_qname once


DATA = """
@prefix ex: <http://example.org/> . @prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
ex:a ex:byte "300"^^xsd:byte , "7"^^<http://example.org/a/unit> ;
     ex:id "urn:isbn:0395363412" , <urn:isbn:0395363412> , "x"@en , _:n ;
     ex:ref _:n .
_:n ex:id "URN:ISBN:0-395-36341-2" .
ex:b ex:id "urn:isbn:0395363411" .
"""
SHAPES = PREFIXES + """
@prefix exa: <http://example.org/a/> .
ex:Bytes a sh:NodeShape ; sh:targetObjectsOf ex:byte ; sh:datatype xsd:int .
ex:Ids a sh:NodeShape ; sh:targetSubjectsOf ex:id ;
    sh:property [ sh:path ex:id ; urnsh:canonical true ; urnsh:namespaceValid true ] .
ex:Refs a sh:NodeShape ; sh:targetNode ex:a ; sh:property [ sh:path ex:ref ; sh:nodeKind sh:IRI ] .
ex:Sparql a sh:NodeShape ; sh:targetNode ex:b ;
    sh:sparql [ sh:select "SELECT $this ?value WHERE { $this <http://example.org/id> ?value }" ] .
"""


@pytest.mark.parametrize("run_rows", [1, 3, 1 << 15])
def test_a_compiled_runs_records_are_its_results_to_dict(
        run_rows: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Literal focus nodes with datatypes under a bound namespace and not, blank nodes, IRIs,
    results pyshacl found (a SPARQL constraint), results spilled to disk in runs of one row or
    more: the records written from the rows are what each result's to_dict says."""
    from urnld.shacl import _results

    monkeypatch.setattr(_results, "RUN_ROWS", run_rows)
    data, shapes = tmp_path / "d.ttl", tmp_path / "s.ttl"
    data.write_text(DATA)
    shapes.write_text(SHAPES)
    report = validate(str(data), str(shapes))
    assert report.engines["ex:Sparql"].startswith("pyshacl: ")
    expected = [r.to_dict(report.namespace_manager) for r in report.results]
    assert list(report.records()) == expected
    values = {d["value"] for d in expected}
    assert {'"300"^^xsd:byte', '"7"^^exa:unit', "<urn:isbn:0395363412>"} <= values
    assert any(d["focus_node"].startswith("_:") for d in expected)  # type: ignore[union-attr]
    assert len(expected) >= 8
    # a report of results held whole (pyshacl's) gives the same records too
    whole = Report(report.conforms, tuple(report.results), shapes=report.shapes)
    assert list(whole.records()) == expected


def test_a_generated_dumps_records_are_its_results_to_dict(tmp_path: Path) -> None:
    subprocess.run([sys.executable, str(REPO / "bench" / "gen_dump.py"), str(tmp_path / "d"),
                    "--triples", "3000", "--files", "1", "--quads-every", "0",
                    "--gz-every", "0"], check=True, capture_output=True)
    report = validate(str(next((tmp_path / "d").iterdir())))
    assert len(report.results) > 100
    nsm = report.namespace_manager
    assert list(report.records()) == [r.to_dict(nsm) for r in report.results]


_JSON = st.recursive(st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=6)),
                     lambda inner: st.one_of(st.lists(inner, max_size=3),
                                             st.dictionaries(st.text(max_size=4), inner,
                                                             max_size=3)),
                     max_leaves=8)


@settings(max_examples=200, deadline=None)
@given(head=st.dictionaries(st.text(max_size=5).filter(lambda k: k != "results"), _JSON,
                            max_size=4),
       results=st.lists(st.dictionaries(st.text(max_size=5), _JSON, max_size=4), max_size=4))
def test_json_written_a_result_at_a_time_is_json_dump(
        head: dict[str, Any], results: list[dict[str, Any]]) -> None:
    """``urnld validate --json`` streams its results: the bytes ``json.dump`` of the whole
    document writes (newlines and quotes inside strings included)."""
    from urnld.cli._validate import write_json

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        write_json(head, iter(results))
    whole = json.dumps({**head, "results": results}, indent=2, ensure_ascii=False) + "\n"
    assert out.getvalue() == whole


def test_a_compiled_run_does_not_import_pyshacl(tmp_path: Path) -> None:
    """pyshacl runs only the shapes the plan does not compile: a run that has none does not
    import it."""
    data = tmp_path / "d.nt"
    data.write_text('<http://example.org/b> <http://purl.org/dc/elements/1.1/identifier> '
                    '<urn:isbn:0395363412> .\n')  # a wrong check digit
    code = ("import sys; from urnld.shacl import validate; r = validate(sys.argv[1]); "
            "print(len(r.results), 'pyshacl' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code, str(data)], check=True,
                         capture_output=True, text=True).stdout.split()
    assert int(out[0]) > 0  # the shapes ran
    assert out[1] == "False"


def test_shapes_read_with_strict_booleans_leave_rdflib_as_it_was() -> None:
    """pyshacl reads a shapes file with only "true" a true xsd:boolean (W3C test
    uniqueLang-002 depends on it): so does urnld, and rdflib is put back afterwards."""
    import rdflib
    from rdflib.namespace import XSD

    from urnld.shacl._load import load_shapes

    shapes = load_shapes(None)
    assert len(shapes) > 20
    assert rdflib.NORMALIZE_LITERALS is True
    assert Literal("1", datatype=XSD.boolean).value is True  # rdflib's own reading again
    graph = Graph()
    with _strict():
        graph.parse(data='<urn:x:a> <urn:x:b> "1"^^<http://www.w3.org/2001/XMLSchema#boolean> .',
                    format="nt")
    assert next(iter(graph.objects())).value is False  # type: ignore[attr-defined]


def _strict() -> Any:
    from urnld.shacl._load import _booleans_as_pyshacl_reads_them

    return _booleans_as_pyshacl_reads_them()


@settings(max_examples=200, deadline=None)
@given(st.lists(st.dictionaries(st.text(max_size=6), st.one_of(st.none(), st.text(max_size=8)),
                                min_size=1, max_size=7), min_size=1, max_size=4))
def test_json_of_flat_records_is_json_dump(results: list[dict[str, Any]]) -> None:
    """Results are flat objects of strings and nulls, written by json's C string encoder:
    quotes, backslashes, control characters, newlines and non-ASCII text as json.dump does."""
    from urnld.cli._validate import write_json

    results.append({"focus_node": '<urn:isbn:0395363412>', "path": None,
                    "value": '"URN:ISBN:0-395-36341-2"\n\t\\ é \u2028 \x00',
                    "message": "ü"})
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        write_json({"ok": False, "summary": {"Violation": 1}}, iter(results))
    assert out.getvalue() == json.dumps({"ok": False, "summary": {"Violation": 1},
                                         "results": results}, indent=2,
                                        ensure_ascii=False) + "\n"
