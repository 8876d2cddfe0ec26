"""One vocabulary across the commands: ``--iris`` means the same in check and canonicalize,
``--progress`` is on every command that reads files for long, and ``urnld --help`` lists every
JSON-LD operation."""

from __future__ import annotations

import argparse
import contextlib
import io
import json
from pathlib import Path

import pytest

import urnld.files as files
from urnld._kernel import Engine
from urnld.cli import COMMANDS, _load, main

DATA = (b"<HTTP://Example.ORG:80/a> <http://e/p> <URN:ISBN:0-395-36341-1> .\n"
        b"<http://example.org/a> <http://e/p> <http://e/%7e> .\n"
        b"<http://e/%7e> <http://e/p> <http://e/%7e> .\n"
        b"<http://e/ok> <http://e/p> <urn:example:a> .\n")


def _options(command: str) -> set[str]:
    parser = argparse.ArgumentParser(prog=f"urnld {command}")
    _load(command).configure(parser)
    return {s for a in parser._actions for s in a.option_strings}


@pytest.mark.parametrize("command", ["check", "canonicalize", "validate"])
def test_progress_where_it_applies(command: str) -> None:
    assert {"--progress", "--no-progress"} <= _options(command)


@pytest.mark.parametrize("command", ["check", "canonicalize"])
def test_iris_where_it_applies(command: str) -> None:
    assert "--iris" in _options(command)


def test_help_lists_every_jsonld_operation() -> None:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit):
        main(["--help"])
    line = next(ln for ln in out.getvalue().splitlines() if ln.strip().startswith("jsonld"))
    for op in ("expand", "compact", "flatten", "frame", "context"):
        assert op in line, line
    assert "frame" in COMMANDS["jsonld"][1]


def test_check_iris_counts_what_canonicalize_rewrites(tmp_path: Path, capsys) -> None:
    src = tmp_path / "a.nt"
    src.write_bytes(DATA)
    assert main(["check", str(src), "--iris", "rfc3986", "--json", "--no-config"]) == 0
    checked = json.loads(capsys.readouterr().out)["iris"]
    assert checked["spellings"] == {
        "HTTP://Example.ORG:80/a": {"normal": "http://example.org/a", "count": 1},
        "http://e/%7e": {"normal": "http://e/~", "count": 2},  # statements, not positions
    }
    assert (checked["occurrences"], checked["distinct"], checked["normal_forms"]) == (3, 2, 2)
    rewritten = files.canonicalize(src, tmp_path / "b.nt", iris="rfc3986").to_dict()["iris"]
    assert rewritten == {"rewritten": 3, "spellings": 2, "normal_forms": 2}
    # The library's check is the command's; without --iris the report keeps its shape.
    assert files.check(src, iris="rfc3986").to_dict()["iris"] == checked
    assert "iris" not in files.check(src).to_dict()
    assert files.check_plan(src, iris="rfc3986") is Engine.DOCUMENT
    assert files.check_plan(src) is Engine.LINES


def test_check_iris_findings_and_text(tmp_path: Path, capsys) -> None:
    src = tmp_path / "a.nt"
    src.write_bytes(DATA)
    found = tmp_path / "f.jsonl"
    assert main(["check", str(src), "--iris", "rfc3986", "--findings", str(found),
                 "--no-config"]) == 0
    assert "3 occurrences of 2 IRIs other than URNs not in RFC 3986 normal form" in \
        capsys.readouterr().out
    records = [json.loads(ln) for ln in found.read_text().splitlines()]
    iris = [r for r in records if r["kind"] == "iri"]
    assert iris == [
        {"kind": "iri", "canonical": "http://e/~", "spellings": {"http://e/%7e": 2}, "count": 2},
        {"kind": "iri", "canonical": "http://example.org/a",
         "spellings": {"HTTP://Example.ORG:80/a": 1}, "count": 1},
    ]


@pytest.mark.parametrize("extra", [["--engine", "dask", "--workers", "1"],
                                   ["--endpoint", "http://127.0.0.1:9/sparql"]])
def test_check_iris_refused_where_it_does_not_run(tmp_path: Path, extra: list[str],
                                                  capsys) -> None:
    src = tmp_path / "a.nt"
    src.write_bytes(DATA)
    files_arg = [] if "--endpoint" in extra else [str(src)]
    assert main(["check", *files_arg, "--iris", "rfc3986", *extra, "--no-config"]) == 2
    assert "--iris runs on local files" in capsys.readouterr().err


def test_an_unknown_iris_value_is_refused_by_the_library(tmp_path: Path) -> None:
    from urnld.errors import URNError

    src = tmp_path / "a.nt"
    src.write_bytes(DATA)
    with pytest.raises(URNError, match="iris must be"):
        files.check(src, iris="loose")  # type: ignore[arg-type]
