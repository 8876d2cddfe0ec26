"""One vocabulary across commands: exit codes in every --help, report switches, old spellings
kept working, -q/-v, colours only on a terminal and never with NO_COLOR, tables that fit."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from urnld.cli import COMMANDS, main
from urnld.cli._common import colour, print_table

REPO = Path(__file__).resolve().parents[2]
CATALOG = REPO / "examples/catalog/catalog.ttl"


@pytest.mark.parametrize("command", [*COMMANDS, None])
def test_every_help_states_the_exit_codes(command, capsys) -> None:
    argv = [command, "--help"] if command else ["--help"]
    with pytest.raises(SystemExit) as done:
        main(argv)
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert "exit status: 0 " in " ".join(out.split())


@pytest.mark.parametrize("command", ["check", "canonicalize", "validate", "xmlns"])
def test_report_switches(command, capsys) -> None:
    with pytest.raises(SystemExit):
        main([command, "--help"])
    out = capsys.readouterr().out
    assert "--html FILE" in out
    if command != "canonicalize":
        assert "--json" in out
    assert "--format" not in out.replace("--output-format", "")  # the old spelling is hidden


def test_validate_json_switch_and_old_spelling_agree(capsys) -> None:
    example = str(REPO / "examples/shacl/catalog.ttl")
    assert main(["validate", example, "--json"]) == 1
    new = json.loads(capsys.readouterr().out)
    assert main(["validate", example, "--format", "json"]) == 1
    old = json.loads(capsys.readouterr().out)
    # (blank-node labels differ between two runs; the rest is the same)
    assert (new["summary"], len(new["results"])) == (old["summary"], len(old["results"]))
    assert new["conforms"] is False
    assert main(["validate", example, "--output-format", "turtle"]) == 1
    assert "sh:ValidationReport" in capsys.readouterr().out


def test_check_quiet_and_verbose(capsys, tmp_path) -> None:
    assert main(["check", "-q", str(CATALOG)]) == 1
    out = capsys.readouterr().out
    assert out.startswith("ERRORS: 4 invalid URNs") and out.count("\n") == 1
    assert main(["check", "--limit", "2", str(CATALOG)]) == 1
    assert "(showing 2 of 4 invalid URNs; -v shows all" in capsys.readouterr().out
    assert main(["check", "--limit", "2", "-v", str(CATALOG)]) == 1
    assert "(showing" not in capsys.readouterr().out


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_colour_only_on_a_terminal_and_never_with_no_color(monkeypatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    assert colour("ERRORS", "red", _Tty()) == "\x1b[1;31mERRORS\x1b[0m"
    assert colour("ERRORS", "red", io.StringIO()) == "ERRORS"
    monkeypatch.setenv("NO_COLOR", "1")
    assert colour("ERRORS", "red", _Tty()) == "ERRORS"


def test_tables_fit_the_terminal(monkeypatch) -> None:
    monkeypatch.setenv("COLUMNS", "60")
    out = _Tty()
    rows = [("urn:isbn:9780141439519", 2, "nss-check-digit: ISBN check digit '9' is wrong " * 3)]
    print_table(rows, ["urn", "occurrences", "first error"], file=out)
    lines = out.getvalue().splitlines()
    assert max(len(line) for line in lines) <= 60
    assert lines[2].endswith("…")
    plain = io.StringIO()  # not a terminal: nothing is cut (scripts read the whole text)
    print_table(rows, ["urn", "occurrences", "first error"], file=plain)
    assert "wrong" in plain.getvalue().splitlines()[2][-10:]


def test_progress_shows_an_eta_on_a_terminal_only() -> None:
    from urnld.cli._progress import CountingReader, Progress

    tty = _Tty()
    bar = Progress("urnld check big.ttl", 1000, stream=tty)
    bar.start -= 2.0  # as if reading had begun two seconds ago
    reader = CountingReader(io.BytesIO(b"x" * 1000), bar)
    reader.read(400)
    bar.close()
    shown = tty.getvalue()
    assert "urnld check big.ttl: 40.0% of 1.0 kB" in shown and "ETA 3 s" in shown
    assert shown.endswith("\r")  # the line is erased at the end
    piped = io.StringIO()
    quiet = Progress("urnld check big.ttl", 1000, stream=piped)
    CountingReader(io.BytesIO(b"x" * 1000), quiet).read()
    quiet.close()
    assert piped.getvalue() == ""


def test_progress_ticks_where_the_work_is_unknown() -> None:
    import time

    from urnld.cli._progress import Progress

    tty = _Tty()
    with Progress("urnld validate", stream=tty).ticking("running the shapes"):
        time.sleep(0.6)
    assert "urnld validate: running the shapes, 0 s" in tty.getvalue()


@pytest.mark.parametrize(("argv", "code", "start"), [
    (["check", str(CATALOG)], 1, "ERRORS: 4 invalid URNs"),
    (["check", "--json", str(CATALOG)], 1, "{"),
    (["validate", str(REPO / "examples/shacl/catalog.ttl")], 1, "severity\tfocus node"),
    (["xmlns", str(REPO / "examples/xml/saml-assertion.xml")], 1, "/"),
])
def test_dash_o_writes_what_would_be_printed(argv, code, start, capsys, tmp_path) -> None:
    out = tmp_path / "report.txt"
    assert main([*argv, "-o", str(out)]) == code
    assert capsys.readouterr().out == ""
    assert out.read_text(encoding="utf-8").startswith(start)


def test_canonicalize_verbose_lists_what_is_left(capsys, tmp_path) -> None:
    assert main(["canonicalize", "-v", str(CATALOG), "-o", str(tmp_path / "c.nt")]) == 0
    err = capsys.readouterr().err.splitlines()
    assert err[1:] == [
        "  left as written: urn:X-LOCAL:shelf-42 (1x): nid-experimental: 'X-' experimental "
        "NIDs such as 'X-LOCAL' were removed by RFC 8141 (App. C); this is not a valid URN",
        "  left as written: urn:x-inspire:specification:gmlas:BaseTypes:3.2 (1x): "
        "nid-experimental: 'X-' experimental NIDs such as 'x-inspire' were removed by RFC 8141 "
        "(App. C); this is not a valid URN",
    ]


def test_streaming_check_reports_progress(tmp_path) -> None:
    from urnld.stream import Progress, check_file

    src = tmp_path / "x.nt"
    src.write_text("".join(f'<urn:isbn:0395363411> <http://e/p> "{i}" .\n' for i in range(50)))
    seen: list[Progress] = []
    report = check_file(src, progress=seen.append)
    assert report.statements_in == 50
    assert seen and all(p.total == src.stat().st_size for p in seen)
    assert seen[-1].done == src.stat().st_size


def test_the_progress_line_has_an_eta() -> None:
    from urnld.cli._common import ProgressLine
    from urnld.stream import Progress

    out = io.StringIO()
    line = ProgressLine("urnld check x.nt", out, interval=0)
    line.start -= 2.0
    line(Progress(25, 100, 1000))
    assert "25.0% 1,000 statements" in out.getvalue() and "ETA 6 s" in out.getvalue()
