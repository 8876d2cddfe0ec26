"""Benchmark: ``urnld parse -`` as a whole command over a long list of URNs, text and --json.

    python bench/parse_stream.py                      # 1M URNs, best of 3 rounds
    python bench/parse_stream.py --n 200000 --rounds 1
    python bench/parse_stream.py --pure               # and the pure-Python path too

The list (one URN per line, written once to a temporary file) imitates what people pipe into
the command: URNs from bench/corpus.py (about 40 registered NIDs and random ones, case variants,
escapes, components, about 6% invalid), the identifiers of tests/namespaces/test_real_world.py
(published by GS1, the German National Library, IETF, …) and every spelling in
tests/data/nid_examples.jsonl (RFC examples, valid and invalid), in place of the corpus's lines
of NIDs whose NSS it writes as random text; plus typical breakage of pasted lists (a space or
quote inside, a trailing punctuation mark, a check digit mistyped), so that 10–20% of the lines
are invalid. The share of invalid lines is counted from the command's
own JSON output and printed.

Each contender runs as a subprocess, stdin from the list, stdout to a file:

* ``urnld parse -`` (text) and ``urnld parse --json -`` (JSON Lines);
* the floor: ``python -c`` reading the same lines and writing ``urnld.canonical(line)`` for
  each (what any script over the list costs at least: start-up, reading, one canonical form);
* with ``--pure``, both commands again with ``URNLD_PURE_PYTHON=1`` (the fallback without the
  compiled accelerator; the floor stays the accelerated one).

Figures are URNs per second of the child's CPU time (user + system: other processes on a shared
machine disturb it far less than elapsed time) and of elapsed time, best of N rounds, with the
ratio of each command's time to the floor's in the same run.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

import corpus  # noqa: E402  # bench/corpus.py, next to this script

REAL_WORLD = ROOT / "tests" / "namespaces" / "test_real_world.py"
FLOOR = (
    "import sys, urnld\n"
    "canonical, URNError = urnld.canonical, urnld.URNError\n"
    "out = []\n"
    "for raw in sys.stdin.buffer:\n"
    "    line = raw.decode('utf-8', 'surrogateescape').strip()\n"
    "    if line:\n"
    "        try:\n"
    "            out.append(canonical(line))\n"
    "        except URNError:\n"
    "            out.append('-')\n"
    "        if len(out) >= 512:\n"
    "            sys.stdout.write('\\n'.join(out) + '\\n'); out.clear()\n"
    "sys.stdout.write('\\n'.join(out) + '\\n' if out else '')\n"
)


def published() -> list[str]:
    """URNs that real data and the RFCs write: the real-world test tables and nid_examples."""
    found = re.findall(r"""["']((?:urn|URN):[^"'\s]+)["']""", REAL_WORLD.read_text("utf-8"))
    for line in (ROOT / "tests" / "data" / "nid_examples.jsonl").read_text("utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            found.append(row["urn"])
            found += row.get("equivalent_to", []) + row.get("not_equivalent_to", [])
    return found


def _broken(rng: random.Random, text: str) -> str:
    """A pasted-list mistake: a character that no URN holds, or a mistyped check digit."""
    kind = rng.randrange(5)
    if kind == 0:
        cut = rng.randrange(4, len(text))
        return text[:cut] + " " + text[cut:]
    if kind == 1:
        return text + rng.choice(".,;)>")  # the sentence or markup around it
    if kind == 2:
        return text + rng.choice(["%", "%2", "\u00a0x"])
    if kind == 3 and text[-1].isdigit():
        return text[:-1] + str((int(text[-1]) + 1) % 10)  # a check digit (where there is one)
    return rng.choice(['"', "<"]) + text + rng.choice(['"', ">"])  # quoted or bracketed


# NIDs whose NSS bench/corpus.py writes as random text, which their rules refuse (nearly all of
# them are invalid there): their lines are replaced by published identifiers.
RANDOM_NSS_NIDS = frozenset({
    "doi", "epc", "isan", "iso", "isni", "issn", "lei", "lex", "mpeg", "nbn", "nzl", "oasis",
    "ogc", "publicid", "uci", "xmpp",
})


def build(n: int, seed: int) -> list[str]:
    """*n* lines, a pure function of (n, seed) and the two tables."""
    rng = random.Random(seed)
    pool = published()
    out = []
    for made in corpus.build(n, seed):
        r = rng.random()
        nid = made.split(":")[1].lower() if made.count(":") > 1 else ""
        if r < 0.03 or nid in RANDOM_NSS_NIDS:
            out.append(rng.choice(pool))
        elif r < 0.08:
            out.append(_broken(rng, made))
        else:
            out.append(made)
    return out


def run(cmd: list[str], lines: Path, out: Path) -> tuple[float, float, int]:
    """(CPU seconds, elapsed seconds, exit status) of one run of *cmd*."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    with lines.open("rb") as stdin, out.open("wb") as stdout:
        status = subprocess.run(cmd, stdin=stdin, stdout=stdout, check=False).returncode
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, elapsed, status


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1_000_000, help="URNs (default 1000000)")
    parser.add_argument("--seed", type=int, default=8141)
    parser.add_argument("--rounds", type=int, default=3, help="best of N rounds (default 3)")
    parser.add_argument("--pure", action="store_true",
                        help="also run both commands on the pure-Python path")
    args = parser.parse_args()

    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT / "src"), env.get("PYTHONPATH")]))
    os.environ.update(env)
    py = sys.executable
    pure = ["env", "URNLD_PURE_PYTHON=1", py]
    contenders = {  # name: (command, its output file)
        "urnld parse - (text)": ([py, "-m", "urnld", "parse", "-"], "text.out"),
        "urnld parse --json -": ([py, "-m", "urnld", "parse", "--json", "-"], "json.out"),
        "floor: canonical() per line": ([py, "-c", FLOOR], "floor.out"),
    }
    if args.pure:
        contenders["pure Python: parse - (text)"] = ([*pure, "-m", "urnld", "parse", "-"],
                                                     "pure_text.out")
        contenders["pure Python: parse --json -"] = (
            [*pure, "-m", "urnld", "parse", "--json", "-"], "pure_json.out")
    with tempfile.TemporaryDirectory() as tmp:
        lines = Path(tmp) / "urns.txt"
        urns = build(args.n, args.seed)
        lines.write_text("\n".join(urns) + "\n", "utf-8", errors="surrogateescape")
        best: dict[str, tuple[float, float]] = {k: (float("inf"), float("inf")) for k in contenders}
        status: dict[str, int] = {}
        for _ in range(args.rounds):  # interleaved: a burst of load hits every contender alike
            for name, (cmd, out) in contenders.items():
                cpu, elapsed, status[name] = run(cmd, lines, Path(tmp) / out)
                best[name] = (min(best[name][0], cpu), min(best[name][1], elapsed))
        json_out = Path(tmp) / "json.out"
        invalid = sum(1 for line in json_out.open("rb") if b'"valid": false' in line)
        # Both paths write the same bytes (the differential tests check it line by line).
        same = {kind: (Path(tmp) / f"{kind}.out").read_bytes()
                == (Path(tmp) / f"pure_{kind}.out").read_bytes()
                for kind in ("text", "json") if args.pure}
        distinct = len(set(urns))
    print(f"{args.n:,} lines ({distinct:,} distinct, {invalid / args.n:.1%} invalid), "
          f"best of {args.rounds}")
    floor_cpu = best["floor: canonical() per line"][0]
    for name, (cpu, elapsed) in best.items():
        print(f"  {name:<30} {args.n / cpu:>10,.0f} URNs/s CPU ({cpu / floor_cpu:5.2f}× floor)"
              f"  {args.n / elapsed:>10,.0f} URNs/s elapsed  exit {status[name]}")
    for name in ("urnld parse - (text)", "urnld parse --json -"):
        rate = args.n / best[name][0]
        print(f"goal ≥ 200,000 URNs/s, {name}: {'met' if rate >= 200_000 else 'MISSED'}")
    for kind, equal in same.items():
        print(f"{kind} output, accelerated and pure Python: {'identical' if equal else 'DIFFERENT'}")


if __name__ == "__main__":
    main()
