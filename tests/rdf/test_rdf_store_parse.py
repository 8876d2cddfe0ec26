"""``Graph(store="URN")``: its parse has the reader's URN-base guard, its set operators URN
equivalence; graphs on other stores keep rdflib's own parsers and operators."""

from __future__ import annotations

import json
import warnings

import pytest
from rdflib import Dataset, Graph, Literal, URIRef
from rdflib.graph import DATASET_DEFAULT_GRAPH_ID

from urnld.jsonld import URNBaseError, URNContextWarning
from urnld.rdf import URNGraph, URNStore

# The cases of docs/bases.md: a relative reference under xml:base / @base "urn:example:a:b".
XML = ('<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" '
       'xml:base="urn:example:a:b">\n<rdf:Description rdf:about="{ref}">'
       '<p xmlns="http://example.org/">v</p></rdf:Description></rdf:RDF>')
JSONLD = ('{{"@context": {{"@base": "urn:example:a:b"}}, "@id": "{ref}", '
          '"http://example.org/p": "v"}}')
TURTLE = '@base <urn:example:a:b> .\n<{ref}> <http://example.org/p> "v" .\n'
DOCS = {"xml": XML, "json-ld": JSONLD, "turtle": TURTLE}


def subjects(g: Graph) -> list[str]:
    return sorted(str(s) for s in g.subjects())


@pytest.mark.parametrize("fmt", sorted(DOCS))
@pytest.mark.parametrize("ref", ["c", "../d", "/c"])
def test_urn_store_parse_refuses_references_against_a_urn_base(fmt, ref):
    # rdflib alone: RDF/XML leaves <c> relative, JSON-LD gives <urn:example:a:b/c>.
    with pytest.raises(URNBaseError) as e:
        Graph(store="URN").parse(data=DOCS[fmt].format(ref=ref), format=fmt)
    assert [h.code for h in e.value.hazards] == ["urn-base"]
    assert f"relative reference <{ref}> against the URN base <urn:example:a:b>" in str(e.value)
    if fmt == "xml":
        assert str(e.value).startswith("<data>:2:")
    elif fmt == "turtle":
        assert str(e.value).startswith("<data>:2:1: ")


@pytest.mark.parametrize("fmt", sorted(DOCS))
def test_urn_store_parse_resolves_fragments_against_a_urn_base(fmt):
    g = Graph(store="URN").parse(data=DOCS[fmt].format(ref="#e"), format=fmt)
    assert subjects(g) == ["urn:example:a:b#e"]


def test_hazards_and_catalog_reach_the_reader_through_parse():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        g = Graph(store="URN").parse(data=XML.format(ref="c"), format="xml", hazards="warn")
    assert subjects(g) == ["urn:c"]
    assert [w.category for w in caught if w.category is URNContextWarning] == [URNContextWarning]
    catalog = {"urn:example:ctx": {"@context": {"@vocab": "http://example.org/"}}}
    doc = json.dumps({"@context": "urn:example:ctx", "@id": "URN:EXAMPLE:x", "p": "v"})
    g = Graph(store="URN").parse(data=doc, format="json-ld", catalog=catalog)
    assert [(str(s), str(p)) for s, p, _ in g] == [("urn:example:x", "http://example.org/p")]


def test_a_file_is_named_by_its_path(tmp_path):
    path = tmp_path / "doc.rdf"
    path.write_text(XML.format(ref="../d"))
    with pytest.raises(URNBaseError, match=rf"^{path}:2:"):
        Graph(store="URN").parse(str(path), format="xml")


def test_other_stores_keep_rdflibs_parsers():
    assert subjects(Graph().parse(data=XML.format(ref="c"), format="xml")) == ["c"]
    assert subjects(Graph().parse(data=JSONLD.format(ref="c"), format="json-ld")) == [
        "urn:example:a:b/c"]
    # rdflib's own literal handling, too: its parsers normalize "01"^^xsd:integer.
    g = Graph().parse(data='<urn:ex:a> <http://ex.org/v> "01"^^'
                      '<http://www.w3.org/2001/XMLSchema#integer> .', format="turtle")
    assert [str(o) for o in g.objects()] == ["1"]


def test_urn_dataset_parse_keeps_the_default_graph():
    ds = Dataset(store="URN")
    ds.parse(data='<URN:EX:s> <http://ex.org/p> "x" . <urn:ex:g> { <urn:ex:s> '
                  '<http://ex.org/p> "y" . }', format="trig")
    got = {(str(s), str(o), str(c.identifier if isinstance(c, Graph) else c))
           for s, _p, o, c in ds.quads((None, None, None, None))}
    assert got == {("urn:ex:s", "x", str(DATASET_DEFAULT_GRAPH_ID)), ("urn:ex:s", "y", "urn:ex:g")}


# --- set operators ---------------------------------------------------------------------------

P = URIRef("http://purl.org/dc/terms/title")
SPELLINGS = ["URN:ISBN:0-395-36341-1", "urn:ISBN:0395363411", "urn:isbn:0-395-36341-1"]


def _graph(store, spelling: str, title: str = "The Hobbit") -> Graph:
    g = Graph(store=store) if store is not None else Graph()
    g.add((URIRef(spelling), P, Literal(title)))
    return g


@pytest.mark.parametrize("right_store", ["URN", None])
def test_set_operators_on_the_urn_store_keep_equivalence(right_store):
    a = _graph("URN", SPELLINGS[0])
    a.add((URIRef("urn:example:only-a"), P, Literal("a")))
    b = _graph(right_store, SPELLINGS[1])
    union, diff, inter, xor = a + b, a - b, a & b, a ^ b
    assert all(isinstance(r.store, URNStore) for r in (union, diff, inter, xor, a | b, a * b))
    assert len(union) == 2 and len(a | b) == 2
    assert subjects(diff) == ["urn:example:only-a"]
    assert subjects(inter) == ["urn:isbn:0395363411"] and len(a * b) == 1
    assert subjects(xor) == ["urn:example:only-a"]
    union.add((URIRef(SPELLINGS[2]), P, Literal("The Hobbit")))  # still one node
    assert len(union) == 2


def test_urngraph_difference_with_a_plain_graph():
    a = URNGraph()
    a.add((URIRef(SPELLINGS[0]), P, Literal("The Hobbit")))
    b = _graph(None, SPELLINGS[1])
    assert len(a - b) == 0 and type(a - b) is URNGraph


def test_set_operators_of_other_graphs_are_rdflibs():
    a, b = _graph(None, SPELLINGS[0]), _graph(None, SPELLINGS[1])
    union = a + b
    assert len(union) == 2 and type(union.store).__name__ == "Memory"
    assert len(a - b) == 1 and len(a & b) == 0 and len(a ^ b) == 2
