"""``urnld parse``'s quick ways give what the reference ``describe`` gives, byte for byte.

The stream writer (``_Describer``) answers the common case from the accelerator's check and
slices of the text (the fast lane) and everything else from one parse and check
(``check_described``). For every text, in both modes, strict or not, with or without a profile,
its dict, text block and JSON line must be those that the reference ``describe`` (``check()``
then ``URN()``) and the plain renderers make. Also: ``URN.canonical()``, which no longer parses
its result again, gives the same URN as parsing the canonical string.

Examples come from the RFCs (tests/data/nid_examples.jsonl, each row naming its source), the published identifiers of tests/namespaces/test_real_world.py, one input for every
finding code, and Hypothesis strategies (valid URNs, near misses, any text).
"""

from __future__ import annotations

import json
import re
import string
from pathlib import Path

import pytest
from core_strategies import near_misses, valid_urns
from hypothesis import given, settings
from hypothesis import strategies as st

from urnld import CODES, URN, URNSyntaxError, check, json_default
from urnld._core import accel
from urnld.cli._parse import _text, describe
from urnld.cli._parse_stream import _Describer

TESTS = Path(__file__).resolve().parents[1]


def _published() -> list[str]:
    """URNs of the RFC example table and of the real-world test table (as written there)."""
    found = re.findall(
        r"""["']((?:urn|URN):[^"'\s]+)["']""",
        (TESTS / "namespaces" / "test_real_world.py").read_text("utf-8"),
    )
    for line in (TESTS / "data" / "nid_examples.jsonl").read_text("utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            found += [row["urn"], *row.get("equivalent_to", []), *row.get("not_equivalent_to", [])]
    return found


PUBLISHED = _published()

#: One input for each finding code (the code it makes is asserted below).
BY_CODE = {
    "syntax": "urn:example:a b",
    "nid-experimental": "urn:X-local:a",  # RFC 8141 App. C
    "nid-informal-malformed": "urn:urn-07:a",  # RFC 8141 §5.2
    "nid-reserved": "urn:xy-ab:a",  # RFC 8141 §5.1: two letters and '-'
    "nid-doubled-scheme": "URN:urn:isbn:0-395-36341-1",
    "nid-unregistered": "urn:sha1:abc",
    "pct-lowercase": "urn:example:a%2cb",
    "pct-unreserved": "urn:example:%41b",
    "pct-nul": "urn:example:a%00",
    "pct-not-utf8": "urn:example:a%C3",
    "r-component": "urn:example:a?+r",
    "not-canonical": "URN:ISBN:0-395-36341-1",  # RFC 3187 style, hyphens
    "nss-invalid": "urn:uuid:not-a-uuid",
    "nss-check-digit": "urn:isbn:0-395-36341-2",
    "rfc2141-reserved-char": "urn:foo:a/b",
    "repairable": "urn:uuid:f81d4fae7dec11d0a76500a0c91e6bf6",  # RFC 9562 §4 without hyphens
}
#: Codes of the report's other findings, which check() never makes of a string.
NOT_CHECK_CODES = {"locator"}

#: Option sets: (mode, strict, profiles). The first is the one the fast lane serves.
OPTIONS = [
    ("rfc8141", False, []),
    ("rfc8141", True, []),
    ("rfc8141", False, ["nbn-de"]),
    ("rfc2141", False, []),
]


def _assert_same(text: str, mode: str = "rfc8141", strict: bool = False,
                 profiles: list[str] | None = None) -> None:
    profiles = profiles or []
    reference = describe(text, mode, strict, profiles)
    ref_text = _text(reference)
    ref_json = json.dumps(reference, ensure_ascii=False, default=json_default) + "\n"
    fast = _Describer(mode, strict, profiles)
    # The same writer without the accelerator's lane: the one-parse path alone.
    slow = _Describer(mode, strict, profiles)
    slow._fields = None
    for d in (fast, slow):
        assert d(text) == reference
        assert d.text(text) == ref_text
        assert d.valid is reference["valid"]
        d.valid = True
        assert d.json_line(text) == ref_json
        assert d.valid is reference["valid"]
        # Again, from the memos the first call filled.
        assert d.text(text) == ref_text
        assert d.json_line(text) == ref_json


@pytest.mark.parametrize(("code", "text"), BY_CODE.items())
def test_every_finding_code(code: str, text: str) -> None:
    mode = "rfc2141" if code == "rfc2141-reserved-char" else "rfc8141"
    assert code in [f.code for f in check(text, mode)]  # type: ignore[arg-type]
    for mode_, strict, profiles in OPTIONS:
        _assert_same(text, mode_, strict, profiles)


def test_every_code_has_an_example() -> None:
    assert set(BY_CODE) == set(CODES) - NOT_CHECK_CODES


@pytest.mark.parametrize("text", PUBLISHED)
def test_published_identifiers(text: str) -> None:
    for mode, strict, profiles in OPTIONS:
        _assert_same(text, mode, strict, profiles)


def test_the_fast_lane_is_taken() -> None:
    # Without this the differential tests could pass with a lane nobody enters.
    if accel.speedups is None:
        pytest.skip("the accelerator is not built (or URNLD_PURE_PYTHON=1)")
    # Valid URNs (an error's repair hint is for the full path), with every kind of finding the
    # lane writes: none, not-canonical, the NID's, percent-encoding lints.
    texts = ["urn:example:a", "URN:ISBN:0-395-36341-1", "urn:sha1:abc", "urn:example:a%2cb%41",
             "urn:uuid:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6"]
    warm = _Describer("rfc8141", False, [])
    for text in texts:  # a NID spelling's first URN makes the core remember its prefix
        warm.text(text)
    d = _Describer("rfc8141", False, [])
    d._check = None  # type: ignore[assignment]  # the one-parse path would raise
    for text in texts:
        d.text(text)
        d.json_line(text)


def test_nid_memo_is_bounded() -> None:
    d = _Describer("rfc8141", False, [])
    for i in range(d._MAX_NIDS + 50):
        d.text(f"urn:n{i}x:a")
    assert len(d._nids) <= d._MAX_NIDS and len(d._lanes) <= d._MAX_NIDS
    _assert_same(f"urn:n{d._MAX_NIDS + 10}x:a")


@settings(max_examples=300, deadline=None)
@given(valid_urns)
def test_valid_urns(text: str) -> None:
    _assert_same(text)


@settings(max_examples=300, deadline=None)
@given(near_misses())
def test_near_misses(text: str) -> None:
    _assert_same(text)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=40), st.sampled_from(OPTIONS))
def test_any_text(text: str, options: tuple[str, bool, list[str]]) -> None:
    _assert_same(text.strip() or "x", *options)


@settings(max_examples=150, deadline=None)
@given(st.one_of(valid_urns, near_misses()), st.sampled_from(OPTIONS[1:]))
def test_other_options(text: str, options: tuple[str, bool, list[str]]) -> None:
    _assert_same(text, *options)


@settings(max_examples=300, deadline=None)
@given(st.one_of(valid_urns, near_misses(), st.sampled_from(PUBLISHED)),
       st.sampled_from(["rfc8141", "rfc2141"]))
def test_canonical_urn_is_the_parsed_canonical_form(text: str, mode: str) -> None:
    try:
        urn = URN(text, mode)  # type: ignore[arg-type]
    except URNSyntaxError:
        return
    got = urn.canonical()
    expected = URN(urn.canonical_str, mode)  # type: ignore[arg-type]
    assert type(got) is URN and got.mode == expected.mode
    assert str(got) == str(expected)
    assert got.parts == expected.parts
    assert got.canonical_str == expected.canonical_str
    assert got == expected and hash(got) == hash(expected)
    assert got.canonical() is got or str(got.canonical()) == str(got)


def _reference_pct_lints(part: str, offset: int, what: str) -> list[tuple[str, str, int, int]]:
    """The percent-encoding lints as check() first made them: one pass over the escapes."""
    pct = re.compile(r"%([0-9A-Fa-f]{2})")
    unreserved = frozenset(string.ascii_letters + string.digits + "-._~")  # RFC 3986 §2.3
    out: list[tuple[str, str, int, int]] = []
    counts: dict[str, int] = {}

    def emit(code: str, message: str, start: int, end: int) -> None:
        n = counts.get(code, 0)
        counts[code] = n + 1
        if n < 3:
            out.append((code, message, offset + start, offset + end))

    high_start, high_end, high_bytes = -1, 0, bytearray()

    def flush_high(end: int) -> None:
        nonlocal high_start
        try:
            high_bytes.decode("utf-8")
        except UnicodeDecodeError:
            emit("pct-not-utf8", f"escapes {part[high_start:end]!r} in the {what} are not UTF-8",
                 high_start, end)
        high_start = -1
        high_bytes.clear()

    for m in pct.finditer(part):
        hexdigits = m[1]
        if hexdigits != hexdigits.upper():
            emit("pct-lowercase",
                 f"escape {m[0]!r} in the {what} should be written {m[0].upper()!r}", *m.span())
        value = int(hexdigits, 16)
        if value >= 0x80:
            start, end = m.span()
            if high_start >= 0 and start != high_end:
                flush_high(high_end)
            if high_start < 0:
                high_start = start
            high_bytes.append(value)
            high_end = end
            continue
        if value == 0:
            emit("pct-nul", f"%00 (NUL) in the {what}", *m.span())
        elif chr(value) in unreserved:
            emit("pct-unreserved",
                 f"{m[0]!r} in the {what} encodes {chr(value)!r}, which needs no encoding",
                 *m.span())
        if high_start >= 0:
            flush_high(high_end)
    if high_start >= 0:
        flush_high(high_end)
    return out


_ESCAPES = st.one_of(
    st.builds(lambda a, b: f"%{a}{b}", st.sampled_from("0123456789abcdefABCDEF"),
              st.sampled_from("0123456789abcdefABCDEF")),
    st.builds(lambda c: "".join(f"%{b:02X}" for b in c.encode("utf-8")), st.characters(
        blacklist_categories=("Cs",))),
    st.sampled_from(["%", "%%", "%4", "a", "/", "%C3", "%e2%82", "%00", "%2D", "%7e"]),
)


@settings(max_examples=500, deadline=None)
@given(st.lists(_ESCAPES, max_size=16).map("".join), st.integers(0, 40))
def test_percent_lints_match_the_one_pass_reference(part: str, offset: int) -> None:
    from urnld._core._pct_lints import pct_lints as _pct_lints

    got = _pct_lints(part, offset, "NSS")
    # Callers sort findings by (severity, start, code); the order within is not kept.
    assert sorted(got, key=lambda x: (x[2], x[0])) == sorted(
        _reference_pct_lints(part, offset, "NSS"), key=lambda x: (x[2], x[0]))
