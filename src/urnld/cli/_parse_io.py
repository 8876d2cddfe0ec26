"""The I/O of ``urnld parse -``: stdin read as chunks of whole lines, each decoded once, and
stdout's byte stream for the compiled writer's UTF-8 bytes.

>>> isinstance(_CHUNK, int)
True
"""

from __future__ import annotations

import codecs
import io
import os
import sys
from collections.abc import Iterator
from typing import BinaryIO

__all__ = ["binary_stdout", "chunks"]


def binary_stdout() -> BinaryIO | None:
    """stdout's byte stream when writing UTF-8 there is what its text layer does (UTF-8,
    backslashes for what cannot be encoded, no newline translation), else None. The CLI's
    pipe-safe stdout (``urnld.cli._PipeSafeText``) is looked through: its caller handles a
    closed pipe."""
    stdout = getattr(sys.stdout, "wrapped", sys.stdout)
    buffer = getattr(stdout, "buffer", None)
    if (
        not isinstance(stdout, io.TextIOWrapper)
        or buffer is None
        or codecs.lookup(stdout.encoding).name != "utf-8"
        or stdout.errors != "backslashreplace"
        or os.linesep != "\n"
    ):
        return None
    return buffer  # type: ignore[no-any-return]


#: Characters (bytes from a binary stdin) read at a time: a chunk's output (some 20 times its
#: size as JSON) is held until written.
_CHUNK = 1 << 13


def chunks() -> Iterator[str]:
    """stdin as chunks of whole lines (the last may lack its ``\n``), each decoded once.

    Bytes are decoded leniently: an undecodable line is reported as not a URN, not a crash (a
    chunk ends at a ``\n``, which no UTF-8 sequence holds, so a line decodes as on its own).
    A read returns what is there (``read1``), so results follow a slow writer line by line.
    """
    binary = getattr(sys.stdin, "buffer", None)
    if binary is None:  # a text stream given by the caller (tests, embedding)
        text_pending = ""
        while block := sys.stdin.read(_CHUNK):
            cut = block.rfind("\n") + 1
            if cut == 0:
                text_pending += block
                continue
            yield text_pending + block[:cut]
            text_pending = block[cut:]
        if text_pending:
            yield text_pending
        return
    read = getattr(binary, "read1", binary.read)
    pending: list[bytes] = []  # a line longer than a read, in pieces (no quadratic joins)
    while block := read(_CHUNK):
        cut = block.rfind(b"\n") + 1
        if cut == 0:
            pending.append(block)
            continue
        head = block[:cut] if not pending else b"".join([*pending, block[:cut]])
        pending = [block[cut:]] if cut < len(block) else []
        yield head.decode("utf-8", "surrogateescape")
    if pending:
        yield b"".join(pending).decode("utf-8", "surrogateescape")
