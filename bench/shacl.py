"""Benchmark: urnsh:namespaceValid (urnld.shacl.validate) vs a hand-written sh:pattern shape.

Issue 6: validating 100,000 URN literals with ``urnsh:namespaceValid`` must cost at most 3x
validating them with a hand-written ``sh:pattern`` shape in pyshacl, measured in one run.

    python bench/shacl.py                 # 20,000 records x 5 = 100,000 literals
    python bench/shacl.py --records 2000  # quick
    python bench/shacl.py --sparql 200    # also time the plain SPARQL path
    python bench/shacl.py --progress      # also the cost of validate(progress=...)

Both runs see the same data graph object: pyshacl finds the focus and value nodes the same way,
and the difference is the constraint evaluation. The pattern is urnld's RFC 8141 sh:pattern
(urnld.shacl.URN_PATTERN), the best hand-written pattern there is. About 2% of the identifiers
have a wrong check digit (namespaceValid reports them) and 2% a syntax error (the pattern reports
them, and namespaceValid too: a component reports a value that is not a URN), so the urnld run
builds about twice as many results. The machine is shared: each side runs ``--repeat`` times,
alternating, after a garbage collection, and the best time counts; wall and CPU time are shown.
"""

from __future__ import annotations

import argparse
import gc
import random
import time

import pyshacl
from rdflib import Graph, Literal, Namespace, URIRef
from rdflib.namespace import RDF, SH

from urnld.shacl import URN_PATTERN, validate

EX = Namespace("http://example.org/")

PATTERN_SHAPES = f"""
@prefix sh: <http://www.w3.org/ns/shacl#> .
@prefix ex: <http://example.org/> .
ex:RecordShape a sh:NodeShape ; sh:targetClass ex:Record ;
    sh:property [ sh:path ex:id ; sh:pattern "{URN_PATTERN.replace(chr(92), chr(92) * 2)}" ] .
"""

ALL_SHAPES = """
@prefix sh: <http://www.w3.org/ns/shacl#> .
@prefix ex: <http://example.org/> .
@prefix urnsh: <https://w3id.org/urnld/shacl#> .
ex:RecordShape a sh:NodeShape ; sh:targetClass ex:Record ;
    sh:property [ sh:path ex:id ; urnsh:nid "isbn" ; urnsh:registered true ;
                  urnsh:namespaceValid true ; urnsh:canonical true ; urnsh:noComponents true ;
                  urnsh:uniqueByEquivalence true ] .
"""

URNSH_SHAPES = """
@prefix sh: <http://www.w3.org/ns/shacl#> .
@prefix ex: <http://example.org/> .
@prefix urnsh: <https://w3id.org/urnld/shacl#> .
ex:RecordShape a sh:NodeShape ; sh:targetClass ex:Record ;
    sh:property [ sh:path ex:id ; urnsh:namespaceValid true ] .
"""


def isbn13(rng: random.Random, valid: bool) -> str:
    digits = [9, 7, 8] + [rng.randrange(10) for _ in range(9)]
    check = (10 - sum(d * (1 if i % 2 == 0 else 3) for i, d in enumerate(digits)) % 10) % 10
    if not valid:
        check = (check + 1) % 10
    return "".join(map(str, digits)) + str(check)


def make_data(records: int, per_record: int, seed: int = 6) -> Graph:
    rng = random.Random(seed)
    g = Graph()
    for i in range(records):
        s = URIRef(f"http://example.org/r{i}")
        g.add((s, RDF.type, EX.Record))
        for _ in range(per_record):
            roll = rng.random()
            isbn = isbn13(rng, valid=roll >= 0.02)
            if roll > 0.98:
                isbn = isbn[:6] + " " + isbn[6:]  # not a URN: the pattern's finding
            spelling = rng.choice(["urn:isbn:{}", "URN:ISBN:{}", "urn:ISBN:{}"])
            g.add((s, EX.id, Literal(spelling.format(isbn))))
    return g


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--records", type=int, default=20_000)
    ap.add_argument("--per-record", type=int, default=5)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--all", action="store_true",
                    help="also time all six urnsh: components on one property shape")
    ap.add_argument("--sparql", type=int, default=0, metavar="N",
                    help="also time the plain SPARQL path on the first N records")
    ap.add_argument("--progress", action="store_true",
                    help="also time urnsh:namespaceValid with a progress callback (CPU time)")
    args = ap.parse_args()
    data = make_data(args.records, args.per_record)
    n_values = args.records * args.per_record
    pattern_shapes = Graph().parse(data=PATTERN_SHAPES, format="turtle")
    urnsh_shapes = Graph().parse(data=URNSH_SHAPES, format="turtle")
    validate(make_data(10, 2), urnsh_shapes, evaluator="pyshacl")  # warm imports, shapes parsing caches

    pattern_times: list[float] = []
    urnsh_times: list[float] = []
    pattern_cpu: list[float] = []
    urnsh_cpu: list[float] = []
    for _ in range(args.repeat):
        gc.collect()  # each run starts without the previous run's garbage
        t0, c0 = time.perf_counter(), time.process_time()
        _, pattern_graph, _ = pyshacl.validate(data, shacl_graph=pattern_shapes)
        pattern_times.append(time.perf_counter() - t0)
        pattern_cpu.append(time.process_time() - c0)
        gc.collect()
        t0, c0 = time.perf_counter(), time.process_time()
        report = validate(data, urnsh_shapes, evaluator="pyshacl")
        urnsh_times.append(time.perf_counter() - t0)
        urnsh_cpu.append(time.process_time() - c0)
    n_pattern = len(set(pattern_graph.objects(None, SH.result)))
    t_pattern, t_urnsh = min(pattern_times), min(urnsh_times)
    c_pattern, c_urnsh = min(pattern_cpu), min(urnsh_cpu)

    # Wall time, and the CPU time of this process (what a busy machine does not distort).
    print(f"{n_values:,} URN literals on {args.records:,} focus nodes "
          f"(best of {args.repeat}; wall / CPU)")
    print(f"  pyshacl sh:pattern (hand-written)    {t_pattern:8.2f} s / {c_pattern:.2f} s  "
          f"results={n_pattern:,}")
    print(f"  urnld urnsh:namespaceValid (python)  {t_urnsh:8.2f} s / {c_urnsh:.2f} s  "
          f"results={len(report.results):,}")
    print(f"  ratio namespaceValid / pattern       {t_urnsh / t_pattern:8.2f}   / "
          f"{c_urnsh / c_pattern:.2f}  (goal <= 3)")
    if args.progress:
        # What `urnld validate` does on a terminal: the shapes run in focus-node batches and a
        # callback is told after each. CPU time of this process, alternating, best of --repeat.
        plain_cpu: list[float] = []
        counted_cpu: list[float] = []
        calls: list[int] = []
        for _ in range(args.repeat):
            gc.collect()
            t0 = time.process_time()
            plain = validate(data, urnsh_shapes, evaluator="pyshacl")
            plain_cpu.append(time.process_time() - t0)
            calls.clear()
            gc.collect()
            t0 = time.process_time()
            counted = validate(data, urnsh_shapes, evaluator="pyshacl",
                               progress=lambda done, total: calls.append(done))
            counted_cpu.append(time.process_time() - t0)
        same = [r.to_dict() for r in plain.results] == [r.to_dict() for r in counted.results]
        c_plain, c_counted = min(plain_cpu), min(counted_cpu)
        print(f"  namespaceValid, CPU time               {c_plain:8.2f} s")
        print(f"  namespaceValid with progress, CPU time {c_counted:8.2f} s  "
              f"({len(calls)} calls; same results: {same})")
        print(f"  ratio with / without progress          {c_counted / c_plain:8.3f}")
    if args.all:
        all_shapes = Graph().parse(data=ALL_SHAPES, format="turtle")
        times = []
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            everything = validate(data, all_shapes, evaluator="pyshacl")
            times.append(time.perf_counter() - t0)
        print(f"  all six urnsh: components (python)   {min(times):8.2f} s  "
              f"results={len(everything.results):,}  (x{min(times) / t_pattern:.2f} pattern)")
    if args.sparql:
        small = make_data(args.sparql, args.per_record)
        t0 = time.perf_counter()
        slow = validate(small, urnsh_shapes, evaluator="sparql")
        t_sparql = time.perf_counter() - t0
        t0 = time.perf_counter()
        fast = validate(small, urnsh_shapes, evaluator="pyshacl")
        t_fast = time.perf_counter() - t0
        same = [r.to_dict() for r in slow.results] == [r.to_dict() for r in fast.results]
        print(f"  plain SPARQL path, {args.sparql:,} focus nodes   {t_sparql:8.2f} s  "
              f"(python path {t_fast:.2f} s, x{t_sparql / t_fast:.0f}; same results: {same})")


if __name__ == "__main__":
    main()
