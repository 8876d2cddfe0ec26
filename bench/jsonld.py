"""Benchmark: urnld.jsonld expand/compact vs plain pyld on a 10,000-node document with URN ids.

    python bench/jsonld.py [--nodes 10000] [--repeat 5]

Both run in this process on the same input with the same document loader (a URN catalog serving
the context); runs alternate so machine noise hits both. urnld runs with its defaults:
canonicalize=True and hazard checks on. Target (issue 5): urnld ≤ 1.3× pyld for expand and
compact. Prints the median times and the ratios.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import uuid

from pyld import jsonld as pyld

from urnld import jsonld

CONTEXT_URN = "urn:example:bench:context"
CONTEXT = {"@context": {
    "@version": 1.1,
    "@vocab": "https://schema.org/",
    "uuid": "urn:uuid:",
    "ex": "urn:example:",
    "knows": {"@type": "@id"},
    "memberOf": {"@type": "@id"},
}}


def make_document(nodes: int) -> dict:
    ids = [str(uuid.UUID(int=(i * 2654435761) % (1 << 128) + 1)) for i in range(nodes)]

    def spell(i: int) -> str:
        # A third of the ids in each of three spellings: canonical, upper case, mixed.
        u = ids[i]
        return ("urn:uuid:" + u, "URN:UUID:" + u.upper(), "urn:UUID:" + u[:8].upper() + u[8:])[i % 3]

    graph = [{
        "@id": spell(i),
        "@type": "Person",
        "name": f"Person {i}",
        "knows": spell((i * 7 + 1) % nodes),
        "memberOf": f"URN:EXAMPLE:org:{i % 100}",
    } for i in range(nodes)]
    return {"@context": CONTEXT_URN, "@graph": graph}


def timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    loader = jsonld.URNDocumentLoader({CONTEXT_URN: CONTEXT})
    doc = make_document(args.nodes)
    opts = {"documentLoader": loader}
    cases = {
        "expand": (lambda: pyld.expand(doc, dict(opts)),
                   lambda: jsonld.expand(doc, loader=loader)),
        "compact": (lambda: pyld.compact(doc, CONTEXT_URN, dict(opts)),
                    lambda: jsonld.compact(doc, CONTEXT_URN, loader=loader)),
    }
    # Warm up once (imports, pyld's context cache) and check urnld did its job.
    out = jsonld.compact(doc, CONTEXT_URN, loader=loader)
    assert all(node["@id"].startswith("uuid:") for node in out["@graph"]), "not canonicalized"
    for base, ours in cases.values():
        base()
        ours()

    print(f"{args.nodes} nodes, {args.repeat} runs each, median seconds")
    worst = 0.0
    for name, (base, ours) in cases.items():
        t_base, t_ours = [], []
        for _ in range(args.repeat):
            t_base.append(timed(base))
            t_ours.append(timed(ours))
        b, o = statistics.median(t_base), statistics.median(t_ours)
        ratio = o / b
        worst = max(worst, ratio)
        print(f"{name:8s} pyld {b:.3f}s  urnld {o:.3f}s  ratio {ratio:.2f}x  (target ≤ 1.30x)")
    print("PASS" if worst <= 1.3 else "FAIL", f"worst ratio {worst:.2f}x")
    return 0 if worst <= 1.3 else 1


if __name__ == "__main__":
    sys.exit(main())
