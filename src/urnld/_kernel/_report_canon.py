"""The canonicalization report: clusters of spellings, rewrites, what was left and why."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from ._report import (
    DEFAULT_MAX_EXAMPLES,
    ClusterStats,
    _add,
    _Capped,
    _count_with_text,
    _group,
    _iter_groups,
    _ReportBase,
    cluster_stats,
)

if TYPE_CHECKING:
    from .._core import Policy
    from ._terms import TermVerdict

__all__ = ["CanonicalizeReport"]


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
               "see_also_added", "iris_rewritten", "locator_occurrences", "locators_merged")
    _MAPS = (*_ReportBase._MAPS, "_clusters", "_invalid", "_dropped", "_iris", "_locators",
             "_repairs")

    def __init__(
        self,
        *,
        ignore_components: bool = False,
        literals: bool = False,
        max_examples: int = DEFAULT_MAX_EXAMPLES,
        memory_budget: int | None = None,
    ) -> None:
        self._init_base(max_examples, memory_budget)
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
        self.iris_rewritten = 0
        self._clusters: _Capped[tuple[str, str], int] = self._new_map(_add)
        self._invalid: _Capped[str, tuple[int, str]] = self._new_map(_count_with_text)
        self._dropped: _Capped[tuple[str, str], int] = self._new_map(_add)
        self._iris: _Capped[tuple[str, str], int] = self._new_map(_add)
        self.locator_occurrences = 0
        self.locators_merged = 0
        # (canonical URN, locator) -> statements; "" for a GS1 Digital Link whose EPC is
        # told by the data's own EPC URNs (see urnld._kernel._links).
        self._locators: _Capped[tuple[str, str], int] = self._new_map(_add)
        self._repairs: _Capped[str, int] = self._new_map(_add)

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
        """The largest ``(canonical, spelling)`` key :attr:`clusters` takes: always None now
        (the maps keep every key, spilling to disk past the memory budget), kept for callers
        that aggregate a batch themselves.

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
        merged_urns: list[tuple[str, str, str, int, str | None]] = []
        pairs: dict[tuple[str, str], int] = {}
        get = pairs.get
        merged_count = occurrences = 0  # added to the report's counters once per batch
        for locator, urn, nid, count, merged in items:
            if merged and nid is not None:
                merged_urns.append((locator, urn, nid, count, None))
                merged_count += count
            if urn:
                occurrences += count
            key = (urn, locator)
            pairs[key] = get(key, 0) + count
        self.locators_merged += merged_count
        self.locator_occurrences += occurrences
        if merged_urns:
            self.record_urns(merged_urns)  # one batch, as the pass's own URNs
        self._locators.add_counts(pairs)

    def locator_pairs(self) -> list[tuple[str, str]]:
        """Every kept ``(canonical URN or "", locator)`` pair, sorted."""
        return [key for key, _n in self._locators.items()]

    def locator_pair_set(self) -> set[tuple[str, str]]:
        """The pairs of :meth:`locator_pairs` as a set: for a caller that needs no order,
        without the sorted merge of the pairs spilled to disk.

        >>> r = CanonicalizeReport()
        >>> r.record_locators([("doi:10.1000/182", "urn:doi:10.1000/182", "doi", 1, False)])
        >>> r.locator_pair_set()
        {('urn:doi:10.1000/182', 'doi:10.1000/182')}
        """
        return set(self._locators.all_keys())

    def canonical_urns(self) -> set[str]:
        """Every kept canonical URN (the first of each pair :meth:`spellings` gives), without
        the sorted merge of the spellings spilled to disk.

        >>> r = CanonicalizeReport()
        >>> r.record_urn("URN:EXAMPLE:a", "urn:example:a", "example")
        >>> r.canonical_urns()
        {'urn:example:a'}
        """
        return {key[0] for key in self._clusters.all_keys()}

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

    def record_iris(self, pairs: dict[tuple[str, str], int]) -> None:
        """Record non-URN IRIs that ``iris="rfc3986"`` rewrote: ``(normal form, spelling)`` →
        statement-occurrences.

        >>> r = CanonicalizeReport()
        >>> r.record_iris({("http://e.org/", "HTTP://E.org"): 2})
        >>> r.iris_rewritten, r.to_dict()["iris"]["spellings"]
        (2, 1)
        """
        self.iris_rewritten += sum(pairs.values())
        self._iris.add_counts(pairs)

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

    def cluster_stats(self) -> ClusterStats:
        """Exact figures of every cluster of spellings (not only the examples): what the
        run merged into how many canonical URNs.

        >>> r = CanonicalizeReport()
        >>> r.record_urn("URN:A:b", "urn:a:b", "a"); r.record_urn("urn:a:b", "urn:a:b", "a")
        >>> r.cluster_stats().merged_spellings, r.cluster_stats().merged_canonical
        (2, 1)
        """
        return cluster_stats(self._clusters)

    def rule_invalid_nids(self, policy: Policy | None = None) -> dict[str, int]:
        """NID -> statement-occurrences of canonical URNs that break their namespace's rules
        (a wrong check digit, an ISBN of 5 digits) under *policy*: canonicalization writes them
        in canonical form, ``urnld check`` lists them as invalid, and a report that counts
        them among the valid ones would say otherwise. Checked once per canonical URN, over
        every cluster (not only the examples).

        >>> r = CanonicalizeReport()
        >>> r.record_urn("URN:ISBN:12345", "urn:isbn:12345", "isbn", 2)
        >>> r.record_urn("urn:isbn:0395363411", "urn:isbn:0395363411", "isbn")
        >>> r.rule_invalid_nids()
        {'isbn': 2}
        """
        from ._term_check import check_term

        out: dict[str, int] = {}
        current: str | None = None
        bad_nid: str | None = None
        for (canonical, _spelling), n in self._clusters.iter_all():  # sorted by canonical
            if canonical != current:
                current = canonical
                verdict = (check_term(canonical) if policy is None
                           else check_term(canonical, policy))
                bad_nid = None if verdict.valid else verdict.nid
            if bad_nid is not None:
                out[bad_nid] = out.get(bad_nid, 0) + n
        return out

    def iter_clusters(self) -> Iterator[tuple[str, dict[str, int]]]:
        """Every cluster the run merged: canonical form and {spelling: statements}, sorted
        (one cluster in memory at a time)."""
        return _iter_groups(self._clusters.iter_all(), several=False)

    def iter_invalid(self) -> Iterator[tuple[str, tuple[int, str]]]:
        """Every invalid spelling with (statements, first finding), in code-point order."""
        return self._invalid.iter_all()

    def iter_iris(self) -> Iterator[tuple[str, dict[str, int]]]:
        """Every non-URN IRI merged by ``iris="rfc3986"``: normal form and {spelling:
        statements}."""
        return _iter_groups(self._iris.iter_all(), several=False)

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
            memory_budget=min(self.memory_budget, other.memory_budget),
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
             "merged": {"spellings": n, "canonical": n, "rewritten_spellings": n,
                        "sizes": {"2": n, …}},
             "iris": {"rewritten": n, "spellings": n, "normal_forms": n},
             # only when a spelling mode met something:
             "repairs": {code: n},
             "locators": {"occurrences": n, "merged": n, "truncated": b,
                          "pairs": {urn: {locator: n}}}}

        Counts are exact at any size: ``merged`` counts every spelling merged into a
        canonical URN (clusters of two or more spellings, or of one non-canonical one),
        ``invalid.distinct`` every invalid spelling, ``iris`` the non-URN IRIs rewritten by
        ``iris="rfc3986"`` (occurrences, distinct spellings and their normal forms); the maps
        show the ``max_examples`` smallest keys.
        """
        stats = self.cluster_stats()
        iris = cluster_stats(self._iris)
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
                "distinct": self._invalid.distinct(),
            },
            "merged": {
                "spellings": stats.merged_spellings, "canonical": stats.merged_canonical,
                "rewritten_spellings": stats.rewritten_spellings,
                "sizes": stats.to_dict()["sizes"],
            },
            "iris": {
                "rewritten": self.iris_rewritten, "spellings": iris.rewritten_spellings,
                "normal_forms": iris.merged_canonical,
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


