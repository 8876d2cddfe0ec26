"""What reading JSON-LD drops or warns about is a finding of ``urnld check`` (issue 36).

JSON-LD 1.1 drops a key that expands to no absolute IRI (its values with it), a node or value
whose IRI is not well-formed, a blank-node property; a relative reference in a file without
``@base`` resolves against the file's location. These were at most a line on stderr: now each
is a note of the check report (``--json``), a ``jsonld`` record of ``--findings`` and a SARIF
warning, with the file and the JSON pointer of the key or value, the same on both code paths.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from urnld.cli import main
from urnld.files import check
from urnld.jsonld import ReadingNote, URNContextWarning, reading_notes
from urnld.report import CheckReport

SCHEMA = Path(__file__).parents[1] / "data" / "sarif-schema-2.1.0.json"

DOC = {
    "@context": {"name": "http://schema.org/name", "gone": None, "_:p": {"@id": "_:p"}},
    "@id": "urn:isbn:0-395-36341-1",
    "name": "Ada",
    "nickname": "not a term",          # no @vocab: dropped
    "gone": "mapped to null",          # dropped
    "_:p": "a blank-node property",    # no RDF statement
    "http://schema.org/knows": [
        {"@id": "urn:example:b"},
        {"@id": "not an iri", "name": "dropped with its node"},
    ],
    "http://schema.org/about": {"@id": "part-1"},  # resolved against the file's location
}


def test_each_drop_is_placed_by_its_json_pointer() -> None:
    notes = reading_notes(DOC, base="file:///data/d.jsonld")
    assert [(n.where, n.code) for n in notes] == [
        ("", "jsonld-file-base"),
        ("/_:p", "jsonld-dropped-key"),
        ("/gone", "jsonld-dropped-key"),
        ("/http:~1~1schema.org~1knows/1/@id", "jsonld-dropped-iri"),
        ("/nickname", "jsonld-dropped-key"),
    ]
    by_where = {n.where: n.message for n in notes}
    assert "1 IRI resolved against the file's location <file:///data/d.jsonld>" in by_where[""]
    assert "mapped to null" in by_where["/gone"]
    assert "'not an iri'" in by_where["/http:~1~1schema.org~1knows/1/@id"]


def test_the_urn_hazards_of_the_contexts_are_notes_too() -> None:
    # 'yang:eth0' stays as written: the term maps to a URN namespace with no gen-delim at its
    # end, which JSON-LD 1.1 uses as a prefix only with "@prefix": true (was a stderr line of
    # the in-memory reader only, and nothing on the streaming path).
    doc = {"@context": {"yang": "urn:ietf:params:xml:ns:yang:ietf-interfaces"},
           "@id": "yang:eth0", "https://schema.org/p": 1}
    notes = reading_notes(doc, base="http://example.org/")
    assert [(n.where, n.code) for n in notes] == [("/@id", "jsonld-prefix-not-usable")]
    assert notes[0].message.startswith("'yang:eth0' was not expanded: term 'yang' maps")


def test_a_document_that_drops_nothing_has_no_notes() -> None:
    doc = {"@context": {"@vocab": "http://schema.org/"}, "@id": "urn:example:a", "name": "x",
           "knows": {"@id": "http://example.org/b"}}
    assert reading_notes(doc, base="http://example.org/") == []


def test_a_document_the_algorithm_refuses_gives_no_notes() -> None:
    # The readers refuse it with the processor's error; notes are for documents that read.
    assert reading_notes({"@context": {"@id": 1}}, base="http://example.org/") == []


def test_contexts_come_from_the_catalog() -> None:
    from urnld.jsonld import URNDocumentLoader

    loader = URNDocumentLoader({"urn:example:ctx": {"@context": {"a": "http://e/a"}}})
    doc = {"@context": "URN:EXAMPLE:ctx", "a": 1, "b": 2}
    assert reading_notes(doc, loader=loader, base="http://example.org/") == [ReadingNote(
        "/b", "jsonld-dropped-key", "key 'b' expands to 'b', not an absolute IRI, a compact "
        "IRI or a keyword: the key and its values are dropped")]


@pytest.fixture
def doc(tmp_path: Path) -> Path:
    path = tmp_path / "d.jsonld"
    path.write_text(json.dumps(DOC, indent=1), encoding="utf-8")
    return path


def test_the_library_check_report_holds_them(doc: Path) -> None:
    with pytest.warns(URNContextWarning, match="resolved against the file's location"):
        report = check(doc, name="d.jsonld")  # still said, and now also a note
    assert report.note_count == 5
    notes = list(report.iter_notes())
    assert {(s, w, c) for s, w, c, _m, _n in notes} >= {
        ("d.jsonld", "/nickname", "jsonld-dropped-key"),
        ("d.jsonld", "/http:~1~1schema.org~1knows/1/@id", "jsonld-dropped-iri"),
    }
    assert report.ok  # not about URNs, not errors: the invalid URN decides, and there is none
    d = report.to_dict()
    assert d["notes"]["count"] == 5 and d["notes"]["codes"] == {
        "jsonld-dropped-iri": 1, "jsonld-dropped-key": 3, "jsonld-file-base": 1}
    # Merged reports keep them; a report without notes keeps its shape.
    assert report.merge(CheckReport()).to_dict()["notes"] == d["notes"]
    assert "notes" not in CheckReport().to_dict()


def test_check_json_findings_and_sarif(doc: Path, tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    findings, sarif = tmp_path / "f.jsonl", tmp_path / "r.sarif"
    assert main(["check", "d.jsonld", "--findings", str(findings), "--sarif", str(sarif),
                 "-q"]) == 0
    capsys.readouterr()
    assert main(["check", "d.jsonld", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["notes"]["count"] == 5
    records = [json.loads(line) for line in findings.read_text().splitlines()]
    jsonld = [r for r in records if r["kind"] == "jsonld"]
    assert [(r["source"], r["where"], r["code"], r["count"]) for r in jsonld] == [
        (i["source"], i["where"], i["code"], i["count"]) for i in out["notes"]["items"]]
    assert len(jsonld) == 5
    log = json.loads(sarif.read_text())
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    cls = jsonschema.validators.validator_for(schema)
    assert list(cls(schema).iter_errors(log)) == []
    results = [r for r in log["runs"][0]["results"] if r["ruleId"].startswith("jsonld-")]
    assert len(results) == 5 and {r["level"] for r in results} == {"warning"}
    placed = {r["locations"][0]["logicalLocations"][0]["fullyQualifiedName"]
              for r in results if "logicalLocations" in r["locations"][0]}
    assert "/nickname" in placed and "/http:~1~1schema.org~1knows/1/@id" in placed


@pytest.mark.parametrize("catalog", [False, True])
def test_same_bytes_on_both_code_paths(doc: Path, tmp_path: Path, catalog: bool) -> None:
    # Accelerated and URNLD_PURE_PYTHON=1, streamed and (with a catalog) read by the reader.
    args = [sys.executable, "-m", "urnld", "check", "d.jsonld", "--json"]
    if catalog:
        (tmp_path / "cat").mkdir()
        (tmp_path / "cat" / "catalog.json").write_text('{"urn:example:ctx": "ctx.jsonld"}')
        (tmp_path / "cat" / "ctx.jsonld").write_text('{"@context": {"a": "http://e/a"}}')
        doc.write_text(json.dumps({**DOC, "@context": [DOC["@context"], "urn:example:ctx"],
                                   "a": 1}))
        args += ["--catalog", "cat"]
    outs = []
    for pure in ("", "1"):
        env = {**os.environ, "URNLD_PURE_PYTHON": pure}
        proc = subprocess.run(args, cwd=tmp_path, env=env, capture_output=True, check=False)
        assert proc.returncode == 0, proc.stderr
        outs.append(proc.stdout)
    assert outs[0] == outs[1]
    assert json.loads(outs[0])["notes"]["count"] == 5


SUITE = Path(__file__).resolve().parents[1] / "data" / "w3c" / "json-ld-api" / "tests"


@pytest.mark.parametrize(("test", "where"), [
    ("wf01", "/@id"), ("wf03", "/http:~1~1example.com~1bar/@id"), ("wf04", "/@type/1"),
    ("wf07", "/@id"),
])
def test_w3c_ill_formed_iris_are_the_ones_the_suite_drops(test: str, where: str) -> None:
    # The suite's toRdf "well-formed" tests: the IRI noted is absent from the expected output.
    doc = json.loads((SUITE / "toRdf" / f"{test}-in.jsonld").read_text(encoding="utf-8"))
    notes = [n for n in reading_notes(doc, base=f"https://w3c.github.io/json-ld-api/tests/"
                                      f"toRdf/{test}-in.jsonld")
             if n.code == "jsonld-dropped-iri"]
    assert [n.where for n in notes] == [where]
    iri = notes[0].message.split("'")[1]
    assert f"<{iri}>" not in (SUITE / "toRdf" / f"{test}-out.nq").read_text(encoding="utf-8")


def test_a_failing_analysis_is_a_note_not_a_crash(
    doc: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: object, **kwargs: object) -> list[ReadingNote]:
        raise TypeError("pyld changed")

    monkeypatch.setattr("urnld.jsonld.reading_notes", broken)
    with pytest.warns(URNContextWarning):
        report = check(doc, name="d.jsonld")
    assert [(c, m) for _s, _w, c, m, _n in report.iter_notes()] == [(
        "jsonld-not-analysed",
        "what reading it drops could not be looked for: TypeError: pyld changed")]
    assert report.statements_in > 0
