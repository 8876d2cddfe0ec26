"""Benchmark: ``urnld validate`` on a Turtle catalog dump, and the share of it that is the parser.

    python bench/validate_reader.py                      # 300,000 statements
    python bench/validate_reader.py --triples 30000 --repeat 1

The data: ``bench/gen_dump.py`` (one N-Triples file, no N-Quads), written as Turtle by
pyoxigraph with the dump's prefixes. Each run is a fresh process that runs the whole command
``urnld validate FILE`` (default shapes, report to /dev/null) and reports its wall time, its
peak memory (``ru_maxrss``) and the time spent in the reader. Two ways, alternating:

* **reader**: urnld's reader as shipped (pyoxigraph parses, rdflib terms built as written);
* **baseline**: the same command with the reader's Turtle parser swapped for rdflib's
  ``Graph.parse``, which is what the reader used before (it normalizes typed literals, so the
  graph can hold fewer statements).

Best of ``--repeat`` for each; prints both and the ratios.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

_CHILD = r"""
import json, resource, sys, time
mode, path = sys.argv[1], sys.argv[2]
from urnld.read import _reader
spent = [0.0]
real_parse = _reader._parse
if mode == "baseline":
    from rdflib import Graph
    def parse(graph, raw, fmt, **kw):
        Graph.parse(graph, data=raw, format=fmt, publicID=kw["base"])
else:
    parse = real_parse
def timed(*args, **kw):
    t = time.perf_counter()
    try:
        return parse(*args, **kw)
    finally:
        spent[0] += time.perf_counter() - t
_reader._parse = timed
from urnld.cli import main
start = time.perf_counter()
code = main(["validate", path, "-o", "/dev/null"])
total = time.perf_counter() - start
print(json.dumps({"code": code, "total": total, "parse": spent[0],
                  "rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def _data(triples: int, tmp: Path) -> Path:
    import pyoxigraph as ox

    here = Path(__file__).parent
    subprocess.run([sys.executable, str(here / "gen_dump.py"), str(tmp / "dump"), "--triples",
                    str(triples), "--files", "1", "--quads-every", "0"], check=True,
                   capture_output=True)
    (nt,) = sorted((tmp / "dump").glob("*.nt"))
    out = tmp / "catalog.ttl"
    prefixes = {"dct": "http://purl.org/dc/terms/", "foaf": "http://xmlns.com/foaf/0.1/",
                "bibo": "http://purl.org/ontology/bibo/",
                "xsd": "http://www.w3.org/2001/XMLSchema#"}
    with out.open("wb") as f:
        ox.serialize(ox.parse(path=nt, format=ox.RdfFormat.N_TRIPLES), f, ox.RdfFormat.TURTLE,
                     prefixes=prefixes)
    return out


def _run(mode: str, path: Path) -> dict[str, float]:
    done = subprocess.run([sys.executable, "-c", _CHILD, mode, str(path)], check=True,
                          capture_output=True, text=True)
    return json.loads(done.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--triples", type=int, default=300_000)
    ap.add_argument("--repeat", type=int, default=2)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        path = _data(args.triples, Path(d))
        print(f"{path.stat().st_size / 1e6:.1f} MB of Turtle, {args.triples:,} statements")
        best: dict[str, dict[str, float]] = {}
        for _ in range(args.repeat):
            for mode in ("baseline", "reader"):
                r = _run(mode, path)
                print(f"  {mode:8} total {r['total']:7.2f} s  parse {r['parse']:6.2f} s  "
                      f"peak {r['rss']:6.0f} MiB  exit {r['code']}")
                if mode not in best or r["total"] < best[mode]["total"]:
                    best[mode] = r
    b, n = best["baseline"], best["reader"]
    print(f"baseline: {b['total']:.2f} s, {b['rss']:.0f} MiB, parser {b['parse']:.2f} s "
          f"({b['parse'] / b['total']:.0%})")
    print(f"reader:   {n['total']:.2f} s, {n['rss']:.0f} MiB, parser {n['parse']:.2f} s "
          f"({n['parse'] / n['total']:.0%})")
    print(f"reader/baseline: time {n['total'] / b['total']:.2f}x, peak memory "
          f"{n['rss'] / b['rss']:.2f}x, parser {n['parse'] / b['parse']:.2f}x")


if __name__ == "__main__":
    main()
