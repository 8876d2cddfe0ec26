"""Helpers for the SHACL tests: tiny shapes around one component, run on a list of values."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rdflib import RDF, BNode, Graph, Namespace
from rdflib.term import Node

from urnld.shacl import Report, validate

EX = Namespace("http://example.org/")
URNSH = Namespace("https://w3id.org/urnld/shacl#")

PREFIXES = """
@prefix sh: <http://www.w3.org/ns/shacl#> .
@prefix ex: <http://example.org/> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
@prefix urnsh: <https://w3id.org/urnld/shacl#> .
"""

ENGINES = ["plan", "pyshacl", "sparql"]


@dataclass(frozen=True)
class Flagged:
    """Which values a component flagged, through a property shape and through a node shape."""

    by_property: frozenset[Node]
    by_node: frozenset[Node]
    report: Report


def run_component(
    constraint: str,
    values: Sequence[Node],
    *,
    engine: str,
    node_shape: bool = True,
) -> Flagged:
    """Put each value on its own record ``ex:rN ex:id value`` and validate with *constraint*.

    The property shape ``ex:P`` targets the records (``sh:path ex:id``); the node shape ``ex:N``
    (``sh:targetObjectsOf ex:id``) makes each value a focus node itself.
    """
    shapes = PREFIXES + f"""
    ex:P a sh:NodeShape ; sh:targetClass ex:R ; sh:property [ sh:path ex:id ; {constraint} ] .
    """
    if node_shape:
        shapes += f"ex:N a sh:NodeShape ; sh:targetObjectsOf ex:id ; {constraint} .\n"
    data = Graph()
    for i, value in enumerate(values):
        record = EX[f"r{i}"]
        data.add((record, RDF.type, EX.R))
        data.add((record, EX.id, value))
    report = validate(data, Graph().parse(data=shapes, format="turtle"), evaluator=engine)
    by_property = set()
    by_node = set()
    for r in report.results:
        if r.path is not None:
            assert r.focus_node in {EX[f"r{i}"] for i in range(len(values))}
            by_property.add(r.value)
        else:
            assert r.focus_node == r.value
            by_node.add(r.value)
    return Flagged(frozenset(by_property), frozenset(by_node), report)


def blank() -> BNode:
    return BNode()
