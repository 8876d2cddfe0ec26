"""The validation policy (strict, profiles, severity overrides) in the SHACL components."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from rdflib import Graph
from shacl_helpers import PREFIXES

from urnld import Policy, SeverityMap
from urnld.shacl import validate

SHAPES = PREFIXES + """
ex:S a sh:NodeShape ; sh:targetClass ex:R ;
    sh:property [ sh:path ex:id ; urnsh:registered true ; urnsh:namespaceValid true ] .
"""
# an OGC CRS name (WMS capabilities), FHIR's MDC code system, and an SGTIN with a serial of
# leading zero (valid under GS1's Tag Data Standard, not under RFC 5134's numeric reading)
DATA = PREFIXES + """
ex:a a ex:R ; ex:id "urn:x-ogc:def:crs:EPSG:6.11:2192" .
ex:b a ex:R ; ex:id "urn:iso:std:iso:11073:10101" .
ex:c a ex:R ; ex:id "urn:epc:id:sgtin:900100.0003456.01234567" .
"""


def _focus(policy: Policy | None, engine: str = "python") -> set[str]:
    shapes = Graph().parse(data=SHAPES, format="turtle")
    data = Graph().parse(data=DATA, format="turtle")
    report = validate(data, shapes, policy=policy, evaluator=engine)
    return {str(r.focus_node).rsplit("/", 1)[1] for r in report.results}


@pytest.mark.parametrize("engine", ["plan", "pyshacl", "sparql"])
def test_policy_changes_what_the_components_report(engine: str) -> None:
    assert _focus(None, engine) == {"a", "b"}
    ignore = Policy(severity=SeverityMap({"nid-experimental": "ignore"}),
                    profiles=frozenset({"iso-current"}))
    assert _focus(ignore, engine) == set()
    assert _focus(Policy(strict=True), engine) == {"a", "b", "c"}


def test_cli_validate_reads_the_project_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from urnld.cli import main

    (tmp_path / "shapes.ttl").write_text(SHAPES)
    (tmp_path / "data.ttl").write_text(DATA)
    monkeypatch.chdir(tmp_path)
    assert main(["validate", "data.ttl", "-s", "shapes.ttl", "--format", "json"]) == 1
    capsys.readouterr()
    (tmp_path / "urnld.toml").write_text(
        'profiles = ["iso-current"]\n[severity]\nnid-experimental = "ignore"\n')
    assert main(["validate", "data.ttl", "-s", "shapes.ttl", "--format", "json"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["conforms"] is True
    assert err == f"urnld validate: using policy from {tmp_path / 'urnld.toml'}\n"
    assert main(["validate", "data.ttl", "-s", "shapes.ttl", "--strict"]) == 1
    capsys.readouterr()
    assert main(["validate", "data.ttl", "-s", "shapes.ttl", "--no-config"]) == 1
