"""Dask engine scaling: 1 vs 2 workers, and 1 worker vs the single-process streaming run.

    python bench/dask_scaling.py [--triples 2000000] [--files 8] [--dump DIR] [--repeat 1]

Generates (or reuses) a multi-file dump with ``bench/gen_dump.py``, then times, in this process:

* ``single``: the single-process streaming canonicalization (:func:`urnld.stream.canonicalize_file`
  with ``jobs=1``, the code behind ``urnld canonicalize IN -o OUT -j 1``), one input after the
  other, in this process;
* ``command``: ``urnld canonicalize IN... -o DIR`` itself, in a fresh interpreter (by default it
  shares each big file among one worker process per CPU);
* ``dask-N``: :func:`urnld.dask.canonicalize_files` on an already running ``LocalCluster`` of N
  worker processes (one thread each); cluster start-up is timed separately and also shown
  end-to-end (``workers=N``, what ``urnld canonicalize --engine dask --workers N`` does).

Targets (issue 7): dask-2 throughput >= 1.7x dask-1; dask-1 time <= 1.3x single. Each timing is
the best of ``--repeat`` interleaved runs; the outputs and report of every Dask run are checked
against the single-process ones. The load average and the CPU seconds of each run (driver plus
workers) are printed too: on a shared 2-core machine other processes distort wall-clock ratios,
while CPU seconds show whether Dask adds work.
"""

from __future__ import annotations

import argparse
import logging
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import gen_dump  # sibling script, found through the sys.path line above


def _single(inputs: list[Path], out: Path):
    from urnld.stream import canonicalize_file

    out.mkdir()
    # jobs=1: one process, the baseline the issue names (the command's default may use more).
    reports = [canonicalize_file(str(p), str(out / p.name), jobs=1) for p in inputs]
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


class Timing:
    """Best wall-clock time over the repeats, and the CPU seconds of that run."""

    def __init__(self) -> None:
        self.wall = float("inf")
        self.cpu = 0.0

    def add(self, wall: float, cpu: float) -> None:
        if wall < self.wall:
            self.wall, self.cpu = wall, cpu


def _worker_cpu(client) -> float:
    return sum(client.run(time.process_time).values())


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--triples", type=int, default=2_000_000)
    ap.add_argument("--files", type=int, default=8)
    ap.add_argument("--dump", help="dump directory (generated if missing)")
    ap.add_argument("--partition-size", type=int, default=64 * 1024 * 1024)
    ap.add_argument("--repeat", type=int, default=1)
    a = ap.parse_args()

    from distributed import Client, LocalCluster

    # Cluster shutdown logs at INFO on the driver's own loggers; keep the table readable.
    logging.getLogger("distributed").setLevel(logging.ERROR)

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
    ref_report = _single(inputs, ref)  # warm-up, and the reference output and report

    clusters = {}
    for n in (1, 2):
        t = time.perf_counter()
        cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                               dashboard_address=":0", silence_logs=logging.ERROR)
        clusters[n] = (cluster, Client(cluster))
        print(f"dask-{n}: cluster start {time.perf_counter() - t:.1f} s")

    timings = {name: Timing() for name in ("single", "command", "dask-1", "dask-2")}
    # Interleaved repeats: a change of machine load hits every variant alike.
    for _ in range(a.repeat):
        out = work / "again"
        shutil.rmtree(out, ignore_errors=True)
        c0, t0 = time.process_time(), time.perf_counter()
        _single(inputs, out)
        timings["single"].add(time.perf_counter() - t0, time.process_time() - c0)
        # The command itself, in a fresh interpreter (CPU: the child's user+sys time).
        out = work / "command"
        shutil.rmtree(out, ignore_errors=True)
        out.mkdir()
        r0, t0 = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
        subprocess.run([sys.executable, "-m", "urnld", "canonicalize", *map(str, inputs),
                        "-o", str(out)], check=True)
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        timings["command"].add(time.perf_counter() - t0,
                               r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime)
        _same_output(ref, out)
        for n, (cluster, client) in clusters.items():
            out = work / f"dask-{n}"
            shutil.rmtree(out, ignore_errors=True)
            w0, c0, t0 = _worker_cpu(client), time.process_time(), time.perf_counter()
            report = urnld.dask.canonicalize_files(
                inputs, out, scheduler=cluster.scheduler_address, partition_size=a.partition_size
            )
            wall = time.perf_counter() - t0
            timings[f"dask-{n}"].add(wall, _worker_cpu(client) - w0 + time.process_time() - c0)
            assert report == ref_report
            _same_output(ref, out)
    for cluster, client in clusters.values():
        client.close()
        cluster.close()

    t = time.perf_counter()
    out = work / "end-to-end"
    urnld.dask.canonicalize_files(inputs, out, workers=2, partition_size=a.partition_size)
    e2e = time.perf_counter() - t
    _same_output(ref, out)

    mb = size / 1e6
    statements = ref_report.statements_in
    print()
    print(f"{'run':<32}{'seconds':>9}{'CPU s':>8}{'MB/s':>8}{'statements/s':>14}")
    rows = [
        ("single-process streaming", timings["single"]),
        ("urnld canonicalize IN... -o D", timings["command"]),
        ("dask, 1 worker", timings["dask-1"]),
        ("dask, 2 workers", timings["dask-2"]),
    ]
    for name, tm in rows:
        print(f"{name:<32}{tm.wall:>9.2f}{tm.cpu:>8.2f}{mb / tm.wall:>8.1f}"
              f"{statements / tm.wall:>14,.0f}   ({tm.cpu / tm.wall:.2f} cores busy)")
    print(f"{'dask, 2 workers, incl. start-up':<32}{e2e:>9.2f}{'':>8}{mb / e2e:>8.1f}"
          f"{statements / e2e:>14,.0f}")
    print()
    one, two, single = timings["dask-1"], timings["dask-2"], timings["single"]
    print(f"2 workers vs 1 worker throughput: {one.wall / two.wall:.2f}x (target >= 1.7x)")
    print(f"1 dask worker vs single process:  {one.wall / single.wall:.2f}x the time "
          "(target <= 1.3x)")
    print(f"1 dask worker vs the command:     {one.wall / timings['command'].wall:.2f}x the time")
    print(f"CPU seconds, 2 workers vs 1: {two.cpu / one.cpu:.2f}x (1.00 = no parallel overhead)")
    print(f"load average after: {os.getloadavg()} (other processes on the 2 cores distort "
          "wall-clock ratios; CPU seconds are less sensitive)")
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    # Dask's worker processes are spawned and re-import this module: keep work under the guard.
    sys.exit(main())
