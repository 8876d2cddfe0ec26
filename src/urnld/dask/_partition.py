"""Split N-Triples / N-Quads inputs into line-aligned partitions.

A *plain* file is cut into byte ranges of about ``partition_size`` bytes. Every boundary is moved
forward to the next line start, so a partition always holds whole lines and the partitions of a
file, concatenated in order, are exactly the file. A line start is offset 0 or the offset just
after a ``\\n`` byte — the same rule as iterating a file opened in binary mode, which is what the
single-process streaming command does, so a partition sees exactly the lines the single-process
run sees.

Each worker aligns its own two boundaries (reading at most one line past each nominal cut) and
counts the ``\\n`` bytes of its range (``bytes.count``, a C loop, ~1 GB/s); the driver then adds
the counts up, so every partition knows the exact 1-based number of its first line without any
process reading the whole file.

A ``.gz`` file is one partition: deflate streams cannot be entered in the middle (finding a block
boundary needs decoding from the start), so there is no sound cheap way to split them.

>>> nominal_ranges(10, 4)
[(0, 4), (4, 8), (8, 10)]
"""

from __future__ import annotations

import gzip
import io
import os
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from stat import S_ISREG
from typing import BinaryIO

from ..errors import URNError

__all__ = [
    "FileInfo",
    "Partition",
    "RangeReader",
    "align",
    "iter_lines",
    "nominal_ranges",
    "open_partition",
    "scan_range",
]

# Reads are done in blocks this large: big enough that the per-call Python cost vanishes,
# small enough that a worker's memory stays flat whatever the partition size.
_BLOCK = 1 << 20


@dataclass(frozen=True, slots=True)
class FileInfo:
    """One input file as the driver saw it when planning.

    ``source`` is the path exactly as the caller gave it (reports name lines with it, as the
    single-process run does); ``path`` is absolute so workers with another working directory find
    the file. ``size`` and ``mtime_ns`` let every task check that the file did not change under it.
    """

    index: int
    source: str
    path: str
    size: int
    mtime_ns: int
    compressed: bool

    @classmethod
    def stat(cls, index: int, source: str | os.PathLike[str]) -> FileInfo:
        """Stat ``source`` (raises ``OSError`` if it is missing or not a regular file)."""
        text = os.fspath(source)
        if text == "-":
            raise URNError("the Dask engine reads files: '-' (stdin) cannot be partitioned")
        # abspath, not resolve(): a symlinked input keeps its own name in the output layout.
        path = os.path.abspath(text)
        st = os.stat(path)
        if not S_ISREG(st.st_mode):
            raise IsADirectoryError(f"not a regular file: {text!r}")
        return cls(
            index=index,
            source=text,
            path=path,
            size=st.st_size,
            mtime_ns=st.st_mtime_ns,
            compressed=path.endswith(".gz"),
        )

    def verify(self) -> None:
        """Raise ``OSError`` if the file changed since planning (size or mtime differ).

        Byte ranges planned on one version of a file are meaningless on another, so a task refuses
        to run rather than silently cut lines in half.
        """
        st = os.stat(self.path)
        if st.st_size != self.size or st.st_mtime_ns != self.mtime_ns:
            raise OSError(f"{self.source}: input changed while the job was running")


@dataclass(frozen=True, slots=True)
class Partition:
    """A line-aligned piece of one input file.

    ``start``/``end`` are byte offsets (``end`` exclusive) into the file as stored; for a ``.gz``
    file the only partition has ``start=0, end=size`` and is read through the decompressor.
    ``first_line`` is the 1-based line number of its first line in the whole file, and ``number``
    its position among the file's partitions (0-based; output pieces are concatenated in this
    order).
    """

    file: FileInfo
    number: int
    start: int
    end: int
    first_line: int


def nominal_ranges(size: int, partition_size: int) -> list[tuple[int, int]]:
    """Cut ``[0, size)`` into consecutive ranges of ``partition_size`` bytes (the last shorter).

    An empty file still gets one (empty) range, so it yields one (empty) output.

    >>> nominal_ranges(0, 4)
    [(0, 0)]
    """
    if partition_size < 1:
        raise ValueError(f"partition_size must be >= 1, got {partition_size!r}")
    if size == 0:
        return [(0, 0)]
    return [(lo, min(lo + partition_size, size)) for lo in range(0, size, partition_size)]


def align(f: BinaryIO, offset: int, size: int) -> int:
    """Return the first line start at or after ``offset`` in a file of ``size`` bytes.

    A line start is 0 or the offset right after a ``\\n``; past the last newline it is ``size``.

    >>> align(io.BytesIO(b"ab\\ncd\\n"), 1, 6), align(io.BytesIO(b"ab\\ncd\\n"), 3, 6)
    (3, 3)
    """
    if offset <= 0:
        return 0
    if offset >= size:
        return size
    # Looking from offset-1 makes an offset that already is a line start map to itself.
    pos = offset - 1
    f.seek(pos)
    while True:
        block = f.read(_BLOCK)
        if not block:
            return size
        nl = block.find(b"\n")
        if nl >= 0:
            return pos + nl + 1
        pos += len(block)


def scan_range(file: FileInfo, lo: int, hi: int) -> tuple[int, int, int]:
    """Align the nominal range ``[lo, hi)`` of ``file`` and count its newlines.

    Returns ``(start, end, newlines)``: the aligned range and the number of ``\\n`` bytes in it.
    Runs on a worker; reads the range once, plus at most one line past each end.
    """
    file.verify()
    with open(file.path, "rb") as f:
        start = align(f, lo, file.size)
        end = align(f, hi, file.size)
        count = 0
        f.seek(start)
        remaining = end - start
        while remaining > 0:
            block = f.read(min(_BLOCK, remaining))
            if not block:
                raise OSError(f"{file.source}: shorter than planned (truncated while running?)")
            count += block.count(b"\n")
            remaining -= len(block)
    return start, end, count


class RangeReader(io.RawIOBase):
    """A read-only raw stream over bytes ``[start, end)`` of a file.

    Wrapped in :class:`io.BufferedReader` it iterates lines in C, exactly like a file opened with
    ``open(path, "rb")`` positioned at ``start`` and stopped at ``end``.

    >>> import tempfile
    >>> with tempfile.NamedTemporaryFile() as t:
    ...     _ = t.write(b"a\\nb\\nc\\n"); t.flush()
    ...     list(io.BufferedReader(RangeReader(t.name, 2, 4)))
    [b'b\\n']
    """

    def __init__(self, path: str, start: int, end: int) -> None:
        super().__init__()
        self._f = open(path, "rb", buffering=0)  # noqa: SIM115 - closed in close()
        self._f.seek(start)
        self._remaining = end - start

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview | bytearray) -> int:  # type: ignore[override]
        if self._remaining <= 0:
            return 0
        view = memoryview(buffer).cast("B")
        n = self._f.readinto(view[: min(len(view), self._remaining)])
        if not n:
            raise OSError(f"{self._f.name}: file shorter than planned (truncated while running?)")
        self._remaining -= n
        return n

    def close(self) -> None:
        if not self.closed:
            self._f.close()
        super().close()


def open_partition(part: Partition) -> io.BufferedIOBase:
    """Open ``part`` for reading its lines (decompressing a ``.gz`` file)."""
    part.file.verify()
    if part.file.compressed:
        return gzip.open(part.file.path, "rb")
    return io.BufferedReader(RangeReader(part.file.path, part.start, part.end), _BLOCK)


def iter_lines(part: Partition) -> Iterator[bytes]:
    """Yield the lines of ``part`` (each with its ``\\n``, the last one possibly without).

    Corrupt or truncated gzip data raises ``OSError`` naming the file (``gzip`` itself raises
    ``EOFError``/``zlib.error`` without the file name).
    """
    with open_partition(part) as f:
        try:
            yield from f
        except (EOFError, zlib.error, gzip.BadGzipFile) as e:
            raise OSError(f"{part.file.source}: corrupt gzip data: {e}") from e
