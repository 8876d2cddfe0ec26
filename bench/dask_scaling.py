"""Dask engine scaling: 1 vs 2 workers, and 1 worker vs the single-process streaming run.

    python bench/dask_scaling.py [--triples 2000000] [--files 8] [--dump DIR] [--repeat 1]

Generates (or reuses) a multi-file dump with ``bench/gen_dump.py``, then times, in this process:

* ``single``: the single-process streaming canonicalization (:func:`urnld.stream.canonicalize_file`,
  the code behind ``urnld canonicalize IN -o OUT``), one input after the other;
* ``dask-N``: :func:`urnld.dask.canonicalize_files` on an already running ``LocalCluster`` of N
  worker processes (one thread each); cluster start-up is timed separately and also shown
  end-to-end (``workers=N``, what ``urnld canonicalize --engine dask --workers N`` does).

Targets (issue 7): dask-2 throughput >= 1.7x dask-1; dask-1 time <= 1.3x single. Each timing is
the best of ``--repeat`` runs; the outputs of every run are checked against the single-process
output before being deleted. The load average is printed: other processes on a 2-core machine
distort the figures.
"""

from __future__ import annotations

import argparse
import logging
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import gen_dump  # sibling script, found through the sys.path line above


def _single(inputs: list[Path], out: Path):
    from urnld.stream import canonicalize_file

    out.mkdir()
    reports = [canonicalize_file(str(p), str(out / p.name)) for p in inputs]
    report = reports[0]
    for r in reports[1:]:
        report = report.merge(r)
    return report


def _same_output(a: Path, b: Path) -> None:
    names_a = sorted(p.name for p in a.iterdir())
    names_b = sorted(p.name for p in b.iterdir())
    assert names_a == names_b, (names_a, names_b)
    for name in names_a:
        assert (a / name).read_bytes() == (b / name).read_bytes(), name


def _best(fn, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--triples", type=int, default=2_000_000)
    ap.add_argument("--files", type=int, default=8)
    ap.add_argument("--dump", help="dump directory (generated if missing)")
    ap.add_argument("--partition-size", type=int, default=64 * 1024 * 1024)
    ap.add_argument("--repeat", type=int, default=1)
    a = ap.parse_args()

    from distributed import Client, LocalCluster

    import urnld.dask

    work = Path(tempfile.mkdtemp(prefix="urnld-dask-bench-"))
    dump = Path(a.dump) if a.dump else work / "dump"
    if not dump.exists() or not any(dump.iterdir()):
        t = time.perf_counter()
        gen_dump.generate(dump, triples=a.triples, files=a.files)
        print(f"generated {a.triples} statements in {a.files} files: {time.perf_counter() - t:.1f} s")
    inputs = sorted(p for p in dump.iterdir() if p.is_file())
    size = sum(p.stat().st_size for p in inputs)
    print(f"dump: {len(inputs)} files, {size / 1e6:.0f} MB; load average before: {os.getloadavg()}")

    ref = work / "single"
    t_single = _best(lambda: (shutil.rmtree(ref, ignore_errors=True), _single(inputs, ref)), a.repeat)
    ref_report = _single(inputs, work / "single-report")
    shutil.rmtree(work / "single-report")

    results: dict[int, float] = {}
    for n in (1, 2):
        t = time.perf_counter()
        with (
            LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                         dashboard_address=":0", silence_logs=logging.ERROR) as cluster,
            Client(cluster),
        ):
            startup = time.perf_counter() - t
            out = work / f"dask-{n}"

            def run(n=n, out=out, cluster=cluster):
                shutil.rmtree(out, ignore_errors=True)
                report = urnld.dask.canonicalize_files(
                    inputs, out, scheduler=cluster.scheduler_address,
                    partition_size=a.partition_size,
                )
                assert report == ref_report
                _same_output(ref, out)

            results[n] = _best(run, a.repeat)
        print(f"dask-{n}: cluster start {startup:.1f} s, job {results[n]:.2f} s")

    t = time.perf_counter()
    out = work / "end-to-end"
    urnld.dask.canonicalize_files(inputs, out, workers=2, partition_size=a.partition_size)
    t_e2e = time.perf_counter() - t
    _same_output(ref, out)

    mb = size / 1e6
    statements = ref_report.statements_in
    print()
    print(f"{'run':<28}{'seconds':>9}{'MB/s':>8}{'statements/s':>14}")
    for name, secs in [("single-process streaming", t_single), ("dask, 1 worker", results[1]),
                       ("dask, 2 workers", results[2]), ("dask, 2 workers end-to-end", t_e2e)]:
        print(f"{name:<28}{secs:>9.2f}{mb / secs:>8.1f}{statements / secs:>14,.0f}")
    print()
    speedup = results[1] / results[2]
    overhead = results[1] / t_single
    print(f"2 workers vs 1 worker throughput: {speedup:.2f}x (target >= 1.7x)")
    print(f"1 dask worker vs single process:  {overhead:.2f}x the time (target <= 1.3x)")
    print(f"load average after: {os.getloadavg()}")
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    # Dask's worker processes are spawned and re-import this module: keep work under the guard.
    sys.exit(main())
