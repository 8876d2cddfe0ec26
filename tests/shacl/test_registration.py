"""The urnfn: functions and what happens without them: the shapes fail closed, once.

A SPARQL FILTER that calls an unknown function raises an expression error, which drops the row;
a SELECT validator would then return nothing, so the constraint would *pass*. urn.ttl's
validators probe their functions and return nothing without them (no value is called "not a
URN" for the engine's sake), and its shape urnsh:Functions reports the missing functions once;
urnld.shacl.validate registers the functions itself.
"""

from __future__ import annotations

import pyshacl
import pytest
from rdflib import BNode, Graph, Literal, URIRef
from rdflib.namespace import SH
from rdflib.plugins.sparql.operators import _CUSTOM_FUNCTIONS, unregister_custom_function
from shacl_helpers import EX, PREFIXES

import urnld.rdf
from urnld.rdf import URNFN
from urnld.shacl import _engine, shapes_path, validate

SHAPES = PREFIXES + """
ex:P a sh:NodeShape ; sh:targetClass ex:R ;
    sh:property [ sh:path ex:id ; urnsh:namespaceValid true ] .
"""
DATA = PREFIXES + 'ex:a a ex:R ; ex:id "urn:isbn:0395363412" .'  # wrong check digit


def _unregister_all() -> None:
    for name in list(_CUSTOM_FUNCTIONS):
        if str(name).startswith(str(URNFN)):
            unregister_custom_function(name, _CUSTOM_FUNCTIONS[name][0])
    assert not any(str(n).startswith(str(URNFN)) for n in _CUSTOM_FUNCTIONS)


def _shapes() -> Graph:
    return Graph().parse(shapes_path("urn.ttl")).parse(data=SHAPES, format="turtle")


def _data() -> Graph:
    return Graph().parse(data=DATA, format="turtle")


_MISSING = "URN functions missing (urnld's SPARQL functions are not registered in this engine"
FN_NAMESPACE = URIRef("https://w3id.org/urnld/fn#")

# One value that every component passes when the functions are there (canonical, registered,
# valid ISBN, no components, unique), on a property shape and as a node shape's focus node.
EVERY_COMPONENT = PREFIXES + """
ex:P a sh:NodeShape ; sh:targetClass ex:R ;
    sh:property [ sh:path ex:id ; urnsh:nid "isbn" ; urnsh:registered true ;
                  urnsh:namespaceValid true ; urnsh:canonical true ; urnsh:noComponents true ;
                  urnsh:uniqueByEquivalence true ] .
ex:N a sh:NodeShape ; sh:targetObjectsOf ex:ref ;
    urnsh:nid "isbn" ; urnsh:registered true ; urnsh:namespaceValid true ;
    urnsh:canonical true ; urnsh:noComponents true .
"""
GOOD = PREFIXES + """
ex:a a ex:R ; ex:id "urn:isbn:0395363411" .
ex:b a ex:R ; ex:id "urn:isbn:9780141439518" .
ex:c ex:ref <urn:isbn:0395363411> .
"""
# The same shapes on values that break every component (not canonical, unregistered NID, bad
# check digit, components, a duplicate, not a URN at all).
BAD = PREFIXES + """
ex:a a ex:R ; ex:id "URN:ISBN:0-395-36341-2" , "urn:foo:x#y" , "hello" .
ex:b a ex:R ; ex:id "urn:isbn:0395363412" .
ex:c ex:ref <urn:foo:x#y> , "hello" .
"""
_COMPONENTS = {"NID", "Registered", "NamespaceValid", "Canonical", "NoComponents",
               "UniqueByEquivalence"}


def _only_the_guard(graph: Graph) -> None:
    """The report holds exactly one result: urnsh:Functions on the functions' namespace."""
    from urnld.shacl import Report

    results = Report.from_graph(graph).results
    assert [(r.focus_node, r.severity, str(r.source_shape)) for r in results] == [
        (FN_NAMESPACE, "Violation", "https://w3id.org/urnld/shacl#Functions")
    ]
    assert results[0].message.startswith(_MISSING)


@pytest.mark.usefixtures("restore_functions")
def test_plain_pyshacl_fails_closed_without_the_functions() -> None:
    # A wrong check digit: without the functions the data must not conform, and the one result
    # says why (not "the value is not a URN", which would be a wrong verdict).
    _unregister_all()
    conforms, graph, text = pyshacl.validate(_data(), shacl_graph=_shapes())
    assert not conforms
    _only_the_guard(graph)
    assert "urn:isbn:0395363412" not in text


@pytest.mark.usefixtures("restore_functions")
@pytest.mark.parametrize("data", [GOOD, BAD], ids=["good", "bad"])
def test_without_the_functions_one_result_whatever_the_values(data: str) -> None:
    shapes = Graph().parse(shapes_path("urn.ttl")).parse(data=EVERY_COMPONENT, format="turtle")
    graph = Graph().parse(data=data, format="turtle")
    urnld.rdf.register_functions()
    conforms, report, _ = pyshacl.validate(graph, shacl_graph=shapes)
    assert conforms == (data == GOOD)  # with the functions: the values decide
    if data == BAD:
        from urnld.shacl import Report

        components = {r.component.split("#")[1].removesuffix("ConstraintComponent")
                      for r in Report.from_graph(report).results}
        assert components == _COMPONENTS
    _unregister_all()
    conforms, report, _ = pyshacl.validate(graph, shacl_graph=shapes)
    assert not conforms
    _only_the_guard(report)


@pytest.mark.usefixtures("restore_functions")
def test_one_missing_function_is_enough_for_the_guard() -> None:
    # An engine with some of the functions (here: all but urnfn:equivalent, which only the
    # uniqueness component calls) is reported too.
    name = URIRef(str(URNFN) + "equivalent")
    unregister_custom_function(name, _CUSTOM_FUNCTIONS[name][0])
    conforms, graph, _ = pyshacl.validate(
        Graph().parse(data=GOOD, format="turtle"),
        shacl_graph=Graph().parse(shapes_path("urn.ttl")).parse(data=EVERY_COMPONENT,
                                                                 format="turtle"))
    assert not conforms
    _only_the_guard(graph)


@pytest.mark.usefixtures("restore_functions")
def test_the_guard_can_be_deactivated_for_a_core_only_run() -> None:
    _unregister_all()
    shapes = _shapes().parse(data=PREFIXES + "urnsh:Functions sh:deactivated true .",
                             format="turtle")
    conforms, _, _ = pyshacl.validate(_data(), shacl_graph=shapes)
    assert conforms  # what the engine can run (nothing here but components) passes


@pytest.mark.usefixtures("restore_functions")
def test_the_bundled_example_without_the_functions(repo_root) -> None:
    # urnld's run reports the example's defects; plain pyshacl without the functions reports
    # the core-SHACL ones among them, and the missing functions once, and nothing else.
    from urnld.shacl import Report

    example = repo_root / "examples/shacl/catalog.ttl"
    urnld_results = validate(str(example)).results
    _unregister_all()
    shapes = Graph().parse(shapes_path("urn.ttl")).parse(shapes_path("catalog.ttl"))
    conforms, graph, _ = pyshacl.validate(Graph().parse(example), shacl_graph=shapes)
    assert not conforms
    plain = Report.from_graph(graph).results

    def key(r):  # blank nodes get new labels in each parse
        return (r.focus_node, "_:b" if isinstance(r.value, BNode) else r.value, r.component)

    core = {key(r) for r in urnld_results if r.component.startswith(str(SH))}
    assert core  # the example has core-SHACL defects
    guard = [r for r in plain if r.focus_node == FN_NAMESPACE]
    assert len(guard) == 1 and guard[0].message.startswith(_MISSING)
    assert {key(r) for r in plain if r.focus_node != FN_NAMESPACE} == core


def test_plain_pyshacl_reports_the_value_with_the_functions() -> None:
    urnld.rdf.register_functions()
    conforms, report, _ = pyshacl.validate(_data(), shacl_graph=_shapes())
    assert not conforms
    assert (None, None, Literal("urn:isbn:0395363412")) in report


@pytest.mark.usefixtures("restore_functions")
@pytest.mark.parametrize("engine", ["plan", "pyshacl", "sparql", "plain-pyshacl"])
def test_validate_registers_the_functions_itself(engine: str) -> None:
    _unregister_all()
    report = validate(_data(), Graph().parse(data=SHAPES, format="turtle"), evaluator=engine)
    assert [(r.focus_node, r.value) for r in report.results] == [
        (EX.a, Literal("urn:isbn:0395363412"))
    ]
    # The plan judges URNs itself and needs no rdflib functions; pyshacl's runs register them.
    registered = any(str(n) == str(URNFN.findings) for n in _CUSTOM_FUNCTIONS)
    assert registered is (engine != "plan")


@pytest.mark.usefixtures("restore_functions")
def test_validate_refuses_to_run_when_registration_does_not_take(monkeypatch) -> None:
    _unregister_all()
    monkeypatch.setattr(_engine, "register_functions", lambda: None)
    with pytest.raises(RuntimeError, match="urnfn: SPARQL functions are not registered"):
        validate(_data(), Graph().parse(data=SHAPES, format="turtle"), evaluator="pyshacl")
