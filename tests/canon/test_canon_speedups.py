"""The compiled stream accelerator changes no output byte and no report number (differential).

Each test runs the same input through the pure-Python pass (``urnld._core._accel.speedups = None``,
what ``URNLD_PURE_PYTHON=1`` selects) and through the accelerated one, and compares output
bytes and the report's JSON.
"""

from __future__ import annotations

import itertools
import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from urnld._core import _accel
from urnld._kernel._report import _Capped
from urnld._kernel._terms import SPELLING
from urnld.report import CanonicalizeReport, CheckReport
from urnld.stream import canonicalize_file, canonicalize_lines, check_file, check_lines

speedups = pytest.importorskip("urnld._core._speedups", reason="the C accelerator is not built")

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
# urnld's own spelling records (canonical IRI, spelling literal): the literal is no URN term
PREDICATE = st.one_of(IRI, IRI, IRI, st.just(f"<{SPELLING}>"))
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
    p = draw(PREDICATE)
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
        tokens[tok] = b"<X>" if tok.startswith((b"<U", b"<u")) else b""
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

    from urnld._kernel._terms import POLICY_OK_NIDS, TermVerdict
    from urnld.namespaces import PREFIXES, prefix_entry

    for nid in ("isbn", "example"):
        prefix_entry(nid)
        POLICY_OK_NIDS[nid] = None
    chunk = b"<URN:ISBN:0-395-36341-1> <http://e/p> <urn:example:%2f> .\n"
    tokens: dict[bytes, bytes] = {}
    info: dict[bytes, tuple] = {}

    def miss(tok: bytes) -> bytes:
        raise AssertionError(tok)  # both IRIs are the fast path's

    out, _n = speedups.rewrite(chunk, tokens, {}, miss, miss, False, info, PREFIXES,
                              POLICY_OK_NIDS, False, TermVerdict)
    assert out == b"<urn:isbn:0395363411> <http://e/p> <urn:example:%2F> .\n"
    entry = info[b"<URN:ISBN:0-395-36341-1>"]
    assert entry == ("URN:ISBN:0-395-36341-1",
                     TermVerdict("urn:isbn:0395363411", "urn:isbn:0395363411", "isbn", None,
                                 None, None), False)
    assert type(entry[1]) is TermVerdict
    for entry in info.values():
        assert not gc.is_tracked(entry) and not gc.is_tracked(entry[1])


# ---- the check pass's flush: check_counts + CheckReport.record_counts against record_checks --

# Spellings with many per canonical form (scheme and NID case, hex-digit case of escapes, ISBN
# hyphens), invalid ones (bad escapes, empty NSS, X- and too-short NIDs, wrong ISBN check digit
# (RFC 3187 §3.2: 0-395-36341-1 is the valid one), a NID in no table) and literals of every kind
# the check pass reads.
_SCHEME = st.sampled_from(["urn", "URN", "Urn"])
_NID = st.sampled_from(["example", "EXAMPLE", "Example", "isbn", "ISBN", "issn", "x-foo", "X-Bar",
                        "uuid", "a", "ietf", "nbn", "zz-none"])
_NSS = st.one_of(
    st.text(alphabet="aB%2cF-:/?#=+", max_size=6),
    st.sampled_from(["0-395-36341-1", "0395363411", "0-395-36341-2", "0317-8471", "0317-847x",
                     "F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6", "rfc:2141", "de:gbv:1"]),
)
CHECK_SPELLING = st.builds(lambda s, n, x: f"{s}:{n}:{x}", _SCHEME, _NID, _NSS)


@st.composite
def check_lines_(draw: st.DrawFn) -> list[str]:
    """N-Triples/N-Quads lines over a small pool of spellings, mostly in the usual layout."""
    pool = draw(st.lists(CHECK_SPELLING, min_size=6, max_size=40, unique=True))
    spelling = st.sampled_from(pool)
    iri = spelling.map(lambda s: f"<{s}>")
    literal = st.one_of(
        spelling.map(lambda s: f'"{s}"'),
        spelling.map(lambda s: f'"{s}"^^<{XSD}anyURI>'),
        spelling.map(lambda s: f'"{s}"^^<{XSD}string>'),
        spelling.map(lambda s: f'"{s}"@en'),  # language-tagged: never a URN term
        st.sampled_from(['"\\u0055RN:EXAMPLE:esc"', '"urn:example:\\u00e9"', '"urn:example:é"',
                         '"uri:x"', '"URN:ISBN:0-395-36341-1"^^<http://e/other>']),
    )
    out = []
    for _ in range(draw(st.integers(1, 50))):
        s = draw(st.one_of(iri, BNODE))
        o = draw(st.one_of(iri, literal, BNODE))
        g = draw(st.one_of(st.just(None), iri))
        p = draw(st.one_of(iri, iri, iri, st.just(f"<{SPELLING}>")))
        line = " ".join([s, p, o] + ([g] if g else []))
        out.append(line + draw(st.sampled_from([" .\n"] * 9 + [" . # c\n"])))
    return out


def _normalized(m: _Capped) -> list:
    """A report map's whole contents, in key order (runs on disk included)."""
    return list(m.iter_all())


def _check_run(lines: list[str], cuts: list[int], flushes: list[bool], cap: int, policy,
               accel, flush_accel) -> tuple[CheckReport, list]:
    """The check pass over *lines* cut into chunks at *cuts*, flushed after chunk i when
    flushes[i]; rewrite accelerated when *accel*, flush accelerated when *flush_accel*."""
    from urnld.stream._passes import CheckPass

    report = CheckReport(max_examples=cap)
    saved = _accel.speedups
    _accel.speedups = speedups if accel else None
    try:
        check = CheckPass(report, policy)
    finally:
        _accel.speedups = saved
    check._flush_c = speedups if flush_accel else None
    bounds = [0, *sorted(set(cuts)), len(lines)]
    states = []
    for i, (a, b) in enumerate(itertools.pairwise(bounds)):
        chunk = "".join(lines[a:b]).encode("utf-8")
        if chunk:
            check.run_chunk(chunk, a + 1, "<t>", "report")
        if flushes[i % len(flushes)]:
            check.flush()
            # what the example maps hold after the flush, cut to their caps (the C path
            # prunes once per batch, record_checks within it: the same keys survive)
            states.append([_normalized(m) for m in
                           (report._invalid, report._clusters, report._findings,
                            report._nids)])
    check.flush()
    return report, states


@settings(max_examples=200, deadline=None)
@given(check_lines_(), st.lists(st.integers(0, 50), min_size=1, max_size=5),
       st.lists(st.booleans(), min_size=1, max_size=3).map(lambda f: [True, *f]),
       st.sampled_from([1, 1, 2, 3]),
       st.sampled_from(["default", "strict"]))
def test_check_flush_identical(lines, cuts, flushes, cap, policy_name):
    """The compiled check flush (check_counts into CheckReport.batch_maps) fills the report
    exactly as the Python flush (record_checks): same to_dict(), same example maps, also with
    more spellings than the report's caps and over several flushes."""
    from urnld import Policy

    policy = Policy(strict=True) if policy_name == "strict" else Policy()
    runs = [_check_run(lines, cuts, flushes, cap, policy, accel, flush_accel)
            for accel, flush_accel in ((False, False), (True, False), (True, True),
                                       (False, True))]
    pure = runs[0][0]
    for report, _states in runs[1:]:
        assert report.to_dict() == pure.to_dict()
        assert (report.invalid, report.non_canonical, report.clusters, report.findings,
                report.nids) == (pure.invalid, pure.non_canonical, pure.clusters, pure.findings,
                                 pure.nids)
    # Same rewrite, Python or C flush: the same example maps after every flush.
    assert runs[2][1] == runs[1][1]
    assert runs[3][1] == runs[0][1]


def test_check_counts_reads_the_cache_and_calls_checked_on_a_miss():
    """check_counts takes a spelling's fields from the cache dict, asks checked() otherwise,
    and adds to the report's maps as record_checks does."""
    from urnld._kernel._terms import TermCache

    terms = TermCache()
    spellings = ["URN:ISBN:0-395-36341-1", "urn:isbn:0395363411", "urn:isbn:0-395-36341-2",
                 "urn:x-foo:a"]
    info = {s.encode(): (s, None, i == 1) for i, s in enumerate(spellings)}
    occ = {s.encode(): i + 1 for i, s in enumerate(spellings)}
    cache = {spellings[0]: terms.checked(spellings[0])}
    asked = []

    def checked(text):
        asked.append(text)
        return terms.checked(text)

    fast = CheckReport()
    got = speedups.check_counts(occ, info, cache, checked, fast.batch_maps)
    assert asked == spellings[1:]
    assert got == (8, 2, 7, 1)  # iris, literals, with errors, non-canonical
    fast.add_batch(*got)
    slow = CheckReport()
    slow.record_checks([(s, terms.checked(s), i == 1, i + 1) for i, s in enumerate(spellings)])
    assert fast.to_dict() == slow.to_dict()
    assert fast.invalid == {"urn:isbn:0-395-36341-2": (3, terms.checked(spellings[2])[1]),
                            "urn:x-foo:a": (4, terms.checked(spellings[3])[1])}
    assert fast.non_canonical == {"URN:ISBN:0-395-36341-1": (1, "urn:isbn:0395363411")}
    # A second batch adds to what is there; keys above a map's limit are left out (the
    # report's map dropped them or would drop them).
    report = CheckReport()
    maps = list(report.batch_maps)
    maps[2] = (maps[2][0], ("urn:isbn:0395363411", "URN:ISBN:0-395-36341-1"))
    maps[3] = (maps[3][0], "urn:isbn:0-395-36341-2")
    maps[4] = (maps[4][0], "A")
    for _ in range(2):
        speedups.check_counts(occ, info, cache, checked, tuple(maps))
    assert maps[2][0] == {("urn:isbn:0395363411", "URN:ISBN:0-395-36341-1"): 2}
    assert maps[3][0] == {"urn:isbn:0-395-36341-2": (6, terms.checked(spellings[2])[1])}
    assert maps[4][0] == {}
    assert maps[0][0]["not-canonical"] == 8 and maps[1][0] == {"isbn": 6}  # 1 + 3, twice
    with pytest.raises(TypeError, match="4-tuple"):
        speedups.check_counts(occ, info, None, lambda s: "no", report.batch_maps)
    with pytest.raises(KeyError):
        speedups.check_counts({b"<urn:a:b>": 1}, {}, None, checked, report.batch_maps)
    with pytest.raises(TypeError, match="five"):
        speedups.check_counts(occ, info, None, checked, (None, None, None))

    def broken(text):
        raise ValueError(text)

    with pytest.raises(ValueError, match="urn:isbn:0395363411"):  # the first miss
        speedups.check_counts(occ, info, cache, broken, CheckReport().batch_maps)


@pytest.fixture
def room_in_the_prefix_table() -> Iterator[None]:
    """The prefix table is bounded (hostile input invents NIDs): when earlier tests filled it,
    prefix_entry() computes an entry without keeping it. Room is made, and the table restored."""
    from urnld.namespaces import PREFIXES

    saved = dict(PREFIXES)
    PREFIXES.clear()
    yield
    PREFIXES.clear()
    PREFIXES.update(saved)


def test_usual_literals_take_the_fast_path(room_in_the_prefix_table: None) -> None:
    """A URN literal in the usual layout (plain, xsd:string, xsd:anyURI; ASCII, no escape) is
    judged in C, without a call to literal(); the others are not URN terms (a language tag, an
    other datatype) or go to literal() (escapes, non-ASCII, an invalid URN)."""
    from urnld._kernel._terms import POLICY_OK_NIDS, TermVerdict
    from urnld.namespaces import PREFIXES, prefix_entry

    for nid in ("ISBN", "example", "Example"):  # as the test data writes them
        prefix_entry(nid)
        POLICY_OK_NIDS[nid] = None
    any_uri = f"^^<{XSD}anyURI>".encode()
    chunk = (b'_:a <http://e/p> "URN:ISBN:0-395-36341-1"' + any_uri + b" .\n"
             b'_:a <http://e/p> "urn:example:x"^^<' + XSD.encode() + b"string> .\n"
             b'_:a <http://e/p> "Urn:Example:%2c" .\n'
             b'_:a <http://e/p> "urn:example:y"@en .\n'
             b'_:a <http://e/p> "urn:example:z"^^<http://e/t> .\n'
             b'_:a <http://e/p> "uri:x" .\n'
             b'_:a <http://e/p> "\\u0055RN:EXAMPLE:e" .\n'
             b'_:a <http://e/p> "urn:example:\xc3\xa9" .\n'
             b'_:a <http://e/p> "urn:x-foo:a" .\n')
    tokens: dict[bytes, bytes] = {}
    info: dict[bytes, tuple] = {}
    asked = []

    def literal(tok: bytes) -> bytes:
        asked.append(tok)
        tokens[tok] = b""
        return b""

    def iri(tok: bytes) -> bytes:
        raise AssertionError(tok)

    occ: dict[bytes, int] = {}
    out, n = speedups.rewrite(chunk, tokens, occ, iri, literal, True, info, PREFIXES,
                              POLICY_OK_NIDS, False, TermVerdict)
    assert n == 9
    assert asked == [b'"\\u0055RN:EXAMPLE:e"', b'"urn:example:\xc3\xa9"', b'"urn:x-foo:a"']
    assert out.splitlines()[:3] == [
        b'_:a <http://e/p> "urn:isbn:0395363411"' + any_uri + b" .",
        b'_:a <http://e/p> "urn:example:x"^^<' + XSD.encode() + b"string> .",
        b'_:a <http://e/p> "urn:example:%2C" .',
    ]
    assert out.splitlines()[3:] == chunk.splitlines()[3:]
    tok = b'"URN:ISBN:0-395-36341-1"' + any_uri
    assert info[tok] == ("URN:ISBN:0-395-36341-1",
                         TermVerdict("urn:isbn:0395363411", "urn:isbn:0395363411", "isbn", None,
                                     None, None), True)
    assert occ == {tok: 1, b'"urn:example:x"^^<' + XSD.encode() + b'string>': 1,
                   b'"Urn:Example:%2c"': 1}
    for t in (b'"urn:example:y"@en', b'"urn:example:z"^^<http://e/t>', b'"uri:x"'):
        assert tokens[t] == b"" and t not in info
    # The check pass's rewrite (verdict_type None): the same terms recorded, by spelling only,
    # and no output (the check pass keeps none).
    tokens.clear()
    asked.clear()
    info2: dict[bytes, tuple] = {}
    occ2: dict[bytes, int] = {}
    out, n = speedups.rewrite(chunk, tokens, occ2, iri, literal, True, info2, PREFIXES,
                              POLICY_OK_NIDS, False, None)
    assert out == b""
    assert occ2 == occ | {b'"urn:x-foo:a"': 1}  # recorded without being judged
    assert asked == [b'"\\u0055RN:EXAMPLE:e"', b'"urn:example:\xc3\xa9"']
    assert info2 == {t: (info[t][0], None, True) for t in occ} | {
        b'"urn:x-foo:a"': ("urn:x-foo:a", None, True)}
    assert n == 9
