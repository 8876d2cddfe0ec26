"""SPARQL over a :class:`~urnld.rdf.URNStore`: canonicalize the query's IRI constants first.

The store keeps URNs canonical, and rdflib's engine asks the store for triple patterns, so a
pattern such as ``<URN:ISBN:0-395-36341-1> ?p ?o`` would already match. But expressions compare
terms by themselves — ``FILTER(?x = <URN:…>)``, ``sameTerm(?x, <…>)``, ``?x IN (…)``, ``VALUES``,
negated property paths — and a non-canonical constant there never equals the canonical node.
So before evaluation we walk the translated algebra and replace every IRI constant by what the
store would store for it (the same function, :meth:`URNStore.canonical_term`), then hand the
rewritten query to rdflib's evaluator over the store.

Left alone: function IRIs (``urnfn:nid(…)``, casts such as ``xsd:string(…)``: they name code, and
a rewritten name would not be found), literal datatypes, and the text of ``SERVICE`` clauses.
Invalid URNs stay as written, so they match exactly what the store kept.

A consequence worth knowing: ``STR(<URN:ISBN:0-395-36341-1>)`` is ``"urn:isbn:0395363411"`` in a
query over a URN store — the constant *is* the canonical node there.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from pyparsing import ParseResults
from rdflib.graph import DATASET_DEFAULT_GRAPH_ID, Dataset, Graph
from rdflib.paths import Path
from rdflib.plugins.sparql.algebra import translateQuery, translateUpdate
from rdflib.plugins.sparql.evaluate import evalQuery
from rdflib.plugins.sparql.parser import parseQuery, parseUpdate
from rdflib.plugins.sparql.parserutils import CompValue
from rdflib.plugins.sparql.processor import SPARQLResult
from rdflib.plugins.sparql.sparql import Query, Update
from rdflib.plugins.sparql.update import evalUpdate
from rdflib.term import Identifier, URIRef

if TYPE_CHECKING:
    from rdflib.query import Result

    from ._store import URNStore

__all__ = ["canonicalize_algebra", "evaluate_query", "evaluate_update"]

_Mapper = Callable[[Any], Any]


def canonicalize_algebra(node: Any, canon: _Mapper) -> Any:
    """Replace IRI constants in a translated SPARQL algebra tree by ``canon(iri)``.

    Containers are changed in place (callers pass a fresh or copied tree); tuples, which cannot
    be, are rebuilt. Returns the (possibly new) node.

    >>> from rdflib.plugins.sparql import prepareQuery
    >>> q = prepareQuery("SELECT * WHERE { ?s ?p ?o FILTER(?s = <URN:EXAMPLE:A>) }")
    >>> tree = canonicalize_algebra(q.algebra, lambda t: URIRef(t.lower()))
    >>> "urn:example:a" in str(tree), "URN:EXAMPLE:A" in str(tree)
    (True, False)
    """
    return _Rewriter(canon).visit(node)


class _Rewriter:
    __slots__ = ("_canon", "_seen")

    def __init__(self, canon: _Mapper) -> None:
        self._canon = canon
        # Sub-trees can be shared between parents (rdflib reuses lists of variables); rewriting
        # is idempotent, but there is no reason to walk them twice.
        self._seen: set[int] = set()

    def visit(self, node: Any) -> Any:
        if isinstance(node, URIRef):
            return self._canon(node)
        if isinstance(node, (str, int, float)) or node is None:
            return node  # Literals, Variables, BNodes, plain strings: never rewritten
        if id(node) in self._seen:
            return node
        if isinstance(node, CompValue):
            self._seen.add(id(node))
            for key in list(node.keys()):
                if key == "iri" and node.name == "Function":
                    continue  # a function's name, not a term
                old = dict.__getitem__(node, key)  # raw value; CompValue.__getitem__ evaluates
                new = self.visit(old)
                if new is not old:
                    node[key] = new
            return node
        if isinstance(node, (list, ParseResults)):
            self._seen.add(id(node))
            for i, old in enumerate(node):
                new = self.visit(old)
                if new is not old:
                    node[i] = new
            return node
        if isinstance(node, tuple):
            return tuple(self.visit(x) for x in node)
        if isinstance(node, dict):  # a VALUES row: {Variable: term}
            self._seen.add(id(node))
            for key, old in list(node.items()):
                new = self.visit(old)
                if new is not old:
                    node[key] = new
            return node
        if isinstance(node, Path):
            self._seen.add(id(node))
            # InvPath.arg, MulPath.path, Sequence/Alternative/NegatedPath.args
            for attr in ("arg", "path"):
                if hasattr(node, attr):
                    setattr(node, attr, self.visit(getattr(node, attr)))
            if hasattr(node, "args"):
                node.args = [self.visit(a) for a in node.args]
            return node
        return node


def _graph_for(store: URNStore, query_graph: Any) -> Graph:
    """Rebuild the graph object ``Graph.query`` was called on from what reaches the store.

    rdflib passes only ``queryGraph``: ``"__UNION__"`` for a dataset whose default graph is the
    union, the default graph's name for a dataset, or the graph's own name.
    """
    if isinstance(query_graph, str) and not isinstance(query_graph, Identifier):
        if query_graph == "__UNION__":
            return Dataset(store=store, default_union=True)
        query_graph = URIRef(query_graph)
    ident = store.canonical_term(query_graph)
    if ident == DATASET_DEFAULT_GRAPH_ID and store.graph_aware:
        return Dataset(store=store)
    return Graph(store=store, identifier=ident)  # type: ignore[arg-type]


def _bindings(store: URNStore, init: Mapping[str, Identifier]) -> dict[str, Any]:
    return {k: store.canonical_term(v) for k, v in (init or {}).items()}


def prepare_query(
    query: Query | str, init_ns: Mapping[str, Any], base: str | None, canon: _Mapper
) -> Query:
    """Parse/translate (or copy a prepared query) and canonicalize its IRI constants."""
    if isinstance(query, str):
        prepared = translateQuery(parseQuery(query), base, init_ns)
    else:
        prepared = copy.deepcopy(query)  # the caller may reuse it on other stores
    prepared.algebra = canonicalize_algebra(prepared.algebra, canon)
    return prepared


def evaluate_query(
    store: URNStore,
    query: Query | str,
    init_ns: Mapping[str, Any],
    init_bindings: Mapping[str, Identifier],
    query_graph: Any,
    *,
    base: str | None = None,
    DEBUG: bool = False,  # accepted (and ignored) because rdflib's processor accepts it
) -> Result:
    """``URNStore.query``: rdflib's evaluator over the store, on a canonicalized query."""
    prepared = prepare_query(query, init_ns, base, store.canonical_term)
    graph = _graph_for(store, query_graph)
    return SPARQLResult(evalQuery(graph, prepared, _bindings(store, init_bindings), base))


def evaluate_update(
    store: URNStore,
    update: Update | str,
    init_ns: Mapping[str, Any],
    init_bindings: Mapping[str, Identifier],
    query_graph: Any,
    *,
    base: str | None = None,
) -> None:
    """``URNStore.update``: rdflib's update evaluator on a canonicalized update request.

    Inserted data would be canonicalized by the store anyway; rewriting matters for the
    ``WHERE`` part and ``DELETE`` templates, which are matched against stored nodes.
    """
    if isinstance(update, str):
        prepared = translateUpdate(parseUpdate(update), base, init_ns)
    else:
        prepared = copy.deepcopy(update)
    prepared.algebra = canonicalize_algebra(prepared.algebra, store.canonical_term)
    graph = _graph_for(store, query_graph)
    evalUpdate(graph, prepared, _bindings(store, init_bindings))
