"""The undo file restores the store exactly: grouped per canonical statement, written batch by
batch before each batch is sent, applied last first by ``urnld undo`` (resumable).

Every test runs on each store (Oxigraph, Virtuoso: see conftest.py). On Virtuoso blank nodes
have names later requests can use, string literals need its own spelling, and the statements a
batch makes are looked up in slices of its terms (its limits on the size of a query).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rdflib import BNode, Dataset, Graph, Literal, URIRef

from urnld.cli import main
from urnld.endpoint._undo import HEADER, blocks_of
from urnld.rdf import BatchProgress, apply_undo, canonicalize_endpoint

if TYPE_CHECKING:
    from conftest import Store

# The case of the task that motivated grouping: several spellings share one blank-node object,
# and one statement merges into a statement that held the same blank node already.
SHARED_BNODE = """
<URN:ISBN:0-395-36341-1> <http://ex/c> _:b .
<urn:ISBN:0395363411> <http://ex/c> _:b .
<urn:isbn:0395363411> <http://ex/d> _:e .
<URN:ISBN:0-395-36341-1> <http://ex/d> _:e .
"""


CATALOG = Path(__file__).resolve().parents[2] / "examples" / "catalog" / "catalog.ttl"


def catalog() -> Graph:
    return Graph().parse(CATALOG)


def same(a: Dataset, b: Dataset) -> bool:
    """Isomorphic as datasets: one blank-node mapping for all graphs together."""
    from rdflib.compare import isomorphic

    def quads(ds: Dataset) -> Graph:
        out = Graph()
        for s, p, o, g in set(ds.quads()):  # one node per quad: a blank node keeps one image
            name = "urn:x-urnld-test:default" if g in (None, ds.default_graph.identifier) \
                else str(g)
            q = BNode()
            out.add((q, URIRef("urn:x-urnld-test:s"), s))
            out.add((q, URIRef("urn:x-urnld-test:p"), p))
            out.add((q, URIRef("urn:x-urnld-test:o"), o))
            out.add((q, URIRef("urn:x-urnld-test:g"), Literal(name)))
        return out

    return len(set(a.quads())) == len(set(b.quads())) and isomorphic(quads(a), quads(b))


def run(store: Store, undo: Path, **kwargs: Any) -> Any:
    return canonicalize_endpoint(store.query_url, update_url=store.update_url, undo=undo,
                                 **kwargs)


@pytest.mark.parametrize("batch", [1, 2, 100])
def test_shared_blank_nodes_come_back(store: Store, tmp_path: Path, batch: int) -> None:
    g = Graph().parse(data=SHARED_BNODE, format="nt")
    store.load(g)
    before = store.dataset()
    undo = tmp_path / "u.ru"
    run(store, undo, batch=batch)
    assert len(store.default_graph()) == 2  # (c, _:b) merged, (d, _:e) merged
    apply_undo(undo, store.update_url)
    after = store.dataset()
    assert len(after.default_graph) == 4
    assert same(after, before)


def test_blank_nodes_told_apart_by_their_statements(store: Store, tmp_path: Path) -> None:
    """Two spellings, two blank nodes: after the run both statements read
    ``<urn:isbn:0395363411> <p> _:x``, and each blank node gets its own spelling back."""
    g = Graph().parse(data="""
        <URN:ISBN:0-395-36341-1> <http://ex/p> _:b1 .
        <urn:ISBN:0395363411> <http://ex/p> _:b2 .
        _:b1 <http://ex/q> "one" .
        _:b2 <http://ex/q> "two" .
        _:b2 <URN:ISBN:0-395-36341-1> "rewritten too" .
    """, format="nt")
    store.load(g)
    before = store.dataset()
    undo = tmp_path / "u.ru"
    run(store, undo)
    apply_undo(undo, store.update_url)
    assert same(store.dataset(), before)


@pytest.mark.parametrize("names", [False, True])
def test_blank_nodes_of_two_batches(store: Store, tmp_path: Path, names: bool) -> None:
    """Found by the property below: batch 1 makes ``_:b2 <p> <c>``, batch 2 makes
    ``_:b1 <p> <c>``; batch 2's undo must revert one blank node, not both. Without other
    statements the two nodes are interchangeable: either one may get either spelling back."""
    data = """
        <URN:ISBN:0-395-36341-1> <http://ex/p> <URN:ISBN:0-395-36341-1> .
        _:b1 <http://ex/p> <urn:ISBN:0395363411> .
        _:b2 <http://ex/p> <URN:ISBN:0-395-36341-1> .
    """
    if names:
        data += '_:b1 <http://ex/name> "b1" .\n_:b2 <http://ex/name> "b2" .\n'
    store.load(Graph().parse(data=data, format="nt"))
    before = store.dataset()
    undo = tmp_path / "u.ru"
    run(store, undo, batch=1)
    apply_undo(undo, store.update_url)
    assert same(store.dataset(), before)


def test_statement_canonical_before_is_kept(store: Store, tmp_path: Path) -> None:
    g = Graph().parse(data="""
        <urn:isbn:0395363411> <http://ex/p> <http://ex/o> .
        <URN:ISBN:0-395-36341-1> <http://ex/p> <http://ex/o> .
        <urn:isbn:0395363411> <http://ex/q> "kept" .
    """, format="nt")
    store.load(g)
    undo = tmp_path / "u.ru"
    run(store, undo)
    assert len(store.default_graph()) == 2
    text = undo.read_text()
    assert "DELETE" not in text  # the merged statement was there before: nothing to delete
    apply_undo(undo, store.update_url)
    assert set(store.default_graph()) == set(g)


def test_file_holds_exactly_the_batches_sent(store: Store, tmp_path: Path) -> None:
    """A run stopped after batch 2 (as by SIGKILL: nothing runs after the stop) leaves blocks
    1-2 complete and committed; undoing them gives the original back, and a rerun with the same
    file appends blocks that undo the rest."""
    g = catalog()
    store.load(g)
    before = store.dataset()
    undo = tmp_path / "u.ru"

    def stop(p: BatchProgress) -> None:
        if p.batches_done == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run(store, undo, batch=2, literals=True, progress=stop)
    blocks = blocks_of(undo.read_text())
    assert [(b.number, b.committed) for b in blocks] == [(1, True), (2, True)]
    run(store, undo, batch=2, literals=True)  # the rerun appends
    numbers = [b.number for b in blocks_of(undo.read_text())]
    assert numbers == list(range(1, len(numbers) + 1)) and len(numbers) > 2
    assert not same(store.dataset(), before)
    apply_undo(undo, store.update_url)
    assert same(store.dataset(), before)


def test_cut_block_is_skipped_and_uncommitted_block_applied(store: Store, tmp_path: Path) -> None:
    """A block cut while being written was never sent: skipped. A complete block whose
    commit line is missing may have committed: applied, harmlessly if it did not."""
    g = Graph().parse(data=SHARED_BNODE, format="nt")
    store.load(g)
    before = store.dataset()
    undo = tmp_path / "u.ru"
    run(store, undo, batch=100)
    text = undo.read_text()
    uncommitted = text.replace("# committed batch 1\n", "")
    undo.write_text(uncommitted + "# batch 2\nDELETE DATA { <http://ex/a> ")
    assert [(b.number, b.committed) for b in blocks_of(undo.read_text())] == [(1, False)]
    apply_undo(undo, store.update_url)
    assert same(store.dataset(), before)


def test_cli_undo_resumes(store: Store, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                          monkeypatch: pytest.MonkeyPatch) -> None:
    import urnld.endpoint._client as client
    import urnld.endpoint._undo as undo_module
    g = catalog()
    store.load(g)
    before = store.dataset()
    undo = tmp_path / "u.ru"
    run(store, undo, batch=3, literals=True)
    total = len(blocks_of(undo.read_text()))
    assert total > 2
    real, real_requests = client.Endpoint.update, undo_module._requests
    calls = {"blocks": 0, "fail": False}

    def count_blocks(text: str, *, split: bool) -> list[str]:
        calls["blocks"] += 1
        calls["fail"] = calls["blocks"] == 3
        return real_requests(text, split=split)

    def fail_third(self: Any, text: str) -> None:
        # the first request of the third block (one of several on Virtuoso)
        if calls["fail"]:
            calls["fail"] = False
            raise client.EndpointError("connection lost")
        real(self, text)

    monkeypatch.setattr(undo_module, "_requests", count_blocks)
    monkeypatch.setattr(client.Endpoint, "update", fail_third)
    argv = ["undo", str(undo), "--update-endpoint", store.update_url, "--progress"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "(2 of " in err and "run again to finish" in err
    monkeypatch.setattr(client.Endpoint, "update", real)
    monkeypatch.setattr(undo_module, "_requests", real_requests)
    assert main(argv) == 0
    assert f"{total - 2:,} batch" in capsys.readouterr().err
    assert same(store.dataset(), before)
    assert main(argv) == 0  # finished: nothing left
    assert "nothing left to revert" in capsys.readouterr().err
    assert same(store.dataset(), before)


def test_not_an_undo_file(store: Store, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    other = tmp_path / "x.ru"
    other.write_text("INSERT DATA { <urn:a:b> <urn:a:c> <urn:a:d> }\n")
    assert main(["undo", str(other), "--update-endpoint", store.update_url]) == 2
    assert "not a urnld undo file" in capsys.readouterr().err
    store.load(Graph().parse(data="<URN:A:B> <http://ex/p> \"1\" .", format="nt"))
    with pytest.raises(Exception, match="not a urnld undo file"):
        run(store, other)  # never appends to a file it did not write
    assert main(["undo", str(tmp_path / "none.ru"), "--update-endpoint", store.update_url]) == 2
    assert "cannot read undo file" in capsys.readouterr().err
    assert HEADER.startswith("# urnld undo")


# -- property: run + undo gives back a store isomorphic to the original ---------------------------
_SPELLINGS = ["URN:ISBN:0-395-36341-1", "urn:ISBN:0395363411", "urn:isbn:0395363411",
              "URN:UUID:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6",
              "urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6"]
_iri = st.sampled_from([*_SPELLINGS, "http://ex/a", "http://ex/b"]).map(URIRef)
_bnode = st.sampled_from(["b1", "b2", "b3"]).map(BNode)
# Each blank node has a statement of its own: blank nodes that nothing tells apart are
# interchangeable, and any of them restores the data up to isomorphism.
_OWN = [(BNode(b), URIRef("http://ex/name"), Literal(b)) for b in ("b1", "b2", "b3")]
_literal = st.one_of(
    st.sampled_from(_SPELLINGS).map(Literal),
    st.sampled_from(_SPELLINGS).map(lambda v: Literal(v, datatype=URIRef(
        "http://www.w3.org/2001/XMLSchema#anyURI"))),
    st.just(Literal("x", lang="en")),
)
_pred = st.sampled_from(["http://ex/p", "http://ex/q", "URN:EXAMPLE:Rel",
                         "urn:example:rel"]).map(URIRef)
_graph = st.sampled_from([None, "urn:example:g1", "URN:EXAMPLE:G1", "http://ex/g"])
_quad = st.tuples(st.one_of(_iri, _bnode), _pred, st.one_of(_iri, _bnode, _literal), _graph)


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(quads=st.lists(_quad, min_size=1, max_size=12), batch=st.sampled_from([1, 3, 1000]),
       literals=st.booleans())
def test_run_then_undo_is_isomorphic(store: Store, tmp_path_factory: pytest.TempPathFactory,
                                     quads: list[tuple[Any, ...]], batch: int,
                                     literals: bool) -> None:
    store.clear()
    ds = Dataset()
    for s, p, o, g in quads:
        (ds.default_graph if g is None else ds.graph(URIRef(g))).add((s, p, o))
    for t in _OWN:
        if any(b in q for q in quads for b in t[:1]):
            ds.default_graph.add(t)
    store.load(ds)
    before = store.dataset()
    undo = tmp_path_factory.mktemp("undo") / "u.ru"
    run(store, undo, batch=batch, literals=literals, all_graphs=True)
    apply_undo(undo, store.update_url)
    assert same(store.dataset(), before)
