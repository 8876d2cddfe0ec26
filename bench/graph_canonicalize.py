"""Benchmark: in-memory ``urnld.rdf.canonicalize(graph)`` vs copying the graph.

    python bench/graph_canonicalize.py                 # 100k triples
    python bench/graph_canonicalize.py --triples 500000 --repeat 3

Baseline: copying the rdflib graph into a new Memory-store graph through ``addN`` (what
``Graph() += graph`` does) — the unavoidable part of building a new graph. ``canonicalize``
does the same plus one cached canonicalization per distinct term and the report. Target: <= 1.5x.
Times are the best of ``--repeat`` interleaved runs (a full garbage collection before each),
wall and CPU (CPU is steadier on a shared machine). The graph is the catalog-like dump of ``bench/canonicalize.py``.
"""

from __future__ import annotations

import argparse
import gc
import sys
import tempfile
import time
from pathlib import Path

from rdflib import Graph

sys.path.insert(0, str(Path(__file__).resolve().parent))
from canonicalize import generate  # the sibling bench script

from urnld.rdf import canonicalize


def copy_graph(g: Graph) -> Graph:
    out = Graph()
    out.addN((s, p, o, out) for s, p, o in g)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--triples", type=int, default=100_000)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "dump.nt"
        generate(src, args.triples)
        g = Graph().parse(src, format="nt")
    print(f"graph: {len(g):,} triples")

    best = {"copy": (float("inf"),) * 2, "canonicalize": (float("inf"),) * 2}
    jobs = {"copy": lambda: copy_graph(g), "canonicalize": lambda: canonicalize(g)}
    for _ in range(args.repeat):
        for name, fn in jobs.items():
            # The previous run's output graph is freed here, not inside the next timing.
            gc.collect()
            w, c = time.perf_counter(), time.process_time()
            fn()
            w, c = time.perf_counter() - w, time.process_time() - c
            best[name] = (min(best[name][0], w), min(best[name][1], c))
    (wc, cc), (wk, ck) = best["copy"], best["canonicalize"]
    print(f"copy (addN into a new graph): {wc:7.3f} s wall, {cc:7.3f} s CPU")
    print(f"urnld canonicalize:           {wk:7.3f} s wall, {ck:7.3f} s CPU")
    print(f"  ratio canonicalize / copy: {wk / wc:.2f} wall, {ck / cc:.2f} CPU  (target <= 1.5)")
    r = canonicalize(g).report
    print(f"  ({r.rewritten:,} URN occurrences rewritten, {r.duplicates_merged:,} duplicates "
          "merged)")


if __name__ == "__main__":
    main()
