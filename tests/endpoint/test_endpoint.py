"""check_endpoint / canonicalize_endpoint against a real SPARQL server agree with the in-memory
pass on the same data: one rule, three transports."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import httpx
import pytest
from rdflib import Dataset, Graph, Literal, URIRef
from rdflib.compare import isomorphic

from urnld.rdf import (
    BatchProgress,
    EndpointBatchError,
    apply_undo,
    canonicalize,
    canonicalize_endpoint,
    check_endpoint,
    check_graph,
)

if TYPE_CHECKING:
    from conftest import Store

CATALOG = Path(__file__).resolve().parents[2] / "examples" / "catalog" / "catalog.ttl"

# A dataset with URN graph names, a URN predicate, a statement holding the same URN twice and
# spellings that merge into statements already present: (N-Triples statement, graph or None).
QUADS = [
    ('<URN:ISBN:0-395-36341-1> <http://purl.org/dc/terms/title> "The Hobbit" .', "URN:EXAMPLE:G1"),
    ('<urn:isbn:0395363411> <http://purl.org/dc/terms/title> "The Hobbit" .', "urn:example:g1"),
    ("<urn:ISBN:0-395-36341-1> <URN:EXAMPLE:Rel> <URN:ISBN:0-395-36341-1> .", "urn:example:g2"),
    ('<urn:uuid:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6> <http://e/p> "URN:ISSN:0028-0836" .',
     "urn:example:g2"),
    ("<URN:UUID:f81d4fae-7dec-11d0-a765-00a0c91e6bf6> <http://e/p> <urn:x-foo:Bar> .", None),
    ('<http://e/s> <http://e/p> "URN:ISSN:0028-0836"^^<http://www.w3.org/2001/XMLSchema#anyURI> .',
     None),
    ('<http://e/s> <http://e/p> "URN:ISSN:0028-0836"@en .', None),
]


def same_dataset(a: Dataset, b: Dataset) -> bool:
    """Equal up to blank node labels, graph by graph (empty graphs do not count)."""
    def graphs(ds: Dataset) -> dict[str, Graph]:
        out = {}
        for g in ds.graphs():
            if len(g):
                copy = Graph()
                for t in g:
                    copy.add(t)
                out[str(g.identifier)] = copy
        return out

    ga, gb = graphs(a), graphs(b)
    return ga.keys() == gb.keys() and all(isomorphic(ga[k], gb[k]) for k in ga)


def catalog() -> Graph:
    return Graph().parse(CATALOG)


def quads() -> Dataset:
    ds = Dataset()
    for statement, graph in QUADS:
        target = ds.default_graph if graph is None else ds.graph(URIRef(graph))
        target.parse(data=statement, format="nt")
    return ds


def test_check_matches_check_graph(store: Store) -> None:
    g = catalog()
    store.load(g)
    got = check_endpoint(store.query_url, literals=True)
    assert got.to_dict() == check_graph(g).to_dict()
    assert got.non_canonical and got.invalid  # the catalog has both


def test_check_past_the_memory_budget_is_exact(store: Store, monkeypatch) -> None:
    # A default budget of nothing: every map of the endpoint's report spills to disk.
    g = catalog()
    store.load(g)
    want = check_endpoint(store.query_url, literals=True).to_dict()
    monkeypatch.setenv("URNLD_MEMORY_BUDGET", "0")
    got = check_endpoint(store.query_url, literals=True)
    assert got._clusters.runs  # it did spill
    assert got.to_dict() == want == check_graph(g).to_dict()
    assert want["non_canonical"]["distinct"] == 18  # examples/catalog: see docs/canonicalize.md


def test_check_without_literals_counts_iris_only(store: Store) -> None:
    store.load(catalog())
    r = check_endpoint(store.query_url)
    assert r.literal_occurrences == 0
    assert r.iri_occurrences == check_graph(catalog()).iri_occurrences


def test_check_paged_equals_streamed(store: Store) -> None:
    store.load(catalog())
    one = check_endpoint(store.query_url, literals=True)
    paged = check_endpoint(store.query_url, literals=True, page_size=3)
    assert paged == one


@pytest.mark.parametrize("literals", [False, True])
@pytest.mark.parametrize("ignore_components", [False, True])
def test_canonicalize_catalog_as_in_memory(
    store: Store, literals: bool, ignore_components: bool
) -> None:
    g = catalog()
    store.load(g)
    opts = {"literals": literals, "ignore_components": ignore_components}
    report = canonicalize_endpoint(store.query_url, update_url=store.update_url, batch=4, **opts)
    expected = canonicalize(g, **opts)
    assert isomorphic(store.default_graph(), expected.graph)
    assert report.to_dict() == expected.report.to_dict()
    assert report.rewritten > 0


def test_canonicalize_all_graphs_as_in_memory(store: Store) -> None:
    ds = quads()
    store.load(ds)
    report = canonicalize_endpoint(
        store.query_url, update_url=store.update_url, all_graphs=True, literals=True, batch=1
    )
    expected = canonicalize(ds, literals=True)
    got = store.dataset()
    assert sorted(got.quads()) == sorted(expected.graph.quads())
    assert report.to_dict() == expected.report.to_dict()
    # the graph names merged too
    names = {str(g.identifier) for g in got.graphs() if len(g)}
    assert {"urn:example:g1", "urn:example:g2"} <= names
    assert "URN:EXAMPLE:G1" not in names


def test_check_all_graphs_matches_check_graph(store: Store) -> None:
    ds = quads()
    store.load(ds)
    got = check_endpoint(store.query_url, all_graphs=True, literals=True)
    assert got.to_dict() == check_graph(ds).to_dict()


def test_one_named_graph_only(store: Store) -> None:
    store.load(quads())
    before = store.dataset()
    canonicalize_endpoint(store.query_url, update_url=store.update_url, graph="urn:example:g2")
    after = store.dataset()
    g2 = after.graph(URIRef("urn:example:g2"))
    assert (URIRef("urn:isbn:0395363411"), URIRef("urn:example:Rel"),
            URIRef("urn:isbn:0395363411")) in g2
    # everything outside graph g2 is as it was
    outside = {q for q in after.quads() if q[3] != URIRef("urn:example:g2")}
    assert outside == {q for q in before.quads() if q[3] != URIRef("urn:example:g2")}


def test_idempotent(store: Store) -> None:
    store.load(catalog())
    canonicalize_endpoint(store.query_url, update_url=store.update_url, literals=True)
    once = store.default_graph()
    again = canonicalize_endpoint(store.query_url, update_url=store.update_url, literals=True)
    assert again.rewritten == 0
    assert again.duplicates_merged == 0
    assert isomorphic(store.default_graph(), once)


def test_dry_run_changes_nothing(store: Store) -> None:
    g = catalog()
    store.load(g)
    report = canonicalize_endpoint(store.query_url, update_url=store.update_url, dry_run=True)
    assert isomorphic(store.default_graph(), g)
    expected = canonicalize(g).report
    assert report.rewritten == expected.rewritten
    assert report.clusters == expected.clusters


@pytest.mark.parametrize("kill_after", [1, 3])
def test_resumed_run_ends_as_one_run(store: Store, kill_after: int) -> None:
    g = catalog()
    store.load(g)

    def stop(p: BatchProgress) -> None:
        if p.batches_done == kill_after:
            raise KeyboardInterrupt  # a run killed between two batches

    with pytest.raises(KeyboardInterrupt):
        canonicalize_endpoint(store.query_url, update_url=store.update_url, batch=2,
                              literals=True, progress=stop)
    middle = store.default_graph()
    assert not isomorphic(middle, g)
    canonicalize_endpoint(store.query_url, update_url=store.update_url, batch=2, literals=True)
    assert isomorphic(store.default_graph(), canonicalize(g, literals=True).graph)


@pytest.mark.parametrize("scope", ["default", "all"])
def test_undo_restores_every_spelling(store: Store, tmp_path: Path, scope: str) -> None:
    data: Graph = catalog() if scope == "default" else quads()
    store.load(data)
    before = store.dataset()
    undo = tmp_path / "undo.ru"
    canonicalize_endpoint(store.query_url, update_url=store.update_url, undo=undo, batch=3,
                          literals=True, all_graphs=scope == "all")
    assert not same_dataset(store.dataset(), before)
    apply_undo(undo, store.update_url)
    assert same_dataset(store.dataset(), before)


def test_undo_keeps_statements_that_were_canonical_already(store: Store, tmp_path: Path) -> None:
    g = Graph().parse(data="""
        <URN:ISBN:0-395-36341-1> <http://e/p> "x" .
        <urn:isbn:0395363411> <http://e/p> "x" .
    """, format="nt")
    store.load(g)
    undo = tmp_path / "u.ru"
    report = canonicalize_endpoint(store.query_url, update_url=store.update_url, undo=undo)
    assert report.duplicates_merged == 1
    assert len(store.default_graph()) == 1
    apply_undo(undo, store.update_url)
    assert isomorphic(store.default_graph(), g)


def test_concurrent_writes_are_kept(store: Store) -> None:
    """A writer adding statements between two batches loses nothing: each batch reads the
    store as it is."""
    g = catalog()
    store.load(g)
    added = [
        (URIRef("http://e/new"), URIRef("http://e/p"), URIRef("urn:isbn:0395363411")),
        (URIRef("http://e/new"), URIRef("http://e/p"), Literal("written meanwhile")),
    ]

    def writer(p: BatchProgress) -> None:
        if p.batches_done == 1:
            for t in added:
                one = Graph()
                one.add(t)
                store.load(one)

    canonicalize_endpoint(store.query_url, update_url=store.update_url, batch=2,
                          progress=writer)
    after = store.default_graph()
    for t in added:
        assert t in after
    expected = canonicalize(g).graph
    for t in added:
        expected.add(t)
    assert isomorphic(after, expected)


def test_store_without_urns(store: Store) -> None:
    g = Graph().parse(data="<http://e/a> <http://e/p> <http://e/b> .", format="nt")
    store.load(g)
    r = check_endpoint(store.query_url)
    assert (r.statements_in, r.iri_occurrences, r.ok) == (1, 0, True)
    c = canonicalize_endpoint(store.query_url, update_url=store.update_url)
    assert (c.statements_in, c.statements_out, c.rewritten) == (1, 1, 0)


def test_empty_store(store: Store) -> None:
    r = check_endpoint(store.query_url, all_graphs=True)
    assert (r.statements_in, r.iri_occurrences, r.ok) == (0, 0, True)


def test_missing_graph_is_an_error(store: Store) -> None:
    from urnld import URNError

    store.load(quads())
    with pytest.raises(URNError, match=r"graph <urn:example:nope> does not exist"):
        check_endpoint(store.query_url, graph="urn:example:nope")


def test_read_only_endpoint_fails_on_first_batch(store: Store) -> None:
    store.load(catalog())
    # The query URL does not take updates: the first batch is refused, nothing changes.
    with pytest.raises(EndpointBatchError, match=r"^batch 1 of \d+ failed, nothing was changed"):
        canonicalize_endpoint(store.query_url)
    assert isomorphic(store.default_graph(), catalog())


def test_literal_datatypes_kept(store: Store) -> None:
    from rdflib.namespace import XSD  # not at module level: pytest probes module names

    g = Graph().parse(data="\n".join(statement for statement, _ in QUADS), format="nt")
    store.load(g)
    canonicalize_endpoint(store.query_url, update_url=store.update_url, literals=True)
    after = store.default_graph()
    s = URIRef("http://e/s")
    assert set(after.objects(s, URIRef("http://e/p"))) == {
        Literal("urn:issn:0028-0836", datatype=XSD.anyURI),
        Literal("URN:ISSN:0028-0836", lang="en"),  # language-tagged: never a URN literal
    }


def test_endpoint_stays_reachable_after(store: Store) -> None:
    """No connection is left open: the server still answers promptly afterwards."""
    store.load(catalog())
    check_endpoint(store.query_url)
    assert httpx.post(store.query_url, data={"query": "ASK {}"}, timeout=5).status_code == 200


def test_select_columns_projects_and_stops_early(store: Store) -> None:
    """The term pass's row reader: columns in the order asked, unbound as "", a missing column
    named, and a reader dropped after one row leaves the connection usable."""
    from urnld.endpoint._client import Endpoint
    from urnld.rdf import EndpointError

    store.load(catalog())
    query = "SELECT ?s ?o ?none WHERE { ?s ?p ?o } ORDER BY ?s ?o LIMIT 3"
    with Endpoint(store.query_url) as e:
        rows = list(e.select_columns(query, ("o", "none", "s")))
        assert rows == [(r["o"], r["none"], r["s"]) for r in e.select(query)]
        assert len(rows) == 3 and all(none == "" for _o, none, _s in rows)
        assert list(e.select_columns(query, ("s",))) == [(s,) for _o, _n, s in rows]
        with pytest.raises(EndpointError, match=r"unexpected results \(columns s, o, none\)"):
            list(e.select_columns(query, ("s", "x")))
        first = e.select_columns(query, ("s",))
        assert next(first) == (rows[0][2],)
        first.close()
        assert e.ask("ASK {}")
