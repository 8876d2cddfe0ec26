"""No process outlives the command; SIGTERM and SIGHUP take the Ctrl-C path."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(
    not Path("/proc/self/task").exists(), reason="needs Linux /proc to find the workers"
)

URNLD = [sys.executable, "-c", "import sys; from urnld.cli import main; sys.exit(main())"]
LINE = b'<URN:EXAMPLE:%d> <http://e/p> "some literal to fill the chunk %d" .\n'


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/status") as f:
            state = next(line for line in f if line.startswith("State:"))
    except (FileNotFoundError, ProcessLookupError, StopIteration):
        return False
    return "Z" not in state.split()[1]  # a zombie has exited


def _start_stuck_run(
    tmp_path: Path, descendants: Callable[[int], set[int]]
) -> tuple[subprocess.Popen[bytes], set[int]]:
    """``urnld canonicalize - -j 2`` fed 3 MiB on stdin, then left waiting for more."""
    proc = subprocess.Popen(
        [*URNLD, "canonicalize", "-", "--input-format", "nt", "-o", str(tmp_path / "out.nt"),
         "-j", "2"],
        stdin=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path,
    )
    assert proc.stdin is not None
    proc.stdin.write(b"".join(LINE % (i, i) for i in range(50_000)))
    proc.stdin.flush()
    deadline = time.monotonic() + 60
    workers: set[int] = set()
    while time.monotonic() < deadline:
        workers = descendants(proc.pid)
        if len(workers) >= 2:
            break
        time.sleep(0.1)
    assert len(workers) >= 2, "the workers did not start"
    return proc, workers


def _wait_gone(pids: set[int], seconds: float) -> set[int]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        left = {p for p in pids if _alive(p)}
        if not left:
            return left
        time.sleep(0.1)
    return {p for p in pids if _alive(p)}


@pytest.mark.slow
def test_workers_end_when_the_parent_is_killed(
    tmp_path: Path, descendants: Callable[[int], set[int]]
) -> None:
    proc, workers = _start_stuck_run(tmp_path, descendants)
    proc.kill()  # SIGKILL: no handler, no finally
    proc.wait()
    left = _wait_gone(workers, 5)
    for pid in left:  # do not leave them behind even when the test fails
        os.kill(pid, signal.SIGKILL)
    assert proc.stdin is not None and proc.stderr is not None
    proc.stdin.close()
    proc.stderr.close()  # (a surviving worker would hold it open: read nothing from it)
    assert not left, "worker processes outlived their parent"


@pytest.mark.slow
@pytest.mark.parametrize(("signame", "code"), [("SIGTERM", 143), ("SIGHUP", 129)])
def test_sigterm_and_sighup_take_the_interrupt_path(
    tmp_path: Path, signame: str, code: int, descendants: Callable[[int], set[int]]
) -> None:
    proc, workers = _start_stuck_run(tmp_path, descendants)
    proc.send_signal(getattr(signal, signame))
    _, err = proc.communicate(timeout=30)
    left = _wait_gone(workers, 5)
    for pid in left:  # do not leave them behind even when the test fails
        os.kill(pid, signal.SIGKILL)
    assert proc.returncode == code
    assert err.decode().strip().splitlines() == [f"urnld canonicalize: stopped by {signame}"]
    assert not left
    assert list(tmp_path.iterdir()) == []  # the temporary output is removed


def test_jobs_are_capped_by_the_chunks_and_a_maximum(monkeypatch: pytest.MonkeyPatch) -> None:
    import urnld.stream._workers as workers
    from urnld.report import CanonicalizeReport

    started: list[int] = []
    real_start = workers._start

    def spy(jobs: int, *rest: object) -> object:  # (jobs, kind, options)
        started.append(jobs)
        return real_start(jobs, *rest)  # type: ignore[arg-type]

    monkeypatch.setattr(workers, "_start", spy)
    monkeypatch.setattr(workers, "MAX_JOBS", 3)  # the real one (64) would fork 64 processes
    out = b"".join(workers.canonicalize_chunks(
        [b"<URN:EXAMPLE:a> <http://e/p> <urn:example:b> .\n"], jobs=2000,
        report=CanonicalizeReport(),
    ))
    assert out == b"<urn:example:a> <http://e/p> <urn:example:b> .\n"
    many = [b"<urn:example:a> <http://e/p> <urn:example:b> .\n"] * 100
    b"".join(workers.canonicalize_chunks(many, jobs=2000, report=CanonicalizeReport()))
    assert started == [1, workers.MAX_JOBS]
