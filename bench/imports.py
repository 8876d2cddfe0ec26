"""Benchmark: the cost of ``import urnld.stream`` (and ``import urnld``) vs ``import pyoxigraph``.

    python bench/imports.py --repeat 15

Each import runs in a fresh interpreter (``python -X importtime -c "import …"``), the
contenders interleaved; the cumulative time the interpreter reports for the module is kept,
best of ``--repeat`` (the least disturbed by other processes). urnld's bytecode is written
first, as ``pip install`` does.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

# As installed: PYTHONDONTWRITEBYTECODE (set in some CI images and shells) would make each run
# compile urnld's modules again and measure the compiler, not the import.
_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}

MODULES = ("urnld.stream", "urnld", "pyoxigraph")


def import_us(module: str) -> int:
    """Microseconds ``-X importtime`` reports for *module*, cumulative, in a fresh process."""
    proc = subprocess.run([sys.executable, "-X", "importtime", "-c", f"import {module}"],
                          capture_output=True, text=True, check=True, env=_ENV)
    for line in proc.stderr.splitlines():
        parts = [p.strip() for p in line.split("|")]
        if len(parts) == 3 and parts[2] == module:
            return int(parts[1])
    raise RuntimeError(f"no importtime line for {module}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=15)
    args = ap.parse_args()
    import urnld

    subprocess.run([sys.executable, "-m", "compileall", "-q", str(Path(urnld.__file__).parent)],
                   check=True, env=_ENV, stdout=subprocess.DEVNULL)
    best = {m: float("inf") for m in MODULES}
    for _ in range(args.repeat):
        for m in MODULES:
            best[m] = min(best[m], import_us(m))
    for m in MODULES:
        print(f"  import {m:<14} {best[m] / 1000:6.1f} ms")
    print(f"  ratio urnld.stream / pyoxigraph: {best['urnld.stream'] / best['pyoxigraph']:.1f}")


if __name__ == "__main__":
    main()
