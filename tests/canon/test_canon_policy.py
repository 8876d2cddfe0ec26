"""The validation policy in ``urnld check`` / ``urnld canonicalize`` and the passes behind them.

Real identifiers, each with its source: UN/CEFACT's CII namespace (every ZUGFeRD / Factur-X
invoice), an OGC CRS name (WMS capabilities), GS1's EPCIS 2.0 SGTIN example.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from rdflib import Graph

from urnld import Policy, SeverityMap
from urnld.cli import main
from urnld.rdf import canonicalize

P = "<http://e/p>"
CII = "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100"
OGC = "urn:x-ogc:def:crs:EPSG:6.11:2192"
SGTIN = "urn:epc:id:sgtin:4012345.033333.AGHFG"


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    f = tmp_path / "data.nt"
    f.write_text(f"<URN:UN:unece:uncefact:data:standard:CrossIndustryInvoice:100> {P} <{OGC}> .\n"
                 f"<{SGTIN}> {P} <urn:isbn:0395363411> .\n")
    return f


def _check(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict]:  # type: ignore[type-arg]
    code = main(["check", "--json", *argv])
    out, _ = capsys.readouterr()
    return code, json.loads(out)


def test_check_policy_options(capsys: pytest.CaptureFixture[str], data: Path) -> None:
    code, d = _check(capsys, str(data))
    assert code == 1 and set(d["invalid"]["urns"]) == {OGC}
    code, d = _check(capsys, str(data), "--severity", "nid-experimental=warning")
    assert code == 0 and d["invalid"]["urns"] == {}
    assert d["policy"] == {"strict": False, "profiles": [], "source": None,
                           "severity": {"nid-experimental": "warning"}}
    code, d = _check(capsys, str(data), "--strict")
    assert code == 1
    assert set(d["invalid"]["urns"]) == {OGC, CII.replace("urn:un", "URN:UN"), SGTIN}


def test_check_reads_the_project_file(capsys: pytest.CaptureFixture[str], data: Path) -> None:
    (data.parent / "pyproject.toml").write_text(
        '[tool.urnld.severity]\nnid-experimental = "ignore"\n')
    code = main(["check", str(data)])
    _, err = capsys.readouterr()
    assert code == 0
    assert f"using policy from {data.parent / 'pyproject.toml'} [tool.urnld]" in err


def test_canonicalize_policy(capsys: pytest.CaptureFixture[str], data: Path) -> None:
    out = data.parent / "out.nt"
    assert main(["canonicalize", str(data), "-o", str(out)]) == 0
    text = out.read_text()
    assert f"<{CII}>" in text  # a reserved two-letter NID is a usable URN: canonicalized
    assert f"<{OGC}>" in text  # X-: left as written
    assert main(["canonicalize", str(data), "-o", str(out), "--strict"]) == 0
    assert "<URN:UN:unece:" in out.read_text()  # strict: no URN, left as written
    capsys.readouterr()


def test_in_memory_pass_follows_the_policy() -> None:
    g = Graph().parse(data=f"<URN:X-OGC:def:crs:EPSG:6.11:2192> {P} <{CII}> .", format="nt")
    plain = canonicalize(g).report
    assert set(plain.invalid) == {"URN:X-OGC:def:crs:EPSG:6.11:2192"}
    lenient = canonicalize(
        g, policy=Policy(severity=SeverityMap({"nid-experimental": "warning"}))).report
    assert set(lenient.invalid) == set()
    strict = canonicalize(g, policy=Policy(strict=True)).report
    assert set(strict.invalid) == {"URN:X-OGC:def:crs:EPSG:6.11:2192", CII}
