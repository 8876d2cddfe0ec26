"""The streaming canonicalization on several processes, output in input order.

The per-line work of the streaming passes is Python code, so one process uses one core. Here the
input's chunks (whole lines, ~1 MiB) go to worker processes, each with its own term caches and
its own report; the output chunks are written back in input order, and the reports are merged
at the end (report merging is exact and order-independent, so the result equals the one-process
report). Memory stays bounded: each worker holds at most one chunk.

>>> from urnld.report import CanonicalizeReport
>>> report = CanonicalizeReport()
>>> chunks = [b"<URN:EXAMPLE:a> <http://e/p> <urn:example:a> .\\n",
...           b"_:b <http://e/p> <URN:ISBN:0-395-36341-1> .\\n"]
>>> out = b"".join(canonicalize_chunks(chunks, jobs=2, report=report))
>>> out.splitlines()
[b'<urn:example:a> <http://e/p> <urn:example:a> .', b'_:b <http://e/p> <urn:isbn:0395363411> .']
>>> report.statements_in, report.rewritten
(2, 2)
"""

from __future__ import annotations

import itertools
import os
import signal
import sys
import threading
import traceback
from collections.abc import Callable, Generator, Iterable
from typing import Any

from .._core import Policy
from .._kernel import DEFAULT_OPTIONS, CanonOptions, handoff_runs
from ..errors import WorkerError
from ..report import CanonicalizeReport, CheckReport
from ._chunks import line_count
from ._grammar import NTriplesSyntaxError
from ._lifeline import watch_parent
from ._passes import DEFAULT_POLICY, CanonPass, CheckPass, OnError

__all__ = ["MAX_JOBS", "MIN_PARALLEL_BYTES", "canonicalize_chunks", "check_chunks", "default_jobs"]

# What a worker runs: kind ("canonicalize" or "check") and (source, on_error, (max_examples,
# memory_budget) of its report, the canonicalization options: what the rewrite does, and the
# policy both passes judge by).
_Options = tuple[str, OnError, tuple[int, int], CanonOptions]

#: Below this many input bytes a second process costs more than it saves.
MIN_PARALLEL_BYTES = 8 << 20
#: The most worker processes one run starts, whatever ``jobs`` asks for.
MAX_JOBS = 64
# How long the parent waits for a result before checking that the workers are alive.
_POLL_SECONDS = 1.0


def default_jobs(size: int | None) -> int:
    """Worker processes for an input of *size* bytes (None: unknown): 1 for small inputs.

    >>> default_jobs(1000)
    1
    """
    if size is not None and size < MIN_PARALLEL_BYTES:
        return 1
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return max(1, min(cpus or 1, 8))


def _context() -> Any:
    import multiprocessing  # here: one process (small inputs) never needs it

    # fork starts a worker in milliseconds with urnld already imported; it is unsafe with other
    # threads running (and unavailable off POSIX), where spawn is the safe choice.
    if (
        sys.platform != "win32"
        and sys.platform != "darwin"
        and threading.active_count() == 1
        and "fork" in multiprocessing.get_all_start_methods()
    ):
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


def _new_report(kind: str, options: _Options) -> CanonicalizeReport | CheckReport:
    _source, _on_error, (max_examples, budget), canon = options
    if kind == "check":
        return CheckReport(max_examples=max_examples, memory_budget=budget)
    return CanonicalizeReport(
        ignore_components=canon.ignore_components, literals=canon.literals,
        max_examples=max_examples, memory_budget=budget,
    )


def _new_pass(kind: str, report: CanonicalizeReport | CheckReport,
              options: _Options) -> CanonPass | CheckPass:
    canon = options[3]
    if isinstance(report, CheckReport):
        return CheckPass(report, canon.policy)
    return CanonPass(report, canon)


def _worker(conn: Any, kind: str, options: _Options, parent: int) -> None:
    # Ctrl-C is the parent's to handle (it stops the workers); a worker must not print a
    # traceback of its own. SIGTERM (how the parent stops a worker) and SIGHUP end it quietly,
    # whatever handlers a forked worker inherited. A worker whose parent is killed ends too.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_DFL)
    watch_parent(parent)
    source, on_error = options[0], options[1]
    report = _new_report(kind, options)
    state = _new_pass(kind, report, options)
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):  # the parent is gone: nobody wants the rest
            return
        if task is None:
            break
        lineno, chunk = task
        before = report.statements_in
        try:
            out = state.run_chunk(chunk, lineno, source, on_error)
        except NTriplesSyntaxError as e:
            conn.send(("error", e))
            continue
        except BaseException:  # a bug, not bad input: hand the traceback to the parent
            conn.send(("crash", traceback.format_exc()))
            return
        # The check pass's output is not kept: sending it would copy the input over the pipe.
        conn.send(("out", (b"" if kind == "check" else out, report.statements_in - before)))
    state.flush()
    with handoff_runs():  # spilled runs go to the parent by name, not read into memory
        conn.send(("report", report))


def _start(jobs: int, kind: str, options: _Options) -> tuple[list[Any], list[Any]]:
    """Start *jobs* workers: their processes and the parent's ends of their pipes.

    Both lists are empty when no process can be started: a daemonic process (a
    ``multiprocessing.Pool`` worker) may not have children, and process limits or a sandbox may
    refuse them.
    """
    import multiprocessing

    procs: list[Any] = []
    conns: list[Any] = []
    if multiprocessing.current_process().daemon:
        return procs, conns
    ctx = _context()
    try:
        for _ in range(jobs):
            parent, child = ctx.Pipe()
            conns.append(parent)
            proc = ctx.Process(
                target=_worker, args=(child, kind, options, os.getpid()), daemon=True
            )
            proc.start()
            child.close()
            procs.append(proc)
    except OSError:
        for proc in procs:
            proc.terminate()
            proc.join()
        for conn in conns:
            conn.close()
        return [], []
    return procs, conns


def canonicalize_chunks(
    chunks: Iterable[bytes],
    *,
    jobs: int,
    report: CanonicalizeReport,
    source: str = "<stdin>",
    on_error: OnError = "raise",
    options: CanonOptions = DEFAULT_OPTIONS,
    on_progress: Callable[[int], None] | None = None,
) -> Generator[bytes, None, None]:
    """Yield the output of each chunk (whole lines) in order, computed by *jobs* processes
    (or in this process when none can be started).

    The counts go into *report* once all chunks are done. When a malformed line stops the run
    (``on_error="raise"``), its :class:`~urnld.stream.NTriplesSyntaxError` is raised in input
    order and *report* holds the error but not the counts (the output is discarded anyway).
    ``on_progress(statements)`` is called as chunks complete.
    """
    return _run_chunks(
        "canonicalize", chunks, jobs=jobs, report=report,
        options=(source, on_error, (report.max_examples, report.memory_budget), options),
        on_progress=on_progress,
    )


def check_chunks(
    chunks: Iterable[bytes],
    *,
    jobs: int,
    report: CheckReport,
    source: str = "<stdin>",
    on_error: OnError = "report",
    on_progress: Callable[[int], None] | None = None,
    policy: Policy = DEFAULT_POLICY,
) -> None:
    """Check the URNs of each chunk (whole lines) on *jobs* processes, as
    :func:`canonicalize_chunks` rewrites them (without output); the counts go into *report*.

    >>> from urnld.report import CheckReport
    >>> r = CheckReport()
    >>> check_chunks([b"<URN:ISBN:0-395-36341-1> <http://e/p> <urn:x-a:b> .\\n"], jobs=2,
    ...              report=r)
    >>> r.statements_in, sorted(r.invalid)
    (1, ['urn:x-a:b'])
    """
    for _ in _run_chunks("check", chunks, jobs=jobs, report=report,
                         options=(source, on_error, (report.max_examples, report.memory_budget),
                                  CanonOptions(literals=True, policy=policy)),
                         on_progress=on_progress):
        pass


def _run_chunks(
    kind: str,
    chunks: Iterable[bytes],
    *,
    jobs: int,
    report: CanonicalizeReport | CheckReport,
    options: _Options,
    on_progress: Callable[[int], None] | None,
) -> Generator[bytes, None, None]:
    source, on_error = options[0], options[1]
    # No more workers than chunks to give them (the first ones are read to know), nor than
    # MAX_JOBS: "-j 2000" on a one-line file starts one process, not 2000.
    it = iter(chunks)
    first = list(itertools.islice(it, min(jobs, MAX_JOBS)))
    jobs = max(1, len(first))
    chunks = itertools.chain(first, it)
    procs, conns = _start(jobs, kind, options)
    if not procs:
        # No worker processes to be had: the same work in this process.
        state = _new_pass(kind, report, options)
        for out in state.run(chunks, source, 1, on_error):
            if on_progress is not None:
                on_progress(report.statements_in)
            yield out
        return
    try:
        def receive(i: int) -> tuple[str, Any]:
            """Worker *i*'s next message; a dead worker is an error, not a hang."""
            while not conns[i].poll(_POLL_SECONDS):
                if not procs[i].is_alive():
                    raise WorkerError("a canonicalization worker process died")
            try:
                kind, payload = conns[i].recv()
            except EOFError:
                raise WorkerError("a canonicalization worker process died") from None
            if kind == "crash":
                raise WorkerError(f"a canonicalization worker failed:\n{payload}")
            return kind, payload

        statements = 0

        def collect(i: int) -> bytes:
            """Worker *i*'s output for its chunk (raising the chunk's syntax error)."""
            nonlocal statements
            kind, payload = receive(i)
            if kind == "error":
                report.record_error(payload.source, payload.line, payload.reason)
                raise payload
            out, n = payload
            statements += n
            if on_progress is not None:
                on_progress(statements)
            return out  # type: ignore[no-any-return]

        # Chunk k goes to worker k % jobs, and each worker has at most one chunk: it is idle
        # (reading) whenever it is sent one, and its result is read before it gets the next,
        # so neither side can block the other on a full pipe. Output order is send order.
        busy = [False] * jobs
        lineno = 1
        turn = 0
        for chunk in chunks:
            if busy[turn]:
                yield collect(turn)
            conns[turn].send((lineno, chunk))
            busy[turn] = True
            lineno += line_count(chunk)
            turn = (turn + 1) % jobs
        for _ in range(jobs):
            if busy[turn]:
                yield collect(turn)
            turn = (turn + 1) % jobs
        merged = report
        for i in range(jobs):
            conns[i].send(None)
        for i in range(jobs):
            _kind, worker_report = receive(i)  # the only message left: its report
            merged = merged.merge(worker_report)
        vars(report).update(vars(merged))
    finally:
        for proc in procs:
            if proc.is_alive():
                proc.terminate()
        for proc in procs:
            proc.join()
        for conn in conns:
            conn.close()
