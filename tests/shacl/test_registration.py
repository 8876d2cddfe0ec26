"""The urnfn: functions and what happens without them: the shapes fail closed.

A SPARQL FILTER that calls an unknown function raises an expression error, which drops the row;
a SELECT validator would then return nothing, so the constraint would *pass*. urn.ttl's
validators probe their function and report every value node when it is missing, with a message
that says so; urnld.shacl.validate registers the functions itself.
"""

from __future__ import annotations

import pyshacl
import pytest
from rdflib import BNode, Graph, Literal
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


_MISSING = "functions-missing where the engine lacks the urnfn: functions"

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
_COMPONENTS = {"NID", "Registered", "NamespaceValid", "Canonical", "NoComponents",
               "UniqueByEquivalence"}


@pytest.mark.usefixtures("restore_functions")
def test_plain_pyshacl_fails_closed_without_the_functions() -> None:
    # The old shapes passed here silently: a wrong check digit, and yet "conforms".
    _unregister_all()
    conforms, _, text = pyshacl.validate(_data(), shacl_graph=_shapes())
    assert not conforms
    assert _MISSING in text


@pytest.mark.usefixtures("restore_functions")
def test_every_component_reports_every_value_when_its_function_is_missing() -> None:
    shapes = Graph().parse(shapes_path("urn.ttl")).parse(data=EVERY_COMPONENT, format="turtle")
    data = Graph().parse(data=GOOD, format="turtle")
    urnld.rdf.register_functions()
    conforms, _, _ = pyshacl.validate(data, shacl_graph=shapes)
    assert conforms  # with the functions: nothing to report
    _unregister_all()
    conforms, graph, _ = pyshacl.validate(data, shacl_graph=shapes)
    assert not conforms
    from urnld.shacl import Report

    results = Report.from_graph(graph).results
    assert all(_MISSING in r.message for r in results)
    seen = {(r.component.split("#")[1].removesuffix("ConstraintComponent"), str(r.focus_node))
            for r in results}
    # property shape: every component on both records; node shape: every node component
    for component in _COMPONENTS:
        assert (component, str(EX.a)) in seen
        assert (component, str(EX.b)) in seen
        if component != "UniqueByEquivalence":  # a property-shape-only component
            assert (component, "urn:isbn:0395363411") in seen


@pytest.mark.usefixtures("restore_functions")
def test_the_bundled_example_fails_closed_in_plain_pyshacl() -> None:
    # urnld's own run reports 19 results; plain pyshacl without the functions must not report
    # fewer (it reported 4, the core-SHACL ones, before the shapes failed closed).
    from pathlib import Path

    example = Path(__file__).parents[2] / "examples/shacl/catalog.ttl"
    urnld_results = validate(str(example)).results
    _unregister_all()
    shapes = Graph().parse(shapes_path("urn.ttl")).parse(shapes_path("catalog.ttl"))
    conforms, graph, _ = pyshacl.validate(Graph().parse(example), shacl_graph=shapes)
    assert not conforms
    from urnld.shacl import Report

    plain = Report.from_graph(graph).results
    assert len(plain) > len(urnld_results)
    def key(r):  # blank nodes get new labels in each parse
        return (r.focus_node, "_:b" if isinstance(r.value, BNode) else r.value)

    assert {key(r) for r in urnld_results} <= {key(r) for r in plain}


def test_plain_pyshacl_reports_the_value_with_the_functions() -> None:
    urnld.rdf.register_functions()
    conforms, report, _ = pyshacl.validate(_data(), shacl_graph=_shapes())
    assert not conforms
    assert (None, None, Literal("urn:isbn:0395363412")) in report


@pytest.mark.usefixtures("restore_functions")
@pytest.mark.parametrize("engine", ["python", "sparql", "pyshacl"])
def test_validate_registers_the_functions_itself(engine: str) -> None:
    _unregister_all()
    report = validate(_data(), Graph().parse(data=SHAPES, format="turtle"), engine=engine)
    assert [(r.focus_node, r.value) for r in report.results] == [
        (EX.a, Literal("urn:isbn:0395363412"))
    ]
    assert any(str(n) == str(URNFN.findings) for n in _CUSTOM_FUNCTIONS)


@pytest.mark.usefixtures("restore_functions")
def test_validate_refuses_to_run_when_registration_does_not_take(monkeypatch) -> None:
    _unregister_all()
    monkeypatch.setattr(_engine, "register_functions", lambda: None)
    with pytest.raises(RuntimeError, match="urnfn: SPARQL functions are not registered"):
        validate(_data(), Graph().parse(data=SHAPES, format="turtle"))
