"""Getting a ``distributed.Client``: a fresh local cluster, or an existing scheduler.

``dask.distributed`` is imported here, lazily, and only here: ``import urnld.dask`` works without
the optional dependency, and every entry point raises :class:`DaskNotInstalled` (with the install
command) instead of an ``ImportError``.
"""

from __future__ import annotations

import logging
import os
import re
import shutil
import signal
import tempfile
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from types import ModuleType
from typing import Any

from .._kernel import owner_gone, owner_tag
from ..errors import URNError
from ._errors import DaskJobError, DaskNotInstalled, positive_int

__all__ = ["check_cluster_args", "client_for", "require_distributed"]

# How long to wait for an existing scheduler before giving up with a clear message.
_CONNECT_TIMEOUT_S = 30

# urnld-dask-<host>-<pid>-<start>-<random>: the scratch directory of a local cluster, named
# after the process that made it (see owner_tag).
_SCRATCH_PREFIX = "urnld-dask-"
_SCRATCH_NAME = re.compile(r"urnld-dask-([0-9a-f]{8}-[0-9]+-[0-9]+)-[A-Za-z0-9_]+\Z")


def sweep_scratch(parent: str) -> None:
    """Delete the local clusters' scratch directories in *parent* whose owner process is
    gone (a job killed outright, by SIGKILL, runs no cleanup of its own).

    >>> import pathlib, tempfile
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> host = owner_tag().split("-")[0]
    >>> gone = d / f"urnld-dask-{host}-4194305-1-x"     # a pid above any Linux pid_max
    >>> other = d / "urnld-dask-00000000-4194305-1-x"  # another machine's: not ours to judge
    >>> mine = d / f"urnld-dask-{owner_tag()}-x"        # this process's: alive
    >>> for p in (gone, other, mine): p.mkdir()
    >>> sweep_scratch(str(d))
    >>> sorted(p.name for p in d.iterdir()) == sorted([other.name, mine.name])
    True
    """
    try:
        entries = list(os.scandir(parent))
    except OSError:
        return
    for entry in entries:
        m = _SCRATCH_NAME.match(entry.name)
        if m is not None and owner_gone(m[1]) and entry.is_dir(follow_symlinks=False):
            shutil.rmtree(entry.path, ignore_errors=True)


@contextmanager
def scratch_directory() -> Iterator[str]:
    """A private directory for a local cluster's worker files, removed at the end; one left
    by a killed job is removed by the next job (:func:`sweep_scratch`).

    It lives in the temp dir (``TMPDIR``), named after this process, so that the next job can
    tell whether its owner is still running.

    >>> with scratch_directory() as d:
    ...     os.path.isdir(d), os.path.basename(d).startswith(_SCRATCH_PREFIX)
    (True, True)
    >>> os.path.exists(d)
    False
    """
    parent = tempfile.gettempdir()
    sweep_scratch(parent)
    path = tempfile.mkdtemp(prefix=f"{_SCRATCH_PREFIX}{owner_tag()}-", dir=parent)
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


def require_distributed() -> ModuleType:
    """Import and return ``distributed``, or raise :class:`DaskNotInstalled`."""
    try:
        import distributed  # optional dependency, imported on use
    except ImportError as e:
        raise DaskNotInstalled(str(e)) from None
    return distributed


def check_cluster_args(workers: int | None, scheduler: str | None) -> int:
    """Validate ``workers``/``scheduler``; return the local cluster size to start."""
    if workers is not None and scheduler is not None:
        raise URNError(
            "give either workers (start a local cluster) or scheduler (use an existing one), "
            "not both"
        )
    if workers is None:
        return os.cpu_count() or 1
    return positive_int(workers, "workers")


@contextmanager
def client_for(workers: int | None, scheduler: str | None) -> Iterator[Any]:
    """Yield a connected ``distributed.Client``; close what was started here on exit.

    * ``scheduler="tcp://host:8786"``: connect to that cluster (it is left running).
    * otherwise: start a ``LocalCluster`` of ``workers`` processes (default: one per CPU) with one
      thread each — the work is pure Python, so threads would only fight over the GIL — with its
      HTTP endpoint on a random free port (start your own cluster to watch its dashboard).

    Raises :class:`DaskNotInstalled`, :class:`DaskJobError` when the scheduler cannot be reached,
    or :class:`URNError` for bad arguments.
    """
    n_workers = check_cluster_args(workers, scheduler)
    distributed = require_distributed()
    if scheduler is not None:
        try:
            client = distributed.Client(scheduler, timeout=_CONNECT_TIMEOUT_S)
        except (OSError, ValueError) as e:
            # OSError covers refused connections and timeouts; ValueError bad address syntax.
            raise DaskJobError(f"cannot connect to the Dask scheduler at {scheduler!r}: {e}") from e
        with client:
            yield client
        return
    with ExitStack() as stack:
        # Worker spill files go to a private directory removed at the end (distributed's default
        # is a dask-scratch-space/ in the current directory, left behind).
        # It is named after this process: a job killed outright leaves it, and the next job
        # removes it.
        scratch = stack.enter_context(scratch_directory())
        # The scheduler's own files too (its default: dask-scratch-space/ in the temp dir).
        import dask.config

        stack.enter_context(dask.config.set({"temporary-directory": scratch}))
        with _sigint_ignored():
            cluster = stack.enter_context(
                distributed.LocalCluster(
                    n_workers=n_workers,
                    threads_per_worker=1,
                    processes=True,
                    # The scheduler always serves HTTP (health, metrics): on a free port, so
                    # that two jobs, or a job next to a running cluster, never collide on 8787.
                    dashboard_address=":0",
                    # A failing task reaches the caller as one DaskJobError; the workers' own
                    # multi-line "Compute Failed" log (level ERROR) would only repeat it.
                    silence_logs=logging.CRITICAL,
                    local_directory=scratch,
                    # Also ignore Ctrl-C in a worker the nanny restarts later.
                    preload=["urnld.dask._preload"],
                )
            )
        yield stack.enter_context(distributed.Client(cluster))


@contextmanager
def _sigint_ignored() -> Iterator[None]:
    """Start the worker processes with SIGINT ignored, and SIGTERM/SIGHUP held back.

    Ctrl-C reaches every process of the terminal's process group, and each worker would print a
    traceback. An ignored signal stays ignored across ``exec`` (Python then installs no
    KeyboardInterrupt handler), so only this process sees Ctrl-C and stops the cluster. A Ctrl-C
    during the start-up itself (a second or two) is not seen.

    SIGTERM and SIGHUP (which the command turns into a clean stop) must not be lost, but must not
    cut the cluster's constructor short either: a half-built cluster is not ours to close, and
    distributed's own exit hook then fails on it with a traceback. They are noted, and delivered
    to the caller's handler once the cluster is up (and in the caller's hands to close).
    """
    held: list[int] = []

    def hold(signum: int, _frame: object) -> None:
        held.append(signum)

    previous: dict[int, Any] = {}
    try:
        previous[signal.SIGINT] = signal.signal(signal.SIGINT, signal.SIG_IGN)
        for name in ("SIGTERM", "SIGHUP"):
            sig = getattr(signal, name, None)
            if sig is not None:
                previous[sig] = signal.signal(sig, hold)
    except ValueError:  # not the main thread: signals are not ours to change
        yield
        return
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        if held:
            handler = previous[held[0]]
            if callable(handler):
                handler(held[0], None)
            elif handler == signal.SIG_DFL:
                os.kill(os.getpid(), held[0])
