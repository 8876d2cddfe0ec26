"""Benchmark: Graph(store="URN") vs the plain rdflib Memory store, same data, same process.

Parses N triples from N-Triples, adds them one by one (Graph.add), then runs pattern lookups by
subject, predicate+object and full triple, and prints time per phase and the URN/Memory ratio
(issue 4 target: <= 1.5x for adding and for lookups).

The data looks like a catalog: URN subjects (ISBN, UUID, NBN) written in several spellings, a
handful of http predicates, literal and URN objects; ~1 in 4 distinct URNs appears in a second
spelling, as in merged catalog dumps.

    python bench/store.py --triples 100000 --repeat 3
"""

from __future__ import annotations

import argparse
import gc
import random
import time
import uuid

from rdflib import Graph, Literal, URIRef
from rdflib.plugins.stores.memory import Memory

from urnld.rdf import URNStore

DC = "http://purl.org/dc/terms/"
PREDICATES = [URIRef(DC + name) for name in ("title", "creator", "date", "isPartOf", "relation")]


def _isbn10(n: int) -> str:
    digits = f"{n % 10**9:09d}"
    total = sum((10 - i) * int(d) for i, d in enumerate(digits))
    check = (11 - total % 11) % 11
    return digits + ("X" if check == 10 else str(check))


def _spellings(i: int, rng: random.Random) -> list[str]:
    kind = i % 3
    if kind == 0:
        isbn = _isbn10(i * 7919)
        plain = f"urn:isbn:{isbn}"
        variant = f"URN:ISBN:{isbn[0]}-{isbn[1:4]}-{isbn[4:9]}-{isbn[9]}"
    elif kind == 1:
        u = uuid.UUID(int=rng.getrandbits(128))
        plain = f"urn:uuid:{u}"
        variant = f"URN:UUID:{str(u).upper()}"
    else:
        plain = f"urn:nbn:de:101-{i}"
        variant = f"urn:NBN:de:101-{i}"
    return [plain, variant] if i % 4 == 0 else [plain]


def make_triples(n: int, seed: int = 1) -> list[tuple[URIRef, URIRef, object]]:
    rng = random.Random(seed)
    subjects: list[list[URIRef]] = []
    triples = []
    i = 0
    while len(triples) < n:
        spellings = [URIRef(s) for s in _spellings(i, rng)]
        subjects.append(spellings)
        for p in PREDICATES:
            s = rng.choice(spellings)
            if p == PREDICATES[3] and len(subjects) > 1:
                o: object = rng.choice(rng.choice(subjects))
            else:
                o = Literal(f"value {i} {p[-4:]}")
            triples.append((s, p, o))
        i += 1
    return triples[:n]


def _time(fn) -> float:
    # Like timeit: collect first and keep the cyclic GC out of the timed region, so a collection
    # triggered by the *other* store's garbage does not land on this one's clock.
    gc.collect()
    gc.disable()
    try:
        # CPU time of this process: on a shared machine, wall time mostly measures the others.
        t0 = time.process_time()
        fn()
        return time.process_time() - t0
    finally:
        gc.enable()


def _phases(factory, triples, sample, ntriples: str) -> dict[str, float]:
    parse_into = Graph(store=factory())

    def parse() -> None:
        parse_into.parse(data=ntriples, format="nt")

    g = Graph(store=factory())

    def add() -> None:
        for t in triples:
            g.add(t)

    def by_subject() -> None:
        for s, _, _ in sample:
            for _t in g.triples((s, None, None)):
                pass

    def by_po() -> None:
        for _, p, o in sample:
            for _t in g.triples((None, p, o)):
                pass

    def contains() -> None:
        for t in sample:
            assert t in g

    return {
        "parse N-Triples": _time(parse),
        "add": _time(add),
        "triples(s,?,?)": _time(by_subject),
        "triples(?,p,o)": _time(by_po),
        "(s,p,o) in g": _time(contains),
    }


def run(n: int, lookups: int, repeat: int, inner: str = "memory") -> None:
    triples = make_triples(n)
    rng = random.Random(2)
    sample = [triples[rng.randrange(len(triples))] for _ in range(lookups)]
    distinct = len({str(t[0]) for t in triples})
    source = Graph()
    for t in triples:
        source.add(t)
    ntriples = source.serialize(format="nt")
    print(
        f"{n} triples, {distinct} distinct subject spellings, {lookups} lookups per phase, "
        f"best of {repeat} (runs interleaved so machine load hits both alike)"
    )
    if inner == "oxigraph":
        from oxrdflib import OxigraphStore

        base, wrapped = OxigraphStore, (lambda: URNStore(OxigraphStore()))
    else:
        base, wrapped = Memory, URNStore
    base_name = base.__name__
    print(f"baseline: plain {base_name} store; URN: URNStore({base_name}())")
    best: dict[str, dict[str, float]] = {base_name: {}, "URN": {}}
    for _ in range(repeat):
        # A fresh URNStore each run: its term cache starts cold, as in real use.
        for name, factory in ((base_name, base), ("URN", wrapped)):
            for phase, secs in _phases(factory, triples, sample, ntriples).items():
                best[name][phase] = min(best[name].get(phase, secs), secs)
    print(f"{'phase':<17} {base_name + ' s':>14} {'URN s':>10} {'ratio':>7}   (CPU seconds)")
    for phase, m in best[base_name].items():
        u = best["URN"][phase]
        print(f"{phase:<17} {m:>14.3f} {u:>10.3f} {u / m:>6.2f}x")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--triples", type=int, default=50_000, help="triples to add (default 50000)")
    ap.add_argument("--lookups", type=int, default=20_000, help="pattern lookups per phase")
    ap.add_argument("--repeat", type=int, default=3, help="best of this many runs")
    ap.add_argument(
        "--inner",
        choices=["memory", "oxigraph"],
        default="memory",
        help="store to wrap and compare against (default memory)",
    )
    args = ap.parse_args()
    run(args.triples, args.lookups, args.repeat, args.inner)


if __name__ == "__main__":
    main()
