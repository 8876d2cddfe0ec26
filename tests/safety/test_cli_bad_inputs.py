"""The reliability harness: every command on a table of bad inputs.

For each (command, input): exit 2, or 0/1 where the input is just data with findings; on exit 2
exactly one line on stderr, naming the file; never a traceback; no temporary file left beside
the input or the outputs; and on exit 2, no output file created. The commands run in-process
(``main()``), a few as real processes (``test_spot_checks_in_a_real_process``).
(``test_cli_hostile.py`` covers more syntaxes per command; this table covers more kinds of bad.)
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from urnld.cli import main
from urnld.stream import MAX_LINE_BYTES

# command name -> (input suffix, argv given the input and the output directory)
COMMANDS: dict[str, tuple[str, Callable[[str, Path], list[str]]]] = {
    "check": (".nt", lambda f, o: ["check", f, "-o", str(o / "r.txt"), "--html",
                                   str(o / "r.html")]),
    "canonicalize": (".nt", lambda f, o: ["canonicalize", f, "-o", str(o / "out.nt"),
                                          "--report", str(o / "r.json"), "--html",
                                          str(o / "r.html")]),
    "canonicalize-ttl": (".ttl", lambda f, o: ["canonicalize", f, "-o", str(o / "out.ttl")]),
    "canonicalize-rdfc": (".nt", lambda f, o: ["canonicalize", f, "--rdfc", "-o",
                                               str(o / "out.nq")]),
    "validate": (".ttl", lambda f, o: ["validate", f, "-o", str(o / "v.txt"), "--html",
                                       str(o / "v.html")]),
    "xmlns": (".xml", lambda f, o: ["xmlns", f, "-o", str(o / "x.txt"), "--html",
                                    str(o / "x.html")]),
    "jsonld-expand": (".jsonld", lambda f, o: ["jsonld", "expand", f, "-o",
                                               str(o / "out.json")]),
    "jsonld-context": (".ttl", lambda f, o: ["jsonld", "context", f, "-o", str(o / "c.json")]),
    "fix-base": (".ttl", lambda f, o: ["fix-base", f, "-o", str(o / "fixed.ttl")]),
}


def _deep(suffix: str) -> bytes:
    n = 100_000
    if suffix in (".jsonld", ".json"):
        return b"[" * n + b"]" * n
    if suffix == ".xml":
        return b"<a>" * n + b"</a>" * n
    # Turtle (and, for the line formats, a line that is no statement)
    return b"<urn:example:s> <http://e/p> " + b"[ <http://e/p> " * n + b"]" * n + b" .\n"


# kind -> content for a suffix; None: made by _make
BAD: dict[str, Callable[[str], bytes] | None] = {
    "empty": lambda s: b"",
    "binary": lambda s: bytes(range(256)) * 16,
    "nul": lambda s: b'<urn:example:a> <http://e/p> "a\x00b" .\n' if s != ".xml"
    else b'<r xmlns="urn:example:a\x00"/>',
    "bad-utf8": lambda s: b'<urn:example:a> <http://e/p> "\xff\xfe" .\n' if s != ".xml"
    else b'<r xmlns="urn:example:\xff"/>',
    "deep": _deep,
    "huge-line": None,
    "directory": None,
    "missing": None,
    "fifo": None,
    "unreadable": None,
}

# Kinds that are plain data for some readers (an empty file is an empty graph): 0 or 1 is fine.
# A giant line is refused by the line readers, but a Turtle literal may be that long.
MAY_SUCCEED = {"empty", "nul", "bad-utf8", "fifo", "deep", "huge-line"}


@pytest.fixture(scope="module")
def huge_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One file per suffix, each one line just over the streaming reader's limit."""
    d = tmp_path_factory.mktemp("huge")
    for suffix in {s for s, _ in COMMANDS.values()}:
        with (d / f"huge-line{suffix}").open("wb") as f:
            f.write(b'<urn:example:a> <http://e/p> "')
            f.write(b"x" * (MAX_LINE_BYTES + 1))
            f.write(b'" .\n')
    return d


@contextlib.contextmanager
def _fifo_writer(path: Path, content: bytes, seconds: float = 30) -> Iterator[None]:
    """Feed *content* to each reader that opens the FIFO *path*, until the block ends."""
    os.mkfifo(path)
    stop = threading.Event()

    def serve() -> None:
        deadline = time.monotonic() + seconds
        while not stop.is_set() and time.monotonic() < deadline:
            try:
                fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
            except OSError:  # ENXIO: no reader yet
                time.sleep(0.005)
                continue
            try:
                os.set_blocking(fd, True)
                with contextlib.suppress(BrokenPipeError):
                    os.write(fd, content)
            finally:
                os.close(fd)
            time.sleep(0.05)  # the reader sees end-of-file before a new writer opens

    writer = threading.Thread(target=serve, daemon=True)
    writer.start()
    try:
        yield
    finally:
        stop.set()
        writer.join(timeout=5)


AS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0


@contextlib.contextmanager
def _unreadable(path: Path) -> Iterator[None]:
    """*path* cannot be read: mode 000, and for root (who reads anything) an effective uid
    that is not root while the block runs (the command must have run once before, as root:
    the other user cannot import modules from root's interpreter)."""
    path.write_bytes(b'<urn:example:a> <http://e/p> "x" .\n')
    modes: dict[Path, int] = {}
    if AS_ROOT:
        # The other user must reach the file and write the outputs (so that what fails is the
        # input): directories up to the temporary root opened for the time of the block.
        work = path.parent
        for d in [work, work.parent, *work.parent.iterdir(), *work.parent.parents]:
            if d.is_dir() and str(d).startswith(str(Path(tempfile.gettempdir()))) and d != Path(
                tempfile.gettempdir()
            ):
                modes.setdefault(d, d.stat().st_mode & 0o7777)
                d.chmod(0o777)
    path.chmod(0)
    if AS_ROOT:
        os.seteuid(65534)
    try:
        yield
    finally:
        if AS_ROOT:
            os.seteuid(0)
        path.chmod(0o600)
        for d, mode in modes.items():
            d.chmod(mode)


GOOD = {
    ".xml": b'<r xmlns="urn:example:ns"/>',
    ".jsonld": b'{"@id": "urn:example:a", "http://e/p": "x"}',
}


def _make(kind: str, suffix: str, work: Path, huge_dir: Path) -> tuple[Path, Callable[[], Any]]:
    path = work / f"{kind}{suffix}"
    content = BAD[kind]
    if content is not None:
        path.write_bytes(content(suffix))
    elif kind == "huge-line":
        path = huge_dir / f"huge-line{suffix}"
    elif kind == "directory":
        path.mkdir()
    elif kind == "fifo":
        return path, lambda: _fifo_writer(path, bytes(range(256)) * 4)
    elif kind == "unreadable":
        return path, lambda: _unreadable(path)
    return path, contextlib.nullcontext


def _leftovers(*dirs: Path) -> list[str]:
    return [p.name for d in dirs for p in d.iterdir()
            if p.name.startswith(".urnld-") or ".urnld-tmp-" in p.name]


def _check_outcome(code: int, err: str, name: str, out_dir: Path, kind: str) -> None:
    assert "Traceback" not in err, err
    assert code in ((0, 1, 2) if kind in MAY_SUCCEED else (1, 2)), (code, err)
    if code == 2:
        lines = err.strip().splitlines()
        assert len(lines) == 1, err
        assert lines[0].startswith("urnld ") and ": error: " in lines[0], lines[0]
        assert "set URNLD_DEBUG" not in lines[0], lines[0]  # not an unexpected exception
        assert name in lines[0], f"the message does not name {name}: {lines[0]}"
        assert list(out_dir.iterdir()) == [], "an output was written on exit 2"


# Unsupported pairs: none. Every command meets every kind of bad input.
CASES = [(c, k) for c in COMMANDS for k in BAD]
# Turtle parsers recurse on nested blank nodes: rdflib's depth is refused, not crashed on.


@pytest.mark.parametrize(("command", "kind"), CASES, ids=[f"{c}-{k}" for c, k in CASES])
def test_bad_input(
    command: str, kind: str, tmp_path: Path, huge_dir: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    suffix, argv = COMMANDS[command]
    work = tmp_path / "in"
    out_dir = tmp_path / "out"
    work.mkdir()
    out_dir.mkdir()
    if kind == "unreadable" and AS_ROOT:
        # The same command on a good file first, its output thrown away: see _unreadable.
        good = tmp_path / f"good{suffix}"
        good.write_bytes(GOOD.get(suffix, b'<urn:example:a> <http://e/p> "x" .\n'))
        scratch = tmp_path / "scratch"
        scratch.mkdir()
        main(argv(str(good), scratch))
        shutil.rmtree(scratch)
        good.unlink()
    path, around = _make(kind, suffix, work, huge_dir)
    capsys.readouterr()
    with around():
        code = main(argv(str(path), out_dir))
    err = capsys.readouterr().err
    _check_outcome(code, err, path.name, out_dir, kind)
    assert _leftovers(work, out_dir, huge_dir) == []


SPOT_CHECKS = [("check", "binary"), ("canonicalize", "huge-line"), ("validate", "binary"),
               ("jsonld-expand", "deep"), ("xmlns", "missing")]


@pytest.mark.parametrize(("command", "kind"), SPOT_CHECKS,
                         ids=[f"{c}-{k}" for c, k in SPOT_CHECKS])
def test_spot_checks_in_a_real_process(
    command: str, kind: str, tmp_path: Path, huge_dir: Path
) -> None:
    suffix, argv = COMMANDS[command]
    work = tmp_path / "in"
    out_dir = tmp_path / "out"
    work.mkdir()
    out_dir.mkdir()
    path, around = _make(kind, suffix, work, huge_dir)
    src = str(Path(__file__).resolve().parents[2] / "src")
    env = {**os.environ, "PYTHONPATH": src + os.pathsep + os.environ.get("PYTHONPATH", "")}
    with around():
        done = subprocess.run(
            [sys.executable, "-m", "urnld", *argv(str(path), out_dir)],
            capture_output=True, text=True, timeout=300, check=False, env=env,
        )
    _check_outcome(done.returncode, done.stderr, path.name, out_dir, kind)
    assert _leftovers(work, out_dir, huge_dir) == []
