"""``urnld.read.read_quads``: a large Turtle or TriG file is parsed as it is read (bounded
memory), with the statements, refusals and error messages of reading it whole.

The documents: the W3C RDF 1.1 Turtle and TriG test suites (``tests/data/w3c/rdf11``: every
positive and negative syntax and evaluation test) and the bundled catalogs of ``examples/``.
"""

from __future__ import annotations

import re
import tracemalloc
from pathlib import Path

import pyoxigraph as ox
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import urnld.read._quads as quads_module
from urnld.jsonld import URNContextError
from urnld.read import ReadError, read, read_quads
from urnld.read._guard import turtle_may_have_urn_base

ROOT = Path(__file__).resolve().parents[2]
W3C = ROOT / "tests" / "data" / "w3c" / "rdf11"
DOCUMENTS = sorted([*(W3C / "rdf-turtle").glob("*.ttl"), *(W3C / "rdf-trig").glob("*.trig"),
                    *(ROOT / "examples").rglob("*.ttl")])


def _outcome(path: Path) -> tuple[str, object]:
    """The statements of *path* (blank nodes canonicalized: the parser labels ``[ ]`` at
    random), or the error it raises."""
    try:
        found = list(read_quads(path))
    except (ReadError, URNContextError) as e:
        return type(e).__name__, str(e)
    dataset = ox.Dataset(found)
    dataset.canonicalize(ox.CanonicalizationAlgorithm.UNSTABLE)
    return "quads", sorted(str(q) for q in dataset)


def test_streamed_documents_read_as_whole_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    assert len(DOCUMENTS) > 600
    whole = {}
    for path in DOCUMENTS:
        whole[path] = _outcome(path)
    monkeypatch.setattr(quads_module, "STREAM_BYTES", -1)  # every document streams if it can
    streamed = 0
    for path in DOCUMENTS:
        fmt = "trig" if path.suffix == ".trig" else "turtle"
        streamed += quads_module._streamable(str(path), path.resolve().as_uri(), "error",
                                             str(path))
        assert _outcome(path) == whole[path], (path, fmt)
    assert streamed > 400  # most of them: the comparison is not between two whole readings
    assert any(kind != "quads" for kind, _ in whole.values())  # refusals compared too


_SPACE = st.text(" \t\r\n", max_size=6)


@settings(max_examples=300, deadline=None)
@given(before=st.text("abcdefghijklmnopqrstuvwxyz <>.:\n\"", max_size=40),
       at=st.sampled_from(["@base", "@BASE", "BASE", "base", "@Base"]),
       gap1=_SPACE, gap2=_SPACE, urn=st.sampled_from(["urn:", "URN:", "Urn:"]),
       block=st.integers(1, 16))
def test_a_urn_base_cut_by_a_block_boundary_is_seen(before: str, at: str, gap1: str, gap2: str,
                                                     urn: str, block: int) -> None:
    """Wherever the blocks cut a base directive naming a URN, the scan sees it (the document
    is then read whole and guarded); the same bytes with an http base stream."""
    scan = quads_module._Scan(True)
    data = f"{before}{at}{gap1}<{gap2}{urn}example:doc> .\n<a> <b> <c> .\n".encode()
    fed = [scan.feed(data[i:i + block]) for i in range(0, len(data), block)]
    assert not all(fed)
    fine = quads_module._Scan(True)
    other = data.replace(urn.encode(), b"http:")
    if turtle_may_have_urn_base(other):
        return  # *before* holds a URN base of its own
    assert all(fine.feed(other[i:i + block]) for i in range(0, len(other), block))


def test_hazards_and_nesting_still_reach_the_whole_document_guard(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(quads_module, "STREAM_BYTES", -1)
    hazard = tmp_path / "hazard.ttl"
    hazard.write_bytes(b"<urn:example:s> <urn:example:p> <urn:example:o> .\n" * 5000
                       + b"@base <urn:example:a:b> .\n<../c> <urn:example:p> <d> .\n")
    with pytest.raises(URNContextError, match=r"hazard\.ttl"):
        list(read_quads(hazard))
    deep = tmp_path / "deep.ttl"
    deep.write_bytes(b"<urn:example:s> <urn:example:p> " + b"[ <urn:example:p> " * 1001
                     + b"<urn:example:o>" + b" ]" * 1001 + b" .\n")
    with pytest.raises(ReadError, match="nested more than 1,000 levels deep"):
        list(read_quads(deep))
    brackets = tmp_path / "brackets.ttl"  # many brackets, none deep: read whole, accepted
    brackets.write_bytes(b"<urn:example:s> <urn:example:p> [ <urn:example:p> 1 ] .\n" * 1200)
    assert not quads_module._streamable(str(brackets), None, "error", "brackets.ttl")
    assert len(list(read_quads(brackets))) == 2400


@pytest.mark.parametrize("body", [
    b'<urn:example:s> <urn:example:p> "no end .',
    b'<urn:example:s> <urn:example:p> "no newline .\n<urn:example:s> <urn:example:p> "x" .\n',
    b"<urn:example:s> <urn:example:p> <urn:example:o> .\n<urn:example:s> <urn:example:p> .\n",
    b"<urn:example:s> <urn:example:p> <urn:example:o>\n",
    b"@prefix ex: <urn:example:> .\nex:s ex:p ex:o ; .\nex:s nope:p ex:o .\n",
])
def test_syntax_errors_say_the_same_streamed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                             body: bytes) -> None:
    path = tmp_path / "bad.ttl"
    path.write_bytes(b"<urn:example:s> <urn:example:p> <urn:example:o> .\n" * 3000 + body)
    with pytest.raises(ReadError) as whole:
        list(read_quads(path))
    monkeypatch.setattr(quads_module, "STREAM_BYTES", -1)
    assert quads_module._streamable(str(path), None, "error", "bad.ttl")
    with pytest.raises(ReadError) as streamed:
        list(read_quads(path))
    assert str(streamed.value) == str(whole.value)
    assert re.search(r"bad\.ttl:300\d:", str(whole.value))
    if b"no end" in body:  # the message that looks at the line of the error
        assert "does not end on its line" in str(whole.value)


def test_a_file_that_changed_after_the_scan_is_refused(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """The blocks pyoxigraph parses are scanned again: a file whose scan no longer holds (it
    was changed since) is refused, not parsed unguarded."""
    path = tmp_path / "changed.ttl"
    path.write_bytes(b"@base <urn:example:a:b> .\n<../c> <urn:example:p> <d> .\n")
    monkeypatch.setattr(quads_module, "_streamable", lambda *args: True)
    with pytest.raises(ReadError, match="changed while it was read"):
        list(read_quads(path))


def test_a_large_turtle_file_is_read_in_bounded_memory(tmp_path: Path) -> None:
    """Past STREAM_BYTES, what Python holds while the statements are read stays a few
    blocks, however large the file (reading it whole held all of it)."""
    path = tmp_path / "large.ttl"
    line = b"<urn:example:s%d> <urn:example:p> \"a value long enough to fill the file\" .\n"
    with path.open("wb") as f:
        for start in range(0, 300_000, 10_000):
            f.write(b"".join(line % n for n in range(start, start + 10_000)))
    size = path.stat().st_size
    assert size > quads_module.STREAM_BYTES
    tracemalloc.start()
    try:
        count = sum(1 for _ in read_quads(path))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert count == 300_000
    assert peak < size / 4, (peak, size)


@pytest.mark.parametrize("suffix", [".nt", ".nq", ".ttl", ".trig"])
def test_a_string_cut_by_the_end_of_the_file_is_told_as_read_tells_it(tmp_path: Path,
                                                                      suffix: str) -> None:
    """N-Triples and N-Quads are always parsed as read: the line of the error is read again
    to say what the reader says of the whole document."""
    path = tmp_path / f"cut{suffix}"
    path.write_bytes(b'<urn:example:s> <urn:example:p> "x" .\n<urn:example:s> <urn:example:p> "ab')
    with pytest.raises(ReadError) as whole:
        read(path)
    with pytest.raises(ReadError) as quads:
        list(read_quads(path))
    assert str(quads.value) == str(whole.value)
    assert "does not end on its line" in str(quads.value)
