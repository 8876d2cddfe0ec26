"""The spelling modes (repair, link/merge locators) on an endpoint, in place: the store ends
with the statements the file path writes for the same data (tests/data/mixed/mixed.nt: URNs,
their resolver addresses, EPC URNs and their GS1 Digital Links from GS1's EPCIS 2.0 and TDS
examples, RFC 9562 §4's UUID in its other formats), the report counts what the file report
counts, a second run changes nothing, and the undo file restores the store."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from rdflib import Graph
from rdflib.compare import isomorphic

from urnld.cli import main
from urnld.rdf import apply_undo, canonicalize_endpoint
from urnld.stream import canonicalize_file

if TYPE_CHECKING:
    from conftest import Store

MIXED = Path(__file__).resolve().parents[1] / "data" / "mixed" / "mixed.nt"
LENGTHS = {"4012345": 7, "0614141": 7}
MODES: list[dict[str, Any]] = [
    {"repair": True},
    {"repair": True, "link_locators": True, "keep_spellings": True},
    {"repair": True, "merge_locators": True, "literals": True},
    {"link_locators": True, "prefix_lengths": LENGTHS, "link": True},
    {"merge_locators": True, "prefix_lengths": LENGTHS},
]


def _counts(report: Any) -> dict[str, Any]:
    d = report.to_dict()
    return {k: d.get(k) for k in ("urns", "added", "clusters", "invalid", "repairs", "locators")}


def _default_graph(store: Store) -> Graph:
    g = Graph()
    for t in store.dataset().default_graph:
        g.add(t)
    return g


@pytest.mark.parametrize("opts", MODES, ids=lambda o: "+".join(sorted(o)))
def test_same_statements_and_counts_as_the_file_path(
    plain_store: Store, tmp_path: Path, opts: dict[str, Any]
) -> None:
    plain_store.load(Graph().parse(MIXED, format="nt"))
    out = tmp_path / "out.nt"
    file_report = canonicalize_file(MIXED, out, **opts)
    undo = tmp_path / "undo.ru"
    report = canonicalize_endpoint(plain_store.query_url, update_url=plain_store.update_url,
                                   batch=3, undo=undo, **opts)
    assert isomorphic(_default_graph(plain_store), Graph().parse(out, format="nt"))
    assert _counts(report) == _counts(file_report)
    assert report.rewritten + report.added > 0  # the store changed
    # Idempotent: a second run finds nothing to rewrite or add.
    again = canonicalize_endpoint(plain_store.query_url, update_url=plain_store.update_url,
                                  **opts)
    assert again.rewritten == 0 and again.added == 0
    apply_undo(undo, plain_store.update_url)
    assert isomorphic(_default_graph(plain_store), Graph().parse(MIXED, format="nt"))


def test_cli_endpoint_takes_the_modes(plain_store: Store, tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    plain_store.load(Graph().parse(MIXED, format="nt"))
    out = tmp_path / "out.nt"
    assert main(["canonicalize", str(MIXED), "--repair", "--merge-locators", "-o", str(out),
                 "-q"]) == 0
    assert main(["canonicalize", "--endpoint", plain_store.query_url, "--update-endpoint",
                 plain_store.update_url, "--repair", "--merge-locators", "-q"]) == 0
    assert isomorphic(_default_graph(plain_store), Graph().parse(out, format="nt"))
