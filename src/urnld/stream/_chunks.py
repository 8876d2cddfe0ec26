"""Cutting input into chunks of whole lines: the unit of work of every streaming pass."""

from __future__ import annotations

import contextlib
import io
import itertools
import re
from collections.abc import Callable, Iterable, Iterator
from typing import IO, Any

from ._grammar import NTriplesSyntaxError

__all__ = [
    "BATCH_LINES",
    "CHUNK_BYTES",
    "MAX_LINE_BYTES",
    "line_chunks",
    "line_count",
    "read_chunks",
    "read_lines",
]

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


#: The longest line read (bytes): past it the input is refused (NTriplesSyntaxError), so one
#: line without a newline cannot take all memory.
MAX_LINE_BYTES = 64 << 20
# A CR not followed by LF: a line end of its own (N-Triples: EOL ::= [#xD#xA]+).
_ODD_CR = re.compile(rb"\r(?!\n)")
_CR_RUN = re.compile(rb"\r+(\n?)")


def _eol(m: re.Match[bytes]) -> bytes:
    # "\r\r\n" is one line end, kept as "\r\n"; a bare "\r" (old Mac files) becomes "\n".
    return b"\r\n" if m.group(1) else b"\n"


def read_chunks(
    f: IO[bytes],
    counter: Callable[[int], None] | None = None,
    size: int | None = None,
    *,
    source: str = "<stdin>",
    max_line: int = MAX_LINE_BYTES,
) -> Iterator[bytes]:
    """The input in chunks of whole lines, about *size* bytes each (a last line may lack
    its newline). Cheaper than lines: the fast path splits a chunk in one regex call.

    Linear in the input whatever its line lengths (a long line is gathered in pieces, joined
    once); a line over *max_line* bytes raises :class:`NTriplesSyntaxError`. Line ends made of
    CRs alone (``\r``, ``\r\r\n``) are read as line ends.

    ``counter(position)`` is told the position reached in the underlying (for ``.gz``: the
    compressed) file after each read.

    >>> import io
    >>> list(read_chunks(io.BytesIO(b"a\\nb\\nc"), size=3))
    [b'a\\n', b'b\\n', b'c']
    >>> list(read_chunks(io.BytesIO(b"a\\rb\\r\\r\\nc"), size=3))
    [b'a\\n', b'b\\r\\n', b'c']
    """
    raw: Any = getattr(f, "fileobj", None) or f  # compressed position for .gz
    size = size or CHUNK_BYTES
    read = getattr(f, "read1", f.read)  # what is there, without waiting for a full block
    pending: list[bytes] = []  # the start of a line not ended yet, in pieces
    pending_len = 0
    held_cr = False  # a block ended in "\r": whether it is "\r\n" shows in the next one
    line = 1
    while True:
        block = read(size)
        if not block:
            tail = b"".join(pending) + (b"\n" if held_cr else b"")
            if tail:
                yield tail
            return
        if counter is not None:
            with contextlib.suppress(OSError, ValueError, AttributeError):
                counter(raw.tell())
        if held_cr:
            block = b"\r" + block
            held_cr = False
        if b"\r" in block:
            if block.endswith(b"\r"):
                block = block[:-1]
                held_cr = True
            if _ODD_CR.search(block):
                block = _CR_RUN.sub(_eol, block)
        cut = block.rfind(b"\n") + 1
        if cut == 0:  # the line goes on past this block
            pending.append(block)
            pending_len += len(block)
            if pending_len > max_line:
                raise NTriplesSyntaxError(
                    source, line, f"line longer than {max_line:,} bytes (the limit)", pending[0]
                )
            continue
        if pending:
            if pending_len + block.find(b"\n") > max_line:
                raise NTriplesSyntaxError(
                    source, line, f"line longer than {max_line:,} bytes (the limit)", pending[0]
                )
            head = b"".join(pending) + block[:cut]
            pending = []
            pending_len = 0
        else:
            head = block[:cut] if cut < len(block) else block
        if cut < len(block):
            pending = [block[cut:]]
            pending_len = len(block) - cut
        line += head.count(b"\n")
        yield head


def read_lines(f: IO[bytes], *, source: str = "<stdin>") -> Iterator[bytes]:
    """The lines of a binary stream, read as :func:`read_chunks` reads them (bounded line
    length, linear time, CR line ends): a safe replacement for iterating over ``f``.

    >>> import io
    >>> list(read_lines(io.BytesIO(b"a\\rb\\n")))
    [b'a\\n', b'b\\n']
    """
    for chunk in read_chunks(f, source=source):
        yield from io.BytesIO(chunk)
