"""What a canonicalization or a check met: mergeable, bounded-memory reports.

Both the in-memory graph pass (:func:`urnld.rdf.canonicalize`) and the streaming pass
(:mod:`urnld.stream`) fill these reports; the Dask engine fills one per partition and combines
them with :meth:`~CanonicalizeReport.merge`.

Guarantees
----------
* **Exact counts.** Every integer total (statements, URN occurrences, per-NID and per-finding
  counts, number of malformed lines…) is exact however large the input.
* **Bounded memory.** The *examples* (clusters of spellings, invalid URNs, non-canonical
  spellings, malformed lines, dropped components, NIDs) are kept in maps capped at
  ``max_examples`` keys each (default :data:`DEFAULT_MAX_EXAMPLES` = 10,000). A capped map keeps
  the *smallest* keys in code-point order, and the count stored for every kept key is exact:
  a key is only ever dropped when ``max_examples`` smaller keys are already kept, and those
  never leave, so a dropped key can never come back with a partial count. ``to_dict()`` says
  ``"truncated": true`` for a map that hit its cap.
* **Merge is associative and order-independent.** ``a.merge(b)`` returns a new report equal to
  the report of the concatenated input, whatever the partitioning and the merge order (the
  smallest-keys rule makes even the truncated maps independent of grouping).
* ``to_dict()`` is JSON-ready and deterministic (sorted keys, sorted lists); ``==`` compares
  reports by content.

Counting unit: a spelling's count is the number of *statements* it occurs in (a statement that
uses the same spelling as subject and object counts once).

>>> from urnld.report import CanonicalizeReport
>>> a = CanonicalizeReport()
>>> a.record_urn("URN:ISBN:0-395-36341-1", "urn:isbn:0395363411", "isbn", count=2)
>>> b = CanonicalizeReport()
>>> b.record_urn("urn:isbn:0395363411", "urn:isbn:0395363411", "isbn")
>>> a.merge(b).to_dict()["clusters"]
{'urn:isbn:0395363411': {'URN:ISBN:0-395-36341-1': 2, 'urn:isbn:0395363411': 1}}
>>> a.merge(b) == b.merge(a)
True
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, Generic, TypeVar

if TYPE_CHECKING:
    from ._terms import CheckFields, TermCheck, TermVerdict

__all__ = [
    "DEFAULT_MAX_EXAMPLES",
    "CanonicalizeReport",
    "CheckReport",
    "LineError",
]


def __dir__() -> list[str]:
    return __all__


#: Default cap on the number of keys kept in each example map of a report.
DEFAULT_MAX_EXAMPLES = 10_000

K = TypeVar("K", str, tuple[str, str], tuple[str, int])
V = TypeVar("V")
_R = TypeVar("_R", bound="_ReportBase")


class _Capped(Generic[K, V]):
    """A map that keeps its ``cap`` smallest keys, with exact values for every kept key.

    ``limit`` is ``None`` while nothing was ever dropped; afterwards every key ``<= limit`` that
    was offered is present with its exact value, and keys ``> limit`` are refused. The map may
    hold up to ``2 * cap`` keys between prunes (pruning sorts, so it is done in batches);
    :meth:`normalized` prunes to exactly ``cap``.
    """

    __slots__ = ("cap", "combine", "data", "limit")

    def __init__(self, cap: int, combine: Callable[[V, V], V]) -> None:
        self.cap = cap
        self.combine = combine
        self.data: dict[K, V] = {}
        self.limit: K | None = None

    def add(self, key: K, value: V) -> None:
        data = self.data
        old = data.get(key)
        if old is not None:
            data[key] = self.combine(old, value)
            return
        if self.limit is not None and key > self.limit:
            return
        data[key] = value
        if len(data) > 2 * self.cap:
            self._prune()

    def add_many(self, items: Iterable[tuple[K, V]]) -> None:
        """:meth:`add` for each ``(key, value)`` pair, in order."""
        data = self.data
        combine = self.combine
        limit = self.limit
        high = 2 * self.cap
        for key, value in items:
            old = data.get(key)
            if old is not None:
                data[key] = combine(old, value)
            elif limit is None or key <= limit:
                data[key] = value
                if len(data) > high:
                    self._prune()
                    data = self.data
                    limit = self.limit

    def add_counts(self, counts: dict[K, int]) -> None:
        """Bulk :meth:`add` for integer values (the hot path of report filling)."""
        data: dict[K, Any] = self.data
        limit = self.limit
        if not data and limit is None:  # the first batch: every key is taken, in one C call
            data.update(counts)
            self.settle()
            return
        get = data.get
        for k, v in counts.items():
            old = get(k)
            if old is not None:
                data[k] = old + v
            elif limit is None or k <= limit:
                data[k] = v
        self.settle()

    def settle(self) -> None:
        """Cut back to ``cap`` keys once past twice that (pruning sorts: it is done in
        batches), after a batch added to :attr:`data` directly."""
        if len(self.data) > 2 * self.cap:
            self._prune()

    def _prune(self) -> None:
        if len(self.data) <= self.cap:
            return
        keep = sorted(self.data)[: self.cap]
        self.data = {k: self.data[k] for k in keep}
        self.limit = keep[-1]

    def normalized(self) -> _Capped[K, V]:
        self._prune()
        if self.limit is not None:
            # Canonical state: limit is the largest kept key, so equal contents compare equal
            # whatever the history of prunes was.
            self.limit = max(self.data)
        return self

    @property
    def truncated(self) -> bool:
        return self.normalized().limit is not None

    def merged(self, other: _Capped[K, V]) -> _Capped[K, V]:
        out: _Capped[K, V] = _Capped(min(self.cap, other.cap), self.combine)
        limits = [lim for lim in (self.limit, other.limit) if lim is not None]
        limit = min(limits) if limits else None
        for src in (self.data, other.data):
            for k, v in src.items():
                if limit is not None and k > limit:
                    continue
                old = out.data.get(k)
                out.data[k] = v if old is None else self.combine(old, v)
        out.limit = limit
        return out.normalized()

    def items(self) -> list[tuple[K, V]]:
        data = self.normalized().data
        return [(k, data[k]) for k in sorted(data)]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, _Capped):
            return NotImplemented
        return self.truncated == other.truncated and self.data == other.data

    __hash__ = None  # type: ignore[assignment]  # mutable


def _add(a: int, b: int) -> int:
    return a + b


def _first(a: str, b: str) -> str:
    # Values that are a pure function of the key (messages): any of the two; min() keeps the
    # result independent of merge order even if callers disagree.
    return min(a, b)


def _count_with_text(a: tuple[int, str], b: tuple[int, str]) -> tuple[int, str]:
    return (a[0] + b[0], min(a[1], b[1]))


@dataclasses.dataclass(frozen=True, slots=True)
class LineError:
    """A malformed input line: where it is and what is wrong with it."""

    source: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.source}:{self.line}: {self.message}"


def _group(items: Iterable[tuple[tuple[str, str], int]], *, drop_last: bool) -> dict[str, Any]:
    """Group ``((outer, inner), count)`` pairs (sorted) into ``{outer: {inner: count}}``."""
    out: dict[str, dict[str, int]] = {}
    for (outer, inner), n in items:
        out.setdefault(outer, {})[inner] = n
    if drop_last and out:
        # The cap may fall inside the last group: do not show a possibly incomplete group.
        del out[max(out)]
    return dict(out)


class _ReportBase:
    """Shared parts: statement count, malformed lines, NID counts, cap handling, merging."""

    # What merge() adds up and what it merges, per report class.
    _COUNTS: tuple[str, ...] = ("statements_in", "error_count")
    _MAPS: tuple[str, ...] = ("_nids", "_errors")

    max_examples: int
    statements_in: int
    error_count: int
    _errors: _Capped[tuple[str, int], str]
    _nids: _Capped[str, int]

    def _merge_into(self, out: _R, other: _R) -> _R:
        """Fill *out* (new, empty) with the counts and maps of ``self`` and *other*."""
        for name in self._COUNTS:
            setattr(out, name, getattr(self, name) + getattr(other, name))
        for name in self._MAPS:
            setattr(out, name, getattr(self, name).merged(getattr(other, name)))
        return out

    def _init_base(self, max_examples: int) -> None:
        if max_examples < 1:
            raise ValueError(f"max_examples must be >= 1, got {max_examples!r}")
        self.max_examples = max_examples
        self.statements_in = 0
        self.error_count = 0
        self._errors = _Capped(max_examples, _first)
        self._nids = _Capped(max_examples, _add)

    def record_error(self, source: str, line: int, message: str) -> None:
        """Record a malformed line (``source`` is a file name or ``"<stdin>"``)."""
        self.error_count += 1
        self._errors.add((source, line), message)

    @property
    def errors(self) -> list[LineError]:
        """The kept malformed lines, sorted by source then line (at most ``max_examples``)."""
        return [LineError(s, n, m) for (s, n), m in self._errors.items()]

    @property
    def nids(self) -> dict[str, int]:
        """Statement-occurrences of valid URNs per (lower-case) NID."""
        return dict(self._nids.items())

    def _errors_dict(self) -> dict[str, Any]:
        return {
            "count": self.error_count,
            "truncated": self._errors.truncated,
            "lines": [
                {"source": s, "line": n, "message": m} for (s, n), m in self._errors.items()
            ],
        }


class CanonicalizeReport(_ReportBase):
    """What :func:`urnld.rdf.canonicalize` / :func:`urnld.stream.canonicalize_lines` did.

    Attributes (exact counts):
        statements_in: statements read.
        statements_out: statements written (in-memory pass: after merging duplicates;
            streaming pass: equal to ``statements_in``, since a stream is not deduplicated).
        duplicates_merged: input statements that became a copy of another one and were merged.
        urn_occurrences: statement-occurrences of URN terms (IRIs, and literals with
            ``literals=True``), valid or not.
        rewritten: those whose spelling changed.
        same_as_added / spellings_added / see_also_added: statements added by the opt-in modes
            ``link`` (``owl:sameAs``), ``keep_spellings`` (``urnld:spelling``) and
            ``link_resolvers`` (``rdfs:seeAlso``); they are part of ``statements_out``.
        locator_occurrences: statement-occurrences of IRIs that are a resolver's address of a
            URN (the ``locators`` modes), merged or not.
        locators_merged: those rewritten to their URN (``locators="merge"``); they count
            among ``urn_occurrences`` and ``rewritten`` too, the locator as the spelling.
        error_count: malformed lines met (streaming only).

    >>> r = CanonicalizeReport()
    >>> r.record_invalid("urn:x-foo:bar", "NID 'x-foo': experimental NIDs were removed")
    >>> r.to_dict()["invalid"]["urns"]["urn:x-foo:bar"]["count"]
    1
    """

    _COUNTS = (*_ReportBase._COUNTS, "statements_out", "duplicates_merged", "urn_occurrences",
               "rewritten", "invalid_occurrences", "same_as_added", "spellings_added",
               "see_also_added", "locator_occurrences", "locators_merged")
    _MAPS = (*_ReportBase._MAPS, "_clusters", "_invalid", "_dropped", "_locators", "_repairs")

    def __init__(
        self,
        *,
        ignore_components: bool = False,
        literals: bool = False,
        max_examples: int = DEFAULT_MAX_EXAMPLES,
    ) -> None:
        self._init_base(max_examples)
        self.ignore_components = ignore_components
        self.literals = literals
        self.statements_out = 0
        self.duplicates_merged = 0
        self.urn_occurrences = 0
        self.rewritten = 0
        self.invalid_occurrences = 0
        self.same_as_added = 0
        self.spellings_added = 0
        self.see_also_added = 0
        self.locator_occurrences = 0
        self.locators_merged = 0
        # (canonical URN, locator) -> statements; "" for a GS1 Digital Link whose EPC is
        # told by the data's own EPC URNs (see urnld._links).
        self._locators: _Capped[tuple[str, str], int] = _Capped(max_examples, _add)
        self._repairs: _Capped[str, int] = _Capped(max_examples, _add)
        self._clusters: _Capped[tuple[str, str], int] = _Capped(max_examples, _add)
        self._invalid: _Capped[str, tuple[int, str]] = _Capped(max_examples, _count_with_text)
        self._dropped: _Capped[tuple[str, str], int] = _Capped(max_examples, _add)

    # -- recording -----------------------------------------------------------------------
    def record_urn(
        self,
        spelling: str,
        canonical: str,
        nid: str,
        count: int = 1,
        *,
        dropped: str | None = None,
    ) -> None:
        """Record ``count`` statement-occurrences of a valid URN spelled ``spelling``.

        ``canonical`` is the form written out; ``dropped`` the components removed by
        ``ignore_components=True`` (e.g. ``"?=x#p1"``), or ``None``.
        """
        self.urn_occurrences += count
        if spelling != canonical:
            self.rewritten += count
        self._clusters.add((canonical, spelling), count)
        self._nids.add(nid, count)
        if dropped:
            self._dropped.add((canonical, dropped), count)

    def record_urns(self, items: Iterable[tuple[str, str, str, int, str | None]]) -> None:
        """Bulk :meth:`record_urn` over ``(spelling, canonical, nid, count, dropped)`` tuples."""
        nids: dict[str, int] = {}
        clusters: dict[tuple[str, str], int] = {}
        dropped_counts: dict[tuple[str, str], int] = {}
        occurrences = rewritten = 0
        for spelling, canonical, nid, count, dropped in items:
            occurrences += count
            if spelling != canonical:
                rewritten += count
            key = (canonical, spelling)
            clusters[key] = clusters.get(key, 0) + count
            nids[nid] = nids.get(nid, 0) + count
            if dropped:
                key = (canonical, dropped)
                dropped_counts[key] = dropped_counts.get(key, 0) + count
        self.record_counts(occurrences, rewritten, clusters, nids, dropped_counts)

    @property
    def cluster_limit(self) -> tuple[str, str] | None:
        """The largest ``(canonical, spelling)`` key :attr:`clusters` still takes, or None
        while it has never been cut to ``max_examples``.

        :meth:`record_counts` ignores larger keys, so a caller that aggregates a batch itself
        may leave them out.

        >>> CanonicalizeReport().cluster_limit is None
        True
        """
        return self._clusters.limit

    def record_counts(
        self,
        occurrences: int,
        rewritten: int,
        clusters: dict[tuple[str, str], int],
        nids: dict[str, int],
        dropped: dict[tuple[str, str], int],
        *,
        invalid: Iterable[tuple[str, str, int]] = (),
    ) -> None:
        """Record a batch already aggregated, as :meth:`record_urns` and :meth:`record_invalid`
        would have recorded it spelling by spelling.

        ``occurrences`` and ``rewritten`` count the valid URNs' statement-occurrences (all,
        and those whose spelling changed); ``clusters`` maps ``(canonical, spelling)``,
        ``nids`` an NID (lower case) and ``dropped`` ``(canonical, components)`` to counts;
        ``invalid`` lists ``(spelling, reason, count)`` for the strings that are no usable URN.

        >>> r = CanonicalizeReport()
        >>> r.record_counts(3, 2, {("urn:isbn:0395363411", "URN:ISBN:0-395-36341-1"): 2,
        ...                        ("urn:isbn:0395363411", "urn:isbn:0395363411"): 1},
        ...                 {"isbn": 3}, {}, invalid=[("urn:x-a:b", "nid-experimental: …", 1)])
        >>> r.urn_occurrences, r.rewritten, r.invalid_occurrences
        (4, 2, 1)
        """
        for spelling, reason, count in invalid:
            self.record_invalid(spelling, reason, count)
        self.urn_occurrences += occurrences
        self.rewritten += rewritten
        self._clusters.add_counts(clusters)
        self._nids.add_counts(nids)
        self._dropped.add_counts(dropped)

    def record_verdicts(self, items: Iterable[tuple[str, TermVerdict, int]]) -> None:
        """Record ``(spelling, verdict, count)`` triples as the term rule judged them.

        The one way every canonicalization path (stream, workers, in-memory graphs) fills the
        report: usable URNs join their cluster, the others are listed as invalid.
        """
        valid: list[tuple[str, str, str, int, str | None]] = []
        for spelling, v, n in items:
            if v.nid is not None:
                valid.append((spelling, v.output, v.nid, n, v.dropped))
            else:
                self.record_invalid(spelling, v.reason or "", n)
        self.record_urns(valid)

    def record_locators(self, items: Iterable[tuple[str, str, str | None, int, bool]]) -> None:
        """Record ``(locator, urn, nid, count, merged)`` for IRIs of the locator modes.

        *urn* is the canonical URN the locator stands for (``""`` for a GS1 Digital Link
        whose EPC is not known from the locator alone), *nid* its NID; a *merged* locator was
        rewritten to the URN and joins the URN's cluster with the locator as its spelling.

        >>> r = CanonicalizeReport()
        >>> r.record_locators([("https://doi.org/10.1000/182", "urn:doi:10.1000/182", "doi",
        ...                     2, True)])
        >>> r.locators_merged, r.rewritten, r.clusters
        (2, 2, {'urn:doi:10.1000/182': {'https://doi.org/10.1000/182': 2}})
        """
        for locator, urn, nid, count, merged in items:
            if merged and nid is not None:
                self.record_urn(locator, urn, nid, count)
                self.locators_merged += count
            if urn:
                self.locator_occurrences += count
            self._locators.add((urn, locator), count)

    def locator_pairs(self) -> list[tuple[str, str]]:
        """Every kept ``(canonical URN or "", locator)`` pair, sorted."""
        return [key for key, _n in self._locators.items()]

    @property
    def locators_truncated(self) -> bool:
        """True when the kept locator pairs hit ``max_examples``."""
        return self._locators.truncated

    def record_repairs(self, counts: dict[str, int]) -> None:
        """Record statement-occurrences of repaired spellings, per repair code
        (:data:`urnld.namespaces.REPAIRS`); the spellings themselves join their clusters as
        any other spelling does.

        >>> r = CanonicalizeReport()
        >>> r.record_repairs({"uuid-hyphens": 3})
        >>> r.repairs
        {'uuid-hyphens': 3}
        """
        self._repairs.add_counts(counts)

    @property
    def repairs(self) -> dict[str, int]:
        """Repair code -> statement-occurrences of the spellings the pass repaired."""
        return dict(self._repairs.items())

    def record_invalid(self, spelling: str, reason: str, count: int = 1) -> None:
        """Record ``count`` statement-occurrences of an IRI/literal that is not a valid URN."""
        self.urn_occurrences += count
        self.invalid_occurrences += count
        self._invalid.add(spelling, (count, reason))

    def record_added(self, *, same_as: int = 0, spellings: int = 0, see_also: int = 0) -> None:
        """Record statements written by the opt-in modes (they count in ``statements_out``)."""
        self.same_as_added += same_as
        self.spellings_added += spellings
        self.see_also_added += see_also
        self.statements_out += same_as + spellings + see_also

    @property
    def added(self) -> int:
        """Statements added by the opt-in modes, all kinds together."""
        return self.same_as_added + self.spellings_added + self.see_also_added

    # -- views ---------------------------------------------------------------------------
    @property
    def clusters(self) -> dict[str, dict[str, int]]:
        """canonical URN → {original spelling → statements}, for every kept canonical URN."""
        return _group(self._clusters.items(), drop_last=False)

    @property
    def clusters_truncated(self) -> bool:
        """True when :attr:`clusters` hit ``max_examples`` (spellings) and is incomplete."""
        return self._clusters.truncated

    def spellings(self) -> list[tuple[str, str]]:
        """Every kept ``(canonical, spelling)`` pair, sorted.

        >>> r = CanonicalizeReport()
        >>> r.record_urn("URN:EXAMPLE:a", "urn:example:a", "example")
        >>> r.spellings()
        [('urn:example:a', 'URN:EXAMPLE:a')]
        """
        return [key for key, _n in self._clusters.items()]

    @property
    def invalid(self) -> dict[str, tuple[int, str]]:
        """spelling → (statements, first finding) for invalid URNs (left as they were)."""
        return dict(self._invalid.items())

    @property
    def dropped_components(self) -> dict[str, dict[str, int]]:
        """canonical assigned name → {dropped components → statements}."""
        return _group(self._dropped.items(), drop_last=False)

    # -- algebra -------------------------------------------------------------------------
    def merge(self, other: CanonicalizeReport) -> CanonicalizeReport:
        """Return the report of both inputs together (neither operand is changed).

        >>> a = CanonicalizeReport(); a.statements_in = 3
        >>> b = CanonicalizeReport(); b.statements_in = 4
        >>> a.merge(b).statements_in
        7
        """
        if not isinstance(other, CanonicalizeReport):
            raise TypeError(f"cannot merge CanonicalizeReport with {type(other).__name__}")
        if (self.ignore_components, self.literals) != (other.ignore_components, other.literals):
            raise ValueError("cannot merge reports made with different options")
        out = CanonicalizeReport(
            ignore_components=self.ignore_components,
            literals=self.literals,
            max_examples=min(self.max_examples, other.max_examples),
        )
        return self._merge_into(out, other)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready, deterministic summary.

        Shape (stable)::

            {"kind": "canonicalize", "options": {"ignore_components": b, "literals": b},
             "statements": {"in": n, "out": n, "duplicates_merged": n},
             "urns": {"occurrences": n, "rewritten": n, "invalid": n},
             "added": {"same_as": n, "spellings": n, "see_also": n},  # in statements.out
             "nids": {nid: n}, "nids_truncated": b,
             "clusters": {canonical: {spelling: n}},  # only canonical forms met in >1
             "clusters_truncated": b,                 # spelling or in a non-canonical one
             "invalid": {"urns": {spelling: {"count": n, "finding": str}}, "truncated": b},
             "dropped_components": {canonical: {components: n}}, "dropped_truncated": b,
             "errors": {"count": n, "truncated": b,
                        "lines": [{"source": s, "line": n, "message": m}]},
             # only when a spelling mode met something:
             "repairs": {code: n},
             "locators": {"occurrences": n, "merged": n, "truncated": b,
                          "pairs": {urn: {locator: n}}}}
        """
        clusters = {
            canonical: spellings
            for canonical, spellings in _group(
                self._clusters.items(), drop_last=self._clusters.truncated
            ).items()
            if len(spellings) > 1 or canonical not in spellings
        }
        return {
            "kind": "canonicalize",
            "options": {"ignore_components": self.ignore_components, "literals": self.literals},
            "statements": {
                "in": self.statements_in,
                "out": self.statements_out,
                "duplicates_merged": self.duplicates_merged,
            },
            "urns": {
                "occurrences": self.urn_occurrences,
                "rewritten": self.rewritten,
                "invalid": self.invalid_occurrences,
            },
            "added": {
                "same_as": self.same_as_added,
                "spellings": self.spellings_added,
                "see_also": self.see_also_added,
            },
            "nids": dict(self._nids.items()),
            "nids_truncated": self._nids.truncated,
            "clusters": clusters,
            "clusters_truncated": self._clusters.truncated,
            "invalid": {
                "urns": {s: {"count": n, "finding": f} for s, (n, f) in self._invalid.items()},
                "truncated": self._invalid.truncated,
            },
            "dropped_components": _group(
                self._dropped.items(), drop_last=self._dropped.truncated
            ),
            "dropped_truncated": self._dropped.truncated,
            "errors": self._errors_dict(),
        } | self._spellings_dict()

    def _spellings_dict(self) -> dict[str, Any]:
        """The spelling modes' part of :meth:`to_dict`: absent when they met nothing, so the
        report of a pass without them keeps its shape."""
        out: dict[str, Any] = {}
        repairs = self.repairs
        if repairs:
            out["repairs"] = repairs
        if self._locators.items():
            out["locators"] = {
                "occurrences": self.locator_occurrences,
                "merged": self.locators_merged,
                "truncated": self._locators.truncated,
                "pairs": _group(
                    ((k, n) for k, n in self._locators.items() if k[0]),
                    drop_last=self._locators.truncated,
                ),
            }
        return out

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, CanonicalizeReport):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return (
            f"<CanonicalizeReport statements_in={self.statements_in} "
            f"statements_out={self.statements_out} rewritten={self.rewritten} "
            f"invalid={self.invalid_occurrences} errors={self.error_count}>"
        )


class CheckReport(_ReportBase):
    """What :func:`urnld.stream.check_lines` / ``urnld check`` found.

    Attributes (exact counts):
        statements_in: statements scanned.
        iri_occurrences / literal_occurrences: statement-occurrences of URN-looking IRIs and
            literals (a literal counts when its whole lexical form starts with ``urn:``).
        error_occurrences: those with at least one error-level finding (invalid URNs).
        non_canonical_occurrences: statement-occurrences of *valid* URNs not spelled in
            canonical form (what ``canonicalize`` rewrites).
        error_count: malformed lines met.

    >>> from urnld import check
    >>> r = CheckReport()
    >>> r.record_urn("URN:ISBN:0-395-36341-1", check("URN:ISBN:0-395-36341-1"),
    ...              canonical="urn:isbn:0395363411", nid="isbn")
    >>> r.ok, r.to_dict()["non_canonical"]["spellings"]
    (True, {'URN:ISBN:0-395-36341-1': {'canonical': 'urn:isbn:0395363411', 'count': 1}})
    """

    _COUNTS = (*_ReportBase._COUNTS, "iri_occurrences", "literal_occurrences",
               "error_occurrences", "non_canonical_occurrences", "locator_occurrences")
    _MAPS = (*_ReportBase._MAPS, "_findings", "_invalid", "_non_canonical", "_clusters",
             "_locators")

    def __init__(self, *, max_examples: int = DEFAULT_MAX_EXAMPLES) -> None:
        self._init_base(max_examples)
        # IRIs that are a resolver's address of a URN (``check --locators``): info findings
        # of code "locator", with the URN each stands for.
        self.locator_occurrences = 0
        self._locators: _Capped[str, tuple[int, str]] = _Capped(max_examples, _count_with_text)
        self.iri_occurrences = 0
        self.literal_occurrences = 0
        self.error_occurrences = 0
        self.non_canonical_occurrences = 0
        self._findings: _Capped[str, int] = _Capped(max_examples, _add)
        self._invalid: _Capped[str, tuple[int, str]] = _Capped(max_examples, _count_with_text)
        self._non_canonical: _Capped[str, tuple[int, str]] = _Capped(
            max_examples, _count_with_text
        )
        self._clusters: _Capped[tuple[str, str], int] = _Capped(max_examples, _add)

    def record_urn(
        self,
        spelling: str,
        findings: Iterable[Any],
        *,
        canonical: str | None,
        nid: str | None,
        literal: bool = False,
        count: int = 1,
    ) -> None:
        """Record ``count`` statement-occurrences of ``spelling`` with its ``check`` findings.

        ``findings`` are :class:`urnld.Finding` objects; ``canonical``/``nid`` are ``None``
        when the spelling does not parse.
        """
        codes: dict[str, None] = {}
        error: str | None = None
        for f in findings:
            codes[f.code] = None
            if error is None and str(f.severity) == "error":
                error = f"{f.code}: {f.message}"
        self.record_checks(((spelling, (tuple(codes), error, canonical, nid), literal, count),))

    def record_check(
        self,
        spelling: str,
        checked: TermCheck | CheckFields,
        *,
        literal: bool = False,
        count: int = 1,
    ) -> None:
        """Record ``count`` occurrences of ``spelling`` as :func:`urnld._terms.check_term`
        judged it (see :meth:`record_checks`)."""
        self.record_checks(((spelling, checked, literal, count),))

    def record_checks(
        self, items: Iterable[tuple[str, TermCheck | CheckFields, bool, int]]
    ) -> None:
        """Record ``(spelling, check, is_literal, count)`` tuples as
        :func:`urnld._terms.check_term` judged them (a :class:`~urnld._terms.TermCheck` or its
        fields as a plain tuple): the one way every check path (stream, in-memory graphs,
        endpoints) fills the report.

        The same counts as :meth:`record_urn` per item, summed per batch first (a URN-dense
        file meets each spelling about twice, so the per-item cost is the report's cost).
        """
        findings: dict[str, int] = {}
        nids: dict[str, int] = {}
        clusters: dict[tuple[str, str], int] = {}
        iris = literals = errors = non_canonical = 0
        add_invalid = self._invalid.add
        add_non_canonical = self._non_canonical.add
        for spelling, checked, literal, count in items:
            if literal:
                literals += count
            else:
                iris += count
            codes, error, canonical, nid = checked
            for code in codes:
                findings[code] = findings.get(code, 0) + count
            if error is not None:
                errors += count
                add_invalid(spelling, (count, error))
                continue
            if canonical is None or nid is None:
                continue
            nids[nid] = nids.get(nid, 0) + count
            key = (canonical, spelling)
            clusters[key] = clusters.get(key, 0) + count
            if spelling != canonical:
                non_canonical += count
                add_non_canonical(spelling, (count, canonical))
        self.record_counts(findings, nids, clusters, iris=iris, literals=literals, errors=errors,
                           non_canonical=non_canonical)

    @property
    def batch_maps(self) -> tuple[tuple[dict[Any, Any], Any], ...]:
        """The report's maps as ``(dict, limit)`` pairs, for a compiled flush that adds a batch
        to them in place as :meth:`record_checks` would (a key not yet kept only up to the
        limit: a larger one was or would be dropped), then calls :meth:`add_batch`: findings
        (code), NIDs, clusters (``(canonical, spelling)``) to counts, invalid (spelling to
        ``(count, first error)``) and non-canonical (spelling to ``(count, canonical)``).
        Read it afresh for each batch: a prune replaces the dicts.

        >>> [limit for _, limit in CheckReport().batch_maps]
        [None, None, None, None, None]
        """
        return tuple((m.data, m.limit) for m in self._batch_capped)

    @property
    def _batch_capped(self) -> tuple[_Capped[Any, Any], ...]:
        """The maps :attr:`batch_maps` hands out, in its order."""
        return self._findings, self._nids, self._clusters, self._invalid, self._non_canonical

    def add_batch(self, iris: int, literals: int, errors: int, non_canonical: int) -> None:
        """Finish a batch added to :attr:`batch_maps`: its statement-occurrences of URN IRIs,
        URN literals, invalid URNs and valid non-canonical ones, and the maps cut back to
        their caps (in batches, as the maps do)."""
        self.iri_occurrences += iris
        self.literal_occurrences += literals
        self.error_occurrences += errors
        self.non_canonical_occurrences += non_canonical
        for m in self._batch_capped:
            m.settle()

    def record_counts(
        self,
        findings: dict[str, int],
        nids: dict[str, int],
        clusters: dict[tuple[str, str], int],
        *,
        iris: int = 0,
        literals: int = 0,
        errors: int = 0,
        non_canonical: int = 0,
        invalid: Iterable[tuple[str, tuple[int, str]]] = (),
        non_canonical_spellings: Iterable[tuple[str, tuple[int, str]]] = (),
    ) -> None:
        """Record a batch already aggregated, as :meth:`record_checks` would have recorded it
        spelling by spelling.

        ``findings`` maps a finding code, ``nids`` an NID (lower case) and ``clusters``
        ``(canonical, spelling)`` of the valid URNs to statement-occurrences; ``iris``,
        ``literals``, ``errors`` and ``non_canonical`` are the batch's statement-occurrences of
        URN IRIs, URN literals, invalid URNs and valid URNs not in canonical form; ``invalid`` lists
        ``(spelling, (count, first error))`` and ``non_canonical_spellings`` ``(spelling,
        (count, canonical))`` (as :attr:`invalid` and :attr:`non_canonical` show them), in the
        order :meth:`record_checks` meets them.

        >>> r = CheckReport()
        >>> r.record_counts({"not-canonical": 2, "nid-experimental": 1}, {"isbn": 3},
        ...                 {("urn:isbn:0395363411", "URN:ISBN:0-395-36341-1"): 2,
        ...                  ("urn:isbn:0395363411", "urn:isbn:0395363411"): 1},
        ...                 iris=3, literals=1, errors=1, non_canonical=2,
        ...                 invalid=[("urn:x-a:b", (1, "nid-experimental: …"))],
        ...                 non_canonical_spellings=[("URN:ISBN:0-395-36341-1",
        ...                                           (2, "urn:isbn:0395363411"))])
        >>> r.ok, r.non_canonical
        (False, {'URN:ISBN:0-395-36341-1': (2, 'urn:isbn:0395363411')})
        >>> r.to_dict()["urns"]
        {'iris': 3, 'literals': 1, 'with_errors': 1}
        """
        self._invalid.add_many(invalid)
        self._non_canonical.add_many(non_canonical_spellings)
        self.iri_occurrences += iris
        self.literal_occurrences += literals
        self.error_occurrences += errors
        self.non_canonical_occurrences += non_canonical
        self._findings.add_counts(findings)
        self._nids.add_counts(nids)
        self._clusters.add_counts(clusters)

    def record_locators(self, items: Iterable[tuple[str, str, int]]) -> None:
        """Record ``(locator, urn, count)``: IRIs that stand for a URN (an ``info`` finding of
        code ``locator``; they are no URN occurrences).

        >>> r = CheckReport()
        >>> r.record_locators([("https://doi.org/10.1000/182", "urn:doi:10.1000/182", 2)])
        >>> r.findings, r.locators
        ({'locator': 2}, {'https://doi.org/10.1000/182': (2, 'urn:doi:10.1000/182')})
        """
        counts = 0
        for locator, urn, n in items:
            counts += n
            self._locators.add(locator, (n, urn))
        if counts:
            self.locator_occurrences += counts
            self._findings.add_counts({"locator": counts})

    @property
    def locators(self) -> dict[str, tuple[int, str]]:
        """locator IRI -> (statements, the URN it stands for)."""
        return dict(self._locators.items())

    @property
    def ok(self) -> bool:
        """True when no error-level finding was met (``urnld check`` exits 0)."""
        return self.error_occurrences == 0

    @property
    def findings(self) -> dict[str, int]:
        """finding code → statement-occurrences."""
        return dict(self._findings.items())

    @property
    def invalid(self) -> dict[str, tuple[int, str]]:
        """spelling → (statements, first error finding ``"code: message"``)."""
        return dict(self._invalid.items())

    @property
    def non_canonical(self) -> dict[str, tuple[int, str]]:
        """spelling → (statements, canonical form) for valid URNs not in canonical form."""
        return dict(self._non_canonical.items())

    @property
    def clusters(self) -> dict[str, dict[str, int]]:
        """canonical → {spelling → statements}, only where several spellings are separate nodes."""
        return {
            c: s
            for c, s in _group(
                self._clusters.items(), drop_last=self._clusters.truncated
            ).items()
            if len(s) > 1
        }

    def merge(self, other: CheckReport) -> CheckReport:
        """Return the report of both inputs together (neither operand is changed)."""
        if not isinstance(other, CheckReport):
            raise TypeError(f"cannot merge CheckReport with {type(other).__name__}")
        out = CheckReport(max_examples=min(self.max_examples, other.max_examples))
        return self._merge_into(out, other)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready, deterministic summary (the ``urnld check --json`` output).

        Shape (stable)::

            {"kind": "check", "ok": b,
             "statements": n,
             "urns": {"iris": n, "literals": n, "with_errors": n},
             "findings": {code: n},
             "nids": {nid: n}, "nids_truncated": b,
             "invalid": {"urns": {spelling: {"count": n, "finding": "code: message"}},
                         "truncated": b, "occurrences": n},
             "non_canonical": {"spellings": {spelling: {"canonical": c, "count": n}},
                               "truncated": b, "occurrences": n},

        Every ``count``/``occurrences`` is exact. A map with ``"truncated": true`` holds the
        ``max_examples`` smallest keys (code-point order) with their exact counts, so its
        length is a lower bound of the number of distinct keys; ``occurrences`` stays exact.
             "clusters": {"groups": {canonical: {spelling: n}}, "truncated": b},
             "errors": {"count": n, "truncated": b,
                        "lines": [{"source": s, "line": n, "message": m}]}}
        """
        return {
            "kind": "check",
            "ok": self.ok,
            "statements": self.statements_in,
            "urns": {
                "iris": self.iri_occurrences,
                "literals": self.literal_occurrences,
                "with_errors": self.error_occurrences,
            },
            "findings": dict(self._findings.items()),
            "nids": dict(self._nids.items()),
            "nids_truncated": self._nids.truncated,
            "invalid": {
                "urns": {s: {"count": n, "finding": f} for s, (n, f) in self._invalid.items()},
                "truncated": self._invalid.truncated,
                "occurrences": self.error_occurrences,
            },
            "non_canonical": {
                "spellings": {
                    s: {"canonical": c, "count": n} for s, (n, c) in self._non_canonical.items()
                },
                "truncated": self._non_canonical.truncated,
                "occurrences": self.non_canonical_occurrences,
            },
            "clusters": {"groups": self.clusters, "truncated": self._clusters.truncated},
            "errors": self._errors_dict(),
        } | self._locators_dict()

    def _locators_dict(self) -> dict[str, Any]:
        """``{"locators": {"iris": {iri: {"count": n, "urn": u}}, "truncated": b,
        "occurrences": n}}`` when ``check --locators`` met some, else nothing (the report of
        a check without it keeps its shape)."""
        if not self.locator_occurrences:
            return {}
        return {"locators": {
            "iris": {s: {"count": n, "urn": u} for s, (n, u) in self._locators.items()},
            "truncated": self._locators.truncated,
            "occurrences": self.locator_occurrences,
        }}

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, CheckReport):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return (
            f"<CheckReport statements={self.statements_in} iris={self.iri_occurrences} "
            f"literals={self.literal_occurrences} with_errors={self.error_occurrences} "
            f"errors={self.error_count}>"
        )
