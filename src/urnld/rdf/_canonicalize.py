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

import collections
import dataclasses
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, Generic, TypeVar
from typing import Literal as _Choice

from rdflib import BNode, Dataset, Graph, Literal, URIRef
from rdflib.graph import ConjunctiveGraph
from rdflib.term import Node

from .._core import Policy
from .._kernel import (
    NO_SPELLINGS,
    SPELLING,
    URN_LITERAL_DATATYPES,
    CanonOptions,
    Extra,
    SpellingOptions,
    TermCache,
    TermRule,
    TermVerdict,
    extra_statements,
    is_rdflib_internal,
    is_urn_like,
    record_extras,
    repair_counts,
    resolve_options,
)
from ..errors import URNError
from ..report import CanonicalizeReport, CheckReport
from ._iris import normalize_iri

if TYPE_CHECKING:
    from ..namespaces import PrefixLengths

_DEFAULT_POLICY = Policy()

__all__ = ["CanonicalizeResult", "canonicalize", "check_graph"]

G = TypeVar("G", bound=Graph)

# C helper behind Counter.update: counts a list into a dict without a Python loop.
_count_elements: Callable[[dict[Any, int], list[Any]], None] = (
    collections._count_elements  # type: ignore[attr-defined]
)

# Literals that may hold a URN as their whole lexical form: plain, or one of the term rule's
# datatypes (as rdflib terms: a URIRef never equals a plain str).
_URN_DATATYPES = (None, *(URIRef(d) for d in URN_LITERAL_DATATYPES))


@dataclasses.dataclass(frozen=True, slots=True)
class CanonicalizeResult(Generic[G]):
    """The canonicalized copy (same kind as the input: Graph, Dataset…) and the report."""

    graph: G
    report: CanonicalizeReport


class _TermMap:
    """Maps rdflib terms to their output term and the term rule's verdict (a node memo over
    :class:`urnld._kernel.TermCache`: the output node is built once per distinct term).

    IRIs are memoized under their plain ``str`` value: looking a ``URIRef`` up in a dict keyed
    by terms runs rdflib's Python-level ``__eq__`` on every hit, a plain-str key compares in C.
    Literals (only looked at with ``literals=True``) are memoized under the term itself.
    """

    __slots__ = ("_terms", "cache", "iri_rewrites", "iris", "literals", "locators", "spelling",
                 "spellings")

    def __init__(
        self,
        *,
        ignore_components: bool,
        literals: bool,
        iris: bool = False,
        policy: Policy = _DEFAULT_POLICY,
        spellings: SpellingOptions = NO_SPELLINGS,
    ) -> None:
        # Unbounded: the graph itself is in memory, and the memo needs every verdict it counts.
        rule = TermRule(ignore_components=ignore_components, policy=policy, spellings=spellings)
        self._terms = TermCache(rule, max_size=1 << 62)
        self.spellings = spellings
        # key -> (locator, canonical URN or "", its NID, merged) for the locator modes' IRIs
        self.locators: dict[Any, tuple[str, str, str | None, bool]] = {}
        self.literals = literals
        self.iris = iris  # RFC 3986 §6 normalization of the IRIs that are not URNs
        # key -> (output term, URN info or None)
        self.cache: dict[Any, tuple[Node, TermVerdict | None]] = {}
        # key -> spelling used in the report (URN terms only)
        self.spelling: dict[Any, str] = {}
        # spelling -> normal form of the non-URN IRIs the RFC 3986 ladder rewrote (counted
        # in the report after the pass)
        self.iri_rewrites: dict[str, str] = {}

    def __call__(self, term: Node) -> tuple[Node, TermVerdict | None]:
        key = _key(term)
        hit = self.cache.get(key)
        if hit is None:
            hit = self.miss(key, term)
        return hit

    def miss(self, key: Any, term: Node) -> tuple[Node, TermVerdict | None]:
        hit = self.cache[key] = self._compute(key, term)
        return hit

    def _compute(self, key: Any, term: Node) -> tuple[Node, TermVerdict | None]:
        if isinstance(term, URIRef):
            # A URNRef (urnld.rdf's term type) keeps its original spelling; report that one.
            text = str(getattr(term, "original", term))
            plain = term if type(term) is URIRef else URIRef(str(term))
            if is_rdflib_internal(text):
                return plain, None
            if not is_urn_like(text):
                if self.spellings.looks_at_iris:
                    found = self._locator(key, text, plain)
                    if found is not None:
                        return found
                if self.iris:
                    normal = normalize_iri(text)
                    if normal == text:
                        return plain, None
                    self.iri_rewrites[text] = normal
                    return URIRef(normal), None
                return plain, None
            info = self._terms.get(text)
            self.spelling[key] = text
            canonical = info.output
            return (plain if canonical == str(term) else URIRef(canonical)), info
        if (
            self.literals
            and isinstance(term, Literal)
            and term.language is None
            and term.datatype in _URN_DATATYPES
        ):
            text = str(term)
            if not is_urn_like(text):
                return term, None
            info = self._terms.get(text)
            canonical = info.output
            self.spelling[key] = text
            if canonical == text:
                return term, info
            return Literal(canonical, datatype=term.datatype), info
        return term, None


    def _locator(
        self, key: Any, text: str, plain: URIRef
    ) -> tuple[Node, TermVerdict | None] | None:
        """The output and verdict of a locator IRI (the spelling modes), or None."""
        urn = self.spellings.locator(text)
        if urn is None:
            return None
        merge = self.spellings.locators == "merge"
        if urn:
            v = self._terms.get(urn)
            if v.nid is None:
                return None  # the table's URN is no usable URN under this rule
            self.locators[key] = (text, v.output, v.nid, merge)
            if merge:
                self.spelling[key] = text
                return URIRef(v.output), v
        else:
            self.locators[key] = (text, "", None, False)
        # Not merged: the node stays; the verdict only makes the pass count it.
        return plain, _LOCATOR


# The verdict of a locator that stays as written (no NID: it never joins a URN's cluster).
_LOCATOR = TermVerdict("", None, None, None, "locator", "a resolver's address of a URN")


def _key(term: Node) -> Any:
    return str(term) if type(term) is URIRef else term


def _verdicts(tmap: _TermMap, occ: dict[Any, int]) -> Iterator[tuple[str, TermVerdict, int]]:
    locators = tmap.locators
    for key, n in occ.items():
        if key in locators:
            continue
        info = tmap.cache[key][1]
        assert info is not None
        yield tmap.spelling[key], info, n


def _map_statements(
    statements: Iterator[tuple[Node, Node, Node, Node | None]],
    tmap: _TermMap,
    occ: dict[Any, int],
    context: Callable[[Node | None], Graph],
    count: list[int],
) -> Iterator[tuple[Node, Node, Node, Graph]]:
    """Yield mapped quads ready for ``addN``; count URN terms once per statement in ``occ``.

    This loop runs once per statement of the graph, so lookups are inlined. Blank nodes and
    (without ``literals=True``) literals are never URNs and are not looked up at all.
    """
    cache_get = tmap.cache.get
    miss = tmap.miss
    literals = tmap.literals
    urns: list[Any] = []
    add_urn = urns.append
    n = 0
    for s, p, o, g in statements:
        n += 1
        if type(s) is URIRef:
            ks: Any = str(s)
            s2, si = cache_get(ks) or miss(ks, s)
            if si is not None:
                add_urn(ks)
        elif type(s) is BNode:
            s2, ks = s, None
        else:
            ks = _key(s)
            s2, si = cache_get(ks) or miss(ks, s)
            if si is not None:
                add_urn(ks)
        kp = _key(p)
        p2, pi = cache_get(kp) or miss(kp, p)
        if pi is not None and kp != ks:
            add_urn(kp)
        to = type(o)
        if to is BNode or (to is Literal and (not literals or kp == SPELLING)):
            o2, ko = o, None
        else:
            ko = _key(o)
            o2, oi = cache_get(ko) or miss(ko, o)
            if oi is not None and ko not in (ks, kp):
                add_urn(ko)
        if g is None:
            yield s2, p2, o2, context(None)
        else:
            kg = _key(g)
            g2, gi = cache_get(kg) or miss(kg, g)
            if gi is not None and kg not in (ks, kp, ko):
                add_urn(kg)
            yield s2, p2, o2, context(g2)
        if len(urns) > 65536:
            _count_elements(occ, urns)
            urns.clear()
    _count_elements(occ, urns)
    count[0] += n


def canonicalize(
    graph_or_dataset: G,
    *,
    ignore_components: bool = False,
    literals: bool = False,
    iris: _Choice["as-is", "rfc3986"] = "as-is",
    link: bool = False,
    keep_spellings: bool = False,
    link_resolvers: bool = False,
    policy: Policy = _DEFAULT_POLICY,
    options: CanonOptions | None = None,
    repair: bool = False,
    link_locators: bool = False,
    merge_locators: bool = False,
    prefix_lengths: PrefixLengths | None = None,
) -> CanonicalizeResult[G]:
    """Return a copy of ``graph_or_dataset`` with every URN term in canonical form.

    Subjects, predicates, objects and graph names are canonicalized; blank nodes, IRIs that are
    not URNs, and invalid URNs are left as they were (invalid ones are listed in the report).
    With ``literals=True``, plain / ``xsd:string`` / ``xsd:anyURI`` literals whose whole lexical
    form is a URN are canonicalized too (keeping their datatype). With
    ``ignore_components=True``, URNs are merged by RFC 8141 equivalence alone: r-, q- and
    f-components are dropped, and the report lists what was dropped. With ``iris="rfc3986"``,
    IRIs that are not URNs are normalized by RFC 3986 §6 (case, percent-escapes, dot
    segments, default ports and empty paths: ``HTTP://Example.ORG:80/a/./b/../c%7e`` and
    ``http://example.org/a/c~`` become one node); URNs are never touched by it. ``policy``
    (:class:`urnld.Policy`) decides, with RFC 8141, which NIDs make a term no URN (``strict``
    makes reserved two-letter NIDs such; ``nid-experimental = "warning"`` makes ``urn:x-…``
    usable). ``options`` (:class:`~urnld.rdf.CanonOptions`) gives the options as one value
    instead of one by one.

    The input is never modified; the result is a new graph of the same kind (``Dataset`` in,
    ``Dataset`` out) in an in-memory store, with the input's namespace bindings. The result does
    not depend on the order of the input statements, and canonicalizing it again changes nothing.

    Three opt-in modes add statements (into the default graph of a dataset), counted in the
    report (``same_as_added``, ``spellings_added``, ``see_also_added``) and in
    ``statements_out``:

    * ``link=True``: ``owl:sameAs`` both ways between canonical URNs of the data that are
      functionally equivalent (:func:`urnld.functionally_equivalent`: ISBN-10 and ISBN-13, an
      ISBN and its ISBN-A DOI); only URNs that occur, and only without components.
    * ``keep_spellings=True``: ``<canonical> urnld:spelling "original"``
      (``https://w3id.org/urnld/vocab#spelling``, a plain literal) for every rewritten spelling.
    * ``link_resolvers=True``: ``<canonical> rdfs:seeAlso <locator>`` for each locator the
      resolver table (:mod:`urnld.resolvers`) builds; nothing is fetched.

    (An added statement the data already holds merges with it: it counts in its kind's field
    but not again in ``statements_out``.)

    Identifiers in their other spellings (all opt-in):

    * ``repair=True``: a URN that a documented repair fixes (:func:`urnld.repair`: a braced,
      unhyphenated or ``_``-prefixed UUID…) is rewritten to the repaired URN's canonical form;
      the report counts repairs per code (``repairs``) and the spelling joins its cluster (so
      ``keep_spellings`` keeps it).
    * ``link_locators=True``: an IRI that is a resolver's address of a URN of the data
      (:func:`urnld.resolvers.urn_of_locator`, with *prefix_lengths* for GS1 Digital Links) is
      joined to it by ``owl:sameAs`` both ways, and so is the canonical GS1 Digital Link IRI of
      an EPC URN of the data (:meth:`urnld.URN.equivalent_iris`) when both occur.
    * ``merge_locators=True``: such an IRI is rewritten to the URN instead (a change of
      meaning: the address node becomes the name node), counted in ``locators_merged``.

    >>> from rdflib import Graph, URIRef
    >>> g = Graph()
    >>> g.add((URIRef("URN:ISBN:0-395-36341-1"), URIRef("http://e/p"),
    ...        URIRef("urn:isbn:9780395363416")))  # doctest: +ELLIPSIS
    <Graph ...>
    >>> r = canonicalize(g, link=True, keep_spellings=True).report
    >>> r.same_as_added, r.spellings_added, r.statements_out
    (2, 1, 4)

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
    if iris not in ("as-is", "rfc3986"):
        raise URNError(f"iris must be 'as-is' or 'rfc3986', not {iris!r}")
    opts = resolve_options(
        options, ignore_components=ignore_components, literals=literals, link=link,
        keep_spellings=keep_spellings, link_resolvers=link_resolvers, policy=policy,
        repair=repair, link_locators=link_locators, merge_locators=merge_locators,
        prefix_lengths=prefix_lengths,
    )
    report = CanonicalizeReport(ignore_components=opts.ignore_components, literals=opts.literals)
    spellings = opts.spellings
    tmap = _TermMap(ignore_components=opts.ignore_components, literals=opts.literals,
                    iris=iris == "rfc3986", policy=opts.policy, spellings=spellings)
    occ: dict[Any, int] = {}
    source = graph_or_dataset

    count = [0]
    if isinstance(source, ConjunctiveGraph):  # Dataset is a ConjunctiveGraph
        out: Any = _new_dataset(source)
        src_default = _default_graph(source).identifier
        graphs: dict[Node, Graph] = {src_default: _default_graph(out)}

        def context(name: Node | None) -> Graph:
            assert name is not None  # dataset quads always have a graph
            g = graphs.get(name)
            if g is None:
                # Dataset.graph() also records an empty graph in the store; get_context not.
                g = out.graph(name) if isinstance(out, Dataset) else out.get_context(name)  # type: ignore[arg-type]  # graph names are IRIs or blank nodes
                graphs[name] = g
            return g

        out.addN(_map_statements(_quads(source), tmap, occ, context, count))
        if isinstance(source, Dataset):
            # Empty named graphs are part of a dataset: keep them.
            for g in source.graphs():
                # rdflib may list the dataset itself (its default graph), whose .identifier
                # is deprecated: it is no named graph.
                if not isinstance(g, Dataset) and g.identifier != src_default:
                    context(tmap(g.identifier)[0])
        statements_out = sum(len(g) for g in graphs.values())
    else:
        out_id, _ = tmap(source.identifier)
        # "core" bindings only, then the input's: the output keeps the input's prefixes
        # instead of rdflib's defaults (which would turn schema: into schema1:).
        out = Graph(identifier=out_id, bind_namespaces="core")  # type: ignore[arg-type]

        triples = ((s, p, o, None) for s, p, o in source.triples((None, None, None)))
        out.addN(_map_statements(triples, tmap, occ, lambda _name: out, count))
        statements_out = len(out)

    for prefix, namespace in source.namespaces():
        out.bind(prefix, namespace, override=True, replace=True)

    report.record_verdicts(_verdicts(tmap, occ))
    if spellings:
        _record_spellings(report, tmap, occ)
    if tmap.iri_rewrites:
        report.record_iris(_iri_occurrences(source, tmap.iri_rewrites))
    report.statements_in = count[0]
    report.statements_out = statements_out
    report.duplicates_merged = count[0] - statements_out
    if opts.links:
        # Every pair the pass met (the graph is in memory: no cap applies here).
        pairs = {(v.output, tmap.spelling[key]) for key, v in _met(tmap, occ)}
        found = {(urn, loc) for key, (loc, urn, _nid, _m) in tmap.locators.items() if key in occ}
        extras = extra_statements(pairs, opts.links, found)
        target = _default_graph(out) if isinstance(out, ConjunctiveGraph) else out
        if opts.keep_spellings:
            out.bind("urnld", SPELLING.rpartition("#")[0] + "#", override=False)
        before = len(target)
        target.addN((*_extra_terms(e), target) for e in extras)
        record_extras(report, extras)
        # A graph is a set: an added statement the data already held is no new statement.
        report.statements_out = statements_out + len(target) - before
    return CanonicalizeResult(out, report)


def _record_spellings(report: CanonicalizeReport, tmap: _TermMap, occ: dict[Any, int]) -> None:
    """The spelling modes' counts: locators met, and repairs per code."""
    report.record_locators(
        (loc, urn, nid, occ[key], merged)
        for key, (loc, urn, nid, merged) in tmap.locators.items()
        if key in occ
    )
    if tmap.spellings.repair:
        report.record_repairs(repair_counts(_verdicts(tmap, occ), report.ignore_components))


def _iri_occurrences(
    source: Graph, rewrites: dict[str, str]
) -> dict[tuple[str, str], int]:
    """``(normal form, spelling)`` → statements of *source* that use a rewritten non-URN IRI
    (a statement that uses it twice counts once, as for URNs); a second pass, made only when
    the RFC 3986 ladder rewrote something."""
    counts: dict[tuple[str, str], int] = {}
    quads = (
        _quads(source) if isinstance(source, ConjunctiveGraph)
        else ((s, p, o, None) for s, p, o in source.triples((None, None, None)))
    )
    for quad in quads:
        met = {str(t) for t in quad if type(t) is URIRef and str(t) in rewrites}
        for text in met:
            key = (rewrites[text], text)
            counts[key] = counts.get(key, 0) + 1
    return counts


def _met(tmap: _TermMap, occ: dict[Any, int]) -> Iterator[tuple[Any, TermVerdict]]:
    """``(key, verdict)`` of the usable URNs the pass met."""
    for key in occ:
        info = tmap.cache[key][1]
        if info is not None and info.nid is not None:
            yield key, info


def _extra_terms(e: Extra) -> tuple[Node, Node, Node]:
    obj: Node = Literal(e.object) if e.literal else URIRef(e.object)
    return URIRef(e.subject), URIRef(e.predicate), obj


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


def check_graph(
    graph: Graph,
    report: CheckReport | None = None,
    *,
    policy: Policy = _DEFAULT_POLICY,
    locators: bool = False,
    prefix_lengths: PrefixLengths | None = None,
    iris: _Choice["as-is", "rfc3986"] = "as-is",
) -> CheckReport:
    """Scan an rdflib graph or dataset for URNs (IRIs and literals); fill a :class:`CheckReport`.

    The in-memory counterpart of :func:`urnld.stream.check_lines` (same counting rules): IRIs
    starting with ``urn:`` (any case), and plain / ``xsd:string`` / ``xsd:anyURI`` literals whose
    whole lexical form does. Findings are :func:`urnld.check`'s under ``policy``. With
    ``locators``, IRIs that are a resolver's address of a URN are counted as ``locator``
    findings, as :func:`urnld.stream.check_lines` counts them. With ``iris="rfc3986"``, the
    IRIs other than URNs that are not in RFC 3986 normal form are counted too
    (:meth:`CheckReport.record_iris`): what :func:`canonicalize` with the same option rewrites,
    counted as its report counts them.

    >>> from rdflib import Graph
    >>> g = Graph().parse(data='<URN:ISBN:0-395-36341-1> <http://e/p> "urn:isbn:0395363411" .',
    ...                   format="nt")
    >>> check_graph(g).clusters
    {'urn:isbn:0395363411': {'URN:ISBN:0-395-36341-1': 1, 'urn:isbn:0395363411': 1}}
    """
    if report is None:
        report = CheckReport()
    occ: dict[tuple[str, bool], int] = {}
    statements: Iterator[tuple[Any, ...]]
    if isinstance(graph, ConjunctiveGraph):
        statements = (
            (s, p, o, getattr(g, "identifier", g))
            for s, p, o, g in graph.quads((None, None, None, None))
        )
    else:
        statements = iter(graph.triples((None, None, None)))
    n = 0
    spellings = SpellingOptions(locators="link", prefix_lengths=prefix_lengths)
    # locator -> its URN (canonical), or None: asked once per distinct IRI
    urn_of: dict[str, str | None] = {}
    if iris not in ("as-is", "rfc3986"):
        raise URNError(f"iris must be 'as-is' or 'rfc3986', not {iris!r}")
    normalize = iris == "rfc3986"
    normal_of: dict[str, str] = {}  # non-URN IRI -> its normal form, asked once per IRI
    not_normal: dict[tuple[str, str], int] = {}
    terms = TermCache(TermRule(policy=policy))
    found: dict[tuple[str, str], int] = {}
    for st in statements:
        n += 1
        seen: set[tuple[str, bool]] = set()
        met: set[tuple[str, str]] = set()
        odd: set[tuple[str, str]] = set()
        for t in st:
            if isinstance(t, URIRef):
                text = str(getattr(t, "original", t))
                if is_urn_like(text) and not is_rdflib_internal(text):
                    seen.add((text, False))
                    continue
                if locators:
                    if text not in urn_of:
                        urn = spellings.locator(text)
                        v = terms.get(urn) if urn else None
                        urn_of[text] = v.output if v is not None and v.nid else None
                    if urn_of[text]:
                        met.add((text, urn_of[text] or ""))
                        continue  # a locator is linked, not normalized (as canonicalize)
                if normalize and not is_urn_like(text) and not is_rdflib_internal(text):
                    normal = normal_of.get(text)
                    if normal is None:
                        normal = normal_of[text] = normalize_iri(text)
                    if normal != text:
                        odd.add((normal, text))
            elif (isinstance(t, Literal) and t.language is None and t.datatype in _URN_DATATYPES
                  and str(st[1]) != SPELLING):
                text = str(t)
                if is_urn_like(text):
                    seen.add((text, True))
        for key in seen:
            occ[key] = occ.get(key, 0) + 1
        for pair in met:
            found[pair] = found.get(pair, 0) + 1
        for pair in odd:
            not_normal[pair] = not_normal.get(pair, 0) + 1
    report.statements_in += n
    if not_normal:
        report.record_iris(dict(sorted(not_normal.items())))
    if found:
        report.record_locators((loc, urn, c) for (loc, urn), c in sorted(found.items()))
    report.record_checks(
        (text, terms.checked(text), is_literal, count)
        for (text, is_literal), count in sorted(occ.items())
    )
    return report
