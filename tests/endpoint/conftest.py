"""A real SPARQL server for the endpoint tests.

By default an Oxigraph server (the ``oxigraph`` package of the test extra) is started on a free
loopback port with a temporary directory, and stopped after the tests. Set
``URNLD_TEST_ENDPOINT`` (query URL) and ``URNLD_TEST_UPDATE_ENDPOINT`` (update URL, default the
same) to run the same tests against another SPARQL 1.1 store (Fuseki, GraphDB…): its data is
dropped between tests, so point them at a scratch dataset. Tests that stop and restart the server
need the local Oxigraph and are skipped for an external store.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from rdflib import Dataset, Graph
from rdflib.query import Result

EXTERNAL = os.environ.get("URNLD_TEST_ENDPOINT")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def oxigraph_command() -> str:
    found = shutil.which("oxigraph") or str(Path(sys.executable).parent / "oxigraph")
    if not Path(found).exists():
        pytest.fail("the oxigraph server is missing: pip install -e '.[test]'")
    return found


class Oxigraph:
    """An ``oxigraph serve`` process on 127.0.0.1 that can be stopped and started again."""

    def __init__(self, location: Path, *, read_only: bool = False) -> None:
        self.location = location
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.read_only = read_only
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        command = "serve-read-only" if self.read_only else "serve"
        self.process = subprocess.Popen(
            [oxigraph_command(), command, "--location", str(self.location),
             "--bind", f"127.0.0.1:{self.port}"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:  # bounded: the server answers within seconds
            if self.process.poll() is not None:
                pytest.fail(f"oxigraph exited with {self.process.returncode}")
            with contextlib.suppress(httpx.HTTPError):
                r = httpx.get(f"{self.base}/query", params={"query": "ASK {}"}, timeout=2)
                if r.status_code == 200:
                    return
            time.sleep(0.1)
        self.stop()
        pytest.fail("oxigraph did not answer within 30 s")

    def stop(self) -> None:
        if self.process is None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)
        self.process = None


class Store:
    """The endpoint under test: URLs, and helpers to load and read its whole content."""

    def __init__(self, query_url: str, update_url: str, server: Oxigraph | None) -> None:
        self.query_url = query_url
        self.update_url = update_url
        self.server = server

    def update(self, text: str) -> None:
        r = httpx.post(self.update_url, content=text.encode(),
                       headers={"Content-Type": "application/sparql-update"}, timeout=60)
        assert r.status_code < 300, r.text

    def clear(self) -> None:
        self.update("DROP SILENT ALL")

    def load(self, data: Graph) -> None:
        """Insert a graph (default graph) or a dataset (its graphs) with INSERT DATA."""
        if isinstance(data, Dataset):
            for g in data.graphs():
                if not len(g):
                    continue
                body = g.serialize(format="nt")
                if g.identifier == data.default_graph.identifier:
                    self.update(f"INSERT DATA {{ {body} }}")
                else:
                    self.update(f"INSERT DATA {{ GRAPH <{g.identifier}> {{ {body} }} }}")
        else:
            self.update(f"INSERT DATA {{ {data.serialize(format='nt')} }}")

    def select(self, query: str) -> Result:
        r = httpx.post(self.query_url, data={"query": query},
                       headers={"Accept": "application/sparql-results+json"}, timeout=60)
        assert r.status_code == 200, r.text
        return Result.parse(source=r.content and __import__("io").BytesIO(r.content),
                            format="json")

    def default_graph(self) -> Graph:
        g = Graph()
        for s, p, o in self.select("SELECT ?s ?p ?o WHERE { ?s ?p ?o }"):  # type: ignore[misc]
            g.add((s, p, o))
        return g

    def dataset(self) -> Dataset:
        ds = Dataset()
        for s, p, o in self.select("SELECT ?s ?p ?o WHERE { ?s ?p ?o }"):  # type: ignore[misc]
            ds.default_graph.add((s, p, o))
        for s, p, o, g in self.select(  # type: ignore[misc]
            "SELECT ?s ?p ?o ?g WHERE { GRAPH ?g { ?s ?p ?o } }"
        ):
            ds.graph(g).add((s, p, o))
        return ds

    def count(self) -> int:
        rows = list(self.select(
            "SELECT (COUNT(*) AS ?n) WHERE { { ?s ?p ?o } UNION { GRAPH ?g { ?s ?p ?o } } }"
        ))
        return int(rows[0][0])  # type: ignore[index]


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Oxigraph | None]:
    if EXTERNAL:
        yield None
        return
    ox = Oxigraph(tmp_path_factory.mktemp("oxigraph"))
    ox.start()
    try:
        yield ox
    finally:
        ox.stop()


@pytest.fixture
def store(server: Oxigraph | None) -> Iterator[Store]:
    if server is None:
        assert EXTERNAL
        s = Store(EXTERNAL, os.environ.get("URNLD_TEST_UPDATE_ENDPOINT", EXTERNAL), None)
    else:
        if server.process is None:  # a fault test stopped it
            server.start()
        s = Store(f"{server.base}/query", f"{server.base}/update", server)
    s.clear()
    yield s


@pytest.fixture
def local_server(store: Store) -> Oxigraph:
    """The store's own Oxigraph process, for tests that stop and restart it."""
    if store.server is None:
        pytest.skip("stops and restarts the server: needs the local Oxigraph, not "
                    "URNLD_TEST_ENDPOINT")
    return store.server
