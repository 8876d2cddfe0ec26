"""What every report shares: capped example maps, malformed lines, NID counts, merging.

The report kinds live in ``_report_canon`` and ``_report_check``; :mod:`urnld.report` is
their public face and states the guarantees.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from typing import Any, Generic, TypeVar

__all__ = ["DEFAULT_MAX_EXAMPLES", "LineError"]


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


