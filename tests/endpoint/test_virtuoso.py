"""What Virtuoso needs spelled its own way, one test per quirk (the store's issue named where
there is one). Each runs against the session's Virtuoso (``store`` fixture, Virtuoso only)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import httpx
import pytest
from rdflib import Graph, Literal, URIRef
from rdflib.compare import isomorphic

from urnld import URNError
from urnld.cli import main
from urnld.endpoint._client import Endpoint, _boolean
from urnld.rdf import (
    EndpointError,
    apply_undo,
    canonicalize,
    canonicalize_endpoint,
    check_endpoint,
)
from urnld.rdf import check_graph as check_in_memory

from .conftest import DEFAULT_GRAPH, Virtuoso, virtuoso_command

if TYPE_CHECKING:
    from .conftest import Store

XSD = "http://www.w3.org/2001/XMLSchema#"
CATALOG = Path(__file__).resolve().parents[2] / "examples" / "catalog" / "catalog.ttl"


def urnld_profiles() -> dict[str, object]:
    """The profiles by product name (the test raises one of Virtuoso's limits)."""
    from urnld.endpoint import _profile

    return _profile._PROFILES  # type: ignore[return-value]


@pytest.fixture
def vstore(store: Store) -> Store:
    if not store.virtuoso:
        pytest.skip("a Virtuoso quirk")
    return store


def test_vendor_read_from_the_server_header(store: Store) -> None:
    with Endpoint(store.query_url) as e:
        vendor = e.vendor
    expected = {"virtuoso": "virtuoso", "oxigraph": "oxigraph"}.get(store.vendor)
    if expected is not None:
        assert vendor == expected


def test_ask_answered_as_a_solution() -> None:
    # Virtuoso's answer to ASK on an empty store (seen on 7.2.5), besides the standard form
    true = {"head": {"vars": ["__ASK_RETVAL"]}, "results": {"bindings": [{"__ASK_RETVAL": {
        "type": "typed-literal", "datatype": XSD + "integer", "value": "1"}}]}}
    assert _boolean(true) is True
    assert _boolean({"head": {}, "results": {"bindings": []}}) is False
    assert _boolean({"head": {}, "boolean": False}) is False


def test_default_graph_is_the_union(vstore: Store) -> None:
    """No plain default graph (#215): the default scope reads every graph once, and
    --all-graphs does not count the union beside the graphs it is made of."""
    g1 = Graph().parse(data="<URN:ISBN:0-395-36341-1> <http://e/p> \"a\" .", format="nt")
    vstore.update(f"INSERT DATA {{ GRAPH <http://e/g1> {{ {g1.serialize(format='nt')} }} }}")
    vstore.load(Graph().parse(data="<urn:ISBN:0395363411> <http://e/p> \"b\" .", format="nt"))
    default = check_endpoint(vstore.query_url)
    every = check_endpoint(vstore.query_url, all_graphs=True)
    assert default.statements_in == every.statements_in == 2 == vstore.count()
    assert every.iri_occurrences == 2
    report = canonicalize_endpoint(vstore.query_url, update_url=vstore.update_url)
    assert report.rewritten == 2
    after = vstore.dataset()  # each statement stayed in its graph
    assert set(after.graph(URIRef("http://e/g1"))) == {
        (URIRef("urn:isbn:0395363411"), URIRef("http://e/p"), Literal("a"))}
    assert set(after.default_graph) == {
        (URIRef("urn:isbn:0395363411"), URIRef("http://e/p"), Literal("b"))}


def test_added_statements_need_a_graph(vstore: Store, capsys: pytest.CaptureFixture[str]) -> None:
    g = Graph().parse(CATALOG)
    vstore.load(g)
    before = vstore.dataset()
    with pytest.raises(URNError, match="no default graph to add statements to: give --graph"):
        canonicalize_endpoint(vstore.query_url, update_url=vstore.update_url, link=True)
    assert isomorphic(vstore.default_graph(), g) and len(before) == len(vstore.dataset())
    # with --graph: the statements the file path adds, in that graph
    code = main(["canonicalize", "--endpoint", vstore.query_url, "--update-endpoint",
                 vstore.update_url, "--graph", DEFAULT_GRAPH, "--link", "--keep-spellings",
                 "--literals", "-q"])
    assert code == 0, capsys.readouterr().err
    expected = canonicalize(g, link=True, keep_spellings=True, literals=True).graph
    assert isomorphic(vstore.default_graph(), expected)


def test_plain_literal_and_iri_of_one_text(vstore: Store) -> None:
    """A plain literal is never taken for the IRI of the same text (7.2.5 did that to plain
    constants of one update): both come out rewritten, each of its own kind."""
    s, p = "<http://e/s>", "<http://e/p>"
    vstore.update(
        f"INSERT {{ GRAPH <{DEFAULT_GRAPH}> {{ {s} {p} <URN:ISBN:0-395-36341-1> . "
        f"{s} {p} ?l }} }} WHERE {{ BIND(STR(\"URN:ISBN:0-395-36341-1\"^^<{XSD}string>) AS ?l) }}"
    )
    rows = list(vstore.select(f"SELECT ?o WHERE {{ GRAPH <{DEFAULT_GRAPH}> {{ {s} {p} ?o }} }}"))
    assert len(rows) == 2  # the plain literal went in as a literal
    canonicalize_endpoint(vstore.query_url, update_url=vstore.update_url, literals=True)
    assert set(vstore.default_graph()) == {
        (URIRef("http://e/s"), URIRef("http://e/p"), URIRef("urn:isbn:0395363411")),
        (URIRef("http://e/s"), URIRef("http://e/p"), Literal("urn:isbn:0395363411")),
    }


@pytest.mark.parametrize("datatype", ["string", "anyURI"])
def test_typed_literal_deleted(vstore: Store, datatype: str) -> None:
    """#379, #633, #247: a typed literal given as a constant is not always deleted; the
    rewrite leaves no old spelling behind."""
    lit = Literal("URN:ISBN:0-395-36341-1", datatype=URIRef(XSD + datatype))
    g = Graph()
    for i in range(3):
        g.add((URIRef(f"http://e/s{i}"), URIRef("http://e/p"), lit))
    vstore.load(g)
    canonicalize_endpoint(vstore.query_url, update_url=vstore.update_url, literals=True)
    objects = {o for _s, _p, o in vstore.default_graph()}
    want = Literal("urn:isbn:0395363411", datatype=URIRef(XSD + datatype))
    assert objects == {Literal(str(want)) if datatype == "string" else want}
    assert len(vstore.default_graph()) == 3


def test_many_terms_split_into_requests(vstore: Store) -> None:
    """One request of a few thousand VALUES rows exceeds Virtuoso's code vector ("SQ199:
    Maximum size (32767) of a code vector exceeded"), and its compile time grows faster than
    the rows: a batch ends at 300 terms there."""
    import uuid

    from urnld.rdf import BatchProgress

    g = Graph()
    for i in range(1200):  # RFC 9562 UUIDs, spelled in upper case (canonical: lower case)
        g.add((URIRef(f"URN:UUID:{uuid.UUID(int=i + 1)}".upper()), URIRef("http://e/p"),
               Literal(i)))
    vstore.load(g)
    seen: list[BatchProgress] = []
    report = canonicalize_endpoint(vstore.query_url, update_url=vstore.update_url,
                                   batch=100_000, progress=seen.append)
    assert report.rewritten == 1200 and seen[-1].batches_total == 4  # 1,200 / 300
    assert isomorphic(vstore.default_graph(), canonicalize(g).graph)


def _virtrdf(store: Store) -> int:
    rows = list(store.select(
        "SELECT (COUNT(*) AS ?n) WHERE { GRAPH <http://www.openlinksw.com/schemas/virtrdf#> "
        "{ ?s ?p ?o } }"))
    return int(rows[0][0])  # type: ignore[index]


def test_undo_tells_iris_from_literals(vstore: Store, tmp_path: Path) -> None:
    """DATATYPE() of an IRI is xsd:anyURI on Virtuoso (the standard makes it an error): the
    undo asks isLiteral(), and each term comes back of its own kind."""
    s, p = "<http://e/s>", "<http://e/p>"
    vstore.update(
        f"INSERT {{ GRAPH <{DEFAULT_GRAPH}> {{ {s} {p} <URN:ISBN:0-395-36341-1> . "
        f"<URN:ISBN:0-395-36341-1> {p} ?l }} }} "
        f"WHERE {{ BIND(STR(\"URN:ISBN:0-395-36341-1\"^^<{XSD}string>) AS ?l) }}"
    )
    before = vstore.default_graph()
    undo = tmp_path / "u.ru"
    canonicalize_endpoint(vstore.query_url, update_url=vstore.update_url, literals=True,
                          undo=undo)
    assert set(vstore.default_graph()) != set(before)
    apply_undo(undo, vstore.update_url)
    assert set(vstore.default_graph()) == set(before)


def test_undo_looks_graph_names_up_among_iris(vstore: Store, tmp_path: Path) -> None:
    """A literal bound to ?g in GRAPH ?g { … } matched statements of every graph, Virtuoso's
    schema graph too: the undo file inserted its statements back, a run of Virtuoso's own SQL
    strings that no request could hold."""
    vstore.update(
        "INSERT DATA { GRAPH <URN:EXAMPLE:G1> { <http://e/s> <http://e/p> <http://e/o> } "
        f"GRAPH <{DEFAULT_GRAPH}> {{ <http://e/s> <http://e/p> "
        f"\"URN:EXAMPLE:G1\"^^<{XSD}anyURI> }} }}"
    )
    before, schema = vstore.dataset(), _virtrdf(vstore)
    undo = tmp_path / "u.ru"
    canonicalize_endpoint(vstore.query_url, update_url=vstore.update_url, literals=True,
                          all_graphs=True, undo=undo)
    assert "virtrdf" not in undo.read_text()
    apply_undo(undo, vstore.update_url)
    assert set(vstore.dataset().quads()) == set(before.quads())
    assert _virtrdf(vstore) == schema


def test_undo_of_a_thousand_terms(vstore: Store, tmp_path: Path,
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """A batch of 1,000 terms makes an undo query and an undo block past Virtuoso's limits
    (10,000 lines of SQL, a 32 KiB code vector): read in slices, sent an operation at a
    time, it restores every statement. (Batches end at 300 terms there; 1,000 keeps the
    slicing tested with room to spare.)"""
    import dataclasses
    import uuid

    from urnld.endpoint import VIRTUOSO

    monkeypatch.setitem(urnld_profiles(), "virtuoso",
                        dataclasses.replace(VIRTUOSO, max_terms=1000))

    g = Graph()
    for i in range(1200):  # RFC 9562 UUIDs, spelled in upper case (canonical: lower case)
        urn = f"URN:UUID:{uuid.UUID(int=i + 1)}".upper()
        if i % 3:
            g.add((URIRef(urn), URIRef("http://e/p"), Literal(i)))
        else:
            g.add((URIRef(f"http://e/s{i}"), URIRef("http://e/p"), Literal(urn)))
    for start in range(0, 1200, 300):  # one INSERT DATA of them all is too big there too
        part = Graph()
        for t in list(g)[start:start + 300]:
            part.add(t)
        vstore.load(part)
    before = vstore.default_graph()
    assert len(before) == 1200
    undo = tmp_path / "u.ru"
    report = canonicalize_endpoint(vstore.query_url, update_url=vstore.update_url,
                                   literals=True, batch=100_000, undo=undo)
    assert report.rewritten == 1200
    apply_undo(undo, vstore.update_url)
    assert set(vstore.default_graph()) == set(before)


def test_blank_nodes_keep_their_identity(vstore: Store) -> None:
    g = Graph().parse(data="""
        _:b <http://e/p> <URN:ISBN:0-395-36341-1> .
        <urn:ISBN:0395363411> <http://e/q> _:b .
        _:b <http://e/r> "x" .
    """, format="nt")
    vstore.load(g)
    canonicalize_endpoint(vstore.query_url, update_url=vstore.update_url)
    assert isomorphic(vstore.default_graph(), canonicalize(g).graph)


def test_update_without_credentials_is_refused(vstore: Store,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("URNLD_ENDPOINT_USER")
    monkeypatch.setenv("NETRC", "/nonexistent")
    vstore.load(Graph().parse(CATALOG))
    with pytest.raises(EndpointError, match=r"HTTP 401 .*URNLD_ENDPOINT_USER"):
        canonicalize_endpoint(vstore.query_url, update_url=vstore.update_url)
    # the anonymous endpoint refuses updates with HTTP 500 (SR186): named as read-only
    with pytest.raises(EndpointError, match=r"SR186.*read-only endpoint\? give the store's update"):
        canonicalize_endpoint(vstore.query_url)


def test_digest_from_netrc(vstore: Store, monkeypatch: pytest.MonkeyPatch,
                           tmp_path: Path) -> None:
    """Digest credentials from a netrc entry (URNLD_ENDPOINT_AUTH=digest picks the scheme)."""
    assert isinstance(vstore.server, Virtuoso)
    monkeypatch.delenv("URNLD_ENDPOINT_USER")
    monkeypatch.delenv("URNLD_ENDPOINT_PASSWORD")
    netrc = tmp_path / "netrc"
    netrc.write_text(f"machine 127.0.0.1 login {vstore.server.user} "
                     f"password {vstore.server.password}\n")
    netrc.chmod(0o600)
    monkeypatch.setenv("NETRC", str(netrc))
    vstore.load(Graph().parse(CATALOG))
    report = canonicalize_endpoint(vstore.query_url, update_url=vstore.update_url)
    assert report.rewritten > 0
    monkeypatch.setenv("URNLD_ENDPOINT_AUTH", "basic")  # Virtuoso's /sparql-auth wants Digest
    triple = "<urn:a:b> <urn:a:c> <urn:a:d>"
    with (pytest.raises(EndpointError, match="HTTP 401"),
          Endpoint(vstore.query_url, update_url=vstore.update_url) as e):
        e.update(f"INSERT DATA {{ GRAPH <{DEFAULT_GRAPH}> {{ {triple} }} }}")


# -- a Virtuoso whose result cap is 3 rows ---------------------------------------------------------
@pytest.fixture(scope="module")
def capped(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Virtuoso]:
    virtuoso_command()
    server = Virtuoso(tmp_path_factory.mktemp("virtuoso-capped"), max_rows=3)
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.mark.parametrize("page_size", [None, 2, 10])
def test_result_cap_read_in_pages(capped: Virtuoso, page_size: int | None) -> None:
    """ResultSetMaxRows cuts a result with HTTP 200 and says so only in X-SPARQL-MaxRows: the
    term list is read again in ordered pages no larger than the cap, so nothing is lost."""
    g = Graph().parse(CATALOG)
    body = " ".join(f"{s.n3()} {p.n3()} {o.n3()}"
                    + (f"^^<{XSD}string>" if isinstance(o, Literal) and o.datatype is None
                       and not o.language else "") + " ." for s, p, o in g)
    r = httpx.post(f"{capped.base}/sparql-auth", timeout=60,
                   content=f"DROP SILENT GRAPH <{DEFAULT_GRAPH}> ; INSERT {{ GRAPH <{DEFAULT_GRAPH}> {{ {body} }} }} WHERE {{ }}".encode(),
                   headers={"Content-Type": "application/sparql-update"},
                   auth=httpx.DigestAuth(capped.user, capped.password))
    assert r.status_code == 200, r.text
    got = check_endpoint(f"{capped.base}/sparql", literals=True, page_size=page_size)
    assert got.to_dict() == check_in_memory(g).to_dict()
    # a query of urnld's own that a cut result would falsify: an error, never a short answer
    with Endpoint(f"{capped.base}/sparql") as e, pytest.raises(EndpointError, match="cut the"):
        list(e.select(f"SELECT ?s WHERE {{ GRAPH <{DEFAULT_GRAPH}> {{ ?s ?p ?o }} }}"))


def _forms(store: Store) -> dict[str, tuple[str, str]]:
    """subject -> (value, "literal" | "typed-literal") as the store returns it (raw JSON)."""
    r = httpx.post(store.query_url, data={"query": (
        f"SELECT ?s ?o WHERE {{ GRAPH <{DEFAULT_GRAPH}> {{ ?s <http://e/p> ?o }} }}")},
        headers={"Accept": "application/sparql-results+json"}, timeout=60)
    assert r.status_code == 200, r.text
    return {b["s"]["value"]: (b["o"]["value"], b["o"]["type"])
            for b in r.json()["results"]["bindings"]}


def test_literals_keep_the_form_the_store_holds_them_in(vstore: Store, tmp_path: Path,
                                                        monkeypatch) -> None:
    """Virtuoso keeps "v" and "v"^^xsd:string apart (#633, #247): a plain literal rewritten
    as a typed one is missed by a query for the plain one and differs from the file path's
    output loaded the same way (issue 38). Each is written back in the form it was held in,
    and the undo restores each form too."""
    old = "URN:ISBN:0-14-044913-2"
    vstore.update(
        f"INSERT {{ GRAPH <{DEFAULT_GRAPH}> {{ <http://e/plain> <http://e/p> ?l . "
        f"<http://e/typed> <http://e/p> \"{old}\"^^<{XSD}string> }} }} "
        f"WHERE {{ BIND(STR(\"{old}\"^^<{XSD}string>) AS ?l) }}"
    )
    before = _forms(vstore)
    assert before == {"http://e/plain": (old, "literal"), "http://e/typed": (old, "typed-literal")}
    vstore.credentials(monkeypatch)
    undo = tmp_path / "undo.sparql"
    assert main(["canonicalize", "--endpoint", vstore.query_url, "--update-endpoint",
                 vstore.update_url, "--literals", "--undo", str(undo), "-q"]) == 0
    new = "urn:isbn:0140449132"
    assert _forms(vstore) == {"http://e/plain": (new, "literal"),
                              "http://e/typed": (new, "typed-literal")}
    # the plain literal is found by a query for the plain literal
    rows = list(vstore.select(f'SELECT ?s WHERE {{ GRAPH <{DEFAULT_GRAPH}> {{ ?s ?p "{new}" }} }}'))
    assert [str(r[0]) for r in rows] == ["http://e/plain"]  # type: ignore[index]
    assert main(["undo", str(undo), "--update-endpoint", vstore.update_url, "-q"]) == 0
    assert _forms(vstore) == before
