"""``--engine dask`` on the command line: one clear line, no traceback, nothing left behind."""

from __future__ import annotations

import gzip
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

URNLD = [sys.executable, "-c", "import sys; from urnld.cli import main; sys.exit(main())"]


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
    # Ctrl-C once the worker processes run (a terminal signals the whole process group).
    deadline = time.monotonic() + 60
    while len(descendants(proc.pid)) < 2 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(2)  # the cluster's start-up ignores Ctrl-C (its workers must not see it)
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
