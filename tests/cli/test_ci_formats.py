"""``--sarif`` (SARIF 2.1.0, validated against the OASIS schema) and GitHub Actions
annotations: one result per invalid URN occurrence, at its file and line."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from urnld.cli import main
from urnld.cli._findings import NOTE_CODES
from urnld.findings import CODES

# The SARIF 2.1.0 schema as OASIS publishes it (errata 01), from the oasis-tcs/sarif-spec
# repository (sarif-2.1/schema/sarif-schema-2.1.0.json): the tests cannot fetch it.
SCHEMA = Path(__file__).parents[1] / "data" / "sarif-schema-2.1.0.json"

DATA = (
    '<urn:isbn:0395363411> <http://e/p> "x" .\n'
    "<urn:x-foo:1> <http://e/p> <urn:isbn:0395363412> .\n"  # two invalid URNs on line 2
    "<http://e/s> <http://e/p> <URN:ISBN:0-395-36341-1> .\n"
    '<http://e/s> <http://e/q> "urn:x-foo:1" .\n'  # the same invalid URN again, line 4
)


@pytest.fixture
def data(tmp_path: Path) -> Path:
    path = tmp_path / "d.nt"
    path.write_text(DATA, encoding="utf-8")
    return path


def _validator() -> jsonschema.protocols.Validator:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema, format_checker=cls.FORMAT_CHECKER)


def test_sarif_is_valid_and_places_every_occurrence(data, tmp_path, capsys, monkeypatch) -> None:
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    out = tmp_path / "r.sarif"
    assert main(["check", "-q", "--sarif", str(out), str(data)]) == 1
    assert "::error" not in capsys.readouterr().err  # not on GitHub: no annotations
    log = json.loads(out.read_text(encoding="utf-8"))
    errors = list(_validator().iter_errors(log))
    assert errors == []
    run = log["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    # The URN finding codes, then those of what reading JSON-LD drops (check's notes).
    assert [r["id"] for r in rules] == list(CODES) + list(NOTE_CODES)
    by_id = {r["id"]: r for r in rules}
    assert by_id["nid-experimental"]["helpUri"].endswith("rfc8141#appendix-C")
    assert by_id["syntax"]["helpUri"].endswith("rfc8141#section-2")
    assert "RFC 8141" in by_id["nid-experimental"]["help"]["text"]
    places = sorted(
        (r["ruleId"], r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
         r["locations"][0]["physicalLocation"]["region"]["startLine"])
        for r in run["results"]
    )
    uri = data.as_uri()
    assert places == [("nid-experimental", uri, 2), ("nid-experimental", uri, 4),
                      ("nss-check-digit", uri, 2)]
    for r in run["results"]:
        assert rules[r["ruleIndex"]]["id"] == r["ruleId"]
        assert r["level"] == "error"


def test_sarif_of_a_clean_file_is_valid_and_empty(tmp_path) -> None:
    clean = tmp_path / "c.nt"
    clean.write_text('<urn:isbn:0395363411> <http://e/p> "x" .\n', encoding="utf-8")
    out = tmp_path / "r.sarif"
    assert main(["check", "-q", "--sarif", str(out), str(clean)]) == 0
    log = json.loads(out.read_text(encoding="utf-8"))
    assert list(_validator().iter_errors(log)) == []
    assert log["runs"][0]["results"] == []


def test_github_annotations(data, capsys, monkeypatch) -> None:
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    assert main(["check", "-q", str(data)]) == 1
    err = capsys.readouterr().err
    lines = sorted(line for line in err.splitlines() if line.startswith("::"))
    assert lines == sorted([
        f"::error file={data},line=2,title=nid-experimental::invalid URN urn:x-foo:1: "
        + _message("urn:x-foo:1"),
        f"::error file={data},line=4,title=nid-experimental::invalid URN urn:x-foo:1: "
        + _message("urn:x-foo:1"),
        f"::error file={data},line=2,title=nss-check-digit::invalid URN urn:isbn:0395363412: "
        + _message("urn:isbn:0395363412"),
    ])
    monkeypatch.delenv("GITHUB_ACTIONS")
    assert main(["check", "-q", "--annotations", "github", str(data)]) == 1
    assert capsys.readouterr().err.count("::error ") == 3
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    assert main(["check", "-q", "--annotations", "none", str(data)]) == 1
    assert "::error" not in capsys.readouterr().err


def _message(urn: str) -> str:
    from urnld import check

    first = next(f for f in check(urn) if str(f.severity) == "error")
    # workflow-command data escapes: %, CR, LF
    return first.message.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def test_findings_csv_and_jsonl_agree(data, tmp_path) -> None:
    j, c = tmp_path / "f.jsonl", tmp_path / "f.csv"
    assert main(["check", "-q", "--findings", str(j), str(data)]) == 1
    assert main(["check", "-q", "--findings", str(c), str(data)]) == 1
    records = [json.loads(line) for line in j.read_text(encoding="utf-8").splitlines()]
    import csv

    with c.open(encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    assert [r["kind"] for r in records] == [r["kind"] for r in rows]
    assert [(r["kind"], r.get("urn") or "") for r in records] == [
        # in input order: line 2 (left to right), then line 4
        ("invalid-urn", "urn:x-foo:1"), ("invalid-urn", "urn:isbn:0395363412"),
        ("invalid-urn", "urn:x-foo:1"), ("non-canonical", "URN:ISBN:0-395-36341-1"),
        ("cluster", ""),
    ]
    assert [r["line"] for r in records[:3]] == [2, 2, 4]
    assert rows[4]["spellings"] == "URN:ISBN:0-395-36341-1=1 urn:isbn:0395363411=1"


CATALOG = Path(__file__).resolve().parents[2] / "examples" / "catalog" / "catalog.ttl"


@pytest.mark.parametrize("command", ["check", "canonicalize"])
def test_one_record_per_occurrence_in_turtle(command, tmp_path, capsys) -> None:
    # issue 38: the catalog's invalid URNs have 5 occurrences (one URN in one statement) but
    # --findings and --sarif wrote 4 records: urn:isbn:9780141439519 is the subject of two
    # statements written once, with a ';' list.
    findings, sarif = tmp_path / "f.jsonl", tmp_path / "f.sarif"
    extra = (["-o", str(tmp_path / "out.ttl"), "--report", str(tmp_path / "r.json")]
             if command == "canonicalize" else ["--json", "--sarif", str(sarif)])
    assert main([command, str(CATALOG), "-q", *extra, "--findings", str(findings)]) in (0, 1)
    out = capsys.readouterr().out
    if command == "check":
        occurrences = json.loads(out)["invalid"]["occurrences"]
        assert occurrences == 5
    else:  # the URNs without a canonical form (the X- NIDs), left as written
        occurrences = json.loads((tmp_path / "r.json").read_text())["urns"]["invalid"]
        assert occurrences == 2
    records = [json.loads(line) for line in findings.read_text().splitlines()]
    invalid = [r for r in records if r["kind"] == "invalid-urn"]
    assert len(invalid) == occurrences
    assert all(r["line"] is not None for r in invalid)
    twice = [r["line"] for r in invalid if r["urn"] == "urn:isbn:9780141439519"]
    if twice:
        assert twice == [119, 119]  # the subject of both statements, written on line 119
    if command == "check":
        results = json.loads(sarif.read_text())["runs"][0]["results"]
        assert len(results) == occurrences
