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
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from types import MethodType
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

from ..read import HazardMode, guard_text

if TYPE_CHECKING:
    from rdflib.query import Result

    from ._store import URNStore

__all__ = ["canonicalize_algebra", "evaluate_query", "evaluate_update"]

_Mapper = Callable[[Any], Any]


def canonicalize_algebra(node: Any, canon: _Mapper) -> Any:
    """A copy of a translated SPARQL algebra tree with IRI constants replaced by ``canon(iri)``.

    The input is never modified: a prepared query may be reused on other graphs, where its
    constants must keep their original meaning.

    >>> from rdflib.plugins.sparql import prepareQuery
    >>> q = prepareQuery("SELECT * WHERE { ?s ?p ?o FILTER(?s = <URN:EXAMPLE:A>) }")
    >>> tree = canonicalize_algebra(q.algebra, lambda t: URIRef(t.lower()))
    >>> "urn:example:a" in str(tree), "URN:EXAMPLE:A" in str(q.algebra)
    (True, True)
    """
    return _Rewriter(canon).visit(node)


class _Rewriter:
    """Copies the tree, rewriting IRIs. Shared sub-trees stay shared in the copy."""

    __slots__ = ("_canon", "_memo")

    def __init__(self, canon: _Mapper) -> None:
        self._canon = canon
        self._memo: dict[int, Any] = {}

    def visit(self, node: Any) -> Any:
        if isinstance(node, URIRef):
            return self._canon(node)
        if isinstance(node, (str, int, float, set, frozenset)) or node is None:
            # Literals, Variables, BNodes, plain strings; sets hold only variables (_vars)
            return node
        done = self._memo.get(id(node))
        if done is not None:
            return done
        if isinstance(node, CompValue):
            # CompValue/Expr need a name in __init__ (so copy.copy fails): build by hand.
            new_cv = CompValue.__new__(type(node))
            OrderedDict.__init__(new_cv)
            new_cv.__dict__.update(node.__dict__)  # name, ctx, and for Expr: _evalfn
            evalfn = node.__dict__.get("_evalfn")
            if isinstance(evalfn, MethodType):
                # Expr binds its evaluator to itself; bound to the original it would evaluate
                # the original (unrewritten) expression.
                new_cv._evalfn = MethodType(evalfn.__func__, new_cv)
            self._memo[id(node)] = new_cv
            is_function = node.name == "Function"
            for key in node:
                raw = OrderedDict.__getitem__(node, key)  # CompValue.__getitem__ evaluates
                # a function's IRI names code, not a term: never rewrite it
                new_cv[key] = raw if (is_function and key == "iri") else self.visit(raw)
            return new_cv
        if isinstance(node, ParseResults):
            new_pr = node.copy()
            self._memo[id(node)] = new_pr
            for i, item in enumerate(node):
                new_pr[i] = self.visit(item)
            return new_pr
        if isinstance(node, list):
            new_list: list[Any] = []
            self._memo[id(node)] = new_list
            new_list.extend(self.visit(x) for x in node)
            return new_list
        if isinstance(node, tuple):
            return tuple(self.visit(x) for x in node)
        if isinstance(node, dict):  # a VALUES row: {Variable: term}
            new_dict = {k: self.visit(v) for k, v in node.items()}
            self._memo[id(node)] = new_dict
            return new_dict
        if isinstance(node, Path):
            new_path = copy.copy(node)
            self._memo[id(node)] = new_path
            # InvPath.arg, MulPath.path, Sequence/Alternative/NegatedPath.args
            for attr in ("arg", "path"):
                if hasattr(node, attr):
                    setattr(new_path, attr, self.visit(getattr(node, attr)))
            if hasattr(node, "args"):
                new_path.args = [self.visit(a) for a in node.args]  # type: ignore[attr-defined]
            return new_path
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


# rdflib's SPARQL grammar (pyparsing) keeps parse state in shared objects: two threads parsing
# at once corrupt each other's results (TypeErrors, "Expected SelectQuery"). Parsing is a small
# part of a query's cost, so it is serialized; evaluation runs in parallel.
_PARSE_LOCK = threading.Lock()


def prepare_query(
    query: Query | str, init_ns: Mapping[str, Any], base: str | None, canon: _Mapper
) -> Query:
    """Parse/translate (or copy a prepared query) and canonicalize its IRI constants."""
    if isinstance(query, str):
        with _PARSE_LOCK:
            query = translateQuery(parseQuery(query), base, init_ns)
    return Query(query.prologue, canonicalize_algebra(query.algebra, canon))


def evaluate_query(
    store: URNStore,
    query: Query | str,
    init_ns: Mapping[str, Any],
    init_bindings: Mapping[str, Identifier],
    query_graph: Any,
    *,
    base: str | None = None,
    hazards: HazardMode = "error",
    DEBUG: bool = False,  # accepted (and ignored) because rdflib's processor accepts it
) -> Result:
    """``URNStore.query``: rdflib's evaluator over the store, on a canonicalized query.

    A relative IRI reference against a URN ``BASE`` (or a URN *base*) is refused with
    :class:`~urnld.jsonld.URNBaseError` (``hazards="warn"``: warned about and resolved as
    RFC 3986 does); fragment-only, query-only and empty references resolve as they should.
    """
    if isinstance(query, str):
        query = guard_text(query, base, source="SPARQL query", syntax="sparql", hazards=hazards)
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
    hazards: HazardMode = "error",
) -> None:
    """``URNStore.update``: rdflib's update evaluator on a canonicalized update request.

    Relative references against a URN base are guarded as in :func:`evaluate_query`.

    Inserted data would be canonicalized by the store anyway; rewriting matters for the
    ``WHERE`` part and ``DELETE`` templates, which are matched against stored nodes.
    """
    if isinstance(update, str):
        update = guard_text(update, base, source="SPARQL update", syntax="sparql",
                            hazards=hazards)
        with _PARSE_LOCK:
            update = translateUpdate(parseUpdate(update), base, init_ns)
    prepared = Update(update.prologue, canonicalize_algebra(update.algebra, store.canonical_term))
    graph = _graph_for(store, query_graph)
    evalUpdate(graph, prepared, _bindings(store, init_bindings))
