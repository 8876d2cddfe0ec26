"""One guard for every file a run reads, and a run's outputs renamed together (issue 38).

* every file a run reads is compared with its outputs (device and inode): the data, the
  ``--catalog`` files, ``--gs1-prefix-lengths``, the project file read implicitly, and the file
  standard input is redirected from;
* a run that exits 2, or fails to write its last output (a full disk), replaces none of its
  outputs and leaves no partial file; the error names the file;
* the undo file is written a whole block at a time, and on a full disk leaves no file without
  a complete block;
* files read whole are regular files within a limit: FIFOs and devices are refused with one
  line naming the file, and never block.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from urnld.cli import main

REPO = Path(__file__).resolve().parents[2]
CATALOG_DIR = REPO / "examples" / "jsonld" / "catalog"
CREDENTIAL = REPO / "examples" / "jsonld" / "vc-credential.jsonld"
DATA = b'<URN:ISBN:0-395-36341-1> <http://e/p> "x" .\n<urn:isbn:12345> <http://e/p> "y" .\n'


@pytest.fixture
def work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "in.nt").write_bytes(DATA)
    shutil.copytree(CATALOG_DIR, tmp_path / "cat")
    shutil.copy(CREDENTIAL, tmp_path / "d.jsonld")
    (tmp_path / "lengths.json").write_text('{"4012345": 7}')
    return tmp_path


def _files(d: Path) -> dict[str, bytes]:
    return {str(p.relative_to(d)): p.read_bytes() for p in sorted(d.rglob("*")) if p.is_file()}


def _urnld(args: list[str], cwd: Path, **kw: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "urnld", *args], cwd=cwd, capture_output=True,
                          text=True, check=False, **kw)  # type: ignore[call-overload]


CATALOG_CASES = [
    ["jsonld", "expand", "d.jsonld", "--catalog", "cat", "-o", "cat/catalog.json"],
    ["jsonld", "expand", "d.jsonld", "--catalog", "cat", "-o", "cat/vc-context-v1.jsonld"],
    ["check", "d.jsonld", "--catalog", "cat", "--html", "cat/catalog.json"],
    ["canonicalize", "d.jsonld", "--catalog", "cat", "-o", "cat/catalog.json"],
    ["check", "in.nt", "--locators", "--gs1-prefix-lengths", "lengths.json", "-o",
     "lengths.json"],
    ["canonicalize", "in.nt", "--merge-locators", "--gs1-prefix-lengths", "lengths.json", "-o",
     "out.nt", "--report", "lengths.json"],
]


@pytest.mark.parametrize("args", CATALOG_CASES, ids=[" ".join(a) for a in CATALOG_CASES])
def test_catalogs_and_tables_are_inputs_too(work: Path, args: list[str], capsys) -> None:
    before = _files(work)
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "inputs are never modified" in err, err
    assert _files(work) == before


def test_the_project_file_read_implicitly_is_an_input(work: Path, capsys) -> None:
    # `urnld check keep.nt -o pyproject.toml` read its policy from it, then replaced it.
    (work / "pyproject.toml").write_text('[tool.urnld]\nprofiles = []\n')
    before = _files(work)
    assert main(["check", "in.nt", "-o", "pyproject.toml"]) == 2
    assert "inputs are never modified" in capsys.readouterr().err
    assert _files(work) == before
    # --no-config reads no project file: then it is an output like any other
    assert main(["check", "in.nt", "--no-config", "-o", "pyproject.toml"]) == 1
    assert (work / "pyproject.toml").read_text().startswith("ERRORS")


@pytest.mark.parametrize("args", [["check", "-", "-o", "in.nt"],
                                  ["canonicalize", "-", "-o", "in.nt"],
                                  ["validate", "-", "-o", "in.nt"],
                                  ["check", "-", "-o", "link.nt"]])
def test_the_file_stdin_is_redirected_from_is_an_input(work: Path, args: list[str]) -> None:
    os.symlink("in.nt", work / "link.nt")
    with open(work / "in.nt", "rb") as stdin:
        proc = _urnld(args, work, stdin=stdin)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.strip().endswith("is standard input (its file); inputs are never modified")
    assert proc.stderr.count("\n") == 1
    assert (work / "in.nt").read_bytes() == DATA
    # another file on stdin: the run goes on
    with open(work / "in.nt", "rb") as stdin:
        proc = _urnld([args[0], "-", "-o", "other.nt"], work, stdin=stdin)
    assert proc.returncode in (0, 1), proc.stderr


@pytest.mark.parametrize("option", ["--report", "--html", "--findings"])
def test_a_run_that_exits_2_replaces_no_output(work: Path, option: str, capsys) -> None:
    # docs/security.md: canonicalize IN -o OUT --report UNWRITABLE replaced OUT, then exited 2
    (work / "out.nt").write_bytes(b"old\n")
    code = main(["canonicalize", "in.nt", "-o", "out.nt", option, "no/such/dir/x", "-q"])
    assert code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no/such/dir" in err, err
    assert (work / "out.nt").read_bytes() == b"old\n"
    assert sorted(p.name for p in work.iterdir()) == sorted(
        ["in.nt", "out.nt", "cat", "d.jsonld", "lengths.json"])


def _limit_file_size(size: int) -> None:
    # A file may not grow past `size` bytes (EFBIG, as ENOSPC on a full disk: the write fails;
    # Python ignores SIGXFSZ): a full disk for every file the run writes.
    resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))


@pytest.mark.parametrize("option", ["--findings", "--html", "--report"])
def test_a_full_disk_on_any_output_replaces_nothing_and_leaves_nothing(
    work: Path, option: str
) -> None:
    big = work / "big.nt"
    big.write_bytes(DATA * 400)  # every output of it is past the limit below
    (work / "out.nt").write_bytes(b"old\n")
    name = {"--findings": "f.jsonl", "--html": "r.html", "--report": "r.json"}[option]
    before = sorted(p.name for p in work.iterdir())
    proc = _urnld(["canonicalize", "big.nt", "-o", "out.nt", option, name, "-q"], work,
                  preexec_fn=lambda: _limit_file_size(4096))
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    # the error names the file it could not write
    assert str(work / "out.nt") in proc.stderr or str(work / name) in proc.stderr, proc.stderr
    assert (work / "out.nt").read_bytes() == b"old\n"
    assert sorted(p.name for p in work.iterdir()) == before  # no 0-byte file, no temporary


def test_the_undo_file_holds_whole_blocks_on_a_full_disk(tmp_path: Path) -> None:
    # `--undo` on a full disk left a 0 B or 8 KiB undo file without a complete block.
    probe = """
import sys
from urnld.endpoint._undo import UndoWriter
path = sys.argv[1]
w = UndoWriter(path)
try:
    for _ in range(int(sys.argv[2])):
        w.begin("INSERT DATA { <urn:a:b> <urn:a:p> " + "x" * 3000 + " }")
        w.committed()
except OSError as e:
    print(e, file=sys.stderr)
    sys.exit(2)
"""
    def run(path: Path, blocks: int, limit: int) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-c", probe, str(path), str(blocks)],
                              capture_output=True, text=True, check=False,
                              preexec_fn=lambda: _limit_file_size(limit))

    new = tmp_path / "new.ru"
    proc = run(new, 1, 1000)  # the header fits, the first block does not
    assert proc.returncode == 2 and f"cannot write undo file {new}" in proc.stderr, proc.stderr
    assert not new.exists()  # nothing that reverts anything: no file
    kept = tmp_path / "kept.ru"
    assert run(kept, 1, 1 << 20).returncode == 0
    before = kept.read_bytes()
    proc = run(kept, 1, len(before) + 1000)  # an earlier run's block, then a full disk
    assert proc.returncode == 2 and str(kept) in proc.stderr
    assert kept.read_bytes() == before  # its complete blocks, nothing cut
    from urnld.endpoint._undo import blocks_of
    assert [b.number for b in blocks_of(before.decode())] == [1]


@pytest.mark.parametrize("kind", ["fifo", "device"])
def test_files_read_whole_are_regular_files(tmp_path: Path, kind: str) -> None:
    if kind == "fifo":
        special = tmp_path / "fifo"
        os.mkfifo(special)
    else:
        special = Path("/dev/zero")
    cases = [
        ["resolve", "urn:isbn:0395363411", "--resolvers", str(special)],
        ["undo", str(special), "--update-endpoint", "http://127.0.0.1:9/update"],
        # Port 9 (discard): the undo file is refused before any request
        ["canonicalize", "--endpoint", "http://127.0.0.1:9/sparql", "--undo", str(special)],
        ["check", "-", "--locators", "--gs1-prefix-lengths", str(special)],
        ["check", "-", "--config", str(special)],
    ]
    for args in cases:
        # A bounded wait for a refusal that takes milliseconds: a hang (a FIFO read, /dev/zero
        # read to its end) is the failure this catches.
        proc = _urnld(args, tmp_path, stdin=subprocess.DEVNULL, timeout=120)
        assert proc.returncode == 2, (args, proc.stderr)
        assert proc.stderr.count("\n") == 1 and str(special) in proc.stderr, (args, proc.stderr)


def test_a_resolver_table_not_in_utf8_is_named(tmp_path: Path) -> None:
    table = tmp_path / "t.toml"
    table.write_bytes(b'isbn = [{ template = "https://e/\xff{nss}" }]\n')
    proc = _urnld(["resolve", "urn:isbn:0395363411", "--resolvers", str(table)], tmp_path)
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and str(table) in proc.stderr and "UTF-8" in proc.stderr


def test_findings_are_complete_or_absent(work: Path) -> None:
    # the findings file is an output like the others: present and whole after a run
    assert main(["check", "in.nt", "--findings", "f.jsonl", "-q"]) == 1
    records = [json.loads(line) for line in (work / "f.jsonl").read_text().splitlines()]
    assert [r["urn"] for r in records if r["kind"] == "invalid-urn"] == ["urn:isbn:12345"]


@pytest.mark.parametrize("command", ["check", "canonicalize"])
def test_a_document_read_with_a_catalog_is_bounded(
    work: Path, command: str, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    # With --catalog a JSON-LD document was read whole, whatever its size (its contexts are
    # inlined in memory): now it is read up to the limit, and a larger one is refused with one
    # line naming the file. The limit is lowered here instead of writing 64 MiB.
    size = (work / "d.jsonld").stat().st_size
    monkeypatch.setattr("urnld.stream._syntaxes.MAX_ALGORITHM_BYTES", size)
    assert main([command, "d.jsonld", "--catalog", "cat", "-o", "out", "-q"]) in (0, 1)
    capsys.readouterr()
    monkeypatch.setattr("urnld.stream._syntaxes.MAX_ALGORITHM_BYTES", size - 1)
    before = _files(work)
    assert main([command, "d.jsonld", "--catalog", "cat", "-o", "out2", "-q"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "d.jsonld" in err and f"{size - 1:,} bytes" in err, err
    assert _files(work) == before


def test_fix_base_reads_a_bounded_document(
    work: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    # fix-base (which takes --catalog) read its input whole, whatever its size.
    size = (work / "d.jsonld").stat().st_size
    monkeypatch.setattr("urnld.cli._fix_base.MAX_FIX_BYTES", size - 1)
    before = _files(work)
    assert main(["fix-base", "d.jsonld", "--catalog", "cat", "-o", "fixed.jsonld"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "d.jsonld" in err and f"{size - 1:,} bytes" in err, err
    assert _files(work) == before
    monkeypatch.setattr("urnld.cli._fix_base.MAX_FIX_BYTES", size)
    assert main(["fix-base", "d.jsonld", "--catalog", "cat", "-o", "fixed.jsonld"]) in (0, 1)
