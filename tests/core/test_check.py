"""check() and validate(): every finding code of the core, with severity and span.

Spans are (start, end) offsets into the checked text, worked out by hand for each row.
"""

from __future__ import annotations

import re

import pytest
from core_strategies import any_text, valid_urns
from hypothesis import given
from hypothesis import strategies as st

from urnld import (
    CODES,
    URN,
    Finding,
    Severity,
    URNError,
    URNValidationError,
    canonical,
    check,
    is_valid,
    parse,
    validate,
)

E, W, I = Severity.ERROR, Severity.WARNING, Severity.INFO  # noqa: E741

# (text, [(code, severity, span)]) in the order check() returns them: errors first, then
# warnings, then info; by position within a severity.
ROWS: list[tuple[str, list[tuple[str, Severity, tuple[int, int]]]]] = [
    # a clean, registered, canonical URN has no findings at all
    ("urn:example:a123,z456", []),
    ("urn:ietf:rfc:2141", []),
    # syntax: the span is the offending character
    ("urn:example:a b", [("syntax", E, (13, 14))]),
    ("urn:example:a?b", [("syntax", E, (13, 14))]),
    ("urn:ex", [("syntax", E, (6, 6))]),  # ends early: an empty span at the end
    ("", [("syntax", E, (0, 0))]),
    # NID policy (RFC 8141 §5)
    ("urn:x-foo:bar", [("nid-experimental", E, (4, 9))]),
    ("urn:X-Foo:bar", [("nid-experimental", E, (4, 9)), ("not-canonical", I, (0, 13))]),
    # RFC 8141 §5.1/§5.2 say what IANA registers, not what is a URN: warnings by default
    # (errors under strict, see test_nid_policy_strict)
    ("urn:urn-0:a", [("nid-informal-malformed", W, (4, 9))]),
    ("urn:urn-007:a", [("nid-informal-malformed", W, (4, 11))]),
    ("urn:urn-x:a", [("nid-informal-malformed", W, (4, 9))]),
    ("urn:ab:c", [("nid-reserved", W, (4, 6))]),  # two characters
    ("urn:ab-foo:c", [("nid-reserved", W, (4, 10))]),  # ALPHA ALPHA "-"
    ("urn:xn--ab:c", [("nid-reserved", W, (4, 10))]),  # ALPHA ALPHA "--" (A-labels)
    # a doubled scheme (seen in NARCIS records): 'urn' reads as the NID
    (
        "URN:urn:nbn:nl:ui:22-123456789",
        [("nid-doubled-scheme", W, (4, 7)), ("not-canonical", I, (0, 30))],
    ),
    # registry
    ("urn:sha1:abc", [("nid-unregistered", W, (4, 8))]),
    ("urn:a1-foo:abc", [("nid-unregistered", W, (4, 10))]),  # "a1-" is not two letters
    # percent-encoding lints
    ("urn:example:a%2cb", [("pct-lowercase", W, (13, 16)), ("not-canonical", I, (0, 17))]),
    ("urn:example:%41", [("pct-unreserved", W, (12, 15))]),
    ("urn:example:%7E", [("pct-unreserved", W, (12, 15))]),  # "~" is unreserved
    ("urn:example:%2F", []),  # "/" is reserved: encoding it is fine
    ("urn:example:a%00", [("pct-nul", W, (13, 16))]),
    ("urn:example:%C3%28", [("pct-not-utf8", W, (12, 15))]),  # lead byte without continuation
    ("urn:example:%A9", [("pct-not-utf8", W, (12, 15))]),  # lone continuation byte
    ("urn:example:%C3a%A9", [("pct-not-utf8", W, (12, 15)), ("pct-not-utf8", W, (16, 19))]),
    ("urn:example:%C0%80", [("pct-not-utf8", W, (12, 18))]),  # overlong NUL
    ("urn:example:%ED%A0%80", [("pct-not-utf8", W, (12, 21))]),  # UTF-16 surrogate
    ("urn:example:%C3%A9%E2%82%AC", []),  # é€: fine
    # r-component: the span covers "?+" and the component
    ("urn:example:a?+r", [("r-component", W, (13, 16))]),
    ("urn:example:a?+rr?=q", [("r-component", W, (13, 17))]),
    # lints apply to components as well
    (
        "urn:example:a?=%c3%28%41#%00",
        [
            ("pct-lowercase", W, (15, 18)),
            ("pct-not-utf8", W, (15, 18)),
            ("pct-unreserved", W, (21, 24)),
            ("pct-nul", W, (25, 28)),
            ("not-canonical", I, (0, 28)),
        ],
    ),
    # not canonical: the whole text
    ("URN:example:a", [("not-canonical", I, (0, 13))]),
    ("urn:EXAMPLE:a", [("not-canonical", I, (0, 13))]),
    ("urn:uuid:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6", [("not-canonical", I, (0, 45))]),
    # several levels at once: errors first
    (
        "URN:x-foo:a%2c?+r",
        [("nid-experimental", E, (4, 9)), ("pct-lowercase", W, (11, 14)),
         ("r-component", W, (14, 17)), ("not-canonical", I, (0, 17))],
    ),
]


@pytest.mark.parametrize(("text", "expected"), ROWS)
def test_findings(text: str, expected: list[tuple[str, Severity, tuple[int, int]]]) -> None:
    findings = check(text)
    assert [(f.code, f.severity, f.span) for f in findings] == expected
    for f in findings:
        assert isinstance(f, Finding)
        assert f.code in CODES
        assert f.severity == CODES[f.code][0]
        assert f.message
        assert 0 <= f.span[0] <= f.span[1] <= len(text)


def test_every_core_code_is_exercised() -> None:
    codes = {code for _, rows in ROWS for code, _, _ in rows}
    codes |= {f.code for f in check("urn:ex:a/b", mode="rfc2141")}
    # nss-invalid and nss-check-digit come from namespace rules (tests/namespaces); the core
    # reaches them through the hook:
    codes |= {f.code for f in check("urn:isbn:0-395-36341-2")}
    codes |= {f.code for f in check("urn:uuid:nope")}
    # A documented repair fixes it (urnld.repair): an info hint.
    codes |= {f.code for f in check("urn:uuid:f81d4fae7dec11d0a76500a0c91e6bf6")}
    # "locator" is a finding about an IRI of the data, not about a URN: the data checks give
    # it (tests/cli/test_spellings.py).
    assert codes == set(CODES) - {"locator"}


def test_lint_findings_are_capped() -> None:
    # A 1 MB string of lower-case escapes must not yield a million findings.
    findings = check("urn:example:" + "%2a" * 1000)
    assert 1 <= sum(f.code == "pct-lowercase" for f in findings) <= 10


def test_namespace_findings_through_the_hook() -> None:
    findings = check("URN:ISBN:0-395-36341-2")
    digit = [f for f in findings if f.code == "nss-check-digit"]
    assert len(digit) == 1
    assert digit[0].severity == E
    assert digit[0].rule is not None and digit[0].rule.startswith("isbn")
    # the span is inside the NSS (which starts at 9)
    assert 9 <= digit[0].span[0] < digit[0].span[1] <= 22
    invalid = [f for f in check("urn:uuid:xyz") if f.code == "nss-invalid"]
    assert len(invalid) == 1 and 9 <= invalid[0].span[0] < invalid[0].span[1] <= 12


def test_rfc2141_mode_findings() -> None:
    # RFC 2141 §2.3.2 asks for the escapes of its reserved characters, and the canonical form
    # has them: the one spelling RFC 8141 reads as the same name.
    found = check("urn:example:a/b?c#d", mode="rfc2141")
    assert [(f.code, f.severity, f.span) for f in found] == [
        ("rfc2141-reserved-char", W, (13, 14)), ("not-canonical", I, (0, 19))
    ]
    assert found[1].message == "canonical form is 'urn:example:a/b%3Fc%23d'"
    # the NID "urn" is reserved in RFC 2141 (§2): an error whatever strict says
    assert [(f.code, f.severity) for f in check("urn:urn:x", mode="rfc2141")] == [
        ("nid-reserved", E), ("nid-doubled-scheme", W)
    ]
    # syntax under the legacy grammar
    assert [(f.code, f.span) for f in check("urn:ex:a&b", mode="rfc2141")] == [
        ("syntax", (8, 9))
    ]


def test_validity_is_no_error_finding() -> None:
    assert not any(f.severity == E for f in check("urn:sha1:abc"))  # a warning only
    assert any(f.severity == E for f in check("urn:x-foo:bar"))
    assert is_valid("urn:x-foo:bar")  # ...but is_valid is syntax only


def test_options_are_accepted() -> None:
    assert check("urn:example:a", strict=True, profiles={"nbn-de"}) == []
    with pytest.raises(URNError):
        check("urn:example:a", mode="rfc1737")  # type: ignore[arg-type]


# --- validate ----------------------------------------------------------------------------------


def test_validate_returns_the_urn() -> None:
    u = validate("URN:ISBN:0-395-36341-1")
    assert isinstance(u, URN) and str(u) == "URN:ISBN:0-395-36341-1"
    # warnings do not fail validation
    assert str(validate("urn:sha1:abc?+r")) == "urn:sha1:abc?+r"


@pytest.mark.parametrize(
    ("text", "codes"),
    [
        ("urn:x-foo:bar", ["nid-experimental"]),
        ("urn:isbn:0-395-36341-2", ["nss-check-digit"]),
        ("urn:example:a b", ["syntax"]),
        ("urn:ab:c", ["nid-reserved"]),
    ],
)
def test_validate_raises_with_error_findings(text: str, codes: list[str]) -> None:
    with pytest.raises(URNValidationError) as info:
        validate(text, strict=True)
    e = info.value
    assert isinstance(e, URNError) and isinstance(e, ValueError)
    assert e.text == text
    assert [f.code for f in e.findings] == codes
    assert all(f.severity == E for f in e.findings)
    assert repr(text) in str(e)


# --- never raises ------------------------------------------------------------------------------


@given(any_text)
def test_check_never_raises_and_spans_are_in_range(text: str) -> None:
    for mode in ("rfc8141", "rfc2141"):
        findings = check(text, mode=mode)
        errors = [f for f in findings if f.severity == E]
        if not is_valid(text, mode=mode):
            assert [f.code for f in findings] == ["syntax"]
        else:
            assert all(f.code != "syntax" for f in findings)
        for f in findings:
            assert 0 <= f.span[0] <= f.span[1] <= len(text)
        assert findings == sorted(findings, key=lambda f: f.sort_key)
        if errors:
            with pytest.raises(URNValidationError):
                validate(text, mode=mode)
        else:
            assert str(validate(text, mode=mode)) == text


# --- every ASCII escape ------------------------------------------------------------------------

_UNRESERVED = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")


@pytest.mark.parametrize("byte", range(0x80))
def test_every_ascii_escape(byte: int) -> None:
    # RFC 3986 §2.3: escaping an unreserved character is needless; %00 is NUL (draft -03 §2.4);
    # escaping anything else (reserved, excluded, controls) is what escapes are for.
    upper = f"%{byte:02X}"
    expected = set()
    if byte == 0:
        expected.add("pct-nul")
    elif chr(byte) in _UNRESERVED:
        expected.add("pct-unreserved")
    assert {f.code for f in check("urn:example:x" + upper)} == expected
    lower = upper.lower()
    if lower != upper:
        assert {f.code for f in check("urn:example:x" + lower)} == expected | {
            "pct-lowercase",
            "not-canonical",
        }


# --- check() agrees with canonical() -----------------------------------------------------------


@given(valid_urns)
def test_not_canonical_iff_canonical_differs(text: str) -> None:
    codes = {f.code for f in check(text)}
    canon = canonical(text)
    assert ("not-canonical" in codes) == (canon != text)
    # the canonical form is a fixpoint of the canonical-form lints
    canon_codes = {f.code for f in check(canon)}
    assert "not-canonical" not in canon_codes
    assert "pct-lowercase" not in canon_codes
    assert ("pct-lowercase" in codes) <= ("not-canonical" in codes)
    # the other lints do not depend on the spelling of the same name
    assert codes - {"pct-lowercase", "not-canonical"} >= canon_codes - {"nss-invalid",
                                                                        "nss-check-digit"}
    # canonicalizing never makes a valid URN invalid
    if not any(f.severity == E for f in check(text)):
        assert not any(f.severity == E for f in check(canon)), canon


# --- Finding and Severity ------------------------------------------------------------------------


def test_finding_helpers() -> None:
    f = Finding("pct-nul", Severity.WARNING, "NUL", (5, 8))
    assert f.shifted(4).span == (9, 12) and f.span == (5, 8)
    assert f.to_dict() == {
        "code": "pct-nul", "severity": "warning", "message": "NUL", "span": [5, 8], "rule": None
    }
    assert Severity.ERROR == "error"  # type: ignore[comparison-overlap]  # a StrEnum
    assert str(Severity.INFO) == "info"
    with pytest.raises(AttributeError):
        f.code = "x"  # type: ignore[misc]
    errors_first = sorted([f, Finding("syntax", E, "x", (9, 10))], key=lambda x: x.sort_key)
    assert [x.code for x in errors_first] == ["syntax", "pct-nul"]


def test_public_surface() -> None:
    import urnld

    for name in ("URN", "URNSyntaxError", "URNError", "Finding", "Severity", "parse", "is_valid",
                 "check", "equivalent", "canonical", "find_urns", "validate",
                 "URNConversionError", "URNValidationError"):
        assert name in urnld.__all__
        assert getattr(urnld, name).__module__ == "urnld"
    assert issubclass(urnld.URNSyntaxError, urnld.URNError)
    assert issubclass(urnld.URNError, ValueError)
    assert issubclass(urnld.URNValidationError, urnld.URNError)
    assert issubclass(urnld.URNConversionError, urnld.URNError)


_SPAN_SHAPES = {
    "pct-lowercase": re.compile(r"%[0-9A-Fa-f]{2}"),
    "pct-unreserved": re.compile(r"%[0-9A-Fa-f]{2}"),
    "pct-nul": re.compile(r"%00"),
    "pct-not-utf8": re.compile(r"(?:%[89A-Fa-f][0-9A-Fa-f])+"),
    "r-component": re.compile(r"\?\+[^?#]*(?:\?(?!=)[^?#]*)*"),
}


@given(valid_urns)
def test_spans_point_at_what_they_name(text: str) -> None:
    nid_end = text.index(":", 4)
    for f in check(text):
        start, end = f.span
        shown = text[start:end]
        if f.code in _SPAN_SHAPES:
            assert _SPAN_SHAPES[f.code].fullmatch(shown), (f.code, shown, text)
        elif f.code.startswith("nid-"):
            assert (start, end) == (4, nid_end)
        elif f.code == "not-canonical":
            assert (start, end) == (0, len(text))
        elif f.code.startswith("nss-"):
            # namespace findings stay inside the NSS
            assert nid_end + 1 <= start <= end <= nid_end + 1 + len(parse(text).nss)


_HIGH_RUN = re.compile(r"(?:%[89A-Fa-f][0-9A-Fa-f])+")
_UTF8_MIXTURES = st.lists(
    st.sampled_from(["%C3%A9", "%c3", "%A9", "%E2%82%AC", "%E2%82", "%F0%9F%98%80", "%ED%A0%80",
                     "%C0%80", "%FF", "%41", "a", "/", "%2F"]),
    min_size=1, max_size=8,
).map(lambda pieces: "b" + "".join(pieces))  # a component may not start with "/"


@given(_UTF8_MIXTURES, st.sampled_from(["", "?+", "?=", "#"]), _UTF8_MIXTURES)
def test_pct_not_utf8_matches_a_reference(nss: str, delim: str, comp: str) -> None:
    text = "urn:example:" + nss + (delim + comp if delim else "")
    expected = []
    u = parse(text)
    offset = 12
    for part in (u.nss, u.r_component, u.q_component, u.f_component):
        if part is None:
            continue
        if offset > 12:  # past the NSS: skip the component's delimiter
            offset += 1 if text[offset] == "#" else 2
        bad = [
            (offset + m.start(), offset + m.end())
            for m in _HIGH_RUN.finditer(part)
            if not _decodes(m.group())
        ]
        expected += bad[:3]  # check() reports at most three per code and part
        offset += len(part)
    got = [f.span for f in check(text) if f.code == "pct-not-utf8"]
    assert sorted(got) == expected


def _decodes(run: str) -> bool:
    try:
        bytes.fromhex(run.replace("%", "")).decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True
