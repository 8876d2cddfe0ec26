"""Benchmark: ``urnld validate`` (the compiled plan) against ``urnld check`` of the same dump.

    python bench/validate.py                                   # 1,000,000 statements, N-Triples
    python bench/validate.py --triples 300000 --syntax turtle --repeat 3
    python bench/validate.py --dump part-00000.nt --store disk   # your own dump; store on disk
    python bench/validate.py --triples 100000 --pyshacl          # also the pyshacl evaluator
    python bench/validate.py --endpoint --no-in-process          # also --endpoint on Oxigraph
    python bench/validate.py --triples 300000 --compare --no-in-process  # same as pyshacl?
    python bench/validate.py --outputs --no-in-process          # also the results written out

The data: one file of ``bench/gen_dump.py`` (written as Turtle by pyoxigraph with
``--syntax turtle``), validated with the default shapes (``urn.ttl`` + ``catalog.ttl``). Whole
commands as a user runs them, A B A B: ``urnld check FILE`` (the baseline: the same data read
and every URN judged) and ``urnld validate FILE -q --store S``; optionally ``urnld validate
--evaluator pyshacl`` (every shape on pyshacl, the way validation ran before the plan). Each
run is a fresh process; its CPU seconds (user + system) and peak memory (``ru_maxrss``) come
from the operating system (``os.wait4``). Prints the median of ``--repeat`` runs of each and
the ratios to ``check``, then the same in one process: ``urnld.shacl.validate`` against
``urnld.stream.check_file``.

``--endpoint`` loads the same data into an ``oxigraph serve`` of its own (the server from the
test extra, on a free loopback port, its database in a temporary directory) and adds ``urnld
validate --endpoint URL -q``: its CPU is the client's plus what the server spent during the
run (read from ``/proc``), its memory the client's; the ratios to the local ``validate`` are
printed too.

``--outputs`` adds ``urnld validate FILE`` writing its results: the tab-separated table (to
``/dev/null``), ``--json``, and ``-q --findings F`` (JSON Lines in a temporary directory).

``--compare`` validates the data with the plan and with ``--evaluator pyshacl`` in this
process and compares the results as sets of (focus node, path, value, source shape, component,
severity), blank nodes as "a blank node" (each engine labels them its own way).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).parent
# As installed: PYTHONDONTWRITEBYTECODE (set in some CI images and shells) would make each run
# compile urnld's sources again, and validate imports more of them than check does.
_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def _data(triples: int, syntax: str, tmp: Path) -> Path:
    subprocess.run([sys.executable, str(HERE / "gen_dump.py"), str(tmp / "dump"), "--triples",
                    str(triples), "--files", "1", "--quads-every", "0", "--gz-every", "0"],
                   check=True, capture_output=True)
    nt = next((tmp / "dump").iterdir())
    if syntax == "nt":
        return nt
    import pyoxigraph as ox

    out = tmp / "dump.ttl"
    ox.serialize(ox.parse(path=str(nt), format=ox.RdfFormat.N_TRIPLES), output=str(out),
                 format=ox.RdfFormat.TURTLE,
                 prefixes={"dct": "http://purl.org/dc/terms/",
                           "bibo": "http://purl.org/ontology/bibo/"})
    return out


SERVER: list[int] = []  # the pid of the Oxigraph server of --endpoint


def _server_cpu() -> float:
    if not SERVER:
        return 0.0
    from endpoint import _server_cpu as server_cpu  # bench/endpoint.py's reading of /proc

    return server_cpu(SERVER[0])


def _run(argv: list[str]) -> tuple[float, float, float, int]:
    """CPU seconds (with the server's, for --endpoint), wall seconds, peak MiB and the exit
    status of one whole command."""
    server = _server_cpu() if "--endpoint" in argv else None
    start = time.perf_counter()
    with open(os.devnull, "wb") as null:
        proc = subprocess.Popen(argv, stdout=null, stderr=subprocess.PIPE, env=_ENV)
        assert proc.stderr is not None
        err = proc.stderr.read()
        _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        raise SystemExit(f"{' '.join(argv)} exited {code}: {err.decode(errors='replace')}")
    spent = usage.ru_utime + usage.ru_stime
    if server is not None:
        spent += _server_cpu() - server
    return spent, wall, usage.ru_maxrss / 1024, code


def _commands(data: Path, store: str, pyshacl: bool, endpoint: str | None,
              outputs: Path | None = None) -> dict[str, list[str]]:
    urnld = str(Path(sys.executable).with_name("urnld"))
    commands = {
        "check": [urnld, "check", str(data)],
        "validate": [urnld, "validate", str(data), "-q", "--store", store],
    }
    if outputs is not None:
        commands["validate (table)"] = [urnld, "validate", str(data), "--store", store]
        commands["validate --json"] = [urnld, "validate", str(data), "--json", "--store", store]
        commands["validate --findings F"] = [urnld, "validate", str(data), "-q", "--store",
                                             store, "--findings", str(outputs / "f.jsonl")]
    if endpoint:
        commands["validate --endpoint (client+server)"] = [
            urnld, "validate", "--endpoint", endpoint, "-q", "--timeout", "3600"]
    if pyshacl:
        commands["validate --evaluator pyshacl"] = [urnld, "validate", str(data), "-q",
                                                    "--evaluator", "pyshacl"]
    return commands


def whole_commands(data: Path, store: str, repeat: int, pyshacl: bool,
                   endpoint: str | None = None, outputs: Path | None = None) -> None:
    commands = _commands(data, store, pyshacl, endpoint, outputs)
    # urnld's bytecode written once, before anything is timed, by a run on one statement
    with tempfile.TemporaryDirectory() as warm:
        tiny = Path(warm) / "warm-up.nt"
        tiny.write_text('<urn:x-warm:a> <http://purl.org/dc/terms/identifier> "urn:isbn:1" .\n')
        for argv in (commands["check"][:2], commands["validate"][:2]):
            subprocess.run([*argv, str(tiny)], env=_ENV, check=False,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    runs: dict[str, list[tuple[float, float, float, int]]] = {k: [] for k in commands}
    for _ in range(repeat):
        for name, argv in commands.items():  # A B A B: a drift of the machine hits both
            runs[name].append(_run(argv))
    base_cpu = statistics.median(r[0] for r in runs["check"])
    base_rss = statistics.median(r[2] for r in runs["check"])
    print(f"whole commands on {data.name} ({data.stat().st_size / 2**20:.1f} MiB), median of "
          f"{repeat}:")
    print(f"  {'command':34} {'CPU s':>8} {'wall s':>8} {'peak MiB':>9} {'CPU ×':>7} "
          f"{'memory ×':>9}")
    for name, rs in runs.items():
        cpu = statistics.median(r[0] for r in rs)
        wall = statistics.median(r[1] for r in rs)
        rss = statistics.median(r[2] for r in rs)
        print(f"  {name:34} {cpu:8.2f} {wall:8.2f} {rss:9.0f} {cpu / base_cpu:7.2f} "
              f"{rss / base_rss:9.2f}")
    if endpoint:
        local = runs["validate"]
        remote = runs["validate --endpoint (client+server)"]
        ratio = [statistics.median(r[i] for r in remote) / statistics.median(r[i] for r in local)
                 for i in range(3)]
        print(f"  --endpoint / local validate: CPU {ratio[0]:.2f}×, wall {ratio[1]:.2f}×, "
              f"client memory {ratio[2]:.2f}×")


def in_process(data: Path, store: str, repeat: int) -> None:
    from urnld.report import CheckReport
    from urnld.shacl import validate
    from urnld.stream import check_file

    def check() -> None:
        check_file(str(data), report=CheckReport(), jobs=1)  # one process: its CPU is ours

    def plan() -> None:
        validate(str(data), store=store)

    times: dict[str, list[float]] = {"check_file": [], "validate": []}
    for _ in range(repeat):
        for name, fn in (("check_file", check), ("validate", plan)):
            start = time.process_time()
            fn()
            times[name].append(time.process_time() - start)
    base = statistics.median(times["check_file"])
    print(f"in one process (CPU of this process), median of {repeat}:")
    for name, ts in times.items():
        t = statistics.median(ts)
        print(f"  {name:34} {t:8.2f} s   {t / base:5.2f}×")


def compare(data: Path) -> None:
    from rdflib import BNode

    from urnld.shacl import Report, validate

    def keys(report: Report) -> set[tuple[object, ...]]:
        def term(t: object) -> object:
            return "_:" if isinstance(t, BNode) else t

        return {(term(r.focus_node), r.path_text, term(r.value), r.shape_text, r.component,
                 r.severity) for r in report.results}

    start = time.process_time()
    plan = validate(str(data))
    middle = time.process_time()
    reference = validate(str(data), evaluator="pyshacl")
    end = time.process_time()
    a, b = keys(plan), keys(reference)
    print(f"plan: {len(plan.results)} results ({middle - start:.1f} s CPU); pyshacl: "
          f"{len(reference.results)} results ({end - middle:.1f} s CPU); identical sets: "
          f"{'yes' if a == b else 'NO'} (only plan {len(a - b)}, only pyshacl {len(b - a)}); "
          f"conforms equal: {plan.conforms == reference.conforms}")


def _load_turtle(server: object, data: Path) -> None:
    import httpx

    with data.open("rb") as f:
        r = httpx.post(f"{server.base}/store?default", content=f,  # type: ignore[attr-defined]
                       headers={"Content-Type": "text/turtle"}, timeout=3600)
    r.raise_for_status()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--triples", type=int, default=1_000_000)
    parser.add_argument("--syntax", choices=("nt", "turtle"), default="nt")
    parser.add_argument("--dump", type=Path, help="a dump of your own instead")
    parser.add_argument("--store", default="auto", help="auto, memory, disk or a directory")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--pyshacl", action="store_true",
                        help="also time --evaluator pyshacl (slow: 50x check at 1M)")
    parser.add_argument("--no-in-process", action="store_true")
    parser.add_argument("--compare", action="store_true",
                        help="compare the plan's results with pyshacl's (slow: pyshacl)")
    parser.add_argument("--endpoint", action="store_true",
                        help="also validate --endpoint against an Oxigraph server of the data")
    parser.add_argument("--outputs", action="store_true",
                        help="also validate writing every result: table, --json, --findings")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        data = args.dump or _data(args.triples, args.syntax, Path(tmp))
        server = None
        if args.endpoint:
            sys.path.insert(0, str(HERE))
            from endpoint import Server

            server = Server(Path(tmp) / "oxigraph")
            SERVER.append(server.process.pid)
            start = time.perf_counter()
            server.load(data) if data.suffix == ".nt" else _load_turtle(server, data)
            print(f"loaded {data.name} into Oxigraph in {time.perf_counter() - start:.1f} s")
        try:
            if args.compare:
                compare(data)
            whole_commands(data, args.store, args.repeat, args.pyshacl,
                           f"{server.base}/query" if server else None,
                           Path(tmp) if args.outputs else None)
        finally:
            if server is not None:
                server.stop()
        if not args.no_in_process:
            in_process(data, args.store, args.repeat)


if __name__ == "__main__":
    main()
