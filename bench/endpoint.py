"""Benchmark: URNs of a running SPARQL store, in place vs the dump → canonicalize → reload trip.

    python bench/endpoint.py                                  # 200k triples, memory 200k vs 800k
    python bench/endpoint.py --triples 1000000 --memory 1000000 4000000   # the full sizes
    python bench/endpoint.py --store virtuoso --memory        # Debian's virtuoso-t instead

The store is an Oxigraph server (default) or a Virtuoso server (``--store virtuoso``: a
``virtuoso-t`` of its own in a temporary directory; the data goes in one named graph, since
Virtuoso has no plain default graph; dumps go through its Graph Store Protocol, loads through
its bulk loader, see :meth:`VirtuosoServer.load`).

In one run, on a store of ``--triples`` N-Triples statements of which 10% use a non-canonical
URN spelling (records about books named by ISBN URNs, spelled ``URN:ISBN:…``, ``urn:ISBN:…``
or with hyphens in one statement out of ten):

* check — ``urnld check --endpoint`` (:func:`urnld.rdf.check_endpoint`) against one
  ``SELECT (COUNT(*) …)`` over the same patterns (the floor for any pass that reads them), as
  one streamed result and in pages (``--page-size``);
* in place — ``urnld canonicalize --endpoint`` (:func:`urnld.rdf.canonicalize_endpoint`);
* round trip — what users do today: dump the store (Graph Store Protocol GET), run
  ``urnld canonicalize dump.nt -o out.nt``, clear the store and load ``out.nt`` (GSP POST;
  on Virtuoso its bulk loader);
  the store is reloaded with the original data between the two;
* client memory — ``urnld canonicalize --endpoint`` run in a child process on a store of each
  ``--memory`` size; its peak RSS should not grow with the store.

Both rewrites must leave the same number of statements; the script checks it.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

DCT = "http://purl.org/dc/terms/"
LONG = 3600.0  # seconds per request: a loaded machine aggregates millions of statements slowly


def isbn13(rng: random.Random) -> str:
    digits = [9, 7, 8] + [rng.randrange(10) for _ in range(9)]
    check = (10 - sum((3 if i % 2 else 1) * d for i, d in enumerate(digits)) % 10) % 10
    return "".join(map(str, digits)) + str(check)


def spell(isbn: str, rng: random.Random) -> str:
    """A non-canonical spelling of ``urn:isbn:<isbn>``."""
    hyphenated = f"{isbn[:3]}-{isbn[3]}-{isbn[4:8]}-{isbn[8:12]}-{isbn[12]}"
    return rng.choice((f"URN:ISBN:{isbn}", f"urn:ISBN:{hyphenated}", f"Urn:Isbn:{hyphenated}"))


def generate(path: Path, triples: int, seed: int = 17) -> None:
    """``triples`` statements, 10% of them with a non-canonical URN spelling."""
    rng = random.Random(seed)
    with path.open("w", encoding="ascii") as f:
        n = 0
        record = 0
        while n < triples:
            isbn = isbn13(rng)
            other = isbn13(rng)
            record += 1
            rows = [
                ("title", f'"Title {record}"'),
                ("creator", f"<http://example.org/person/{rng.randrange(50_000)}>"),
                ("issued", f'"{1900 + rng.randrange(125)}"'),
                ("language", '"en"'),
                ("references", f"<urn:isbn:{other}>"),
            ]
            for prop, obj in rows:
                if n >= triples:
                    break
                subject = spell(isbn, rng) if rng.random() < 0.1 else f"urn:isbn:{isbn}"
                f.write(f"<{subject}> <{DCT}{prop}> {obj} .\n")
                n += 1


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    query_path, update_path = "/query", "/update"

    def __init__(self, location: Path) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.base = f"http://127.0.0.1:{self.port}"
        exe = Path(sys.executable).parent / "oxigraph"
        self.process = subprocess.Popen(
            [str(exe), "serve", "--location", str(location), "--bind", f"127.0.0.1:{self.port}"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        for _ in range(300):  # bounded wait: 30 s
            try:
                if httpx.get(f"{self.base}/query", params={"query": "ASK {}"}).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        self.stop()
        raise SystemExit("oxigraph did not start")

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=30)

    def load(self, path: Path) -> None:
        with path.open("rb") as f:
            r = httpx.post(f"{self.base}/store?default", content=f,
                           headers={"Content-Type": "application/n-triples"}, timeout=3600)
        r.raise_for_status()

    def clear(self) -> None:
        r = httpx.post(f"{self.base}/update", content=b"DROP ALL",
                       headers={"Content-Type": "application/sparql-update"}, timeout=3600)
        r.raise_for_status()

    def dump(self, path: Path) -> None:
        with path.open("wb") as f, httpx.stream(
            "GET", f"{self.base}/store?default", headers={"Accept": "application/n-triples"},
            timeout=3600,
        ) as r:
            r.raise_for_status()
            for chunk in r.iter_bytes():
                f.write(chunk)

    def count(self) -> int:
        from urnld.endpoint._client import Endpoint

        with Endpoint(f"{self.base}/query", timeout=LONG) as e:
            return e.count("SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }")


class VirtuosoServer:
    """``virtuoso-t +foreground`` with its own ini on free loopback ports; the data in GRAPH."""

    query_path, update_path = "/sparql", "/sparql-auth"
    GRAPH = "http://example.org/bench"

    def __init__(self, location: Path) -> None:
        import shutil

        exe = shutil.which("virtuoso-t")
        if exe is None:
            raise SystemExit("virtuoso-t is not installed (apt-get install virtuoso-opensource)")
        self.isql_exe = shutil.which("isql-vt") or shutil.which("isql") or "isql-vt"
        location.mkdir(parents=True, exist_ok=True)
        self.location, self.loads = location, 0
        self.port = self.sql_port = sql = _free_port()
        while self.port == sql:
            self.port = _free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        ini = location / "virtuoso.ini"
        ini.write_text(
            f"[Database]\nDatabaseFile = {location}/v.db\nErrorLogFile = {location}/v.log\n"
            f"LockFile = {location}/v.lck\nTransactionFile = {location}/v.trx\n"
            f"xa_persistent_file = {location}/v.pxa\nStriping = 0\nTempStorage = TempDatabase\n"
            f"[TempDatabase]\nDatabaseFile = {location}/v-temp.db\n"
            f"TransactionFile = {location}/v-temp.trx\n"
            f"[Parameters]\nServerPort = 127.0.0.1:{sql}\nDisableUnixSocket = 1\n"
            f"DirsAllowed = ., {location}\nNumberOfBuffers = 170000\nMaxDirtyBuffers = 130000\n"
            f"[HTTPServer]\nServerPort = 127.0.0.1:{self.port}\nServerRoot = {location}\n"
            "ServerThreads = 10\n[SPARQL]\nResultSetMaxRows = 100000000\n"
            "MaxQueryExecutionTime = 3600\nMaxQueryCostEstimationTime = 0\n",
            encoding="utf-8")
        self.auth = httpx.DigestAuth("dba", "dba")
        self.process = subprocess.Popen([exe, "+configfile", str(ini), "+foreground"],
                                        cwd=location, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL)
        for _ in range(600):  # bounded wait: 60 s
            try:
                if httpx.get(f"{self.base}/sparql",
                             params={"query": "ASK {}"}).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        self.stop()
        raise SystemExit("virtuoso did not start")

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=60)

    def isql(self, sql: str, timeout: float = LONG) -> str:
        """Run ``sql`` through ``isql-vt`` on the server's SQL port (as its administrator)."""
        r = subprocess.run([self.isql_exe, f"127.0.0.1:{self.sql_port}", "dba", "dba",
                            f"exec={sql}"], capture_output=True, text=True, timeout=timeout,
                           check=False)
        if r.returncode != 0 or "*** Error" in r.stdout + r.stderr:
            raise SystemExit(f"isql {sql!r} failed: {(r.stdout + r.stderr).strip()[-2000:]}")
        return r.stdout

    def load(self, path: Path) -> None:
        """Load ``path`` into GRAPH with Virtuoso's bulk loader, as its administrator would.

        Not the Graph Store Protocol: one POST of the whole file (80 MB at 1M statements, sent
        as bytes because Digest sends the body again after the challenge) sometimes finishes in
        seconds and sometimes never answers, the server idle and its log saying "Locks are held
        for a long time" and "Many lock waits" (7.2.5; seen on a fresh store and on one just
        cleared). POSTs in chunks would each be a logged transaction, and are not what an
        administrator does with a dump: Virtuoso's documented way is the bulk loader.
        ``ld_dir`` registers the files of a directory in ``DirsAllowed`` (the store's own
        directory here), ``rdf_loader_run()`` parses them without the transaction log, and
        ``checkpoint`` makes the result durable (without it a restart would lose the load).
        """
        self.loads += 1
        folder = self.location / f"load{self.loads}"  # a new directory: LOAD_LIST keys by path
        folder.mkdir()
        os.link(path, folder / "data.nt")  # a dump written in place; no copy
        self.isql(f"ld_dir('{folder}', 'data.nt', '{self.GRAPH}'); rdf_loader_run(); "
                  "checkpoint;")
        errors = self.isql("select ll_file, ll_error from DB.DBA.LOAD_LIST "
                           "where ll_error is not null;")
        if "0 Rows" not in errors:
            raise SystemExit(f"bulk load of {path} failed: {errors.strip()[-2000:]}")
        (folder / "data.nt").unlink()

    def clear(self) -> None:
        r = httpx.post(f"{self.base}/sparql-auth", auth=self.auth, timeout=3600,
                       content=f"DROP SILENT GRAPH <{self.GRAPH}>".encode(),
                       headers={"Content-Type": "application/sparql-update"})
        r.raise_for_status()

    def dump(self, path: Path) -> None:
        with path.open("wb") as f, httpx.stream(
            "GET", f"{self.base}/sparql-graph-crud", params={"graph-uri": self.GRAPH},
            headers={"Accept": "text/plain"}, timeout=3600,  # N-Triples
        ) as r:
            r.raise_for_status()
            for chunk in r.iter_bytes():
                f.write(chunk)

    def count(self) -> int:
        from urnld.endpoint._client import Endpoint

        with Endpoint(f"{self.base}/sparql", timeout=LONG) as e:
            return e.count(f"SELECT (COUNT(*) AS ?n) WHERE {{ GRAPH <{self.GRAPH}> {{ ?s ?p ?o }} }}")


def _server_cpu(pid: int | None) -> float:
    """CPU seconds (user + system) the store's server process has used so far."""
    if pid is None:
        return 0.0
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _client_cpu() -> float:
    """CPU seconds of this process and its finished children (the urnld client side)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


# CPU seconds of the last timed() call: (client, server). On a shared machine wall time
# includes waiting for a core; CPU time does not.
LAST_CPU = [0.0, 0.0]
SERVER_PID: list[int | None] = [None]


def timed(fn, *args, **kwargs) -> tuple[float, object]:  # type: ignore[no-untyped-def]
    c0, s0 = _client_cpu(), _server_cpu(SERVER_PID[0])
    start = time.perf_counter()
    out = fn(*args, **kwargs)
    wall = time.perf_counter() - start
    LAST_CPU[:] = [_client_cpu() - c0, _server_cpu(SERVER_PID[0]) - s0]
    return wall, out


def cpu() -> str:
    return f"[cpu client {LAST_CPU[0]:.1f} s, server {LAST_CPU[1]:.1f} s]"


_CHILD = (
    "import resource, sys\n"
    "from urnld.cli import main\n"
    "code = main(sys.argv[1:])\n"
    "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)\n"
    "sys.exit(code)\n"
)


def child_peak_kib(argv: list[str]) -> int:
    r = subprocess.run([sys.executable, "-c", _CHILD, *argv], capture_output=True, text=True,
                       check=False)
    if r.returncode != 0:
        raise SystemExit(f"urnld {' '.join(argv)} failed: {r.stderr.strip()}")
    return int(r.stderr.strip().splitlines()[-1])


class _Skip(Exception):
    """``--triples 0``: only the memory runs."""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--triples", type=int, default=200_000,
                    help="store size of the in place vs round trip comparison (0: skip it)")
    ap.add_argument("--memory", type=int, nargs="*", default=[200_000, 800_000])
    ap.add_argument("--batch", type=int, default=10_000)
    ap.add_argument("--store", choices=("oxigraph", "virtuoso"), default="oxigraph")
    ap.add_argument("--page-size", type=int, default=50_000,
                    help="page size of the paged check (ORDER BY/LIMIT/OFFSET); 0: skip it "
                    "(on Oxigraph every page aggregates the whole store again)")
    ap.add_argument("--max-terms", type=int, default=None,
                    help="Virtuoso: distinct terms per update request at most (the in-place run "
                    "in this process; default: urnld's)")
    ap.add_argument("--no-check", action="store_true",
                    help="skip the check --endpoint timings (only in place vs round trip)")
    args = ap.parse_args()
    sys.stdout.reconfigure(line_buffering=True)  # type: ignore[union-attr]

    from urnld.endpoint._client import Endpoint
    from urnld.endpoint._sparql import _Scope, occurrence_count_query
    from urnld.rdf import canonicalize_endpoint, check_endpoint
    from urnld.stream import canonicalize_file

    make = VirtuosoServer if args.store == "virtuoso" else Server
    if args.max_terms is not None:  # how the request size weighs on Virtuoso's compile time
        import dataclasses

        from urnld.endpoint import _profile

        _profile._PROFILES["virtuoso"] = dataclasses.replace(_profile.VIRTUOSO,
                                                             max_terms=args.max_terms)
    if args.store == "virtuoso":  # updates go to /sparql-auth with Digest, as a user's would
        os.environ.update(URNLD_ENDPOINT_USER="dba", URNLD_ENDPOINT_PASSWORD="dba",
                          URNLD_ENDPOINT_AUTH="digest")
    from urnld.endpoint import profile_for

    scope = _Scope(profile=profile_for(args.store))

    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        data = tmp / "data.nt"
        generate(data, args.triples)
        server = make(tmp / "store")
        SERVER_PID[0] = server.process.pid
        try:
            if not args.triples:
                raise _Skip
            server.load(data)
            query = f"{server.base}{server.query_path}"
            update = f"{server.base}{server.update_path}"
            n = server.count()
            print(f"store: {n:,} statements ({args.triples:,} generated, 10% non-canonical)")

            if not args.no_check:
                with Endpoint(query, timeout=LONG) as e:
                    t_count, occurrences = timed(
                        e.count, occurrence_count_query(scope, literals=False)
                    )
                t_check, report = timed(check_endpoint, query, timeout=LONG)
                print(f"check --endpoint      {t_check:8.2f} s   COUNT(*) same patterns "
                      f"{t_count:6.2f} s ({occurrences:,} URN occurrences)   "
                      f"ratio {t_check / t_count:.2f}x")
            if args.page_size and not args.no_check:
                t_paged, paged = timed(check_endpoint, query, page_size=args.page_size,
                                       timeout=LONG)
                assert paged == report
                print(f"check, paged          {t_paged:8.2f} s   pages of {args.page_size:,} terms "
                      f"(ORDER BY/LIMIT/OFFSET), ratio {t_paged / t_count:.2f}x")

            # Where the in-place time goes: the progress callback comes once after the term
            # list is read (batch 0) and after each update request.
            marks: list[tuple[float, int]] = []
            start = time.perf_counter()

            def progress(p: object) -> None:
                marks.append((time.perf_counter() - start, p.batches_done))  # type: ignore[attr-defined]

            t_in_place, r = timed(canonicalize_endpoint, query, update_url=update,
                                  batch=args.batch, timeout=LONG, progress=progress)
            n_in_place = server.count()
            cpu_in_place = cpu()
            print(f"in place              {t_in_place:8.2f} s   {r.rewritten:,} URN occurrences "
                  f"rewritten, {n_in_place:,} statements after, 0 s offline {cpu_in_place}")
            if marks:
                updates = marks[-1][0] - marks[0][0]
                print(f"  term list read      {marks[0][0]:8.2f} s; {marks[-1][1]} update requests "
                      f"{updates:.2f} s ({updates / max(1, marks[-1][1]):.2f} s each); "
                      f"final count {t_in_place - marks[-1][0]:.2f} s")

            server.clear()
            server.load(data)
            dump, out = tmp / "dump.nt", tmp / "out.nt"
            trip_cpu = [0.0, 0.0]
            steps = []
            for step in (lambda: server.dump(dump), lambda: canonicalize_file(dump, out),
                         server.clear, lambda: server.load(out)):
                steps.append(timed(step)[0])
                trip_cpu = [a + b for a, b in zip(trip_cpu, LAST_CPU, strict=True)]
            t_dump, t_canon, t_clear, t_load = steps
            t_trip = sum(steps)
            LAST_CPU[:] = trip_cpu
            n_trip = server.count()
            print(f"round trip            {t_trip:8.2f} s   (dump {t_dump:.2f} + canonicalize "
                  f"{t_canon:.2f} + clear {t_clear:.2f} + reload {t_load:.2f}), "
                  f"{n_trip:,} statements after, {t_trip:.2f} s offline {cpu()}")
            print(f"in place / round trip {t_in_place / t_trip:8.2f}x")
            if n_trip != n_in_place:
                raise SystemExit(f"MISMATCH: {n_in_place} statements in place, {n_trip} after "
                                 "the round trip")
        except _Skip:
            pass
        finally:
            server.stop()

        peaks = []
        for size in args.memory:
            sized = tmp / f"m{size}.nt"
            generate(sized, size)
            server = make(tmp / f"store{size}")
            SERVER_PID[0] = server.process.pid
            try:
                server.load(sized)
                sized.unlink()
                t_child, kib = timed(child_peak_kib, ["canonicalize", "--endpoint",
                                      f"{server.base}{server.query_path}",
                                      "--update-endpoint", f"{server.base}{server.update_path}",
                                      "--batch", str(args.batch), "--timeout", str(LONG)])
            finally:
                server.stop()
            peaks.append(int(kib))  # type: ignore[call-overload]
            print(f"client peak RSS, canonicalize --endpoint on {size:>9,} statements: "
                  f"{peaks[-1] / 1024:6.1f} MiB   ({t_child:.1f} s) {cpu()}")
        if len(peaks) > 1:
            print(f"client peak RSS, largest / smallest store: {peaks[-1] / peaks[0]:.2f}x")


if __name__ == "__main__":
    main()
