"""Cutting input into chunks of whole lines: the unit of work of every streaming pass."""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Callable, Iterable, Iterator
from typing import IO, Any

__all__ = ["BATCH_LINES", "CHUNK_BYTES", "line_chunks", "line_count", "read_chunks"]

#: Lines are handled in batches: one Python call per batch keeps per-line overhead low.
BATCH_LINES = 8192
#: Files are read in chunks of whole lines of about this size (one regex call splits a chunk).
CHUNK_BYTES = 1 << 20


def line_count(chunk: bytes) -> int:
    """Lines in *chunk*: its newlines, plus a last line without one.

    >>> line_count(b"a\\nb\\n"), line_count(b"a\\nb"), line_count(b"")
    (2, 2, 1)
    """
    return chunk.count(b"\n") + (not chunk.endswith(b"\n"))


def line_chunks(lines: Iterable[bytes]) -> Iterator[bytes]:
    """Join lines into chunks of :data:`BATCH_LINES` lines (a line without its newline ends one).

    >>> list(line_chunks([b"a\\n", b"b", b"c\\n"]))
    [b'a\\nb', b'c\\n']
    """
    it = iter(lines)
    while True:
        batch = list(itertools.islice(it, BATCH_LINES))
        if not batch:
            return
        # A last line without "\n" (or a caller's odd "line") must not run into the next.
        start = 0
        for i, line in enumerate(batch):
            if not line.endswith(b"\n"):
                yield b"".join(batch[start : i + 1])
                start = i + 1
        if start < len(batch):
            yield b"".join(batch[start:])


def read_chunks(
    f: IO[bytes], counter: Callable[[int], None] | None = None, size: int | None = None
) -> Iterator[bytes]:
    """The input in chunks of whole lines, about *size* bytes each (a last line may lack its
    newline). Cheaper than lines: the fast path splits a chunk in one regex call.

    ``counter(position)`` is told the position reached in the underlying (for ``.gz``: the
    compressed) file after each read.

    >>> import io
    >>> list(read_chunks(io.BytesIO(b"a\\nb\\nc"), size=3))
    [b'a\\n', b'b\\n', b'c']
    """
    raw: Any = getattr(f, "fileobj", None) or f  # compressed position for .gz
    size = size or CHUNK_BYTES
    read = getattr(f, "read1", f.read)  # what is there, without waiting for a full block
    carry = b""
    while True:
        block = read(size)
        if not block:
            if carry:
                yield carry
            return
        if counter is not None:
            with contextlib.suppress(OSError, ValueError, AttributeError):
                counter(raw.tell())
        data = carry + block if carry else block
        cut = data.rfind(b"\n") + 1
        if cut == 0:  # a line longer than a block: keep reading
            carry = data
            continue
        carry = data[cut:]
        yield data[:cut] if carry else data
