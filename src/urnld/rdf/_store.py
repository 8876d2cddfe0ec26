"""``URNStore``: an rdflib store that keeps every URN IRI in canonical form.

Wrap any rdflib store (the in-memory ``Memory`` store by default, oxrdflib's Oxigraph store,
BerkeleyDB…). Every IRI that is a valid URN is replaced by its canonical form on the way in
(``add``/``addN``/``remove``) *and* in every pattern (``triples``/``quads``/``contexts``/
``__len__``), including graph names, so ``URN:ISBN:0-395-36341-1`` and ``urn:isbn:0395363411``
are one node whichever spelling you store or ask for. The inner store holds plain canonical
``URIRef`` values, nothing urnld-specific.

Left untouched: blank nodes, literals, IRIs that are not URNs, and *invalid* URNs — anything
starting with ``urn:`` that is not RFC 8141 syntax or whose NID RFC 8141 rules out (``X-``
experimental, reserved ``XY-``…), the same rule as ``urnld canonicalize``. Invalid URNs are kept
as written (never dropped) and counted in :attr:`URNStore.invalid_urns`. A URN with only a
namespace finding (say, a wrong ISBN check digit) still has an equivalence class, so it *is*
canonicalized; ``urnfn:findings`` / ``urnld check`` report it.

SPARQL queries and updates run through rdflib's engine after their IRI constants have been
canonicalized the same way (see :mod:`urnld.rdf._sparql`), so ``FILTER(?x = <URN:…>)``,
``sameTerm``, ``IN`` and ``VALUES`` match by URN equivalence too.

Registered as the rdflib store plugin ``"URN"`` (entry point ``rdf.plugins.store``):

>>> from rdflib import Graph, URIRef, RDFS, Literal
>>> g = Graph(store="URN")
>>> _ = g.add((URIRef("URN:ISBN:0-395-36341-1"), RDFS.label, Literal("The Hobbit")))
>>> [str(s) for s in g.subjects()]
['urn:isbn:0395363411']
>>> (URIRef("urn:ISBN:0-395-36341-1"), RDFS.label, Literal("The Hobbit")) in g
True

Normalizing IRIs departs from RDF 1.1, which compares IRIs as plain strings: choosing this store
is how you opt in.
"""

from __future__ import annotations

import collections
import re
from collections.abc import Generator, Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from rdflib.graph import Graph
from rdflib.plugins.stores.memory import Memory
from rdflib.store import Store
from rdflib.term import Identifier, Node, URIRef

from .._kernel import is_rdflib_internal, is_urn_like
from ._term import URNRef, analyze

if TYPE_CHECKING:
    from rdflib.graph import (
        _ContextType,
        _QuadType,
        _TriplePatternType,
        _TripleType,
    )
    from rdflib.plugins.sparql.sparql import Query, Update
    from rdflib.query import Result

__all__ = ["URNStore"]

# Per-store caches of term -> canonical term. Catalog data repeats URNs a lot, and the bound keeps
# a long-lived store from holding every IRI it ever saw; a full cache is simply emptied.
_TERM_CACHE_SIZE = 1 << 18


def _classify(text: str) -> tuple[str, bool]:
    """``(replacement, invalid)`` for one IRI string.

    Non-URNs and invalid URNs come back unchanged (``invalid`` tells them apart); usable URNs
    come back canonical. "Invalid" is the rule of :func:`urnld.rdf._term.analyze`, shared with
    ``URNRef`` and ``urnld canonicalize``: bad syntax or an NID that RFC 8141 rules out.
    """
    if not is_urn_like(text) or is_rdflib_internal(text):
        return text, False
    canonical, _reason = analyze(text)
    if canonical is None:
        return text, True
    return canonical, False


class _Canonicalizer:
    """Maps terms to their canonical form, with a dict cache keyed by the term object.

    Only exact ``URIRef`` values (and subclasses such as ``URNRef``) can change; everything else
    is returned as is without a lookup.
    """

    __slots__ = ("cache", "invalid")

    def __init__(self) -> None:
        # Cleared (never rebound) when full: URNStore keeps a reference to its .get.
        self.cache: dict[URIRef, URIRef] = {}
        self.invalid: collections.Counter[str] = collections.Counter()

    def term(self, t: Any) -> Any:
        """Canonical form of ``t`` for a pattern (invalid URNs are not counted)."""
        if type(t) is URIRef:
            c = self.cache.get(t)
            return c if c is not None else self._miss(t, count=False)
        if isinstance(t, URIRef):
            return self._subclass(t, count=False)
        return t

    def added(self, t: Any) -> Any:
        """Canonical form of ``t`` in a statement being added (invalid URNs are counted)."""
        if type(t) is URIRef:
            c = self.cache.get(t)
            return c if c is not None else self._miss(t, count=True)
        if isinstance(t, URIRef):
            return self._subclass(t, count=True)
        return t

    def _subclass(self, t: URIRef, *, count: bool) -> URIRef:
        """URIRef subclasses: URNRef becomes a plain canonical URIRef (the store holds only
        those); others (rdflib's skolem ``Genid``…) keep their class unless they are URNs."""
        text, invalid = _classify(str(t))
        if invalid:
            if count:
                self.invalid[text] += 1
            return t
        # str.__eq__: rdflib terms never equal a plain str (Identifier.__eq__ checks the class)
        if isinstance(t, URNRef) or not str.__eq__(text, t):
            return self._miss(URIRef(text), count=count)
        return t

    def _miss(self, t: URIRef, *, count: bool) -> URIRef:
        cached = self.cache.get(t)
        if cached is not None:
            return cached
        text, invalid = _classify(str(t))
        if invalid:
            # Not cached: every occurrence must reach the counter. Invalid URNs are rare.
            if count:
                self.invalid[text] += 1
            return t
        if len(self.cache) >= _TERM_CACHE_SIZE:
            self.cache.clear()
        result = t if str.__eq__(text, t) else URIRef(text)  # reuse the term when unchanged
        self.cache[t] = result
        return result


_URN_NAMESPACE = re.compile(r"(?i)urn:([a-z0-9][a-z0-9-]*):(.*)", re.DOTALL)
_PCT = re.compile(r"%[0-9a-fA-F]{2}")


def _normalize_namespace(text: str) -> str:
    """``URN:ISBN:`` → ``urn:isbn:``: scheme and NID lower case, %-escapes upper case
    (RFC 8141 §3); the rest of a namespace IRI is kept as written.

    >>> _normalize_namespace("URN:ISBN:"), _normalize_namespace("URN:Example:a%2cb/")
    ('urn:isbn:', 'urn:example:a%2Cb/')
    """
    m = _URN_NAMESPACE.fullmatch(text)
    if m is None:
        return text
    return f"urn:{m.group(1).lower()}:" + _PCT.sub(lambda e: e.group(0).upper(), m.group(2))


class URNStore(Store):
    """An rdflib store wrapping ``inner`` that canonicalizes URN IRIs on the way in and out.

    Args:
        inner: the store that holds the data (default: a new ``Memory`` store). A ``str`` here
            is taken as rdflib's *configuration* argument (rdflib instantiates store plugins as
            ``StoreClass(configuration)``) and is passed to ``inner.open()``.
        identifier: rdflib's store identifier, kept as is.

    Context-, graph- and transaction-awareness mirror the inner store, so ``Dataset(store=...)``
    works when the inner store supports named graphs (Memory and Oxigraph do).

    >>> from rdflib import Dataset, URIRef, RDF, RDFS
    >>> ds = Dataset(store=URNStore())
    >>> _ = ds.graph(URIRef("URN:EXAMPLE:g")).add((URIRef("urn:Example:x"), RDF.type, RDFS.Class))
    >>> sorted(str(g.identifier) for g in ds.graphs())
    ['urn:example:g', 'urn:x-rdflib:default']
    """

    formula_aware = False  # the inner store's, set per instance: N3 formulas need it

    def __init__(
        self,
        inner: Store | str | None = None,
        identifier: Identifier | None = None,
    ) -> None:
        configuration = inner if isinstance(inner, str) else None
        self.inner: Store = inner if isinstance(inner, Store) else Memory()
        self.identifier = identifier
        self.context_aware = self.inner.context_aware
        self.graph_aware = self.inner.graph_aware
        self.transaction_aware = self.inner.transaction_aware
        self.formula_aware = self.inner.formula_aware
        self._canon = _Canonicalizer()
        self._cache_get = self._canon.cache.get
        # Memory hands back the very context objects we gave it (ours, bound to this store);
        # other stores build their own Graph objects bound to *themselves*, which must be
        # re-bound to this wrapper or queries on them would bypass canonicalization.
        self._rebind_contexts = type(self.inner) is not Memory
        # (context given, context to use) of the last call; one tuple so that concurrent
        # readers never see the "in" of one call with the "out" of another.
        self._last_ctx: tuple[Any, Any] = (None, None)
        self._ctx_cache: dict[Node, Graph] = {}
        super().__init__(configuration, identifier)
        # One event stream: listeners on this store see the (canonical) events of the inner one.
        self.dispatcher = self.inner.dispatcher

    def __repr__(self) -> str:
        return f"<URNStore inner={type(self.inner).__name__}>"

    # --- what was met -----------------------------------------------------------------------
    @property
    def invalid_urns(self) -> collections.Counter[str]:
        """Invalid URNs met in added statements: spelling → number of term positions.

        They are stored exactly as written (never dropped or rewritten); this is the report.

        >>> from rdflib import Graph, URIRef, RDFS, Literal
        >>> g = Graph(store="URN")
        >>> _ = g.add((URIRef("urn:X-Foo:bar"), RDFS.label, Literal("experimental NID")))
        >>> dict(g.store.invalid_urns)
        {'urn:X-Foo:bar': 1}
        """
        return collections.Counter(self._canon.invalid)

    def canonical_term(self, term: Node) -> Node:
        """The term this store would store for ``term`` (canonical URN IRI, or ``term`` itself).

        >>> URNStore().canonical_term(URIRef("URN:EXAMPLE:a%2cb"))
        rdflib.term.URIRef('urn:example:a%2Cb')
        """
        result: Node = self._canon.term(term)
        return result

    # --- term and context mapping -------------------------------------------------------------
    def _context(self, context: Any) -> Any:
        """The graph to hand the inner store: same object unless its name is a URN to rewrite."""
        if context is None:
            return None
        last = self._last_ctx
        if context is last[0]:  # bulk adds use one context: skip the lookups
            return last[1]
        ident = getattr(context, "identifier", context)
        canonical = self._canon.term(ident)
        if canonical is ident and getattr(context, "store", None) is self:
            out = context
        else:
            out = self._graph_for(canonical)
        self._last_ctx = (context, out)
        return out

    def _graph_for(self, identifier: Node) -> Graph:
        graph = self._ctx_cache.get(identifier)
        if graph is None:
            if len(self._ctx_cache) >= _TERM_CACHE_SIZE:
                self._ctx_cache.clear()
            graph = Graph(store=self, identifier=identifier)  # type: ignore[arg-type]
            self._ctx_cache[identifier] = graph
        return graph

    def _pattern(self, triple: Any) -> Any:
        s, p, o = triple
        get = self._cache_get
        term = self._canon.term
        # None (a wildcard) and literals fall through both tests untouched.
        if type(s) is URIRef:
            s = get(s) or term(s)
        elif isinstance(s, URIRef):
            s = term(s)
        if type(p) is URIRef:
            p = get(p) or term(p)
        elif isinstance(p, URIRef):
            p = term(p)
        if type(o) is URIRef:
            o = get(o) or term(o)
        elif isinstance(o, URIRef):
            o = term(o)
        return (s, p, o)

    def _rebind(self, contexts: Iterable[Any]) -> Iterator[Any]:
        for c in contexts:
            yield c if getattr(c, "store", None) is self else self._graph_for(c.identifier)

    # --- rdflib Store API: lifecycle (pass-through) -------------------------------------------
    def open(self, configuration: str | tuple[str, str], create: bool = False) -> int | None:
        return self.inner.open(configuration, create)

    def close(self, commit_pending_transaction: bool = False) -> None:
        self.inner.close(commit_pending_transaction=commit_pending_transaction)

    def destroy(self, configuration: str) -> None:
        self.inner.destroy(configuration)

    def gc(self) -> None:
        self.inner.gc()

    def commit(self) -> None:
        self.inner.commit()

    def rollback(self) -> None:
        self.inner.rollback()

    # --- rdflib Store API: statements -------------------------------------------------------
    def add(self, triple: _TripleType, context: _ContextType, quoted: bool = False) -> None:
        # The hot path of every parser: inlined cache hits keep it near the Memory store's speed
        # (bench/store.py); misses, URIRef subclasses and invalid URNs go the long way.
        s, p, o = triple
        get = self._cache_get
        added = self._canon.added
        if type(s) is URIRef:
            s = get(s) or added(s)
        elif isinstance(s, URIRef):
            s = added(s)
        if type(p) is URIRef:
            p = get(p) or added(p)
        elif isinstance(p, URIRef):
            p = added(p)
        if type(o) is URIRef:
            o = get(o) or added(o)
        elif isinstance(o, URIRef):
            o = added(o)
        last = self._last_ctx
        ctx = last[1] if context is last[0] else self._context(context)
        self.inner.add((s, p, o), ctx, quoted)

    def addN(self, quads: Iterable[_QuadType]) -> None:
        added = self._canon.added
        ctx = self._context
        # A list, not a generator: some stores (oxrdflib) iterate their argument twice.
        self.inner.addN([(added(s), added(p), added(o), ctx(c)) for s, p, o, c in quads])

    def remove(self, triple: _TriplePatternType, context: _ContextType | None = None) -> None:
        self.inner.remove(self._pattern(triple), self._context(context))

    def triples(
        self, triple_pattern: _TriplePatternType, context: _ContextType | None = None
    ) -> Iterator[tuple[_TripleType, Iterator[_ContextType | None]]]:
        last = self._last_ctx
        ctx = last[1] if context is last[0] else self._context(context)
        results = self.inner.triples(self._pattern(triple_pattern), ctx)
        if not self._rebind_contexts:
            return results
        return ((t, self._rebind(cs)) for t, cs in results)

    def __len__(self, context: _ContextType | None = None) -> int:
        return self.inner.__len__(self._context(context))

    def contexts(self, triple: _TripleType | None = None) -> Generator[_ContextType, None, None]:
        pattern = None if triple is None else self._pattern(triple)
        yield from self._rebind(self.inner.contexts(pattern))

    def add_graph(self, graph: Graph) -> None:
        self.inner.add_graph(self._context(graph))

    def remove_graph(self, graph: Graph) -> None:
        self.inner.remove_graph(self._context(graph))

    # --- namespaces: a URN namespace is bound in its RFC 8141 §3 case-normalized form, the
    # form the store's terms have, so serializers use the prefix for them ----------------------
    def bind(self, prefix: str, namespace: URIRef, override: bool = True) -> None:
        if namespace[:4].lower() == "urn:":
            namespace = URIRef(_normalize_namespace(str(namespace)))
        self.inner.bind(prefix, namespace, override=override)

    def prefix(self, namespace: URIRef) -> str | None:
        return self.inner.prefix(namespace)

    def namespace(self, prefix: str) -> URIRef | None:
        return self.inner.namespace(prefix)

    def namespaces(self) -> Iterator[tuple[str, URIRef]]:
        return self.inner.namespaces()

    # --- SPARQL ---------------------------------------------------------------------------
    def query(
        self,
        query: Query | str,
        initNs: Mapping[str, Any],  # rdflib's parameter names (Graph.query passes them)
        initBindings: Mapping[str, Identifier],
        queryGraph: str,
        **kwargs: Any,
    ) -> Result:
        """Evaluate with rdflib's engine after canonicalizing the query's IRI constants.

        A native engine of the inner store (Oxigraph's) is bypassed on purpose: it would
        compare the query's URN constants as plain strings.
        """
        from ._sparql import evaluate_query

        return evaluate_query(self, query, initNs, initBindings, queryGraph, **kwargs)

    def update(
        self,
        update: Update | str,
        initNs: Mapping[str, Any],
        initBindings: Mapping[str, Identifier],
        queryGraph: str,
        **kwargs: Any,
    ) -> None:
        """Run a SPARQL update with rdflib's engine, IRI constants canonicalized first."""
        from ._sparql import evaluate_update

        evaluate_update(self, update, initNs, initBindings, queryGraph, **kwargs)


# Graph(store="URN").parse reads through urnld's reader: rdflib's parse entry point never
# consults the store, so the guard has to sit at the parser plugins (see _parse).
# Its set operators keep URN equivalence too (rdflib builds their results as plain graphs).
from ._algebra import install_algebra  # noqa: E402
from ._parse import install_parsers  # noqa: E402  # needs URNStore defined first

install_parsers(URNStore)
install_algebra(URNStore)
