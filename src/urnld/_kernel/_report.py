"""What every report shares: capped example maps, malformed lines, NID counts, merging.

The report kinds live in ``_report_canon`` and ``_report_check``; :mod:`urnld.report` is
their public face and states the guarantees.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Generic, TypeVar

from ._clusters import ClusterStats, cluster_stats, rewritten_examples
from ._spill import (
    BUDGET_ENV,
    MARSHAL,
    Run,
    column_items,
    encode_counts,
    merge_counts,
    merge_sorted,
    record_columns,
)

__all__ = [
    "DEFAULT_MAX_EXAMPLES",
    "DEFAULT_MEMORY_BUDGET",
    "ClusterStats",
    "LineError",
    "cluster_stats",
    "default_memory_budget",
    "rewritten_examples",
    "set_default_memory_budget",
]


#: Default cap on the number of example keys each map of a report shows (``to_dict()``).
DEFAULT_MAX_EXAMPLES = 10_000

#: Default memory budget of a report's maps, in bytes: past it they spill sorted runs to disk
#: (the counts stay exact).
DEFAULT_MEMORY_BUDGET = 32 * 2**20

#: Estimated bytes a map entry holds (dict slot, key and value objects): turns a budget in
#: bytes into a number of keys held in memory.
ENTRY_BYTES = 200

#: The fewest keys a map holds in memory before it spills, whatever the budget.
MIN_KEYS = 4

#: Runs a map keeps before it merges them into one (the fan-in of the final merge).
_FAN_IN = 64

K = TypeVar("K", str, tuple[str, str], tuple[str, int], tuple[str, str, str, str])
V = TypeVar("V")
_R = TypeVar("_R", bound="_ReportBase")


def default_memory_budget() -> int:
    """The budget a report gets when none is given: :envvar:`URNLD_MEMORY_BUDGET` (bytes, as
    ``urnld … --memory-budget`` sets it for the processes it starts), else
    :data:`DEFAULT_MEMORY_BUDGET`.

    >>> default_memory_budget() == DEFAULT_MEMORY_BUDGET or "URNLD_MEMORY_BUDGET" in os.environ
    True
    """
    text = os.environ.get(BUDGET_ENV)
    if text:
        # A bad value set by hand: the default, rather than a crash deep in a worker.
        with contextlib.suppress(ValueError):
            return max(0, int(text))
    return DEFAULT_MEMORY_BUDGET


def set_default_memory_budget(budget: int | None) -> None:
    """Make *budget* (bytes; None: :data:`DEFAULT_MEMORY_BUDGET`) the default of the reports
    made later, in this process and in the processes it starts.

    >>> set_default_memory_budget(1 << 20); default_memory_budget()
    1048576
    >>> set_default_memory_budget(None); default_memory_budget() == DEFAULT_MEMORY_BUDGET
    True
    """
    if budget is None:
        os.environ.pop(BUDGET_ENV, None)
    else:
        os.environ[BUDGET_ENV] = str(max(0, budget))


def _keys_for(budget: int, maps: int) -> int:
    """Keys one of *maps* maps holds in memory under *budget* bytes."""
    return max(MIN_KEYS, budget // (ENTRY_BYTES * max(maps, 1)))


def _sorted_items(data: dict[Any, Any]) -> list[tuple[Any, Any]]:
    """*data*'s items in key order (keys are distinct: no key function is needed). Counting
    maps write column records (:func:`._spill.encode_counts`) and sort there; this is the
    order of the other maps and of the keys column records cannot hold."""
    return sorted(data.items())


class _Capped(Generic[K, V]):
    """An exact map in bounded memory that shows its ``cap`` smallest keys as examples.

    Every key offered is kept with its exact value: in :attr:`data` while it holds at most
    ``max_keys`` keys, then in sorted runs on disk (:mod:`._spill`). :meth:`items` gives the
    ``cap`` smallest keys (code-point order), :meth:`distinct` the number of keys,
    :meth:`iter_all` every item in key order. ``limit`` is always None (every key is taken):
    compiled flushes that add to :attr:`data` directly read it.

    >>> m = _Capped(2, _add, max_keys=4)
    >>> for k in "edcbaedcba": m.add(k, 1)
    >>> m.items(), m.distinct(), m.truncated, len(m.runs) > 0
    ([('a', 2), ('b', 2)], 5, True, True)
    """

    __slots__ = ("_summary", "cache", "cap", "combine", "data", "limit", "max_keys", "runs")

    def __init__(
        self, cap: int, combine: Callable[[V, V], V], *, max_keys: int | None = None
    ) -> None:
        self.cap = cap
        self.combine = combine
        self.data: dict[K, V] = {}
        self.limit: K | None = None
        self.max_keys = (
            max_keys if max_keys is not None else _keys_for(default_memory_budget(), 8)
        )
        self.runs: list[Run] = []
        self._summary: tuple[int, list[tuple[K, V]]] | None = None
        # What readers derived from the contents (cluster figures): dropped on any change.
        self.cache: dict[str, Any] = {}

    def __getstate__(self) -> dict[str, Any]:
        return {
            name: getattr(self, name) for name in self.__slots__
            if name not in ("_summary", "cache")
        }

    def __setstate__(self, state: dict[str, Any]) -> None:
        for name, value in state.items():
            setattr(self, name, value)
        self._summary = None
        self.cache = {}

    def add(self, key: K, value: V) -> None:
        data = self.data
        old = data.get(key)
        data[key] = value if old is None else self.combine(old, value)
        self.settle()

    def add_many(self, items: Iterable[tuple[K, V]]) -> None:
        """:meth:`add` for each ``(key, value)`` pair, in order."""
        data = self.data
        combine = self.combine
        high = self.max_keys
        for key, value in items:
            old = data.get(key)
            data[key] = value if old is None else combine(old, value)
            if len(data) > high:
                self._spill()
                data = self.data
        self.settle()

    def add_counts(self, counts: dict[K, int]) -> None:
        """Bulk :meth:`add` for integer values (the hot path of report filling)."""
        data: dict[K, Any] = self.data
        if not data:  # an empty map takes the batch in one C call
            data.update(counts)
        else:
            get = data.get
            for k, v in counts.items():
                old = get(k)
                data[k] = v if old is None else old + v
        self.settle()

    def settle(self) -> None:
        """Spill to a run once past ``max_keys`` keys, after a batch was added to :attr:`data`
        (directly, or by the methods above)."""
        self._summary = None
        self.cache.clear()
        if len(self.data) > self.max_keys:
            self._spill()

    def _spill(self) -> None:
        data = self.data
        self.runs.append(_run_of(data, self.combine))
        self.data = {}
        self._summary = None
        self.cache.clear()
        if len(self.runs) >= _FAN_IN:
            # Merge the runs into one: the final merge reads a bounded number of files.
            runs, self.runs = self.runs, []
            self.runs = [_merged_run(runs, self.combine)]

    def iter_columns(self) -> tuple[int, Iterator[tuple[list[str], list[int]]]] | None:
        """A counting map's every item as sorted column batches ``(keys, counts)`` of a kind
        (STR, or PAIR with each pair joined as ``first NUL second``), exact: the merge of
        :meth:`iter_all` without a tuple per item; None when the map's runs are not columns
        (other values or keys), or it has none.

        >>> m = _Capped(1, _add, max_keys=2)
        >>> m.add_counts({"b": 1, "a": 2, "c": 1}); m.add_counts({"a": 1})
        >>> kind, batches = m.iter_columns()
        >>> [item for keys, counts in batches for item in zip(keys, counts, strict=True)]
        [('a', 3), ('b', 1), ('c', 1)]
        """
        runs = self.runs
        if not runs or self.combine is not _add:
            return None
        kind = runs[0].kind
        if kind == MARSHAL or any(run.kind != kind for run in runs):
            return None
        sources: list[Iterable[tuple[list[str], list[int]]]] = [run.columns() for run in runs]
        if self.data:
            records = encode_counts(self.data)
            if records is None or records[0][0] != kind:
                return None
            sources.append(record_columns(records))  # in memory: no file for the dict
        return kind, merge_counts(sources)

    def iter_all(self) -> Iterator[tuple[K, V]]:
        """Every ``(key, value)``, exact, in key order (a merge over the runs).

        >>> m = _Capped(1, _add, max_keys=4)
        >>> m.add_counts({"b": 1, "a": 2}); list(m.iter_all())
        [('a', 2), ('b', 1)]
        """
        columns = self.iter_columns()
        if columns is not None:
            return _column_iter(*columns)
        sources: list[Iterable[tuple[K, V]]] = list(self.runs)
        if self.data:
            sources.append(_sorted_items(self.data))
        return merge_sorted(sources, self.combine)

    def _summarize(self) -> tuple[int, list[tuple[K, V]]]:
        if self._summary is None:
            if not self.runs:
                keys = sorted(self.data)
                examples = [(k, self.data[k]) for k in keys[: self.cap]]
                self._summary = (len(keys), examples)
            else:
                n = 0
                shown: list[Any] = []
                cap = self.cap
                columns = self.iter_columns()
                if columns is not None:
                    kind, batches = columns
                    for texts, counts in batches:
                        if n < cap:
                            shown.extend(column_items(kind, texts[:cap - n], counts[:cap - n]))
                        n += len(texts)
                else:
                    for item in self.iter_all():
                        if n < cap:
                            shown.append(item)
                        n += 1
                self._summary = (n, shown)
        return self._summary

    def distinct(self) -> int:
        """The exact number of distinct keys."""
        return self._summarize()[0]

    def normalized(self) -> _Capped[K, V]:
        return self

    @property
    def truncated(self) -> bool:
        """True when :meth:`items` shows fewer keys than the map holds."""
        if self._summary is None and sum(map(len, self.runs)) + len(self.data) <= self.cap:
            return False  # no more keys than the cap even counted once per run: no merge
        return self.distinct() > self.cap

    def all_keys(self) -> Iterator[K]:
        """Every key, in no particular order, without the merge of :meth:`iter_all`: a key
        held in several runs comes once per run.

        >>> m = _Capped(5, _add, max_keys=2)
        >>> m.add_counts({"b": 1, "a": 1, "c": 1}); m.add_counts({"a": 1})
        >>> sorted(m.all_keys())
        ['a', 'a', 'b', 'c']
        """
        for run in self.runs:
            for record in run.records():
                for key, _value in record:
                    yield key
        yield from self.data

    def merged(self, other: _Capped[K, V]) -> _Capped[K, V]:
        out: _Capped[K, V] = _Capped(
            min(self.cap, other.cap), self.combine,
            max_keys=min(self.max_keys, other.max_keys),
        )
        data = dict(self.data)
        combine = self.combine
        for k, v in other.data.items():
            old = data.get(k)
            data[k] = v if old is None else combine(old, v)
        out.data = data
        # Runs are immutable: both operands and the result share them.
        out.runs = [*self.runs, *other.runs]
        if len(out.runs) >= _FAN_IN:
            runs, out.runs = out.runs, []
            out.runs = [_merged_run(runs, combine)]
        out.settle()
        return out

    def items(self) -> list[tuple[K, V]]:
        """The ``cap`` smallest keys with their exact values, in key order."""
        return list(self._summarize()[1])

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, _Capped):
            return NotImplemented
        return list(self.iter_all()) == list(other.iter_all())

    __hash__ = None  # type: ignore[assignment]  # mutable


def _add(a: int, b: int) -> int:
    return a + b


def _run_of(data: dict[Any, Any], combine: Callable[[Any, Any], Any]) -> Run:
    """A run of *data*'s items: column records for a counting map that fits them, else
    marshalled ones."""
    if combine is _add:
        records = encode_counts(data)
        if records is not None:
            return Run.of_records(records)
    return Run(_sorted_items(data))


def _merged_run(runs: list[Run], combine: Callable[[Any, Any], Any]) -> Run:
    """One run of the merge of *runs*."""
    kind = runs[0].kind
    if combine is _add and kind != MARSHAL and all(run.kind == kind for run in runs):
        return Run.of_columns(kind, merge_counts([run.columns() for run in runs]))
    return Run(merge_sorted(list(runs), combine))


def _column_iter(
    kind: int, batches: Iterator[tuple[list[str], list[int]]]
) -> Iterator[tuple[Any, Any]]:
    for keys, values in batches:
        yield from column_items(kind, keys, values)


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


def _iter_groups(
    items: Iterable[tuple[tuple[str, str], int]], *, several: bool
) -> Iterator[tuple[str, dict[str, int]]]:
    """Group sorted ``((canonical, spelling), count)`` items into ``(canonical, {spelling:
    count})``, one group in memory at a time; with *several*, only groups of two or more, else
    those a canonicalization merges (two or more, or only other spellings)."""
    current: str | None = None
    group: dict[str, int] = {}

    def keep() -> bool:
        return len(group) > 1 or (not several and current not in group)

    for (c, s), n in items:
        if c != current:
            if current is not None and keep():
                yield current, group
            current, group = c, {}
        group[s] = n
    if current is not None and keep():
        yield current, group


class _ReportBase:
    """Shared parts: statement count, malformed lines, NID counts, cap handling, merging."""

    # What merge() adds up and what it merges, per report class.
    _COUNTS: tuple[str, ...] = ("statements_in", "error_count")
    _MAPS: tuple[str, ...] = ("_nids", "_errors")

    max_examples: int
    memory_budget: int
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

    def _init_base(self, max_examples: int, memory_budget: int | None) -> None:
        if memory_budget is None:
            memory_budget = default_memory_budget()
        if max_examples < 1:
            raise ValueError(f"max_examples must be >= 1, got {max_examples!r}")
        if memory_budget < 0:
            raise ValueError(f"memory_budget must be >= 0, got {memory_budget!r}")
        self.max_examples = max_examples
        self.memory_budget = memory_budget
        self.statements_in = 0
        self.error_count = 0
        self._errors = self._new_map(_first)
        self._nids = self._new_map(_add)

    def _new_map(self, combine: Callable[[Any, Any], Any]) -> _Capped[Any, Any]:
        """A map of this report: ``max_examples`` examples shown, its share of the memory
        budget held in memory (a new kind of finding adds one with this, and names it in
        ``_MAPS``)."""
        return _Capped(
            self.max_examples, combine, max_keys=_keys_for(self.memory_budget, len(self._MAPS))
        )

    def record_error(self, source: str, line: int, message: str) -> None:
        """Record a malformed line (``source`` is a file name or ``"<stdin>"``)."""
        self.error_count += 1
        self._errors.add((source, line), message)

    @property
    def errors(self) -> list[LineError]:
        """The kept malformed lines, sorted by source then line (at most ``max_examples``)."""
        return [LineError(s, n, m) for (s, n), m in self._errors.items()]

    def iter_errors(self) -> Iterator[tuple[str, int, str]]:
        """Every malformed line ``(source, line, message)``, sorted, however many."""
        for (source, line), message in self._errors.iter_all():
            yield source, line, message

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
