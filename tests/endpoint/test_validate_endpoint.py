"""``validate --endpoint``: the compiled plan against a running store gives the results of the
same data validated from its file (Oxigraph and Virtuoso), paged, read-only."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from rdflib import BNode, Dataset, Graph, URIRef
from rdflib.term import Node

from urnld.cli import main
from urnld.shacl import Report, ShapesError, validate, validate_endpoint

from .conftest import DEFAULT_GRAPH, Store

CATALOG = Path(__file__).parents[2] / "examples" / "shacl" / "catalog.ttl"


def _keys(report: Report) -> set[tuple[object, ...]]:
    def term(t: Node | None) -> object:
        return "_:" if isinstance(t, BNode) else t

    return {(term(r.focus_node), r.path_text, term(r.value), r.shape_text, r.component,
             r.severity) for r in report}


def _graph(store: Store) -> str | None:
    # Virtuoso has no plain default graph: the tests' "default graph" is a named one there
    return DEFAULT_GRAPH if store.virtuoso else None


def test_the_endpoint_gives_the_file_results(store: Store) -> None:
    store.load(Graph().parse(CATALOG))
    local = validate(str(CATALOG))
    # a page of 4 rows: every step is read in several pages (Virtuoso sorts no more than
    # 10,000 rows a paged query: there, whole results)
    remote = validate_endpoint(store.query_url, graph=_graph(store),
                               page_size=None if store.virtuoso else 4)
    assert len(local.results) == 19
    assert _keys(remote) == _keys(local)
    assert remote.conforms is False
    assert set(remote.engines.values()) == {"plan"}


def test_the_cli_prints_the_same_json(store: Store, capsys: pytest.CaptureFixture[str]) -> None:
    store.load(Graph().parse(CATALOG))
    argv = ["validate", "--endpoint", store.query_url, "--json"]
    graph = _graph(store)
    if graph is not None:
        argv += ["--graph", graph]
    assert main(argv) == 1
    remote = json.loads(capsys.readouterr().out)
    assert main(["validate", str(CATALOG), "--json"]) == 1
    local = json.loads(capsys.readouterr().out)
    assert remote["summary"] == local["summary"] == {"Violation": 14, "Warning": 5}
    assert remote["counts"] == local["counts"]


def test_a_shape_that_does_not_compile_is_refused(store: Store, tmp_path: Path) -> None:
    shapes = tmp_path / "s.ttl"
    shapes.write_text("""
        @prefix sh: <http://www.w3.org/ns/shacl#> . @prefix ex: <http://example.org/> .
        ex:S a sh:NodeShape ; sh:targetNode ex:a ;
            sh:sparql [ sh:select "SELECT $this WHERE { FILTER (false) }" ] .""")
    with pytest.raises(ShapesError, match=r"ex:S: .*shacl#sparql, which the plan does not"):
        validate_endpoint(store.query_url, str(shapes))


def test_nothing_is_written(store: Store) -> None:
    store.load(Graph().parse(CATALOG))
    before = store.count()
    validate_endpoint(store.query_url, graph=_graph(store))
    assert store.count() == before


def test_all_graphs_reads_the_named_graphs_too(store: Store) -> None:
    data = Dataset()
    named = data.graph(URIRef("https://example.org/catalog"))
    named.parse(CATALOG)
    store.load(data)
    # the default graph alone holds nothing here (Virtuoso's default graph is the union)
    if not store.virtuoso:
        assert validate_endpoint(store.query_url).conforms
    both = validate_endpoint(store.query_url, all_graphs=True)
    assert _keys(both) == _keys(validate(str(CATALOG)))
    only = validate_endpoint(store.query_url, graph="https://example.org/catalog")
    assert _keys(only) == _keys(both)
