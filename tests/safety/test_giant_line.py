"""``validate`` on one giant line: refused at the streaming reader's line limit, as fast as
``check`` refuses it, not after minutes in rdflib's parser."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from urnld.stream import MAX_LINE_BYTES

URNLD = [sys.executable, "-c", "import sys; from urnld.cli import main; sys.exit(main())"]


def _timed(args: list[str], cwd: Path, timeout: float) -> tuple[float, subprocess.CompletedProcess[str]]:
    start = time.perf_counter()
    done = subprocess.run([*URNLD, *args], cwd=cwd, capture_output=True, text=True,
                          timeout=timeout, check=False)
    return time.perf_counter() - start, done


@pytest.mark.slow
def test_validate_refuses_a_giant_line_as_fast_as_check(tmp_path: Path) -> None:
    with (tmp_path / "huge.nt").open("wb") as f:
        f.write(b'<urn:example:a> <http://e/p> "')
        f.write(b"x" * (MAX_LINE_BYTES + (36 << 20)))  # ~100 MB on one line
        f.write(b'" .\n')
    baseline, check = _timed(["check", "huge.nt"], tmp_path, timeout=600)
    assert check.returncode == 2 and "limit" in check.stderr
    # Bounded by the baseline measured here (rdflib alone took well over 20 times as long).
    elapsed, done = _timed(["validate", "huge.nt"], tmp_path, timeout=max(20 * baseline, 5))
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert lines == [f"urnld validate: error: huge.nt:1: line longer than {MAX_LINE_BYTES:,} "
                     "bytes (the limit)"], done.stderr
    assert elapsed < 4 * baseline, (elapsed, baseline)
