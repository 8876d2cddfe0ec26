"""Real SPARQL servers for the endpoint tests: every test that takes ``store`` runs on each.

- **Oxigraph** (the ``oxigraph`` package of the test extra), started on a free loopback port with
  a temporary directory.
- **Virtuoso** (Debian's ``virtuoso-opensource``: ``virtuoso-t``), started in a temporary
  directory with its own ``virtuoso.ini`` on two free loopback ports (SQL and HTTP), never the
  system service. Queries go to ``/sparql`` (anonymous, read-only), updates to ``/sparql-auth``
  with HTTP Digest as ``dba`` (credentials from the environment, as a user would give them).
  Without ``virtuoso-t`` its tests are skipped, except under CI (``CI`` set), where
  ``.ci/run`` installs it and a missing server is a failure.
- A third store when ``URNLD_TEST_ENDPOINT`` (query URL) and ``URNLD_TEST_UPDATE_ENDPOINT``
  (update URL, default the same) are set (Fuseki, GraphDB…): its data is dropped between tests,
  so point them at a scratch dataset.

Each server starts once per session and is stopped at its end (tests that stop and restart a
server need a local one and are skipped for the external store).
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from rdflib import Dataset, Graph, Literal
from rdflib.query import Result

EXTERNAL = os.environ.get("URNLD_TEST_ENDPOINT")
STORES = ["oxigraph", "virtuoso", *(["external"] if EXTERNAL else [])]
XSD_STRING = "http://www.w3.org/2001/XMLSchema#string"
# Virtuoso has no plain default graph (its default graph is the union of all graphs): what the
# tests load into "the default graph" goes to this graph there.
DEFAULT_GRAPH = "http://urnld.test/default"
VIRTRDF = "http://www.openlinksw.com/schemas/virtrdf#"


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

    name = "oxigraph"

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


def virtuoso_command() -> str:
    found = shutil.which("virtuoso-t")
    if found is None:
        if os.environ.get("CI"):
            pytest.fail("virtuoso-t is required in CI (.ci/run installs virtuoso-opensource)")
        pytest.skip("virtuoso-t is not installed (apt-get install virtuoso-opensource)")
    return found


class Virtuoso:
    """A ``virtuoso-t +foreground`` process on 127.0.0.1 in its own directory and ini file."""

    name = "virtuoso"
    user = password = "dba"  # the fresh database's administrator, for /sparql-auth

    def __init__(self, location: Path, *, max_rows: int = 1_000_000) -> None:
        self.location = location
        self.sql_port = free_port()
        self.port = free_port()
        while self.port == self.sql_port:
            self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None
        self.ini = location / "virtuoso.ini"
        self.ini.write_text(f"""[Database]
DatabaseFile = {location}/virtuoso.db
ErrorLogFile = {location}/virtuoso.log
LockFile = {location}/virtuoso.lck
TransactionFile = {location}/virtuoso.trx
xa_persistent_file = {location}/virtuoso.pxa
ErrorLogLevel = 7
FileExtend = 200
Striping = 0
TempStorage = TempDatabase
[TempDatabase]
DatabaseFile = {location}/virtuoso-temp.db
TransactionFile = {location}/virtuoso-temp.trx
Striping = 0
[Parameters]
ServerPort = 127.0.0.1:{self.sql_port}
DisableUnixSocket = 1
DirsAllowed = ., {location}
NumberOfBuffers = 10000
MaxDirtyBuffers = 6000
CheckpointInterval = 0
[HTTPServer]
ServerPort = 127.0.0.1:{self.port}
ServerRoot = {location}
ServerThreads = 10
Charset = UTF-8
[SPARQL]
ResultSetMaxRows = {max_rows}
MaxQueryExecutionTime = 600
MaxQueryCostEstimationTime = 0
""", encoding="utf-8")

    def start(self) -> None:
        self.process = subprocess.Popen(
            [virtuoso_command(), "+configfile", str(self.ini), "+foreground"],
            cwd=self.location, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:  # bounded: a new database answers within seconds
            if self.process.poll() is not None:
                log = (self.location / "virtuoso.log").read_text(errors="replace")[-2000:]
                pytest.fail(f"virtuoso-t exited with {self.process.returncode}: {log}")
            with contextlib.suppress(httpx.HTTPError):
                r = httpx.get(f"{self.base}/sparql", params={"query": "ASK {}"}, timeout=2)
                if r.status_code == 200:
                    # Virtuoso writes its LDP and service-description graphs at each start:
                    # statements no test loaded.
                    r = httpx.post(f"{self.base}/sparql-auth", content=(
                        b"DROP SILENT GRAPH <http://www.w3.org/ns/ldp#> ; "
                        b"DROP SILENT GRAPH <http://localuriqaserver/sparql>"),
                        headers={"Content-Type": "application/sparql-update"}, timeout=30,
                        auth=httpx.DigestAuth(self.user, self.password))
                    assert r.status_code == 200, r.text
                    return
            time.sleep(0.2)
        self.stop()
        pytest.fail("virtuoso did not answer within 60 s")

    def stop(self) -> None:
        if self.process is None:
            return
        # A checkpoint first: with none taken, a restart rebuilds the store from the
        # transaction log, which brought statements of earlier tests back.
        isql = shutil.which("isql-vt") or shutil.which("isql")
        if isql is not None and self.process.poll() is None:
            with contextlib.suppress(subprocess.SubprocessError, OSError):
                subprocess.run([isql, str(self.sql_port), self.user, self.password,
                                "exec=checkpoint;"], stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, timeout=60, check=False)
        self.process.terminate()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)
        self.process = None


Server = Oxigraph | Virtuoso


class Store:
    """The endpoint under test: URLs, and helpers to load and read its whole content.

    ``vendor`` is ``oxigraph``, ``virtuoso`` or ``external``. On Virtuoso, "the default graph"
    of the test data is :data:`DEFAULT_GRAPH`, and Virtuoso's own schema graph is left out.
    """

    def __init__(self, query_url: str, update_url: str, server: Server | None,
                 vendor: str) -> None:
        self.query_url = query_url
        self.update_url = update_url
        self.server = server
        self.vendor = vendor
        self.auth: httpx.Auth | None = None
        if isinstance(server, Virtuoso):
            self.auth = httpx.DigestAuth(server.user, server.password)

    @property
    def virtuoso(self) -> bool:
        return self.vendor == "virtuoso"

    def update(self, text: str) -> None:
        r = httpx.post(self.update_url, content=text.encode(),
                       headers={"Content-Type": "application/sparql-update"}, timeout=60,
                       auth=self.auth or httpx.USE_CLIENT_DEFAULT)
        assert r.status_code < 300, r.text

    def clear(self) -> None:
        if self.virtuoso:
            # Never its schema graph (DROP ALL would take it), and a logged DELETE, not DROP
            # GRAPH: Virtuoso does not log a DROP, so a restart (the fault tests) would replay
            # the statements of earlier tests from its transaction log.
            self.update("DELETE { GRAPH ?g { ?s ?p ?o } } WHERE { GRAPH ?g { ?s ?p ?o } "
                        f"FILTER(?g != <{VIRTRDF}>) }}")
        else:
            self.update("DROP SILENT ALL")

    def load(self, data: Graph) -> None:
        """Insert a graph (default graph) or a dataset (its graphs) in one request, so a blank
        node shared by several graphs stays one node. Virtuoso refuses blank nodes in INSERT
        DATA (SP031) and has no plain default graph: there the data goes in with
        INSERT { … } WHERE { }, whose template makes one node per label, per graph."""
        parts: list[tuple[str | None, str]] = []
        graphs = ([(g, g.identifier == data.default_graph.identifier) for g in data.graphs()]
                  if isinstance(data, Dataset) else [(data, True)])
        for g, default in graphs:
            if len(g):
                parts.append((None if default else str(g.identifier), self._nt(g)))
        if not parts:
            return
        if self.virtuoso:
            # Statements without blank nodes go in as data: in a template, Virtuoso 7.2.5 may
            # store a plain literal that spells an IRI of the same request as that IRI.
            ground, blank = [], []
            for g, body in parts:
                lines = body.splitlines()
                for kind, pick in ((ground, False), (blank, True)):
                    chosen = [ln for ln in lines if ln.strip() and ("_:" in ln) == pick]
                    if chosen:
                        kind.append(f"GRAPH <{g or DEFAULT_GRAPH}> {{ {chr(10).join(chosen)} }}")
            ops = []
            if ground:
                ops.append(f"INSERT DATA {{ {' '.join(ground)} }}")
            # One operation per graph: a template with blank nodes in two GRAPH blocks fails
            # on 7.2.5 ("SR002: Function string_output_string needs a string output as
            # argument 1, not an arg of type INTEGER"). A blank node in statements of two
            # graphs becomes one node per graph there; the tests compare with what the store
            # holds after loading.
            # (and a label may not appear in two operations of one request: SP031).
            for i, part in enumerate(blank):
                own = re.sub(r"_:([A-Za-z0-9]+)", lambda m, i=i: f"_:{m[1]}x{i}", part)
                ops.append(f"INSERT {{ {own} }} WHERE {{ }}")
            self.update(" ;\n".join(ops))
        else:
            text = " ".join(body if g is None else f"GRAPH <{g}> {{ {body} }}"
                            for g, body in parts)
            self.update(f"INSERT DATA {{ {text} }}")

    def _nt(self, g: Graph) -> str:
        if not self.virtuoso:
            return g.serialize(format="nt")
        # Virtuoso takes a plain literal for an IRI of the same text written earlier in the
        # request; typed, it stays a literal (RDF 1.1: the same term).
        def n3(t: Any) -> str:
            if isinstance(t, Literal) and t.datatype is None and not t.language:
                return f"{t.n3()}^^<{XSD_STRING}>"
            return str(t.n3())
        return "\n".join(" ".join(n3(t) for t in triple) + " ." for triple in g)

    def select(self, query: str) -> Result:
        r = httpx.post(self.query_url, data={"query": query},
                       headers={"Accept": "application/sparql-results+json"}, timeout=60)
        assert r.status_code == 200, r.text
        return Result.parse(source=io.BytesIO(r.content), format="json")

    def _term(self, t: Any) -> Any:
        # RDF 1.1: "v" and "v"^^xsd:string are one term; Virtuoso answers with either.
        if isinstance(t, Literal) and str(t.datatype) == XSD_STRING:
            return Literal(str(t))
        return t

    def _graph_filter(self) -> str:
        return f"FILTER(?g != <{VIRTRDF}>)" if self.virtuoso else ""

    def default_graph(self) -> Graph:
        g = Graph()
        where = f"GRAPH <{DEFAULT_GRAPH}> {{ ?s ?p ?o }}" if self.virtuoso else "?s ?p ?o"
        for s, p, o in self.select(f"SELECT ?s ?p ?o WHERE {{ {where} }}"):  # type: ignore[misc]
            g.add((s, p, self._term(o)))
        return g

    def dataset(self) -> Dataset:
        ds = Dataset()
        if not self.virtuoso:
            for s, p, o in self.select(  # type: ignore[misc]
                "SELECT ?s ?p ?o WHERE { ?s ?p ?o }"
            ):
                ds.default_graph.add((s, p, self._term(o)))
        for s, p, o, g in self.select(  # type: ignore[misc]
            f"SELECT ?s ?p ?o ?g WHERE {{ GRAPH ?g {{ ?s ?p ?o }} {self._graph_filter()} }}"
        ):
            target = (ds.default_graph if self.virtuoso and str(g) == DEFAULT_GRAPH
                      else ds.graph(g))
            target.add((s, p, self._term(o)))
        return ds

    def count(self) -> int:
        if self.virtuoso:
            query = ("SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } "
                     f"{self._graph_filter()} }}")
        else:
            query = ("SELECT (COUNT(*) AS ?n) WHERE { { ?s ?p ?o } UNION "
                     "{ GRAPH ?g { ?s ?p ?o } } }")
        rows = list(self.select(query))
        return int(rows[0][0])  # type: ignore[index]

    def credentials(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """Give urnld this store's update credentials the way a user does: the environment."""
        if isinstance(self.server, Virtuoso):
            monkeypatch.setenv("URNLD_ENDPOINT_USER", self.server.user)
            monkeypatch.setenv("URNLD_ENDPOINT_PASSWORD", self.server.password)
            monkeypatch.setenv("URNLD_ENDPOINT_AUTH", "digest")


@pytest.fixture(scope="session", params=STORES)
def server(request: pytest.FixtureRequest,
           tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server | None]:
    if request.param == "external":
        yield None
        return
    if request.param == "virtuoso":
        virtuoso_command()
        srv: Server = Virtuoso(tmp_path_factory.mktemp("virtuoso"))
    else:
        srv = Oxigraph(tmp_path_factory.mktemp("oxigraph"))
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


@pytest.fixture
def store(server: Server | None, monkeypatch: pytest.MonkeyPatch) -> Iterator[Store]:
    if server is None:
        assert EXTERNAL
        s = Store(EXTERNAL, os.environ.get("URNLD_TEST_UPDATE_ENDPOINT", EXTERNAL), None,
                  "external")
    else:
        if server.process is None:  # a fault test stopped it
            server.start()
        if isinstance(server, Virtuoso):
            s = Store(f"{server.base}/sparql", f"{server.base}/sparql-auth", server, "virtuoso")
        else:
            s = Store(f"{server.base}/query", f"{server.base}/update", server, "oxigraph")
    for name in ("URNLD_ENDPOINT_USER", "URNLD_ENDPOINT_PASSWORD", "URNLD_ENDPOINT_AUTH",
                 "URNLD_ENDPOINT_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    s.credentials(monkeypatch)
    s.clear()
    yield s


@pytest.fixture
def plain_store(store: Store) -> Store:
    """A store with a plain default graph to add statements to (not Virtuoso: there the
    statements --link and --keep-spellings add need --graph, see test_virtuoso.py)."""
    if store.virtuoso:
        pytest.skip("adds statements to the default graph, which Virtuoso does not have")
    return store


@pytest.fixture
def local_server(store: Store) -> Server:
    """The store's own server process, for tests that stop and restart it."""
    if store.server is None:
        pytest.skip("stops and restarts the server: needs a local server, not "
                    "URNLD_TEST_ENDPOINT")
    return store.server
