"""Stage C in a process of its own: the output and the report are those of the one-process
run, byte for byte; its errors reach the caller as urnld errors; no partial output is left."""

from __future__ import annotations

import gzip
import io
import random
from pathlib import Path

import pyoxigraph as ox
import pytest

from urnld.stream import RDFSyntaxError, canonicalize_file, check_file
from urnld.stream._stage_c import can_write_in_child, write_quads

F = ox.RdfFormat
FORMATS = {"turtle": F.TURTLE, "trig": F.TRIG, "n3": F.N3, "xml": F.RDF_XML,
           "json-ld": F.JSON_LD, "nt": F.N_TRIPLES}
EXT = {"turtle": "ttl", "trig": "trig", "n3": "n3", "xml": "rdf", "json-ld": "jsonld",
       "nt": "nt", "nquads": "nq"}

# URN spellings from RFC 8141 §3.1 (lexical equivalence: scheme and NID case-insensitive) and
# the ISBN / UUID namespaces' own examples (RFC 3187, RFC 9562 §4), some not canonical.
URNS = [
    "URN:ISBN:0-395-36341-1", "urn:isbn:0395363411", "URN:EXAMPLE:a123,z456",
    "urn:uuid:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6", "urn:example:a123,z456",
    "urn:nbn:de:bvb:19-146642", "urn:HotelRoom",
]

DATA = (
    b"@prefix dct: <http://purl.org/dc/terms/> .\n"
    b"@prefix isbn: <URN:ISBN:> .\n"
    b'<URN:ISBN:0-395-36341-1> dct:title "T"@en ; dct:date "01"^^<http://www.w3.org/2001/'
    b'XMLSchema#integer> ; dct:x _:b .\n'
    b'_:b dct:y "urn:example:x" ; dct:z <urn:uuid:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6> .\n'
)


def big_turtle(path: Path, statements: int) -> None:
    """A Turtle file of *statements* statements (past the size where the child processes
    start), written by pyoxigraph with prefixes."""
    rnd = random.Random(7)
    p = ox.NamedNode("http://purl.org/dc/terms/relation")
    quads = []
    for i in range(statements):
        s = ox.NamedNode(f"URN:EXAMPLE:s{i // 3}")
        o: ox.NamedNode | ox.Literal | ox.BlankNode
        k = rnd.randrange(4)
        if k == 0:
            o = ox.NamedNode(rnd.choice(URNS))
        elif k == 1:
            o = ox.Literal(rnd.choice(URNS))
        elif k == 2:
            o = ox.BlankNode(f"b{i % 50}")
        else:
            o = ox.Literal(f"{i:05d}", datatype=ox.NamedNode(
                "http://www.w3.org/2001/XMLSchema#integer"))
        quads.append(ox.Quad(s, p, o))
    ox.serialize(quads, str(path), ox.RdfFormat.TURTLE,
                 prefixes={"dct": "http://purl.org/dc/terms/", "ex": "urn:example:"})


@pytest.mark.parametrize("out_syntax", ["turtle", "trig", "n3", "xml", "json-ld", "nt"])
def test_child_output_and_report_are_the_one_process_ones(tmp_path: Path, out_syntax: str
                                                           ) -> None:
    src = tmp_path / "in.ttl"
    src.write_bytes(DATA)
    got = {}
    for jobs in (1, 2):  # jobs=2: stages A and C in child processes, whatever the size
        out = tmp_path / f"out{jobs}.{EXT[out_syntax]}"
        report = canonicalize_file(src, out, input_format="turtle", output_format=out_syntax,
                                   jobs=jobs, literals=True)
        got[jobs] = (out.read_bytes(), report.to_dict())
    assert got[1] == got[2]
    written = ox.parse(got[2][0], FORMATS[out_syntax])
    assert ox.NamedNode("urn:isbn:0395363411") in {q.subject for q in written}


def test_default_settings_on_a_big_file_agree_with_one_process(tmp_path: Path) -> None:
    src = tmp_path / "big.ttl"
    big_turtle(src, 40_000)
    assert src.stat().st_size > 1 << 20  # the children start at default settings
    runs = {}
    for jobs in (None, 1):
        out = tmp_path / f"out-{jobs}.ttl"
        report = canonicalize_file(src, out, input_format="turtle", output_format="turtle",
                                   jobs=jobs)
        runs[jobs] = (out.read_bytes(), report.to_dict(),
                      check_file(src, input_format="turtle", jobs=jobs).to_dict())
    assert runs[None] == runs[1]
    assert runs[1][1]["statements"]["in"] == 40_000


def test_ntriples_input_into_turtle_in_a_child(tmp_path: Path) -> None:
    src = tmp_path / "in.nt"
    src.write_bytes(b"<URN:EXAMPLE:a> <http://e/p> <urn:example:b> .\n"
                    b'_:x <http://e/q> "01"^^<http://www.w3.org/2001/XMLSchema#integer> .\n')
    outs = []
    for jobs in (1, 2):
        out = tmp_path / f"o{jobs}.ttl"
        canonicalize_file(src, out, input_format="nt", output_format="turtle", jobs=jobs)
        outs.append(out.read_bytes())
    assert outs[0] == outs[1]
    assert set(ox.parse(outs[1], ox.RdfFormat.TURTLE)) >= {ox.Quad(
        ox.NamedNode("urn:example:a"), ox.NamedNode("http://e/p"), ox.NamedNode("urn:example:b"))}


def test_child_error_is_raised_here_and_leaves_no_output(tmp_path: Path) -> None:
    src = tmp_path / "in.trig"
    src.write_bytes(b"<urn:ex:g> { <urn:ex:s> <http://e/p> 1 . }")
    out = tmp_path / "out.ttl"
    with pytest.raises(RDFSyntaxError, match="named graphs, which turtle cannot write"):
        canonicalize_file(src, out, input_format="trig", output_format="turtle", jobs=2)
    assert not out.exists()
    assert list(tmp_path.iterdir()) == [src]


def test_stage_b_error_stops_the_writer(tmp_path: Path) -> None:
    # The input's error comes from stage A, after statements went on to the writer.
    src = tmp_path / "in.ttl"
    src.write_bytes(DATA * 50 + b'<urn:ex:a> <http://e/p> "unterminated .\n')
    out = tmp_path / "out.ttl"
    with pytest.raises(RDFSyntaxError, match=r"in\.ttl:\d+:"):
        canonicalize_file(src, out, input_format="turtle", output_format="turtle", jobs=2)
    assert not out.exists()


def test_writer_in_a_child_appends_to_what_was_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A thread an earlier test leaves behind (Dask's offload pool lives as long as the process)
    # makes the stream start processes by spawn, where the writer stays here; the child's
    # append is what this test is about, so the count of threads is what a command sees.
    monkeypatch.setattr("urnld.stream._workers.threading.active_count", lambda: 1)
    path = tmp_path / "o.nt"
    with open(path, "wb") as f:
        assert can_write_in_child(f)
        f.write(b"# first\n")  # still in the buffer: flushed before the child writes
        write_quads([b'<urn:example:a> <http://e/p> "1" .\n'] * 3, f, "nt", {}, source="x",
                    child=True)
    # The three equal statements are written as read (the writer merges nothing).
    assert path.read_bytes() == b"# first\n" + b'<urn:example:a> <http://e/p> "1" .\n' * 3


def test_writer_stays_here_for_buffers_and_compressed_files(tmp_path: Path) -> None:
    assert not can_write_in_child(io.BytesIO())
    with gzip.open(tmp_path / "o.gz", "wb") as g:
        assert not can_write_in_child(g)  # type: ignore[arg-type]
    out = io.BytesIO()
    write_quads([b"<urn:example:a> <http://e/p> <urn:example:b> .\n"], out, "turtle",
                {"ex": "URN:EXAMPLE:"}, source="x", child=True)
    assert out.getvalue() == b"@prefix ex: <urn:example:> .\nex:a <http://e/p> ex:b .\n"
