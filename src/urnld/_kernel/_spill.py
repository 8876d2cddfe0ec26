"""Sorted runs on disk: how a report's maps stay exact at any size in bounded memory.

A report map keeps its keys in a dict up to a number of keys (its share of the report's memory
budget); past that it writes the dict, sorted, to a *run* (an anonymous temporary file) and
starts afresh. Reading the map is a k-way merge over the runs and the dict, adding up the values
of equal keys, in key order: every key with its exact value, whatever the size.

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
from collections.abc import Callable, Iterable, Iterator
from typing import IO, Any

from ._files import owner_tag, sweep_once

__all__ = [
    "Run",
    "handoff_runs",
    "merge_sorted",
    "set_spill_directory",
    "spill_directory",
    "spill_settings",
]


#: Items per marshalled record of a run: big enough to make writing cheap, small enough that a
#: merge over many runs holds little (one record per run is in memory).
_RECORD = 512
_HEADER = struct.Struct("<Q")

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


class Run:
    """Sorted ``(key, value)`` items in an anonymous file, read any number of times."""

    __slots__ = ("__weakref__", "_file", "_length", "_size")

    def __init__(self, items: Iterable[tuple[Any, Any]]) -> None:
        self._file = _new_file()
        self._length = 0
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
        write(_HEADER.pack(len(data)))
        write(data)
        self._length += len(batch)

    def __len__(self) -> int:
        return self._length

    def __iter__(self) -> Iterator[tuple[Any, Any]]:
        for record in self.records():
            yield from record

    def records(self) -> Iterator[list[tuple[Any, Any]]]:
        """The run's items a record (a sorted list) at a time."""
        fd = self._file.fileno()
        offset = 0
        while offset < self._size:
            (n,) = _HEADER.unpack(os.pread(fd, _HEADER.size, offset))
            offset += _HEADER.size
            record: list[tuple[Any, Any]] = marshal.loads(os.pread(fd, n, offset))
            yield record
            offset += n

    def __getstate__(self) -> tuple[int, int, bytes | str]:
        fd = self._file.fileno()
        if _state["handoff"]:
            # Named after its owner, so that if this process is killed before the receiver
            # removes it, the next urnld run that writes there removes it (sweep_temporary).
            directory = spill_directory()
            sweep_once(directory)
            name = os.path.join(directory, f".urnld-{owner_tag()}-{os.urandom(6).hex()}.tmp")
            if _link_fd(fd, name):
                return self._length, self._size, name
            # no /proc or linkat, or a file made without O_TMPFILE: the bytes
        return self._length, self._size, os.pread(fd, self._size, 0)

    def __setstate__(self, state: tuple[int, int, bytes | str]) -> None:
        self._length, self._size, data = state
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
