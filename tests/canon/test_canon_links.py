"""The opt-in modes of the canonicalization pass: link, keep_spellings, link_resolvers.

Every path (stream, worker processes, in-memory, command line) adds the same statements and
counts them the same way; with keep_spellings every spelling of the input can be read back
from the output; link is symmetric and does not depend on the order of the input.
"""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rdflib import Dataset, Literal, URIRef

from urnld import URN
from urnld._kernel._links import OWL_SAME_AS, RDFS_SEE_ALSO, SPELLING
from urnld.cli import main
from urnld.errors import SpellingLimitError
from urnld.rdf import canonicalize
from urnld.report import CanonicalizeReport
from urnld.stream import _chunks, canonicalize_file, canonicalize_lines

P = "http://purl.org/dc/terms/relation"

# Spellings of real identifiers. The Hobbit (Houghton Mifflin 1984): ISBN-10 0-395-36341-1,
# its ISBN-13 978-0-395-36341-6 (RFC 3187 keeps both as URNs); ISBN 978-88-98392-31-5 and its
# ISBN-A DOI 10.978.8898392/315 (the ISBN-A form of the International DOI Foundation's
# "ISBN-A" guidelines); RFC 8141 itself; a German NBN (DNB resolver, nbn-resolving.org).
HOBBIT10 = ("URN:ISBN:0-395-36341-1", "urn:isbn:0395363411", "urn:ISBN:0395363411")
HOBBIT13 = ("urn:isbn:978-0-395-36341-6", "urn:isbn:9780395363416")
ISBN_A = ("URN:ISBN:978-88-98392-31-5", "urn:doi:10.978.8898392/315")
OTHERS = (
    "urn:IETF:rfc:8141",
    "URN:NBN:DE:gbv:089-3321752946",
    "urn:isbn:0395363411#p3",  # a part of the book: never linked
    "urn:X-foo:Bar",  # no URN: left as written, nothing added
    "urn:example:a",
)
SPELLINGS = (*HOBBIT10, *HOBBIT13, *ISBN_A, *OTHERS)

MODES = [
    dict(zip(("link", "keep_spellings", "link_resolvers"), flags, strict=True))
    for flags in itertools.product((False, True), repeat=3)
]


def _document() -> str:
    lines = [f"<{s}> <{P}> <urn:example:o{i}> .\n" for i, s in enumerate(SPELLINGS)]
    lines.append(f'<http://e/s> <{P}> "{HOBBIT13[0]}" <URN:EXAMPLE:g> .\n')  # literal, graph
    return "".join(lines)


def _triples(data: bytes) -> set[tuple[str, ...]]:
    ds = Dataset()
    ds.parse(data=data, format="nquads")
    return {tuple(str(t) for t in q[:3]) for q in ds.quads((None, None, None, None))}


def _added(report: CanonicalizeReport) -> dict[str, int]:
    return report.to_dict()["added"]


@pytest.mark.parametrize("literals", [False, True])
@pytest.mark.parametrize("modes", MODES, ids=lambda m: "+".join(k for k, v in m.items() if v) or "off")
def test_every_path_adds_the_same_statements(tmp_path, monkeypatch, capsys, modes, literals):
    text = _document()
    src = tmp_path / "in.nq"
    src.write_text(text)
    opts = {**modes, "literals": literals}

    stream_report = CanonicalizeReport()
    stream = b"".join(canonicalize_lines([text.encode()], report=stream_report, **opts))
    one = canonicalize_file(src, tmp_path / "one.nq", jobs=1, **opts)
    monkeypatch.setattr(_chunks, "CHUNK_BYTES", 64)  # many chunks over two workers
    many = canonicalize_file(src, tmp_path / "many.nq", jobs=2, **opts)
    assert (tmp_path / "one.nq").read_bytes() == (tmp_path / "many.nq").read_bytes() == stream
    assert many == one == stream_report

    assert main(["canonicalize", str(src), "-o", str(tmp_path / "cli.nq"), "-q",
                 *(f"--{k.replace('_', '-')}" for k, v in opts.items() if v)]) == 0
    assert (tmp_path / "cli.nq").read_bytes() == stream
    capsys.readouterr()

    ds = Dataset()
    ds.parse(data=text, format="nquads")
    memory = canonicalize(ds, **opts)
    got = {tuple(str(t) for t in q[:3]) for q in memory.graph.quads((None, None, None, None))}
    assert got == _triples(stream)
    assert _added(memory.report) == _added(stream_report)
    assert memory.report.clusters == stream_report.clusters

    # The added statements: last, sorted, triples (the default graph), exactly what is counted.
    body_lines = text.count("\n")
    added = stream.splitlines()[body_lines:]
    assert added == sorted(added)
    assert all(line.count(b" ") >= 3 and not line.endswith(b"> > .") for line in added)
    assert len(added) == stream_report.added == sum(_added(stream_report).values())
    assert stream_report.statements_out == stream_report.statements_in + len(added)
    expected = _expected(modes, literals)
    assert {_split(line) for line in added} == expected
    if not any(modes.values()):
        assert added == []


def _split(line: bytes) -> tuple[str, str, str]:
    s, p, o = line.decode()[:-2].split(" ", 2)
    return s[1:-1], p[1:-1], o


def _expected(modes: dict[str, bool], literals: bool) -> set[tuple[str, str, str]]:
    """Written out by hand from the identifiers above."""
    out: set[tuple[str, str, str]] = set()
    h10, h13 = "urn:isbn:0395363411", "urn:isbn:9780395363416"
    isbn, doi = "urn:isbn:9788898392315", "urn:doi:10.978.8898392/315"
    if modes["link"]:
        for a, b in [(h10, h13), (isbn, doi)]:
            out |= {(a, OWL_SAME_AS, f"<{b}>"), (b, OWL_SAME_AS, f"<{a}>")}
    if modes["keep_spellings"]:
        rewritten = {
            "URN:ISBN:0-395-36341-1": h10, "urn:ISBN:0395363411": h10,
            "urn:isbn:978-0-395-36341-6": h13, "URN:ISBN:978-88-98392-31-5": isbn,
            "urn:IETF:rfc:8141": "urn:ietf:rfc:8141",
            "URN:NBN:DE:gbv:089-3321752946": "urn:nbn:de:gbv:089-3321752946",
            "URN:EXAMPLE:g": "urn:example:g",
        }
        out |= {(c, SPELLING, f'"{s}"') for s, c in rewritten.items()}
    if modes["link_resolvers"]:
        canonicals = {h10, h13, isbn, doi, "urn:ietf:rfc:8141", "urn:nbn:de:gbv:089-3321752946",
                      "urn:isbn:0395363411#p3"}
        for c in canonicals:
            for loc in _locators(c):
                out.add((c, RDFS_SEE_ALSO, f"<{loc}>"))
    del literals  # the literal spelling equals an IRI's: it adds nothing of its own
    return out


def _locators(urn: str) -> list[str]:
    from urnld.resolvers import locators

    return [loc for _r, loc in locators(urn)]


def test_resolver_locators_are_the_tables():
    # Anchor _expected's resolver part to known locators (urnld/data/resolvers.toml).
    assert "https://www.rfc-editor.org/rfc/rfc8141" in _locators("urn:ietf:rfc:8141")
    assert "https://nbn-resolving.org/urn:nbn:de:gbv:089-3321752946" in _locators(
        "urn:nbn:de:gbv:089-3321752946")
    assert _locators("urn:example:a") == []


# -- properties -------------------------------------------------------------------------------

SPELLING_ST = st.sampled_from(SPELLINGS)
ROW = st.tuples(SPELLING_ST, st.sampled_from(["<urn:example:o>", '"x"']), st.booleans())


def _lines(rows: list[tuple[str, str, bool]]) -> list[bytes]:
    return [
        (f'<http://e/s> <{P}> "{s}" .\n' if as_literal else f"<{s}> <{P}> {o} .\n").encode()
        for s, o, as_literal in rows
    ]


@settings(max_examples=40, deadline=None)
@given(rows=st.lists(ROW, max_size=25), literals=st.booleans(), ignore=st.booleans())
def test_every_spelling_can_be_recovered(rows, literals, ignore):
    lines = _lines(rows)
    out = b"".join(canonicalize_lines(lines, keep_spellings=True, literals=literals,
                                      ignore_components=ignore))
    g = Dataset()
    g.parse(data=out, format="nquads")
    said = {str(t) for q in g.quads((None, None, None, None)) for t in q[:3]}
    recorded = {str(o) for o in g.objects(None, URIRef(SPELLING))}
    for s, _o, as_literal in rows:
        if as_literal and not literals:
            continue  # not a term the pass rewrites: written back as it was
        assert s in said or s in recorded, s
    for subject, obj in g.subject_objects(URIRef(SPELLING)):
        # each recorded spelling names its own canonical node
        assert URN(str(obj)).assigned_key == URN(str(subject)).assigned_key
        assert isinstance(obj, Literal)


@settings(max_examples=40, deadline=None)
@given(rows=st.lists(ROW, max_size=25), seed=st.integers(0, 2**16))
def test_link_is_symmetric_and_order_free(rows, seed):
    lines = _lines(rows)
    shuffled = list(lines)
    random.Random(seed).shuffle(shuffled)
    reports = [CanonicalizeReport(), CanonicalizeReport()]
    outs = [
        b"".join(canonicalize_lines(ls, link=True, report=r))
        for ls, r in zip((lines, shuffled), reports, strict=True)
    ]
    added = [o.splitlines()[len(lines):] for o in outs]
    assert added[0] == added[1]
    pairs = {(s, o[1:-1]) for s, p, o in map(_split, added[0]) if p == OWL_SAME_AS}
    assert pairs == {(b, a) for a, b in pairs}
    for a, b in pairs:
        assert a != b and URN(b) in URN(a).functional_equivalents()
    assert reports[0].same_as_added == len(pairs)


# -- bounds and errors ------------------------------------------------------------------------


@pytest.mark.parametrize("jobs", [1, 2])
def test_past_the_spelling_cap_no_output_and_a_clear_error(tmp_path, monkeypatch, jobs):
    monkeypatch.setattr(_chunks, "CHUNK_BYTES", 64)
    src = tmp_path / "in.nt"
    src.write_text(_document())
    out = tmp_path / "out.nt"
    with pytest.raises(SpellingLimitError, match=r"in\.nt: more than 3 distinct URN spellings"):
        canonicalize_file(src, out, jobs=jobs, keep_spellings=True,
                          report=CanonicalizeReport(max_examples=3))
    assert not out.exists()
    # Without the modes the cap only truncates the report's examples, as before.
    canonicalize_file(src, out, jobs=jobs, report=CanonicalizeReport(max_examples=3))
    assert out.exists()


def test_cli_past_the_cap_is_one_line_exit_2(tmp_path, capsys):
    # One more distinct spelling than the report keeps by default (DEFAULT_MAX_EXAMPLES).
    from urnld.report import DEFAULT_MAX_EXAMPLES

    src = tmp_path / "in.nt"
    src.write_text("".join(
        f"<URN:EXAMPLE:{i}> <{P}> <http://e/o> .\n" for i in range(DEFAULT_MAX_EXAMPLES + 1)
    ))
    code = main(["canonicalize", str(src), "-o", str(tmp_path / "o.nt"), "--keep-spellings"])
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1 and "distinct URN spellings" in err
    assert not (tmp_path / "o.nt").exists()
    # Without the mode the same input is canonicalized (the report's examples are capped).
    assert main(["canonicalize", str(src), "-o", str(tmp_path / "o.nt"), "-q"]) == 0


def test_summary_and_json_count_the_added_statements(tmp_path, capsys):
    src = tmp_path / "in.nt"
    src.write_text(f"<{HOBBIT10[0]}> <{P}> <{HOBBIT13[0]}> .\n")
    report_path = tmp_path / "r.json"
    assert main(["canonicalize", str(src), "-o", str(tmp_path / "o.ttl"), "--link",
                 "--keep-spellings", "--report", str(report_path)]) == 0
    err = capsys.readouterr().err
    assert "added 2 owl:sameAs, 2 urnld:spelling and 0 rdfs:seeAlso statements" in err
    import json

    d = json.loads(report_path.read_text())
    assert d["added"] == {"same_as": 2, "spellings": 2, "see_also": 0}
    # N-Triples into Turtle is streamed: a stream is not deduplicated, so no count of merges.
    assert d["statements"] == {"in": 1, "out": 5, "duplicates_merged": None}
    assert "owl:sameAs" in (tmp_path / "o.ttl").read_text()


def test_in_memory_keeps_the_data_and_counts_what_is_new():
    # A graph already stating the link: the mode counts it but the graph does not grow twice.
    g = Dataset()
    h10, h13 = URIRef("urn:isbn:0395363411"), URIRef("urn:isbn:9780395363416")
    g.add((h10, URIRef(OWL_SAME_AS), h13))
    r = canonicalize(g, link=True)
    assert r.report.same_as_added == 2
    assert r.report.statements_out == 2 == len(r.graph)
    assert (h13, URIRef(OWL_SAME_AS), h10) in r.graph


def test_off_by_default_nothing_added(tmp_path: Path):
    src = tmp_path / "in.nt"
    src.write_text(_document().replace(" <URN:EXAMPLE:g> .", " ."))
    r = canonicalize_file(src, tmp_path / "o.nt")
    assert r.added == 0 and r.statements_out == r.statements_in
    assert _added(r) == {"same_as": 0, "spellings": 0, "see_also": 0}


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows=st.lists(ROW, max_size=10))
def test_modes_are_idempotent(rows):
    # Running the pass again over its own output with the same modes adds nothing new.
    lines = _lines(rows)
    opts = {"link": True, "keep_spellings": True, "link_resolvers": True}
    once = b"".join(canonicalize_lines(lines, **opts))
    twice = b"".join(canonicalize_lines([once], **opts))
    assert _triples(twice) == _triples(once)


def test_html_report_shows_the_added_statements(tmp_path, capsys):
    src = tmp_path / "in.nt"
    src.write_text(f"<{HOBBIT10[0]}> <{P}> <{HOBBIT13[0]}> .\n")
    page = tmp_path / "r.html"
    assert main(["canonicalize", str(src), "-o", str(tmp_path / "o.nt"), "--link", "-q",
                 "--html", str(page)]) == 0
    html = page.read_text()
    assert "owl:sameAs added" in html and "urnld:spelling added" not in html


@pytest.mark.parametrize("flag", ["--link", "--keep-spellings", "--link-resolvers"])
def test_endpoint_takes_the_modes(capsys, flag):
    # The modes work on a store too (tests/endpoint): with nothing listening on the port, the
    # one error line is the connection's, not a refusal of the flag.
    code = main(["canonicalize", "--endpoint", "http://127.0.0.1:9/sparql", flag])
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1 and "cannot connect" in err and flag not in err


@pytest.mark.parametrize("accelerated", [True, False], ids=["compiled", "pure"])
@pytest.mark.parametrize("keep_again", [True, False], ids=["keep-again", "literals-only"])
def test_spelling_records_survive_a_later_literals_run(tmp_path, monkeypatch, accelerated,
                                                       keep_again):
    # The record's literal says how the data spelled a URN; a later run that canonicalizes
    # literals must neither rewrite it (the spelling would be lost) nor record it again.
    from urnld._core import _accel
    from urnld.rdf import check_graph
    from urnld.report import CheckReport
    from urnld.stream import check_file

    if not accelerated:
        monkeypatch.setattr(_accel, "speedups", None)
    src = tmp_path / "in.nt"
    src.write_text(
        f'<http://e/a> <{P}> <{HOBBIT10[0]}> .\n<http://e/b> <{P}> "{HOBBIT10[0]}" .\n'
    )
    first = tmp_path / "first.nt"
    canonicalize_file(src, first, jobs=1, literals=True, keep_spellings=True)
    record = f'<{HOBBIT10[1]}> <{SPELLING}> "{HOBBIT10[0]}" .\n'.encode()
    assert record in first.read_bytes()

    second = tmp_path / "second.nt"
    report = canonicalize_file(first, second, jobs=1, literals=True, keep_spellings=keep_again)
    assert second.read_bytes() == first.read_bytes()
    assert report.rewritten == 0 and report.added == 0

    ds = Dataset()
    ds.parse(first, format="nt")
    memory = canonicalize(ds, literals=True, keep_spellings=keep_again)
    assert {tuple(map(str, q[:3])) for q in memory.graph.quads((None, None, None, None))} \
        == _triples(first.read_bytes())
    assert memory.report.rewritten == 0

    # check does not count the record as a (non-canonical) URN literal either.
    checked = check_file(first, jobs=1)
    in_memory = check_graph(ds, CheckReport())
    for r in (checked, in_memory):
        assert r.non_canonical_occurrences == 0 and r.literal_occurrences == 1
