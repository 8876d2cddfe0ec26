"""Deep nesting in the in-memory reader (``urnld validate``, ``urnld.read``, the URN store's
parse): a million nested collections, blank-node property lists or RDF/XML elements give one
error line and exit 2, in seconds and bounded memory.

What the parsers do unguarded, measured with pyoxigraph 0.5.13: a million unterminated ``(``
(1 MB of Turtle) cost 357 MiB before the parser finds the end; a million nested ``[`` are read
(576 MiB); RDF/XML takes time that grows faster than the square of the depth (10,000 nested
elements 1.2 s, 20,000 7 s, a million: hours). rdflib's N3 parser recurses per level.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from rdflib import Graph

from urnld.read import ReadError, read

ROOT = Path(__file__).resolve().parents[2]
LEVELS = 1_000_000
# Peak memory allowed (KiB, as ru_maxrss counts): the interpreter with rdflib, pyshacl and
# pyoxigraph loaded, and the document itself; far below what the parsers take unguarded. The
# refusal measures 299–301 MiB through validate's plan or pyshacl (the compiled plan adds
# about 2 MiB): the bound keeps a few MiB of room above that, not hundreds.
MAX_RSS_KIB = 310 * 1024

XML_OPEN = (b'<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" '
            b'xmlns:e="http://e/"><rdf:Description rdf:about="urn:example:a">')
DOCS = {
    # name: (file name, document)
    "open-collections": ("c.ttl", b"<urn:example:a> <http://e/p> " + b"(" * LEVELS),
    "closed-collections": ("cc.ttl", b"<urn:example:a> <http://e/p> " + b"(" * LEVELS + b"1"
                           + b")" * LEVELS + b" ."),
    "blank-node-lists": ("b.trig", b"{ <urn:example:a> <http://e/p> "
                         + b"[ <http://e/p> " * LEVELS + b"1" + b" ]" * LEVELS + b" . }"),
    "rdfxml-elements": ("x.rdf", XML_OPEN + b"<e:p><rdf:Description>" * LEVELS),
    "n3-collections": ("n.n3", b"<urn:example:a> <http://e/p> " + b"(" * LEVELS + b"1"
                       + b")" * LEVELS + b" ."),
}

# Runs the command and prints its peak memory; a small process starts it, so that the test
# process's own pages are not counted.
_MEASURE = (
    "import resource, subprocess, sys; "
    "code = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL).returncode; "
    "print(code, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
)


@pytest.mark.parametrize("case", sorted(DOCS))
def test_validate_refuses_deep_nesting_in_one_line(tmp_path: Path, case: str) -> None:
    name, doc = DOCS[case]
    path = tmp_path / name
    path.write_bytes(doc)
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    done = subprocess.run(
        [sys.executable, "-c", _MEASURE, sys.executable, "-m", "urnld", "validate", str(path)],
        capture_output=True, env=env, check=True, timeout=120,
    )
    code, rss = map(int, done.stdout.split())
    lines = done.stderr.decode("utf-8", "replace").splitlines()
    assert code == 2, lines
    assert len(lines) == 1 and "nested too deeply" in lines[0], lines
    assert lines[0].startswith(f"urnld validate: error: {path}")
    assert rss < MAX_RSS_KIB, f"peak {rss // 1024} MiB"


@pytest.mark.parametrize("case", sorted(DOCS))
def test_read_and_the_urn_store_refuse_deep_nesting(case: str) -> None:
    name, doc = DOCS[case]
    fmt = {"ttl": "turtle", "trig": "trig", "rdf": "xml", "n3": "n3"}[name.rsplit(".", 1)[1]]
    with pytest.raises(ReadError, match="nested too deeply"):
        read(data=doc, format=fmt, name=name)
    with pytest.raises(ReadError, match="nested too deeply"):
        Graph(store="URN").parse(data=doc, format=fmt)


def test_nesting_up_to_the_limit_is_read() -> None:
    doc = b"<urn:example:a> <http://e/p> " + b"(" * 1000 + b"1" + b")" * 1000 + b" ."
    assert len(read(data=doc, format="turtle")) == 1 + 2 * 1000  # rdf:first, rdf:rest each
    # Brackets in strings, comments and IRIs are not syntax.
    text = b'<urn:example:a> <http://e/p> "' + b"(" * 5000 + b'" . # ' + b"[" * 5000 + b"\n"
    assert len(read(data=text, format="turtle")) == 1
    xml = XML_OPEN + b"<e:p><rdf:Description>" * 400 + b"</rdf:Description></e:p>" * 400 + (
        b"</rdf:Description></rdf:RDF>")
    assert len(read(data=xml, format="xml")) == 400
