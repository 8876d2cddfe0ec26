"""The urnfn: functions must be registered before validating: unregistered, SHACL passes silently.

A SPARQL FILTER that calls an unknown function raises an expression error, which drops the row;
a SELECT validator then returns nothing, so the constraint *passes*. These tests show the hazard
with plain pyshacl, and that urnld.shacl.validate closes it.
"""

from __future__ import annotations

import pyshacl
import pytest
from rdflib import Graph, Literal
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


@pytest.mark.usefixtures("restore_functions")
def test_plain_pyshacl_passes_silently_without_the_functions() -> None:
    _unregister_all()
    conforms, _, _ = pyshacl.validate(_data(), shacl_graph=_shapes())
    assert conforms  # the hazard: a wrong check digit, and yet "conforms"


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
