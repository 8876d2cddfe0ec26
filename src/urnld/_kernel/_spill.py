"""Sorted runs on disk: how a report's maps stay exact at any size in bounded memory.

A report map keeps its keys in a dict up to a number of keys (its share of the report's memory
budget); past that it writes the dict, sorted, to a *run* (an anonymous temporary file) and
starts afresh. Reading the map is a k-way merge over the runs and the dict, adding up the values
of equal keys, in key order: every key with its exact value, whatever the size.

A counting map (str or ``(str, str)`` keys, int values: most of a report's keys) writes *column
records*: its keys' UTF-8 one a line and its counts as int64, sorted and encoded in one call
(:func:`encode_counts`), merged a batch at a time (:func:`merge_counts`), so spilling and
reading make no tuple per key. Other maps write marshalled ``(key, value)`` records.

Runs are unnamed files (``O_TMPFILE``, else :func:`tempfile.TemporaryFile`, unlinked as soon
as it is made), so nothing is left behind on success, failure or a signal: the system frees
them with the last open handle. They are made in :func:`spill_directory` (the output's
directory when a command sets it, else the temp dir). A run is immutable, so merged reports
share their runs; a pickled run carries its bytes (a report sent to another process, a Dask
worker's result) and is written to a new run on arrival, or, within :func:`handoff_runs`, a
name the receiver opens and removes at once (a worker's report to its parent).

>>> run = Run([("a", 1), ("b", 2)])
>>> list(run), len(run)
([('a', 1), ('b', 2)], 2)
>>> import pickle
>>> list(pickle.loads(pickle.dumps(run)))
[('a', 1), ('b', 2)]
"""

from __future__ import annotations

import bisect
import contextlib
import itertools
import marshal
import operator
import os
import struct
import sys
from array import array
from collections.abc import Callable, Iterable, Iterator
from typing import IO, Any

from .._core import accel as _accel
from ._files import owner_tag, sweep_once

__all__ = [
    "Run",
    "encode_counts",
    "handoff_runs",
    "merge_columns",
    "merge_counts",
    "merge_sorted",
    "record_columns",
    "set_spill_directory",
    "spill_directory",
    "spill_settings",
]


#: Items per marshalled record of a run: big enough to make writing cheap, small enough that a
#: merge over many runs holds little (one record per run is in memory).
_RECORD = 512

#: Items per column record (see :func:`encode_counts`): a column record costs a few objects
#: per item where a marshalled one costs a tuple and its parts, so it holds more.
COLUMN_RECORD = 1024

#: Record kinds. MARSHAL: a marshalled list of ``(key, value)`` items (any value). STR and
#: PAIR: the columns of a map counting str keys, or ``(str, str)`` keys: the keys' UTF-8 text
#: (a pair as ``first NUL second``), one a line, then the counts as little-endian int64.
#: Counting maps hold most keys, and their records cost a fraction of marshal's to write and
#: read: no tuple per item, and the merge sorts plain strings.
MARSHAL, STR, PAIR = 0, 1, 2

#: A record's header: its kind, its number of items, the bytes of its text (or marshal data).
_HEADER = struct.Struct("<BIQ")

_INT64 = "q"
_BIG_ENDIAN = sys.byteorder == "big"

#: Environment variables that set, for this process and the ones it starts (worker processes,
#: a local Dask cluster), where runs are made and the reports' default memory budget.
SPILL_DIR_ENV = "URNLD_SPILL_DIR"
BUDGET_ENV = "URNLD_MEMORY_BUDGET"


def set_spill_directory(path: str | None) -> None:
    """Make later runs in *path* (None: the temp dir), here and in processes started later.

    >>> import tempfile
    >>> set_spill_directory(None); spill_directory() == tempfile.gettempdir()
    True
    """
    if path is None:
        os.environ.pop(SPILL_DIR_ENV, None)
    else:
        os.environ[SPILL_DIR_ENV] = os.path.abspath(path)


@contextlib.contextmanager
def spill_settings(budget: int | None = None, directory: str | None = None) -> Iterator[None]:
    """Within the block, reports made without a budget get *budget* bytes (when given) and
    runs go to *directory* (when given), here and in the processes started meanwhile; the
    settings before it are restored after it.

    >>> with spill_settings(directory="/nonexistent-x"):
    ...     spill_directory()
    '/nonexistent-x'
    """
    saved = {name: os.environ.get(name) for name in (BUDGET_ENV, SPILL_DIR_ENV)}
    try:
        if budget is not None:
            os.environ[BUDGET_ENV] = str(max(0, budget))
        if directory is not None:
            set_spill_directory(directory)
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def spill_directory() -> str:
    """Where runs are made: the directory set by :func:`set_spill_directory`, else the temp
    dir."""
    import tempfile  # here, not at import: it loads shutil, random, bz2, lzma (a command's start)

    return os.environ.get(SPILL_DIR_ENV) or tempfile.gettempdir()


# whether a run pickles by name (handoff_runs), module state rather than a global statement
_state = {"handoff": False}


@contextlib.contextmanager
def handoff_runs() -> Iterator[None]:
    """Within the block, a pickled run carries a name instead of its bytes: for a report sent
    to another process of this machine that unpickles it once (a worker's report to its
    parent), so a spilled report crosses without being read into memory. The name is a link
    in :func:`spill_directory` that the receiver removes as it opens it."""
    saved = _state["handoff"]
    _state["handoff"] = True
    try:
        yield
    finally:
        _state["handoff"] = saved


_AT_FDCWD = -100
_AT_SYMLINK_FOLLOW = 0x400


def _link_fd(fd: int, name: str) -> bool:
    """Give the unnamed file *fd* the name *name* (linkat through /proc, as open(2) says for
    O_TMPFILE: os.link would call link(), which does not follow /proc's links)."""
    if not sys.platform.startswith("linux"):
        return False
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        done = libc.linkat(_AT_FDCWD, f"/proc/self/fd/{fd}".encode(), _AT_FDCWD,
                           os.fsencode(name), _AT_SYMLINK_FOLLOW)
    except (OSError, AttributeError):
        return False
    return bool(done == 0)


def _new_file() -> IO[bytes]:
    import tempfile

    for directory in (spill_directory(), tempfile.gettempdir()):
        # An unnamed file (O_TMPFILE) that can be given a name for a handoff: not O_EXCL.
        flag = getattr(os, "O_TMPFILE", 0)
        if flag:
            try:
                fd = os.open(directory, flag | os.O_RDWR, 0o600)
            except OSError:
                pass
            else:
                return os.fdopen(fd, "w+b")
        try:
            return tempfile.TemporaryFile(dir=directory)
        except OSError:
            continue  # the output's directory may refuse (read-only, full): the temp dir
    return tempfile.TemporaryFile()


def encode_counts(data: dict[Any, Any], per_record: int = COLUMN_RECORD) -> list[bytes] | None:
    """*data*'s items in key order as column records of *per_record* items (kind STR or PAIR),
    when its keys are all str (none holding a line feed) or all pairs of str (none holding a
    NUL or a line feed), and its values all ints of 64 bits, with no lone surrogate anywhere;
    else None (the caller writes marshalled records). Empty: None.

    The accelerator's ``encode_counts`` makes the same bytes (a differential test holds it).

    >>> records = encode_counts({("b", "B"): 1, ("a", "x"): 2}, 1)
    >>> len(records), list(Run.of_records(records))
    (2, [(('a', 'x'), 2), (('b', 'B'), 1)])
    >>> encode_counts({"a": (1, "text")}) is None
    True
    """
    c = _accel.speedups
    if c is not None:
        done: list[bytes] | None = c.encode_counts(data, per_record)
        return done
    return _encode_counts(data, per_record)


def _encode_counts(data: dict[Any, Any], per_record: int) -> list[bytes] | None:
    """The reference of :func:`encode_counts`."""
    if not data or per_record < 1 or len(data) > 0xFFFFFFFF:
        return None
    keys = list(data)
    values = list(data.values())
    if type(values[0]) is not int or {type(v) for v in values} != {int}:
        return None
    try:
        array(_INT64, values)
    except OverflowError:
        return None
    n = len(keys)
    kind = STR if type(keys[0]) is str else PAIR
    if kind == STR:
        if {type(k) for k in keys} != {str}:
            return None
        joined = keys
    else:
        if {type(k) for k in keys} != {tuple} or {len(k) for k in keys} != {2}:
            return None
        if {type(k[0]) for k in keys} | {type(k[1]) for k in keys} != {str}:
            return None
        joined = list(map("\0".join, keys))
    order = sorted(range(n), key=joined.__getitem__)
    ordered = list(map(joined.__getitem__, order))
    counts = array(_INT64, map(values.__getitem__, order))
    if _BIG_ENDIAN:
        counts.byteswap()
    text = "\n".join(ordered)
    if text.count("\n") != n - 1 or (kind == PAIR and text.count("\0") != n):
        return None  # a separator inside a key: the split would not give the keys back
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return None  # a lone surrogate (an escape in the input): marshal keeps it
    out = []
    for start in range(0, n, per_record):
        chunk = "\n".join(ordered[start:start + per_record]).encode("utf-8")
        items = min(per_record, n - start)
        out.append(_HEADER.pack(kind, items, len(chunk)) + chunk
                   + counts[start:start + items].tobytes())
    return out


def _decode_columns(kind: int, n: int, text: bytes, counts: bytes) -> tuple[list[str], list[int]]:
    """A column record's keys (a pair still joined by NUL) and counts."""
    keys = text.decode("utf-8").split("\n")
    values = array(_INT64)
    values.frombytes(counts)
    if _BIG_ENDIAN:
        values.byteswap()
    return keys, values.tolist()


def record_columns(records: list[bytes]) -> Iterator[tuple[list[str], list[int]]]:
    """The decoded columns of records made by :func:`encode_counts`, held in memory.

    >>> list(record_columns(encode_counts({"b": 1, "a": 2})))
    [(['a', 'b'], [2, 1])]
    """
    size = _HEADER.size
    for record in records:
        kind, n, length = _HEADER.unpack_from(record)
        yield _decode_columns(kind, n, record[size:size + length], record[size + length:])


def _pairs(keys: list[str]) -> Iterator[tuple[str, ...]]:
    # "first NUL second" back into its pair, in C (no Python call per key)
    return map(tuple, map(str.split, keys, itertools.repeat("\0")))


def column_items(kind: int, keys: list[str], values: list[int]) -> list[tuple[Any, int]]:
    """The ``(key, value)`` items of decoded columns.

    >>> column_items(PAIR, ["a\\x00b"], [3])
    [(('a', 'b'), 3)]
    """
    if kind == PAIR:
        return list(zip(_pairs(keys), values, strict=True))
    return list(zip(keys, values, strict=True))


class Run:
    """Sorted ``(key, value)`` items in an anonymous file, read any number of times."""

    __slots__ = ("__weakref__", "_file", "_length", "_size", "kind")

    def __init__(self, items: Iterable[tuple[Any, Any]] = ()) -> None:
        self._file = _new_file()
        self._length = 0
        #: MARSHAL, or the kind of all its records when they are column records
        self.kind = MARSHAL
        write = self._file.write
        if isinstance(items, list):
            for start in range(0, len(items), _RECORD):
                self._write(write, items[start:start + _RECORD])
        else:
            # records cut in C (islice), not item by item
            it = iter(items)
            while batch := list(itertools.islice(it, _RECORD)):
                self._write(write, batch)
        self._file.flush()
        self._size = self._file.tell()

    def _write(self, write: Callable[[bytes], object], batch: list[tuple[Any, Any]]) -> None:
        # marshal: the items are str/int/tuple only, and it is several times faster than pickle
        data = marshal.dumps(batch)
        write(_HEADER.pack(MARSHAL, len(batch), len(data)))
        write(data)
        self._length += len(batch)

    @classmethod
    def of_records(cls, records: list[bytes]) -> Run:
        """A run of column records made by :func:`encode_counts` (not empty, one kind)."""
        run = cls()
        run.kind = records[0][0]
        write = run._file.write
        for record in records:
            write(record)
            run._length += _HEADER.unpack_from(record)[1]
        run._file.flush()
        run._size = run._file.tell()
        return run

    @classmethod
    def of_columns(cls, kind: int, batches: Iterable[tuple[list[str], list[int]]]) -> Run:
        """A run of the sorted column *batches* (as :func:`merge_counts` gives them) of *kind*."""
        run = cls()
        run.kind = kind
        write = run._file.write
        for keys, values in batches:
            for start in range(0, len(keys), COLUMN_RECORD):
                part = keys[start:start + COLUMN_RECORD]
                text = "\n".join(part).encode("utf-8")
                counts = array(_INT64, values[start:start + COLUMN_RECORD])
                if _BIG_ENDIAN:
                    counts.byteswap()
                write(_HEADER.pack(kind, len(part), len(text)))
                write(text)
                write(counts.tobytes())
                run._length += len(part)
        run._file.flush()
        run._size = run._file.tell()
        return run

    def __len__(self) -> int:
        return self._length

    def __iter__(self) -> Iterator[tuple[Any, Any]]:
        for record in self.records():
            yield from record

    def records(self) -> Iterator[list[tuple[Any, Any]]]:
        """The run's items a record (a sorted list) at a time."""
        for kind, keys, values in self._raw():
            if kind == MARSHAL:
                yield keys
            else:
                yield column_items(kind, keys, values)

    def columns(self) -> Iterator[tuple[list[str], list[int]]]:
        """The run's column records, decoded (:attr:`kind` is STR or PAIR)."""
        for _kind, keys, values in self._raw():
            yield keys, values

    def _raw(self) -> Iterator[tuple[int, Any, Any]]:
        fd = self._file.fileno()
        offset = 0
        size = _HEADER.size
        while offset < self._size:
            kind, n, length = _HEADER.unpack(os.pread(fd, size, offset))
            offset += size
            if kind == MARSHAL:
                yield kind, marshal.loads(os.pread(fd, length, offset)), None
                offset += length
            else:
                body = os.pread(fd, length + 8 * n, offset)
                keys, values = _decode_columns(kind, n, body[:length], body[length:])
                yield kind, keys, values
                offset += length + 8 * n

    def __getstate__(self) -> tuple[int, int, bytes | str, int]:
        fd = self._file.fileno()
        if _state["handoff"]:
            # Named after its owner, so that if this process is killed before the receiver
            # removes it, the next urnld run that writes there removes it (sweep_temporary).
            directory = spill_directory()
            sweep_once(directory)
            name = os.path.join(directory, f".urnld-{owner_tag()}-{os.urandom(6).hex()}.tmp")
            if _link_fd(fd, name):
                return self._length, self._size, name, self.kind
            # no /proc or linkat, or a file made without O_TMPFILE: the bytes
        return self._length, self._size, os.pread(fd, self._size, 0), self.kind

    def __setstate__(self, state: tuple[int, int, bytes | str, int]) -> None:
        self._length, self._size, data, self.kind = state
        if isinstance(data, str):
            self._file = open(data, "rb")  # noqa: SIM115
            os.unlink(data)  # unnamed again: gone when closed, or when this process ends
            return
        self._file = _new_file()
        self._file.write(data)
        self._file.flush()

    def __del__(self) -> None:
        f = getattr(self, "_file", None)
        if f is not None:
            f.close()


def merge_sorted(
    sources: list[Iterable[tuple[Any, Any]]], combine: Callable[[Any, Any], Any]
) -> Iterator[tuple[Any, Any]]:
    """The sorted union of sorted ``(key, value)`` sources, equal keys' values combined.

    Keys are distinct within a source. The merge goes a batch at a time: the items of every
    source up to the smallest last key of their current records are sorted together (in C,
    timsort joining sorted runs) rather than drawn one by one from a heap.

    >>> list(merge_sorted([[("a", 1), ("c", 1)], [("a", 2), ("b", 5)]], lambda x, y: x + y))
    [('a', 3), ('b', 5), ('c', 1)]
    """
    if len(sources) == 1:
        yield from sources[0]
        return
    heads: list[list[Any]] = []  # [current record, the source's records]
    for source in sources:
        records = _records(source)
        first = next(records, None)
        if first:
            heads.append([first, records])
    have = False
    key: Any = None
    value: Any = None
    while heads:
        bound = min(h[0][-1][0] for h in heads)
        batch: list[tuple[Any, Any]] = []
        for h in heads:
            record = h[0]
            if record[-1][0] == bound or record[-1][0] < bound:
                batch.extend(record)
                h[0] = next(h[1], None)
            else:
                cut = bisect.bisect_right(record, bound, key=_first)
                batch.extend(record[:cut])
                h[0] = record[cut:]
        heads = [h for h in heads if h[0]]
        batch.sort(key=_first)  # stable: equal keys of several sources stay together
        for k, v in batch:
            if have and k == key:
                value = combine(value, v)
            else:
                if have:
                    yield key, value
                key, value, have = k, v, True
    if have:
        yield key, value


# An item's key, read in C (no Python call per item in the batch sorts and bisections).
_first: Callable[[tuple[Any, Any]], Any] = operator.itemgetter(0)


def _records(source: Iterable[tuple[Any, Any]]) -> Iterator[list[tuple[Any, Any]]]:
    """*source* as sorted records (lists) of up to :data:`_RECORD` items."""
    if isinstance(source, Run):
        yield from source.records()
    elif isinstance(source, list):
        for start in range(0, len(source), _RECORD):
            yield source[start:start + _RECORD]
    else:
        it = iter(source)
        while batch := list(itertools.islice(it, _RECORD)):
            yield batch


def merge_counts(
    sources: list[Iterable[tuple[list[str], list[int]]]],
) -> Iterator[tuple[list[str], list[int]]]:
    """The sorted union of sorted column sources (str keys, distinct within a source, with
    int counts), equal keys' counts added, as sorted column batches.

    :func:`merge_sorted` for counting maps, in bulk: a batch (every source's keys up to the
    smallest last key of their current records) is merged by :func:`merge_columns`.

    >>> batches = merge_counts([[(["a", "c"], [1, 1])], [(["a", "b"], [2, 5])]])
    >>> [item for keys, counts in batches for item in zip(keys, counts, strict=True)]
    [('a', 3), ('b', 5), ('c', 1)]
    """
    heads: list[list[Any]] = []  # [keys, counts, the source's further records]
    for source in sources:
        it = iter(source)
        for keys, values in it:
            if keys:
                heads.append([keys, values, it])
                break
    while heads:
        bound = min(h[0][-1] for h in heads)
        parts: list[tuple[list[str], list[int]]] = []
        for h in heads:
            keys, values = h[0], h[1]
            if keys[-1] <= bound:
                parts.append((keys, values))
                h[0] = None
                for keys, values in h[2]:
                    if keys:
                        h[0], h[1] = keys, values
                        break
            else:
                cut = bisect.bisect_right(keys, bound)
                if cut:
                    parts.append((keys[:cut], values[:cut]))
                    h[0], h[1] = keys[cut:], values[cut:]
        heads = [h for h in heads if h[0] is not None]
        yield parts[0] if len(parts) == 1 else merge_columns(parts)


def merge_columns(parts: list[tuple[list[str], list[int]]]) -> tuple[list[str], list[int]]:
    """The sorted union of sorted columns (keys distinct within each), equal keys' counts
    added: one batch of :func:`merge_counts`. The accelerator's ``merge_columns`` gives the
    same lists (a differential test holds it).

    >>> merge_columns([(["a", "c"], [1, 1]), (["a", "b"], [2, 5])])
    (['a', 'b', 'c'], [3, 5, 1])
    """
    c = _accel.speedups
    if c is not None:
        done: tuple[list[str], list[int]] | None = c.merge_columns(parts)
        if done is not None:
            return done
    return _merge_columns(parts)


def _merge_columns(parts: list[tuple[list[str], list[int]]]) -> tuple[list[str], list[int]]:
    """The reference of :func:`merge_columns`: the counts added up in a dict, where only the
    keys met in several parts take a Python step, then sorted as plain strings (timsort
    joins the sorted pieces)."""
    if not parts:
        return [], []
    total = dict(zip(*parts[0], strict=True))
    for keys, values in parts[1:]:
        part = dict(zip(keys, values, strict=True))
        for key in part.keys() & total.keys():
            part[key] += total[key]
        total.update(part)
    ordered = sorted(total)
    return ordered, list(map(total.__getitem__, ordered))
