"""URNGraph and the URN store's edges: parse through urnld.read, N3, bindings, graph algebra."""

from __future__ import annotations

import warnings

import pytest
from rdflib import Graph, Literal, URIRef

from urnld.jsonld import CatalogError, URNBaseError
from urnld.rdf import URNGraph

P = URIRef("urn:example:p")


def graph_of(*subjects: str) -> URNGraph:
    g = URNGraph()
    for s in subjects:
        g.add((URIRef(s), P, Literal("x")))
    return g


def test_algebra_returns_urn_graphs_that_merge_spellings():
    a = graph_of("URN:ISBN:0-395-36341-1", "urn:example:only-a")
    b = graph_of("urn:isbn:0395363411")
    assert type(a + b) is URNGraph and len(a + b) == 2
    assert {str(s) for s in (a - b).subjects()} == {"urn:example:only-a"}
    assert {str(s) for s in (a * b).subjects()} == {"urn:isbn:0395363411"}
    assert {str(s) for s in (a ^ b).subjects()} == {"urn:example:only-a"}


def test_urn_namespace_bindings_are_case_normalized():
    for g in (Graph(store="URN"), URNGraph()):
        g.bind("isbn", "URN:ISBN:")
        g.add((URIRef("URN:ISBN:0-395-36341-1"), P, Literal("x")))
        assert "isbn:0395363411" in g.serialize(format="turtle")
        assert dict(g.namespaces())["isbn"] == URIRef("urn:isbn:")


def test_n3_formulas_go_into_the_urn_store():
    doc = "@prefix : <http://example.org/> . { :a :b <URN:ISBN:0-395-36341-1> } => { :a :d :c } ."
    g = URNGraph().parse(data=doc, format="n3")
    assert len(g) == 1
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # rdflib's own N3 parser
        assert len(Graph(store="URN").parse(data=doc, format="n3")) == 1


def test_parse_is_offline_and_guards_urn_bases(tmp_path):
    with pytest.raises(CatalogError, match="is not in the catalog"):
        URNGraph().parse(data='{"@context": "https://schema.org/", "@id": "urn:example:a"}',
                         format="json-ld")
    with pytest.raises(URNBaseError, match="<c> against the URN base"):
        URNGraph().parse(data="@base <urn:example:a> . <c> <urn:example:p> 1 .", format="turtle")
    ctx = {"urn:example:ctx": {"@context": {"@vocab": "https://schema.org/"}}}
    g = URNGraph().parse(data='{"@context": "urn:example:ctx", "@id": "URN:EXAMPLE:a", "name": 1}',
                         format="json-ld", catalog=ctx)
    assert [str(s) for s in g.subjects()] == ["urn:example:a"]
    path = tmp_path / "x.ttl"
    path.write_text("<urn:EXAMPLE:b> <urn:example:p> 1 .")
    assert [str(s) for s in URNGraph().parse(path).subjects()] == ["urn:example:b"]
    with path.open("rb") as f:
        assert len(URNGraph().parse(file=f, format="turtle")) == 1
    with pytest.raises(ValueError, match="does not fetch URLs"):
        URNGraph().parse("https://example.org/data.ttl")


@pytest.mark.parametrize(("ref", "ok"), [("#f", "urn:example:a:b#f"), ("", "urn:example:a:b"),
                                         ("?=q", "urn:example:a:b?=q")])
def test_sparql_base_well_defined_references(ref, ok):
    g = Graph(store="URN")
    g.add((URIRef(ok), P, Literal(1)))
    rows = g.query(f"BASE <urn:example:a:b> SELECT ?o WHERE {{ <{ref}> ?p ?o }}")
    assert [int(r[0]) for r in rows] == [1]


@pytest.mark.parametrize(("ref", "rfc"), [("c", "urn:c"), ("../d", "urn:d"), ("/c", "urn:/c"),
                                          ("//h/c", "urn://h/c")])
def test_sparql_base_hazards_are_the_same_finding(ref, rfc):
    g = Graph(store="URN")
    with pytest.raises(URNBaseError) as e:
        g.query(f"BASE <URN:EXAMPLE:a:b> SELECT ?o WHERE {{ <{ref}> ?p ?o }}")
    assert str(e.value).startswith("SPARQL query:1:")
    assert f"relative reference <{ref}> against the URN base" in str(e.value)
    assert f"oxigraph: <{rfc}>" in str(e.value).lower() and e.value.hazards[0].code == "urn-base"
    with pytest.raises(URNBaseError, match="SPARQL update:1:15: relative reference"):
        g.update(f"INSERT DATA {{ <{ref}> <urn:example:p> 1 }}", base="urn:example:x")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        g.update(f"INSERT DATA {{ <{ref}> <urn:example:p> 1 }}", base="urn:example:x",
                 hazards="warn")
    assert any("continuing with" in str(w.message) for w in caught)
    assert URIRef(rfc) in set(g.subjects())
