"""check --locators, and the spelling modes in the HTML reports (tests/data/mixed)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from rdflib import Graph

from urnld import CODES
from urnld.cli import main
from urnld.rdf import check_graph
from urnld.report import CheckReport
from urnld.stream import check_file

DATA = Path(__file__).resolve().parents[1] / "data" / "mixed"
MIXED = DATA / "mixed.nt"

# The locators of mixed.nt that the resolver table reads back (tests/canon/test_canon_spellings).
LOCATORS = {
    "http://nbn-resolving.de/urn:nbn:de:bvb:19-146642": "urn:nbn:de:bvb:19-146642",
    "https://doi.org/10.1000/182": "urn:doi:10.1000/182",
    "https://doi.org/10.1000/999": "urn:doi:10.1000/999",
    "https://urn.kb.se/resolve?urn=urn:nbn:se:uu:diva-3475": "urn:nbn:se:uu:diva-3475",
}


def test_check_locators_stream_and_graph_agree() -> None:
    streamed = check_file(MIXED, locators=True)
    in_memory = check_graph(Graph().parse(MIXED, format="nt"), locators=True)
    assert streamed == in_memory
    assert {iri: urn for iri, (_n, urn) in streamed.locators.items()} == LOCATORS
    assert streamed.findings["locator"] == 4
    assert CODES["locator"][0] == "info"
    # Locators are no URN occurrences: the URN counts are those of a check without them.
    plain = check_file(MIXED)
    assert "locators" not in plain.to_dict() and "locator" not in plain.findings
    assert plain.iri_occurrences == streamed.iri_occurrences
    assert plain.ok == streamed.ok


def test_check_locators_with_digital_links() -> None:
    report = check_file(MIXED, locators=True, prefix_lengths={"4012345": 7, "0614141": 7})
    assert report.findings["locator"] == 8
    assert report.locators["https://id.gs1.org/00/106141412345678908"] == (
        1, "urn:epc:id:sscc:0614141.1234567890"
    )


def test_check_report_merges() -> None:
    a = check_file(MIXED, locators=True)
    b = CheckReport()
    assert a.merge(b) == a
    assert a.merge(a).findings["locator"] == 8


def test_cli_check_locators(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    html = tmp_path / "c.html"
    assert main(["check", str(MIXED), "--locators", "--json", "--html", str(html)]) == 1
    d = json.loads(capsys.readouterr().out)
    assert d["findings"]["locator"] == 4
    assert {iri: v["urn"] for iri, v in d["locators"]["iris"].items()} == LOCATORS
    page = html.read_text(encoding="utf-8")
    assert "Locators of URNs" in page and "https://urn.kb.se/resolve" in page
    assert main(["check", str(MIXED), "--locators", "-q"]) == 1
    assert main(["check", str(MIXED), "--gs1-prefix-lengths", "x.json"]) == 2


def test_canonicalize_html_shows_repairs_and_locators(tmp_path: Path) -> None:
    html = tmp_path / "r.html"
    assert main(["canonicalize", str(MIXED), "--merge-locators", "--repair", "-q",
                 "-o", str(tmp_path / "out.nt"), "--html", str(html)]) == 0
    page = html.read_text(encoding="utf-8")
    assert "Repairs applied" in page and "uuid-underscore" in page
    assert "Locators of URNs" in page and "nbn-resolving.de" in page
    plain = tmp_path / "p.html"
    assert main(["canonicalize", str(MIXED), "-q", "-o", str(tmp_path / "p.nt"),
                 "--html", str(plain)]) == 0
    assert "Repairs applied" not in plain.read_text(encoding="utf-8")


# mixed.nt's near-miss UUIDs: RFC 9562 §4's example without hyphens and braced, and a CGMES
# 2.4 '_' identifier; each is invalid, and a documented repair fixes it.
REPAIRABLE = 3


def _check_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    rc = main(["check", str(MIXED), *argv])
    return rc, capsys.readouterr().out


@pytest.mark.parametrize("compiled", [False, True], ids=["pure", "compiled"])
def test_check_shows_repairable_on_both_paths(
    compiled: bool, capsys: pytest.CaptureFixture[str]
) -> None:
    from urnld._core import _accel

    built = _accel.speedups
    if compiled and built is None:
        pytest.skip("the C accelerator is not built")
    saved = _accel.speedups
    _accel.speedups = built if compiled else None
    try:
        rc, text = _check_cli(capsys)
        rc_json, out = _check_cli(capsys, "--json")
        streamed = check_file(MIXED, jobs=1)
    finally:
        _accel.speedups = saved
    assert rc == rc_json == 1
    assert json.loads(out)["findings"]["repairable"] == REPAIRABLE
    assert streamed.findings["repairable"] == REPAIRABLE
    assert any(line.split() == ["repairable", str(REPAIRABLE)] for line in text.splitlines())
    # The in-memory check (the reference, urnld.check per term) counts the same.
    assert check_graph(Graph().parse(MIXED, format="nt")).findings == streamed.findings


def test_check_output_is_the_same_on_both_paths(capsys: pytest.CaptureFixture[str]) -> None:
    from urnld._core import _accel

    built = _accel.speedups
    if built is None:
        pytest.skip("the C accelerator is not built")
    outputs = []
    for module in (None, built):
        saved = _accel.speedups
        _accel.speedups = module
        try:
            outputs.append((_check_cli(capsys), _check_cli(capsys, "--json")))
        finally:
            _accel.speedups = saved
    assert outputs[0] == outputs[1]


@pytest.mark.parametrize("options", [[], ["--merge-locators"], ["--merge-locators", "--repair"]])
def test_canonicalize_summary_counts_urns_that_break_their_rules(options, tmp_path, capsys) -> None:
    # issue 38: with --merge-locators and no --repair, an invalid UUID was left as written and
    # the summary did not count it; `urnld check` lists it as invalid.
    src = tmp_path / "in.nt"
    src.write_text(
        '<urn:uuid:_f81d4fae7dec11d0a76500a0c91e6bf6> <http://e/p> "o" .\n'
        '<urn:isbn:12345> <http://e/p> "o" .\n'
        '<http://e/s> <http://e/p> <https://doi.org/10.1000/182> .\n'
    )
    assert main(["canonicalize", str(src), "-o", str(tmp_path / "out.nt"), *options]) == 0
    err = capsys.readouterr().err
    repaired = "--repair" in options
    assert main(["check", str(tmp_path / "out.nt"), "--json"]) == 1
    left = json.loads(capsys.readouterr().out)["invalid"]["occurrences"]
    assert left == (1 if repaired else 2)
    assert (f"{left} occurrence{'s' if left > 1 else ''} of URNs that break their namespace's "
            "rules") in err, err
