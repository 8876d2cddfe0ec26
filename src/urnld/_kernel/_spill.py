"""Sorted runs on disk: how a report's maps stay exact at any size in bounded memory.

A report map keeps its keys in a dict up to a number of keys (its share of the report's memory
budget); past that it writes the dict, sorted, to a *run* (an anonymous temporary file) and
starts afresh. Reading the map is a k-way merge over the runs and the dict, adding up the values
of equal keys, in key order: every key with its exact value, whatever the size.

Runs are anonymous files (:func:`tempfile.TemporaryFile`: unlinked as soon as they are made),
so nothing is left behind on success, failure or a signal; they are made in
:func:`spill_directory` (the output's directory when a command sets it, else the temp dir).
A run is immutable, so merged reports share their runs; a pickled run carries its bytes (a
report sent to another process, a Dask worker's result) and is written to a new run on arrival.

>>> run = Run([("a", 1), ("b", 2)])
>>> list(run), len(run)
([('a', 1), ('b', 2)], 2)
>>> import pickle
>>> list(pickle.loads(pickle.dumps(run)))
[('a', 1), ('b', 2)]
"""

from __future__ import annotations

import heapq
import os
import pickle
import struct
import tempfile
from collections.abc import Callable, Iterable, Iterator
from typing import IO, Any

__all__ = ["Run", "merge_sorted", "set_spill_directory", "spill_directory"]

#: Items per pickled record of a run: big enough to make pickling cheap, small enough that a
#: merge over many runs holds little.
_RECORD = 4096
_HEADER = struct.Struct("<Q")

_directory: str | None = None


def set_spill_directory(path: str | None) -> None:
    """Make later runs in *path* (None: the temp dir).

    >>> set_spill_directory(None); spill_directory() == tempfile.gettempdir()
    True
    """
    global _directory
    _directory = path


def spill_directory() -> str:
    """Where runs are made: the directory set by :func:`set_spill_directory`, else the temp
    dir."""
    return _directory if _directory is not None else tempfile.gettempdir()


def _new_file() -> IO[bytes]:
    try:
        return tempfile.TemporaryFile(dir=spill_directory())  # noqa: SIM115
    except OSError:
        # The output's directory may refuse (read-only, full): the temp dir is the fallback.
        return tempfile.TemporaryFile()  # noqa: SIM115


class Run:
    """Sorted ``(key, value)`` items in an anonymous file, read any number of times."""

    __slots__ = ("__weakref__", "_file", "_length", "_size")

    def __init__(self, items: Iterable[tuple[Any, Any]]) -> None:
        self._file = _new_file()
        self._length = 0
        write = self._file.write
        batch: list[tuple[Any, Any]] = []
        for item in items:
            batch.append(item)
            if len(batch) == _RECORD:
                self._write(write, batch)
                batch = []
        if batch:
            self._write(write, batch)
        self._file.flush()
        self._size = self._file.tell()

    def _write(self, write: Callable[[bytes], object], batch: list[tuple[Any, Any]]) -> None:
        data = pickle.dumps(batch, pickle.HIGHEST_PROTOCOL)
        write(_HEADER.pack(len(data)))
        write(data)
        self._length += len(batch)

    def __len__(self) -> int:
        return self._length

    def __iter__(self) -> Iterator[tuple[Any, Any]]:
        fd = self._file.fileno()
        offset = 0
        while offset < self._size:
            (n,) = _HEADER.unpack(os.pread(fd, _HEADER.size, offset))
            offset += _HEADER.size
            yield from pickle.loads(os.pread(fd, n, offset))
            offset += n

    def __getstate__(self) -> tuple[int, bytes]:
        return self._length, os.pread(self._file.fileno(), self._size, 0)

    def __setstate__(self, state: tuple[int, bytes]) -> None:
        self._length, data = state
        self._file = _new_file()
        self._file.write(data)
        self._file.flush()
        self._size = len(data)

    def __del__(self) -> None:
        f = getattr(self, "_file", None)
        if f is not None:
            f.close()


def merge_sorted(
    sources: list[Iterable[tuple[Any, Any]]], combine: Callable[[Any, Any], Any]
) -> Iterator[tuple[Any, Any]]:
    """The sorted union of sorted ``(key, value)`` sources, equal keys' values combined.

    >>> list(merge_sorted([[("a", 1), ("c", 1)], [("a", 2), ("b", 5)]], lambda x, y: x + y))
    [('a', 3), ('b', 5), ('c', 1)]
    """
    if len(sources) == 1:
        yield from sources[0]
        return
    first = True
    key: Any = None
    value: Any = None
    for k, v in heapq.merge(*sources, key=_key):
        if first:
            key, value, first = k, v, False
        elif k == key:
            value = combine(value, v)
        else:
            yield key, value
            key, value = k, v
    if not first:
        yield key, value


def _key(item: tuple[Any, Any]) -> Any:
    return item[0]
