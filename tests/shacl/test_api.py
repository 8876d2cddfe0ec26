"""urnld.shacl.validate: inputs, the Report, errors, and the Python twins of the urnfn: functions."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from rdflib import Dataset, Graph, Literal, URIRef
from rdflib.compare import isomorphic, to_isomorphic
from shacl_helpers import EX, PREFIXES

import urnld
from urnld.rdf import register_functions
from urnld.shacl import DataError, Report, ShapesError, _engine, shapes_path, validate
from urnld.shacl._rules import facts, finding_codes, namespace_codes, namespace_verdict

SHAPES = PREFIXES + """
ex:S a sh:NodeShape ; sh:targetClass ex:R ;
    sh:property [ sh:path ex:id ; urnsh:canonical true ; urnsh:namespaceValid true ] .
"""
DATA = PREFIXES + """
ex:a a ex:R ; ex:id "URN:ISBN:0-395-36341-1" .
ex:b a ex:R ; ex:id "urn:isbn:0395363412" .
ex:c a ex:R ; ex:id "urn:isbn:0395363411" .
"""


def _shapes() -> Graph:
    return Graph().parse(data=SHAPES, format="turtle")


def test_the_input_graph_is_not_modified_even_with_inference() -> None:
    data = Graph().parse(data=DATA, format="turtle")
    data.add((EX.R, URIRef("http://www.w3.org/2000/01/rdf-schema#subClassOf"), EX.C))
    before = to_isomorphic(data)
    for inference in ("none", "rdfs"):
        report = validate(data, _shapes(), inference=inference)
        assert len(report.results) == 2
    assert to_isomorphic(data) == before


def test_files_are_merged(tmp_path: Path) -> None:
    head, *_ = DATA.split("ex:a")
    (tmp_path / "1.ttl").write_text(head + 'ex:a a ex:R ; ex:id "URN:ISBN:0-395-36341-1" .')
    (tmp_path / "2.nt").write_text('<http://example.org/b> '
                                   '<http://www.w3.org/1999/02/22-rdf-syntax-ns#type> '
                                   '<http://example.org/R> .\n'
                                   '<http://example.org/b> <http://example.org/id> '
                                   '"urn:isbn:0395363412" .\n')
    report = validate([tmp_path / "1.ttl", str(tmp_path / "2.nt")], _shapes())
    assert {r.focus_node for r in report.results} == {EX.a, EX.b}


@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # rdflib's TriG parser, in ds.parse
def test_named_graphs_are_validated_as_their_union(tmp_path: Path) -> None:
    trig = tmp_path / "data.trig"
    trig.write_text("""@prefix ex: <http://example.org/> .
        ex:g1 { ex:a a ex:R . }
        ex:g2 { ex:a ex:id "urn:isbn:0395363412" . }""")
    report = validate(trig, _shapes())
    assert [(r.focus_node, r.value) for r in report.results] == [
        (EX.a, Literal("urn:isbn:0395363412"))
    ]
    ds = Dataset()
    ds.parse(trig)
    before = set(ds.quads())
    assert len(validate(ds, _shapes()).results) == 1
    assert ds.default_union is False  # pyshacl flips it while validating; urnld restores it
    assert set(ds.quads()) == before


def test_report_api() -> None:
    report = validate(Graph().parse(data=DATA, format="turtle"), _shapes())
    assert isinstance(report, Report)
    assert not report.conforms
    assert len(report) == 2 and list(report) == list(report.results)
    assert [r.value for r in report] == [Literal("URN:ISBN:0-395-36341-1"),
                                         Literal("urn:isbn:0395363412")]
    doc = report.to_dict()
    assert json.loads(json.dumps(doc)) == doc
    assert doc["results"][0]["path"] == "ex:id"  # the shapes' prefixes are the report's
    again = validate(Graph().parse(data=DATA, format="turtle"), _shapes())
    assert again.to_dict() == doc  # deterministic
    assert isomorphic(Graph().parse(data=report.serialize(), format="turtle"), report.graph)
    assert Report.from_graph(report.graph).results == report.results


def test_complex_paths_are_rendered_and_validated() -> None:
    shapes = Graph().parse(format="turtle", data=PREFIXES + """
        ex:S a sh:NodeShape ; sh:targetClass ex:R ;
            sh:property [ sh:path ( ex:part [ sh:inversePath ex:of ] ) ;
                          urnsh:canonical true ; urnsh:uniqueByEquivalence true ] .""")
    data = Graph().parse(format="turtle", data=PREFIXES + """
        ex:a a ex:R ; ex:part ex:p . ex:q ex:of ex:p . ex:q ex:id "x" .
        ex:b a ex:R ; ex:part ex:p2 .
        <URN:EXAMPLE:z> ex:of ex:p . <urn:example:z> ex:of ex:p2 .""")
    for engine in ("plan", "pyshacl", "sparql"):
        report = validate(data, shapes, evaluator=engine)
        found = {(r.focus_node, r.value, r.component.split("#")[1], r.path_text)
                 for r in report.results}
        assert found == {
            (EX.a, URIRef("URN:EXAMPLE:z"), "CanonicalConstraintComponent", "ex:part/(^ex:of)"),
            (EX.a, URIRef("URN:EXAMPLE:z"), "UniqueByEquivalenceConstraintComponent",
             "ex:part/(^ex:of)"),
            (EX.b, URIRef("urn:example:z"), "UniqueByEquivalenceConstraintComponent",
             "ex:part/(^ex:of)"),
            # the path reaches ex:q too, and an http IRI is not a URN
            (EX.a, EX.q, "CanonicalConstraintComponent", "ex:part/(^ex:of)"),
            (EX.a, EX.q, "UniqueByEquivalenceConstraintComponent", "ex:part/(^ex:of)"),
        }, engine


def test_a_redefined_component_is_left_to_pyshacl() -> None:
    text = Path(shapes_path("urn.ttl")).read_text(encoding="utf-8")
    changed = text.replace("not in canonical form, or", "spelled differently, or")
    assert changed != text
    shapes = Graph().parse(data=changed, format="turtle").parse(data=SHAPES, format="turtle")
    data = Graph().parse(data=DATA, format="turtle")
    _, graph, _, taken = _engine.run(data, shapes, engine="python")
    assert taken == 1  # namespaceValid is unchanged; canonical is not ours any more
    report = Report.from_graph(graph)
    assert [r.message for r in report.results if "Canonical" in r.component] == [
        "URN:ISBN:0-395-36341-1: spelled differently, or not a URN at all (rule urnsh:canonical; "
        "finding not-canonical, or syntax for a value that is not an RFC 8141 URN)"
    ]


def test_unused_components_are_not_installed() -> None:
    data = Graph().parse(data=DATA, format="turtle")
    shapes = Graph().parse(shapes_path("urn.ttl")).parse(data=SHAPES, format="turtle")
    _, _, _, taken = _engine.run(data, shapes, engine="python")
    assert taken == 2


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [({"inference": "owl"}, "inference must be one of"),
     ({"evaluator": "fast"}, "evaluator must be one of plan, pyshacl, sparql, plain-pyshacl")],
)
def test_bad_options(kwargs, message) -> None:
    with pytest.raises(ValueError, match=message):
        validate(Graph(), **kwargs)


def test_data_errors_name_the_file(tmp_path: Path) -> None:
    with pytest.raises(DataError, match=r"nope\.ttl: cannot read"):
        validate(tmp_path / "nope.ttl")
    with pytest.raises(DataError, match="no data to validate"):
        validate([])
    with pytest.raises(ShapesError, match=r"nope\.ttl: cannot read"):
        validate(Graph(), tmp_path / "nope.ttl")
    assert issubclass(DataError, urnld.URNError) and issubclass(ShapesError, ValueError)


def test_shapes_path() -> None:
    assert Path(shapes_path()).name == "urn.ttl"
    assert Path(shapes_path("catalog.ttl")).is_file()
    with pytest.raises(ValueError, match="no shipped shapes file"):
        shapes_path("other.ttl")


# ------------------------------------------------------------------------------------------
# The Python twins must compute what the registered urnfn: functions compute.

_PIECES = ["urn:", "URN:", "isbn:", "ISSN:", "uuid:", "example:", "x-y:", "ab:", "urn-7:",
           "0395363411", "0-395-36341-2", "0317-847X", "f81d4fae-7dec-11d0-a765-00a0c91e6bf6",
           "%2c", "%2C", "a", "A", "?+r", "?=q", "#f", "#", " ", "/", "%D0%B0"]
texts = st.lists(st.sampled_from(_PIECES), min_size=1, max_size=6).map("".join)
NSS_CODES = frozenset({"nss-invalid", "nss-check-digit"})


@given(texts)
@example("urn:isbn")
@example("URN:ab:c?x")
def test_namespace_codes_are_the_nss_part_of_check(text: str) -> None:
    assert namespace_codes(text) == finding_codes(text) & NSS_CODES
    # None (not a URN) exactly where urnfn:nid raises, as the components read it
    assert (namespace_verdict(text) is None) == (facts(text).nid is None)


def _sparql(expr: str, *args: str) -> str | None:
    register_functions()
    binds = " ".join(f"BIND({Literal(a).n3()} AS ?a{i})" for i, a in enumerate(args))
    q = f"PREFIX urnfn: <https://w3id.org/urnld/fn#> SELECT ?r WHERE {{ {binds} BIND({expr} AS ?r) }}"
    rows = list(Graph().query(q))
    # An expression error in BIND: SPARQL leaves ?r unbound; rdflib drops the row.
    return None if not rows or rows[0][0] is None else str(rows[0][0])


@given(texts)
@example("urn:example:urn:")  # a valid canonical URN: no findings at all, not "syntax"
def test_facts_match_the_registered_functions(text: str) -> None:
    f = facts(text)
    assert f.nid == _sparql("urnfn:nid(?a0)", text)
    assert f.canonical == _sparql("urnfn:canonical(?a0)", text)
    sparql_codes = _sparql("urnfn:findings(?a0)", text)
    assert sparql_codes is not None
    assert finding_codes(text) == frozenset(sparql_codes.split())


@given(texts, texts)
def test_equivalence_key_matches_urnfn_equivalent(a: str, b: str) -> None:
    same_key = facts(a).key is not None and facts(a).key == facts(b).key
    assert same_key == (_sparql("urnfn:equivalent(?a0, ?a1)", a, b) == "true")


def test_equivalence_key_on_the_rfc_table(nid_examples) -> None:
    for row in nid_examples:
        for other in row.get("equivalent_to", []):
            assert facts(row["urn"]).key == facts(other).key is not None
        for other in row.get("not_equivalent_to", []):
            assert facts(row["urn"]).key != facts(other).key


def test_an_unknown_pyshacl_layout_falls_back_to_sparql(monkeypatch) -> None:
    # A future pyshacl that keeps components elsewhere: warn, and let pyshacl run the SPARQL.
    monkeypatch.setattr(_engine, "_installable", lambda shapes_graph: False)
    data = Graph().parse(data=DATA, format="turtle")
    with pytest.warns(RuntimeWarning, match="urnsh: components run as plain SPARQL"):
        report = validate(data, _shapes(), evaluator="pyshacl")
    assert {(r.focus_node, r.value) for r in report.results} == {
        (EX.a, Literal("URN:ISBN:0-395-36341-1")), (EX.b, Literal("urn:isbn:0395363412"))
    }


def test_the_uniqueness_index_is_built_once_per_validation(monkeypatch) -> None:
    # pyshacl evaluates a property shape once per focus node; rebuilding the index over the
    # whole graph each time made uniqueness quadratic.
    calls = []
    real = _engine.index_holders
    monkeypatch.setattr(_engine, "index_holders", lambda pairs: calls.append(1) or real(pairs))
    data = Graph()
    for i in range(50):
        data.add((EX[f"r{i}"], URIRef("http://www.w3.org/1999/02/22-rdf-syntax-ns#type"), EX.R))
        data.add((EX[f"r{i}"], EX.id, Literal(f"urn:example:{i % 40}")))
    shapes = Graph().parse(format="turtle", data=PREFIXES + """
        ex:P a sh:NodeShape ; sh:targetClass ex:R ;
            sh:property [ sh:path ex:id ; urnsh:uniqueByEquivalence true ] .""")
    report = validate(data, shapes, evaluator="pyshacl")
    assert len(report.results) == 20  # urn:example:0..9 appear twice
    assert len(calls) == 1
