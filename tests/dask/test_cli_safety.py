"""``--engine dask`` on the command line: one clear line, no traceback, nothing left behind."""

from __future__ import annotations

import gzip
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

URNLD = [sys.executable, "-c", "import sys; from urnld.cli import main; sys.exit(main())"]


def _wait_for(condition: Callable[[], bool], proc: subprocess.Popen[str]) -> None:
    """Poll *condition* until it holds or the command ended: a condition, never a fixed time
    (the deadline only stops a hang, on a machine as loaded as it may be)."""
    deadline = time.monotonic() + 300
    while not condition() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)


def _ignores_sigint(pid: int) -> bool:
    """Whether process *pid* ignores SIGINT (a worker once urnld's preload ran in it)."""
    try:
        with open(f"/proc/{pid}/status") as f:
            fields = dict(line.split(":", 1) for line in f if ":" in line)
    except OSError:
        return False
    return bool(int(fields.get("SigIgn", "0").strip(), 16) & (1 << (signal.SIGINT - 1)))


def _big(path: Path, copies: int) -> None:
    block = b"".join(
        b'<URN:EXAMPLE:%d> <http://e/p> "a literal of some length %d" .\n' % (i, i)
        for i in range(20_000)
    )
    with open(path, "wb") as f:
        for _ in range(copies):
            f.write(block)


def _run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*URNLD, *args], cwd=cwd, capture_output=True, text=True, timeout=180, check=False
    )


@pytest.mark.slow
def test_a_failing_task_is_one_line_naming_the_file_and_leaves_no_scratch_space(tmp_path):
    data = b"".join(b'<urn:example:%d> <http://e/p> "x" .\n' % i for i in range(3000))
    (tmp_path / "trunc.nt.gz").write_bytes(gzip.compress(data)[:200])
    done = _run(["canonicalize", "trunc.nt.gz", "-o", "out.nt", "--engine", "dask"], tmp_path)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr  # not distributed's "Compute Failed" block
    assert "trunc.nt.gz" in lines[0] and "gzip" in lines[0]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["trunc.nt.gz"]  # no dask-scratch-space


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux /proc")
def test_ctrl_c_prints_one_line_and_no_worker_traceback(tmp_path, descendants):
    # Big enough (~200 MB) that the job is still running after the cluster's start-up.
    block = b"".join(
        b'<URN:EXAMPLE:%d> <http://e/p> "a literal of some length %d" .\n' % (i, i)
        for i in range(20_000)
    )
    with open(tmp_path / "big.nt", "wb") as f:
        for _ in range(150):
            f.write(block)
    # The pure-Python path: the compiled accelerator can finish this file before the cluster's
    # start-up is over, and what is tested here is the interruption, not the speed.
    env = {**os.environ, "URNLD_PURE_PYTHON": "1"}
    proc = subprocess.Popen(
        [*URNLD, "canonicalize", "big.nt", "-o", "out.nt", "--engine", "dask", "--workers", "1"],
        cwd=tmp_path, stderr=subprocess.PIPE, text=True, start_new_session=True, env=env,
    )
    # Ctrl-C once a worker process runs, deaf to it (a terminal signals the whole group).
    _wait_for(lambda: any(_ignores_sigint(p) for p in descendants(proc.pid)), proc)
    if proc.poll() is not None:
        proc.communicate()
        pytest.fail("the job finished before it could be interrupted")
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert err.strip().splitlines() == ["urnld canonicalize: interrupted"]
    assert not (tmp_path / "dask-scratch-space").exists()


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux /proc")
@pytest.mark.parametrize("wait_for", [1, 2], ids=["starting", "started"])
def test_sighup_prints_one_line_and_no_traceback(tmp_path, descendants, wait_for):
    # SIGHUP (a closed terminal) while the cluster starts (its first process is up) and once
    # it runs: a signal during the start-up once cut the cluster's constructor short, and
    # distributed's exit hook printed a traceback closing the half-built cluster.
    block = b"".join(
        b'<URN:EXAMPLE:%d> <http://e/p> "a literal of some length %d" .\n' % (i, i)
        for i in range(20_000)
    )
    with open(tmp_path / "big.nt", "wb") as f:
        for _ in range(40):
            f.write(block)
    env = {**os.environ, "URNLD_PURE_PYTHON": "1"}
    proc = subprocess.Popen(
        [*URNLD, "canonicalize", "big.nt", "-o", "out", "--engine", "dask", "--workers", "1"],
        cwd=tmp_path, stderr=subprocess.PIPE, text=True, env=env,
    )
    deadline = time.monotonic() + 60
    while (len(descendants(proc.pid)) < wait_for and proc.poll() is None
           and time.monotonic() < deadline):
        time.sleep(0.02)
    if proc.poll() is not None:
        proc.communicate()
        pytest.fail("the job finished before the signal")
    proc.send_signal(signal.SIGHUP)
    _, err = proc.communicate(timeout=120)
    assert "Traceback" not in err, err
    assert err.strip().splitlines() == ["urnld canonicalize: stopped by SIGHUP"]
    assert proc.returncode == 129
    assert sorted(p.name for p in tmp_path.iterdir()) == ["big.nt"]  # no output, no temp dir


def _semaphores(pid: int) -> list[str]:
    """The POSIX semaphores of job *pid* in /dev/shm (named after it, see urnld.dask)."""
    return [n for n in os.listdir("/dev/shm") if n.startswith("sem.mp-urnld-")
            and n.split("-")[3] == str(pid)]


@pytest.mark.slow
@pytest.mark.skipif(not Path("/dev/shm").is_dir(), reason="needs Linux /proc and /dev/shm")
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP],
                         ids=["SIGINT", "SIGTERM", "SIGHUP"])
def test_a_signal_during_the_cluster_start_up_stops_the_run(tmp_path, descendants, sig):
    # issue 38: Ctrl-C while the cluster started was lost (the run went on, exited 0 and wrote
    # its output); SIGHUP to the group printed 51 lines of resource_tracker tracebacks.
    _big(tmp_path / "big.nt", 60)
    env = {**os.environ, "URNLD_PURE_PYTHON": "1"}
    proc = subprocess.Popen(
        [*URNLD, "canonicalize", "big.nt", "-o", "out", "--engine", "dask", "--workers", "1"],
        cwd=tmp_path, stderr=subprocess.PIPE, text=True, start_new_session=True, env=env,
    )
    # The start-up has begun once the command has a child (the first process the cluster
    # needs), and no worker is running yet.
    _wait_for(lambda: bool(descendants(proc.pid)), proc)
    if proc.poll() is not None:
        proc.communicate()
        pytest.fail("the job finished before it could be signalled")
    os.killpg(proc.pid, sig)
    _, err = proc.communicate(timeout=300)
    name = signal.Signals(sig).name
    expected = "interrupted" if sig == signal.SIGINT else f"stopped by {name}"
    assert err.strip().splitlines() == [f"urnld canonicalize: {expected}"], err
    assert proc.returncode == 128 + sig
    assert sorted(p.name for p in tmp_path.iterdir()) == ["big.nt"]  # no output, no temp dir
    assert _semaphores(proc.pid) == []


@pytest.mark.slow
@pytest.mark.skipif(not Path("/dev/shm").is_dir(), reason="needs Linux /proc and /dev/shm")
def test_the_semaphores_of_a_killed_job_are_removed_by_the_next(tmp_path, descendants):
    # issue 38: SIGKILL of a Dask job's process group left its semaphores in /dev/shm (its
    # resource tracker, which removes them, died with it), and no later run removed them.
    _big(tmp_path / "big.nt", 60)
    env = {**os.environ, "URNLD_PURE_PYTHON": "1"}
    proc = subprocess.Popen(
        [*URNLD, "canonicalize", "big.nt", "-o", "out", "--engine", "dask", "--workers", "1"],
        cwd=tmp_path, stderr=subprocess.DEVNULL, start_new_session=True, env=env,
    )
    _wait_for(lambda: bool(_semaphores(proc.pid))
              and any(_ignores_sigint(p) for p in descendants(proc.pid)), proc)
    if proc.poll() is not None:
        pytest.fail("the job finished before it could be killed")
    left = _semaphores(proc.pid)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=60)
    assert _semaphores(proc.pid) == left != []  # what SIGKILL leaves
    (tmp_path / "small.nt").write_bytes(b'<URN:EXAMPLE:a> <http://e/p> "x" .\n')
    done = _run(["canonicalize", "small.nt", "-o", "small.out", "--engine", "dask",
                 "--workers", "1"], tmp_path)
    assert done.returncode == 0, done.stderr
    assert _semaphores(proc.pid) == []
