"""The check report: invalid URNs and their findings, non-canonical spellings, clusters."""

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
    rewritten_examples,
)

if TYPE_CHECKING:
    from ._term_check import CheckFields, TermCheck

__all__ = ["CheckReport"]


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
               "error_occurrences", "non_canonical_occurrences", "locator_occurrences",
               "iri_occurrences_not_normal", "note_count")
    # The non-canonical spellings are the clusters' pairs whose spelling is not the canonical
    # form: derived from them, not kept twice.
    _MAPS = (*_ReportBase._MAPS, "_findings", "_invalid", "_clusters", "_locators", "_iris",
             "_notes")

    def __init__(
        self, *, max_examples: int = DEFAULT_MAX_EXAMPLES,
        memory_budget: int | None = None,
    ) -> None:
        self._init_base(max_examples, memory_budget)
        # IRIs that are a resolver's address of a URN (``check --locators``): info findings
        # of code "locator", with the URN each stands for.
        self.locator_occurrences = 0
        self._locators: _Capped[str, tuple[int, str]] = self._new_map(_count_with_text)
        # IRIs other than URNs not in RFC 3986 normal form (``check --iris rfc3986``): what
        # ``canonicalize --iris rfc3986`` rewrites, (normal form, spelling) -> statements.
        self.iri_occurrences_not_normal = 0
        self._iris: _Capped[tuple[str, str], int] = self._new_map(_add)
        self.iri_occurrences = 0
        self.literal_occurrences = 0
        self.error_occurrences = 0
        self.non_canonical_occurrences = 0
        self._findings: _Capped[str, int] = self._new_map(_add)
        self._invalid: _Capped[str, tuple[int, str]] = self._new_map(_count_with_text)
        # What a compiled flush writes non-canonical spellings into (batch_maps): dropped
        # after each batch, the clusters hold the same pairs.
        self._scratch: dict[str, Any] = {}
        self._clusters: _Capped[tuple[str, str], int] = self._new_map(_add)
        # What reading a document dropped or warned about (JSON-LD: keys that expand to no
        # IRI, IRIs toRdf drops, ...): (source, where, code, message) -> times met.
        self.note_count = 0
        self._notes: _Capped[tuple[str, str, str, str], int] = self._new_map(_add)

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
        """Record ``count`` occurrences of ``spelling`` as :func:`urnld._kernel.check_term`
        judged it (see :meth:`record_checks`)."""
        self.record_checks(((spelling, checked, literal, count),))

    def record_checks(
        self, items: Iterable[tuple[str, TermCheck | CheckFields, bool, int]]
    ) -> None:
        """Record ``(spelling, check, is_literal, count)`` tuples as
        :func:`urnld._kernel.check_term` judged them (a :class:`~urnld._kernel.TermCheck` or its
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
        self.record_counts(findings, nids, clusters, iris=iris, literals=literals, errors=errors,
                           non_canonical=non_canonical)

    @property
    def batch_maps(self) -> tuple[tuple[dict[Any, Any], Any], ...]:
        """The report's maps as ``(dict, limit)`` pairs, for a compiled flush that adds a batch
        to them in place as :meth:`record_checks` would (a key not yet kept only up to the
        limit: a larger one was or would be dropped), then calls :meth:`add_batch`: findings
        (code), NIDs, clusters (``(canonical, spelling)``) to counts, invalid (spelling to
        ``(count, first error)``) and non-canonical (spelling to ``(count, canonical)``: a
        dict whose limit ``""`` refuses every key, since the clusters hold the same pairs).
        Read it afresh for each batch: a spill replaces the dicts. The other limits are None
        (every key is taken: the maps spill to disk rather than drop keys).

        >>> [limit for _, limit in CheckReport().batch_maps]
        [None, None, None, None, '']
        """
        # The non-canonical map takes nothing: its limit "" is below every spelling, so the
        # flush skips it (the clusters hold the same pairs).
        return (*((m.data, m.limit) for m in self._batch_capped), (self._scratch, ""))

    @property
    def _batch_capped(self) -> tuple[_Capped[Any, Any], ...]:
        """The maps :attr:`batch_maps` hands out, in its order."""
        return self._findings, self._nids, self._clusters, self._invalid

    def add_batch(self, iris: int, literals: int, errors: int, non_canonical: int) -> None:
        """Finish a batch added to :attr:`batch_maps`: its statement-occurrences of URN IRIs,
        URN literals, invalid URNs and valid non-canonical ones, and the maps cut back to
        their caps (in batches, as the maps do)."""
        self.iri_occurrences += iris
        self.literal_occurrences += literals
        self.error_occurrences += errors
        self.non_canonical_occurrences += non_canonical
        self._scratch.clear()
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

    def record_iris(self, pairs: dict[tuple[str, str], int]) -> None:
        """Record IRIs other than URNs that are not in RFC 3986 normal form:
        ``(normal form, spelling)`` → statement-occurrences (what ``canonicalize`` with
        ``iris="rfc3986"`` rewrites; its report counts them the same way).

        >>> r = CheckReport()
        >>> r.record_iris({("http://e.org/", "HTTP://E.org"): 2})
        >>> r.iris_not_normal, r.to_dict()["iris"]["occurrences"]
        ({'HTTP://E.org': (2, 'http://e.org/')}, 2)
        """
        self.iri_occurrences_not_normal += sum(pairs.values())
        self._iris.add_counts(pairs)

    @property
    def iris_not_normal(self) -> dict[str, tuple[int, str]]:
        """spelling → (statements, RFC 3986 normal form) of the IRIs other than URNs not in
        normal form (the ``max_examples`` smallest spellings; ``check --iris rfc3986``)."""
        return dict(rewritten_examples(self._iris))

    def iter_iris(self) -> Iterator[tuple[str, dict[str, int]]]:
        """Every IRI other than a URN not in RFC 3986 normal form: normal form and
        {spelling: statements}, sorted."""
        return _iter_groups(self._iris.iter_all(), several=False)

    @property
    def locators(self) -> dict[str, tuple[int, str]]:
        """locator IRI -> (statements, the URN it stands for)."""
        return dict(self._locators.items())

    def record_note(self, source: str, where: str, code: str, message: str) -> None:
        """Record what reading *source* dropped or warned about, at *where* (a JSON pointer
        for JSON-LD, ``""`` for the whole document): a finding that is not about a URN and
        does not make the report fail (:attr:`ok`).

        >>> r = CheckReport()
        >>> r.record_note("d.jsonld", "/name", "jsonld-dropped-key", "dropped")
        >>> r.note_count, r.ok, r.to_dict()["notes"]["items"][0]["where"]
        (1, True, '/name')
        """
        self.note_count += 1
        self._notes.add((source, where, code, message), 1)

    def iter_notes(self) -> Iterator[tuple[str, str, str, str, int]]:
        """Every note ``(source, where, code, message, times)``, sorted, however many."""
        for (source, where, code, message), n in self._notes.iter_all():
            yield source, where, code, message, n

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
        """spelling → (statements, canonical form) for valid URNs not in canonical form (the
        ``max_examples`` smallest spellings)."""
        return dict(rewritten_examples(self._clusters))

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
        out = CheckReport(
            max_examples=min(self.max_examples, other.max_examples),
            memory_budget=min(self.memory_budget, other.memory_budget),
        )
        return self._merge_into(out, other)

    def cluster_stats(self) -> ClusterStats:
        """Exact figures of the clusters of equivalent spellings (all of them, not only the
        examples): how many URNs are spelled several ways, and in how many spellings.

        >>> r = CheckReport()
        >>> r.record_counts({}, {"a": 3}, {("urn:a:b", "URN:A:b"): 1, ("urn:a:b", "urn:a:b"): 2})
        >>> r.cluster_stats().several, r.cluster_stats().sizes
        (1, {2: 1})
        """
        return cluster_stats(self._clusters)

    def iter_invalid(self) -> Iterator[tuple[str, tuple[int, str]]]:
        """Every invalid spelling with (statements, first error), in code-point order."""
        return self._invalid.iter_all()

    def iter_non_canonical(self) -> Iterator[tuple[str, tuple[int, str]]]:
        """Every valid non-canonical spelling with (statements, canonical form), in the order
        of (canonical form, spelling)."""
        for (canonical, spelling), n in self._clusters.iter_all():
            if spelling != canonical:
                yield spelling, (n, canonical)

    def iter_clusters(self) -> Iterator[tuple[str, dict[str, int]]]:
        """Every URN spelled several ways: canonical form and {spelling: statements}, sorted
        (one cluster in memory at a time)."""
        return _iter_groups(self._clusters.iter_all(), several=True)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready, deterministic summary (the ``urnld check --json`` output).

        Shape (stable)::

            {"kind": "check", "ok": b,
             "statements": n,
             "urns": {"iris": n, "literals": n, "with_errors": n},
             "findings": {code: n},
             "nids": {nid: n}, "nids_truncated": b,
             "invalid": {"urns": {spelling: {"count": n, "finding": "code: message"}},
                         "truncated": b, "occurrences": n, "distinct": n},
             "non_canonical": {"spellings": {spelling: {"canonical": c, "count": n}},
                               "truncated": b, "occurrences": n, "distinct": n},
             "clusters": {"groups": {canonical: {spelling: n}}, "truncated": b,
                          "count": n, "spellings": n, "sizes": {"2": n, …}},
             "errors": {"count": n, "truncated": b,
                        "lines": [{"source": s, "line": n, "message": m}]},
             # only when reading met some (see record_note):
             "notes": {"count": n, "truncated": b, "codes": {code: n},
                       "items": [{"source": s, "where": w, "code": c, "message": m,
                                  "count": n}]}}

        plus, when they met something, ``locators`` (``check --locators``) and ``iris``
        (``check --iris rfc3986``: IRIs other than URNs not in RFC 3986 normal form).

        Every ``count``/``occurrences``/``distinct`` is exact, at any size. A map with
        ``"truncated": true`` shows the ``max_examples`` smallest keys (code-point order) with
        their exact counts; ``distinct`` (and the clusters' ``count``: URNs spelled several
        ways, ``spellings``: their spellings, ``sizes``: spellings per URN → URNs) count all.
        """
        stats = self.cluster_stats()
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
                "distinct": self._invalid.distinct(),
            },
            "non_canonical": {
                "spellings": {
                    s: {"canonical": c, "count": n}
                    for s, (n, c) in rewritten_examples(self._clusters)
                },
                "truncated": stats.rewritten_spellings > self.max_examples,
                "occurrences": self.non_canonical_occurrences,
                "distinct": stats.rewritten_spellings,
            },
            "clusters": {
                "groups": self.clusters, "truncated": self._clusters.truncated,
                "count": stats.several, "spellings": stats.several_spellings,
                "sizes": stats.to_dict()["sizes"],
            },
            "errors": self._errors_dict(),
        } | self._locators_dict() | self._iris_dict() | self._notes_dict()

    def _iris_dict(self) -> dict[str, Any]:
        """``{"iris": {"spellings": {iri: {"normal": n, "count": c}}, "truncated": b,
        "occurrences": n, "distinct": n, "normal_forms": n}}`` when ``check --iris rfc3986``
        met IRIs not in normal form, else nothing (the report keeps its shape)."""
        if not self.iri_occurrences_not_normal:
            return {}
        stats = cluster_stats(self._iris)
        return {"iris": {
            "spellings": {s: {"normal": c, "count": n}
                          for s, (n, c) in rewritten_examples(self._iris)},
            "truncated": stats.rewritten_spellings > self.max_examples,
            "occurrences": self.iri_occurrences_not_normal,
            "distinct": stats.rewritten_spellings,
            "normal_forms": stats.merged_canonical,
        }}

    def _notes_dict(self) -> dict[str, Any]:
        """``{"notes": {"count": n, "truncated": b, "codes": {code: n}, "items": [{"source",
        "where", "code", "message", "count"}]}}`` when reading met some, else nothing (the
        report of a check without them keeps its shape)."""
        if not self.note_count:
            return {}
        codes: dict[str, int] = {}
        for _source, _where, code, _message, n in self.iter_notes():
            codes[code] = codes.get(code, 0) + n
        return {"notes": {
            "count": self.note_count,
            "truncated": self._notes.truncated,
            "codes": dict(sorted(codes.items())),
            "items": [
                {"source": s, "where": w, "code": c, "message": m, "count": n}
                for (s, w, c, m), n in self._notes.items()
            ],
        }}

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

