"""`urnld validate` shows the shapes' progress with an ETA on a terminal, and nowhere else."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from urnld.cli import main

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples/shacl/catalog.ttl"


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_with_an_eta_on_a_terminal(monkeypatch, capsys) -> None:
    tty = _Tty()
    monkeypatch.setattr(sys, "stderr", tty)
    assert main(["validate", str(EXAMPLE)]) == 1
    shown = tty.getvalue()
    lines = [line.strip() for line in shown.split("\r") if line.strip()]
    counted = [line for line in lines if line.startswith("urnld validate: running the shapes: ")]
    assert counted, lines
    # the last count: every query of the plan done, with the rate and an ETA
    assert "100.0% of " in counted[-1] and " queries, " in counted[-1], counted[-1]
    assert "queries/s, ETA " in counted[-1]
    assert shown.endswith("\r")  # the line is erased at the end
    assert capsys.readouterr().out.startswith("severity\t")  # stdout: the report, as always


@pytest.mark.parametrize("argv", [["-q"], ["--json"], []])
def test_nothing_on_stderr_when_quiet_or_not_a_terminal(argv, monkeypatch, capsys) -> None:
    if argv == ["-q"]:
        tty = _Tty()
        monkeypatch.setattr(sys, "stderr", tty)  # a terminal, but -q
        assert main(["validate", *argv, str(EXAMPLE)]) == 1
        assert tty.getvalue() == ""
        assert capsys.readouterr().out.startswith("conforms: no")
    else:
        assert main(["validate", *argv, str(EXAMPLE)]) == 1
        assert capsys.readouterr().err == ""


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
def test_an_eta_on_a_pseudo_terminal(tmp_path) -> None:
    # The real thing: the command's stderr is a pty, its report goes to a file.
    primary, secondary = os.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "urnld", "validate", "-o", str(tmp_path / "r.tsv"), str(EXAMPLE)],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=secondary, cwd=REPO,
    )
    os.close(secondary)
    shown = b""
    while True:
        try:
            chunk = os.read(primary, 4096)
        except OSError:  # the other end closed (Linux raises EIO)
            break
        if not chunk:
            break
        shown += chunk
    os.close(primary)
    assert proc.wait(timeout=120) == 1
    text = shown.decode()
    assert "urnld validate: running the shapes: 100.0% of " in text and "ETA " in text, text
    assert (tmp_path / "r.tsv").read_text(encoding="utf-8").startswith("severity\t")


@pytest.mark.parametrize(("flag", "tty", "drawn"), [
    ("--progress", False, True),  # forced on, though stderr is no terminal
    ("--no-progress", True, False),  # forced off on a terminal
])
def test_progress_forced_on_or_off(flag, tty, drawn, monkeypatch, capsys) -> None:
    """``--progress``/``--no-progress`` as in check and canonicalize."""
    err = _Tty() if tty else io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    assert main(["validate", flag, str(EXAMPLE)]) == 1
    assert ("urnld validate: running the shapes: " in err.getvalue()) is drawn
    assert capsys.readouterr().out.startswith("severity\t")
