"""The graph canonicalization pass: one node per URN equivalence class.

RDF compares IRIs as strings, so ``URN:ISBN:0-395-36341-1`` and ``urn:isbn:0395363411`` are two
nodes. :func:`canonicalize` rewrites every URN term to its canonical form (``urnld.canonical``),
so that statements about the same resource land on the same node, and reports what it did.

>>> from rdflib import Graph
>>> from urnld.rdf import canonicalize
>>> g = Graph().parse(data='''
...     <URN:ISBN:0-395-36341-1> <http://purl.org/dc/terms/title> "The Hobbit" .
...     <urn:isbn:0395363411> <http://purl.org/dc/terms/title> "The Hobbit" .
... ''', format="turtle")
>>> result = canonicalize(g)
>>> len(g), len(result.graph), result.report.duplicates_merged
(2, 1, 1)
>>> sorted(result.report.clusters["urn:isbn:0395363411"].items())
[('URN:ISBN:0-395-36341-1', 1), ('urn:isbn:0395363411', 1)]
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any, Generic, TypeVar

from rdflib import BNode, Dataset, Graph, Literal, URIRef
from rdflib.graph import DATASET_DEFAULT_GRAPH_ID, ConjunctiveGraph
from rdflib.namespace import XSD
from rdflib.term import Node

from .._ntriples import TermCanonicalizer
from ..report import CanonicalizeReport, CheckReport

__all__ = ["CanonicalizeResult", "canonicalize", "check_graph"]

G = TypeVar("G", bound=Graph)

# Literals that may hold a URN as their whole lexical form (with ``literals=True``).
_URN_DATATYPES = (None, XSD.string, XSD.anyURI)


@dataclasses.dataclass(frozen=True, slots=True)
class CanonicalizeResult(Generic[G]):
    """The canonicalized copy (same kind as the input: Graph, Dataset…) and the report."""

    graph: G
    report: CanonicalizeReport


class _TermMap:
    """Maps rdflib terms to their canonical term, cached per distinct term."""

    __slots__ = ("_terms", "cache", "literals", "spelling")

    def __init__(self, *, ignore_components: bool, literals: bool) -> None:
        self._terms = TermCanonicalizer(ignore_components=ignore_components, max_cache=1 << 62)
        self.literals = literals
        # term -> (output term, URN info or None)
        self.cache: dict[Node, tuple[Node, tuple[str | None, ...] | None]] = {}
        # output/input term -> spelling used in the report
        self.spelling: dict[Node, str] = {}

    def __call__(self, term: Node) -> tuple[Node, tuple[str | None, ...] | None]:
        hit = self.cache.get(term)
        if hit is None:
            hit = self.cache[term] = self._compute(term)
        return hit

    def _compute(self, term: Node) -> tuple[Node, tuple[str | None, ...] | None]:
        if isinstance(term, URIRef):
            # A URNRef (urnld.rdf's term type) keeps its original spelling; report that one.
            text = str(getattr(term, "original", term))
            if text[:4].lower() != "urn:" or str(term) == str(DATASET_DEFAULT_GRAPH_ID):
                return (term if type(term) is URIRef else URIRef(str(term))), None
            canonical, info = self._terms.canonical(text)
            self.spelling[term] = text
            out = URIRef(canonical) if canonical != str(term) or type(term) is not URIRef else term
            return out, info
        if (
            self.literals
            and isinstance(term, Literal)
            and term.language is None
            and term.datatype in _URN_DATATYPES
        ):
            text = str(term)
            if text[:4].lower() != "urn:":
                return term, None
            canonical, info = self._terms.canonical(text)
            self.spelling[term] = text
            if canonical == text:
                return term, info
            return Literal(canonical, datatype=term.datatype), info
        return term, None


def _record(report: CanonicalizeReport, tmap: _TermMap, occ: dict[Node, int]) -> None:
    valid: list[tuple[str, str, str, int, str | None]] = []
    for term, n in occ.items():
        _out, info = tmap(term)
        assert info is not None
        spelling = tmap.spelling[term]
        if info[0] == "ok":
            valid.append((spelling, str(info[1]), str(info[2]), n, info[3]))
        else:
            report.record_invalid(spelling, str(info[1]), n)
    report.record_urns(valid)


def _map_statements(
    statements: Iterator[tuple[Node, Node, Node, Node | None]],
    tmap: _TermMap,
    occ: dict[Node, int],
) -> Iterator[tuple[Node, Node, Node, Node | None]]:
    """Yield mapped quads, counting each URN term once per statement in ``occ``."""
    get = occ.get
    cache_get = tmap.cache.get
    literals = tmap.literals
    none = (None, None)
    for s, p, o, g in statements:
        # Inline cache lookups: this loop runs once per statement of the graph. Blank nodes
        # and (without literals=True) literals are never URNs: skip them before hashing
        # (rdflib's Literal.__hash__ is Python code).
        ts = type(s)
        if ts is BNode:
            s2, si = s, None
        else:
            s2, si = cache_get(s) or tmap(s)
        p2, pi = cache_get(p) or tmap(p)
        to = type(o)
        if to is BNode or (to is Literal and not literals):
            o2, oi = o, None
        else:
            o2, oi = cache_get(o) or tmap(o)
        g2, gi = none if g is None else (cache_get(g) or tmap(g))
        if si is not None or pi is not None or oi is not None or gi is not None:
            seen: set[Node] = set()
            for t, i in ((s, si), (p, pi), (o, oi), (g, gi)):
                if i is not None and t is not None:
                    seen.add(t)
            for t in seen:
                occ[t] = get(t, 0) + 1
        yield s2, p2, o2, g2


def canonicalize(
    graph_or_dataset: G,
    *,
    ignore_components: bool = False,
    literals: bool = False,
) -> CanonicalizeResult[G]:
    """Return a copy of ``graph_or_dataset`` with every URN term in canonical form.

    Subjects, predicates, objects and graph names are canonicalized; blank nodes, IRIs that are
    not URNs, and invalid URNs are left as they were (invalid ones are listed in the report).
    With ``literals=True``, plain / ``xsd:string`` / ``xsd:anyURI`` literals whose whole lexical
    form is a URN are canonicalized too (keeping their datatype). With
    ``ignore_components=True``, URNs are merged by RFC 8141 equivalence alone: r-, q- and
    f-components are dropped, and the report lists what was dropped.

    The input is never modified; the result is a new graph of the same kind (``Dataset`` in,
    ``Dataset`` out) in an in-memory store, with the input's namespace bindings. The result does
    not depend on the order of the input statements, and canonicalizing it again changes nothing.

    >>> from rdflib import Dataset, URIRef
    >>> ds = Dataset()
    >>> ds.graph(URIRef("URN:EXAMPLE:g")).add(
    ...     (URIRef("urn:example:a#ch1"), URIRef("http://e/p"), URIRef("URN:EXAMPLE:b?=x")))
    <Graph identifier=URN:EXAMPLE:g (<class 'rdflib.graph.Graph'>)>
    >>> r = canonicalize(ds, ignore_components=True)
    >>> sorted(str(q[3]) for q in r.graph.quads((None, None, None, None)))
    ['urn:example:g']
    >>> r.report.dropped_components
    {'urn:example:a': {'#ch1': 1}, 'urn:example:b': {'?=x': 1}}
    """
    if not isinstance(graph_or_dataset, Graph):
        raise TypeError(
            f"canonicalize() needs an rdflib Graph or Dataset, not {type(graph_or_dataset)!r}"
        )
    report = CanonicalizeReport(ignore_components=ignore_components, literals=literals)
    tmap = _TermMap(ignore_components=ignore_components, literals=literals)
    occ: dict[Node, int] = {}
    source = graph_or_dataset

    count = 0
    if isinstance(source, ConjunctiveGraph):  # Dataset is a ConjunctiveGraph
        out: Any = _new_dataset(source)
        src_default = _default_graph(source).identifier
        graphs: dict[Node, Graph] = {src_default: _default_graph(out)}

        def context(name: Node) -> Graph:
            g = graphs.get(name)
            if g is None:
                # Dataset.graph() also records an empty graph in the store; get_context not.
                g = out.graph(name) if isinstance(out, Dataset) else out.get_context(name)  # type: ignore[arg-type]  # graph names are IRIs or blank nodes
                graphs[name] = g
            return g

        def mapped_quads() -> Iterator[tuple[Node, Node, Node, Graph]]:
            nonlocal count
            for s, p, o, g in _map_statements(_quads(source), tmap, occ):
                count += 1
                yield s, p, o, context(g)  # type: ignore[arg-type]  # quads have a graph

        out.addN(mapped_quads())
        if isinstance(source, Dataset):
            # Empty named graphs are part of a dataset: keep them.
            for g in source.graphs():
                if g.identifier != src_default:
                    context(tmap(g.identifier)[0])
        statements_out = sum(len(g) for g in graphs.values())
    else:
        out_id, _ = tmap(source.identifier)
        # "core" bindings only, then the input's: the output keeps the input's prefixes
        # instead of rdflib's defaults (which would turn schema: into schema1:).
        out = Graph(identifier=out_id, bind_namespaces="core")  # type: ignore[arg-type]

        def mapped_triples() -> Iterator[tuple[Node, Node, Node, Graph]]:
            nonlocal count
            triples = ((s, p, o, None) for s, p, o in source.triples((None, None, None)))
            for s, p, o, _g in _map_statements(triples, tmap, occ):
                count += 1
                yield s, p, o, out

        out.addN(mapped_triples())
        statements_out = len(out)

    for prefix, namespace in source.namespaces():
        out.bind(prefix, namespace, override=True, replace=True)

    _record(report, tmap, occ)
    report.statements_in = count
    report.statements_out = statements_out
    report.duplicates_merged = count - statements_out
    return CanonicalizeResult(out, report)


def _quads(ds: ConjunctiveGraph) -> Iterator[tuple[Node, Node, Node, Node | None]]:
    for s, p, o, g in ds.quads((None, None, None, None)):
        name: Any = getattr(g, "identifier", g)
        yield s, p, o, name


def _new_dataset(source: ConjunctiveGraph) -> ConjunctiveGraph:
    if isinstance(source, Dataset):
        return Dataset(default_union=source.default_union)
    return type(source)()


def _default_graph(ds: ConjunctiveGraph) -> Graph:
    # Dataset renamed default_context to default_graph (rdflib 7.1 deprecates the old name).
    graph: Graph = ds.default_graph if isinstance(ds, Dataset) else ds.default_context
    return graph


def check_graph(graph: Graph, report: CheckReport | None = None) -> CheckReport:
    """Scan an rdflib graph or dataset for URNs (IRIs and literals); fill a :class:`CheckReport`.

    The in-memory counterpart of :func:`urnld.stream.check_lines` (same counting rules): IRIs
    starting with ``urn:`` (any case), and plain / ``xsd:string`` / ``xsd:anyURI`` literals whose
    whole lexical form does.

    >>> from rdflib import Graph
    >>> g = Graph().parse(data='<URN:ISBN:0-395-36341-1> <http://e/p> "urn:isbn:0395363411" .',
    ...                   format="nt")
    >>> check_graph(g).clusters
    {'urn:isbn:0395363411': {'URN:ISBN:0-395-36341-1': 1, 'urn:isbn:0395363411': 1}}
    """
    from .. import check
    from .._urn import URN
    from ..errors import URNError

    if report is None:
        report = CheckReport()
    occ: dict[tuple[str, bool], int] = {}
    default_name = str(DATASET_DEFAULT_GRAPH_ID)
    statements: Iterator[tuple[Any, ...]]
    if isinstance(graph, ConjunctiveGraph):
        statements = (
            (s, p, o, getattr(g, "identifier", g))
            for s, p, o, g in graph.quads((None, None, None, None))
        )
    else:
        statements = iter(graph.triples((None, None, None)))
    n = 0
    for st in statements:
        n += 1
        seen: set[tuple[str, bool]] = set()
        for t in st:
            if isinstance(t, URIRef):
                text = str(getattr(t, "original", t))
                if text[:4].lower() == "urn:" and text != default_name:
                    seen.add((text, False))
            elif (
                isinstance(t, Literal) and t.language is None and t.datatype in _URN_DATATYPES
            ):
                text = str(t)
                if text[:4].lower() == "urn:":
                    seen.add((text, True))
        for key in seen:
            occ[key] = occ.get(key, 0) + 1
    report.statements_in += n
    for (text, is_literal), count in sorted(occ.items()):
        canonical = nid = None
        try:
            urn = URN.parse(text)
            canonical, nid = urn.canonical_str, urn.nid.lower()
        except URNError:
            pass
        report.record_urn(
            text, check(text), canonical=canonical, nid=nid, literal=is_literal, count=count
        )
    return report
