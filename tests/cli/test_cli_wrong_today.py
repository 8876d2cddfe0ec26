"""The command line as a new user meets it: each of these once went wrong (one test each)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from rdflib import Graph

from urnld.cli import EXIT_CLOSED_PIPE, main

REPO = Path(__file__).resolve().parents[2]
CATALOG = REPO / "examples/catalog/catalog.ttl"
URNLD = [sys.executable, "-m", "urnld"]


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _many_non_canonical(path: Path, n: int) -> Path:
    # n distinct valid UUID URNs, each with an upper-case scheme and NID (RFC 8141 §3.1)
    with path.open("w", encoding="utf-8") as f:
        for i in range(n):
            f.write(f"<URN:UUID:{i:08x}-0000-4000-8000-000000000000> "
                    f"<http://purl.org/dc/terms/title> \"t{i}\" .\n")
    return path


def test_check_summary_counts_are_exact_beyond_the_example_cap(capsys, tmp_path) -> None:
    # 12,000 distinct non-canonical spellings: more than the 10,000-key example cap. The summary
    # once summed the capped list (10,000), then said "at least 10,000"; the distinct counts
    # must be exact, and the table say how many rows of how many it shows.
    src = _many_non_canonical(tmp_path / "big.nt", 12_000)
    code, out, _ = run(capsys, "check", str(src))
    assert code == 0
    first = out.splitlines()[0]
    assert "; 12,000 valid URN spellings not in canonical form (12,000 occurrences" in first
    assert "0 URNs spelled several ways" in first
    assert "showing 20 of 12,000 spellings" in out
    code, out, _ = run(capsys, "check", "--json", str(src))
    d = json.loads(out)
    assert d["non_canonical"]["occurrences"] == 12_000
    assert d["non_canonical"]["distinct"] == 12_000
    assert d["non_canonical"]["truncated"] is True


def test_check_counts_the_same_unit_as_its_tables(capsys) -> None:
    # "5 of them invalid" counted occurrences while the table listed 4 URNs.
    code, out, _ = run(capsys, "check", str(CATALOG))
    assert code == 1
    lines = out.splitlines()
    assert lines[0].startswith("ERRORS: 4 invalid URNs (5 occurrences); "
                               "18 valid URN spellings not in canonical form (29 occurrences")
    table = lines[lines.index("Invalid URNs") + 3:]
    rows = table[: table.index("")]
    assert len(rows) == 4
    assert sum(int(r.split()[1]) for r in rows) == 5
    assert "Valid URN occurrences per NID" in out
    assert "Findings (occurrences of valid and invalid URNs" in out


def test_namespaces_lists_the_known_nids_and_names_the_unknown_one(capsys) -> None:
    code, out, err = run(capsys, "namespaces", "isbn", "nbn", "foo")
    assert code == 1
    nids = [line.split()[0] for line in out.splitlines()[2:] if line.strip()][:2]
    assert nids == ["isbn", "nbn"]
    assert "foo" in err and "generic RFC 8141 rules" in err
    assert len(err.splitlines()) == 1
    assert run(capsys, "namespaces", "isbn")[0] == 0


def test_parse_refuses_an_unknown_profile(capsys) -> None:
    code, out, err = run(capsys, "parse", "--profile", "nbn-dee", "urn:nbn:de:gbv:089-3321752946")
    assert (code, out) == (2, "")
    assert err == "urnld parse: error: unknown profile 'nbn-dee'; known profiles: iso-current, nbn-de\n"
    # the known profile still works: a wrong DNB check digit is reported
    assert run(capsys, "parse", "--profile", "nbn-de", "urn:nbn:de:gbv:089-3321752946")[0] == 1


def _closed_pipe_run(*argv: str) -> int:
    read, write = os.pipe()
    os.close(read)  # the reader is gone before we write: `| head -0`, deterministically
    try:
        done = subprocess.run([*URNLD, *argv], stdout=write, stderr=subprocess.PIPE,
                              timeout=120, cwd=REPO, check=False)
    finally:
        os.close(write)
    assert b"Traceback" not in done.stderr
    assert b"Exception ignored" not in done.stderr
    return done.returncode


def test_a_closed_pipe_keeps_the_real_exit_status() -> None:
    # `urnld check catalog.ttl | head -1` exited 0 although the catalog has errors.
    assert _closed_pipe_run("check", str(CATALOG)) == 1
    assert _closed_pipe_run("parse", "urn:isbn:0395363411") == 0
    assert _closed_pipe_run("parse", "urn:isbn:12345") == 1


def test_data_cut_off_by_a_closed_pipe_is_not_success() -> None:
    assert _closed_pipe_run("canonicalize", str(CATALOG)) == EXIT_CLOSED_PIPE


@pytest.mark.parametrize("command", ["check", "canonicalize", "validate"])
def test_parse_errors_show_the_reason(capsys, tmp_path, command) -> None:
    bad = tmp_path / "bad.ttl"
    bad.write_text('@prefix ex: <http://e/> .\nex:a ex:b ex:c .\n\nex:a ex:b "x\n')
    code, _, err = run(capsys, command, str(bad))
    assert code == 2
    # Streamed or read whole: pyoxigraph's position, the reason said in words (rdflib's message
    # was cut at "at line 4 of <>:").
    assert f"{bad}:4:11: cannot parse as turtle: " in err
    assert "string literal opened here does not end on its line" in err
    assert len(err.strip().splitlines()) == 1


def test_canonicalize_takes_the_output_syntax_from_the_extension(capsys, tmp_path) -> None:
    out = tmp_path / "x.nt"
    assert run(capsys, "canonicalize", str(CATALOG), "-o", str(out))[0] == 0
    text = out.read_text(encoding="utf-8")
    assert "@prefix" not in text  # Turtle was written into x.nt before
    assert len(Graph().parse(out, format="nt")) > 50
    gz = tmp_path / "x.ttl.gz"
    assert run(capsys, "canonicalize", str(CATALOG), "-o", str(gz))[0] == 0
    assert len(Graph().parse(data=__import__("gzip").decompress(gz.read_bytes()),
                             format="turtle")) > 50


def test_output_format_overrides_the_extension(capsys, tmp_path) -> None:
    out = tmp_path / "x.nt"
    assert run(capsys, "canonicalize", str(CATALOG), "-o", str(out),
               "--output-format", "turtle")[0] == 0
    assert "@prefix" in out.read_text(encoding="utf-8")
    # the old spelling still works
    assert run(capsys, "canonicalize", str(CATALOG), "-o", str(out), "--format", "nt")[0] == 0
    assert "@prefix" not in out.read_text(encoding="utf-8")


def test_an_unknown_output_format_is_one_clear_line(capsys, tmp_path) -> None:
    code, out, err = run(capsys, "canonicalize", str(CATALOG), "--output-format", "xyz")
    assert (code, out) == (2, "")
    assert err.startswith("urnld canonicalize: error: unknown output format 'xyz'; use one of: ")
    assert "PluginException" not in err and len(err.splitlines()) == 1


def test_canonicalize_says_what_it_merged_also_off_a_terminal(capsys, tmp_path) -> None:
    # stderr is not a terminal under capsys: the summary used to be silent there.
    out = tmp_path / "c.ttl"
    code, _, err = run(capsys, "canonicalize", str(CATALOG), "--literals", "-o", str(out))
    assert code == 0  # streamed: two spellings of one statement are both written
    assert err.startswith("urnld canonicalize: 74 statements in, 74 written (duplicates not merged in streaming mode); "
                          "merged 26 spellings into 9 canonical URNs (29 occurrences rewritten); "
                          "left 2 invalid URNs as written")
    assert "no canonical form exists" in err
    assert run(capsys, "canonicalize", str(CATALOG), "-q", "-o", str(out)) == (0, "", "")


def test_import_urnld_does_not_load_importlib_metadata() -> None:
    # importlib.metadata was 24 of ~80 ms of `import urnld`; it is needed only for plugins.
    probe = ("import sys, urnld; urnld.canonical('URN:ISBN:0-395-36341-1'); "
             "print('importlib.metadata' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          check=True, timeout=60)
    assert done.stdout.strip() == "False"


def _readme_block_after(marker: str) -> str:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    start = text.index("```", text.index(marker)) + 3
    start = text.index("\n", start) + 1
    return text[start:text.index("```", start)].strip()


def test_the_readme_main_job_ends_with_what_it_documents(capsys, tmp_path, monkeypatch) -> None:
    # The first command once ended with "ERRORS:" and exit 1 and printed nothing about what was
    # merged off a terminal. Run it as documented and compare with the README's lines.
    monkeypatch.chdir(REPO)
    command = _readme_block_after("## Two commands for a fresh machine")
    argv = command.split(".venv/bin/urnld ", 1)[1].split()
    out = tmp_path / "catalog.canonical.ttl"
    argv = [str(out) if a == "catalog.canonical.ttl" else
            str(tmp_path / a) if a == "catalog.report.html" else a for a in argv]
    code, stdout, err = run(capsys, *argv)
    assert (code, stdout) == (0, "")
    assert err.strip() == _readme_block_after("It ends with one line")
    assert (tmp_path / "catalog.report.html").exists()
    code, stdout, _ = run(capsys, "check", str(out))
    assert code == 1
    assert stdout.splitlines()[0] == _readme_block_after("What no canonical form can fix")
