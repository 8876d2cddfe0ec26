"""Hostile documents in the streamed syntaxes (Turtle, TriG, N3, RDF/XML, JSON-LD): one clear
error line, exit 2, bounded memory, no output left behind.

Each command runs in its own process so that its peak memory can be read (``os.wait4``); the
bound is a fraction of what the document expands to, so holding it whole would fail.
"""

from __future__ import annotations

import gzip
import os
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MB = 1 << 20
# What each hostile document expands to: far past any limit, and past the memory bound.
EXPANDS_TO = 256 * MB
# Peak memory allowed (KiB, as ru_maxrss counts on Linux): the interpreter, urnld, pyoxigraph,
# and a bounded buffer: well under what the document expands to.
MAX_RSS_KIB = 200 * 1024


def _gz(path: Path, head: bytes, body: bytes, size: int, tail: bytes = b"") -> Path:
    """A gzip file of *head*, *body* repeated to *size* bytes, *tail* (a few hundred KiB)."""
    with gzip.open(path, "wb", compresslevel=1) as f:
        f.write(head)
        block = body * (MB // len(body))
        for _ in range(size // len(block)):
            f.write(block)
        f.write(tail)
    return path


# Runs the command and prints the peak memory of it and its children. A small process starts
# it: a child forked from the test process (hundreds of MiB by now) would count its parent's
# pages in its own peak until it execs.
_MEASURE = (
    "import resource, subprocess, sys; "
    "code = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL).returncode; "
    "print(code, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
)


def _run(argv: Iterable[str]) -> tuple[int, str, int]:
    """Exit status, stderr and peak memory (KiB) of ``urnld *argv*`` in a new process."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    done = subprocess.run(
        [sys.executable, "-c", _MEASURE, sys.executable, "-m", "urnld", *argv],
        capture_output=True, env=env, check=True,
    )
    code, rss = map(int, done.stdout.split())
    return code, done.stderr.decode("utf-8", "replace"), rss


XML_HEAD = (b'<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" '
            b'xmlns:e="http://e/"><rdf:Description rdf:about="urn:example:a" e:p="')

# name -> (file name, head, repeated body, tail, words the error must contain)
CASES = {
    "huge-line": ("line.ttl.gz", b'<urn:example:a> <http://e/p> "', b"x", b'" .\n',
                  "too long"),
    "unterminated-long-string": ("string.ttl.gz", b'<urn:example:a> <http://e/p> """', b"ab",
                                 b"", "too long"),
    "huge-trig-iri": ("iri.trig.gz", b"<urn:example:g> { <urn:example:", b"a", b"> <p> 1 . }",
                      "too long"),
    "huge-json-string": ("s.jsonld.gz", b'{"@id": "urn:example:a", "http://e/p": "', b"y",
                         b'"}', "too long"),
    "deep-json": ("deep.jsonld.gz", b"", b'{"http://e/p":', b"", "nested too deeply"),
    "deep-json-arrays": ("arr.jsonld.gz", b'{"@id": "urn:example:a", "http://e/p": ', b"[",
                         b"", "nested too deeply"),
    "huge-xml-attribute": ("attr.rdf.gz", XML_HEAD, b"z", b'"/></rdf:RDF>', "without markup"),
    "huge-xml-text": ("text.rdf.gz", XML_HEAD[:-7] + b"><e:p>", b"t", b"</e:p>", "without markup"),
    # pyoxigraph's RDF/XML time grows faster than the square of the depth.
    "deep-xml": ("deep.rdf.gz", XML_HEAD[:-6] + b">", b"<e:p><rdf:Description>", b"",
                 "nested too deeply"),
}


@pytest.mark.parametrize("command", ["check", "canonicalize"])
@pytest.mark.parametrize("case", list(CASES))
def test_hostile_document(tmp_path: Path, case: str, command: str) -> None:
    name, head, body, tail, words = CASES[case]
    src = _gz(tmp_path / name, head, body, EXPANDS_TO, tail)
    out = tmp_path / ("out" + name.split(".", 1)[1].removesuffix(".gz"))
    argv = ["check", str(src)] if command == "check" else [
        "canonicalize", str(src), "-o", str(out)]
    code, err, rss = _run(argv)
    assert code == 2, err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith(f"urnld {command}: error: {src}"), err
    assert words in lines[0], err
    assert "Traceback" not in err
    assert rss < MAX_RSS_KIB, f"peak memory {rss // 1024} MiB"
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]


def test_truncated_gzip_is_one_line(tmp_path: Path) -> None:
    src = tmp_path / "cut.ttl.gz"
    whole = gzip.compress(b'<urn:example:a> <http://e/p> "x" .\n' * 100_000)
    src.write_bytes(whole[: len(whole) // 2])
    code, err, _ = _run(["canonicalize", str(src), "-o", str(tmp_path / "o.ttl")])
    assert code == 2 and err.count("\n") == 1, err
    assert "truncated or corrupt gzip data" in err and str(src) in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cut.ttl.gz"]


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_entity_declarations_refused_before_expansion(tmp_path: Path, jobs: str) -> None:
    # The "billion laughs": pyoxigraph would expand it; the scan refuses it first.
    lol = b"".join(b'<!ENTITY l%d "&l%d;&l%d;&l%d;&l%d;&l%d;&l%d;&l%d;&l%d;&l%d;&l%d;">'
                   % (i, *(i - 1,) * 10) for i in range(1, 10))
    src = tmp_path / "lol.rdf"
    src.write_bytes(b'<?xml version="1.0"?><!DOCTYPE r [<!ENTITY l0 "lol">' + lol + b"]>"
                    + XML_HEAD + b'&l9;"/></rdf:RDF>')
    code, err, rss = _run(["canonicalize", str(src), "-o", str(tmp_path / "o.nt"), "-j", jobs])
    assert code == 2 and "entity declarations are refused in RDF/XML" in err, err
    assert rss < MAX_RSS_KIB
    assert sorted(p.name for p in tmp_path.iterdir()) == ["lol.rdf"]
