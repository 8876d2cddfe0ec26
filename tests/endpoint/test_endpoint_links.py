"""``link``, ``keep_spellings`` and ``link_resolvers`` on the endpoint: the store gains exactly
the statements the file path adds for the same data, in batches, idempotently, resumably, with
an undo that removes only what the run added."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rdflib import Dataset, Graph, Literal, URIRef
from rdflib.compare import isomorphic

from urnld import URN
from urnld.cli import main
from urnld.errors import SpellingLimitError
from urnld.rdf import (
    BatchProgress,
    EndpointBatchError,
    apply_undo,
    canonicalize,
    canonicalize_endpoint,
)
from urnld.strategies import respellings, valid_urns
from urnld.stream import canonicalize_file

if TYPE_CHECKING:
    from conftest import Oxigraph, Store

ROOT = Path(__file__).resolve().parents[2]
CATALOG = ROOT / "examples" / "catalog" / "catalog.ttl"

OWL_SAME_AS = URIRef("http://www.w3.org/2002/07/owl#sameAs")
SEE_ALSO = URIRef("http://www.w3.org/2000/01/rdf-schema#seeAlso")
SPELLING = URIRef("https://w3id.org/urnld/vocab#spelling")

# Functionally equivalent URNs in several spellings: The Hobbit's ISBN-10 and ISBN-13 (the
# pair of docs/canonicalize.md), and an ISBN with its ISBN-A DOI (the International DOI
# Foundation's ISBN-A example, 978-88-98392-31-5 ↔ 10.978.8898392/315), one of them a literal.
LINKED = """
<URN:ISBN:0-395-36341-1> <http://purl.org/dc/terms/title> "The Hobbit" .
<urn:isbn:978-0-395-36341-6> <http://purl.org/dc/terms/title> "The Hobbit" .
<urn:isbn:9780395363416> <http://e/p> <URN:ISBN:978-0-395-36341-6> .
<http://e/b> <http://e/id> "URN:ISBN:978-88-98392-31-5" .
<http://e/b> <http://e/doi> <URN:DOI:10.978.8898392/315> .
<urn:ietf:rfc:8141> <http://e/p> <urn:IETF:rfc:2141> .
"""
# A named-graph part: a URN graph name and spellings that occur only there.
NAMED = """
<URN:ISBN:0-14-044913-2> <http://purl.org/dc/terms/title> "Crime and Punishment" <URN:EXAMPLE:Books> .
<urn:isbn:978-0-14-044913-6> <http://e/p> <urn:isbn:0140449132> <urn:example:books> .
<http://e/x> <http://e/p> <urn:example:other> <urn:example:other-graph> .
"""
MODES = {"link": True, "keep_spellings": True, "link_resolvers": True}


def triples_data() -> Graph:
    g = Graph().parse(CATALOG)
    g.parse(data=LINKED, format="nt")
    return g


def quads_data() -> Dataset:
    ds = Dataset()
    ds.parse(data=NAMED, format="nquads")  # first: it would drop the default graph's triples
    for t in Graph().parse(data=LINKED, format="nt"):
        ds.default_graph.add(t)
    return ds


def by_graph(ds: Dataset) -> dict[Any, Graph]:
    """The non-empty graphs of a dataset by name (None: the default graph)."""
    out: dict[Any, Graph] = {}
    for s, p, o, g in ds.quads((None, None, None, None)):
        name = getattr(g, "identifier", g)
        key = None if name == ds.default_graph.identifier else name
        out.setdefault(key, Graph()).add((s, p, o))
    return out


def same(a: dict[Any, Graph], b: dict[Any, Graph]) -> bool:
    """The same graphs, each equal up to blank node labels."""
    return a.keys() == b.keys() and all(isomorphic(a[k], b[k]) for k in a)


def added_counts(report: Any) -> tuple[int, int, int]:
    return report.same_as_added, report.spellings_added, report.see_also_added



@pytest.fixture
def store(plain_store: Store) -> Store:
    """The added statements go to the default graph: stores that have one (Virtuoso's case,
    --graph, is in test_virtuoso.py)."""
    return plain_store


def run(store: Store, **kwargs: Any) -> Any:
    return canonicalize_endpoint(store.query_url, update_url=store.update_url, **kwargs)


# -- the same statements as the file path ----------------------------------------------------------
@pytest.mark.parametrize("literals", [False, True])
@pytest.mark.parametrize("scope", ["default", "graph", "all"])
def test_same_statements_as_the_file_path(
    store: Store, tmp_path: Path, scope: str, literals: bool
) -> None:
    """The data in the store and in a file: the store ends with the statements the streamed
    file path writes, and the report counts the same added statements."""
    data = quads_data()
    if scope == "default":
        for t in Graph().parse(CATALOG):  # with blank nodes
            data.default_graph.add(t)
    store.load(data)
    before = by_graph(data)
    # The file holds what the run reads: the default graph, one named graph, or everything.
    if scope == "all":
        src, suffix, kwargs = data.serialize(format="nquads"), ".nq", {"all_graphs": True}
    elif scope == "graph":
        name = URIRef("URN:EXAMPLE:Books")
        src, suffix = data.graph(name).serialize(format="nt"), ".nt"
        kwargs = {"graph": str(name)}
    else:
        src, suffix, kwargs = data.default_graph.serialize(format="nt"), ".nt", {}
    (tmp_path / f"in{suffix}").write_text(src, encoding="utf-8")
    out = tmp_path / f"out{suffix}"
    file_report = canonicalize_file(tmp_path / f"in{suffix}", out, literals=literals, **MODES)

    report = run(store, literals=literals, batch=3, **MODES, **kwargs)

    expected = Dataset()
    expected.parse(out, format="nquads" if suffix == ".nq" else "nt")
    got = by_graph(store.dataset())
    want = by_graph(expected)
    if scope != "all":
        # the file's statements (its default graph) are those of the graph the run read; the
        # other graphs are untouched
        want = {**before, (name if scope == "graph" else None): want[None]}
    assert same(got, want)
    assert added_counts(report) == added_counts(file_report)
    assert min(added_counts(report)[1:]) > 0  # spellings and resolver links were added
    if scope != "graph":
        assert report.same_as_added > 0
    # the in-memory transport agrees on the whole report
    read_in: Graph = {"all": data, "graph": data.graph(URIRef("URN:EXAMPLE:Books")),
                      "default": Graph()}[scope]
    if scope == "default":
        for t in data.default_graph:
            read_in.add(t)
    memory = canonicalize(read_in, literals=literals, **MODES).report
    assert report.to_dict() == memory.to_dict()


@pytest.mark.parametrize(
    "mode", ["link", "keep_spellings", "link_resolvers"],
)
def test_each_mode_alone(store: Store, mode: str) -> None:
    g = triples_data()
    store.load(g)
    report = run(store, literals=True, **{mode: True})
    expected = canonicalize(g, literals=True, **{mode: True})
    assert isomorphic(store.default_graph(), expected.graph)
    assert report.to_dict() == expected.report.to_dict()
    assert report.added > 0
    predicate = {"link": OWL_SAME_AS, "keep_spellings": SPELLING, "link_resolvers": SEE_ALSO}
    for other in set(predicate.values()) - {predicate[mode]}:
        assert not list(store.default_graph().triples((None, other, None)))


# -- idempotent, resumable -------------------------------------------------------------------------
@pytest.mark.parametrize("literals", [False, True])
def test_second_run_adds_nothing(store: Store, literals: bool) -> None:
    store.load(triples_data())
    first = run(store, literals=literals, batch=2, **MODES)
    once = store.default_graph()
    again = run(store, literals=literals, batch=2, **MODES)
    assert isomorphic(store.default_graph(), once)
    assert first.added > 0
    assert (again.added, again.rewritten, again.duplicates_merged) == (0, 0, 0)
    assert again.statements_in == again.statements_out == len(once)
    # the recorded spellings stay as the data said them, literal or not
    spellings = {str(o) for o in once.objects(None, SPELLING)}
    assert "URN:ISBN:0-395-36341-1" in spellings
    assert ("URN:ISBN:978-88-98392-31-5" in spellings) == literals


def test_a_later_literals_run_leaves_the_records(store: Store) -> None:
    # A record's literal is never a URN term: a later run with literals but without
    # keep_spellings neither rewrites it nor reports it (the file paths do the same).
    store.load(triples_data())
    run(store, literals=True, batch=2, **MODES)
    once = store.default_graph()
    again = run(store, literals=True, batch=2)
    assert isomorphic(store.default_graph(), once)
    assert (again.rewritten, again.duplicates_merged) == (0, 0)
    assert "URN:ISBN:0-395-36341-1" in {str(o) for o in once.objects(None, SPELLING)}


def test_report_counts_only_statements_not_held(store: Store) -> None:
    """Statements the store already holds are neither written again nor counted (the file
    path counts what it writes; a store holding them gets nothing new)."""
    g = triples_data()
    held = [
        (URIRef("urn:isbn:0395363411"), OWL_SAME_AS, URIRef("urn:isbn:9780395363416")),
        (URIRef("urn:ietf:rfc:8141"), SEE_ALSO, URIRef("https://www.rfc-editor.org/rfc/rfc8141")),
        (URIRef("urn:isbn:0395363411"), SPELLING, Literal("URN:ISBN:0-395-36341-1")),
    ]
    for t in held:
        g.add(t)
    store.load(g)
    report = run(store, **MODES)
    expected = canonicalize(g, **MODES)
    assert isomorphic(store.default_graph(), expected.graph)
    assert added_counts(report) == tuple(n - 1 for n in added_counts(expected.report))
    assert report.statements_out == len(expected.graph)
    assert report.duplicates_merged == expected.report.duplicates_merged


@pytest.mark.parametrize("kill_after", [1, 4, 14, 17])  # of 18: rewrites, then added
def test_killed_run_finished_by_a_rerun(store: Store, kill_after: int) -> None:
    """Killed between two batches (rewrites, then the added statements): a re-run ends with
    the store one uninterrupted run makes, and the two reports add up to its counts."""
    g = triples_data()
    store.load(g)
    seen: list[BatchProgress] = []

    def stop(p: BatchProgress) -> None:
        seen.append(p)
        if p.batches_done == kill_after:
            raise KeyboardInterrupt  # a run killed between two batches

    with pytest.raises(KeyboardInterrupt):
        run(store, batch=3, literals=True, progress=stop, **MODES)
    # 18 requests for this data at batch=3: rewrites (with their spellings), then owl:sameAs
    # and rdfs:seeAlso batches; the kill points cover both
    assert seen[-1].batches_total == 18
    middle = store.default_graph()
    assert not isomorphic(middle, g)
    rest = run(store, batch=3, literals=True, **MODES)
    one = canonicalize(g, literals=True, **MODES)
    assert isomorphic(store.default_graph(), one.graph)
    assert rest.added < one.report.added
    # what the first run committed plus what the second added is what one run adds
    first_added = sum(1 for t in middle if t[1] in (OWL_SAME_AS, SPELLING, SEE_ALSO))
    assert first_added + rest.added == one.report.added


def test_batches_of_added_statements(store: Store) -> None:
    """One update request per batch: spellings ride with their rewrite, the rest follow in
    batches of ``batch`` statements."""
    import urnld.endpoint._client as client

    store.load(triples_data())
    sent: list[str] = []
    real = client.Endpoint.update

    def update(self: Any, text: str) -> None:
        sent.append(text)
        real(self, text)

    progress: list[BatchProgress] = []
    mp = pytest.MonkeyPatch()
    mp.setattr(client.Endpoint, "update", update)
    try:
        report = run(store, batch=4, **MODES, progress=progress.append)
    finally:
        mp.undo()
    assert len(sent) == progress[-1].batches_done == progress[-1].batches_total
    rewrites = [t for t in sent if "DELETE" in t]
    extras_only = [t for t in sent if "DELETE" not in t]
    assert all(SPELLING in t for t in rewrites if "INSERT DATA" in t)
    n_rest = report.same_as_added + report.see_also_added
    assert len(extras_only) == -(-n_rest // 4)
    assert all(t.startswith("INSERT DATA") and str(SPELLING) not in t for t in extras_only)
    assert progress[-1].statements_done == progress[-1].statements_total


def test_server_stopped_in_the_added_batches(
    store: Store, local_server: Oxigraph, tmp_path: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The server stops while the added statements are written: one line naming the batch,
    exit 2; after a restart a re-run completes with the file path's statements."""
    import urnld.endpoint._client as client

    g = triples_data()
    store.load(g)
    real = client.Endpoint.update
    calls = {"n": 0}

    def update(self: Any, text: str) -> None:
        calls["n"] += 1
        if text.startswith("INSERT DATA") and "DELETE" not in text:
            local_server.stop()
        real(self, text)

    monkeypatch.setattr(client.Endpoint, "update", update)
    argv = ["canonicalize", "--endpoint", store.query_url, "--update-endpoint",
            store.update_url, "--batch", "5", "--link", "--keep-spellings", "--link-resolvers",
            "--report", str(tmp_path / "r.json")]
    code = main(argv)
    err = capsys.readouterr().err.strip()
    assert code == 2 and len(err.splitlines()) == 1, err
    assert f"batch {calls['n']} of " in err and f"batches 1-{calls['n'] - 1} are committed" in err
    monkeypatch.setattr(client.Endpoint, "update", real)
    local_server.start()
    assert main(argv) == 0
    src, out = tmp_path / "in.nt", tmp_path / "out.nt"
    src.write_text(g.serialize(format="nt"), encoding="utf-8")
    canonicalize_file(src, out, **MODES)
    assert isomorphic(store.default_graph(), Graph().parse(out, format="nt"))


# -- undo, dry run ---------------------------------------------------------------------------------
@pytest.mark.parametrize("scope", ["default", "graph", "all"])
def test_undo_removes_only_what_the_run_added(store: Store, tmp_path: Path, scope: str) -> None:
    data = quads_data()
    for t in Graph().parse(CATALOG):
        data.default_graph.add(t)
    # statements the modes would add, there before the run: the undo must keep them
    data.default_graph.add(
        (URIRef("urn:ietf:rfc:8141"), SEE_ALSO, URIRef("https://www.rfc-editor.org/rfc/rfc8141"))
    )
    data.graph(URIRef("URN:EXAMPLE:Books")).add(
        (URIRef("urn:isbn:0140449132"), SPELLING, Literal("URN:ISBN:0-14-044913-2"))
    )
    store.load(data)
    before = by_graph(store.dataset())
    undo = tmp_path / "u.ru"
    kwargs: dict[str, Any] = {"all": {"all_graphs": True}, "graph": {"graph": "URN:EXAMPLE:Books"},
                              "default": {}}[scope]
    report = run(store, undo=undo, batch=2, literals=True, **MODES, **kwargs)
    assert report.added > 0
    assert not same(by_graph(store.dataset()), before)
    apply_undo(undo, store.update_url)
    assert same(by_graph(store.dataset()), before)


def test_dry_run_reports_and_writes_nothing(store: Store) -> None:
    g = triples_data()
    g.add((URIRef("urn:ietf:rfc:8141"), SEE_ALSO,
           URIRef("https://www.rfc-editor.org/rfc/rfc8141")))  # held already: not counted
    store.load(g)
    dry = run(store, dry_run=True, literals=True, **MODES)
    assert isomorphic(store.default_graph(), g)
    assert dry.statements_out == dry.statements_in
    real = run(store, literals=True, **MODES)
    assert added_counts(dry) == added_counts(real)
    assert dry.clusters == real.clusters


# -- limits, Python API, command line -------------------------------------------------------------
def test_spelling_limit_writes_nothing(store: Store) -> None:
    g = triples_data()
    store.load(g)
    with pytest.raises(SpellingLimitError, match=r"^http://127\.0\.0\.1:\d+/query: more than 3 "
                       if store.server else r"more than 3 "):
        run(store, keep_spellings=True, max_examples=3)
    assert isomorphic(store.default_graph(), g)
    # without the modes the cap only shortens the report's examples
    report = run(store, max_examples=3)
    assert report.clusters_truncated and report.rewritten > 0


def test_cli_adds_reports_and_dry_runs(
    store: Store, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    g = triples_data()
    store.load(g)
    base = ["canonicalize", "--endpoint", store.query_url, "--update-endpoint", store.update_url,
            "--literals", "--link", "--keep-spellings", "--link-resolvers"]
    assert main([*base, "--dry-run"]) == 0
    err = capsys.readouterr().err
    assert "dry run, the store was not changed" in err and "owl:sameAs" in err
    assert isomorphic(store.default_graph(), g)

    report = tmp_path / "r.json"
    assert main([*base, "--report", str(report)]) == 0
    expected = canonicalize(g, literals=True, **MODES)
    got = json.loads(report.read_text())
    assert got["added"] == expected.report.to_dict()["added"]
    assert got["run"]["complete"] is True
    err = capsys.readouterr().err
    added = got["added"]
    assert (f"added {added['same_as']} owl:sameAs, {added['spellings']} urnld:spelling and "
            f"{added['see_also']} rdfs:seeAlso statements") in err
    assert isomorphic(store.default_graph(), expected.graph)

    assert main([*base, "--report", str(report)]) == 0
    assert json.loads(report.read_text())["added"] == {"same_as": 0, "spellings": 0,
                                                       "see_also": 0}


def test_failed_first_batch_adds_nothing(store: Store) -> None:
    g = triples_data()
    store.load(g)
    with pytest.raises(EndpointBatchError, match=r"^batch 1 of \d+ failed, nothing was changed"):
        canonicalize_endpoint(store.query_url, **MODES)  # the query URL takes no updates
    assert isomorphic(store.default_graph(), g)


# -- a property: any mix of spellings, the in-memory result ----------------------------------------
@st.composite
def linked_data(draw: Any) -> Graph:
    """ISBN URNs with their functional equivalents (ISBN-10/13, ISBN-A DOI), each in random
    spellings, as subjects, objects and (some) literals."""
    g = Graph()
    for k, isbn in enumerate(draw(st.lists(valid_urns("isbn"), min_size=1, max_size=3))):
        family = [isbn] + [u.canonical_str for u in URN(isbn).functional_equivalents()]
        for urn in draw(st.lists(st.sampled_from(family), min_size=1, max_size=4)):
            spelling = draw(respellings(urn))
            node: Any = Literal(spelling) if draw(st.booleans()) else URIRef(spelling)
            if isinstance(node, URIRef) and draw(st.booleans()):
                g.add((node, URIRef("http://e/p"), Literal(f"record {k}")))
            else:
                g.add((URIRef(f"http://e/r{k}"), URIRef("http://e/id"), node))
    return g


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=linked_data(), batch=st.integers(1, 5))
def test_any_spellings_as_in_memory(store: Store, data: Graph, batch: int) -> None:
    store.clear()
    store.load(data)
    report = run(store, literals=True, batch=batch, **MODES)
    expected = canonicalize(data, literals=True, **MODES)
    assert isomorphic(store.default_graph(), expected.graph)
    assert report.to_dict() == expected.report.to_dict()
    again = run(store, literals=True, batch=batch, **MODES)
    assert (again.added, again.rewritten) == (0, 0)
    assert isomorphic(store.default_graph(), expected.graph)
