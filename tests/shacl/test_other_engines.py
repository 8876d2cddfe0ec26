"""urnld's shapes on other engines: pyshacl-turbo (no urnfn: functions) and pyoxigraph's SPARQL.

An engine without the functions must give one clear "URN functions missing" result and run the
core layer as usual; pyoxigraph's SPARQL with :mod:`urnld.oxigraph`'s functions must give the
components' verdicts exactly as urnld's own evaluation does.
"""

from __future__ import annotations

import re
from pathlib import Path

import pyoxigraph as ox
import pyshacl_turbo
import pytest
from rdflib import BNode, Graph, Literal, URIRef
from rdflib.namespace import RDF, SH
from rdflib.term import Node
from shacl_helpers import EX, run_component

import urnld.oxigraph as uox
from urnld.shacl import Report, shapes_path, validate

URNSH = "https://w3id.org/urnld/shacl#"
FN_NAMESPACE = URIRef("https://w3id.org/urnld/fn#")
MISSING = "URN functions missing (urnld's SPARQL functions are not registered in this engine"


def _key(r):  # blank nodes get new labels in each parse
    return (r.focus_node, "_:b" if isinstance(r.value, BNode) else r.value, r.component)


@pytest.mark.parametrize("path", ["examples/shacl/catalog.ttl", "examples/catalog/catalog.ttl"])
def test_pyshacl_turbo_reports_the_missing_functions_once(repo_root: Path, path: str) -> None:
    example = repo_root / path
    shapes = Graph().parse(shapes_path("urn.ttl")).parse(shapes_path("catalog.ttl"))
    conforms, graph, _ = pyshacl_turbo.validate(Graph().parse(example), shacl_graph=shapes)
    assert not conforms
    results = Report.from_graph(graph).results
    guard = [r for r in results if r.focus_node == FN_NAMESPACE]
    assert len(guard) == 1
    assert guard[0].message.startswith(MISSING)
    assert str(guard[0].source_shape) == URNSH + "Functions"
    # the rest is the core layer, as urnld reports it
    core = {_key(r) for r in validate(str(example)).results if r.component.startswith(str(SH))}
    assert {_key(r) for r in results if r.focus_node != FN_NAMESPACE} == core


# --- pyoxigraph: the components' SPARQL with urnld.oxigraph's functions ----------------------

# Values from the component tests' tables: canonical and not, registered and not, a wrong check
# digit (RFC 3187's ISBN with the last digit changed), components, X- NIDs, non-URNs.
VALUES: list[Node] = [
    Literal("urn:isbn:0395363411"), URIRef("urn:isbn:0395363411"),
    Literal("URN:ISBN:0-395-36341-1"), Literal("urn:isbn:0395363412"),
    Literal("urn:issn:0028-0836"), Literal("urn:issn:0028-0837", lang="en"),
    Literal("urn:foo:bar"), Literal("urn:X-foo:bar"), URIRef("urn:isbn:9780140449136#p211"),
    Literal("urn:uuid:0f8fad5b-d9cb-469f-a165-70867728950f?+version=2"),
    Literal("hello"), Literal("urn:isbn"), Literal(""), URIRef("http://example.org/x"), BNode(),
]
PARAMS = {
    "nid": Literal("isbn issn"),
    "registered": Literal(True),
    "namespaceValid": Literal(True),
    "canonical": Literal(True),
    "noComponents": Literal(True),
    "uniqueByEquivalence": Literal(True),
}
COMPONENTS = {
    "nid": "NIDConstraintComponent", "registered": "RegisteredConstraintComponent",
    "namespaceValid": "NamespaceValidConstraintComponent",
    "canonical": "CanonicalConstraintComponent",
    "noComponents": "NoComponentsConstraintComponent",
    "uniqueByEquivalence": "UniqueByEquivalenceConstraintComponent",
}


def _ox(term: Node) -> ox.NamedNode | ox.BlankNode | ox.Literal:
    if isinstance(term, URIRef):
        return ox.NamedNode(str(term))
    if isinstance(term, BNode):
        return ox.BlankNode(str(term))
    assert isinstance(term, Literal)
    if term.language:
        return ox.Literal(str(term), language=term.language)
    return ox.Literal(str(term), datatype=ox.NamedNode(str(term.datatype)) if term.datatype else None)


def _property_query(param: str, value: Node | None = None) -> str:
    shapes = Graph().parse(shapes_path("urn.ttl"))
    component = URIRef(URNSH + COMPONENTS[param])
    validator = shapes.value(component, SH.propertyValidator)
    text = str(shapes.value(validator, SH.select))
    # SHACL-SPARQL §5.3.1: $PATH is substituted by the path in SPARQL syntax, and so is the
    # parameter here (pyoxigraph pre-binds only projected variables: $this).
    text = text.replace("$PATH", f"<{EX.id}>")
    if value is not None:
        text = re.sub(rf"\${param}\b", value.n3(), text)
    return "PREFIX urnfn: <https://w3id.org/urnld/fn#>\n" + text


def _store(values: list[Node]) -> ox.Store:
    store = ox.Store()
    for i, value in enumerate(values):
        record = ox.NamedNode(str(EX[f"r{i}"]))
        store.add(ox.Quad(record, ox.NamedNode(str(RDF.type)), ox.NamedNode(str(EX.R))))
        store.add(ox.Quad(record, ox.NamedNode(str(EX.id)), _ox(value)))
    return store


def _flagged_by_oxigraph(param: str, values: list[Node]) -> set[int]:
    """Indexes of the records whose value the component's SPARQL reports, run by pyoxigraph."""
    store = _store(values)
    query = _property_query(param, PARAMS[param])
    flagged = set()
    for i in range(len(values)):
        rows = list(store.query(query, custom_functions=dict(uox.FUNCTIONS), substitutions={
            ox.Variable("this"): ox.NamedNode(str(EX[f"r{i}"])),
        }))
        if rows:
            flagged.add(i)
    return flagged


@pytest.mark.parametrize("param", list(PARAMS))
def test_pyoxigraph_runs_the_components_with_urnlds_verdicts(param: str) -> None:
    values = [*VALUES, Literal("URN:ISBN:0-395-36341-1")]  # a duplicate for uniqueness
    expected = run_component(f"urnsh:{param} {PARAMS[param].n3()}", values, engine="pyshacl",
                             node_shape=False)
    by_urnld = {i for i, v in enumerate(values) if v in expected.by_property}
    assert _flagged_by_oxigraph(param, values) == by_urnld
    assert by_urnld  # every component reports something in the table


def test_pyoxigraph_without_the_functions_refuses_the_query() -> None:
    # Oxigraph does not pass an unknown function off as an error value: it refuses the whole
    # query, so no verdict comes out at all (loud, not silent).
    store = _store([Literal("urn:isbn:0395363412")])
    with pytest.raises(RuntimeError, match=re.escape("https://w3id.org/urnld/fn#")):
        list(store.query(_property_query("namespaceValid", Literal(True)), substitutions={
            ox.Variable("this"): ox.NamedNode(str(EX.r0)),
        }))


def test_pyoxigraph_answers_the_guards_probe() -> None:
    # urnsh:Functions is sh:not urnsh:FunctionsAnswer, whose query returns its row exactly when
    # every probe call has a value: with urnld.oxigraph's functions it does.
    shapes = Graph().parse(shapes_path("urn.ttl"))
    constraint = shapes.value(URIRef(URNSH + "FunctionsAnswer"), SH.sparql)
    query = "PREFIX urnfn: <https://w3id.org/urnld/fn#>\n" + str(shapes.value(constraint,
                                                                               SH.select))
    this = {ox.Variable("this"): ox.NamedNode(str(FN_NAMESPACE))}
    rows = ox.Store().query(query, custom_functions=dict(uox.FUNCTIONS), substitutions=this)
    assert [r["this"] for r in rows] == [ox.NamedNode(str(FN_NAMESPACE))]
    # one function missing: no row (pyoxigraph's custom functions may give no value)
    some = dict(uox.FUNCTIONS)
    some[ox.NamedNode(str(FN_NAMESPACE) + "canonical")] = lambda x: None
    assert list(ox.Store().query(query, custom_functions=some, substitutions=this)) == []
