"""The figures of a map of ``(canonical, spelling)`` pairs: clusters of spellings, what a run
merged, the smallest rewritten spellings. One pass in key order over every pair (a merge over
the map's runs), in bulk over column records.
"""

from __future__ import annotations

import collections
import dataclasses
import itertools
import operator
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from .._core import accel as _accel
from ._spill import PAIR

if TYPE_CHECKING:
    from ._report import _Capped

__all__ = ["ClusterStats", "cluster_batch", "cluster_stats", "new_state", "rewritten_examples"]


@dataclasses.dataclass(frozen=True, slots=True)
class ClusterStats:
    """Exact figures of a map of ``(canonical, spelling)`` pairs (a merge over its runs).

    ``canonical``: distinct canonical forms; ``spellings``: distinct spellings;
    ``several``: canonical forms met in two spellings or more (URNs spelled several ways),
    ``several_spellings`` their spellings; ``sizes``: spellings per canonical form → how many
    canonical forms have that many (only those with two or more); ``rewritten_spellings`` /
    ``rewritten_canonical``: spellings that differ from their canonical form and the canonical
    forms they go to (what canonicalization merges).

    >>> from urnld._kernel._report import _add, _Capped
    >>> m = _Capped(10, _add)
    >>> m.add_counts({("urn:a:b", "URN:A:b"): 1, ("urn:a:b", "urn:a:b"): 2,
    ...               ("urn:a:c", "urn:a:c"): 1})
    >>> s = cluster_stats(m); (s.canonical, s.spellings, s.several, s.sizes, s.rewritten_spellings)
    (2, 3, 1, {2: 1}, 1)
    """

    canonical: int = 0
    spellings: int = 0
    several: int = 0
    several_spellings: int = 0
    sizes: dict[int, int] = dataclasses.field(default_factory=dict)
    rewritten_spellings: int = 0
    merged_canonical: int = 0
    merged_spellings: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "canonical": self.canonical, "spellings": self.spellings, "several": self.several,
            "several_spellings": self.several_spellings,
            "sizes": {str(k): v for k, v in sorted(self.sizes.items())},
            "rewritten_spellings": self.rewritten_spellings,
            "merged_canonical": self.merged_canonical,
            "merged_spellings": self.merged_spellings,
        }


def cluster_stats(pairs: _Capped[tuple[str, str], Any]) -> ClusterStats:
    """The :class:`ClusterStats` of a map keyed by ``(canonical, spelling)`` (one pass in key
    order, so each canonical form's spellings come together; cached until the map changes)."""
    return _cluster_pass(pairs)[0]


def rewritten_examples(pairs: _Capped[tuple[str, str], int]) -> list[tuple[str, tuple[int, str]]]:
    """The ``cap`` smallest spellings of *pairs* that differ from their canonical form, as
    ``(spelling, (count, canonical))`` in spelling order (from the same cached pass)."""
    return _cluster_pass(pairs)[1]


def _cluster_pass(
    pairs: _Capped[tuple[str, str], Any],
) -> tuple[ClusterStats, list[tuple[str, tuple[int, str]]]]:
    hit = pairs.cache.get("clusters")
    if hit is not None:
        return hit  # type: ignore[no-any-return]
    columns = pairs.iter_columns()
    if columns is not None and columns[0] == PAIR:
        out = _ClusterColumns(pairs.cap).run(columns[1])
        first = out[2]
    else:
        out = _cluster_loop(pairs.iter_all(), pairs.cap)
        first = out[2]
    result = (out[0], out[1])
    pairs.cache["clusters"] = result
    if pairs._summary is None:
        pairs._summary = (out[0].spellings, first)
    return result


_Pass = tuple[ClusterStats, list[tuple[str, tuple[int, str]]], list[tuple[tuple[str, str], Any]]]


def _cluster_loop(items: Iterable[tuple[tuple[str, str], Any]], cap: int) -> _Pass:
    """The cluster pass item by item (maps whose runs are not column records): the figures,
    the ``cap`` smallest rewritten spellings and the ``cap`` first items."""
    # One pass, in (canonical, spelling) order; the figures go into a cluster_batch() state.
    state = new_state()
    spellings = size = rewritten = 0
    current: str | None = None
    # the cap smallest rewritten spellings: collected, cut back in batches, and once full
    # only a spelling below the largest kept one is taken
    kept: list[tuple[str, tuple[int, str]]] = []
    high = 2 * cap
    worst: str | None = None
    first: list[tuple[tuple[str, str], Any]] = []  # the map's examples, from the same pass
    for (c, s), v in items:
        if spellings < cap:
            first.append(((c, s), v))
        spellings += 1
        if c != current:
            _close(state, size, rewritten)
            current = c
            state[CANONICAL] += 1
            size = rewritten = 0
        size += 1
        if s != c:
            rewritten += 1
            state[REWRITTEN_SPELLINGS] += 1
            if worst is None or s <= worst:  # equal: the same spelling, another canonical
                kept.append((s, (v, c)))
                if len(kept) > high:
                    kept.sort()
                    del kept[cap:]
                    worst = kept[-1][0]
    _close(state, size, rewritten)
    kept.sort()
    del kept[cap:]
    return _stats(state, spellings), kept, first


def _stats(state: list[Any], spellings: int) -> ClusterStats:
    """The figures of a finished pass from its state (see :func:`new_state`)."""
    return ClusterStats(
        state[CANONICAL], spellings, state[SEVERAL], state[SEVERAL_SPELLINGS],
        dict(sorted(state[SIZES].items())), state[REWRITTEN_SPELLINGS],
        state[MERGED_CANONICAL], state[MERGED_SPELLINGS],
    )


#: The state :func:`cluster_batch` carries from batch to batch, by index: the open group
#: (canonical form or None, its spellings, its rewritten ones), then the figures so far.
(CURRENT, SIZE, REWRITTEN, CANONICAL, SEVERAL, SEVERAL_SPELLINGS, SIZES, REWRITTEN_SPELLINGS,
 MERGED_CANONICAL, MERGED_SPELLINGS) = range(10)


def new_state() -> list[Any]:
    """A :func:`cluster_batch` state before the first batch."""
    return [None, 0, 0, 0, 0, 0, {}, 0, 0, 0]


def cluster_batch(
    keys: list[str], values: list[Any], state: list[Any], worst: str | None
) -> list[tuple[str, tuple[Any, str]]]:
    """Go on with the cluster pass over one batch of sorted ``canonical NUL spelling`` keys
    and their values: *state* (see :func:`new_state`) takes the batch's figures, and the
    rewritten spellings not above *worst* (all when None) come back as ``(spelling, (value,
    canonical))``, the candidates of the smallest ones. The accelerator's ``cluster_batch``
    does the same (a differential test holds it).

    >>> state = new_state()
    >>> keys = [c + chr(0) + s for c, s in [("urn:a:b", "URN:A:b"), ("urn:a:b", "urn:a:b"),
    ...                                      ("urn:a:c", "urn:a:c")]]
    >>> cluster_batch(keys, [1, 2, 1], state, None)
    [('URN:A:b', (1, 'urn:a:b'))]
    >>> state[CURRENT], state[CANONICAL], state[SEVERAL], state[REWRITTEN_SPELLINGS]
    ('urn:a:c', 2, 1, 1)
    """
    c = _accel.speedups
    if c is not None:
        done: list[tuple[str, tuple[Any, str]]] | None = c.cluster_batch(
            keys, values, state, worst
        )
        if done is not None:
            return done
    return _cluster_batch(keys, values, state, worst)


def _close(state: list[Any], size: int, rewritten: int, groups: int = 1) -> None:
    """Count *groups* finished groups of *size* spellings, *rewritten* not canonical (each)."""
    if size > 1:
        state[SEVERAL] += groups
        state[SEVERAL_SPELLINGS] += size * groups
        sizes = state[SIZES]
        sizes[size] = sizes.get(size, 0) + groups
    if size > 1 or rewritten:
        state[MERGED_CANONICAL] += groups
        state[MERGED_SPELLINGS] += size * groups


def _cluster_batch(
    keys: list[str], values: list[Any], state: list[Any], worst: str | None
) -> list[tuple[str, tuple[Any, str]]]:
    """The reference of :func:`cluster_batch`: C-level maps over the batch, no Python step per
    item."""
    if not keys:
        return []
    parts = list(map(str.partition, keys, itertools.repeat("\0")))
    cs = list(map(_FIRST, parts))
    ss = list(map(_THIRD, parts))
    n = len(cs)
    rewritten = list(map(operator.ne, cs, ss))
    state[REWRITTEN_SPELLINGS] += rewritten.count(True)
    # where a group starts: the first key unless it goes on with the open group
    news = [cs[0] != state[CURRENT]]
    news.extend(map(operator.ne, cs[1:], cs[:-1]))
    starts = list(itertools.compress(range(n), news))
    upto = list(itertools.accumulate(rewritten, initial=0))  # rewritten before each index
    head = starts[0] if starts else n
    state[SIZE] += head
    state[REWRITTEN] += upto[head]
    if starts:
        _close(state, state[SIZE], state[REWRITTEN])
        state[CANONICAL] += len(starts)
        # whole groups of this batch: every start but the last, which stays open
        lengths = list(map(operator.sub, starts[1:], starts))
        for length, k in collections.Counter(lengths).items():
            if length > 1:
                _close(state, length, 0, k)
        # groups of one spelling that is not canonical: merged too
        alone = list(itertools.compress(starts, map((1).__eq__, lengths)))
        lone = sum(map(rewritten.__getitem__, alone))
        state[MERGED_CANONICAL] += lone
        state[MERGED_SPELLINGS] += lone
        last = starts[-1]
        state[CURRENT] = cs[last]
        state[SIZE] = n - last
        state[REWRITTEN] = upto[n] - upto[last]
    if worst is None:
        chosen = rewritten
    else:
        below = map(operator.le, ss, itertools.repeat(worst))
        chosen = list(map(operator.and_, rewritten, below))
    # the chosen ones picked from each column first: a tuple only for those
    pick = itertools.compress
    return list(zip(pick(ss, chosen),
                    zip(pick(values, chosen), pick(cs, chosen), strict=True), strict=True))


class _ClusterColumns:
    """The cluster pass over column batches of ``canonical NUL spelling`` keys, a batch at a
    time (:func:`cluster_batch`): the same figures, examples and rewritten spellings as
    :func:`_cluster_loop`. A group of spellings that goes on into the next batch is carried as
    its canonical form, size and rewritten count."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.spellings = 0
        self.state = new_state()
        self.kept: list[tuple[str, tuple[int, str]]] = []
        self.worst: str | None = None
        self.first: list[tuple[tuple[str, str], Any]] = []

    def run(self, batches: Iterable[tuple[list[str], list[int]]]) -> _Pass:
        cap = self.cap
        state = self.state
        kept = self.kept
        for keys, values in batches:
            if self.spellings < cap:
                take = cap - self.spellings
                parts = map(str.partition, keys[:take], itertools.repeat("\0"))
                pairs = ((c, s) for c, _, s in parts)
                self.first.extend(zip(pairs, values[:take], strict=True))
            self.spellings += len(keys)
            # the cap smallest rewritten spellings: once full, only those up to the largest
            kept.extend(cluster_batch(keys, values, state, self.worst))
            if len(kept) > 2 * cap:
                kept.sort()
                del kept[cap:]
                self.worst = kept[-1][0]
        _close(state, state[SIZE], state[REWRITTEN])
        kept.sort()
        del kept[cap:]
        return _stats(state, self.spellings), kept, self.first


_FIRST = operator.itemgetter(0)
_THIRD = operator.itemgetter(2)
