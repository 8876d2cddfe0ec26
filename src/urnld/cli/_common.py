"""Helpers shared by the subcommands: safe output, input opening, terminal tables."""

from __future__ import annotations

import contextlib
import gzip
import io
import os
import sys
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO, Any, Literal, overload

__all__ = ["atomic_write", "colour", "is_terminal", "open_input", "print_table", "stdout_to"]


_CM = contextlib.AbstractContextManager


@overload
def atomic_write(path: str | Path, mode: Literal["w"] = "w") -> _CM[IO[str]]: ...
@overload
def atomic_write(path: str | Path, mode: Literal["wb"]) -> _CM[IO[bytes]]: ...
def atomic_write(path: str | Path, mode: str = "w") -> _CM[IO[Any]]:
    """Write to a temporary file beside *path*, renamed over it only on success.

    A failure (an exception in the ``with`` body) removes the temporary file and leaves any
    existing *path* untouched, so no reader ever sees a truncated output. ``-`` writes to
    stdout. A path ending in ``.gz`` is gzip-compressed.

    >>> import tempfile, pathlib
    >>> out = pathlib.Path(tempfile.mkdtemp()) / "x.txt"
    >>> with atomic_write(out) as f:
    ...     _ = f.write("done")
    >>> out.read_text()
    'done'
    """
    return _atomic_write(str(path), mode)


@contextlib.contextmanager
def _atomic_write(path: str, mode: str) -> Iterator[IO[Any]]:
    if path == "-":
        stream: IO[Any] = sys.stdout.buffer if "b" in mode else sys.stdout
        yield stream
        stream.flush()
        return
    target = Path(path)
    directory = target.parent if str(target.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as raw:
            binary: IO[bytes] = raw
            if path.endswith(".gz"):
                # mtime=0: the same input gives byte-identical output.
                binary = gzip.GzipFile(fileobj=raw, mode="wb", mtime=0)  # type: ignore[assignment]
            if "b" in mode:
                yield binary
            else:
                text = io.TextIOWrapper(binary, encoding="utf-8", newline="")
                yield text
                text.flush()
                text.detach()
            if binary is not raw:
                binary.close()
            raw.flush()
            os.fsync(raw.fileno())
        if target.exists():
            # Keep the existing file's permission bits; mkstemp creates 0600.
            os.chmod(tmp, target.stat().st_mode & 0o7777)
        else:
            os.chmod(tmp, 0o644)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


@contextlib.contextmanager
def stdout_to(path: str | None) -> Iterator[None]:
    r"""While the body runs, what is printed goes to *path* (``None``/``-``: stdout), written to
    a temporary file that replaces *path* only when the body finishes (``-o/--output``).

    >>> import tempfile, pathlib
    >>> out = pathlib.Path(tempfile.mkdtemp()) / "report.txt"
    >>> with stdout_to(str(out)):
    ...     print("ERRORS: 1 invalid URN")
    >>> out.read_text()
    'ERRORS: 1 invalid URN\n'
    """
    if path is None or path == "-":
        yield
        return
    with atomic_write(path) as f, contextlib.redirect_stdout(f):
        yield


def open_input(path: str | Path) -> IO[bytes]:
    """Open *path* for binary reading: ``-`` is stdin, ``.gz`` is decompressed transparently.

    Raises ``OSError`` (with the file name) when it cannot be read.
    """
    name = str(path)
    if name == "-":
        return sys.stdin.buffer
    raw: IO[bytes] = open(name, "rb")  # noqa: SIM115  # returned to the caller, who closes it
    if name.endswith(".gz"):
        return gzip.GzipFile(fileobj=raw, mode="rb")  # type: ignore[return-value]
    return raw


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
