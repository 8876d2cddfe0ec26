"""Outputs are ordinary files with ordinary permissions; FIFOs are written to, not replaced."""

from __future__ import annotations

import os
import stat
import threading
from pathlib import Path

import pytest

from urnld.cli import main

DATA = b'<URN:EXAMPLE:a> <http://e/p> "x" .\n'


@pytest.fixture
def umask_027():
    old = os.umask(0o027)
    try:
        yield
    finally:
        os.umask(old)


@pytest.mark.parametrize(
    "args",
    [["-j", "1"], ["-j", "2"], ["--rdfc"], ["--report", "{d}/r.json"], ["--format", "turtle"]],
    ids=["stream", "stream-j2", "rdfc", "report", "rdflib"],
)
def test_new_outputs_follow_the_umask(tmp_path: Path, umask_027, args: list[str]) -> None:
    (tmp_path / "in.nt").write_bytes(DATA)
    out = tmp_path / "out.nt"
    argv = ["canonicalize", str(tmp_path / "in.nt"), "-o", str(out)]
    argv += [a.format(d=tmp_path) for a in args]
    assert main(argv) == 0
    for path in [out, *([tmp_path / "r.json"] if "--report" in args else [])]:
        assert stat.S_IMODE(path.stat().st_mode) == 0o640, path  # 0666 & ~027


def test_a_replaced_output_keeps_its_mode(tmp_path: Path) -> None:
    (tmp_path / "in.nt").write_bytes(DATA)
    out = tmp_path / "out.nt"
    out.write_bytes(b"old")
    out.chmod(0o604)
    assert main(["canonicalize", str(tmp_path / "in.nt"), "-o", str(out)]) == 0
    assert stat.S_IMODE(out.stat().st_mode) == 0o604
    assert out.read_bytes() == b'<urn:example:a> <http://e/p> "x" .\n'


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_output_is_written_to_not_replaced(tmp_path: Path) -> None:
    (tmp_path / "in.nt").write_bytes(DATA)
    fifo = tmp_path / "out.nt"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    try:
        assert main(["canonicalize", str(tmp_path / "in.nt"), "-o", str(fifo)]) == 0
    finally:
        reader.join(timeout=30)
    assert got == [b'<urn:example:a> <http://e/p> "x" .\n']
    assert stat.S_ISFIFO(fifo.stat().st_mode)


def test_triples_written_as_quads_go_to_the_default_graph(tmp_path: Path) -> None:
    # rdflib raised "NQuads serialization only makes sense for context-aware stores!".
    (tmp_path / "in.ttl").write_text('<URN:EXAMPLE:a> <http://e/p> "x" .\n')
    assert main(["canonicalize", str(tmp_path / "in.ttl"), "-o", str(tmp_path / "out.nq")]) == 0
    assert (tmp_path / "out.nq").read_text().split() == ["<urn:example:a>", "<http://e/p>",
                                                         '"x"', "."]
