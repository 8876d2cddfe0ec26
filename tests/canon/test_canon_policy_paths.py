"""A validation policy reaches every streaming path, compiled or not.

The compiled accelerator remembers which NIDs the *default* policy accepts; a stricter policy
must not be answered from that memory (``urn:un:`` is usable by default, reserved under strict:
RFC 8141 §5.1; UN/CEFACT's namespace, e.g. Factur-X invoices).
"""

from __future__ import annotations

import pytest

from urnld import Policy
from urnld.report import CanonicalizeReport, CheckReport
from urnld.stream import _chunks, canonicalize_file, canonicalize_lines, check_file, check_lines

LINE = b"<urn:UN:unece:uncefact:x> <http://e/p> <urn:un:unece:uncefact:x> .\n"


@pytest.mark.parametrize("first", [Policy(), Policy(strict=True)])
def test_strict_after_default_and_back(first: Policy) -> None:
    # Run one policy first so that any per-process memory of NID verdicts is warm.
    list(canonicalize_lines([LINE] * 3, report=CanonicalizeReport(), policy=first))
    strict = CanonicalizeReport()
    out = list(canonicalize_lines([LINE] * 3, report=strict, policy=Policy(strict=True)))
    assert out[0] == LINE
    assert sorted(strict.invalid) == ["urn:UN:unece:uncefact:x", "urn:un:unece:uncefact:x"]
    default = CanonicalizeReport()
    out = list(canonicalize_lines([LINE] * 3, report=default, policy=Policy()))
    assert out[0] == b"<urn:un:unece:uncefact:x> <http://e/p> <urn:un:unece:uncefact:x> .\n"
    assert not default.invalid


@pytest.mark.parametrize("jobs", [1, 2])
def test_policy_reaches_worker_processes(tmp_path, monkeypatch, jobs: int) -> None:
    monkeypatch.setattr(_chunks, "CHUNK_BYTES", 200)  # several chunks, so -j 2 starts workers
    src = tmp_path / "in.nt"
    src.write_bytes(LINE * 50)
    out = tmp_path / "out.nt"
    report = canonicalize_file(src, out, jobs=jobs, policy=Policy(strict=True))
    assert out.read_bytes() == LINE * 50
    assert "urn:UN:unece:uncefact:x" in report.invalid
    checked = check_file(src, jobs=jobs, policy=Policy(strict=True))
    assert "urn:UN:unece:uncefact:x" in checked.invalid
    assert not check_file(src, jobs=jobs).invalid


def test_check_lines_policy() -> None:
    strict = CheckReport()
    check_lines([LINE], report=strict, policy=Policy(strict=True))
    relaxed = CheckReport()
    check_lines([LINE], report=relaxed)
    assert strict.invalid and not relaxed.invalid
