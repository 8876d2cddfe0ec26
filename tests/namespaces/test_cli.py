"""``urnld namespaces [--json] [--with-rules] [NID…]``."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from urnld._core._builtin import BUILTIN
from urnld.cli import main
from urnld.namespaces import get_rule
from urnld.registry import registry


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> list[dict[str, object]]:
    assert main(["namespaces", "--json", *args]) == 0
    data: list[dict[str, object]] = json.loads(capsys.readouterr().out)
    return data


def test_json_lists_the_whole_registry_with_rules(capsys: pytest.CaptureFixture[str]) -> None:
    rows = run_json(capsys)
    by_nid = {str(r["nid"]): r for r in rows}
    assert set(registry()) <= set(by_nid)
    assert [r["nid"] for r in rows] == sorted(by_nid)
    for nid, entry in registry().items():
        assert by_nid[nid]["registered"] is True
        assert by_nid[nid]["kind"] == entry.kind
        assert by_nid[nid]["iana_reference"] == entry.reference
    with_rules = {nid for nid, r in by_nid.items() if r["rule"] is not None}
    assert with_rules == set(BUILTIN)
    for nid in BUILTIN:
        rule = by_nid[nid]["rule"]
        assert isinstance(rule, dict)
        assert rule["reference"] == get_rule(nid).reference
        assert rule["source"] == "builtin"
        assert rule["provisional"] is get_rule(nid).provisional
    assert by_nid["3gpp"]["rule"] is None and by_nid["3gpp"]["rule_error"] is None


def test_filters(capsys: pytest.CaptureFixture[str]) -> None:
    assert [r["nid"] for r in run_json(capsys, "ISBN", "3gpp")] == ["3gpp", "isbn"]
    assert {str(r["nid"]) for r in run_json(capsys, "--with-rules")} == set(BUILTIN)


def test_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["namespaces", "--with-rules"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split()[:3] == ["nid", "kind", "rule"]
    doi = next(line for line in out if line.startswith("doi "))
    assert "provisional" in doi and "ISO 26324" in doi
    assert out[-1] == f"{len(BUILTIN)} namespaces, {len(BUILTIN)} with urnld rules"


def test_unknown_nid_is_named_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["namespaces", "sha1"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("urnld namespaces: not in the registry and no rule: ") and "sha1" in err
    assert err.count("\n") == 1


def test_namespaces_command_is_cheap() -> None:
    code = (
        "import sys\nfrom urnld.cli import main\n"
        "main(['namespaces', '--json'])\n"
        "bad = [m for m in ('rdflib', 'pyld', 'stdnum', 'dask') if m in sys.modules]\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], capture_output=True, check=True)
