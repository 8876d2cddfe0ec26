"""The reader keeps what it reads: literals as written, the default graph, every JSON-LD statement.

The statements of a document read by :func:`urnld.read.read` (and by ``validate`` and
``Graph(store="URN").parse``, which read through it) are the statements pyoxigraph reads from
the same document: compared as sets, blank nodes matched by pyoxigraph's canonicalization.
"""

from __future__ import annotations

import json
import warnings

import pyoxigraph as ox
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rdflib import BNode, Dataset, Graph, URIRef
from rdflib import Literal as RLiteral
from rdflib.graph import DATASET_DEFAULT_GRAPH_ID

from urnld.read import read

XSD = "http://www.w3.org/2001/XMLSchema#"
# Issue reproduction, from a signed Verifiable Credential's dates and a catalog's numbers: rdflib
# 7's parsers turn "01" into "1" (and merge it), and drop the seventh fractional digit.
REPRO = ('@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .\n'
         '<urn:ex:a> <http://ex.org/v> "1"^^xsd:integer , "01"^^xsd:integer , '
         '"2022-03-14T15:01:28.6637772Z"^^xsd:dateTime , '
         '"2022-03-14T15:01:28.6637779Z"^^xsd:dateTime .\n')
REPRO_FORMS = ["01", "1", "2022-03-14T15:01:28.6637772Z", "2022-03-14T15:01:28.6637779Z"]


def _ox_term(t):
    if isinstance(t, URIRef):
        return ox.NamedNode(str(t))
    if isinstance(t, BNode):
        return ox.BlankNode(str(t))
    assert isinstance(t, RLiteral)
    if t.language is not None:
        return ox.Literal(str(t), language=t.language)
    if t.datatype is not None:
        return ox.Literal(str(t), datatype=ox.NamedNode(str(t.datatype)))
    return ox.Literal(str(t))


def as_oxigraph(g: Graph) -> set[ox.Quad]:
    """The statements of *g* as pyoxigraph quads, blank nodes canonically labelled."""
    quads = []
    if isinstance(g, Dataset):
        for s, p, o, c in g.quads((None, None, None, None)):
            name = c.identifier if isinstance(c, Graph) else c
            gn = ox.DefaultGraph() if name in (None, DATASET_DEFAULT_GRAPH_ID) else _ox_term(name)
            quads.append(ox.Quad(_ox_term(s), _ox_term(p), _ox_term(o), gn))
    else:
        quads = [ox.Quad(_ox_term(s), _ox_term(p), _ox_term(o)) for s, p, o in g]
    return canonical(quads)


def canonical(quads) -> set[ox.Quad]:
    ds = ox.Dataset(quads)
    ds.canonicalize(ox.CanonicalizationAlgorithm.UNSTABLE)
    return set(ds)


def literal_forms(g: Graph) -> list[str]:
    return sorted(str(o) for o in g.objects() if isinstance(o, RLiteral))


def test_literal_forms_survive_read():
    g = read(data=REPRO, format="turtle")
    assert len(g) == 4
    assert literal_forms(g) == REPRO_FORMS


def test_literal_forms_survive_the_urn_store():
    g = Graph(store="URN").parse(data=REPRO, format="turtle")
    assert len(g) == 4
    assert literal_forms(g) == REPRO_FORMS


def test_literal_forms_survive_validate(tmp_path):
    from urnld.shacl import validate

    data = tmp_path / "d.ttl"
    data.write_text(REPRO)
    shapes = tmp_path / "s.ttl"
    # Every value of ex:v breaks sh:datatype xsd:string: the report names each one, as written.
    shapes.write_text('@prefix sh: <http://www.w3.org/ns/shacl#> .\n'
                      '@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .\n'
                      '<http://ex.org/S> a sh:NodeShape ; sh:targetNode <urn:ex:a> ;\n'
                      '  sh:property [ sh:path <http://ex.org/v> ; sh:datatype xsd:string ] .\n')
    result = validate(str(data), str(shapes))
    assert not result.conforms
    sh_value = URIRef("http://www.w3.org/ns/shacl#value")
    assert sorted(str(v) for v in result.graph.objects(None, sh_value)) == REPRO_FORMS


def test_trig_default_graph_stays_default():
    doc = ('<urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6> <http://ex.org/p> "x" .\n'
           '<urn:ex:g> { <urn:ex:s> <http://ex.org/p> "y" . }\n')
    ds = read(data=doc, format="trig")
    assert isinstance(ds, Dataset)
    by_graph = {str(c.identifier if isinstance(c, Graph) else c): str(o)
                for _s, _p, o, c in ds.quads((None, None, None, None))}
    assert by_graph == {str(DATASET_DEFAULT_GRAPH_ID): "x", "urn:ex:g": "y"}


def test_json_ld_property_index_keeps_every_statement():
    # A W3C Thing Description's property map (JSON-LD 1.1 §4.6.1.1, property-based index):
    # pyld 3.3 drops the ex:name statement of the index; the JSON-LD 1.1 algorithms give it.
    doc = {"@context": {"@version": 1.1, "ex": "http://ex.org/", "name": "ex:name",
                        "properties": {"@id": "ex:property", "@container": "@index",
                                       "@index": "name"}},
           "@id": "urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6",
           "properties": {"temperature": {"@type": "ex:Property"}}}
    g = read(data=json.dumps(doc), format="json-ld")
    assert len(g) == 3
    assert (None, URIRef("http://ex.org/name"), RLiteral("temperature")) in g


def test_json_ld_contexts_from_the_catalog_are_inlined():
    from urnld.jsonld import URNDocumentLoader

    loader = URNDocumentLoader({"urn:example:ctx": {"@context": {
        "@version": 1.1, "ex": "http://ex.org/", "n": {"@id": "ex:n", "@type": "ex:int"},
        "props": {"@id": "ex:property", "@container": "@index", "@index": "n"}}}})
    doc = {"@context": "urn:example:ctx", "@id": "urn:example:a",
           "props": {"07": {"@id": "urn:example:b"}}}
    g = read(data=json.dumps(doc), format="json-ld", catalog=loader)
    assert literal_forms(g) == ["07"]  # the index as written, through the catalog's context
    assert len(g) == 2


# --- the property: what pyoxigraph reads, urnld reads --------------------------------------

_IRIS = st.sampled_from(["urn:isbn:0395363411", "URN:ISBN:0-395-36341-1", "http://ex.org/s",
                         "urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6", "urn:x:%2C"])
_TYPED = st.sampled_from([
    ("integer", "01"), ("integer", "+1"), ("integer", "1"), ("decimal", "0"),
    ("decimal", "1.50"), ("double", "100"), ("float", "1e0"), ("boolean", "1"),
    ("dateTime", "2022-01-01T00:00:01Z"), ("dateTime", "2022-03-14T15:01:28.6637772+01:00"),
    ("date", "2022-01-01Z"), ("string", "x"), ("integer", "not a number"),
])
_LITERALS = st.one_of(
    _TYPED.map(lambda t: ox.Literal(t[1], datatype=ox.NamedNode(XSD + t[0]))),
    st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), max_size=8)
      .map(ox.Literal),
    st.tuples(st.text("ab", min_size=1, max_size=3), st.sampled_from(["en", "de-at"]))
      .map(lambda t: ox.Literal(t[0], language=t[1])),
)
_NODES = st.one_of(_IRIS.map(ox.NamedNode), st.sampled_from("abc").map(ox.BlankNode))
_QUADS = st.lists(st.builds(
    ox.Quad, _NODES, st.sampled_from(["http://ex.org/p", "urn:ex:q"]).map(ox.NamedNode),
    st.one_of(_NODES, _LITERALS),
    st.one_of(st.just(ox.DefaultGraph()), st.sampled_from(["urn:ex:g", "http://ex.org/g"])
              .map(ox.NamedNode)),
), max_size=12)
_SYNTAXES = {"turtle": "TURTLE", "trig": "TRIG", "nt": "N_TRIPLES", "nquads": "N_QUADS",
             "xml": "RDF_XML", "json-ld": "JSON_LD"}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(quads=_QUADS, syntax=st.sampled_from(sorted(_SYNTAXES)))
def test_read_gives_the_statements_pyoxigraph_reads(quads, syntax):
    fmt = getattr(ox.RdfFormat, _SYNTAXES[syntax])
    if not fmt.supports_datasets:
        quads = [ox.Quad(q.subject, q.predicate, q.object) for q in quads]
    doc = ox.serialize(quads, format=fmt)
    expected = canonical(ox.parse(doc, fmt))
    with warnings.catch_warnings():
        # rdflib's notice about "not a number"^^xsd:integer (it keeps the literal as written).
        warnings.simplefilter("ignore")
        got = read(data=doc, format=syntax)
    assert as_oxigraph(got) == expected
