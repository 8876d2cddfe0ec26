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
from contextlib import ExitStack, contextmanager, suppress
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


# The POSIX semaphores multiprocessing makes for a local cluster (/dev/shm/sem.<name>): named
# after this process, so that the next job removes those of a job killed outright (SIGKILL of
# its process group takes its resource tracker, which would have removed them, along).
_SEM_PREFIX = "mp-urnld-"
_SEM_NAME = re.compile(r"sem\.mp-urnld-([0-9a-f]{8}-[0-9]+-[0-9]+)-")
_SHM = "/dev/shm"


def _name_semaphores() -> None:
    """Sweep the semaphores of gone urnld jobs, and name this process's after it."""
    import multiprocessing

    sweep_semaphores(_SHM)
    # multiprocessing names a semaphore "<semprefix>-<random>"; the prefix is per process.
    config = getattr(multiprocessing.current_process(), "_config", None)
    if isinstance(config, dict):
        config["semprefix"] = f"/{_SEM_PREFIX}{owner_tag()}"


def sweep_semaphores(directory: str) -> None:
    """Remove the semaphores urnld jobs left in *directory* whose owner process is gone.

    >>> import pathlib, tempfile
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> host = owner_tag().split("-")[0]
    >>> gone = d / f"sem.mp-urnld-{host}-4194305-1-abc"   # a pid above any Linux pid_max
    >>> mine = d / f"sem.mp-urnld-{owner_tag()}-abc"     # this process's: alive
    >>> other = d / "sem.mp-abc"                          # not urnld's: not ours to judge
    >>> for p in (gone, mine, other): _ = p.write_bytes(b"")
    >>> sweep_semaphores(str(d))
    >>> sorted(p.name for p in d.iterdir()) == sorted([mine.name, other.name])
    True
    """
    try:
        entries = list(os.scandir(directory))
    except OSError:
        return
    for entry in entries:
        m = _SEM_NAME.match(entry.name)
        if m is not None and owner_gone(m[1]):
            with suppress(OSError):
                os.unlink(entry.path)


@contextmanager
def _sigint_ignored() -> Iterator[None]:
    """Start the worker processes deaf to Ctrl-C, and hold Ctrl-C, SIGTERM and SIGHUP back
    until the cluster is up; then they take their course.

    Ctrl-C reaches every process of the terminal's process group, and each worker would print a
    traceback: the workers are started with SIGINT *blocked* (a signal mask is inherited by the
    processes started meanwhile, and kept across ``exec``; the preload then ignores it), so only
    this process sees Ctrl-C and stops the cluster. Here it is blocked too, not ignored, so a
    Ctrl-C during the start-up stays pending and is delivered once the mask is lifted (an
    ignored one would be lost, and the job would run on to exit 0).

    SIGTERM and SIGHUP (which the command turns into a clean stop) must not be lost, but must not
    cut the cluster's constructor short either: a half-built cluster is not ours to close, and
    distributed's own exit hook then fails on it with a traceback. They are noted, and delivered
    to the caller's handler once the cluster is up (and in the caller's hands to close).
    """
    held: list[int] = []

    def hold(signum: int, _frame: object) -> None:
        held.append(signum)

    # multiprocessing's resource tracker unblocks SIGINT in the thread that first starts it
    # (its ensure_running()): with the cluster's event loop thread doing so, the workers it
    # starts would hear Ctrl-C. Started here first, it is running when the cluster asks.
    # It is started with SIGHUP blocked (it unblocks only SIGINT and SIGTERM, which it
    # ignores): a closed terminal's SIGHUP to the process group would kill it, and this process
    # would relaunch it with a warning and tracebacks while stopping.
    from multiprocessing import resource_tracker

    _name_semaphores()
    hup = {signal.SIGHUP} if hasattr(signal, "SIGHUP") else set()
    try:
        before = signal.pthread_sigmask(signal.SIG_BLOCK, hup)
    except ValueError:  # pragma: no cover - pthread_sigmask exists on every POSIX system
        before = None
    try:
        resource_tracker.ensure_running()
    finally:
        if before is not None and not (hup & before):
            signal.pthread_sigmask(signal.SIG_UNBLOCK, hup)  # a SIGHUP meanwhile: delivered
    previous: dict[int, Any] = {}
    sigint = signal.SIGINT
    try:
        # A handler, not SIG_IGN: an ignored signal is discarded, a blocked one waits.
        previous[sigint] = signal.signal(sigint, hold)
        for name in ("SIGTERM", "SIGHUP"):
            sig = getattr(signal, name, None)
            if sig is not None:
                previous[sig] = signal.signal(sig, hold)
    except ValueError:  # not the main thread: signals are not ours to change
        yield
        return
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, {sigint})
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        if sigint not in mask:
            # A Ctrl-C pending since the start-up reaches the restored handler here.
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {sigint})
        if held:
            handler = previous[held[0]]
            if callable(handler):
                handler(held[0], None)
            elif handler == signal.SIG_DFL:
                os.kill(os.getpid(), held[0])
