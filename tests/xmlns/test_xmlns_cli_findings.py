"""``urnld xmlns --findings``: every finding with its file and line."""

from __future__ import annotations

import json

from urnld.cli import main

# RFC 8141 App. C: 'X-' NIDs are not URNs; the two ISBN spellings are one URN (RFC 3187) that
# XML sees as two namespaces.
DOC = """<?xml version="1.0"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"
   xmlns:a="urn:x-foo:bar:"
   xmlns:b="URN:ISBN:0-395-36341-1" xmlns:c="urn:isbn:0395363411">
  <rdf:Description rdf:about="urn:example:1"/>
</rdf:RDF>
"""


def test_findings(tmp_path, capsys) -> None:
    src = tmp_path / "ns.xml"
    src.write_text(DOC, encoding="utf-8")
    out = tmp_path / "f.csv"
    assert main(["xmlns", "-q", str(src), "--findings", str(out)]) == 1
    capsys.readouterr()
    import csv

    with out.open(encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    assert [(r["kind"], r["urn"], r["line"]) for r in rows] == [
        # the line of the start tag that declares it, as the audit reports it
        ("invalid-urn", "urn:x-foo:bar:", "2"), ("cluster", "", ""),
    ]
    assert rows[1]["spellings"] == "URN:ISBN:0-395-36341-1=1 urn:isbn:0395363411=1"
    jsonl = tmp_path / "f.jsonl"
    assert main(["xmlns", "-q", str(src), "--findings", str(jsonl)]) == 1
    capsys.readouterr()
    first = json.loads(jsonl.read_text(encoding="utf-8").splitlines()[0])
    assert first["source"] == str(src) and "App. C" in first["message"]
