"""Exact counts past every cap, on both code paths, with and without worker processes, with a
memory budget of a few keys so that every report spills sorted runs to disk: the figures and
the ``--findings`` list must equal an independent count of the spellings (``_independent``:
regular expressions and the URN core, no report involved)."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from urnld.cli import main

sys.path.insert(0, str(Path(__file__).parent))
from _independent import independent_counts

ROOT = Path(__file__).resolve().parents[2]


def _bench(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, ROOT / "bench" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def dumps(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """A catalog dump (N-Triples and N-Quads, ~2.5 MB: three 1 MiB chunks for the workers)
    and a URN-dense one."""
    root = tmp_path_factory.mktemp("exact")
    files = _bench("gen_dump").generate(root / "dump", triples=26_000, files=2, seed=3,
                                        quads_every=2)
    dense = root / "dense.nt"
    _bench("gen_dense").generate(dense, 9_000)
    return [*files, dense]


def _run(args: list[str], *, pure: bool, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    env.pop("URNLD_PURE_PYTHON", None)
    if pure:
        env["URNLD_PURE_PYTHON"] = "1"
    return subprocess.run([sys.executable, "-m", "urnld", *args], capture_output=True,
                          text=True, env=env, cwd=cwd, timeout=600, check=False)


def _findings(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


@pytest.mark.parametrize("pure", [False, True], ids=["accelerated", "pure-python"])
@pytest.mark.parametrize("jobs", [["-j", "1"], ["-j", "2"], []], ids=["j1", "j2", "default"])
def test_check_counts_equal_an_independent_count(dumps, tmp_path, pure, jobs) -> None:
    want = independent_counts(dumps)
    out = tmp_path / "f.jsonl"
    done = _run(["check", "--json", "--memory-budget", "2k", "--findings", str(out), *jobs,
                 *map(str, dumps)], pure=pure, cwd=tmp_path)
    assert done.returncode == 1, done.stderr  # the dumps hold invalid URNs on purpose
    d = json.loads(done.stdout)
    assert d["invalid"]["distinct"] == len(want["invalid"]) > 10
    assert d["non_canonical"]["distinct"] == len(want["non_canonical"]) > 1_000
    assert d["clusters"]["count"] == len(want["several"]) > 100
    sizes: dict[str, int] = {}
    for group in want["several"].values():
        sizes[str(len(group))] = sizes.get(str(len(group)), 0) + 1
    assert d["clusters"]["sizes"] == sizes
    # the list is complete: every spelling of the independent count, each once
    records = _findings(out)
    nonc = [r["urn"] for r in records if r["kind"] == "non-canonical"]
    assert sorted(nonc) == sorted(want["non_canonical"])
    invalid = [r for r in records if r["kind"] == "invalid-urn"]
    assert {r["urn"] for r in invalid} == want["invalid"]
    assert len(invalid) == d["invalid"]["occurrences"]  # one record per occurrence
    assert all(r["source"] in map(str, dumps) and r["line"] >= 1 for r in invalid)
    clusters = {r["canonical"]: set(r["spellings"]) for r in records if r["kind"] == "cluster"}
    assert clusters == want["several"]
    # nothing left in the working directory or beside the output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f.jsonl"]


def test_a_tiny_budget_changes_no_figure(dumps, tmp_path) -> None:
    args = ["check", "--json", *map(str, dumps)]
    small = _run([*args[:2], "--memory-budget", "0", *args[2:]], pure=False, cwd=tmp_path)
    big = _run([*args[:2], "--memory-budget", "1G", *args[2:]], pure=False, cwd=tmp_path)
    assert json.loads(small.stdout) == json.loads(big.stdout)


def _thirty_thousand(path: Path) -> Path:
    # the case of the report that once said "at least 10,000" and "an unknown number"
    with path.open("w", encoding="utf-8") as f:
        for n in range(30_000):
            f.write(f'<URN:EXAMPLE:item-{n}> <http://e/p> "x" .\n')
    return path


def test_thirty_thousand_spellings_in_words(tmp_path, capsys) -> None:
    src = _thirty_thousand(tmp_path / "s.nt")
    assert main(["check", "-q", "--memory-budget", "64k", str(src)]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == (
        "OK: 0 invalid URNs (0 occurrences); 30,000 valid URN spellings not in canonical "
        "form (30,000 occurrences, which canonicalize rewrites); 0 URNs spelled several ways"
    )
    assert main(["canonicalize", "--memory-budget", "64k", str(src), "-o",
                 str(tmp_path / "o.nt"), "--findings", str(tmp_path / "c.csv")]) == 0
    err = capsys.readouterr().err
    assert "merged 30,000 spellings into 30,000 canonical URNs (30,000 occurrences" in err
    lines = (tmp_path / "c.csv").read_text(encoding="utf-8").splitlines()
    assert sum(1 for line in lines if line.startswith("non-canonical,")) == 30_000
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.csv", "o.nt", "s.nt"]


def test_spill_files_are_gone_after_a_failure(tmp_path) -> None:
    # an unreadable second input: exit 2, and no run left beside the output
    src = _thirty_thousand(tmp_path / "s.nt")
    out = tmp_path / "out"
    out.mkdir()
    done = _run(["check", "--memory-budget", "0", "-o", str(out / "r.txt"), str(src),
                 str(tmp_path / "missing.nt")], pure=False, cwd=tmp_path)
    assert done.returncode == 2
    assert list(out.iterdir()) == []  # exit 2 writes no output file, and no run is left


def test_spill_files_are_gone_after_a_signal(tmp_path) -> None:
    import signal
    import time

    big = tmp_path / "big.nt"
    with big.open("w", encoding="utf-8") as f:
        for n in range(400_000):
            f.write(f"<URN:EXAMPLE:i-{n}> <http://e/p> <urn:example:i-{n}> .\n")
    out = tmp_path / "out"
    out.mkdir()
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    proc = subprocess.Popen(
        [sys.executable, "-m", "urnld", "check", "--memory-budget", "0", "-j", "2", "-o",
         str(out / "r.txt"), str(big)], env=env, cwd=tmp_path,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    time.sleep(3)
    proc.send_signal(signal.SIGTERM)
    proc.wait(timeout=60)
    time.sleep(0.5)  # the workers follow their parent
    assert [p.name for p in out.iterdir() if p.name != "r.txt"] == []
