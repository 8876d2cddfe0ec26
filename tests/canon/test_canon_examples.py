"""The catalog walkthrough runs and shows what it claims."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

WALKTHROUGH = Path(__file__).resolve().parents[2] / "examples" / "catalog" / "walkthrough.py"


def test_walkthrough_runs_and_its_claims_hold():
    proc = subprocess.run([sys.executable, str(WALKTHROUGH)], capture_output=True, text=True,
                          check=False)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "invalid URNs: 4" in out
    assert "papers citing <urn:isbn:9780141439518>: []" in out  # before: missed
    assert "papers citing it: ['https://catalog.example.org/paper-1']" in out  # after: found
    before = int(re.search(r"Before: properties of <[^>]+>: (\d+) rows", out).group(1))
    after = int(re.search(r"After: properties of <[^>]+>: (\d+) rows", out).group(1))
    assert after > before
    digests = re.findall(r"(?:messy|canonical): +([0-9a-f]{64})", out)
    assert len(digests) == 2
    assert digests[0] == digests[1]
