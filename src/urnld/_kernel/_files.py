"""The file layer: open an input, write an output atomically. Used by every command and engine.

* :func:`open_input`: a path, ``-`` for stdin; a ``.gz`` path is decompressed.
* :func:`atomic_output`: a temporary file beside the target, renamed over it only on success, so
  no reader ever sees a truncated output and a failure leaves an existing file untouched. On
  Linux the temporary file is anonymous (``O_TMPFILE``) until that rename, so even a process
  killed by SIGKILL leaves nothing behind; elsewhere it has a private name that the next run
  writing into the directory removes once its owner process is gone. A new
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
import contextvars
import errno
import gzip
import io
import os
import re
import stat
import sys
import zlib
from collections.abc import Callable, Iterator
from typing import IO, Any, Literal, NamedTuple, overload

from .._core import open_regular, read_regular
from ..errors import URNError

__all__ = [
    "atomic_output",
    "defer_to_run",
    "is_gzip",
    "open_input",
    "open_regular",
    "output_transaction",
    "outside_transaction",
    "owner_gone",
    "owner_tag",
    "read_regular",
    "sweep_once",
    "sweep_temporary",
    "umask",
]

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


_INPUT_BUFFER = 1 << 20  # bytes: open_input's read buffer


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
    # A large buffer: pyoxigraph's parsers read a Python stream a few KiB per call, and at the
    # default buffer size the calls cost a third as much as the parse (measured on N-Triples).
    raw = open(p, "rb", buffering=_INPUT_BUFFER)  # noqa: SIM115  # closed below, also by gzip
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
    sweep_once(directory)
    # The file gets the mode open() would give, or the replaced one's.
    mode = (st.st_mode & 0o7777) if st is not None else 0o666 & ~umask()
    fd, tmp = _create_temporary(directory)
    run = _RUN.get()
    kept: int | None = None
    try:
        try:
            with os.fdopen(fd, "wb", buffering=_WRITE_BUFFER) as raw:
                yield from _encoded(raw, compress, text)
                raw.flush()
                if fsync:
                    os.fsync(raw.fileno())
                os.fchmod(raw.fileno(), mode)
                if run is not None and tmp is None and len(run.pending) < _KEEP_OPEN:
                    # Still anonymous until the run commits: a kill leaves nothing.
                    kept = os.dup(raw.fileno())
                elif tmp is None:
                    # An anonymous file gets a name only now, for the one rename into place.
                    tmp = _name_anonymous(raw.fileno(), directory)
        except OSError as e:
            # "No space left on device" alone does not say which output could not be written.
            if e.filename is None and e.errno is not None:
                raise OSError(e.errno, f"cannot write {p}: {e.strerror}") from None
            raise
        if run is not None:
            run.pending.append(_Pending(p, directory, tmp, kept))
            kept = tmp = None  # the run's now
            return
        assert tmp is not None  # named above when no run keeps it anonymous
        os.replace(tmp, p)
    except BaseException:
        if kept is not None:
            os.close(kept)
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        raise


# -- one run's outputs, renamed together -----------------------------------------------------
# A command writes several outputs (data, report, HTML page, findings): within
# output_transaction() each atomic_output() is complete on disk but renamed into place only
# when the whole run commits, so a run that fails half-way (exit 2, a signal, a full disk on
# the last output) replaces none of them.

#: Outputs kept anonymous (one open descriptor each) before later ones get a private name.
_KEEP_OPEN = 64


class _Pending(NamedTuple):
    path: str
    directory: str
    tmp: str | None  # its private name, or None: still anonymous, open as ``fd``
    fd: int | None


class _Deferred(NamedTuple):
    """An output that is not one file (the Dask engine's directory): its own commit and
    discard, called where a file's rename and removal would be."""

    commit: Callable[[], None]
    discard: Callable[[], None]


class _Run:
    def __init__(self) -> None:
        self.pending: list[_Pending | _Deferred] = []

    def discard(self) -> None:
        pending, self.pending = self.pending, []
        for item in pending:
            if isinstance(item, _Deferred):
                with contextlib.suppress(OSError):
                    item.discard()
                continue
            if item.fd is not None:
                with contextlib.suppress(OSError):
                    os.close(item.fd)
            if item.tmp is not None:
                with contextlib.suppress(OSError):
                    os.unlink(item.tmp)

    def commit(self) -> None:
        pending, self.pending = self.pending, []
        try:
            while pending:
                item = pending[0]
                if isinstance(item, _Deferred):
                    item.commit()
                    pending.pop(0)
                    # Committed: nothing is left to discard if a later output fails.
                    with contextlib.suppress(OSError):
                        item.discard()
                    continue
                tmp = item.tmp
                if tmp is None:
                    assert item.fd is not None
                    tmp = _name_anonymous(item.fd, item.directory)
                    pending[0] = item._replace(tmp=tmp)
                os.replace(tmp, item.path)
                if item.fd is not None:
                    os.close(item.fd)
                pending.pop(0)
        except BaseException:
            self.pending = pending
            self.discard()
            raise


_RUN: contextvars.ContextVar[_Run | None] = contextvars.ContextVar("urnld_run", default=None)


class OutputTransaction:
    """What :func:`output_transaction` yields: :meth:`commit` renames the run's outputs into
    place; leaving the block without it (an error, a signal, a failed run) removes them."""

    def __init__(self, run: _Run) -> None:
        self._run = run

    def commit(self) -> None:
        """Rename every output written so far into place, in the order they were written."""
        self._run.commit()

    def discard(self) -> None:
        """Remove every output written so far; nothing they would replace is touched."""
        self._run.discard()


def defer_to_run(commit: Callable[[], None], discard: Callable[[], None]) -> bool:
    """Within :func:`output_transaction`, make an output that is not one file (a directory
    staged beside its target) part of the run: *commit* is called when the run commits, in
    the order outputs were written, then *discard*; *discard* alone when the run does not
    commit. Returns False outside a transaction: the caller commits at once.

    >>> done = []
    >>> defer_to_run(lambda: done.append("commit"), lambda: done.append("discard"))
    False
    >>> with output_transaction() as run:
    ...     defer_to_run(lambda: done.append("commit"), lambda: done.append("discard"))
    ...     run.commit()
    True
    >>> with output_transaction():  # left without commit()
    ...     defer_to_run(lambda: done.append("commit"), lambda: done.append("discard"))
    True
    >>> done
    ['commit', 'discard', 'discard']
    """
    run = _RUN.get()
    if run is None:
        return False
    run.pending.append(_Deferred(commit, discard))
    return True


@contextlib.contextmanager
def outside_transaction() -> Iterator[None]:
    """Outputs written in the block are renamed into place at once, whatever the run does
    later: for a record of what a run already did that cannot be undone by not committing
    (the report of an in-place store update that stopped half-way says which batches the
    store committed).

    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "r.json")
    >>> with output_transaction(), outside_transaction():
    ...     with atomic_output(p, text=True) as f:
    ...         _ = f.write("{}")
    >>> os.path.exists(p)
    True
    """
    token = _RUN.set(None)
    try:
        yield
    finally:
        _RUN.reset(token)


@contextlib.contextmanager
def output_transaction() -> Iterator[OutputTransaction]:
    """Defer the renames of every :func:`atomic_output` in the block to one commit.

    >>> import os, tempfile
    >>> d = tempfile.mkdtemp(); a, b = os.path.join(d, "a"), os.path.join(d, "b")
    >>> with output_transaction() as run:
    ...     with atomic_output(a, text=True) as f:
    ...         _ = f.write("1")
    ...     os.path.exists(a)
    False
    >>> os.path.exists(a)  # left without commit(): nothing replaced, nothing left
    False
    >>> with output_transaction() as run:
    ...     for p in (a, b):
    ...         with atomic_output(p, text=True) as f:
    ...             _ = f.write("2")
    ...     run.commit()
    >>> import pathlib
    >>> pathlib.Path(a).read_text(), pathlib.Path(b).read_text()
    ('2', '2')
    """
    run = _Run()
    token = _RUN.set(run)
    try:
        yield OutputTransaction(run)
    finally:
        _RUN.reset(token)
        run.discard()


# -- temporary files -------------------------------------------------------------------------
# An output is written to a file that nobody else sees until it is complete. On Linux that file
# is anonymous (O_TMPFILE): it has no name, so if the process dies, even by SIGKILL, the kernel
# frees it and nothing is left behind; it is linked under a private name only for the final
# rename. Where O_TMPFILE is missing (other systems, some file systems) the file has a private
# name from the start: ".urnld-<host>-<pid>-<start>-<random>.tmp". The next urnld run that
# writes into the same directory removes such files when their owner process is gone.

_swept: set[str] = set()
_TEMP_NAME = re.compile(r"\.urnld-([0-9a-f]{8})-(\d+)-(\d+)-[0-9a-f]+\.tmp\Z")
_ANONYMOUS_UNSUPPORTED = {errno.EOPNOTSUPP, errno.EISDIR, errno.EINVAL, errno.ENOENT}


class _Anonymous:
    """Whether anonymous temporary files are used (turned off at the first refusal)."""

    supported = hasattr(os, "O_TMPFILE") and os.path.isdir("/proc/self/fd")


def _process_start(pid: int) -> int:
    """When process *pid* started (clock ticks since boot; 0 where /proc cannot say)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            # Field 22, counted after the command name, which may hold spaces and ')'.
            return int(f.read().rpartition(b")")[2].split()[19])
    except (OSError, ValueError, IndexError):
        return 0


def _host() -> str:
    import hashlib
    import socket

    return hashlib.sha1(socket.gethostname().encode("utf-8", "replace")).hexdigest()[:8]


def owner_tag() -> str:
    """``<host>-<pid>-<start>``: which process owns a temporary name (see :func:`owner_gone`).

    >>> import re
    >>> bool(re.fullmatch(r"[0-9a-f]{8}-[0-9]+-[0-9]+", owner_tag()))
    True
    """
    pid = os.getpid()
    return f"{_host()}-{pid}-{_process_start(pid)}"


def owner_gone(tag: str) -> bool:
    """True when the process *tag* (from :func:`owner_tag`) names ran on this host and is gone.

    A process of another host (a shared file system) is never judged gone: it may still run.

    >>> owner_gone(owner_tag())
    False
    """
    host, _, rest = tag.partition("-")
    pid_text, _, start_text = rest.partition("-")
    if host != _host() or not pid_text.isdigit():
        return False
    pid = int(pid_text)
    with contextlib.suppress(PermissionError, OverflowError):  # alive, another user's
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
    # Alive: the same process, unless the pid was reused since (another start time).
    start = _process_start(pid)
    return start_text.isdigit() and start != 0 and int(start_text) not in (0, start)


def sweep_temporary(directory: str) -> None:
    """Remove the named temporary outputs in *directory* whose owner process is gone.

    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> dead = d / f".urnld-{_host()}-{2**22 + 1}-1-00.tmp"   # above any Linux pid_max
    >>> mine = d / f".urnld-{owner_tag()}-00.tmp"
    >>> _ = dead.write_bytes(b""), mine.write_bytes(b"")
    >>> sweep_temporary(str(d))
    >>> sorted(p.name == mine.name for p in d.iterdir())
    [True]
    """
    try:
        entries = list(os.scandir(directory or "."))
    except OSError:
        return
    for entry in entries:
        m = _TEMP_NAME.match(entry.name)
        if m is None or not owner_gone(f"{m[1]}-{m[2]}-{m[3]}"):
            continue
        with contextlib.suppress(OSError):
            if entry.is_file(follow_symlinks=False):
                os.unlink(entry.path)


def sweep_once(directory: str) -> None:
    """:func:`sweep_temporary` of *directory*, once per directory and process: a job writing
    thousands of pieces into one directory must not list it thousands of times.

    >>> import tempfile
    >>> sweep_once(tempfile.gettempdir())
    """
    if directory not in _swept:
        _swept.add(directory)
        sweep_temporary(directory)


def _private_name(directory: str) -> str:
    import secrets  # only where O_TMPFILE is missing: most runs never need a random name

    return os.path.join(directory, f".urnld-{owner_tag()}-{secrets.token_hex(6)}.tmp")


def _create_temporary(directory: str) -> tuple[int, str | None]:
    """A new file for writing in *directory*: ``(fd, None)`` for an anonymous one, else
    ``(fd, its private name)``."""
    if _Anonymous.supported:
        try:
            flags = os.O_TMPFILE | os.O_WRONLY | getattr(os, "O_CLOEXEC", 0)
            return os.open(directory or ".", flags, 0o600), None
        except OSError as e:
            if e.errno not in _ANONYMOUS_UNSUPPORTED or not os.path.isdir(directory or "."):
                raise
            # This file system has no anonymous files: named ones from now on.
            _Anonymous.supported = False
    while True:
        name = _private_name(directory)
        try:
            flags = os.O_CREAT | os.O_EXCL | os.O_WRONLY | getattr(os, "O_CLOEXEC", 0)
            return os.open(name, flags, 0o600), name
        except FileExistsError:
            continue


def _name_anonymous(fd: int, directory: str) -> str:
    """Give the anonymous file *fd* a private name in *directory* (``linkat`` through /proc)."""
    # A directory descriptor makes os.link call linkat(AT_SYMLINK_FOLLOW), which follows the
    # /proc link to the file itself; plain link() would link the /proc entry (EXDEV).
    dir_fd = os.open(directory or ".", os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        while True:
            name = _private_name(directory)
            try:
                os.link(f"/proc/self/fd/{fd}", os.path.basename(name), dst_dir_fd=dir_fd,
                        follow_symlinks=True)
                return name
            except FileExistsError:
                continue
    finally:
        os.close(dir_fd)


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
