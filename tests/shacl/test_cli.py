"""``urnld validate``: exit codes, output formats, unreadable input."""

from __future__ import annotations

import gzip
import json
import os
from pathlib import Path

import pytest
from rdflib import Graph
from rdflib.compare import isomorphic

from urnld.cli import main

GOOD = """@prefix bibo: <http://purl.org/ontology/bibo/> .
@prefix dcterms: <http://purl.org/dc/terms/> .
<http://example.org/b1> a bibo:Book ; dcterms:identifier "urn:isbn:9780199535569" .
"""
BAD = """@prefix bibo: <http://purl.org/ontology/bibo/> .
@prefix dcterms: <http://purl.org/dc/terms/> .
<http://example.org/b2> a bibo:Book ; dcterms:identifier "urn:isbn:9780199535560" .
"""


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    good = tmp_path / "good.ttl"
    good.write_text(GOOD)
    bad = tmp_path / "bad.ttl"
    bad.write_text(BAD)
    return {"good": good, "bad": bad}


def test_conforming_data_exits_0(files, capsys) -> None:
    assert main(["validate", str(files["good"])]) == 0
    out = capsys.readouterr().out
    assert out.splitlines() == ["severity\tfocus node\tpath\tvalue\tcomponent\tmessage"]


def test_violations_exit_1_one_line_each(files, capsys) -> None:
    assert main(["validate", str(files["good"]), str(files["bad"])]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2
    fields = lines[1].split("\t")
    assert fields[:5] == ["Violation", "<http://example.org/b2>", "dcterms:identifier",
                          '"urn:isbn:9780199535560"', "urnsh:NamespaceValid"]
    assert "finding nss-invalid or nss-check-digit" in fields[5]


def test_table_on_a_terminal(files, capsys, monkeypatch) -> None:
    import urnld.cli._common as common

    monkeypatch.setattr(common, "is_terminal", lambda stream=None: True)
    monkeypatch.setenv("NO_COLOR", "1")  # colours are tested in tests/cli/test_options.py
    assert main(["validate", str(files["bad"])]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].split() == ["severity", "focus", "node", "path", "value", "component",
                              "message"]
    assert set(out[1]) <= {"-", " "}
    assert out[-1] == "conforms: no (1 violation)"


def test_json(files, capsys) -> None:
    assert main(["validate", str(files["bad"]), "--format", "json"]) == 1
    doc = json.loads(capsys.readouterr().out)
    assert doc["conforms"] is False
    assert doc["summary"] == {"Violation": 1}
    (r,) = doc["results"]
    assert r["value"] == '"urn:isbn:9780199535560"'
    assert r["component"] == "urnsh:NamespaceValidConstraintComponent"


def test_turtle_is_the_standard_report_graph(files, capsys) -> None:
    from urnld.shacl import validate

    assert main(["validate", str(files["bad"]), "--format", "turtle"]) == 1
    printed = Graph().parse(data=capsys.readouterr().out, format="turtle")
    assert isomorphic(printed, validate(files["bad"]).graph)


def test_own_shapes_replace_the_catalog_shapes(files, tmp_path, capsys) -> None:
    shapes = tmp_path / "shapes.ttl"
    shapes.write_text("""@prefix sh: <http://www.w3.org/ns/shacl#> .
@prefix urnsh: <https://w3id.org/urnld/shacl#> .
@prefix dcterms: <http://purl.org/dc/terms/> .
<http://example.org/S> a sh:NodeShape ; sh:targetSubjectsOf dcterms:identifier ;
    sh:property [ sh:path dcterms:identifier ; urnsh:nid "issn" ] .
""")
    # The bad check digit is no longer checked; the NID is.
    assert main(["validate", str(files["bad"]), "-s", str(shapes), "--format", "json"]) == 1
    (r,) = json.loads(capsys.readouterr().out)["results"]
    assert r["component"] == "urnsh:NIDConstraintComponent"


def test_gzipped_input(files, tmp_path, capsys) -> None:
    gz = tmp_path / "bad.ttl.gz"
    gz.write_bytes(gzip.compress(BAD.encode()))
    assert main(["validate", str(gz)]) == 1


@pytest.mark.parametrize(
    ("content", "name", "expected"),
    [
        (None, "missing.ttl", "missing.ttl: cannot read: No such file or directory"),
        ("<a> <b> \"x\" ;\n <c> .", "broken.ttl", "broken.ttl:2:6: cannot parse as turtle: "),
        ('{"@id": ', "broken.jsonld", "broken.jsonld: not JSON"),
    ],
)
def test_unreadable_data_exits_2_with_one_line(tmp_path, capsys, content, name, expected) -> None:
    path = tmp_path / name
    if content is not None:
        path.write_text(content)
    assert main(["validate", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    (line,) = captured.err.splitlines()
    assert line.startswith("urnld validate: error: ")
    assert expected in line


def test_unreadable_shapes_exit_2(files, tmp_path, capsys) -> None:
    broken = tmp_path / "shapes.ttl"
    broken.write_text("@prefix sh: <http://www.w3.org/ns/shacl#> . sh:x sh:y")
    assert main(["validate", str(files["good"]), "-s", str(broken)]) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert "shapes.ttl:1:54: cannot parse as turtle: Unexpected end" in line


def test_shapes_that_cannot_run_exit_2(files, tmp_path, capsys) -> None:
    shapes = tmp_path / "shapes.ttl"
    shapes.write_text("""@prefix sh: <http://www.w3.org/ns/shacl#> .
@prefix urnsh: <https://w3id.org/urnld/shacl#> .
<http://example.org/S> a sh:NodeShape ; sh:targetNode <http://example.org/b1> ;
    urnsh:nid ( "isbn" ) .
""")
    assert main(["validate", str(files["good"]), "-s", str(shapes)]) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert "urnsh:nid must be a string" in line


def test_sparql_engine_option(files, capsys) -> None:
    assert main(["validate", str(files["bad"]), "--evaluator", "sparql", "--format", "json"]) == 1
    assert json.loads(capsys.readouterr().out)["summary"] == {"Violation": 1}


def test_stdin(monkeypatch, capsys) -> None:
    import io
    import sys

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(BAD.encode())))
    assert main(["validate", "-", "--format", "json"]) == 1
    assert json.loads(capsys.readouterr().out)["summary"] == {"Violation": 1}


def test_findings_list_every_result(files, tmp_path, capsys) -> None:
    out = tmp_path / "f.jsonl"
    assert main(["validate", str(files["bad"]), str(files["good"]), "-q",
                 "--findings", str(out)]) == 1
    capsys.readouterr()
    (record,) = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert record["kind"] == "shacl-result"
    assert record["urn"] == '"urn:isbn:9780199535560"'
    assert record["source"] == "<http://example.org/b2>"
    assert record["severity"] == "Violation"
    assert record["code"] == "urnsh:NamespaceValidConstraintComponent"


# Only warnings: a valid ISBN URN spelled with hyphens and capitals (not canonical).
WARN_ONLY = """@prefix bibo: <http://purl.org/ontology/bibo/> .
@prefix dcterms: <http://purl.org/dc/terms/> .
<http://example.org/b3> a bibo:Book ; dcterms:identifier "URN:ISBN:978-0-19-953556-9" .
"""


@pytest.mark.parametrize(("data", "fail_on", "code"), [
    ("warn", None, 1), ("warn", "info", 1), ("warn", "warning", 1), ("warn", "violation", 0),
    ("bad", "violation", 1), ("bad", "warning", 1), ("good", "info", 0), ("good", "violation", 0),
])
def test_fail_on(files, tmp_path, capsys, data: str, fail_on: str | None, code: int) -> None:
    warn = tmp_path / "warn.ttl"
    warn.write_text(WARN_ONLY)
    path = warn if data == "warn" else files[data]
    argv = ["validate", str(path)] + ([] if fail_on is None else ["--fail-on", fail_on])
    assert main(argv) == code
    lines = capsys.readouterr().out.splitlines()
    if data == "warn":  # every result is still listed, whatever the exit status
        assert [line.split("\t")[0] for line in lines[1:]] == ["Warning"]


def test_the_pre_commit_hook_fails_on_violations_only(files, tmp_path, capsys) -> None:
    import yaml

    hooks = yaml.safe_load((Path(__file__).parents[2] / ".pre-commit-hooks.yaml").read_text())
    hook = next(h for h in hooks if h["id"] == "urnld-validate")
    warn = tmp_path / "warn.ttl"
    warn.write_text(WARN_ONLY)
    # pre-commit runs `entry args… file…`
    argv = [*hook["entry"].split()[1:], *hook.get("args", [])]
    assert main([*argv, str(warn)]) == 0
    assert main([*argv, str(warn), str(files["bad"])]) == 1
    capsys.readouterr()


def test_fail_on_rejects_an_unknown_severity(files, capsys) -> None:
    with pytest.raises(SystemExit) as e:
        main(["validate", "--fail-on", "error", str(files["good"])])
    assert e.value.code == 2
    assert "--fail-on" in capsys.readouterr().err


@pytest.mark.parametrize("kind", ["fifo", "device"])
def test_shapes_that_are_not_a_regular_file_are_refused_in_one_line(
    tmp_path: Path, capsys, kind: str
) -> None:
    # A FIFO would block the read and /dev/zero never ends: one line naming it, exit 2.
    if kind == "fifo":
        shapes = tmp_path / "shapes.ttl"
        os.mkfifo(shapes)
    else:
        shapes = Path("/dev/zero")
    data = tmp_path / "d.ttl"
    data.write_text("<http://example.org/a> <http://example.org/p> 1 .\n")
    assert main(["validate", str(data), "-s", str(shapes)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and str(shapes) in err[0] and "not a regular file" in err[0]


def test_findings_and_sarif_carry_every_result(tmp_path: Path, capsys) -> None:
    import jsonschema

    catalog = Path(__file__).parents[2] / "examples" / "shacl" / "catalog.ttl"
    sarif, findings = tmp_path / "r.sarif", tmp_path / "r.jsonl"
    assert main(["validate", str(catalog), "--json", "--sarif", str(sarif),
                 "--findings", str(findings)]) == 1
    report = json.loads(capsys.readouterr().out)
    log = json.loads(sarif.read_text())
    schema = json.loads((Path(__file__).parents[1] / "data" / "sarif-schema-2.1.0.json")
                        .read_text())
    jsonschema.validate(log, schema)
    results = log["runs"][0]["results"]
    assert len(results) == len(report["results"]) == 19
    levels = {r["level"] for r in results}
    assert levels == {"error", "warning"}  # 14 violations, 5 warnings
    rules = [r["id"] for r in log["runs"][0]["tool"]["driver"]["rules"]]
    assert all(rules[r["ruleIndex"]] == r["ruleId"] for r in results)
    assert len(findings.read_text().splitlines()) == 19
    assert sum(c["count"] for c in report["counts"]) == 19
