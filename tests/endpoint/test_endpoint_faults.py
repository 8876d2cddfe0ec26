"""Faults and bad input: each one clear line from the command (exit 2), nothing half-written
beyond the committed batches."""

from __future__ import annotations

import http.server
import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import pytest
from rdflib import BNode, Graph
from rdflib.compare import isomorphic

from urnld.cli import main
from urnld.rdf import EndpointError, canonicalize, check_endpoint

if TYPE_CHECKING:
    from conftest import Oxigraph, Store

CATALOG = Path(__file__).resolve().parents[2] / "examples" / "catalog" / "catalog.ttl"


def one_error_line(capsys: pytest.CaptureFixture[str], code: int, command: str) -> str:
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if line.strip()]
    assert code == 2, err
    assert len(lines) == 1, err
    assert lines[0].startswith(f"urnld {command}: error: "), err
    assert "Traceback" not in err
    return lines[0]


# -- a loopback server that answers badly ----------------------------------------------------------
class _Handler(http.server.BaseHTTPRequestHandler):
    behaviour: ClassVar[dict[str, Any]] = {}

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        b = self.behaviour
        if b.get("sleep"):
            time.sleep(b["sleep"])
        body = b.get("body", "").encode()
        try:
            self.send_response(b.get("status", 200))
            self.send_header("Content-Type", b.get("type", "text/plain"))
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (timeout test)

    do_GET = do_POST

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def bad_server() -> Iterator[tuple[str, dict[str, Any]]]:
    behaviour: ClassVar[dict[str, Any]] = {}
    handler = type("H", (_Handler,), {"behaviour": behaviour})
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/sparql", behaviour
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=10)


@pytest.mark.parametrize(
    ("behaviour", "expected"),
    [
        ({"status": 500, "body": "internal store failure\nat line 2"},
         r"HTTP 500 Internal Server Error: internal store failure$"),
        ({"status": 503, "type": "text/html", "body": "<html><h1>Down</h1></html>"},
         r"HTTP 503 Service Unavailable$"),
        ({"status": 400, "body": "Parse error: line 1"}, r"HTTP 400 Bad Request: Parse error"),
        ({"status": 401, "body": "login"}, r"HTTP 401 Unauthorized: login \(set URNLD_ENDPOINT"),
        ({"status": 200, "type": "text/html", "body": "<html>Welcome</html>"},
         r"expected SPARQL CSV results, got an HTML page \(HTTP 200\)"),
        ({"status": 200, "type": "text/csv", "body": ""}, r"empty response"),
        ({"status": 200, "type": "text/csv", "body": "n\r\n12\r\n"},
         r"unexpected results \(columns n\)$"),
    ],
)
def test_bad_answers(
    bad_server: tuple[str, dict[str, Any]],
    behaviour: dict[str, Any],
    expected: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    url, b = bad_server
    b.update(behaviour)
    code = main(["check", "--endpoint", url])
    import re

    line = one_error_line(capsys, code, "check")
    assert url in line
    assert re.search(expected, line), line


def test_timeout(bad_server: tuple[str, dict[str, Any]], capsys: pytest.CaptureFixture[str]
                 ) -> None:
    url, b = bad_server
    b.update(sleep=3, type="text/csv", body="n\r\n1\r\n")
    started = time.monotonic()
    code = main(["check", "--endpoint", url, "--timeout", "0.5"])
    line = one_error_line(capsys, code, "check")
    assert "no answer within the timeout" in line and "--timeout" in line
    # The baseline is the server's own delay, set above: the command gave up before it.
    assert time.monotonic() - started < b["sleep"]


def test_wrong_url(capsys: pytest.CaptureFixture[str]) -> None:
    import socket

    with socket.socket() as sock:  # a port that was free a moment ago: nothing listens there
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    url = f"http://127.0.0.1:{port}/sparql"
    line = one_error_line(capsys, main(["check", "--endpoint", url]), "check")
    assert line == f"urnld check: error: {url}: cannot connect ([Errno 111] Connection refused)"


@pytest.mark.parametrize("url", ["ftp://127.0.0.1/x", "127.0.0.1:7878/query", ""])
def test_not_an_http_url(url: str, capsys: pytest.CaptureFixture[str]) -> None:
    line = one_error_line(capsys, main(["check", "--endpoint", url]), "check")
    assert "not an http(s) URL" in line


def test_wrong_path_on_a_real_server(store: Store, capsys: pytest.CaptureFixture[str]) -> None:
    url = store.query_url.rsplit("/", 1)[0] + "/nothing-here"
    line = one_error_line(capsys, main(["check", "--endpoint", url]), "check")
    assert "HTTP 404" in line


def test_read_only_endpoint(store: Store, capsys: pytest.CaptureFixture[str]) -> None:
    store.load(Graph().parse(CATALOG))
    code = main(["canonicalize", "--endpoint", store.query_url])
    line = one_error_line(capsys, code, "canonicalize")
    assert "batch 1 of 1 failed, nothing was changed" in line
    assert "--update-endpoint" in line
    assert isomorphic(store.default_graph(), Graph().parse(CATALOG))


def test_missing_graph(store: Store, capsys: pytest.CaptureFixture[str]) -> None:
    store.load(Graph().parse(CATALOG))
    code = main(["check", "--endpoint", store.query_url, "--graph", "urn:example:none"])
    line = one_error_line(capsys, code, "check")
    assert line.endswith(f"graph <urn:example:none> does not exist or is empty at "
                         f"{store.query_url}")


def test_bad_options(store: Store, capsys: pytest.CaptureFixture[str]) -> None:
    for argv, message in [
        (["check", "x.nt", "--endpoint", store.query_url], "not both"),
        (["canonicalize", "--endpoint", store.query_url, "--batch", "0"], "--batch"),
        (["canonicalize", "--endpoint", store.query_url, "-o", "x.nt"], "-o is for files"),
        (["canonicalize", "--endpoint", store.query_url, "--dry-run", "--undo", "u.ru"],
         "nothing to undo"),
        (["check", "--endpoint", store.query_url, "--timeout", "-1"], "--timeout"),
        (["check", "--endpoint", store.query_url, "--graph", "a b"], "not a usable graph"),
        (["check"], "give RDF files"),
    ]:
        line = one_error_line(capsys, main(argv), argv[0])
        assert message in line, line


def test_no_urns(store: Store, capsys: pytest.CaptureFixture[str]) -> None:
    store.load(Graph().parse(data="<http://e/a> <http://e/p> 'x' .", format="turtle"))
    assert main(["check", "--endpoint", store.query_url]) == 0
    out = capsys.readouterr().out
    assert out.startswith("OK: 0 invalid URNs (0 occurrences)")
    assert "scanned 1 statement: 0 URN occurrences" in out
    assert main(["canonicalize", "--endpoint", store.query_url]) == 0  # nothing to update


def test_server_stopped_mid_run(
    store: Store, local_server: Oxigraph, tmp_path: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Stopped after batch 2: one line naming batch 3, exit 2; after a restart a re-run
    completes, and the store holds exactly what file-based canonicalize makes of the data."""
    import urnld.endpoint._client as client

    data = Graph().parse(CATALOG)
    store.load(data)
    calls = {"n": 0}
    real_update = client.Endpoint.update

    def update(self: Any, text: str) -> None:
        calls["n"] += 1
        if calls["n"] == 3:
            local_server.stop()
        real_update(self, text)

    monkeypatch.setattr(client.Endpoint, "update", update)
    report = tmp_path / "r.json"
    undo = tmp_path / "u.ru"
    argv = ["canonicalize", "--endpoint", store.query_url, "--update-endpoint",
            store.update_url, "--batch", "4", "--literals", "--report", str(report),
            *([] if store.virtuoso else ["--undo", str(undo)])]
    code = main(argv)
    line = one_error_line(capsys, code, "canonicalize")
    assert " batch 3 of " in line and "batches 1-2 are committed" in line
    assert "cannot connect" in line or "closed the connection" in line
    run = json.loads(report.read_text())["run"]
    assert run["complete"] is False and run["batches"]["done"] == 2
    if not store.virtuoso:  # the failed batch may have committed: its block is there
        assert undo.read_text().count("# batch ") == 3

    monkeypatch.setattr(client.Endpoint, "update", real_update)
    local_server.start()
    assert main(argv) == 0
    assert json.loads(report.read_text())["run"]["complete"] is True

    # the file transport on the same data
    out = tmp_path / "canonical.ttl"
    assert main(["canonicalize", str(CATALOG), "--literals", "-o", str(out)]) == 0
    expected = Graph().parse(out)
    got = store.default_graph()
    def ground(g: Graph) -> set[Any]:
        return {t for t in g if not any(isinstance(x, BNode) for x in t)}

    assert len(got) == len(expected) == store.count(), ground(got) ^ ground(expected)
    assert isomorphic(got, expected)
    assert isomorphic(got, canonicalize(data, literals=True).graph)


def test_api_error_is_an_environment_failure(bad_server: tuple[str, dict[str, Any]]) -> None:
    from urnld.errors import URNLDEnvironmentError

    url, b = bad_server
    b.update(status=502, body="bad gateway")
    with pytest.raises(EndpointError, match="HTTP 502") as info:
        check_endpoint(url)
    assert isinstance(info.value, URNLDEnvironmentError)
    assert not isinstance(info.value, ValueError)


# -- credentials: from the environment or netrc, never the command line ----------------------------
class _Recorder(_Handler):
    seen: ClassVar[list[str | None]] = []

    def do_POST(self) -> None:
        self.seen.append(self.headers.get("Authorization"))
        super().do_POST()


@pytest.fixture
def recording_server() -> Iterator[tuple[str, list[str | None]]]:
    seen: list[str | None] = []
    handler = type("R", (_Recorder,), {"seen": seen, "behaviour": {
        "type": "text/csv", "body": "x,n,dt\r\n"}})
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/sparql", seen
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=10)


def _no_credentials(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in ("URNLD_ENDPOINT_TOKEN", "URNLD_ENDPOINT_USER", "URNLD_ENDPOINT_PASSWORD",
                 "URNLD_ENDPOINT_AUTH"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("NETRC", str(tmp_path / "no-netrc"))


def test_bearer_from_environment(recording_server: tuple[str, list[str | None]],
                                 monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    url, seen = recording_server
    _no_credentials(monkeypatch, tmp_path)
    monkeypatch.setenv("URNLD_ENDPOINT_TOKEN", "s3cret")
    with pytest.raises(EndpointError):  # the fake server's count answer is empty
        check_endpoint(url)
    assert seen and set(seen) == {"Bearer s3cret"}


def test_basic_from_environment(recording_server: tuple[str, list[str | None]],
                                monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import base64

    url, seen = recording_server
    _no_credentials(monkeypatch, tmp_path)
    monkeypatch.setenv("URNLD_ENDPOINT_USER", "alice")
    monkeypatch.setenv("URNLD_ENDPOINT_PASSWORD", "pw")
    with pytest.raises(EndpointError):
        check_endpoint(url)
    assert set(seen) == {"Basic " + base64.b64encode(b"alice:pw").decode()}


def test_basic_from_netrc(recording_server: tuple[str, list[str | None]],
                          monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import base64

    url, seen = recording_server
    _no_credentials(monkeypatch, tmp_path)
    netrc_file = tmp_path / "netrc"
    netrc_file.write_text("machine 127.0.0.1 login bob password hunter2\n")
    netrc_file.chmod(0o600)
    monkeypatch.setenv("NETRC", str(netrc_file))
    with pytest.raises(EndpointError):
        check_endpoint(url)
    assert set(seen) == {"Basic " + base64.b64encode(b"bob:hunter2").decode()}


def test_bad_auth_scheme(recording_server: tuple[str, list[str | None]],
                         monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                         capsys: pytest.CaptureFixture[str]) -> None:
    url, _seen = recording_server
    _no_credentials(monkeypatch, tmp_path)
    monkeypatch.setenv("URNLD_ENDPOINT_USER", "alice")
    monkeypatch.setenv("URNLD_ENDPOINT_AUTH", "kerberos")
    code = main(["check", "--endpoint", url])
    line = one_error_line(capsys, code, "check")
    assert "URNLD_ENDPOINT_AUTH must be basic or digest, got 'kerberos'" in line


def test_no_credentials(recording_server: tuple[str, list[str | None]],
                        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    url, seen = recording_server
    _no_credentials(monkeypatch, tmp_path)
    with pytest.raises(EndpointError):
        check_endpoint(url)
    assert set(seen) == {None}


def test_no_credential_options(capsys: pytest.CaptureFixture[str]) -> None:
    for flag in ("--user", "--password", "--token"):
        with pytest.raises(SystemExit) as info:
            main(["check", "--endpoint", "http://127.0.0.1:1/q", flag, "x"])
        assert info.value.code == 2
        assert "unrecognized arguments" in capsys.readouterr().err
