"""Outputs never clobber inputs (or each other), through symlinks, hard links and ./ spellings."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from urnld.cli import main

DATA = b'<URN:EXAMPLE:a> <http://e/p> "x" .\n'


@pytest.fixture
def work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "in.nt").write_bytes(DATA)
    (tmp_path / "doc.jsonld").write_text(json.dumps({"@id": "urn:example:a"}))
    (tmp_path / "s.xml").write_text('<r xmlns="urn:example:ns"/>')
    (tmp_path / "shapes.ttl").write_text("@prefix sh: <http://www.w3.org/ns/shacl#> .\n")
    (tmp_path / "doc.ttl").write_text("@base <urn:uuid:> .\n<a> <http://e/p> 1 .\n")
    (tmp_path / "policy.toml").write_text("")
    os.symlink("in.nt", tmp_path / "link.nt")
    os.link(tmp_path / "in.nt", tmp_path / "hard.nt")
    return tmp_path


CASES = [
    ["canonicalize", "in.nt", "-o", "out.nt", "--report", "in.nt"],
    ["canonicalize", "in.nt", "-o", "out.nt", "--report", "out.nt"],
    ["canonicalize", "in.nt", "-o", "out.nt", "--report", "./out.nt"],
    ["canonicalize", "in.nt", "-o", "./in.nt"],
    ["canonicalize", "in.nt", "-o", "link.nt"],
    ["canonicalize", "in.nt", "-o", "hard.nt"],
    ["canonicalize", "in.nt", "-o", "out.nt", "--report", "link.nt"],
    ["canonicalize", "in.nt", "--rdfc", "-o", "out.nq", "--report", "in.nt"],
    ["canonicalize", "in.nt", "link.nt", "-o", "."],
    ["jsonld", "expand", "doc.jsonld", "-o", "doc.jsonld"],
    ["jsonld", "expand", "doc.jsonld", "-o", "./doc.jsonld"],
    ["jsonld", "context", "s.xml", "-o", "s.xml"],
    ["jsonld", "compact", "doc.jsonld", "--context", "s.xml", "-o", "s.xml"],
    # Every command, every output option: the one check the dispatcher runs.
    ["check", "in.nt", "-o", "in.nt"],
    ["check", "in.nt", "-o", "link.nt"],
    ["check", "in.nt", "--html", "in.nt"],
    ["check", "in.nt", "--html", "hard.nt"],
    ["check", "in.nt", "-o", "x.txt", "--html", "x.txt"],
    ["check", "in.nt", "-o", "x.txt", "--html", "./x.txt"],
    ["check", "in.nt", "--config", "policy.toml", "--html", "policy.toml"],
    ["validate", "in.nt", "-o", "in.nt"],
    ["validate", "in.nt", "--html", "in.nt"],
    ["validate", "in.nt", "-o", "v.txt", "--html", "v.txt"],
    ["validate", "in.nt", "-s", "shapes.ttl", "-o", "./shapes.ttl"],
    ["xmlns", "s.xml", "--json", "-o", "./s.xml"],
    ["xmlns", "s.xml", "--html", "s.xml"],
    ["xmlns", "s.xml", "-o", "a.txt", "--html", "a.txt"],
    ["canonicalize", "in.nt", "-o", "out.nt", "--html", "in.nt"],
    ["canonicalize", "in.nt", "-o", "out.nt", "--html", "out.nt"],
    ["canonicalize", "in.nt", "-o", "out.nt", "--report", "r.json", "--html", "r.json"],
    ["canonicalize", "in.nt", "-o", "out", "--html", "out"],
    # Port 9 (discard): were the check not made first, this would be a connection error.
    ["canonicalize", "--endpoint", "http://127.0.0.1:9/sparql", "--update-endpoint",
     "http://127.0.0.1:9/update", "--undo", "x.ru", "--report", "x.ru"],
    ["canonicalize", "--endpoint", "http://127.0.0.1:9/sparql", "--update-endpoint",
     "http://127.0.0.1:9/update", "--undo", "x.ru", "--html", "./x.ru"],
    ["check", "--endpoint", "http://127.0.0.1:9/sparql", "-o", "r.txt", "--html", "r.txt"],
    ["fix-base", "doc.ttl", "-o", "./doc.ttl"],
]


@pytest.mark.parametrize("args", CASES, ids=[" ".join(a) for a in CASES])
def test_a_colliding_output_is_refused_before_anything_is_written(
    work: Path, args: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    before = {p.name: p.read_bytes() for p in work.iterdir() if p.is_file()}
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and ("is the input" in err or "same file" in err), err
    after = {p.name: p.read_bytes() for p in work.iterdir() if p.is_file()}
    assert after == before  # nothing written, nothing replaced
    # Nothing created either (no output directory, no temporary file).
    assert sorted(p.name for p in work.iterdir()) == sorted(before)


def test_distinct_outputs_are_written(work: Path) -> None:
    assert main(["canonicalize", "in.nt", "-o", "out.nt", "--report", "r.json"]) == 0
    assert (work / "out.nt").read_bytes() == b'<urn:example:a> <http://e/p> "x" .\n'
    assert json.loads((work / "r.json").read_text())["statements"]["in"] == 1
    assert (work / "in.nt").read_bytes() == DATA
