"""Streaming N-Triples/N-Quads: tokenizer exactness, errors, files, and == the in-memory pass."""

from __future__ import annotations

import gzip
import io
from pathlib import Path

import pyoxigraph as ox
import pytest
from hypothesis import given
from hypothesis import strategies as st
from rdflib import Dataset

from urnld.rdf import canonicalize
from urnld.report import CanonicalizeReport, CheckReport
from urnld.stream import (
    NTriplesSyntaxError,
    canonicalize_file,
    canonicalize_lines,
    check_file,
    check_lines,
)

P = "<http://e/p>"
XSD = "http://www.w3.org/2001/XMLSchema#"


def canon(text: str, **opts) -> tuple[str, CanonicalizeReport]:
    report = CanonicalizeReport()
    lines = io.BytesIO(text.encode("utf-8")).readlines()
    out = b"".join(canonicalize_lines(lines, source="t.nt", report=report, **opts))
    return out.decode("utf-8"), report


def oxi(text: str) -> set[ox.Quad]:
    return set(ox.parse(text.encode("utf-8"), format=ox.RdfFormat.N_QUADS))


def iso(text: str) -> set[ox.Quad]:
    """The dataset with blank nodes relabelled by RDFC-1.0 (pyoxigraph; no URN pass)."""
    ds = ox.Dataset(oxi(text))
    ds.canonicalize(ox.CanonicalizationAlgorithm.RDFC_1_0)
    return set(ds)


# -- tokenizer --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        # subject, predicate, object and graph name are all canonicalized
        (f"<URN:ISBN:0-395-36341-1> {P} <urn:ISBN:0395363411> .",
         f"<urn:isbn:0395363411> {P} <urn:isbn:0395363411> ."),
        ("<http://e/s> <URN:EXAMPLE:p> _:b1 <URN:Example:g> .",
         "<http://e/s> <urn:example:p> _:b1 <urn:example:g> ."),
        # \u and \U escapes in IRIs are decoded before deciding what the IRI is
        (f"<\\u0055RN:EXAMPLE:a> {P} <\\U00000075rn:example:b> .",
         f"<urn:example:a> {P} <urn:example:b> ."),
        # non-URN IRIs keep their escapes byte for byte
        (f"<http://e/\\u00E9> {P} <http://E/X> .", f"<http://e/\\u00E9> {P} <http://E/X> ."),
        # a URN inside a literal's text is not a term
        (f'<http://e/s> {P} "see <URN:EXAMPLE:a> and \\"URN:EXAMPLE:b\\"" .',
         f'<http://e/s> {P} "see <URN:EXAMPLE:a> and \\"URN:EXAMPLE:b\\"" .'),
        # language tags and datatypes pass through; without literals=True literals stay
        (f'<http://e/s> {P} "URN:EXAMPLE:a"@en-GB .', f'<http://e/s> {P} "URN:EXAMPLE:a"@en-GB .'),
        (f'<http://e/s> {P} "URN:EXAMPLE:a"^^<{XSD}anyURI> .',
         f'<http://e/s> {P} "URN:EXAMPLE:a"^^<{XSD}anyURI> .'),
        # odd but legal whitespace, trailing comment, CRLF
        (f"\t<URN:EXAMPLE:a>  {P}\t<http://e/o>\t.  # comment\r",
         f"<urn:example:a> {P} <http://e/o> ."),
        # blank node labels with dots, dashes and non-ASCII pass through
        (f"_:a.b-c {P} _:n\u00e9 .", f"_:a.b-c {P} _:n\u00e9 ."),
        # invalid URNs are left as they were
        # X- is no URN (left alone); a two-letter NID is reserved, a warning: canonicalized
        (f"<urn:X-FOO:bar> {P} <URN:EX:bar> .", f"<urn:X-FOO:bar> {P} <urn:ex:bar> ."),
    ],
)
def test_line_rewriting(line, expected):
    out, _ = canon(line + "\n")
    assert out == expected + "\n"
    # the output is valid N-Quads meaning the same statement as the canonical expectation
    assert oxi(out) == oxi(expected + "\n")


@pytest.mark.parametrize(
    ("literal", "literals_out"),
    [
        ('"URN:EXAMPLE:a"', '"urn:example:a"'),
        (f'"URN:EXAMPLE:a"^^<{XSD}string>', f'"urn:example:a"^^<{XSD}string>'),
        (f'"URN:EXAMPLE:a"^^<{XSD}anyURI>', f'"urn:example:a"^^<{XSD}anyURI>'),
        ('"\\u0055RN:EXAMPLE:a"', '"urn:example:a"'),
        ('"URN:EXAMPLE:a"@en', '"URN:EXAMPLE:a"@en'),  # language-tagged: prose, not an id
        (f'"URN:EXAMPLE:a"^^<{XSD}token>', f'"URN:EXAMPLE:a"^^<{XSD}token>'),
        ('" URN:EXAMPLE:a"', '" URN:EXAMPLE:a"'),  # not the *whole* lexical form
        ('"URN:EXAMPLE:a b"', '"URN:EXAMPLE:a b"'),  # not a URN
    ],
)
def test_literals_option(literal, literals_out):
    out, _ = canon(f"<http://e/s> {P} {literal} .\n", literals=True)
    assert out == f"<http://e/s> {P} {literals_out} .\n"
    out, _ = canon(f"<http://e/s> {P} {literal} .\n")
    assert out == f"<http://e/s> {P} {literal} .\n"


def test_ignore_components_reports_dropped():
    out, report = canon(f"<urn:example:a#ch1> {P} <URN:EXAMPLE:a?=x> .\n", ignore_components=True)
    assert out == f"<urn:example:a> {P} <urn:example:a> .\n"
    assert report.dropped_components == {"urn:example:a": {"#ch1": 1, "?=x": 1}}
    out, report = canon(f"<urn:example:a#ch1> {P} <URN:EXAMPLE:a?=x> .\n")
    assert out == f"<urn:example:a#ch1> {P} <urn:example:a?=x> .\n"
    assert report.dropped_components == {}


def test_blank_and_comment_lines_are_dropped_and_counted_right():
    text = f"# header\n\n   \n<urn:example:a> {P} <urn:example:b> . # c\n\t# x\n"
    out, report = canon(text)
    assert out == f"<urn:example:a> {P} <urn:example:b> .\n"
    assert report.statements_in == report.statements_out == 1


def test_last_line_without_newline():
    out, _ = canon(f"<URN:EXAMPLE:a> {P} <http://e/o> .")
    assert out == f"<urn:example:a> {P} <http://e/o> .\n"


@pytest.mark.parametrize(
    "bad",
    [
        f"<http://e/s> {P} <http://e/o>",  # no final dot
        f"<http://e/s> {P} .",  # no object
        f"<http://e/s> {P} <http://e/o> <http://e/g> <http://e/x> .",
        f"<http://e/a b> {P} <http://e/o> .",  # space in IRI
        f'<http://e/s> {P} "unterminated .',
        f'<http://e/s> {P} "x"@ .',
        f'<http://e/s> {P} "x"^^"y" .',
        f"<http://e/s> {P} <http://e/\\u00ZZ> .",  # bad escape
        f'"lit" {P} <http://e/o> .',  # literal subject
        f"<< <http://e/s> {P} <http://e/o> >> {P} <http://e/o> .",  # RDF-star
    ],
)
def test_malformed_lines_raise_with_source_and_line(bad):
    text = f"<urn:example:a> {P} <urn:example:b> .\n{bad}\n"
    with pytest.raises(NTriplesSyntaxError) as info:
        canon(text)
    assert info.value.source == "t.nt"
    assert info.value.line == 2
    assert str(info.value).startswith("t.nt:2: ")
    # on_error="report": skipped, recorded, the rest processed
    out, report = canon(text + f"<URN:EXAMPLE:c> {P} <http://e/o> .\n", on_error="report")
    assert out.splitlines() == [f"<urn:example:a> {P} <urn:example:b> .",
                                f"<urn:example:c> {P} <http://e/o> ."]
    assert report.error_count == 1
    assert [(e.source, e.line) for e in report.errors] == [("t.nt", 2)]
    assert report.statements_in == 2


def test_first_line_offsets_line_numbers():
    report = CanonicalizeReport()
    lines = [b"<a> <b> <c> .\n", b"garbage\n"]
    list(canonicalize_lines(lines, source="part", first_line=1001, report=report,
                            on_error="report"))
    assert [e.line for e in report.errors] == [1002]


def test_statement_counts_per_spelling():
    text = (
        f"<URN:EXAMPLE:a> {P} <URN:EXAMPLE:a> .\n"  # same spelling twice: one statement
        f"<URN:EXAMPLE:a> {P} <urn:example:a> .\n"
        f"<http://e/s> {P} <urn:x-foo:1> .\n"
    )
    _, report = canon(text)
    assert report.clusters == {"urn:example:a": {"URN:EXAMPLE:a": 2, "urn:example:a": 1}}
    assert report.invalid == {"urn:x-foo:1": (1, report.invalid["urn:x-foo:1"][1])}
    assert report.invalid["urn:x-foo:1"][1].startswith("nid-experimental")
    assert report.urn_occurrences == 4
    assert report.rewritten == 2
    assert report.nids == {"example": 3}


# -- W3C data through the tokenizer -----------------------------------------------------------


def test_every_w3c_rdf_canon_input_tokenizes_to_the_same_dataset(w3c_dir: Path):
    """The RDFC-1.0 inputs exercise escapes, literals, graphs: no valid line may be refused."""
    files = sorted((w3c_dir / "rdf-canon" / "tests" / "rdfc10").glob("*-in.nq"))
    assert len(files) >= 60
    for f in files:
        data = f.read_bytes()
        report = CanonicalizeReport()
        out = b"".join(canonicalize_lines(data.splitlines(keepends=True), source=f.name,
                                          report=report))
        assert set(ox.parse(out, format=ox.RdfFormat.N_QUADS)) == set(
            ox.parse(data, format=ox.RdfFormat.N_QUADS)), f.name
        assert report.error_count == 0


# -- streaming == in-memory -------------------------------------------------------------------

SPELL = st.sampled_from([
    "urn:example:a", "URN:EXAMPLE:a", "urn:Example:a", "urn:example:a%2c", "urn:EXAMPLE:a%2C",
    "urn:isbn:0395363411", "URN:ISBN:0-395-36341-1", "urn:x-bad:1", "urn:example:b#f",
    "URN:example:b#f", "http://e/x", "urn:uuid:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6",
])
TERM = st.one_of(SPELL.map(lambda s: f"<{s}>"), st.sampled_from(["_:b1", "_:b2"]))
OBJ = st.one_of(TERM, SPELL.map(lambda s: f'"{s}"'),
                SPELL.map(lambda s: f'"{s}"^^<{XSD}anyURI>'), st.just('"x"@en'))
QUAD = st.tuples(TERM, SPELL.map(lambda s: f"<{s}>"), OBJ,
                 st.one_of(st.just(""), SPELL.map(lambda s: f" <{s}>")))


@given(quads=st.lists(QUAD, max_size=25), literals=st.booleans(), ignore=st.booleans())
def test_streaming_equals_in_memory(quads, literals, ignore):
    text = "".join(f"{s} {p} {o}{g} .\n" for s, p, o, g in quads)
    out, sreport = canon(text, literals=literals, ignore_components=ignore)
    ds = Dataset()
    ds.parse(data=text, format="nquads")
    result = canonicalize(ds, literals=literals, ignore_components=ignore)
    mem = result.graph.serialize(format="nquads")
    assert iso(out) == iso(mem)
    # Same counts (the stream does not deduplicate: compare the input side).
    assert sreport.statements_in == len(quads)
    assert result.report.to_dict()["clusters"] == _dedup_clusters(text, literals, ignore)


def _dedup_clusters(text: str, literals: bool, ignore: bool) -> dict:
    # The in-memory pass counts each *distinct* input statement once: stream the deduplicated
    # input and the two reports must agree.
    lines = sorted(set(text.splitlines(keepends=True)))
    _, report = canon("".join(lines), literals=literals, ignore_components=ignore)
    return report.to_dict()["clusters"]


# -- files ------------------------------------------------------------------------------------


def test_canonicalize_file_plain_and_gzip(tmp_path: Path):
    text = f"<URN:EXAMPLE:a> {P} <http://e/o> .\n" * 3
    src = tmp_path / "in.nt"
    src.write_text(text)
    before = src.read_bytes()
    report = canonicalize_file(src, tmp_path / "out.nt.gz")
    assert report.statements_in == 3
    assert gzip.decompress((tmp_path / "out.nt.gz").read_bytes()) == (
        f"<urn:example:a> {P} <http://e/o> .\n" * 3).encode()
    assert src.read_bytes() == before
    gz = tmp_path / "in.nq.gz"
    gz.write_bytes(gzip.compress(text.encode()))
    canonicalize_file(gz, tmp_path / "out.nq")
    assert (tmp_path / "out.nq").read_text() == f"<urn:example:a> {P} <http://e/o> .\n" * 3


def test_failure_leaves_no_output_and_keeps_old_one(tmp_path: Path):
    src = tmp_path / "in.nt"
    src.write_text(f"<URN:EXAMPLE:a> {P} <http://e/o> .\n" * 10000 + "oops\n")
    out = tmp_path / "out.nt"
    out.write_text("previous result\n")
    with pytest.raises(NTriplesSyntaxError, match=r"in\.nt:10001"):
        canonicalize_file(src, out)
    assert out.read_text() == "previous result\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.nt", "out.nt"]


def test_check_lines_and_file(tmp_path: Path):
    text = (
        f'<URN:ISBN:0-395-36341-1> {P} "urn:isbn:0395363411"^^<{XSD}anyURI> .\n'
        f"<urn:isbn:0395363412> {P} <urn:isbn:0395363411> .\n"
        "broken line\n"
    )
    report = CheckReport()
    check_lines(io.BytesIO(text.encode()).readlines(), source="c.nt", report=report)
    assert report.iri_occurrences == 3
    assert report.literal_occurrences == 1
    assert report.error_occurrences == 1
    assert not report.ok
    assert [str(e) for e in report.errors] == ["c.nt:3: statement does not end with '.'"]
    assert report.clusters == {
        "urn:isbn:0395363411": {"URN:ISBN:0-395-36341-1": 1, "urn:isbn:0395363411": 2}}
    f = tmp_path / "c.nt"
    f.write_text(text)
    again = check_file(f)
    assert again.to_dict() == {**report.to_dict(), "errors": {
        **report.to_dict()["errors"],
        "lines": [{"source": str(f), "line": 3, "message": "statement does not end with '.'"}]}}


def test_bounded_cache_restarts_give_the_same_output_and_report(monkeypatch):
    from urnld.stream import _chunks, _passes

    # Runs of the same subject cross batch boundaries (the previous-subject shortcut must not
    # outlive a cache restart).
    text = "".join(
        f"<URN:EXAMPLE:{i % 7}> {P} <urn:Example:{i % 5}> .\n<http://e/{i}> {P} <urn:x-y:{i % 3}> .\n"
        + f"<URN:EXAMPLE:same{i // 10}> {P} <http://e/o> .\n" * 5
        for i in range(300)
    )
    expected_out, expected = canon(text)
    cexpected = CheckReport()
    check_lines(text.encode().splitlines(keepends=True), source="t.nt", report=cexpected)
    monkeypatch.setattr(_passes, "MAX_CACHE", 3)
    monkeypatch.setattr(_chunks, "BATCH_LINES", 16)
    out, report = canon(text)
    assert out == expected_out
    assert report == expected
    creport = CheckReport()
    check_lines(text.encode().splitlines(keepends=True), source="t.nt", report=creport)
    assert creport == cexpected
    assert report.clusters["urn:example:3"] == {
        "URN:EXAMPLE:3": len(range(3, 300, 7)), "urn:Example:3": len(range(3, 300, 5))}


@pytest.mark.parametrize("cap", [1, 3, 40])
def test_batches_ended_at_the_reports_cap_give_the_same_output_and_report(monkeypatch, cap):
    """A pass also ends a batch once it holds the report's cap of URN tokens: with a small cap
    and small chunks that is after nearly every chunk, against one batch for the whole text."""
    from urnld.stream import _chunks

    text = "".join(
        f"<URN:EXAMPLE:{i % 11}> {P} <urn:Example:{i % 13}> .\n"
        f"<urn:ISBN:0-395-{i % 17:05d}-1> {P} \"urn:isbn:0395{i % 17:05d}1\" .\n"
        f"<urn:X-y:{i}> {P} <urn:uuid:{i % 19:08d}-0000-0000-0000-00000000000A> .\n"
        for i in range(120)
    )
    lines = text.encode().splitlines(keepends=True)

    def run() -> tuple[bytes, CanonicalizeReport, CheckReport]:
        report = CanonicalizeReport(max_examples=cap)
        out = b"".join(canonicalize_lines(lines, source="t.nt", report=report, literals=True))
        checked = CheckReport(max_examples=cap)
        check_lines(lines, source="t.nt", report=checked)
        return out, report, checked

    monkeypatch.setattr(_chunks, "BATCH_LINES", len(lines) + 1)  # one chunk, one batch
    expected = run()
    monkeypatch.setattr(_chunks, "BATCH_LINES", 4)
    assert run() == expected
    assert expected[1].to_dict()["clusters_truncated"]  # the maps were filled past the cap


def test_check_stream_equals_check_graph(repo_root: Path):
    """urnld check gives the same report for a catalog as Turtle (rdflib) and as N-Triples."""
    from rdflib import Graph

    from urnld.rdf._canonicalize import check_graph

    g = Graph().parse(repo_root / "examples" / "catalog" / "catalog.ttl")
    streamed = CheckReport()
    check_lines(g.serialize(format="nt", encoding="utf-8").splitlines(keepends=True),
                source="catalog.nt", report=streamed)
    assert check_graph(g) == streamed
    assert not streamed.ok
    assert streamed.statements_in == len(g)


@given(quads=st.lists(QUAD, min_size=1, max_size=25), seed=st.integers(0, 2**32),
       cuts=st.lists(st.integers(0, 25), max_size=3))
def test_stream_result_independent_of_order_and_partitioning(quads, seed, cuts):
    """Shuffled input gives the same statements and report; so do partitions merged."""
    import random

    lines = [f"{s} {p} {o}{g} .\n" for s, p, o, g in quads]
    out, report = canon("".join(lines))
    shuffled = list(lines)
    random.Random(seed).shuffle(shuffled)
    out2, report2 = canon("".join(shuffled))
    assert sorted(out.splitlines()) == sorted(out2.splitlines())
    assert report == report2
    # partitions, each its own pass, merged: the single-pass report (the Dask engine's contract)
    points = sorted({min(c, len(shuffled)) for c in cuts})
    parts, start = [], 0
    for p in [*points, len(shuffled)]:
        parts.append(shuffled[start:p])
        start = p
    merged = CanonicalizeReport()
    pieces = []
    for part in parts:
        o, r = canon("".join(part))
        pieces.append(o)
        merged = merged.merge(r)
    assert merged == report
    assert sorted("".join(pieces).splitlines()) == sorted(out.splitlines())
