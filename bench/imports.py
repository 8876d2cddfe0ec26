"""Benchmark: the cost of ``import urnld.stream`` (and ``import urnld``) vs ``import pyoxigraph``.

    python bench/imports.py --repeat 15

Each import runs in a fresh interpreter (``python -X importtime -c "import …"``), the
contenders interleaved; the cumulative time the interpreter reports for the module is kept,
best of ``--repeat`` (the least disturbed by other processes).
"""

from __future__ import annotations

import argparse
import subprocess
import sys

MODULES = ("urnld.stream", "urnld", "pyoxigraph")


def import_us(module: str) -> int:
    """Microseconds ``-X importtime`` reports for *module*, cumulative, in a fresh process."""
    proc = subprocess.run([sys.executable, "-X", "importtime", "-c", f"import {module}"],
                          capture_output=True, text=True, check=True)
    for line in proc.stderr.splitlines():
        parts = [p.strip() for p in line.split("|")]
        if len(parts) == 3 and parts[2] == module:
            return int(parts[1])
    raise RuntimeError(f"no importtime line for {module}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=15)
    args = ap.parse_args()
    best = {m: float("inf") for m in MODULES}
    for _ in range(args.repeat):
        for m in MODULES:
            best[m] = min(best[m], import_us(m))
    for m in MODULES:
        print(f"  import {m:<14} {best[m] / 1000:6.1f} ms")
    print(f"  ratio urnld.stream / pyoxigraph: {best['urnld.stream'] / best['pyoxigraph']:.1f}")


if __name__ == "__main__":
    main()
