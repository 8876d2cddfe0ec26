"""Start-up of the everyday commands, as whole processes, beside the interpreter's own start.

    python bench/startup.py [--runs 15]

Runs each command as a user runs it (a fresh process through the installed ``urnld`` script,
urnld's bytecode written first as ``pip install`` does),
alternating with the baseline ``python -c pass`` so that a drifting machine hits both alike,
and prints the median wall time of each, the command's time over the baseline's, and what
the command adds to it. The commands: ``urnld parse URN``, ``urnld check one.nt``,
``urnld canonicalize one.nt -o out.nt`` (a one-statement file: the work is nothing, the
start-up everything), and, for scale, ``rdfpipe`` (rdflib's command) on the same file.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# As installed: pip writes every module's bytecode, so a user's command never compiles source.
# PYTHONDONTWRITEBYTECODE (set in some CI images and shells) would make each run compile
# urnld's modules again and measure the compiler, not the start-up.
_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def _wall(argv: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False,
                   env=_ENV)
    return time.perf_counter() - start


def _compile_bytecode() -> None:
    """Write the bytecode of urnld's modules, as ``pip install`` does."""
    import urnld

    subprocess.run([sys.executable, "-m", "compileall", "-q", str(Path(urnld.__file__).parent)],
                   check=True, env=_ENV, stdout=subprocess.DEVNULL)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=15)
    args = ap.parse_args()
    bindir = Path(sys.executable).parent
    urnld = str(bindir / "urnld") if (bindir / "urnld").exists() else shutil.which("urnld")
    if urnld is None:
        sys.exit("bench/startup.py: the urnld command is not installed in this environment")
    _compile_bytecode()
    work = Path(tempfile.mkdtemp(prefix="urnld-startup-"))
    one = work / "one.nt"
    one.write_text('<URN:ISBN:0-395-36341-1> <http://purl.org/dc/terms/title> "T" .\n')
    commands = {
        "urnld parse URN": [urnld, "parse", "URN:ISBN:0-395-36341-1"],
        "urnld check one.nt": [urnld, "check", str(one)],
        "urnld canonicalize one.nt": [urnld, "canonicalize", str(one), "-o",
                                      str(work / "out.nt")],
        "import urnld (python -c)": [sys.executable, "-c", "import urnld"],
    }
    rdfpipe = bindir / "rdfpipe"
    if rdfpipe.exists():
        commands["rdfpipe one.nt (rdflib)"] = [str(rdfpipe), "-o", "nt", str(one)]
    baseline = [sys.executable, "-c", "pass"]
    env_note = "with the accelerator" if not os.environ.get("URNLD_PURE_PYTHON") else "pure Python"
    print(f"whole commands, {args.runs} runs each, alternating with `python -c pass` ({env_note})")
    print(f"{'command':<30} {'median s':>9} {'baseline s':>11} {'ratio':>7} {'adds s':>8}")
    for name, argv in commands.items():
        _wall(argv)  # warm the file cache
        ours, base = [], []
        for _ in range(args.runs):
            ours.append(_wall(argv))
            base.append(_wall(baseline))
        m, b = statistics.median(ours), statistics.median(base)
        print(f"{name:<30} {m:>9.3f} {b:>11.3f} {m / b:>6.1f}x {m - b:>8.3f}")
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
