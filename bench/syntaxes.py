"""Benchmark: streaming ``canonicalize`` and ``check`` of Turtle, TriG, N-Triples, N-Quads,
RDF/XML and JSON-LD, against pyoxigraph's own parse + serialize of the same file in the same
syntax.

    python bench/syntaxes.py                          # 300k statements, best of 3
    python bench/syntaxes.py --syntaxes turtle,trig,nt,nquads --statements 1000000
    python bench/syntaxes.py --statements 1000000 --syntaxes turtle --memory

Two dumps, converted by pyoxigraph from N-Triples to each syntax (with the usual prefixes): the
catalog dump of bench/gen_dump.py (URN spelling variants among literals, blank nodes, language
tags) and the URN-dense dump of bench/gen_dense.py (one or two URN IRIs per statement); as
N-Quads and TriG, every third statement is in a named graph.

For each dump and syntax, whole commands as a user runs them (new processes), runs interleaved
(best of ``--repeat``), CPU (all processes) and wall time, ratios to the baseline of the same
run, ``python -c "…pyoxigraph.serialize(pyoxigraph.parse(path=IN), OUT)…"``:

* ``urnld canonicalize IN -o OUT`` (same syntax out) and ``urnld check IN``, default settings,
  on the path this build takes (libserd for Turtle, TriG and, into other syntaxes, N-Triples
  and N-Quads, where urnld was built with it);
* the same with ``URNLD_SERD=0`` (the pyoxigraph path, what a build without libserd runs;
  N-Triples and N-Quads in the same syntax take the line pass on both);
* ``serdi -i SYNTAX -o SYNTAX IN`` (libserd's own command, no URN work), for scale, where
  installed.

``--in-process`` adds the library calls in this process: ``canonicalize_file`` at default
settings and with one process (``jobs=1``), and ``check_file``.

``--memory`` also measures the peak memory (RSS) of ``urnld canonicalize`` on the URN-dense
Turtle file at the given size and at four times that size: flat means bounded.

``--stages`` times the parts of the pyoxigraph path one by one in this process (CPU seconds, as
ratios to the baseline): A, pyoxigraph's read of the syntax written as N-Quads; B, the N-Quads
pass (canonicalize, and check); C, pyoxigraph's read of the N-Quads written in the syntax; and,
for comparison, the design without N-Quads between the stages: one parse, the term rule on
pyoxigraph's terms (a cache from term to rewritten term, a new quad only where a term changed,
no report), one serialize.
"""

from __future__ import annotations

import argparse
import io
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import pyoxigraph as ox
from gen_dense import generate as generate_dense
from gen_dump import generate as generate_dump

from urnld.stream import canonicalize_file, check_file, readers

ROOT = Path(__file__).resolve().parent.parent
FORMATS = {"turtle": ("TURTLE", "ttl"), "trig": ("TRIG", "trig"), "n3": ("N3", "n3"),
           "xml": ("RDF_XML", "rdf"), "json-ld": ("JSON_LD", "jsonld"),
           "nt": ("N_TRIPLES", "nt"), "nquads": ("N_QUADS", "nq")}
# serdi's names of the syntaxes it reads and writes
SERDI = {"turtle": "turtle", "trig": "trig", "nt": "ntriples", "nquads": "nquads"}
PREFIXES = {
    "rdf": "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
    "xsd": "http://www.w3.org/2001/XMLSchema#",
    "dct": "http://purl.org/dc/terms/",
    "foaf": "http://xmlns.com/foaf/0.1/",
    "bibo": "http://purl.org/ontology/bibo/",
    "schema": "http://schema.org/",
    "owl": "http://www.w3.org/2002/07/owl#",
}
# As installed: pip writes every module's bytecode, so a user's command never compiles source;
# PYTHONDONTWRITEBYTECODE (set in some CI images and shells) would make each command compile
# urnld's modules again (0.15 s a run here) and measure the compiler (see bench/startup.py).
ENV = {**{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"},
       "PYTHONPATH": str(ROOT / "src")}


def _compile_bytecode() -> None:
    """Write the bytecode of urnld's modules, as ``pip install`` does."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "src" / "urnld")],
                   check=True, env=ENV, stdout=subprocess.DEVNULL)


def _fmt(syntax: str) -> ox.RdfFormat:
    return getattr(ox.RdfFormat, FORMATS[syntax][0])  # type: ignore[no-any-return]


def dumps(workdir: Path, statements: int) -> dict[str, Path]:
    """The two N-Triples dumps (made once per size)."""
    catalog_dir = workdir / f"catalog-{statements}"
    if not catalog_dir.exists():
        generate_dump(str(catalog_dir), triples=statements, files=1, seed=0, quads_every=0,
                      gz_every=0)
    dense = workdir / f"dense-{statements}.nt"
    if not dense.exists():
        generate_dense(dense, statements)
    return {"catalog": next(catalog_dir.glob("*.nt")), "dense": dense}


def convert(nt: Path, syntax: str) -> Path:
    if syntax == "nt":
        return nt
    out = nt.with_suffix("." + FORMATS[syntax][1])
    if not out.exists():
        quads = ox.parse(path=str(nt), format=ox.RdfFormat.N_TRIPLES)
        if syntax in ("nquads", "trig"):
            quads = (ox.Quad(q.subject, q.predicate, q.object,
                             ox.NamedNode(f"urn:example:graph:{i % 7}") if i % 3 == 0
                             else ox.DefaultGraph()) for i, q in enumerate(quads))
        ox.serialize(quads, str(out), _fmt(syntax),
                     prefixes=None if syntax == "nquads" else PREFIXES)
    return out


def _cpu() -> float:
    """CPU seconds of this process and of its children waited for (commands, workers)."""
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + kids.ru_utime + kids.ru_stime


def best(jobs: dict[str, Callable[[], object]], repeat: int) -> dict[str, tuple[float, float]]:
    """Best (wall, CPU) seconds of each job, runs interleaved so load changes hit all alike.

    On a shared machine the wall time of the processes that run side by side depends on the
    other load; the CPU time (all processes) is the work done."""
    result = {name: (float("inf"), float("inf")) for name in jobs}
    for _ in range(repeat):
        for name, fn in jobs.items():
            t, c = time.perf_counter(), _cpu()
            fn()
            t, c = time.perf_counter() - t, _cpu() - c
            result[name] = (min(result[name][0], t), min(result[name][1], c))
    return result


def _command(argv: Sequence[str], env: dict[str, str] | None = None,
             out: Path | None = None) -> Callable[[], None]:
    def run() -> None:
        if out is None:
            code = subprocess.run(argv, check=False, env=env or ENV,
                                  stdout=subprocess.DEVNULL).returncode
        else:
            with open(out, "wb") as f:
                code = subprocess.run(argv, check=False, env=env or ENV, stdout=f).returncode
        if code not in (0, 1):  # check: 1 means invalid URNs were found, as in these dumps
            raise SystemExit(f"{' '.join(argv)}: exit status {code}")

    return run


def measure(src: Path, syntax: str, repeat: int, tmp: Path,
            in_process: bool) -> dict[str, tuple[float, float]]:
    ext = FORMATS[syntax][1]
    out = tmp / f"out.{ext}"
    fmt_name = FORMATS[syntax][0]
    py = sys.executable
    baseline = (
        "import pyoxigraph as ox, sys; f = ox.RdfFormat." + fmt_name
        + "; ox.serialize(ox.parse(path=sys.argv[1], format=f), sys.argv[2], f)"
    )
    oxigraph_env = {**ENV, "URNLD_SERD": "0"}

    def in_process_baseline() -> None:
        ox.serialize(ox.parse(path=str(src), format=_fmt(syntax)), str(out), _fmt(syntax))

    canon = [py, "-m", "urnld", "canonicalize", str(src), "-o", str(out), "-q"]
    check = [py, "-m", "urnld", "check", str(src), "-q"]
    jobs: dict[str, Callable[[], object]] = {
        "cmd baseline": _command([py, "-c", baseline, str(src), str(out)]),
        "cmd canonicalize": _command(canon),
        "cmd check": _command(check),
        "cmd canonicalize oxigraph": _command(canon, oxigraph_env),
        "cmd check oxigraph": _command(check, oxigraph_env),
    }
    if shutil.which("serdi") and syntax in SERDI:
        jobs["serdi"] = _command(["serdi", "-i", SERDI[syntax], "-o", SERDI[syntax], str(src)],
                                 out=out)
    if in_process:
        jobs |= {
            "baseline": in_process_baseline,
            "canonicalize": lambda: canonicalize_file(src, out, input_format=syntax,
                                                      output_format=syntax),
            "canonicalize -j1": lambda: canonicalize_file(src, out, input_format=syntax,
                                                          output_format=syntax, jobs=1),
            "check": lambda: check_file(src, input_format=syntax),
            "check -j1": lambda: check_file(src, input_format=syntax, jobs=1),
        }
    return best(jobs, repeat)


# Runs a command and prints the peak memory of it and its children (KiB on Linux). A small
# process starts it: a child forked from this one would count this process's pages in its own
# peak until it execs.
_MEASURE = (
    "import resource, subprocess, sys; subprocess.run(sys.argv[1:], check=True); "
    "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
)


def peak_rss_mib(src: Path, tmp: Path) -> float:
    """Peak memory of ``urnld canonicalize SRC`` (the largest of its processes)."""
    done = subprocess.run(
        [sys.executable, "-c", _MEASURE, sys.executable, "-m", "urnld", "canonicalize",
         str(src), "-o", str(tmp / ("rss" + src.suffix)), "-q"],
        env=ENV, check=True, capture_output=True,
    )
    return int(done.stdout) / 1024


def stages(src: Path, syntax: str, repeat: int, tmp: Path) -> dict[str, tuple[float, float]]:
    """(wall, CPU) of each stage of the streaming path, and of the direct design, in this
    process (see the module docs)."""
    from urnld._kernel import TermCache
    from urnld.report import CanonicalizeReport, CheckReport
    from urnld.stream._passes import CanonPass, CheckPass
    from urnld.stream._stage_a import BATCH_STATEMENTS

    fmt, nquads, out = _fmt(syntax), ox.RdfFormat.N_QUADS, str(tmp / "stage.out")
    buf = io.BytesIO()
    ox.serialize(ox.parse(path=str(src), format=fmt), buf, nquads)
    lines = buf.getvalue().splitlines(keepends=True)
    chunks = [b"".join(lines[i:i + BATCH_STATEMENTS])
              for i in range(0, len(lines), BATCH_STATEMENTS)]
    rewritten = b"".join(CanonPass(CanonicalizeReport()).run(chunks, "x", 1, "raise"))

    def stage_a() -> None:
        ox.serialize(ox.parse(path=str(src), format=fmt), io.BytesIO(), nquads)

    def stage_b_check() -> None:
        for _ in CheckPass(CheckReport()).run(chunks, "x", 1, "raise"):
            pass

    def direct() -> None:
        terms = TermCache()
        cache: dict[object, object] = {}

        def term(t: object) -> object:
            hit = cache.get(t)
            if hit is None:
                hit = t
                if type(t) is ox.NamedNode and t.value[:4].lower() == "urn:":
                    new = terms.get(t.value).output
                    hit = ox.NamedNode(new) if new != t.value else t
                cache[t] = hit
            return hit

        def quads() -> object:
            for q in ox.parse(path=str(src), format=fmt):
                s, p, o, g = q.subject, q.predicate, q.object, q.graph_name
                s2, p2, o2 = term(s), term(p), term(o)
                g2 = g if type(g) is ox.DefaultGraph else term(g)
                if s2 is s and p2 is p and o2 is o and g2 is g:
                    yield q
                elif g2 is g and type(g) is ox.DefaultGraph:
                    yield ox.Quad(s2, p2, o2)  # type: ignore[arg-type]
                else:
                    yield ox.Quad(s2, p2, o2, g2)  # type: ignore[arg-type]

        ox.serialize(quads(), out, fmt)  # type: ignore[arg-type]

    return best({
        "baseline": lambda: ox.serialize(ox.parse(path=str(src), format=fmt), out, fmt),
        "parse only": lambda: sum(1 for _ in ox.parse(path=str(src), format=fmt)),
        "A": stage_a,
        "B canonicalize": lambda: b"".join(CanonPass(CanonicalizeReport()).run(
            chunks, "x", 1, "raise")),
        "B check": stage_b_check,
        "C": lambda: ox.serialize(ox.parse(rewritten, nquads, lenient=True), out, fmt),
        "direct, no report": direct,
    }, repeat)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--statements", type=int, default=300_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--syntaxes", default="turtle,trig,nt,nquads,xml,json-ld",
                        help="comma-separated: turtle, trig, nt, nquads, n3, xml, json-ld")
    parser.add_argument("--in-process", action="store_true",
                        help="also the library calls in this process")
    parser.add_argument("--dumps", default="catalog,dense")
    parser.add_argument("--workdir", type=Path, default=Path(tempfile.gettempdir()) / "urnld-bench")
    parser.add_argument("--memory", action="store_true",
                        help="peak memory at --statements and at four times as many")
    parser.add_argument("--stages", action="store_true",
                        help="only the stages, one by one in this process (CPU)")
    args = parser.parse_args()
    args.workdir.mkdir(parents=True, exist_ok=True)
    _compile_bytecode()
    syntaxes = args.syntaxes.split(",")
    nts = dumps(args.workdir, args.statements)
    if args.stages:
        print_stages(args, nts, syntaxes)
        return
    print(f"{args.statements:,} statements per dump, best of {args.repeat}; ratios to "
          "pyoxigraph parse + serialize of the same file in the same syntax, same run "
          f"(readers: {readers()['turtle']} for Turtle)")
    header = (f"{'dump':8} {'syntax':8} {'MB':>5} {'':4} | {'base':>6} | {'canon':>6} "
              f"{'check':>6} {'ch/ca':>6} | {'ox can':>6} {'ox chk':>6} | {'serdi':>6}"
              + (f" | {'in base':>7} {'canon':>6} {'-j1':>6} {'check':>6} {'-j1':>6}"
                 if args.in_process else ""))
    print(header)
    print("-" * len(header))
    with tempfile.TemporaryDirectory(dir=args.workdir) as tmp_name:
        tmp = Path(tmp_name)
        for dump in args.dumps.split(","):
            for syntax in syntaxes:
                src = convert(nts[dump], syntax)
                both = measure(src, syntax, args.repeat, tmp, args.in_process)
                for i, kind in enumerate(("wall", "cpu")):
                    t = {name: v[i] for name, v in both.items()}
                    cb = t["cmd baseline"]
                    size = f"{src.stat().st_size / 1e6:5.1f}" if i == 0 else ""
                    serdi = f"{t['serdi'] / cb:5.2f}x" if "serdi" in t else f"{'-':>6}"
                    line = (
                        f"{dump:8} {syntax:8} {size:>5} {kind:4} | {cb:5.2f}s | "
                        f"{t['cmd canonicalize'] / cb:5.2f}x {t['cmd check'] / cb:5.2f}x "
                        f"{t['cmd check'] / t['cmd canonicalize']:5.2f}x | "
                        f"{t['cmd canonicalize oxigraph'] / cb:5.2f}x "
                        f"{t['cmd check oxigraph'] / cb:5.2f}x | {serdi}"
                    )
                    if args.in_process:
                        b = t["baseline"]
                        line += (f" | {b:6.2f}s {t['canonicalize'] / b:5.2f}x "
                                 f"{t['canonicalize -j1'] / b:5.2f}x "
                                 f"{t['check'] / b:5.2f}x {t['check -j1'] / b:5.2f}x")
                    print(line, flush=True)
        if args.memory:
            small = convert(nts["dense"], "turtle")
            big = convert(dumps(args.workdir, 4 * args.statements)["dense"], "turtle")
            a, z = peak_rss_mib(small, tmp), peak_rss_mib(big, tmp)
            print(f"peak memory, urnld canonicalize dense .ttl: {args.statements:,} statements "
                  f"{a:.0f} MiB, {4 * args.statements:,} statements {z:.0f} MiB")


def print_stages(args: argparse.Namespace, nts: dict[str, Path], syntaxes: list[str]) -> None:
    names = ("parse only", "A", "B canonicalize", "B check", "C", "direct, no report")
    print(f"{args.statements:,} statements per dump, best of {args.repeat}; CPU seconds as "
          "ratios to pyoxigraph parse + serialize of the same file, same run")
    header = f"{'dump':8} {'syntax':8} {'base':>6} | " + " | ".join(names)
    print(header)
    print("-" * len(header))
    with tempfile.TemporaryDirectory(dir=args.workdir) as tmp_name:
        for dump in args.dumps.split(","):
            for syntax in syntaxes:
                src = convert(nts[dump], syntax)
                t = {name: v[1] for name, v in stages(src, syntax, args.repeat,
                                                      Path(tmp_name)).items()}
                b = t["baseline"]
                print(f"{dump:8} {syntax:8} {b:5.2f}s | "
                      + " | ".join(f"{t[n] / b:{len(n) - 1}.2f}x" for n in names), flush=True)


if __name__ == "__main__":
    main()
