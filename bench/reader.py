"""Benchmark: what urnld's reader (``urnld.read``) adds to ``urnld check`` and ``canonicalize``.

    python bench/reader.py                     # 100k triples
    python bench/reader.py --triples 300000 --repeat 5

Measures, in this process (best of ``--repeat`` runs, baseline and reader alternating):

* check, Turtle — the work ``urnld check x.ttl`` does after choosing its path: before the reader,
  ``Graph.parse`` + :func:`urnld.rdf.check_graph`; now :func:`urnld.read.read` (the URN base
  pre-check, pyoxigraph's parser, the graph built from its statements as written) +
  ``check_graph``. The file has an ``@prefix``
  header and no URN base (the common case), so the reader's scan does not run; a second row
  gives a file with ``@base <urn:…>``, where the scan and rewrite run over the whole text;
* canonicalize, N-Triples — ``urnld canonicalize x.nt -o y.nt`` through the command (format from
  the extension, then streaming; the reader never builds a graph for N-Triples) against
  :func:`urnld.stream.canonicalize_file` called directly, with ``-j 1`` on both sides.

Prints seconds and the ratio reader/baseline (the issue's target: at most 1.10).
"""

from __future__ import annotations

import argparse
import gc
import random
import tempfile
import time
from pathlib import Path


def _turtle(n: int, rng: random.Random, base: str | None) -> str:
    lines = ["@prefix dct: <http://purl.org/dc/terms/> .", "@prefix ex: <http://example.org/> ."]
    if base:
        lines.append(f"@base <{base}> .")
    for i in range(n // 4):
        isbn = rng.choice(("urn:isbn:0395363411", "URN:ISBN:0-395-36341-1", "urn:isbn:0451450523"))
        subject = f"<#item{i}>" if base else f"ex:item{i}"
        lines.append(
            f'{subject} dct:identifier <{isbn}> ; dct:title "Title {i}"@en ;\n'
            f'    dct:references <urn:uuid:{rng.getrandbits(128):032x}> ; ex:n {i} .'
        )
    return "\n".join(lines) + "\n"


def _ntriples(n: int, rng: random.Random) -> str:
    out = []
    for i in range(n):
        isbn = rng.choice(("urn:isbn:0395363411", "URN:ISBN:0-395-36341-1"))
        out.append(f'<http://example.org/item{i}> <http://purl.org/dc/terms/identifier> <{isbn}> .')
    return "\n".join(out) + "\n"


def _best_pair(before, after, repeat: int) -> tuple[float, float]:
    # Alternating runs: on a shared machine the load changes over a minute, and timing one side
    # after the other would charge the change to whichever ran second.
    best = [float("inf"), float("inf")]
    for _ in range(repeat):
        for i, fn in enumerate((before, after)):
            gc.collect()  # the previous run's graph is freed here, not inside the next timing
            start = time.perf_counter()
            fn()
            best[i] = min(best[i], time.perf_counter() - start)
    return best[0], best[1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--triples", type=int, default=100_000)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="urnld-bench-reader-") as name:
        _run(args, Path(name))


def _run(args: argparse.Namespace, tmp: Path) -> None:
    from rdflib import Graph

    from urnld.cli import main as urnld_main
    from urnld.rdf import check_graph
    from urnld.read import read
    from urnld.report import CheckReport
    from urnld.stream import canonicalize_file

    rng = random.Random(15)
    ttl = tmp / "data.ttl"
    ttl.write_text(_turtle(args.triples, rng, None), encoding="utf-8")
    ttl_base = tmp / "based.ttl"
    ttl_base.write_text(_turtle(args.triples, rng, "urn:example:catalog"), encoding="utf-8")
    nt = tmp / "data.nt"
    nt.write_text(_ntriples(args.triples, rng), encoding="utf-8")

    def check_before(path: Path) -> None:
        g = Graph(bind_namespaces="core")
        g.parse(path, format="turtle")
        check_graph(g, CheckReport())

    def check_after(path: Path) -> None:
        check_graph(read(path), CheckReport())

    rows = []
    # rdflib alone cannot read the file with @base <urn:…> (its own error), so the baseline of
    # that row is the plain file.
    for label, path in (("check, Turtle", ttl), ("check, Turtle with @base <urn:>", ttl_base)):
        before, after = _best_pair(lambda: check_before(ttl), lambda p=path: check_after(p),
                                   args.repeat)
        rows.append((label, before, after))

    out = tmp / "out.nt"
    direct, command = _best_pair(
        lambda: canonicalize_file(str(nt), str(out), jobs=1, progress=None),
        # --no-config: the project-file lookup is not the reader's work, and what it finds
        # depends on where the script runs (urnld's own pyproject.toml names urnld).
        lambda: urnld_main(["canonicalize", str(nt), "-o", str(out), "-j", "1",
                            "--no-progress", "-q", "--no-config"]),
        args.repeat)
    rows.append(("canonicalize, N-Triples", direct, command))

    print(f"{args.triples:,} triples, best of {args.repeat}")
    print(f"{'':34} {'baseline s':>10} {'reader s':>10} {'ratio':>6}")
    for label, before, after in rows:
        print(f"{label:34} {before:10.3f} {after:10.3f} {after / before:6.2f}")


if __name__ == "__main__":
    main()
