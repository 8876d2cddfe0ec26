"""Benchmark: the cost of ``canonicalize``'s spelling modes (``--repair``, ``--link-locators``,
``--merge-locators``) against the same run with them off.

    python bench/options.py                          # 200,000 statements per dump, best of 3
    python bench/options.py --triples 1000000 --repeat 2

Two dumps, each written once per run:

* catalog — :mod:`bench/gen_dump.py`'s catalog (one N-Triples file): ISBN, ISSN, NBN, UUID and
  example URNs in many spellings, a tenth of the subjects a UUID, a few invalid URNs, plain
  ``http`` IRIs; no locator.
* locator-dense — the catalog with every fourth statement given a distinct DOI address as its
  subject (``https://doi.org/…``, ``http://dx.doi.org/…``, ``doi:…``), NBN resolver addresses
  (``http://nbn-resolving.de/urn:nbn:…``), the ``urn:doi:`` twins of some of them, and UUIDs
  written without hyphens or with a CGMES ``_`` (what ``--repair`` fixes).

For each dump, :func:`urnld.stream.canonicalize_file` runs with ``jobs=1`` (one process, the
compiled accelerator when built) with each mode and with none, interleaved, best CPU time of
``--repeat``; every run's report keeps up to 10**6 distinct spellings (so that
``--link-locators``' statements are complete on both dumps). Printed: seconds and the ratio to
the run with the modes off, measured in the same run. ``--pure`` also times the pure-Python
path (``URNLD_PURE_PYTHON=1``'s code, selected in-process).

``--baseline-src DIR`` also compares the run with the modes off with another urnld source
tree (``DIR/src``, its accelerator built there, e.g. ``git archive main | tar -x -C DIR``):
both run in child processes, interleaved, each timing its own call (CPU seconds).
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gen_dump import generate as generate_dump  # bench/gen_dump.py

from urnld._core import _accel
from urnld.report import CanonicalizeReport
from urnld.stream import canonicalize_file

_COMPILED = _accel.speedups

MODES: dict[str, dict[str, bool]] = {
    "off": {},
    "--repair": {"repair": True},
    "--link-locators": {"link_locators": True},
    "--merge-locators": {"merge_locators": True},
    "--repair --link-locators": {"repair": True, "link_locators": True},
    "--repair --merge-locators": {"repair": True, "merge_locators": True},
}


def catalog(path: Path, triples: int) -> None:
    """The catalog dump of bench/gen_dump.py, one N-Triples file."""
    with tempfile.TemporaryDirectory() as tmp:
        (part,) = generate_dump(tmp, triples=triples, files=1, quads_every=0)
        path.write_bytes(part.read_bytes())


def locator_dense(path: Path, triples: int, seed: int = 2) -> None:
    """The catalog with every fourth statement about a locator (see the module docstring)."""
    catalog(path, triples)
    rnd = random.Random(seed)
    lines = path.read_bytes().splitlines(keepends=True)
    dct = "http://purl.org/dc/terms/"
    for i in range(0, len(lines), 4):
        k = i // 4
        doi = f"10.{1000 + k % 7000}/rec.{k}"
        r = rnd.random()
        if r < 0.55:
            form = rnd.choice(("https://doi.org/", "http://dx.doi.org/", "doi:", "HTTPS://DOI.ORG/"))
            line = f'<{form}{doi}> <{dct}title> "Record {k}" .\n'
        elif r < 0.7:
            line = f"<urn:doi:{doi}> <{dct}isReferencedBy> <https://doi.org/{doi}> .\n"
        elif r < 0.85:
            nbn = f"urn:nbn:de:gbv:089-{k}"
            host = rnd.choice(("http://nbn-resolving.de/", "https://nbn-resolving.org/"))
            line = f"<{host}{nbn}> <{dct}identifier> <{nbn}> .\n"
        else:
            h = f"{rnd.getrandbits(128):032x}"
            u = h if rnd.random() < 0.5 else "_" + h[:8] + "-" + h[8:12] + "-" + h[12:16] + (
                "-" + h[16:20] + "-" + h[20:])
            line = f'<urn:uuid:{u}> <{dct}title> "Breaker {k}" .\n'
        lines[i] = line.encode()
    path.write_bytes(b"".join(lines))


def _run(src: Path, dst: Path, kwargs: dict[str, bool], accel: bool) -> Callable[[], None]:
    def run() -> None:
        _accel.speedups = _COMPILED if accel else None
        try:
            canonicalize_file(src, dst, jobs=1, report=CanonicalizeReport(max_examples=10**6),
                              **kwargs)
        finally:
            _accel.speedups = _COMPILED

    return run


def bench(name: str, src: Path, d: Path, repeat: int, pure: bool) -> None:
    n = src.read_bytes().count(b"\n")
    print(f"\n== {name}: {n:,} statements, {src.stat().st_size / 2**20:.1f} MiB")
    paths = [("C", True)] if _COMPILED is not None else []
    if pure or _COMPILED is None:
        paths.append(("py", False))
    for tag, accel in paths:
        jobs = {mode: _run(src, d / "out.nt", kw, accel) for mode, kw in MODES.items()}
        best = {mode: float("inf") for mode in jobs}
        for _ in range(repeat):
            for mode, fn in jobs.items():
                t = time.process_time()
                fn()
                best[mode] = min(best[mode], time.process_time() - t)
        off = best["off"]
        for mode, cpu in best.items():
            print(f"  [{tag}] {mode:<28} {cpu:7.3f} s CPU   ratio {cpu / off:5.2f}")


_CHILD = """
import sys, time
from urnld.report import CanonicalizeReport
from urnld.stream import canonicalize_file
t = time.process_time()
canonicalize_file(sys.argv[1], sys.argv[2], jobs=1, report=CanonicalizeReport(max_examples=10**6))
print(time.process_time() - t)
"""


def _child_cpu(src_dir: str, src: Path, dst: Path) -> float:
    env = {k: v for k, v in os.environ.items() if k != "URNLD_PURE_PYTHON"}
    env["PYTHONPATH"] = src_dir
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
    print(f"  modes off, CPU: this tree {best['this tree']:.3f} s, baseline "
          f"{best['baseline']:.3f} s: ratio {best['this tree'] / best['baseline']:.3f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--triples", type=int, default=200_000, help="statements per dump")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--pure", action="store_true", help="also time the pure-Python path")
    ap.add_argument("--dir", help="work directory (default: a temporary one)")
    ap.add_argument("--baseline-src", type=Path, help="another urnld tree to compare with")
    args = ap.parse_args()
    print("accelerator:", "compiled" if _COMPILED is not None else "not built (pure Python only)")
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        d = Path(tmp)
        for title, fname, make in (("catalog (bench/gen_dump.py)", "catalog.nt", catalog),
                                   ("locator-dense", "locators.nt", locator_dense)):
            src = d / fname
            make(src, args.triples)
            bench(title, src, d, args.repeat, args.pure)
            if args.baseline_src:
                bench_baseline(src, d, args.baseline_src, max(args.repeat, 5))
            src.unlink()


if __name__ == "__main__":
    main()
