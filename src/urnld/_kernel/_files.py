"""The file layer: open an input, write an output atomically. Used by every command and engine.

* :func:`open_input`: a path, ``-`` for stdin; a ``.gz`` path is decompressed.
* :func:`atomic_output`: a temporary file beside the target, renamed over it only on success, so
  no reader ever sees a truncated output and a failure leaves an existing file untouched. A new
  file gets the mode the umask gives (as ``open()`` would); a replaced file keeps its mode. A
  target that is not a regular file (a FIFO, a character device such as ``/dev/stdout`` or
  ``/dev/null``) is written to directly: renaming over it would replace the device. ``-`` is
  stdout. A ``.gz`` target is gzip-compressed (level 6, no name, ``mtime=0``: the same input
  gives byte-identical output).

>>> import os, tempfile
>>> path = os.path.join(tempfile.mkdtemp(), "out.txt")
>>> with atomic_output(path, text=True) as f:
...     _ = f.write("done")
>>> with open_input(path) as (f, size):
...     f.read(), size
(b'done', 4)
"""

from __future__ import annotations

import contextlib
import gzip
import io
import os
import stat
import sys
import tempfile
import zlib
from collections.abc import Iterator
from typing import IO, Any, Literal, overload

from ..errors import URNError

__all__ = ["atomic_output", "is_gzip", "open_input", "umask"]

# Output lines are short and each write() is a trip into C: a large buffer pays.
_WRITE_BUFFER = 1 << 20


def is_gzip(path: str | os.PathLike[str]) -> bool:
    """True when *path* names a gzip file (by its ``.gz`` extension).

    >>> is_gzip("dump.nt.gz"), is_gzip("dump.nt")
    (True, False)
    """
    return os.fspath(path).endswith(".gz")


def umask() -> int:
    """The process's umask, read without changing it where the system allows.

    >>> 0 <= umask() <= 0o777
    True
    """
    with contextlib.suppress(OSError, ValueError), open("/proc/self/status") as f:
        for line in f:
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    mask = os.umask(0o022)  # elsewhere: read by setting, then restore at once
    os.umask(mask)
    return mask


@contextlib.contextmanager
def open_input(path: str | os.PathLike[str]) -> Iterator[tuple[IO[bytes], int | None]]:
    """Open an input for binary reading: ``-`` is stdin, ``.gz`` is decompressed.

    Yields the stream and the size in bytes of the underlying file (for progress), when it is
    known. Raises ``OSError`` (naming the file) when it cannot be opened, and
    :class:`~urnld.URNError` (naming it too) when its gzip data is truncated or corrupt.
    """
    p = os.fspath(path)
    if p == "-":
        yield sys.stdin.buffer, None
        return
    raw = open(p, "rb")  # noqa: SIM115  # closed below, also wrapped by gzip
    try:
        st = os.fstat(raw.fileno())
        size = st.st_size if stat.S_ISREG(st.st_mode) else None
        if is_gzip(p):
            with _NamedGzipFile(p, raw) as gz:
                yield gz, size  # type: ignore[misc]  # GzipFile is a binary IO
        else:
            yield raw, size
    finally:
        raw.close()


class _NamedGzipFile(gzip.GzipFile):
    """A gzip reader whose errors name the file (gzip says "Compressed file ended before the
    end-of-stream marker was reached" and nothing about which file)."""

    def __init__(self, name: str, raw: IO[bytes]) -> None:
        super().__init__(fileobj=raw, mode="rb")
        self._source = name

    def _fail(self, e: Exception) -> URNError:
        return URNError(f"{self._source}: truncated or corrupt gzip data ({e})")

    def read(self, size: int | None = -1) -> bytes:
        try:
            return super().read(size)
        except (EOFError, gzip.BadGzipFile, zlib.error) as e:
            raise self._fail(e) from None

    def read1(self, size: int = -1) -> bytes:
        try:
            return super().read1(size)
        except (EOFError, gzip.BadGzipFile, zlib.error) as e:
            raise self._fail(e) from None

    def readline(self, size: int | None = -1) -> bytes:
        try:
            return super().readline(size)
        except (EOFError, gzip.BadGzipFile, zlib.error) as e:
            raise self._fail(e) from None

    def peek(self, n: int) -> bytes:
        try:
            return super().peek(n)
        except (EOFError, gzip.BadGzipFile, zlib.error) as e:
            raise self._fail(e) from None


@overload
def atomic_output(
    path: str | os.PathLike[str],
    *,
    text: Literal[False] = False,
    fsync: bool = False,
    compress: bool | None = None,
) -> contextlib.AbstractContextManager[IO[bytes]]: ...
@overload
def atomic_output(
    path: str | os.PathLike[str],
    *,
    text: Literal[True],
    fsync: bool = False,
    compress: bool | None = None,
) -> contextlib.AbstractContextManager[IO[str]]: ...
def atomic_output(
    path: str | os.PathLike[str],
    *,
    text: bool = False,
    fsync: bool = False,
    compress: bool | None = None,
) -> contextlib.AbstractContextManager[IO[Any]]:
    """Write *path* atomically (see the module docs); ``text=True`` gives a UTF-8 text stream.

    ``fsync=True`` also forces the data to disk before the rename (durable outputs).
    ``compress`` says whether to gzip; None (the default) decides by the ``.gz`` extension.
    """
    p = os.fspath(path)
    return _atomic(p, text, fsync, is_gzip(p) if compress is None else compress)


@contextlib.contextmanager
def _atomic(p: str, text: bool, fsync: bool, compress: bool) -> Iterator[IO[Any]]:
    if p == "-":
        out: IO[Any] = sys.stdout if text else sys.stdout.buffer
        yield out
        out.flush()
        return
    try:
        st: os.stat_result | None = os.stat(p)
    except OSError:
        st = None
    if st is not None and _write_in_place(p, st):
        # A FIFO, a device, /dev/stdout: write to it, never rename a file over it.
        with open(p, "wb") as raw:
            yield from _encoded(raw, compress, text)
        return
    # A symlink to a regular file: replace the file it points to, keep the link.
    p = os.path.realpath(p)
    directory = os.path.dirname(p)
    fd, tmp = tempfile.mkstemp(prefix=".urnld-", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb", buffering=_WRITE_BUFFER) as raw:
            yield from _encoded(raw, compress, text)
            if fsync:
                raw.flush()
                os.fsync(raw.fileno())
        # mkstemp creates 0600: give the file the mode open() would, or the replaced one's.
        os.chmod(tmp, (st.st_mode & 0o7777) if st is not None else 0o666 & ~umask())
        os.replace(tmp, p)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _write_in_place(p: str, st: os.stat_result) -> bool:
    """True for a target that must be written to, not replaced: anything but a regular file,
    and any name that is or leads through ``/dev`` or ``/proc`` (``/dev/stdout`` is a link to
    ``/proc/self/fd/1``, which may well be a regular file: renaming over the name would replace
    the link)."""
    if not stat.S_ISREG(st.st_mode):
        return True
    hop = os.path.abspath(p)
    for _ in range(40):  # the kernel's own limit on links followed
        if hop.startswith(("/dev/", "/proc/")):
            return True
        if not os.path.islink(hop):
            return False
        hop = os.path.join(os.path.dirname(hop), os.readlink(hop))
    return True


def _encoded(raw: IO[bytes], compress: bool, text: bool) -> Iterator[IO[Any]]:
    """Yield the stream to write into *raw*: gzip-compressed, text-encoded, as asked."""
    binary: IO[bytes] = raw
    gz = None
    if compress:
        gz = gzip.GzipFile(filename="", fileobj=raw, mode="wb", compresslevel=6, mtime=0)
        binary = gz  # type: ignore[assignment]  # GzipFile is a binary IO
    if text:
        wrapper = io.TextIOWrapper(binary, encoding="utf-8", newline="")
        yield wrapper
        wrapper.flush()
        wrapper.detach()
    else:
        yield binary
    if gz is not None:
        gz.close()
