"""Benchmark: streaming ``canonicalize`` and ``check`` on two dumps, vs the pyoxigraph floor.

    python bench/stream.py                      # catalog 1M + URN-dense 300k triples, best of 3
    python bench/stream.py --dense 3000000 --catalog 0 --repeat 1   # the large URN-dense dump

Two dumps: the catalog dump of bench/canonicalize.py (mostly literals, each URN spelling
repeated many times) and the URN-dense dump of bench/gen_dense.py (every statement carries one
or two URN IRIs, spellings repeat about twice, escapes, mixed case, a fifth invalid).

For each dump, in this process, runs interleaved (best of ``--repeat``; CPU time includes the
worker processes):

* floor — pyoxigraph parses the N-Triples file and serializes it again (Rust, no URN work);
* ``canonicalize`` at default settings (inputs over 8 MiB: one worker process per CPU), and
  with one process (``-j 1``), with the compiled accelerator and without it
  (``URNLD_PURE_PYTHON=1``'s code path, selected in-process);
* ``check`` (:func:`urnld.stream.check_file`, what ``urnld check x.nt`` runs), default settings
  and one process, compared with ``canonicalize`` on CPU time.

Ratios are printed against the floor measured in the same run. The accelerator is skipped
(and said so) when it is not built.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from canonicalize import _interleaved, floor  # bench/canonicalize.py: timing, the floor
from canonicalize import generate as generate_catalog
from gen_dense import generate as generate_dense

from urnld import _accel
from urnld.stream import canonicalize_file, check_file

_COMPILED = _accel.speedups


def _with(accel: bool, fn: Callable[[], object]) -> Callable[[], None]:
    def run() -> None:
        _accel.speedups = _COMPILED if accel else None
        try:
            fn()
        finally:
            _accel.speedups = _COMPILED

    return run


def bench_dump(name: str, src: Path, d: Path, repeat: int, do_check: bool) -> None:
    with open(src, "rb") as f:
        n = sum(1 for _ in f)
    print(f"\n== {name}: {n:,} triples, {src.stat().st_size / 2**20:.1f} MiB")
    modes = [("C", True)] if _COMPILED is not None else []
    modes.append(("py", False))
    jobs: dict[str, Callable[[], None]] = {"floor": lambda: floor(src, d / "floor.nt")}
    for tag, accel in modes:
        jobs[f"canon {tag}"] = _with(accel, lambda: canonicalize_file(
            src, d / "out.nt", progress=False))
        jobs[f"canon {tag} -j1"] = _with(accel, lambda: canonicalize_file(
            src, d / "out1.nt", progress=False, jobs=1))
        if do_check:
            jobs[f"check {tag}"] = _with(accel, lambda: check_file(src))
            jobs[f"check {tag} -j1"] = _with(accel, lambda: check_file(src, jobs=1))
    best = _interleaved(jobs, repeat)
    wf, cf = best["floor"]
    print(f"  {'floor (pyoxigraph parse+serialize)':<36} {wf:7.3f} s wall {cf:7.3f} s CPU")
    for key, (w, c) in best.items():
        if key == "floor":
            continue
        print(f"  {key:<36} {w:7.3f} s wall {c:7.3f} s CPU   "
              f"ratio {w / wf:5.2f} wall  {c / cf:5.2f} CPU")
    for tag, _ in modes:
        if do_check:
            print(f"  check / canonicalize CPU ({tag}): default "
                  f"{best[f'check {tag}'][1] / best[f'canon {tag}'][1]:.2f}, -j 1 "
                  f"{best[f'check {tag} -j1'][1] / best[f'canon {tag} -j1'][1]:.2f}")
    if _COMPILED is not None:
        print(f"  pure Python / C, canonicalize -j 1 CPU: "
              f"{best['canon py -j1'][1] / best['canon C -j1'][1]:.2f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--catalog", type=int, default=1_000_000, help="catalog triples (0: skip)")
    ap.add_argument("--dense", type=int, default=300_000, help="URN-dense triples (0: skip)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--no-check", action="store_true", help="skip the check runs")
    ap.add_argument("--dir", help="work directory (default: a temporary one)")
    args = ap.parse_args()
    print("accelerator:", "compiled" if _COMPILED is not None else "not built (pure Python only)")
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        d = Path(tmp)
        if args.catalog:
            src = d / "catalog.nt"
            generate_catalog(src, args.catalog)
            bench_dump("catalog dump (bench/canonicalize.py)", src, d, args.repeat,
                       not args.no_check)
            src.unlink()
        if args.dense:
            src = d / "dense.nt"
            generate_dense(src, args.dense)
            bench_dump("URN-dense dump (bench/gen_dense.py)", src, d, args.repeat,
                       not args.no_check)


if __name__ == "__main__":
    main()
