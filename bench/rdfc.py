"""Benchmark: ``urnld canonicalize --rdfc`` against pyoxigraph's own RDFC-1.0, time and memory.

    python bench/rdfc.py                    # a ~25 MB catalog dump (280k triples)
    python bench/rdfc.py --triples 1000000  # larger
    python bench/rdfc.py --lists 250 500 1000 2000   # RDF lists of equal values instead

Each side runs in its own child process, alternately, ``--repeat`` times (best time kept), so
peak memory (``VmHWM``, Linux) is that side's alone:

* pyoxigraph — parse the N-Triples file into a ``Dataset``, ``Dataset.canonicalize(RDFC_1_0)``,
  serialize N-Quads to a file (no URN work, no sorting: the least any RDFC-1.0 run can do);
* urnld — ``urnld canonicalize dump.nt --rdfc -o out.nq``: the URN pass, RDFC-1.0 and the
  sorted canonical N-Quads.

The dump is ``bench/canonicalize.py``'s catalog (blank-node publishers, URN spellings, literals
with escapes). A second row runs the dump with every blank node replaced by an IRI (the path
that sorts in runs and can spill to disk). Ratios (urnld / pyoxigraph) are printed; the target
is <= 1.2 for time and memory.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
# The same catalog as the streaming benchmark.
from canonicalize import generate

_PEAK = """
with open("/proc/self/status") as f:
    print(next(line.split()[1] for line in f if line.startswith("VmHWM:")))
"""

_PYOX = """
import sys, time
import pyoxigraph as ox
t = time.perf_counter()
with open(sys.argv[1], "rb") as f:
    ds = ox.Dataset(ox.parse(f, format=ox.RdfFormat.N_TRIPLES))
ds.canonicalize(ox.CanonicalizationAlgorithm.RDFC_1_0)
with open(sys.argv[2], "wb") as o:
    ox.serialize(ds, o, format=ox.RdfFormat.N_QUADS)
print(time.perf_counter() - t)
""" + _PEAK

_URNLD = """
import sys, time
t = time.perf_counter()
from urnld.cli import main
code = main(["canonicalize", sys.argv[1], "--rdfc", "-o", sys.argv[2]])
assert code == 0, code
print(time.perf_counter() - t)
""" + _PEAK


def _run(
    script: str, src: Path, dst: Path, timeout: float | None = None
) -> tuple[float, float]:
    """(seconds, peak RSS MiB) of ``script`` in a child process."""
    proc = subprocess.run([sys.executable, "-c", script, str(src), str(dst)],
                          capture_output=True, text=True, check=False, timeout=timeout)
    if proc.returncode != 0:
        raise SystemExit(proc.stderr.strip())
    secs, kib = proc.stdout.split()[-2:]
    return float(secs), int(kib) / 1024


def _compare(label: str, src: Path, d: Path, repeat: int) -> None:
    best = {"pyoxigraph": (float("inf"), 0.0), "urnld": (float("inf"), 0.0)}
    for _ in range(repeat):
        for name, script in (("pyoxigraph", _PYOX), ("urnld", _URNLD)):
            secs, mib = _run(script, src, d / f"{name}.nq")
            best[name] = (min(best[name][0], secs), max(best[name][1], mib))
    (t_ox, m_ox), (t_u, m_u) = best["pyoxigraph"], best["urnld"]
    print(f"{label}:")
    print(f"  pyoxigraph Dataset.canonicalize: {t_ox:6.2f} s, peak RSS {m_ox:7.1f} MiB")
    print(f"  urnld canonicalize --rdfc:       {t_u:6.2f} s, peak RSS {m_u:7.1f} MiB")
    print(f"  ratio urnld / pyoxigraph: time {t_u / t_ox:.2f}, memory {m_u / m_ox:.2f}"
          "  (target <= 1.2)")


def _equal_list(path: Path, n: int) -> None:
    rdf = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
    with path.open("w") as f:
        f.write("<http://example.org/s> <http://example.org/items> _:b0 .\n")
        for i in range(n):
            nxt = f"_:b{i + 1}" if i + 1 < n else f"<{rdf}nil>"
            f.write(f'_:b{i} <{rdf}first> "x" .\n_:b{i} <{rdf}rest> {nxt} .\n')


def _lists(lengths: list[int], d: Path, timeout: float) -> None:
    print(f"RDF lists of equal values (one run a side, stopped past {timeout:g} s):")
    print(f"  {'items':>6} {'pyoxigraph':>12} {'urnld':>12}  ratio")
    for n in lengths:
        src = d / f"list{n}.nt"
        _equal_list(src, n)
        got = {}
        for name, script in (("pyoxigraph", _PYOX), ("urnld", _URNLD)):
            try:
                got[name] = _run(script, src, d / f"{name}.nq", timeout)[0]
            except subprocess.TimeoutExpired:
                got[name] = None
        ox_s, u_s = got["pyoxigraph"], got["urnld"]
        shown = [f"{v:10.2f} s" if v is not None else f"  > {timeout:g} s".rjust(12)
                 for v in (ox_s, u_s)]
        ratio = (f"{u_s / ox_s:.2f}" if ox_s is not None and u_s is not None
                 else "-" if u_s is None else f"< {u_s / timeout:.2f}")
        print(f"  {n:>6} {shown[0]} {shown[1]}  {ratio}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--triples", type=int, default=280_000)
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--dir", help="work directory (default: a temporary one)")
    ap.add_argument("--lists", type=int, nargs="+", metavar="N",
                    help="time RDF lists of N equal values instead of the catalog dump")
    ap.add_argument("--timeout", type=float, default=120.0,
                    help="with --lists: stop a side after this many seconds (default 120)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        d = Path(tmp)
        if args.lists:
            _lists(args.lists, d, args.timeout)
            return
        src = d / "dump.nt"
        generate(src, args.triples)
        print(f"input: {args.triples:,} triples, {src.stat().st_size / 2**20:.1f} MiB")
        _compare("catalog dump (blank-node publishers)", src, d, args.repeat)
        ground = d / "ground.nt"
        ground.write_bytes(re.sub(rb"_:pub(\d+)", rb"<http://example.org/pub/\1>",
                                  src.read_bytes()))
        _compare("the same dump without blank nodes", ground, d, args.repeat)


if __name__ == "__main__":
    main()
