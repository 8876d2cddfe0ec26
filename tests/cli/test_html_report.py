"""``--html``: one self-contained page, checked in a real browser (headless Chromium).

The page is rendered by Debian's ``chromium`` with networking off; ``--dump-dom`` gives the DOM
after the page's script ran, so a table sorted by the script (rows arrive in code-point order,
the script sorts them by occurrences) and a filter taken from ``#filter=…`` prove that the
script works, and the SVG bars prove a chart was drawn. Without chromium these tests are
skipped, except under CI (``CI`` set), where a missing browser is a failure.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from urnld.cli import main

REPO = Path(__file__).resolve().parents[2]
CATALOG = REPO / "examples/catalog/catalog.ttl"
SHACL_EXAMPLE = REPO / "examples/shacl/catalog.ttl"
XML_EXAMPLE = REPO / "examples/xml/saml-assertion.xml"


@pytest.fixture(scope="module")
def chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is required in CI (.ci/run installs it)")
        pytest.skip("chromium is not installed (apt-get install chromium)")
    return found


def _browser(chromium: str, tmp_path: Path, page: Path, *extra: str, fragment: str = "") -> str:
    profile = tmp_path / f"profile-{len(list(tmp_path.iterdir()))}"
    done = subprocess.run(
        [chromium, "--headless", "--no-sandbox", "--disable-gpu",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--no-first-run", f"--user-data-dir={profile}", *extra,
         page.as_uri() + fragment],
        capture_output=True, text=True, timeout=180, check=True,
    )
    return done.stdout


def dump_dom(chromium: str, tmp_path: Path, page: Path, fragment: str = "") -> str:
    return _browser(chromium, tmp_path, page, "--dump-dom", fragment=fragment)


def _rows(dom: str, table_id: str) -> list[str]:
    m = re.search(rf'<table id="{table_id}"[^>]*>.*?<tbody>(.*?)</tbody>', dom, re.S)
    assert m, table_id
    return re.findall(r"<tr[^>]*>.*?</tr>", m.group(1), re.S)


def _make(tmp_path: Path, *argv: str) -> Path:
    page = tmp_path / "report.html"
    assert main([*argv, "--html", str(page)]) in (0, 1)
    return page


def test_the_page_is_self_contained(tmp_path, capsys) -> None:
    page = _make(tmp_path, "check", str(CATALOG))
    capsys.readouterr()
    html = page.read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>")
    # nothing loaded from elsewhere: no external scripts, styles, fonts or images
    assert not re.search(r"<(link|img|iframe|object|embed)\b", html)
    assert not re.search(r"""\b(src|href)=["']?(https?:)?//""", html)
    assert "@import" not in html and "url(" not in html
    assert "default-src 'none'" in html  # and the browser is told to refuse any load


def test_canonicalize_report_colours_what_check_lists_as_invalid(tmp_path, capsys) -> None:
    # issue 38: the README's main job coloured all 39 isbn occurrences "valid", three of them
    # breaking the ISBN rules (wrong check digit x2, urn:isbn:12345) that `urnld check` lists.
    import json

    page = _make(tmp_path, "canonicalize", str(CATALOG), "--literals", "-q",
                 "-o", str(tmp_path / "out.ttl"))
    assert main(["check", str(CATALOG), "--literals", "--json"]) == 1
    checked = json.loads(capsys.readouterr().out)
    invalid_isbn = sum(v["count"] for s, v in checked["invalid"]["urns"].items()
                       if s.lower().startswith("urn:isbn:"))
    assert invalid_isbn == 3
    html = page.read_text(encoding="utf-8")
    bars = dict(re.findall(r"<title>isbn: (valid|invalid) ([\d,]+)</title>", html))
    assert bars == {"valid": str(checked["nids"]["isbn"]),  # check counts valid ones there
                    "invalid": str(invalid_isbn)}, bars


def test_check_report_in_a_browser(chromium, tmp_path, capsys) -> None:
    page = _make(tmp_path, "check", str(CATALOG))
    capsys.readouterr()
    dom = dump_dom(chromium, tmp_path, page)
    assert 'data-ready="1"' in dom  # the script ran to the end
    verdict = re.search(r'<header class="verdict verdict-(\w+)".*?<h1>(.*?)</h1>', dom, re.S)
    assert verdict and verdict.groups() == ("fail", "4 invalid URNs (5 occurrences)")
    assert len(re.findall(r'<rect class="bar"', dom)) >= 10  # charts drawn
    rows = _rows(dom, "invalid")
    assert len(rows) == 4
    # the server writes rows in code-point order; the script sorted them by occurrences
    assert "urn:isbn:9780141439519" in rows[0] and "examples/catalog/catalog.ttl:119" in rows[0]
    assert 'aria-sort="descending"' in dom
    assert "urnld check " + str(CATALOG) in dom  # the command that made it


def test_the_filter_in_the_address_is_applied(chromium, tmp_path, capsys) -> None:
    page = _make(tmp_path, "check", str(CATALOG))
    capsys.readouterr()
    dom = dump_dom(chromium, tmp_path, page, fragment="#filter=isbn:12345")
    rows = _rows(dom, "invalid")
    shown = [r for r in rows if "hidden" not in r.split(">", 1)[0]]
    assert len(shown) == 1 and "urn:isbn:12345" in shown[0]
    assert "1 of 4 shown" in dom


def test_canonicalize_report_in_a_browser(chromium, tmp_path, capsys) -> None:
    page = _make(tmp_path, "canonicalize", str(CATALOG), "--literals", "-q",
                 "-o", str(tmp_path / "out.ttl"))
    dom = dump_dom(chromium, tmp_path, page)
    assert 'data-ready="1"' in dom
    assert "Merged 26 spellings into 9 canonical URNs" in dom
    assert re.search(r'<rect class="bar"', dom)
    rows = _rows(dom, "invalid")
    assert any("urn:X-LOCAL:shelf-42" in r for r in rows)
    clusters = _rows(dom, "clusters")
    assert "urn:isbn:9780141439518" in clusters[0]  # 14 occurrences: first after sorting


def test_validate_report_in_a_browser(chromium, tmp_path, capsys) -> None:
    page = _make(tmp_path, "validate", str(SHACL_EXAMPLE))
    capsys.readouterr()
    dom = dump_dom(chromium, tmp_path, page)
    assert 'data-ready="1"' in dom
    assert re.search(r"<h1>Does not conform: \d+ violations, \d+ warnings</h1>", dom)
    assert re.search(r'<rect class="bar"', dom)
    assert any("urn:isbn:9780553380164" in r for r in _rows(dom, "results"))


def test_xmlns_report_in_a_browser(chromium, tmp_path, capsys) -> None:
    page = _make(tmp_path, "xmlns", str(XML_EXAMPLE))
    capsys.readouterr()
    dom = dump_dom(chromium, tmp_path, page)
    assert 'data-ready="1"' in dom
    assert re.search(r'<rect class="bar"', dom)
    assert any("URN:OASIS:names:tc:SAML:2.0:assertion" in r for r in _rows(dom, "namespaces"))


def test_screenshot(chromium, tmp_path, capsys) -> None:
    page = _make(tmp_path, "check", str(CATALOG))
    capsys.readouterr()
    shot = tmp_path / "shot.png"
    _browser(chromium, tmp_path, page, f"--screenshot={shot}", "--window-size=1280,1400")
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert (width, height) == (1280, 1400)
    assert len(data) > 50_000  # a drawn page, not a blank one


def _ready_ms(dom: str) -> float:
    m = re.search(r'data-ready-ms="([\d.]+)"', dom)
    assert m, "the page script did not finish"
    return float(m.group(1))


#: The page of a report with 50,000 invalid URNs and 30,000 clusters stays under this size:
#: each table shows its 1,000 most frequent rows (the totals on top are exact).
MAX_PAGE_BYTES = 1_500_000


def test_a_large_report_stays_small_and_opens_fast(chromium, tmp_path, capsys, monkeypatch) -> None:
    # 50,000 invalid URNs (each an 'X-' NID, RFC 8141 App. C) and 30,000 URNs in two
    # spellings each: every table is past the 10,000 examples a report map shows.
    big = tmp_path / "big.nt"
    with big.open("w", encoding="utf-8") as f:
        for i in range(50_000):
            f.write(f'<urn:x-bad:{i}> <http://e/p> "x" .\n')
        for i in range(30_000):
            f.write(f"<URN:EXAMPLE:item-{i}> <http://e/p> <urn:example:item-{i}> .\n")
    page = tmp_path / "big.html"
    assert main(["check", "-q", "--memory-budget", "1M", str(big), "--html", str(page)]) == 1
    capsys.readouterr()
    html = page.read_text(encoding="utf-8")
    assert len(html.encode("utf-8")) < MAX_PAGE_BYTES
    # exact totals in the cards, "N of M" on the tables, and where to find the rest
    figures = {label: value for value, label in re.findall(
        r'<div class="figure"><span class="figure-value">([\d,]+)</span>'
        r'<span class="figure-label">([^<]+)</span>', html)}
    assert figures["statements"] == "80,000"
    assert figures["invalid URNs"] == "50,000"
    assert figures["URNs spelled several ways"] == "30,000"
    assert figures["non-canonical spellings"] == "30,000"
    assert '<span class="count" data-total="1000">1,000 of 50,000</span>' in html
    assert "--findings FILE lists every one" in html

    # The same report with every example the report keeps (10,000 rows per table): what the
    # page held before tables were cut to their most frequent rows.
    from urnld.cli import _html_report

    monkeypatch.setattr(_html_report, "HTML_ROWS", 10**9)
    full = tmp_path / "full.html"
    assert main(["check", "-q", str(big), "--html", str(full)]) == 1
    capsys.readouterr()
    assert full.stat().st_size > 2 * page.stat().st_size

    # Load times measured in the same run, in the same browser: the capped page is ready
    # sooner than the full one (the best of two loads of each).
    small_ms = min(_ready_ms(dump_dom(chromium, tmp_path, page)) for _ in range(2))
    full_ms = min(_ready_ms(dump_dom(chromium, tmp_path, full)) for _ in range(2))
    assert small_ms < full_ms


def test_a_validate_page_lists_the_first_results_and_counts_them_all(
        tmp_path, capsys, monkeypatch) -> None:
    """A dump has hundreds of thousands of results: the page lists the first HTML_ROWS in the
    report's order and says how many there are, read once from the report on disk."""
    from urnld.cli import _html_report

    assert main(["validate", "--json", str(SHACL_EXAMPLE)]) == 1
    results = json.loads(capsys.readouterr().out)["results"]
    assert len(results) > 3
    monkeypatch.setattr(_html_report, "HTML_ROWS", 3)
    html = _make(tmp_path, "validate", "-q", str(SHACL_EXAMPLE)).read_text(encoding="utf-8")
    capsys.readouterr()
    total = len(results)
    assert f'<span class="count" data-total="3">3 of {total:,}</span>' in html
    assert f"Showing the first 3 of {total:,} results" in html
    assert f"{total:,} results on" in html
    table = re.search(r'<table id="results".*?<tbody>(.*?)</tbody>', html, re.S)
    assert table is not None
    assert len(re.findall(r"<tr\b", table.group(1))) == 3
