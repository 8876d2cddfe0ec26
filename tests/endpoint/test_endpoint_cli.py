"""``urnld check/canonicalize --endpoint``: outputs, report, dry run, progress bar."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from rdflib import Graph
from rdflib.compare import isomorphic

from urnld.cli import main
from urnld.rdf import canonicalize, check_graph

if TYPE_CHECKING:
    from conftest import Store

CATALOG = Path(__file__).resolve().parents[2] / "examples" / "catalog" / "catalog.ttl"


def test_check_json(store: Store, capsys: pytest.CaptureFixture[str]) -> None:
    data = Graph().parse(CATALOG)
    store.load(data)
    assert main(["check", "--endpoint", store.query_url, "--literals", "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out.pop("inputs") == [store.query_url]
    assert out.pop("unreadable") == []
    # the endpoint is judged by the default validation policy
    assert out.pop("policy") == {"strict": False, "profiles": [], "severity": {}, "source": None}
    assert out == check_graph(data).to_dict()


def test_canonicalize_report_and_dry_run(
    store: Store, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = Graph().parse(CATALOG)
    store.load(data)
    report = tmp_path / "r.json"
    base = ["canonicalize", "--endpoint", store.query_url, "--update-endpoint", store.update_url,
            "--report", str(report)]
    assert main([*base, "--dry-run"]) == 0
    err = capsys.readouterr().err
    assert err.startswith("urnld canonicalize: dry run, the store was not changed; a real run: "
                          "74 statements in")
    assert isomorphic(store.default_graph(), data)
    dry = json.loads(report.read_text())
    assert dry["run"] == {"endpoint": store.query_url, "dry_run": True, "complete": True,
                          "batches": {"done": 0, "total": 0}}

    assert main([*base, "--batch", "5"]) == 0
    done = json.loads(report.read_text())
    expected = canonicalize(data).report.to_dict()
    batches = done.pop("run")["batches"]
    # 27 occurrences, >= 5 per batch: 5 or 6 batches, as the store's order of terms falls
    assert batches["done"] == batches["total"] and batches["done"] in (5, 6)
    if store.vendor == "oxigraph":
        assert batches["done"] == 5
    assert done == expected
    assert dry["clusters"] == expected["clusters"]


def test_progress_bar(store: Store, capsys: pytest.CaptureFixture[str]) -> None:
    store.load(Graph().parse(CATALOG))
    assert main(["canonicalize", "--endpoint", store.query_url, "--update-endpoint",
                 store.update_url, "--batch", "10", "--progress"]) == 0
    err = capsys.readouterr().err
    frames = [f for f in err.split("\r") if f.strip()]
    assert frames[0].startswith("urnld canonicalize: [") and "batch 0/3," in frames[0]
    assert "batch 3/3, 27/27 statements (" in frames[-1] and "/s)" in frames[-1]
    assert main(["canonicalize", "--endpoint", store.query_url, "--no-progress"]) == 0
    err = capsys.readouterr().err
    assert "\r" not in err and err.startswith("urnld canonicalize: 72 statements in, 72 out")
    assert main(["canonicalize", "--endpoint", store.query_url, "-q"]) == 0
    assert capsys.readouterr().err == ""


def test_html_reports_and_quiet(
    store: Store, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store.load(Graph().parse(CATALOG))
    page = tmp_path / "check.html"
    assert main(["check", "--endpoint", store.query_url, "--html", str(page), "-q"]) == 1
    out = capsys.readouterr().out
    assert out.startswith("ERRORS: 4 invalid URNs") and out.count("\n") == 1
    html = page.read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>") and store.query_url in html
    page = tmp_path / "canon.html"
    assert main(["canonicalize", "--endpoint", store.query_url, "--update-endpoint",
                 store.update_url, "--html", str(page)]) == 0
    assert "urn:isbn:0140449132" in page.read_text(encoding="utf-8")
