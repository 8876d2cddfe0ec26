"""Parsing: parts of valid URNs, exact positions and reasons of syntax errors, input types.

Positions are 0-based indexes of the first offending character (``len(text)`` when the input
ends too early), worked out by hand from RFC 8141 §2 for each row, not copied from output.
"""

from __future__ import annotations

import pickle

import pytest
from core_strategies import any_text, valid_urns
from hypothesis import given
from hypothesis import strategies as st

import urnld
from urnld import URN, URNError, URNSyntaxError, is_valid, parse

NID33 = "a" * 33
NID32 = "a" * 32

# (input, position, reason). Reasons are the library's documented messages.
MALFORMED: list[tuple[str, int, str]] = [
    ("", 0, "a URN starts with 'urn:'; the input ends early"),
    ("urn", 3, "a URN starts with 'urn:'; the input ends early"),
    ("urx:ex:a", 2, "a URN starts with 'urn:'"),
    ("urnn:ab:c", 3, "a URN starts with 'urn:'"),
    (" urn:ex:a", 0, "a URN starts with 'urn:'"),
    ("urn:", 4, "NID is missing"),
    ("urn::x", 4, "NID is missing"),
    ("urn:-a:b", 4, "NID may not start with '-'"),
    ("urn:a-:b", 5, "NID may not end with '-'"),
    ("urn:ab-:c", 6, "NID may not end with '-'"),
    ("urn:a:b", 4, "NID must have at least 2 characters"),
    # the 33rd NID character is the first one too many: 4 + 32
    (f"urn:{NID33}:x", 36, "NID is longer than 32 characters"),
    # too long AND a bad character later: the first offence (the 33rd character) is reported
    (f"urn:{'a' * 36}_:x", 36, "NID is longer than 32 characters"),
    ("urn:ex", 6, "':' and a namespace-specific string must follow the NID"),
    ("urn:e_x:a", 5, "character '_' is not allowed in a NID (letters, digits and '-' only)"),
    ("urn:é:a", 4, "NID must start with a letter or digit, not 'é'"),
    ("urn:ex:", 7, "namespace-specific string is empty"),
    ("urn:ex:/a", 7, "namespace-specific string may not start with '/'"),
    ("urn:ex:a?b", 8, "'?' must be followed by '+' (r-component) or '=' (q-component)"),
    ("urn:ex:a?#", 8, "'?' must be followed by '+' (r-component) or '=' (q-component)"),
    ("urn:ex:a?", 8, "'?' must be followed by '+' (r-component) or '=' (q-component)"),
    # draft -03 §5.1 example 7: a plain "?" query did not survive into RFC 8141
    ("urn:foo:a123,456?x=y", 16, "'?' must be followed by '+' (r-component) or '=' (q-component)"),
    ("urn:ex:a?+", 10, "r-component is empty"),
    ("urn:ex:a?+?=q", 10, "r-component is empty"),
    ("urn:ex:a?+#f", 10, "r-component is empty"),
    ("urn:ex:a?+/b", 10, "r-component may not start with '/'"),
    ("urn:ex:a?+?b", 10, "r-component may not start with '?'"),
    ("urn:ex:a?=", 10, "q-component is empty"),
    ("urn:ex:a?+b?=", 13, "q-component is empty"),
    ("urn:ex:a?=/b", 10, "q-component may not start with '/'"),
    ("urn:ex:a?=?b", 10, "q-component may not start with '?'"),
    ("urn:ex:a#b#c", 10, "'#' may appear only once in a URN"),
    ("urn:ex:a#b?+c#", 13, "'#' may appear only once in a URN"),
    ("urn:ex:a%2", 8, "'%' must be followed by two hex digits"),
    ("urn:ex:a%", 8, "'%' must be followed by two hex digits"),
    ("urn:ex:a%zz", 8, "'%' must be followed by two hex digits"),
    ("urn:ex:%g0", 7, "'%' must be followed by two hex digits"),
    ("urn:ex:a?+%", 10, "'%' must be followed by two hex digits"),
    ("urn:ex:a#%g0", 9, "'%' must be followed by two hex digits"),
    (
        "urn:ex:a b",
        8,
        "space is not allowed in a URN; percent-encode it as %20 (in the namespace-specific string)",
    ),
    (
        "urn:ex:é",
        7,
        "non-ASCII character 'é' must be percent-encoded as UTF-8 (%C3%A9) "
        "(in the namespace-specific string)",
    ),
    (
        "urn:ex:a\x00",
        8,
        "control character U+0000 is not allowed in a URN (in the namespace-specific string)",
    ),
    (
        "urn:ex:a\x7f",
        8,
        "control character U+007F is not allowed in a URN (in the namespace-specific string)",
    ),
    (
        "URN:EX:a\n",
        8,
        "control character U+000A is not allowed in a URN (in the namespace-specific string)",
    ),
    (
        "urn:ex:a<b>",
        8,
        "character '<' is not allowed in a URN; percent-encode it as %3C "
        "(in the namespace-specific string)",
    ),
    (
        "urn:ex:a?+b c",
        11,
        "space is not allowed in a URN; percent-encode it as %20 (in the r-component)",
    ),
    (
        "urn:ex:a?=b\\",
        11,
        "character '\\\\' is not allowed in a URN; percent-encode it as %5C (in the q-component)",
    ),
    (
        "urn:ex:a#b\"",
        10,
        "character '\"' is not allowed in a URN; percent-encode it as %22 (in the f-component)",
    ),
]


@pytest.mark.parametrize(("text", "position", "reason"), MALFORMED)
def test_malformed_position_and_reason(text: str, position: int, reason: str) -> None:
    with pytest.raises(URNSyntaxError) as info:
        parse(text)
    e = info.value
    if "draft-era query" in e.reason:
        # A bare ?query that '?=' repairs: the reason goes on to name the RFC 8141 spelling.
        assert (e.position, e.reason[: len(reason)]) == (position, reason)
        assert text[:position + 1] + "=" + text[position + 1:] in e.reason
    else:
        assert (e.position, e.reason) == (position, reason)
    assert e.text == text
    assert isinstance(e, URNError)
    assert isinstance(e, ValueError)
    assert not is_valid(text)
    # URN() and URN.parse() raise the same error.
    with pytest.raises(URNSyntaxError) as again:
        URN.parse(text)
    assert (again.value.position, again.value.reason) == (e.position, e.reason)


@pytest.mark.parametrize(("text", "code_point", "not_utf8"), [
    ("urn:ex:\ud800", "U+D800", "%ED%A0%80"),
    # how a 0xFF byte in argv or a file arrives (surrogateescape)
    ("urn:ex:\udcff", "U+DCFF", "%ED%B3%BF"),
])
def test_lone_surrogate_is_reported_without_bogus_advice(
    text: str, code_point: str, not_utf8: str
) -> None:
    # A lone surrogate has no UTF-8 encoding: advising its "UTF-8" escapes would lead the user
    # to a URN that check() flags as pct-not-utf8. Say what it is instead.
    with pytest.raises(URNSyntaxError) as info:
        parse(text)
    assert info.value.position == 7
    assert code_point in info.value.reason
    assert not_utf8 not in info.value.reason
    assert any(f.code == "pct-not-utf8" for f in urnld.check("urn:ex:" + not_utf8))


def test_nid_length_limits() -> None:
    assert parse(f"urn:{NID32}:x").nid == NID32
    assert parse("urn:ab:x").nid == "ab"
    assert not is_valid(f"urn:{NID33}:x")


def test_caret_rendering_short() -> None:
    with pytest.raises(URNSyntaxError) as info:
        parse("urn:isbn-:123")
    assert str(info.value) == (
        "NID may not end with '-' (at position 8)\n"
        "  urn:isbn-:123\n"
        "          ^"
    )


def test_caret_rendering_control_character_kept_aligned() -> None:
    # A tab would shift the caret on a terminal; it is shown as "?" (one column).
    with pytest.raises(URNSyntaxError) as info:
        parse("urn:ex:a\tb")
    assert str(info.value).splitlines()[1:] == ["  urn:ex:a?b", "          ^"]


def test_caret_rendering_long_input_is_excerpted() -> None:
    text = "urn:example:" + "a" * 100 + " " + "b" * 100
    with pytest.raises(URNSyntaxError) as info:
        parse(text)
    e = info.value
    assert e.position == 112
    # 40 characters either side of the fault, with ellipses where the text was cut.
    assert str(e) == (
        f"{e.reason} (at position 112)\n"
        f"  …{'a' * 40} {'b' * 39}…\n"
        f"  {' ' * 41}^"
    )


def test_syntax_error_pickles() -> None:
    with pytest.raises(URNSyntaxError) as info:
        parse("urn:ex:a b")
    e2 = pickle.loads(pickle.dumps(info.value))
    assert type(e2) is URNSyntaxError
    assert (e2.text, e2.position, e2.reason, str(e2)) == (
        info.value.text,
        info.value.position,
        info.value.reason,
        str(info.value),
    )


@pytest.mark.parametrize("bad", [None, b"urn:ex:a", bytearray(b"urn:ex:a"), 1, ["urn:ex:a"]])
def test_non_str_raises_type_error(bad: object) -> None:
    with pytest.raises(TypeError):
        parse(bad)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        URN(bad)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        is_valid(bad)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        urnld.canonical(bad)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        urnld.check(bad)  # type: ignore[arg-type]


def test_str_subclass_is_accepted_as_its_value() -> None:
    class Term(str):
        pass

    u = parse(Term("URN:Example:x"))
    assert type(str(u)) is str
    assert u.nid == "Example"


def test_unknown_mode_is_a_urn_error() -> None:
    with pytest.raises(URNError):
        parse("urn:ex:a", mode="rfc3986")  # type: ignore[arg-type]
    with pytest.raises(URNError):
        is_valid("urn:ex:a", mode="RFC8141")  # type: ignore[arg-type]


# --- parts ---------------------------------------------------------------------------------

PARTS = [
    ("URN:Example:a123%2cz456?+cc=us?=lang=en#p12", ("Example", "a123%2cz456", "cc=us", "lang=en", "p12")),
    ("urn:example:a123,z456", ("example", "a123,z456", None, None, None)),
    ("urn:example:a#", ("example", "a", None, None, "")),
    ("urn:example:a?+r?x", ("example", "a", "r?x", None, None)),
    ("urn:example:a?+r?", ("example", "a", "r?", None, None)),
    ("urn:example:a?+r?+s", ("example", "a", "r?+s", None, None)),
    ("urn:example:a?+r?=q", ("example", "a", "r", "q", None)),
    ("urn:example:a?=q?+x?=y", ("example", "a", None, "q?+x?=y", None)),
    ("urn:example:a?=q#f?+=", ("example", "a", None, "q", "f?+=")),
    ("urn:example:a/b/../c", ("example", "a/b/../c", None, None, None)),
    ("urn:example:a:", ("example", "a:", None, None, None)),
    ("urn:example:a/", ("example", "a/", None, None, None)),
    ("urn:example:%2F", ("example", "%2F", None, None, None)),
    ("urn:ietf:rfc:2141", ("ietf", "rfc:2141", None, None, None)),
    ("urn:example:1/406/47452/2", ("example", "1/406/47452/2", None, None, None)),
    # RFC 8141 §2.3.1-§2.3.3 examples (lost in the seed copy; as printed in the RFC)
    ("urn:example:foo-bar-baz-qux?+CCResolve:cc=uk",
     ("example", "foo-bar-baz-qux", "CCResolve:cc=uk", None, None)),
    ("urn:example:weather?=op=map&lat=39.56&lon=-104.85&datetime=1969-07-21T02:56:15Z",
     ("example", "weather", None, "op=map&lat=39.56&lon=-104.85&datetime=1969-07-21T02:56:15Z",
      None)),
    ("urn:example:foo-bar-baz-qux#somepart",
     ("example", "foo-bar-baz-qux", None, None, "somepart")),
]


@pytest.mark.parametrize(("text", "parts"), PARTS)
def test_parts(text: str, parts: tuple[object, ...]) -> None:
    u = parse(text)
    assert (u.nid, u.nss, u.r_component, u.q_component, u.f_component) == parts
    assert u.parts == parts
    assert str(u) == text
    assert u.assigned_name == text[: 4 + len(u.nid) + 1 + len(u.nss)]
    assert u.has_components == any(p is not None for p in parts[2:])
    assert u.mode == "rfc8141"


def test_assigned_name_keeps_scheme_spelling() -> None:
    assert parse("URN:Example:a123%2cz456?+cc").assigned_name == "URN:Example:a123%2cz456"


# --- RFC 2141 legacy mode --------------------------------------------------------------------

LEGACY_VALID = [
    ("urn:a:b", ("a", "b")),  # 1-char NID was legal
    ("urn:ab-:c", ("ab-", "c")),  # trailing hyphen was legal
    (f"urn:{NID32}:x", (NID32, "x")),
    ("urn:ex:a/b?c#d", ("ex", "a/b?c#d")),  # reserved, SHOULD NOT, but allowed
    ("URN:foo:a123,456", ("foo", "a123,456")),
    ("urn:foo:%41", ("foo", "%41")),
    ("urn:foo:/a", ("foo", "/a")),
]


@pytest.mark.parametrize(("text", "parts"), LEGACY_VALID)
def test_rfc2141_valid(text: str, parts: tuple[str, str]) -> None:
    u = parse(text, mode="rfc2141")
    assert (u.nid, u.nss) == parts
    assert (u.r_component, u.q_component, u.f_component) == (None, None, None)
    assert u.mode == "rfc2141"
    assert str(u) == text
    assert is_valid(text, mode="rfc2141")


LEGACY_INVALID = [
    ("urn:ex:a&b", 8, "character '&' is excluded from RFC 2141 URNs; use RFC 8141 mode"),
    ("urn:ex:a~b", 8, "character '~' is excluded from RFC 2141 URNs; use RFC 8141 mode"),
    ("urn:ex:a%00", 8, "%00 is forbidden in RFC 2141 (§2.4)"),
    ("urn:ex:", 7, "namespace-specific string is empty"),
    ("urn:-a:b", 4, "NID may not start with '-'"),
    (f"urn:{NID33}:x", 36, "NID is longer than 32 characters"),
    (f"urn:{'a' * 36}_:x", 36, "NID is longer than 32 characters"),  # B4 in legacy mode
]


@pytest.mark.parametrize(("text", "position", "reason"), LEGACY_INVALID)
def test_rfc2141_invalid(text: str, position: int, reason: str) -> None:
    with pytest.raises(URNSyntaxError) as info:
        parse(text, mode="rfc2141")
    assert (info.value.position, info.value.reason) == (position, reason)
    assert not is_valid(text, mode="rfc2141")


def test_rfc2141_and_rfc8141_differ_both_ways() -> None:
    # valid RFC 8141, invalid RFC 2141 ("&", "~", %00) and the reverse ("/" first, "a-", "?").
    # ("urn:ex:a?=q" is valid in both: "?" and "=" were NSS characters in RFC 2141.)
    assert parse("urn:ex:a?=q", mode="rfc2141").nss == "a?=q"
    for text in ("urn:ex:a&b", "urn:ex:a~b", "urn:ex:a%00"):
        assert is_valid(text) and not is_valid(text, mode="rfc2141")
    for text in ("urn:ex:/a", "urn:ab-:c", "urn:a:b", "urn:ex:a?b"):
        assert is_valid(text, mode="rfc2141") and not is_valid(text)


# --- robustness ------------------------------------------------------------------------------


@given(any_text)
def test_any_str_parses_or_raises_syntax_error(text: str) -> None:
    try:
        u = parse(text)
    except URNSyntaxError as e:
        assert e.text == text
        assert 0 <= e.position <= len(text)
        assert e.reason
        assert f"(at position {e.position})" in str(e)
        assert not is_valid(text)
    else:
        assert str(u) == text
        assert is_valid(text)
        # every method of a parsed URN works (to_rfc2141 may refuse, with its own error)
        assert u.display() and str(u.normalized()) and repr(u)
        assert urnld.canonical(text) == u.canonical_str
        assert urnld.equivalent(text, u)
        try:
            legacy = u.to_rfc2141()
        except urnld.URNConversionError:
            assert u.has_components or not is_valid(u.assigned_name, mode="rfc2141")
        else:
            assert is_valid(legacy, mode="rfc2141")
    # the functional front raises nothing but URNSyntaxError for a str
    for func in (urnld.canonical, lambda t: urnld.equivalent(t, "urn:example:a")):
        try:
            func(text)
        except URNSyntaxError:
            assert not is_valid(text)
    try:
        parse(text, mode="rfc2141")
    except URNSyntaxError as e:
        assert 0 <= e.position <= len(text)


# Characters allowed nowhere in a URN: inserting one moves the error exactly there.
_NEVER_ALLOWED = [" ", '"', "<", ">", "\\", "^", "`", "{", "|", "}", "é", "\x00", "\x7f", "\ud800"]


@given(valid_urns, st.data())
def test_error_position_of_a_forbidden_character(valid: str, data: st.DataObject) -> None:
    i = data.draw(st.integers(0, len(valid)))
    c = data.draw(st.sampled_from(_NEVER_ALLOWED))
    text = valid[:i] + c + valid[i:]
    with pytest.raises(URNSyntaxError) as info:
        parse(text)
    pos = info.value.position
    # Inside a %XX triplet the fault is the "%"; right after a delimiter "?" the fault is the
    # "?" (it must be followed by "+" or "="); otherwise it is the inserted character.
    allowed = {i}
    pct = valid.rfind("%", max(0, i - 2), i)
    if pct >= 0:
        allowed.add(pct)
    if i > 0 and valid[i - 1] == "?":
        allowed.add(i - 1)
    assert pos in allowed, (text, pos, info.value.reason)
