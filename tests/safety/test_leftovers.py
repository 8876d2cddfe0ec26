"""Nothing is left behind: not by a run killed outright (SIGKILL), not by one stopped by a signal.

SIGKILL runs no handler and no ``finally``: only a temporary output that has no name (Linux
``O_TMPFILE``) vanishes with the process. Where such files are not available, the temporary
output has a private name that the next run writing into the same directory removes.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from urnld._kernel import _files
from urnld.cli import main

pytestmark = pytest.mark.skipif(
    not Path("/proc/self/fd").exists(), reason="needs Linux /proc to watch the run"
)

URNLD = [sys.executable, "-c", "import sys; from urnld.cli import main; sys.exit(main())"]
LINE = b'<URN:EXAMPLE:%d> <http://e/p> "a literal to make the line longer %d" .\n'


def _open_in(pid: int, directory: Path) -> bool:
    """Whether process *pid* has a file of *directory* open (its temporary output)."""
    try:
        fds = os.listdir(f"/proc/{pid}/fd")
    except OSError:
        return False
    for fd in fds:
        try:
            target = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:
            continue
        if target.startswith(str(directory) + os.sep):
            return True
    return False


def _wait_gone(pids: set[int], seconds: float) -> set[int]:
    deadline = time.monotonic() + seconds
    left = set(pids)
    while left and time.monotonic() < deadline:
        left = {p for p in left if Path(f"/proc/{p}").exists() and not _zombie(p)}
        time.sleep(0.05)
    return left


def _zombie(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f.read().rpartition(b")")[2].split()[0] == b"Z"
    except OSError:
        return True


@pytest.fixture(scope="module")
def big_input(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("input") / "in.nt"
    with path.open("wb") as f:
        for start in range(0, 200_000, 10_000):
            f.write(b"".join(LINE % (i, i) for i in range(start, start + 10_000)))
    return path


@pytest.mark.slow
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_sigkill_mid_run_leaves_no_temporary_file_and_no_process(
    tmp_path: Path, big_input: Path, jobs: str, descendants: Callable[[int], set[int]]
) -> None:
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    # The pure-Python path is slow enough to be caught mid-run on any machine.
    env = {**os.environ, "URNLD_PURE_PYTHON": "1"}
    proc = subprocess.Popen(
        [*URNLD, "canonicalize", str(big_input), "-o", str(out_dir / "out.nt"), "-j", jobs],
        env=env, stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while not _open_in(proc.pid, out_dir) and proc.poll() is None:
            assert time.monotonic() < deadline, "the output was never opened"
            time.sleep(0.01)
        assert proc.poll() is None, "the run ended before it could be killed"
        children = descendants(proc.pid)
        proc.kill()  # SIGKILL: no handler, no finally
        proc.wait(timeout=30)
        left = _wait_gone(children, 10)
        for pid in left:  # never leave them behind, even when the test fails
            os.kill(pid, signal.SIGKILL)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert not left, "worker processes outlived the killed command"
    assert sorted(p.name for p in out_dir.iterdir()) == []  # no temporary file, no output


def test_without_anonymous_files_a_killed_runs_temporary_file_is_removed_by_the_next_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # A run that has no O_TMPFILE and is killed while writing: its named temporary file stays.
    killed = subprocess.run(
        [sys.executable, "-c",
         "import os, signal\n"
         "from urnld._kernel import _files\n"
         "_files._Anonymous.supported = False\n"
         f"with _files.atomic_output({str(tmp_path / 'out.nt')!r}) as f:\n"
         "    f.write(b'half')\n"
         "    f.flush()\n"
         "    os.kill(os.getpid(), signal.SIGKILL)\n"],
        check=False,
    )
    assert killed.returncode == -signal.SIGKILL
    (stale,) = tmp_path.iterdir()
    assert stale.name.startswith(".urnld-") and stale.name.endswith(".tmp")
    # A temporary file of a live run (this process) in the same directory must survive.
    live = tmp_path / f".urnld-{_files.owner_tag()}-0123abcd.tmp"
    live.write_bytes(b"")
    monkeypatch.setattr(_files._Anonymous, "supported", False)
    (tmp_path / "in.nt").write_bytes(b'<URN:EXAMPLE:a> <http://e/p> "x" .\n')
    assert main(["canonicalize", str(tmp_path / "in.nt"), "-o", str(tmp_path / "out.nt")]) == 0
    capsys.readouterr()
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([live.name, "in.nt", "out.nt"])
    assert (tmp_path / "out.nt").read_bytes() == b'<urn:example:a> <http://e/p> "x" .\n'


def test_an_anonymous_temporary_output_has_no_name_while_it_is_written(tmp_path: Path) -> None:
    if not _files._Anonymous.supported:
        pytest.skip("this file system has no O_TMPFILE")
    with _files.atomic_output(tmp_path / "out.nt") as f:
        f.write(b"data")
        f.flush()
        assert list(tmp_path.iterdir()) == []
    assert [p.name for p in tmp_path.iterdir()] == ["out.nt"]


def test_a_killed_dask_jobs_hidden_directory_is_removed_by_the_next_job(tmp_path: Path) -> None:
    from urnld.dask._output import OutputDir

    # Owners: a pid above any Linux pid_max (gone), and this process (alive).
    dead = tmp_path / f".out.urnld-tmp-{_files._host()}-{2**22 + 1}-1-abcd1234"
    (dead / "out").mkdir(parents=True)
    (dead / "out" / "x.nt").write_bytes(b"half")
    live = tmp_path / f".other.urnld-tmp-{_files.owner_tag()}-abcd1234"
    live.mkdir()
    other_host = tmp_path / f".out.urnld-tmp-00000000-{2**22 + 1}-1-abcd1234"
    other_host.mkdir()  # a job of another machine on a shared file system: not ours to judge
    with OutputDir(tmp_path / "out") as o:
        o.commit()
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["out", live.name, other_host.name]
    )


@pytest.mark.slow
def test_a_sigkilled_dask_jobs_scratch_and_output_are_removed_by_the_next_job(
    tmp_path: Path, big_input: Path, descendants: Callable[[int], set[int]]
) -> None:
    """SIGKILL runs no cleanup: the killed job's scratch directory (its workers' files) and
    hidden output directory stay, and the next Dask job removes them, since their owner is
    gone; it leaves nothing of its own."""
    pytest.importorskip("distributed")
    temp, out = tmp_path / "tmp", tmp_path / "out"
    temp.mkdir()
    out.mkdir()
    env = {**os.environ, "URNLD_PURE_PYTHON": "1", "TMPDIR": str(temp)}
    proc = subprocess.Popen(
        [*URNLD, "canonicalize", str(big_input), "-o", str(out / "big"), "--engine", "dask",
         "--workers", "1"],
        env=env, stderr=subprocess.DEVNULL, start_new_session=True,
    )
    left: set[int] = set()
    try:
        deadline = time.monotonic() + 120
        # Killed once its worker runs and its hidden output directory exists: mid-job.
        while proc.poll() is None and time.monotonic() < deadline and not (
            any(p.name.startswith("urnld-dask-") for p in temp.iterdir())
            and any(p.name.startswith(".big.urnld-tmp-") for p in out.iterdir())
            and len(descendants(proc.pid)) >= 2
        ):
            time.sleep(0.05)
        assert proc.poll() is None, "the job ended before it could be killed"
        children = descendants(proc.pid)
        proc.kill()  # SIGKILL: no handler, no finally
        proc.wait(timeout=30)
        left = _wait_gone(children, 10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for pid in _wait_gone(left, 0):  # never leave a worker behind, even on failure
            os.kill(pid, signal.SIGKILL)
    stale = [p.name for p in [*temp.iterdir(), *out.iterdir()]]
    assert any(n.startswith("urnld-dask-") for n in stale), stale  # what SIGKILL leaves
    small = tmp_path / "small.nt"
    small.write_bytes(b'<URN:EXAMPLE:a> <http://e/p> "x" .\n')
    done = subprocess.run(
        [*URNLD, "canonicalize", str(small), "-o", str(out / "small"), "--engine", "dask",
         "--workers", "1"],
        env=env, capture_output=True, text=True, timeout=300, check=False,
    )
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in temp.iterdir()) == []
    assert sorted(p.name for p in out.iterdir()) == ["small"]
    assert (out / "small" / "small.nt").read_bytes() == b'<urn:example:a> <http://e/p> "x" .\n'
