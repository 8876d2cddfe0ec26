"""Output layout and the all-or-nothing commit of the output directory.

Layout: ``OUTDIR`` holds one output file per input, at the input's path relative to the deepest
directory containing all inputs (so ``a/x.nt b/x.nt`` give ``OUTDIR/a/x.nt`` and
``OUTDIR/b/x.nt``, and a single input ``dumps/x.nt.gz`` gives ``OUTDIR/x.nt.gz``). An output has
the input's name and compression: ``.gz`` in, gzip out; plain in, plain out.

Commit: everything is written into a fresh hidden sibling ``.OUTDIR.urnld-tmp-XXXXXXXX`` (same
file system, so the final step is one ``rename``); the partition pieces of a split file live under
its ``.parts/`` and are concatenated in partition order into the file's output. Only when every
task succeeded is the temporary directory renamed to ``OUTDIR``; on any failure it is deleted. So
``OUTDIR`` either does not exist or is complete, and a rerun starts from nothing.

>>> relative_names(["/d/a/x.nt", "/d/b/x.nt"])
['a/x.nt', 'b/x.nt']
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Sequence
from pathlib import Path

from urnld.errors import URNError

__all__ = ["OutputDir", "concat", "relative_names"]

_TMP_TAG = ".urnld-tmp-"
_PARTS = ".parts"


def relative_names(paths: Sequence[str]) -> list[str]:
    """Output names (POSIX-style relative paths) for absolute input ``paths``.

    Raises :class:`URNError` if an input is given twice (two outputs would collide).

    >>> relative_names(["/d/x.nt"])
    ['x.nt']
    """
    seen: set[str] = set()
    for p in paths:
        if p in seen:
            raise URNError(f"input file given twice: {p!r}")
        seen.add(p)
    parents = [os.path.dirname(p) for p in paths]
    root = os.path.commonpath(parents) if parents else ""
    return [Path(os.path.relpath(p, root)).as_posix() for p in paths]


def concat(pieces: Sequence[str], target: str) -> None:
    """Concatenate ``pieces`` in order into ``target``, deleting each piece once copied.

    Uses ``os.copy_file_range`` (in-kernel copy, no trip through Python buffers) where the OS
    offers it, else ``shutil.copyfileobj``.
    """
    with open(target, "wb") as out:
        for piece in pieces:
            with open(piece, "rb") as src:
                _copy(src.fileno(), out.fileno(), os.fstat(src.fileno()).st_size)
            os.unlink(piece)
        out.flush()
        os.fsync(out.fileno())


def _copy(src: int, dst: int, size: int) -> None:
    copy_range = getattr(os, "copy_file_range", None)
    if copy_range is not None:
        try:
            while size > 0:
                n = copy_range(src, dst, size)
                if n == 0:
                    break
                size -= n
        except OSError:
            # Some file systems (and old kernels across devices) refuse; fall back to read/write.
            pass
        else:
            return
    with open(src, "rb", closefd=False) as s, open(dst, "ab", closefd=False) as d:
        shutil.copyfileobj(s, d, 1 << 20)


class OutputDir:
    """The temporary directory a job writes into, and its commit to the final ``OUTDIR``.

    Use as a context manager: leaving it with an exception deletes the temporary directory;
    :meth:`commit` renames it to ``OUTDIR``.

    >>> import tempfile, pathlib
    >>> base = pathlib.Path(tempfile.mkdtemp())
    >>> with OutputDir(base / "out") as o:
    ...     _ = pathlib.Path(o.path("x.nt")).write_bytes(b"")
    ...     o.commit()
    >>> sorted(p.name for p in (base / "out").iterdir())
    ['x.nt']
    """

    def __init__(self, outdir: str | os.PathLike[str]) -> None:
        self.final = Path(outdir).absolute()
        self._check_free()
        self.final.parent.mkdir(parents=True, exist_ok=True)
        self.tmp = Path(
            tempfile.mkdtemp(prefix=f".{self.final.name}{_TMP_TAG}", dir=self.final.parent)
        )
        # mkdtemp makes the directory 0700; the output should get the usual umask-based mode.
        umask = os.umask(0)
        os.umask(umask)
        self.tmp.chmod(0o777 & ~umask)
        self._done = False

    def _check_free(self) -> None:
        # Refuse to touch an existing non-empty directory: it may be a previous result or
        # unrelated data, and replacing it could not be atomic anyway.
        if self.final.exists() and (not self.final.is_dir() or any(self.final.iterdir())):
            raise URNError(
                f"output directory {str(self.final)!r} already exists and is not empty; "
                "remove it or choose another"
            )

    def path(self, name: str) -> str:
        """Absolute temporary path of output ``name`` (parent directories created)."""
        target = self.tmp / name
        target.parent.mkdir(parents=True, exist_ok=True)
        return str(target)

    def piece(self, file_index: int, number: int) -> str:
        """Temporary path of partition ``number`` of input ``file_index``."""
        return self.path(f"{_PARTS}/{file_index}/{number:06d}")

    def commit(self) -> None:
        """Move the finished output into place (one ``rename``)."""
        shutil.rmtree(self.tmp / _PARTS, ignore_errors=True)
        self._check_free()
        # rename() replaces a missing or empty directory atomically on POSIX and fails
        # (ENOTEMPTY) if something appeared there meanwhile.
        os.rename(self.tmp, self.final)
        self._done = True

    def abort(self) -> None:
        """Delete the temporary directory (idempotent)."""
        if not self._done:
            shutil.rmtree(self.tmp, ignore_errors=True)
            self._done = True

    def __enter__(self) -> OutputDir:
        return self

    def __exit__(self, *exc: object) -> None:
        self.abort()
