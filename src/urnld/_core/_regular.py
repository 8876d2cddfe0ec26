"""Reading the files a run reads whole: regular files only, within a size limit.

A FIFO would block a run and a device such as ``/dev/zero`` never ends, so the tables,
catalogs, shapes, configs and undo files urnld reads are opened here and refused, with one
:class:`~urnld.URNError` naming the file, when they are anything but a regular file or larger
than the limit the caller gives.
"""

from __future__ import annotations

import os
import stat
from typing import IO

from ..errors import URNError

__all__ = ["open_regular", "read_regular"]

_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR,
          "a character device"), (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


def open_regular(
    path: str | os.PathLike[str], what: str = "file", *, max_bytes: int | None = None
) -> IO[bytes]:
    """Open *path* for reading if it is a regular file of at most *max_bytes* bytes.

    For the files a run reads whole or scans to the end (tables, catalogs, shapes, configs,
    undo files): a FIFO would block and a device such as ``/dev/zero`` never ends, so they
    are refused, as is a file past the limit, with a :class:`~urnld.URNError` naming the file
    (*what* says which one). Opening never blocks, even on a FIFO without a writer.

    >>> open_regular("/dev/zero", "table")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    urnld.URNError: /dev/zero: the table is not a regular file (a character device); give a file
    """
    p = os.fspath(path)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(p, flags)
    except OSError as e:
        raise URNError(f"cannot read {what} {p}: {e.strerror or e}") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            kind = next((name for test, name in _KINDS if test(st.st_mode)), "not a file")
            raise URNError(f"{p}: the {what} is not a regular file ({kind}); give a file")
        if max_bytes is not None and st.st_size > max_bytes:
            raise URNError(f"{p}: the {what} is {st.st_size:,} bytes, more than the "
                           f"{max_bytes:,} read")
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_regular(
    path: str | os.PathLike[str], what: str = "file", *, max_bytes: int
) -> bytes:
    """The bytes of a regular file of at most *max_bytes* (see :func:`open_regular`); a file
    that grows past the limit while read is refused too.

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "t.toml"
    >>> _ = p.write_text("a = 1")
    >>> read_regular(p, "table", max_bytes=100)
    b'a = 1'
    """
    with open_regular(path, what, max_bytes=max_bytes) as f:
        data = f.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise URNError(f"{os.fspath(path)}: the {what} is more than the {max_bytes:,} bytes read")
    return data
