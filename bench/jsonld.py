"""Benchmark: urnld.jsonld expand/compact vs plain pyld on a 10,000-node document with URN ids.

    python bench/jsonld.py [--nodes 10000] [--repeat 5]
    python bench/jsonld.py --stream [--nodes 10000] [--repeat 5]

``--stream`` times reading the document (its context named by URN, served from a catalog
directory) as RDF instead: the streaming path (``urnld.stream.canonicalize_file`` to N-Quads,
``jobs=1``, the catalog's context inlined) and the in-memory reader (``urnld.read.read``),
against pyoxigraph's parse + serialize of the same document with its context written inline
(pyoxigraph loads no context), in the same process, alternately. CPU seconds.

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


def cpu(fn) -> float:
    start = time.process_time()
    fn()
    return time.process_time() - start


def stream_bench(nodes: int, repeat: int) -> int:
    import io
    import json
    import tempfile
    from pathlib import Path

    import pyoxigraph as ox

    from urnld.read import read
    from urnld.stream import canonicalize_file

    doc = make_document(nodes)
    inline = {**doc, "@context": CONTEXT["@context"]}
    with tempfile.TemporaryDirectory() as d:
        root = Path(d)
        (root / "catalog").mkdir()
        (root / "catalog" / "ctx.jsonld").write_text(json.dumps(CONTEXT), encoding="utf-8")
        (root / "catalog" / "catalog.json").write_text(
            json.dumps({CONTEXT_URN: "ctx.jsonld"}), encoding="utf-8")
        src = root / "doc.jsonld"
        src.write_text(json.dumps(doc), encoding="utf-8")
        inline_src = root / "inline.jsonld"
        inline_src.write_text(json.dumps(inline), encoding="utf-8")
        out = root / "out.nq"

        def baseline() -> None:
            buf = io.BytesIO()
            with open(inline_src, "rb") as f:
                ox.serialize(ox.parse(f, ox.RdfFormat.JSON_LD), buf, ox.RdfFormat.N_QUADS)

        def streamed() -> None:
            canonicalize_file(src, out, input_format="json-ld", output_format="nquads",
                              catalog=root / "catalog", jobs=1)

        def in_memory() -> None:
            read(src, catalog=root / "catalog", base="https://example.org/doc")

        cases = {"stream": streamed, "read": in_memory}
        for fn in (baseline, *cases.values()):
            fn()  # warm up (imports)
        size = src.stat().st_size
        print(f"{nodes} nodes ({size / 1e6:.1f} MB), {repeat} runs each, median CPU seconds")
        worst = 0.0
        for name, fn in cases.items():
            t_base, t_ours = [], []
            for _ in range(repeat):
                t_base.append(cpu(baseline))
                t_ours.append(cpu(fn))
            b, o = statistics.median(t_base), statistics.median(t_ours)
            print(f"{name:8s} pyoxigraph parse+serialize {b:.3f}s  urnld {o:.3f}s  "
                  f"ratio {o / b:.2f}x" + ("  (target ≤ 3x)" if name == "stream" else ""))
            if name == "stream":
                worst = o / b
    return 0 if worst <= 3 else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--stream", action="store_true",
                        help="time reading it as RDF (streaming, in memory) against pyoxigraph")
    args = parser.parse_args()
    if args.stream:
        return stream_bench(args.nodes, args.repeat)

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
