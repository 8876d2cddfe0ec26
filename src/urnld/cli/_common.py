"""Helpers shared by the subcommands: terminal tables and the progress line.

Files are opened and written by the file layer (:mod:`urnld._files`), as everywhere in urnld.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..stream import Progress

__all__ = ["ProgressLine", "is_terminal", "print_table"]


def is_terminal(stream: IO[Any] | None = None) -> bool:
    """True when *stream* (default stdout) is an interactive terminal."""
    stream = sys.stdout if stream is None else stream
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def print_table(
    rows: Sequence[Sequence[object]],
    headers: Sequence[str],
    file: IO[str] | None = None,
) -> None:
    """Print *rows* as an aligned plain-text table.

    >>> print_table([("isbn", 3), ("uuid", 12)], ["nid", "count"])
    nid   count
    ----  -----
    isbn  3
    uuid  12
    """
    out = sys.stdout if file is None else file
    cells = [[str(c) for c in headers]] + [[str(c) for c in row] for row in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]
    lines = [cells[0], ["-" * w for w in widths], *cells[1:]]
    for row in lines:
        print("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip(), file=out)


class ProgressLine:
    """Draws a :class:`urnld.stream.Progress` as one line on a terminal (``\r``-rewritten).

    Use it as the ``progress`` callback of a streaming pass; :meth:`close` clears the line.

    >>> import io
    >>> from urnld.stream import Progress
    >>> out = io.StringIO()
    >>> bar = ProgressLine("canonicalize", out, interval=0)
    >>> bar(Progress(50, 100, 1000))
    >>> "50.0%" in out.getvalue() and "1,000 statements" in out.getvalue()
    True
    """

    def __init__(self, label: str, stream: IO[str] | None = None, interval: float = 0.25) -> None:
        self.label = label
        self.stream = sys.stderr if stream is None else stream
        self.interval = interval
        self.start = time.monotonic()
        self.last = -interval
        self.drawn = False

    def __call__(self, p: Progress) -> None:
        now = time.monotonic()
        if now - self.last < self.interval:
            return
        self.last = now
        rate = p.statements / max(now - self.start, 1e-9)
        pct = f"{100 * p.done / p.total:5.1f}% " if p.total else ""
        self.stream.write(f"\r{self.label}: {pct}{p.statements:,} statements ({rate:,.0f}/s)   ")
        self.stream.flush()
        self.drawn = True

    def close(self) -> None:
        """Clear the line, when one was drawn."""
        if self.drawn:
            self.stream.write("\r" + " " * 70 + "\r")
            self.stream.flush()
