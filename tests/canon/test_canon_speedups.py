"""The compiled stream accelerator changes no output byte and no report number (differential).

Each test runs the same input through the pure-Python pass (``urnld._accel.speedups = None``,
what ``URNLD_PURE_PYTHON=1`` selects) and through the accelerated one, and compares output
bytes and the report's JSON.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from urnld import _accel
from urnld.report import CanonicalizeReport, CheckReport
from urnld.stream import canonicalize_file, canonicalize_lines, check_file, check_lines

speedups = pytest.importorskip("urnld._speedups", reason="the C accelerator is not built")

BENCH = Path(__file__).resolve().parents[2] / "bench"
XSD = "http://www.w3.org/2001/XMLSchema#"

# Spellings that exercise every branch: rule-less and ruled NIDs, escapes in either hex case,
# components, N-Triples \u escapes, non-ASCII, invalid syntax, X- NIDs, non-URNs near "urn:".
SPELLINGS = [
    "urn:example:a", "URN:EXAMPLE:a", "Urn:Example:a%2c", "urn:example:a%2C", "urn:ex:%c3%a9x",
    "urn:isbn:0395363411", "URN:ISBN:0-395-36341-1", "urn:ISBN:0-395-36341-2", "urn:isbn:abc",
    "urn:uuid:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6", "urn:issn:0317-8471", "URN:NBN:de:gbv:1",
    "urn:example:b?+r?=q#f", "URN:example:b#", "urn:example:b?=x%2fy", "urn:x-bad:1",
    "urn:urn-0:x", "urn:a:x", "urn:example:", "urn:example:a b", "urn:example:é",
    "\\u0055RN:EXAMPLE:esc", "u\\u0072n:example:esc2", "urn:example:\\u00e9", "urn:\\U0000003a",
    "http://e/x", "uri:x", "U", "urn:", "Urn:ietf:rfc:2141", "urn:oid:1.2.3",
]
IRI = st.sampled_from(SPELLINGS).map(lambda s: f"<{s}>")
BNODE = st.sampled_from(["_:b1", "_:b.2", "_:\xc3\xa9", "_:b-"])
LITERAL = st.one_of(
    st.sampled_from(SPELLINGS).map(lambda s: f'"{s}"'),
    st.sampled_from(SPELLINGS).map(lambda s: f'"{s}"^^<{XSD}anyURI>'),
    st.sampled_from(SPELLINGS).map(lambda s: f'"{s}"^^<{XSD}string>'),
    st.sampled_from(['"x"@en', '"y"@en-US', '"z"@ar--rtl', '"q\\"\\t"', '"\\u00e9"@fr',
                     '"1"^^<http://www.w3.org/2001/XMLSchema#integer>', '"bad"@', '"urn:a:b"@en']),
)
SEP = st.sampled_from([" ", " ", " ", "  ", "\t"])
END = st.sampled_from([" .\n", " .\n", " .\n", ".\n", " . # c\n", " .\r\n", " .", " . \n"])


@st.composite
def lines(draw: st.DrawFn, usual: bool = False) -> str:
    """A line: in the usual layout (S P O [G] .\n, single spaces) when *usual*, else any."""
    kind = 1 if usual else draw(st.integers(0, 19))
    if kind == 0:
        return draw(st.sampled_from(["\n", "# comment\n", "  \n", "<a> <b> .\n", "<< x >> .\n"]))
    s = draw(st.one_of(IRI, BNODE))
    p = draw(IRI)
    o = draw(st.one_of(IRI, BNODE, LITERAL))
    g = draw(st.one_of(st.just(None), IRI, BNODE))
    sep = " " if usual else draw(SEP)
    text = sep.join([s, p, o] + ([g] if g else []))
    return text + (" .\n" if usual else draw(END))


BODY = st.one_of(st.lists(lines(usual=True), max_size=40), st.lists(lines(), max_size=40))


def both(fn):
    """fn() with the accelerator off, then on."""
    out = []
    for module in (None, speedups):
        saved = _accel.speedups
        _accel.speedups = module
        try:
            out.append(fn())
        finally:
            _accel.speedups = saved
    return out


def canon(text: bytes, **opts):
    report = CanonicalizeReport()
    out = b"".join(canonicalize_lines(text.splitlines(keepends=True), report=report,
                                      on_error="report", **opts))
    return out, json.dumps(report.to_dict(), sort_keys=True)


@settings(max_examples=300)
@given(BODY, st.booleans(), st.booleans())
def test_canonicalize_lines_identical(body, literals, ignore):
    text = "".join(body).encode("utf-8")
    pure, fast = both(lambda: canon(text, literals=literals, ignore_components=ignore))
    assert fast == pure


@settings(max_examples=100)
@given(BODY)
def test_check_lines_identical(body):
    text = "".join(body).encode("utf-8")

    def run():
        report = CheckReport()
        check_lines(text.splitlines(keepends=True), report=report)
        return json.dumps(report.to_dict(), sort_keys=True)

    pure, fast = both(run)
    assert fast == pure


def test_usual_layout_takes_the_fast_path():
    """The accelerator answers for the usual layout (else the differential tests would compare
    the Python path with itself) and declines any other."""
    chunk = (b'<URN:EXAMPLE:a> <http://e/p> "t"@en .\n'
             b"_:b <http://e/p> <urn:isbn:0-395-36341-1> <urn:Example:g> .\n")
    tokens: dict[bytes, bytes] = {}
    occ: dict[bytes, int] = {}

    def miss(tok: bytes) -> bytes:
        tokens[tok] = b"<X>" if tok.startswith(b"<U") or tok.startswith(b"<u") else b""
        return tokens[tok]

    out, n = speedups.rewrite(chunk, tokens, occ, miss, miss, False)
    assert n == 2
    assert out == b'<X> <http://e/p> "t"@en .\n_:b <http://e/p> <X> <X> .\n'
    assert occ == {b"<URN:EXAMPLE:a>": 1, b"<urn:isbn:0-395-36341-1>": 1, b"<urn:Example:g>": 1}
    for other in (b"<a>  <b> <c> .\n", b"<a> <b> <c>.\n", b"<a> <b> <c> .\r\n", b"<a> <b> <c> .",
                  b"# c\n", b"<a> <b> <c> . # c\n"):
        assert speedups.rewrite(other, {}, {}, miss, miss, False) is None, other


@pytest.mark.parametrize("jobs", [1, 2])
def test_bench_dumps_identical(tmp_path: Path, jobs: int):
    """Both benchmark dumps (URN-dense and catalog), file to file, also with worker processes:
    identical output bytes and report JSON."""
    sys.path.insert(0, str(BENCH))
    try:
        from canonicalize import generate as catalog
        from gen_dense import generate as dense
    finally:
        sys.path.remove(str(BENCH))
    for name, gen in (("dense", dense), ("catalog", catalog)):
        src = tmp_path / f"{name}.nt"
        gen(src, 6000)

        def run(src=src, name=name):
            dst = tmp_path / f"{name}-{_accel.speedups is None}.nt"
            report = canonicalize_file(src, dst, jobs=jobs)
            check = json.dumps(check_file(src, jobs=jobs).to_dict(), sort_keys=True)
            return dst.read_bytes(), json.dumps(report.to_dict(), sort_keys=True), check

        pure, fast = both(run)
        if jobs == 2:  # the same report as one process
            assert fast[2] == json.dumps(check_file(src, jobs=1).to_dict(), sort_keys=True)
        assert fast[0] == pure[0]
        assert fast[1] == pure[1]
        assert fast[2] == pure[2]


def test_fast_path_entries_are_not_gc_tracked():
    """The verdicts the accelerator makes hold only strings and None: it untracks them (and
    their info entries), so the garbage collector does not walk ~100k of them at every
    collection of the older generations (CPython never untracks a tuple subclass itself)."""
    import gc

    from urnld._terms import POLICY_OK_NIDS, TermVerdict
    from urnld.namespaces import PREFIXES, prefix_entry

    for nid in ("isbn", "example"):
        prefix_entry(nid)
        POLICY_OK_NIDS[nid] = None
    chunk = b"<URN:ISBN:0-395-36341-1> <http://e/p> <urn:example:%2f> .\n"
    tokens: dict[bytes, bytes] = {}
    info: dict[bytes, tuple] = {}

    def miss(tok: bytes) -> bytes:
        raise AssertionError(tok)  # both IRIs are the fast path's

    out, n = speedups.rewrite(chunk, tokens, {}, miss, miss, False, info, PREFIXES,
                              POLICY_OK_NIDS, False, TermVerdict)
    assert out == b"<urn:isbn:0395363411> <http://e/p> <urn:example:%2F> .\n"
    entry = info[b"<URN:ISBN:0-395-36341-1>"]
    assert entry == ("URN:ISBN:0-395-36341-1",
                     TermVerdict("urn:isbn:0395363411", "urn:isbn:0395363411", "isbn", None,
                                 None, None), False)
    assert type(entry[1]) is TermVerdict
    for entry in info.values():
        assert not gc.is_tracked(entry) and not gc.is_tracked(entry[1])
