"""Every subcommand on hostile inputs: a result, or exit 2 with one line naming the file.

No traceback, no foreign exception name, nothing written next to the input but the outputs
asked for. (Offline JSON-LD contexts and entity declarations in RDF/XML are tested with the RDF
reader.)
"""

from __future__ import annotations

import gzip
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from urnld.cli import main

GOOD = b'<urn:example:a> <http://e/p> "x" .\n<URN:EXAMPLE:a> <http://e/p> "y" .\n'

# name -> file content (None: create nothing, a directory: see _make)
INPUTS: dict[str, bytes | None] = {
    "missing.nt": None,
    "empty.nt": b"",
    "binary.nt": bytes(range(256)) * 4,
    "bad-utf8.nt": b'<urn:example:a> <http://e/p> "\xff\xfe" .\n',
    "nul.nt": b'<urn:example:a> <http://e/p> "a\x00b" .\n',
    "no-newline.nt": GOOD.rstrip(b"\n"),
    "deep.jsonld": b"[" * 50_000 + b"]" * 50_000,
    "binary.jsonld": bytes(range(256)),
    "empty.jsonld": b"",
    "binary.ttl": bytes(range(256)),
    "nul.ttl": b'<urn:a:b> <http://e/p> "\x00" .',
    "deep.json": b'{"a":' * 50_000 + b"1" + b"}" * 50_000,
    "binary.xml": bytes(range(256)),
    "empty.xml": b"",
}

COMMANDS: dict[str, Callable[[str, Path], list[str]]] = {
    "check": lambda f, d: ["check", f],
    "canonicalize": lambda f, d: ["canonicalize", f, "-o", str(d / "out.nq")],
    "canonicalize-rdfc": lambda f, d: ["canonicalize", f, "--rdfc", "-o", str(d / "out.nq")],
    "canonicalize-report": lambda f, d: [
        "canonicalize", f, "-o", str(d / "out.nq"), "--report", str(d / "r.json")
    ],
    "validate": lambda f, d: ["validate", f],
    "jsonld-expand": lambda f, d: ["jsonld", "expand", f, "-o", str(d / "out.json")],
    "jsonld-context": lambda f, d: ["jsonld", "context", f, "-o", str(d / "ctx.json")],
    "xmlns": lambda f, d: ["xmlns", f],
}


def _make(directory: Path, name: str) -> Path:
    path = directory / name
    content = INPUTS[name]
    if content is not None:
        path.write_bytes(content)
    return path


def _assert_one_clear_line(code: int, err: str, name: str) -> None:
    assert code in (0, 1, 2), code
    assert "Traceback" not in err
    if code == 2:
        lines = [line for line in err.splitlines() if line.startswith("urnld")]
        assert lines, err
        first = lines[0]
        assert "RecursionError" not in first and "EOFError" not in first, first
        assert "MemoryError" not in first and "UnicodeDecodeError" not in first, first
        assert "set URNLD_DEBUG" not in first, first  # an unexpected exception
        assert name in err, f"the message does not name {name}: {err}"


@pytest.mark.parametrize("name", list(INPUTS))
@pytest.mark.parametrize("command", list(COMMANDS))
def test_hostile_input(command: str, name: str, tmp_path: Path, capsys) -> None:
    path = _make(tmp_path, name)
    code = main(COMMANDS[command](str(path), tmp_path))
    err = capsys.readouterr().err
    _assert_one_clear_line(code, err, name)
    # Nothing but the asked-for outputs beside the input (no temp files left).
    left = {p.name for p in tmp_path.iterdir()} - {name}
    assert left <= {"out.nq", "r.json", "out.json", "ctx.json"}, left


def test_a_directory_as_input(tmp_path: Path, capsys) -> None:
    (tmp_path / "dir.nt").mkdir()
    for command in COMMANDS.values():
        code = main(command(str(tmp_path / "dir.nt"), tmp_path))
        err = capsys.readouterr().err
        assert code == 2
        _assert_one_clear_line(code, err, "dir.nt")


def test_dev_null_is_an_empty_input(tmp_path: Path, capsys) -> None:
    assert main(["check", "--input-format", "nt", os.devnull]) == 0
    out = str(tmp_path / "o.nt")
    assert main(["canonicalize", "--input-format", "nt", os.devnull, "-o", out]) == 0
    assert (tmp_path / "o.nt").read_bytes() == b""
    capsys.readouterr()


def test_deep_json_is_one_line(tmp_path: Path, capsys) -> None:
    for name in ("deep.jsonld", "deep.json"):
        path = _make(tmp_path, name)
        for args in (["jsonld", "expand", str(path)], ["jsonld", "context", str(path)]):
            assert main(args) == 2
            err = capsys.readouterr().err
            assert err.count("\n") == 1 and "nested too deeply" in err and name in err, err


def test_truncated_gzip_is_not_written_anywhere(tmp_path: Path) -> None:
    (tmp_path / "t.nt.gz").write_bytes(gzip.compress(GOOD * 200)[:60])
    assert main(["canonicalize", str(tmp_path / "t.nt.gz"), "-o", str(tmp_path / "o.nt")]) == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.nt.gz"]


@pytest.mark.parametrize(
    "args",
    [
        ["check", "--input-format", "nt", "/dev/zero"],
        ["canonicalize", "--input-format", "nt", "/dev/zero", "-o", "{d}/out.nt"],
        ["canonicalize", "--input-format", "nt", "/dev/zero", "--rdfc", "-o", "{d}/out.nq"],
        ["jsonld", "expand", "/dev/zero", "-o", "{d}/out.json"],
    ],
    ids=["check", "canonicalize", "rdfc", "jsonld"],
)
@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_an_endless_device_is_refused_at_a_limit(tmp_path: Path, capsys, args: list[str]) -> None:
    # One endless "line" of NUL bytes: refused at the line (or document) limit, not read until
    # memory runs out.
    code = main([a.format(d=tmp_path) for a in args])
    err = capsys.readouterr().err
    assert code == 2
    _assert_one_clear_line(code, err, "/dev/zero")
    assert "limit" in err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_input_is_read(tmp_path: Path, capsys) -> None:
    # Process substitution (`urnld check <(zcat dump.nt.gz)`) hands urnld a FIFO.
    import threading

    fifo = tmp_path / "in.nt"
    os.mkfifo(fifo)
    writer = threading.Thread(target=lambda: fifo.write_bytes(GOOD))
    writer.start()
    try:
        assert main(["canonicalize", str(fifo), "-o", str(tmp_path / "out.nt")]) == 0
    finally:
        writer.join(timeout=30)
    assert (tmp_path / "out.nt").read_bytes() == GOOD.replace(b"URN:EXAMPLE", b"urn:example")
    capsys.readouterr()
