"""Benchmark: what the deterministic blank-node labels cost a streamed Turtle canonicalize.

    python bench/blank_labels.py --statements 60000 --rounds 5

Writes two Turtle files (every statement with nested ``[ ]`` blank nodes, and none at all),
then runs ``urnld.files.canonicalize(…, jobs=1)`` into N-Triples with the relabelling
(:mod:`urnld._kernel._blanks`) and with it replaced by the identity, the two alternated in
one process; CPU time, best of ``--rounds``, and the ratio.
"""

from __future__ import annotations

import argparse
import resource
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path

import urnld.files as files
import urnld.stream._syntaxes as syntaxes


def _cpu() -> float:
    me, kids = (resource.getrusage(resource.RUSAGE_SELF),
                resource.getrusage(resource.RUSAGE_CHILDREN))
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def _identity(chunks: Iterable[bytes]) -> Iterator[bytes]:
    return iter(chunks)


def _write(path: Path, n: int, *, blank: bool) -> None:
    with path.open("w", encoding="utf-8") as f:
        f.write("@prefix e: <http://e/> .\n")
        for i in range(n):
            if blank:
                f.write(f'<URN:ISBN:0-395-36341-{i % 10}> e:p [ e:q <urn:example:{i}> ;'
                        f' e:r [ e:s "{i}" ] ] .\n')
            else:
                f.write(f'<URN:ISBN:0-395-36341-{i % 10}> e:p <urn:example:{i}> ;'
                        f' e:r <http://e/{i}> .\n')


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--statements", type=int, default=60_000)
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    real = syntaxes.relabel_chunks
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        for blank in (True, False):
            src = d / f"{'blank' if blank else 'plain'}.ttl"
            _write(src, args.statements, blank=blank)
            best = {"relabelled": float("inf"), "identity": float("inf")}
            for _ in range(args.rounds):
                for kind in ("relabelled", "identity"):
                    syntaxes.relabel_chunks = real if kind == "relabelled" else _identity  # type: ignore[assignment]
                    start = _cpu()
                    files.canonicalize(src, d / "out.nt", jobs=1)
                    best[kind] = min(best[kind], _cpu() - start)
            syntaxes.relabel_chunks = real
            print(f"{src.name}: relabelled {best['relabelled']:.3f} s, identity (baseline) "
                  f"{best['identity']:.3f} s, ratio {best['relabelled'] / best['identity']:.3f}")


if __name__ == "__main__":
    main()
