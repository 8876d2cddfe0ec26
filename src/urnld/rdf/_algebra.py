"""URN-aware set operators (``a + b``, ``a - b``, ``a * b``/``a & b``, ``a ^ b``, ``a | b``) for
graphs on a :class:`~urnld.rdf.URNStore`.

rdflib builds the result of a set operator as ``type(self)()``: for ``Graph(store="URN")`` that
is a plain in-memory ``Graph``, on which two spellings of one URN are two nodes again; and
``a - b`` compares *a*'s canonical statements with *b*'s spellings as written. Python looks
operators up on the class, so they cannot be set per graph: urnld replaces ``Graph``'s five
operators once (when the URN store is imported) with versions that, for a graph on a URN store
(``Graph`` itself, or :class:`~urnld.rdf.URNGraph`), build the result on a new URN store and
compare statements by URN equivalence; for every other graph they are rdflib's own, called
unchanged.

>>> from rdflib import Graph
>>> a = Graph(store="URN").parse(data='<URN:ISBN:0-395-36341-1> <urn:example:p> "x" .', format="nt")
>>> b = Graph().parse(data='<urn:ISBN:0395363411> <urn:example:p> "x" .', format="nt")
>>> len(a - b), len(a + b), len(a & b), len(a ^ b), type((a + b).store).__name__
(0, 1, 1, 0, 'URNStore')
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rdflib.graph import Graph

__all__ = ["install_algebra"]

_ORIGINAL: dict[str, Callable[[Any, Any], Any]] = {}
# The URN store's class, given by the store's module when it installs the operators.
_STORE: list[type] = []


def _urn_aware(graph: Any) -> bool:
    return (type(graph) is Graph or getattr(type(graph), "urn_algebra", False)) and isinstance(
        graph.store, _STORE[0])


def _new(graph: Any) -> Graph:
    return Graph(store=_STORE[0]()) if type(graph) is Graph else type(graph)()


def _on_urn_store(graph: Any) -> Any:
    """*graph* itself when its store is a URN store, else a copy on one (canonical spellings)."""
    if isinstance(getattr(graph, "store", None), _STORE[0]):
        return graph
    copy = Graph(store=_STORE[0]())
    copy.addN((s, p, o, copy) for s, p, o in graph)
    return copy


def _union(self: Any, other: Any) -> Any:
    if not _urn_aware(self):
        return _ORIGINAL["__add__"](self, other)
    result = _new(self)
    for prefix, namespace in set(list(self.namespaces()) + list(other.namespaces())):
        result.bind(prefix, namespace)
    result.addN((s, p, o, result) for s, p, o in self)
    result.addN((s, p, o, result) for s, p, o in other)
    return result


def _intersection(self: Any, other: Any) -> Any:
    if not _urn_aware(self):
        return _ORIGINAL["__mul__"](self, other)
    result = _new(self)
    result.addN((s, p, o, result) for s, p, o in other if (s, p, o) in self)
    return result


def _difference(self: Any, other: Any) -> Any:
    if not _urn_aware(self):
        return _ORIGINAL["__sub__"](self, other)
    result = _new(self)
    theirs = _on_urn_store(other)
    result.addN((s, p, o, result) for s, p, o in self if (s, p, o) not in theirs)
    return result


def _symmetric_difference(self: Any, other: Any) -> Any:
    if not _urn_aware(self):
        return _ORIGINAL["__xor__"](self, other)
    return _union(_difference(self, other), _difference(_on_urn_store(other), self))


def install_algebra(store: type) -> None:
    """Replace ``Graph``'s set operators with ones URN-aware for graphs on a *store* (the URN
    store's class), once; see the module."""
    if _ORIGINAL:
        return
    _STORE.append(store)
    for name in ("__add__", "__mul__", "__sub__", "__xor__"):
        _ORIGINAL[name] = getattr(Graph, name)
    for name, function in (("__add__", _union), ("__or__", _union), ("__mul__", _intersection),
                           ("__and__", _intersection), ("__sub__", _difference),
                           ("__xor__", _symmetric_difference)):
        setattr(Graph, name, function)
