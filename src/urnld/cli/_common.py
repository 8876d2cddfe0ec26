"""Helpers shared by the subcommands: terminal tables and the progress line.

Files are opened and written by the file layer (:mod:`urnld._kernel`), as everywhere in urnld.
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..stream import Progress

__all__ = [
    "ProgressLine",
    "colour",
    "is_terminal",
    "print_table",
    "source_name",
    "stdout_to",
]


def counted(count: int, noun: str) -> str:
    """*count* and *noun*, plural unless the count is one.

    >>> counted(1, "canonical URN"), counted(2_000, "occurrence")
    ('1 canonical URN', '2,000 occurrences')
    """
    return f"{count:,} {noun}" + ("" if count == 1 else "s")


def source_name(path: str) -> str:
    """How messages name an input: ``-`` is ``<stdin>``."""
    return "<stdin>" if path == "-" else path


def is_terminal(stream: IO[Any] | None = None) -> bool:
    """True when *stream* (default stdout) is an interactive terminal."""
    stream = sys.stdout if stream is None else stream
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


_ANSI = {"red": "1;31", "green": "1;32", "yellow": "33", "bold": "1", "dim": "2"}


def colour(text: str, name: str, stream: IO[str] | None = None) -> str:
    """*text* in colour *name* when *stream* (default stdout) is a terminal that wants colour.

    No colour when ``NO_COLOR`` is set to anything non-empty (https://no-color.org),
    ``TERM=dumb``, or the stream is not a terminal (a file, a pipe, a test).

    >>> import io
    >>> colour("ERRORS", "red", io.StringIO())
    'ERRORS'
    """
    stream = sys.stdout if stream is None else stream
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb" or not is_terminal(stream):
        return text
    return f"\x1b[{_ANSI[name]}m{text}\x1b[0m"


def terminal_width(stream: IO[str] | None = None) -> int | None:
    """The width of the terminal *stream* writes to, or None when it is not a terminal."""
    stream = sys.stdout if stream is None else stream
    if not is_terminal(stream):
        return None
    import shutil

    return shutil.get_terminal_size().columns


def print_table(
    rows: Sequence[Sequence[object]],
    headers: Sequence[str],
    file: IO[str] | None = None,
    *,
    width: int | None = None,
) -> None:
    """Print *rows* as an aligned plain-text table.

    *width* (default: the terminal's width when *file* is a terminal, else unlimited) is the
    widest a line may be: the widest column is cut, with "…", until the table fits (no column
    below 12 characters).

    >>> print_table([("isbn", 3), ("uuid", 12)], ["nid", "count"])
    nid   count
    ----  -----
    isbn  3
    uuid  12
    >>> print_table([("urn:isbn:9780141439519", "ISBN check digit '9' is wrong")],
    ...             ["urn", "error"], width=40)
    urn                     error
    ----------------------  ----------------
    urn:isbn:9780141439519  ISBN check digi…
    """
    out = sys.stdout if file is None else file
    if width is None:
        width = terminal_width(out)
    cells = [[str(c) for c in headers]] + [[str(c) for c in row] for row in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]
    if width is not None:
        while sum(widths) + 2 * (len(widths) - 1) > width:
            widest = max(range(len(widths)), key=widths.__getitem__)
            excess = sum(widths) + 2 * (len(widths) - 1) - width
            new = max(widths[widest] - excess, 12)
            if new >= widths[widest]:
                break  # cannot shrink any further: let the terminal wrap
            widths[widest] = new
        cells = [
            [c if len(c) <= w else c[: w - 1] + "…" for c, w in zip(row, widths, strict=True)]
            for row in cells
        ]
    lines = [cells[0], ["-" * w for w in widths], *cells[1:]]
    for row in lines:
        print("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip(), file=out)


class _Discarded(Exception):
    """Raised inside :func:`stdout_to` to leave its output unwritten."""


@contextlib.contextmanager
def stdout_to(path: str | None) -> Iterator[Callable[[], None]]:
    r"""While the body runs, what is printed goes to *path* (``None``/``-``: stdout), written to
    a temporary file that replaces *path* only when the body finishes (``-o/--output``).

    The body gets a function to call to leave *path* as it was (a command that exits 2 writes
    no output file).

    >>> import tempfile, pathlib
    >>> out = pathlib.Path(tempfile.mkdtemp()) / "report.txt"
    >>> with stdout_to(str(out)):
    ...     print("ERRORS: 1 invalid URN")
    >>> out.read_text()
    'ERRORS: 1 invalid URN\n'
    >>> with stdout_to(str(out.with_name("no.txt"))) as discard:
    ...     print("INCOMPLETE")
    ...     discard()
    >>> out.with_name("no.txt").exists()
    False
    """
    discarded: list[bool] = []
    if path is None or path == "-":
        yield lambda: None
        return
    from .._kernel import atomic_output

    try:
        with atomic_output(path, text=True) as f, contextlib.redirect_stdout(f):
            yield lambda: discarded.append(True)
            if discarded:
                raise _Discarded
    except _Discarded:
        pass


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
        eta = ""
        if p.total and p.done >= p.total / 100:
            # bytes left at the byte rate so far
            eta = f", ETA {(p.total - p.done) * (now - self.start) / p.done:,.0f} s"
        self.stream.write(
            f"\r{self.label}: {pct}{p.statements:,} statements ({rate:,.0f}/s{eta})   "
        )
        self.stream.flush()
        self.drawn = True

    def close(self) -> None:
        """Clear the line, when one was drawn."""
        if self.drawn:
            self.stream.write("\r" + " " * 70 + "\r")
            self.stream.flush()
