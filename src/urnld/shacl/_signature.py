"""Whether a ``urnsh:`` component in a shapes graph is declared exactly as urnld ships it.

Only then may urnld evaluate it in Python (the pyshacl path) or in bulk (the plan): a
redefined component (other validators, queries, messages, parameters) is run as declared.
"""

from __future__ import annotations

import functools
from importlib import resources
from typing import Any

from rdflib import RDF, Graph, URIRef
from rdflib.namespace import SH
from rdflib.term import Node

from ._rules import RULES

__all__ = ["is_shipped", "shipped_shapes_text"]

_VALIDATOR_KINDS = (SH.validator, SH.nodeValidator, SH.propertyValidator)


def shipped_shapes_text(name: str) -> str:
    """The text of a shapes file shipped in the package (``urn.ttl``, ``catalog.ttl``)."""
    return (resources.files("urnld") / "shapes" / name).read_text(encoding="utf-8")


@functools.lru_cache(maxsize=1)
def _shipped_signatures() -> dict[URIRef, frozenset[tuple[Any, ...]]]:
    graph = Graph().parse(data=shipped_shapes_text("urn.ttl"), format="turtle")
    return {iri: _signature(graph, iri) for iri in RULES}


def _strings(graph: Graph, node: Node, prop: URIRef) -> tuple[str, ...]:
    return tuple(sorted(str(o) for o in graph.objects(node, prop)))


def _signature(graph: Graph, component: URIRef) -> frozenset[tuple[Any, ...]]:
    """Everything about a component declaration that decides what its validators compute."""
    items: set[tuple[Any, ...]] = set()
    for kind in _VALIDATOR_KINDS:
        for v in graph.objects(component, kind):
            prefixes = tuple(
                sorted(
                    (str(graph.value(d, SH.prefix)), str(graph.value(d, SH.namespace)))
                    for p in graph.objects(v, SH.prefixes)
                    for d in graph.objects(p, SH.declare)
                )
            )
            items.add(
                (
                    str(kind),
                    _strings(graph, v, RDF.type),
                    _strings(graph, v, SH.select),
                    _strings(graph, v, SH.ask),
                    _strings(graph, v, SH.message),
                    prefixes,
                )
            )
    for param in graph.objects(component, SH.parameter):
        items.add(
            ("parameter", _strings(graph, param, SH.path), _strings(graph, param, SH.optional))
        )
    return frozenset(items)


def is_shipped(graph: Graph, component: URIRef) -> bool:
    """Is *component* declared in *graph* exactly as ``shapes/urn.ttl`` declares it?"""
    shipped = _shipped_signatures().get(component)
    return shipped is not None and _signature(graph, component) == shipped
