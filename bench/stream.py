"""Benchmark: streaming ``canonicalize`` and ``check`` on two dumps, vs the pyoxigraph floor.

    python bench/stream.py                      # catalog 1M + URN-dense 300k triples, best of 3
    python bench/stream.py --dense 3000000 --catalog 0 --repeat 1   # the large URN-dense dump
    python bench/stream.py --catalog 300000 1000000 --dense 300000 1000000 --commands
                                                # check / canonicalize at both sizes, also as
                                                # whole commands

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

``--commands`` also runs the whole commands in new processes, interleaved (best of
``--repeat``): ``urnld check FILE`` and ``urnld canonicalize FILE -o OUT`` at default settings,
with the accelerator and with ``URNLD_PURE_PYTHON=1``, and the floor as ``python -c`` (pyoxigraph
parse + serialize of the same file). CPU time is the children's (``getrusage``: the command and
its worker processes); it prints check / canonicalize CPU and check's wall time against the
floor's. ``--no-py`` skips the pure-Python runs (in this process and as commands).

``--baseline-src DIR`` also compares the pure-Python ``canonicalize -j 1`` with another urnld
source tree (``DIR/src``, e.g. ``git archive main | tar -x -C DIR``): both run in child
processes, interleaved, each timing its own call (CPU seconds).
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from canonicalize import _interleaved, floor  # bench/canonicalize.py: timing, the floor
from canonicalize import generate as generate_catalog
from gen_dense import generate as generate_dense

from urnld._core import _accel
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


_CHILD = """
import sys, time
from urnld.stream import canonicalize_file
t = time.process_time()
canonicalize_file(sys.argv[1], sys.argv[2], jobs=1)
print(time.process_time() - t)
"""


def _child_cpu(src_dir: str, src: Path, dst: Path) -> float:
    env = dict(os.environ, PYTHONPATH=src_dir, URNLD_PURE_PYTHON="1")
    out = subprocess.run([sys.executable, "-c", _CHILD, str(src), str(dst)], env=env,
                         capture_output=True, text=True, check=True)
    return float(out.stdout.split()[-1])


def bench_baseline(src: Path, d: Path, baseline: Path, repeat: int) -> None:
    here = str(Path(__file__).resolve().parents[1] / "src")
    best = {"this tree": float("inf"), "baseline": float("inf")}
    for _ in range(repeat):
        best["this tree"] = min(best["this tree"], _child_cpu(here, src, d / "a.nt"))
        best["baseline"] = min(best["baseline"], _child_cpu(str(baseline / "src"), src,
                                                            d / "b.nt"))
    print(f"  pure Python canonicalize -j 1, CPU: this tree {best['this tree']:.3f} s, "
          f"baseline {best['baseline']:.3f} s: ratio {best['this tree'] / best['baseline']:.2f}")


_FLOOR_CHILD = """
import sys, pyoxigraph as ox
with open(sys.argv[1], "rb") as f, open(sys.argv[2], "wb") as o:
    ox.serialize(ox.parse(f, format=ox.RdfFormat.N_TRIPLES), o, format=ox.RdfFormat.N_TRIPLES)
"""


def _command(argv: list[str], env: dict[str, str]) -> Callable[[], tuple[float, float]]:
    """A job that runs *argv* in a new process: (wall, CPU) seconds, CPU from getrusage of the
    children (the process and the workers it waited for)."""

    def run() -> tuple[float, float]:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        proc = subprocess.run(argv, env=env, capture_output=True, text=True, check=False)
        wall = time.perf_counter() - t
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if proc.returncode not in (0, 1):  # 1: check found invalid URNs
            raise SystemExit(f"{' '.join(argv)} failed: {proc.stderr.strip()}")
        return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)

    return run


def bench_commands(src: Path, d: Path, repeat: int, pure: bool) -> None:
    """``urnld check`` against ``urnld canonicalize`` (and the floor) as whole commands."""
    here = str(Path(__file__).resolve().parents[1] / "src")
    base = dict(os.environ, PYTHONPATH=here + os.pathsep + os.environ.get("PYTHONPATH", ""))
    base.pop("URNLD_PURE_PYTHON", None)
    # As an installed urnld runs: modules from cached bytecode (written by the first run), not
    # compiled again by every process.
    base.pop("PYTHONDONTWRITEBYTECODE", None)
    urnld = [sys.executable, "-m", "urnld"]
    jobs = {"floor": _command([sys.executable, "-c", _FLOOR_CHILD, str(src), str(d / "f.nt")],
                              base)}
    modes = [("C", base)] if _COMPILED is not None else []
    if pure or not modes:
        modes.append(("py", dict(base, URNLD_PURE_PYTHON="1")))
    for tag, env in modes:
        jobs[f"canon {tag}"] = _command([*urnld, "canonicalize", str(src), "-o",
                                         str(d / "cmd.nt")], env)
        jobs[f"check {tag}"] = _command([*urnld, "check", str(src)], env)
    best = {name: (float("inf"), float("inf")) for name in jobs}
    for _ in range(repeat):
        for name, job in jobs.items():
            w, c = job()
            best[name] = (min(best[name][0], w), min(best[name][1], c))
    wf, cf = best["floor"]
    print("  whole commands (new processes, default settings; CPU includes the workers):")
    print(f"    {'floor: python -c pyoxigraph parse+serialize':<46} {wf:7.3f} s wall "
          f"{cf:7.3f} s CPU")
    for tag, _env in modes:
        (wc, cc), (wk, ck) = best[f"canon {tag}"], best[f"check {tag}"]
        print(f"    {'urnld canonicalize FILE -o OUT (' + tag + ')':<46} {wc:7.3f} s wall "
              f"{cc:7.3f} s CPU")
        print(f"    {'urnld check FILE (' + tag + ')':<46} {wk:7.3f} s wall {ck:7.3f} s CPU")
        print(f"    check / canonicalize CPU, whole commands ({tag}): {ck / cc:.2f};  "
              f"check wall / floor wall: {wk / wf:.2f}")


def bench_dump(name: str, src: Path, d: Path, repeat: int, do_check: bool, pure: bool) -> None:
    with open(src, "rb") as f:
        n = sum(1 for _ in f)
    print(f"\n== {name}: {n:,} triples, {src.stat().st_size / 2**20:.1f} MiB")
    modes = [("C", True)] if _COMPILED is not None else []
    if pure or not modes:
        modes.append(("py", False))
    jobs: dict[str, Callable[[], None]] = {"floor": lambda: floor(src, d / "floor.nt")}
    for tag, accel in modes:
        jobs[f"canon {tag}"] = _with(accel, lambda: canonicalize_file(
            src, d / "out.nt"))
        jobs[f"canon {tag} -j1"] = _with(accel, lambda: canonicalize_file(
            src, d / "out1.nt", jobs=1))
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
    if _COMPILED is not None and len(modes) == 2:
        print(f"  pure Python / C, canonicalize -j 1 CPU: "
              f"{best['canon py -j1'][1] / best['canon C -j1'][1]:.2f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--catalog", type=int, nargs="+", default=[1_000_000],
                    help="catalog triples, one run per size (0: skip)")
    ap.add_argument("--dense", type=int, nargs="+", default=[300_000],
                    help="URN-dense triples, one run per size (0: skip)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--no-check", action="store_true", help="skip the check runs")
    ap.add_argument("--commands", action="store_true",
                    help="also time urnld check / canonicalize as whole commands")
    ap.add_argument("--no-py", action="store_true",
                    help="skip the pure-Python runs (the accelerator's only)")
    ap.add_argument("--dir", help="work directory (default: a temporary one)")
    ap.add_argument("--baseline-src", type=Path, help="another urnld tree to compare with")
    args = ap.parse_args()
    print("accelerator:", "compiled" if _COMPILED is not None else "not built (pure Python only)")
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        d = Path(tmp)
        dumps = [("catalog dump (bench/canonicalize.py)", "catalog.nt", generate_catalog,
                  args.catalog),
                 ("URN-dense dump (bench/gen_dense.py)", "dense.nt", generate_dense, args.dense)]
        for title, name, generate, sizes in dumps:
            for triples in sizes:
                if not triples:
                    continue
                src = d / name
                generate(src, triples)
                bench_dump(title, src, d, args.repeat, not args.no_check, not args.no_py)
                if args.commands:
                    bench_commands(src, d, args.repeat, not args.no_py)
                if args.baseline_src:
                    bench_baseline(src, d, args.baseline_src, args.repeat)
                src.unlink()


if __name__ == "__main__":
    main()
