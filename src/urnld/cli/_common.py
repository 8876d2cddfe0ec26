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

__all__ = ["atomic_write", "is_terminal", "open_input", "print_table"]


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
