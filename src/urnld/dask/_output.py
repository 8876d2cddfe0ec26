"""Output layout and the all-or-nothing commit of the output directory.

Layout: ``OUTDIR`` holds one output file per input, with the input's file name and compression
(``.gz`` in, gzip out) — the layout ``urnld canonicalize IN… -o OUTDIR`` uses. When two inputs
share a file name, the outputs keep the inputs' directories instead, relative to the deepest
directory containing all inputs (``a/x.nt b/x.nt`` give ``OUTDIR/a/x.nt`` and ``OUTDIR/b/x.nt``).

Commit: everything is written under a fresh hidden sibling
``.OUTDIR.urnld-tmp-<owner>-<random>/`` (same file system, so the final step is one ``rename``);
the partition pieces of a split file are concatenated in partition order into the file's output.
Only when every task succeeded is the output renamed to ``OUTDIR`` (within a CLI run's output
transaction, only when the whole run succeeds, with its report and HTML page); the hidden
sibling is deleted in every case. So ``OUTDIR`` either does not exist or is complete, and a
rerun starts from nothing. A process killed outright (SIGKILL) cannot delete its sibling:
``<owner>`` names the process (host, pid, start time), and the next job writing into the same
parent directory removes the siblings whose owner is gone.

>>> output_names(["/d/a/x.nt", "/d/b/x.nt"])
['a/x.nt', 'b/x.nt']
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from .._kernel import defer_to_run, owner_gone, owner_tag
from ..errors import URNError

__all__ = ["OutputDir", "concat", "output_names", "sweep_stale"]

_TMP_TAG = ".urnld-tmp-"
# .OUTDIR.urnld-tmp-<host>-<pid>-<start>-<random>, and the same with -deleted once renamed.
_TMP_NAME = re.compile(
    r"\..*\.urnld-tmp-([0-9a-f]{8}-[0-9]+-[0-9]+)-[A-Za-z0-9_]+(?:-deleted)?\Z", re.DOTALL
)
_CLEANUP_ATTEMPTS = 20


def output_names(paths: Sequence[str]) -> list[str]:
    """Output names (POSIX-style relative paths) for absolute input ``paths``.

    Raises :class:`URNError` if an input is given twice (two outputs would collide).

    >>> output_names(["/d/a/x.nt", "/d/b/y.nt"])
    ['x.nt', 'y.nt']
    """
    seen: set[str] = set()
    for p in paths:
        if p in seen:
            raise URNError(f"input file given twice: {p!r}")
        seen.add(p)
    names = [os.path.basename(p) for p in paths]
    if len(set(names)) == len(names):
        return names
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


def sweep_stale(parent: Path) -> None:
    """Delete the hidden output directories in *parent* left by jobs whose process is gone."""
    try:
        entries = list(os.scandir(parent))
    except OSError:
        return
    for entry in entries:
        m = _TMP_NAME.match(entry.name)
        if m is not None and owner_gone(m[1]) and entry.is_dir(follow_symlinks=False):
            shutil.rmtree(entry.path, ignore_errors=True)


class OutputDir:
    """The temporary directory a job writes into, and its commit to the final ``OUTDIR``.

    A hidden sibling ``.OUTDIR.urnld-tmp-<random>/`` holds ``out/`` (becomes ``OUTDIR``) and
    ``pieces/`` (partition outputs of split files), so piece names can never collide with output
    names. Use as a context manager: leaving it, committed or not, deletes the hidden sibling;
    :meth:`commit` first renames ``out/`` to ``OUTDIR``.

    >>> import tempfile, pathlib
    >>> base = pathlib.Path(tempfile.mkdtemp())
    >>> with OutputDir(base / "out") as o:
    ...     _ = pathlib.Path(o.path("x.nt")).write_bytes(b"")
    ...     o.commit()
    >>> sorted(p.name for p in base.iterdir()), sorted(p.name for p in (base / "out").iterdir())
    (['out'], ['x.nt'])
    """

    def __init__(self, outdir: str | os.PathLike[str]) -> None:
        self.final = Path(outdir).absolute()
        self._check_free()
        self.final.parent.mkdir(parents=True, exist_ok=True)
        sweep_stale(self.final.parent)
        self.root = Path(tempfile.mkdtemp(
            prefix=f".{self.final.name}{_TMP_TAG}{owner_tag()}-", dir=self.final.parent
        ))
        self.out = self.root / "out"
        self.out.mkdir()
        self._deferred = False  # commit() handed the rename to the run's transaction
        # mkdtemp makes its directory 0700; OUTDIR gets the usual umask-based mode of mkdir.

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
        target = self.out / name
        target.parent.mkdir(parents=True, exist_ok=True)
        return str(target)

    def piece(self, file_index: int, number: int) -> str:
        """Temporary path of partition ``number`` of input ``file_index``."""
        target = self.root / "pieces" / str(file_index) / f"{number:06d}"
        target.parent.mkdir(parents=True, exist_ok=True)
        return str(target)

    def commit(self) -> None:
        """Move the finished output into place (one ``rename``) — within
        :func:`urnld._kernel.output_transaction` (a CLI run), only when the whole run commits,
        with its other outputs: until then the hidden sibling outlives this context."""
        self._check_free()
        if defer_to_run(self._rename, self.cleanup):
            self._deferred = True
            return
        self._rename()

    def _rename(self) -> None:
        self._check_free()
        # rename() replaces a missing or empty directory atomically on POSIX and fails
        # (ENOTEMPTY) if something appeared there meanwhile.
        os.rename(self.out, self.final)

    def cleanup(self) -> None:
        """Delete the hidden temporary directory (idempotent)."""
        # After a failure, tasks already running on workers go on (Dask cannot stop a running
        # thread) and keep creating files under the root, so a plain rmtree can lose the race
        # and leave the directory behind. Renamed first, the root is out of their paths: they
        # fail instead of writing, and only a file created in the instant of the rename can
        # still land in it, which the retries remove.
        doomed = self.root.with_name(self.root.name + "-deleted")
        try:
            os.rename(self.root, doomed)
        except FileNotFoundError:
            if not doomed.exists():
                return  # already cleaned up
        except OSError:
            doomed = self.root
        for attempt in range(_CLEANUP_ATTEMPTS):
            shutil.rmtree(doomed, ignore_errors=True)
            if not doomed.exists():
                return
            time.sleep(0.01 * (attempt + 1))

    def __enter__(self) -> OutputDir:
        return self

    def __exit__(self, *exc: object) -> None:
        if not self._deferred:  # else the transaction renames or deletes it
            self.cleanup()
