"""Verdicts say what happened: never "OK" or ``"ok": true`` over data that was not read, never a
count of something nobody looked for, never a silent exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from urnld.cli import main

GOOD = b'<URN:EXAMPLE:a> <http://e/p> "x" .\n'
MALFORMED = GOOD + b"this is not a statement\n"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_bare_urnld_says_what_is_missing_on_stderr(capsys) -> None:
    code, out, err = run(capsys)
    assert code == 2
    assert out == ""
    # issue 38: one form, the help with its list of commands, not usage plus an error line
    assert err.startswith("usage: urnld") and "error" not in err, err
    assert err.count("usage:") == 1 and "canonicalize" in err and "check" in err, err


def test_quiet_check_never_hides_why_it_exits_2(capsys, tmp_path: Path) -> None:
    (tmp_path / "bad.nt").write_bytes(MALFORMED)
    code, out, err = run(capsys, "check", "-q", str(tmp_path / "bad.nt"))
    assert code == 2
    assert not out.startswith("OK"), out  # part of the data was not seen
    assert out.startswith("INCOMPLETE"), out
    assert "bad.nt" in err and "error" in err, err


@pytest.mark.parametrize("second", ["missing.nt", "bad.nt"])
def test_check_json_is_not_ok_when_an_input_was_not_read(capsys, tmp_path: Path,
                                                         second: str) -> None:
    (tmp_path / "good.nt").write_bytes(GOOD)
    (tmp_path / "bad.nt").write_bytes(MALFORMED)
    code, out, _ = run(capsys, "check", "--json", str(tmp_path / "good.nt"),
                       str(tmp_path / second))
    assert code == 2
    assert json.loads(out)["ok"] is False


def test_xmlns_json_is_not_ok_when_a_file_is_unreadable(capsys, tmp_path: Path) -> None:
    (tmp_path / "s.xml").write_text('<r xmlns="urn:example:ns"/>')
    code, out, _ = run(capsys, "xmlns", "--json", str(tmp_path / "s.xml"))
    assert (code, json.loads(out)["ok"]) == (0, True)
    code, out, _ = run(capsys, "xmlns", "--json", str(tmp_path / "s.xml"),
                       str(tmp_path / "missing.xml"))
    assert (code, json.loads(out)["ok"]) == (1, False)


def test_validate_json_never_claims_conformance_of_unread_data(capsys, tmp_path: Path) -> None:
    (tmp_path / "good.ttl").write_bytes(GOOD)
    code, out, err = run(capsys, "validate", "--json", str(tmp_path / "good.ttl"),
                         str(tmp_path / "missing.ttl"))
    assert code == 2 and "missing.ttl" in err
    # --json always prints JSON, as check does: not ok, no verdict on data it did not read
    doc = json.loads(out)
    assert doc["ok"] is False and doc["conforms"] is None and "missing.ttl" in doc["error"]


def test_canonicalize_report_is_not_ok_when_it_is_incomplete(capsys, tmp_path: Path) -> None:
    (tmp_path / "good.nt").write_bytes(GOOD)
    code, _, _ = run(capsys, "canonicalize", str(tmp_path / "good.nt"), "-o",
                     str(tmp_path / "o.nt"), "--report", str(tmp_path / "r.json"))
    assert code == 0 and json.loads((tmp_path / "r.json").read_text())["ok"] is True


# Cited examples: the ISBN of RFC 8141's own examples' family (RFC 3187 §3: URN:ISBN:0-395-36341-1),
# the same with a wrong check digit (namespace rules only), and an X- NID (RFC 8141 §5.1 ruled
# experimental NIDs out).
LEFT_AND_REWRITTEN = (
    b'<URN:ISBN:0-395-36341-1> <http://e/p> "x" .\n'
    b'<URN:ISBN:0-395-36341-2> <http://e/p> "wrong check digit" .\n'
    b'<urn:X-LOCAL:shelf-42> <http://e/p> "experimental NID" .\n'
)


@pytest.mark.parametrize("suffix", ["nt", "ttl"])
def test_canonicalize_summary_says_exactly_what_is_left(capsys, tmp_path: Path,
                                                        suffix: str) -> None:
    src = tmp_path / f"in.{suffix}"
    src.write_bytes(LEFT_AND_REWRITTEN)
    out = tmp_path / "out.nt"
    code, _, err = run(capsys, "canonicalize", str(src), "-o", str(out))
    assert code == 0
    written = out.read_text()
    # The wrong check digit breaks only the ISBN rules: rewritten. The X- NID: left.
    assert "<urn:isbn:0395363412>" in written and "<urn:X-LOCAL:shelf-42>" in written
    assert "left 1 invalid URN as written" in err
    assert "break RFC 8141 or their namespace's rules" not in err
    # ...and counted, as urnld check lists it (issue 38)
    assert ("1 occurrence of URNs that break their namespace's rules (such as a wrong check "
            "digit) written in canonical form; urnld check lists them") in err


def test_streamed_canonicalize_never_says_0_duplicates_merged(capsys, tmp_path: Path) -> None:
    data = GOOD + GOOD + b'<urn:example:a> <http://e/p> "x" .\n'  # three copies of one
    (tmp_path / "in.nt").write_bytes(data)
    (tmp_path / "in.ttl").write_bytes(data)
    code, _, err = run(capsys, "canonicalize", str(tmp_path / "in.nt"), "-o",
                       str(tmp_path / "o.nt"), "--report", str(tmp_path / "r.json"))
    assert code == 0
    assert "0 duplicates merged" not in err
    assert "3 statements in, 3 written (duplicates not merged in streaming mode)" in err, err
    assert (tmp_path / "o.nt").read_bytes().count(b"\n") == 3  # a stream is not deduplicated
    statements = json.loads((tmp_path / "r.json").read_text())["statements"]
    assert statements == {"in": 3, "out": 3, "duplicates_merged": None}
    # In memory, duplicates are merged and counted.
    code, _, err = run(capsys, "canonicalize", str(tmp_path / "in.nt"), "--iris", "rfc3986",
                       "-o", str(tmp_path / "o2.nt"))
    assert code == 0 and "1 duplicate merged" in err and "streaming" not in err, err


def test_library_log_warnings_become_one_urnld_line(capsys, tmp_path: Path) -> None:
    # rdflib logs "… does not look like a valid URI" once per such term, on its own. (N3: it
    # is read by rdflib's parser; in Turtle an IRI with a space is a syntax error.)
    (tmp_path / "sp.n3").write_text(
        "<http://e/a b> <http://e/p> <urn:example:a b> .\n<http://e/c d> <http://e/p> 1 .\n"
    )
    code, _, err = run(capsys, "validate", str(tmp_path / "sp.n3"))
    assert code in (0, 1)
    # No store holds such IRIs: the whole run is pyshacl's, and one line says why.
    engines, *lines = err.strip().splitlines()
    assert engines.startswith("urnld validate: every shape ran on pyshacl: the term "), err
    assert len(lines) == 1, err
    assert lines[0].startswith("urnld validate: warning: rdflib said: ")
    assert "does not look like a valid URI" in lines[0] and "more log warnings" in lines[0]


def test_an_error_is_one_line_without_the_library_log_on_the_way(capsys, tmp_path: Path) -> None:
    # RDF-star in an N-Triples file: rdflib logs a warning for "< <urn:…", then fails.
    (tmp_path / "star.nt").write_text(
        '<< <urn:example:a> <http://e/p> <http://e/o> >> <http://e/q> "x" .\n'
    )
    code, _, err = run(capsys, "validate", str(tmp_path / "star.nt"))
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("urnld validate: error: "), err
    assert "star.nt" in lines[0]


REPO = Path(__file__).resolve().parents[2]


def _row(doc: str, command: str) -> str:
    return next(line for line in (REPO / doc).read_text().splitlines()
                if line.startswith(f"| `urnld {command}"))


@pytest.mark.parametrize("doc", ["README.md", "docs/cli.md"])
def test_the_documented_exit_codes_are_the_ones_given(doc, capsys, tmp_path: Path) -> None:
    # issue 38: the docs said parse exits 2 on bad input (it exits 1: a string that is no URN
    # is an invalid one) and xmlns 2 on an unreadable file (1 when another file was read).
    assert run(capsys, "parse", "urn:bad")[0] == 1
    assert "1 some invalid (a string that is no URN too), 2 usage" in _row(doc, "parse")
    (tmp_path / "ok.xml").write_text('<r xmlns="urn:example:ns"/>')
    missing = str(tmp_path / "missing.xml")
    assert run(capsys, "xmlns", str(tmp_path / "ok.xml"), missing)[0] == 1
    assert run(capsys, "xmlns", missing)[0] == 2
    row = _row(doc, "xmlns")
    assert "1 problems or some file unreadable" in row and "2 no file could be read" in row


def test_the_main_jobs_outputs_are_ignored_by_git() -> None:
    # README: `urnld canonicalize … -o catalog.canonical.ttl --html catalog.report.html`
    ignored = (REPO / ".gitignore").read_text().splitlines()
    assert {"catalog.canonical.ttl", "catalog.report.html"} <= set(ignored)
