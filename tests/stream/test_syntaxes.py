"""Streaming canonicalize / check of Turtle, TriG, N3, RDF/XML and JSON-LD, checked against
pyoxigraph as the strict reader: urnld changes URNs and nothing else."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pyoxigraph as ox
import pytest
from hypothesis import given
from hypothesis import strategies as st

import urnld
from urnld.report import CanonicalizeReport, CheckReport
from urnld.stream import RDFSyntaxError, canonicalize_file, check_file

F = ox.RdfFormat
FORMATS = {"turtle": F.TURTLE, "trig": F.TRIG, "n3": F.N3, "xml": F.RDF_XML,
           "json-ld": F.JSON_LD, "nt": F.N_TRIPLES, "nquads": F.N_QUADS}
EXT = {"turtle": "ttl", "trig": "trig", "n3": "n3", "xml": "rdf", "json-ld": "jsonld",
       "nt": "nt", "nquads": "nq"}
XSD = "http://www.w3.org/2001/XMLSchema#"


def quads(data: bytes, syntax: str) -> list[ox.Quad]:
    return list(ox.parse(data, FORMATS[syntax]))


def canon_set(qs: list[ox.Quad]) -> set[ox.Quad]:
    """The quads with blank nodes relabelled canonically (comparison up to isomorphism)."""
    ds = ox.Dataset(qs)
    ds.canonicalize(ox.CanonicalizationAlgorithm.UNSTABLE)
    return set(ds)


def run(tmp_path: Path, data: bytes, syntax: str, out_syntax: str | None = None,
        **kw: object) -> tuple[bytes, CanonicalizeReport]:
    out_syntax = out_syntax or syntax
    src = tmp_path / f"in.{EXT[syntax]}"
    src.write_bytes(data)
    out = tmp_path / f"out.{EXT[out_syntax]}"
    report = canonicalize_file(src, out, input_format=syntax, output_format=out_syntax, **kw)
    return out.read_bytes(), report


# --- the reproductions of what the whole-document reader got wrong ---------------------------

LITERALS_TTL = (
    b"@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .\n"
    b'<urn:ex:a> <http://ex.org/v> "1"^^xsd:integer , "01"^^xsd:integer , '
    b'"2022-03-14T15:01:28.6637772Z"^^xsd:dateTime , '
    b'"2022-03-14T15:01:28.6637779Z"^^xsd:dateTime .\n'
)


@pytest.mark.parametrize("jobs", [1, 2])
def test_literals_keep_lexical_form(tmp_path: Path, jobs: int) -> None:
    # rdflib made "01" into "1" (one statement fewer) and "Z" into "+00:00".
    out, report = run(tmp_path, LITERALS_TTL, "turtle", jobs=jobs)
    assert report.statements_in == report.statements_out == 4
    got = {q.object for q in quads(out, "turtle")}
    assert got == {
        ox.Literal("1", datatype=ox.NamedNode(XSD + "integer")),
        ox.Literal("01", datatype=ox.NamedNode(XSD + "integer")),
        ox.Literal("2022-03-14T15:01:28.6637772Z", datatype=ox.NamedNode(XSD + "dateTime")),
        ox.Literal("2022-03-14T15:01:28.6637779Z", datatype=ox.NamedNode(XSD + "dateTime")),
    }


def test_trig_default_graph_stays_default(tmp_path: Path) -> None:
    data = (b'<urn:uuid:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6> <http://ex.org/p> "x" . '
            b'<urn:ex:g> { <urn:ex:s> <http://ex.org/p> "y" . }')
    out, report = run(tmp_path, data, "trig")
    got = set(quads(out, "trig"))
    assert got == {
        ox.Quad(ox.NamedNode("urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6"),
                ox.NamedNode("http://ex.org/p"), ox.Literal("x"), ox.DefaultGraph()),
        ox.Quad(ox.NamedNode("urn:ex:s"), ox.NamedNode("http://ex.org/p"), ox.Literal("y"),
                ox.NamedNode("urn:ex:g")),
    }
    assert (report.statements_in, report.rewritten) == (2, 1)


def test_jsonld_index_container_statements_kept(tmp_path: Path) -> None:
    doc = {"@context": {"@version": 1.1, "ex": "http://ex.org/", "name": "ex:name",
                        "properties": {"@id": "ex:property", "@container": "@index",
                                       "@index": "name"}},
           "@id": "urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6",
           "properties": {"temperature": {"@type": "ex:Property"}}}
    data = json.dumps(doc).encode()
    out, report = run(tmp_path, data, "json-ld")
    assert report.statements_in == len(quads(data, "json-ld")) == 3
    assert canon_set(quads(out, "json-ld")) == canon_set(quads(data, "json-ld"))


def test_prefix_whose_local_part_starts_with_a_dot(tmp_path: Path) -> None:
    data = (b"@prefix P: <http://hl7.org/fhir/PaymentReconciliation> .\n"
            b'<urn:ex:a> <http://hl7.org/fhir/PaymentReconciliation.created> "x" .\n')
    out, _ = run(tmp_path, data, "turtle")
    assert set(quads(out, "turtle")) == set(quads(data, "turtle"))
    assert b"@prefix P:" in out


def test_invalid_urn_in_jsonld_is_a_finding(tmp_path: Path) -> None:
    src = tmp_path / "h.jsonld"
    src.write_bytes(b'{"@id": "urn:HotelRoom", "http://schema.org/name": "x"}')
    report = check_file(src, input_format="json-ld")
    assert report.statements_in == 1
    assert "urn:HotelRoom" in report.invalid
    assert not report.ok


def test_urn_prefix_namespace_written_in_canonical_case(tmp_path: Path) -> None:
    data = (b"@prefix i: <URN:ISBN:> .\n"
            b'i:0-395-36341-1 <http://purl.org/dc/terms/title> "T" .\n')
    out, report = run(tmp_path, data, "turtle")
    assert b"@prefix i: <urn:isbn:> ." in out
    assert set(quads(out, "turtle")) == {ox.Quad(
        ox.NamedNode("urn:isbn:0395363411"), ox.NamedNode("http://purl.org/dc/terms/title"),
        ox.Literal("T"))}
    assert report.rewritten == 1


def test_blank_nodes_stay_distinct(tmp_path: Path) -> None:
    data = b'_:a <http://e/p> "1" . _:b <http://e/p> "1" . [] <http://e/p> "1" .'
    out, report = run(tmp_path, data, "turtle")
    assert len(quads(out, "turtle")) == report.statements_out == 3


# --- the property: output == input with each URN mapped to its canonical form ----------------

URNS = [
    "URN:ISBN:0-395-36341-1", "urn:isbn:0395363411", "urn:ISBN:978-0-395-36341-6",
    "urn:uuid:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6", "urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6",
    "URN:NBN:ch:bel-5742093", "urn:example:a%2cb", "urn:example:a%2Cb", "urn:ietf:rfc:8141",
    # invalid: left as written
    "urn:HotelRoom", "urn:isbn:0-395-36341-2", "urn:x-y:z", "urn:a:b",
]
IRIS = ["http://ex.org/s", "https://ex.org/a#b", "http://ex.org/p/é"]

iri = st.sampled_from(URNS + IRIS).map(ox.NamedNode)
blank = st.sampled_from(["b1", "b2", "b3"]).map(ox.BlankNode)
text = st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), max_size=8)
literal = st.one_of(
    text.map(ox.Literal),
    st.tuples(text, st.sampled_from(["en", "de-ch"])).map(lambda t: ox.Literal(t[0],
                                                                             language=t[1])),
    st.tuples(st.sampled_from(["1", "01", "+1", "1.0", "2022-03-14T15:01:28.6637772Z"]),
              st.sampled_from(["integer", "decimal", "dateTime", "string"])).map(
        lambda t: ox.Literal(t[0], datatype=ox.NamedNode(XSD + t[1]))),
    st.sampled_from(URNS).map(ox.Literal),
)
predicate = st.sampled_from(["http://ex.org/p", "http://ex.org/q", "http://purl.org/dc/terms/x"]
                            ).map(ox.NamedNode)


def graphs(syntax: str) -> st.SearchStrategy[ox.DefaultGraph | ox.NamedNode]:
    if syntax in ("trig", "json-ld"):
        return st.one_of(st.just(ox.DefaultGraph()), st.sampled_from(URNS + IRIS[:1]).map(
            ox.NamedNode))
    return st.just(ox.DefaultGraph())


def datasets(syntax: str) -> st.SearchStrategy[list[ox.Quad]]:
    quad = st.builds(ox.Quad, st.one_of(iri, blank), predicate,
                     st.one_of(iri, blank, literal), graphs(syntax))
    return st.lists(quad, max_size=12)


def expected(qs: list[ox.Quad]) -> list[ox.Quad]:
    def term(t: object) -> object:
        if isinstance(t, ox.NamedNode) and t.value[:4].lower() == "urn:":
            try:
                return ox.NamedNode(urnld.canonical(t.value))
            except urnld.URNError:
                return t
        return t

    return [ox.Quad(term(q.subject), q.predicate, term(q.object),  # type: ignore[arg-type]
                    term(q.graph_name)) for q in qs]  # type: ignore[arg-type]


@pytest.mark.parametrize("syntax", ["turtle", "trig", "n3", "xml", "json-ld"])
def test_property_only_urns_change(tmp_path_factory: pytest.TempPathFactory, syntax: str) -> None:
    @given(datasets(syntax))
    def check(qs: list[ox.Quad]) -> None:
        tmp = tmp_path_factory.mktemp("p")
        data = ox.serialize(qs, format=FORMATS[syntax])
        given_quads = quads(data, syntax)
        out, report = run(tmp, data, syntax)
        got = quads(out, syntax)
        assert canon_set(got) == canon_set(expected(given_quads))
        assert report.statements_in == report.statements_out == len(given_quads)

    check()


# --- the differential: a syntax's report is the report of its statements as N-Triples --------

@pytest.mark.parametrize("syntax", ["turtle", "trig", "n3", "xml", "json-ld"])
@given(data=st.data())
def test_report_equals_ntriples_report(
    tmp_path_factory: pytest.TempPathFactory, syntax: str, data: st.DataObject
) -> None:
    qs = data.draw(datasets(syntax))
    tmp = tmp_path_factory.mktemp("d")
    doc = ox.serialize(qs, format=FORMATS[syntax])
    as_nq = ox.serialize(quads(doc, syntax), format=F.N_QUADS)
    (tmp / "x.nq").write_bytes(as_nq)
    (tmp / f"x.{EXT[syntax]}").write_bytes(doc)
    for literals in (False, True):
        a = canonicalize_file(tmp / "x.nq", tmp / "o.nq", literals=literals)
        b = canonicalize_file(tmp / f"x.{EXT[syntax]}", tmp / "o2.nq", input_format=syntax,
                              output_format="nquads", literals=literals)
        assert a.to_dict() == b.to_dict()
    assert (check_file(tmp / "x.nq").to_dict()
            == check_file(tmp / f"x.{EXT[syntax]}", input_format=syntax).to_dict())


# --- outputs in other syntaxes, files, processes --------------------------------------------

@pytest.mark.parametrize("out_syntax", ["turtle", "trig", "n3", "xml", "json-ld", "nt", "nquads"])
def test_every_output_syntax(tmp_path: Path, out_syntax: str) -> None:
    data = (b"@prefix dct: <http://purl.org/dc/terms/> .\n"
            b'<URN:ISBN:0-395-36341-1> dct:title "T"@en ; dct:x _:b .\n_:b dct:y "01" .\n')
    out, report = run(tmp_path, data, "turtle", out_syntax)
    assert canon_set(quads(out, out_syntax)) == canon_set(expected(quads(data, "turtle")))
    assert report.rewritten == 2  # one URN in two statements


def test_named_graph_into_turtle_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(RDFSyntaxError, match="named graphs"):
        run(tmp_path, b"<urn:ex:g> { <urn:ex:s> <http://e/p> 1 . }", "trig", "turtle")
    assert not (tmp_path / "out.ttl").exists()


def test_ntriples_input_to_turtle(tmp_path: Path) -> None:
    data = b'<URN:ISBN:0-395-36341-1> <http://e/p> "x" .\n'
    out, report = run(tmp_path, data, "nt", "turtle")
    assert report.rewritten == 1
    assert set(quads(out, "turtle")) == set(expected(quads(data, "nt")))


@pytest.mark.parametrize("jobs", [1, 2])
def test_gzip_input_and_output(tmp_path: Path, jobs: int) -> None:
    src = tmp_path / "in.ttl.gz"
    src.write_bytes(gzip.compress(LITERALS_TTL))
    out = tmp_path / "out.trig.gz"
    report = canonicalize_file(src, out, input_format="turtle", output_format="trig", jobs=jobs)
    assert report.statements_out == 4
    assert len(quads(gzip.decompress(out.read_bytes()), "trig")) == 4


@pytest.mark.parametrize("jobs", [1, 2])
def test_syntax_error_with_position_and_no_output(tmp_path: Path, jobs: int) -> None:
    # Enough statements before the error that the child has sent output already.
    good = b"".join(b'<urn:ex:s%d> <http://e/p> "v" .\n' % i for i in range(20000))
    with pytest.raises(RDFSyntaxError) as info:
        run(tmp_path, good + b'<urn:ex:a> <http://e/p> "unterminated .\n', "turtle", jobs=jobs)
    assert (info.value.line, info.value.column) == (20001, 25)  # the opening quote, 1-based
    assert str(info.value).startswith(f"{tmp_path / 'in.ttl'}:20001:25: cannot parse as turtle")
    assert not (tmp_path / "out.ttl").exists()
    assert [p.name for p in tmp_path.iterdir()] == ["in.ttl"]


@pytest.mark.parametrize("jobs", [1, 2])
def test_check_report_same_in_child_and_here(tmp_path: Path, jobs: int) -> None:
    lines = b"".join(b"<URN:ISBN:0-395-36341-1> <http://e/p%d> <urn:x-y:%d> .\n" % (i, i)
                     for i in range(30000))
    (tmp_path / "a.nt").write_bytes(lines)
    (tmp_path / "a.ttl").write_bytes(lines)
    assert (check_file(tmp_path / "a.ttl", input_format="turtle", jobs=jobs).to_dict()
            == check_file(tmp_path / "a.nt").to_dict())


def test_progress_is_told(tmp_path: Path) -> None:
    (tmp_path / "a.ttl").write_bytes(LITERALS_TTL)
    seen = []
    check_file(tmp_path / "a.ttl", input_format="turtle", progress=seen.append, jobs=1)
    assert seen and seen[-1].statements == 4 and seen[-1].total == len(LITERALS_TTL)


def test_unknown_syntax_refused(tmp_path: Path) -> None:
    (tmp_path / "a.ttl").write_bytes(LITERALS_TTL)
    with pytest.raises(RDFSyntaxError, match="not a syntax"):
        check_file(tmp_path / "a.ttl", input_format="yaml")


def test_check_report_type(tmp_path: Path) -> None:
    (tmp_path / "a.ttl").write_bytes(LITERALS_TTL)
    r = CheckReport()
    assert check_file(tmp_path / "a.ttl", input_format="ttl", report=r) is r
    assert r.statements_in == 4
