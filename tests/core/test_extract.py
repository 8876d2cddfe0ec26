"""find_urns(): URNs in running text (draft -03 §2.5.3 rule, <URN:…>/<URL:…> wrappers)."""

from __future__ import annotations

import re

import pytest
from core_strategies import any_text, oracle_parts, valid_urns
from hypothesis import example, given
from hypothesis import strategies as st

from urnld import URN, find_urns, is_valid


def found(text: str) -> list[tuple[int, int, str]]:
    return [(s, e, str(u)) for s, e, u in find_urns(text)]


CASES: list[tuple[str, list[str]]] = [
    # running text; trailing sentence punctuation is not part of the URN
    ("See urn:example:a123, and URN:ISBN:0-395-36341-1.", ["urn:example:a123", "URN:ISBN:0-395-36341-1"]),
    ("Is it urn:example:a?", ["urn:example:a"]),
    ("urn:example:a!?;:", ["urn:example:a"]),
    ("end: urn:example:a.", ["urn:example:a"]),
    ("'urn:example:a'", ["urn:example:a"]),
    ("\"urn:example:a\"", ["urn:example:a"]),
    # an apostrophe inside is a sub-delim and stays
    ("urn:example:a's book", ["urn:example:a's"]),
    # wrappers: <urn:…>, <URN:urn:…> and <URL:urn:…> (the 1993 draft's label)
    ("<urn:example:a>", ["urn:example:a"]),
    ("<URN:ISBN:0-395-36341-1>", ["URN:ISBN:0-395-36341-1"]),
    ("<URN:urn:example:a>", ["urn:example:a"]),
    ("<URL:urn:ietf:rfc:2141>", ["urn:ietf:rfc:2141"]),
    ("<url:URN:ietf:rfc:2141>", ["URN:ietf:rfc:2141"]),
    # parentheses: balanced ones are kept, an unmatched final ")" is dropped
    ("(see urn:example:a(1))", ["urn:example:a(1)"]),
    ("(urn:example:a)", ["urn:example:a"]),
    ("urn:example:a)", ["urn:example:a"]),
    ("urn:example:(a)", ["urn:example:(a)"]),
    # components are part of it
    ("urn:example:a?+b?=c#d, next", ["urn:example:a?+b?=c#d"]),
    ("urn:example:a#frag.", ["urn:example:a#frag"]),
    # ends at the first character that cannot be in a URN
    ("URN:EXAMPLE:A\turn:example:b", ["URN:EXAMPLE:A", "urn:example:b"]),
    ("urn:example:a<b>", ["urn:example:a"]),
    ("urn:example:a{x}", ["urn:example:a"]),
    ("urn:example:a|urn:example:b", ["urn:example:a", "urn:example:b"]),
    ("urn:example:aé", ["urn:example:a"]),
    # cut to the longest prefix that is a URN
    ("urn:example:a%2", ["urn:example:a"]),
    ("urn:example:a?b", ["urn:example:a"]),
    # not a URN start: inside a word or another URI
    ("aurn:example:a", []),
    ("http://x/urn:example:a", []),
    ("x.urn:example:a", []),
    ("x-urn:example:a", []),
    ("id=urn:example:a", ["urn:example:a"]),
    # nothing URN-like
    ("urn:a:b urn:ex: urn:example:x", ["urn:example:x"]),
    ("urn:example:é", []),
    ("", []),
    ("no urns here", []),
    # punctuation stays when without it there would be no URN, one character at a time
    ("urn:ab:!", ["urn:ab:!"]),
    ("URN:00:).", ["URN:00:)"]),
    ("(urn:abc:))", ["urn:abc:)"]),
    # syntax only: policy failures are still URNs in text (check() reports them)
    ("urn:x-foo:bar", ["urn:x-foo:bar"]),
]


@pytest.mark.parametrize(("text", "urns"), CASES)
def test_find_urns(text: str, urns: list[str]) -> None:
    result = found(text)
    assert [u for _, _, u in result] == urns
    for s, e, u in result:
        assert text[s:e] == u


def test_offsets_with_wrappers() -> None:
    assert found("See <URN:ISBN:0-395-36341-1>, or urn:x:y.") == [
        (5, 27, "URN:ISBN:0-395-36341-1")
    ]
    assert found("a <URL:urn:ietf:rfc:2141> b") == [(7, 24, "urn:ietf:rfc:2141")]


def test_yields_urn_values() -> None:
    (s, e, u), = find_urns("x urn:isbn:0-395-36341-1 y")
    assert isinstance(u, URN)
    assert u.equivalent("urn:isbn:0395363411")
    assert (s, e) == (2, 24)


@pytest.mark.parametrize("bad", [None, b"urn:example:a", 42])
def test_non_str_is_a_type_error_at_the_call(bad: object) -> None:
    # Silently yielding nothing hid the mistake (bytes read from a file, a missing value).
    with pytest.raises(TypeError, match="str"):
        find_urns(bad)  # type: ignore[arg-type]


_START_BLOCKERS = re.compile(r"[A-Za-z0-9+\-./:%_]")


@given(st.one_of(any_text, st.builds(
    lambda a, b, c: a + b + c,
    st.sampled_from(["urn:ab:", "(urn:abc:", "see urn:ex:a", "URN:Ex:"]),
    st.text(alphabet=".,;:!?')(x", max_size=6),
    st.sampled_from(["", " ", ") ", "."]),
)))
@example("urn:ab:!")  # no URN without the "!": kept
@example("URN:00:).")  # "URN:00:)" is a URN: only the "." goes
def test_never_raises_and_results_are_consistent(text: str) -> None:
    last_end = 0
    for s, e, u in find_urns(text):
        assert 0 <= last_end <= s < e <= len(text)
        # equal but for whitespace (a URN broken across lines inside <…>)
        assert re.sub(r"[ \t\r\n]", "", text[s:e]) == str(u)
        assert is_valid(str(u))
        # a URN never starts in the middle of a word or another URI
        assert s == 0 or not _START_BLOCKERS.fullmatch(text[s - 1])
        # and never ends with sentence punctuation, unless without it there is no URN
        # ("urn:ab:!" is the URN whose NSS is "!")
        stripped = str(u).rstrip(".,;:!?'")
        if stripped != str(u):
            assert not is_valid(stripped), (text, str(u))
        last_end = e


_SEPARATORS = [" ", "\n", "\t", " (", "\"", "<", ">", "|", "\u00a0"]


@given(valid_urns, st.sampled_from(_SEPARATORS), st.sampled_from(_SEPARATORS), st.text(max_size=10))
def test_a_urn_between_separators_is_found_exactly(
    urn: str, before: str, after: str, prefix: str
) -> None:
    # Only URNs that end in a character the trimming rule keeps: the rest are the rule's
    # documented judgement calls (tested in CASES).
    nss = re.split(r"\?[+=]|#", urn.split(":", 2)[2])[0]
    if set(nss) <= {"."}:
        return  # a placeholder (urn:uuid:...) is no URN, by the documented rule
    if urn[-1] in ".,;:!?')":
        urn = urn + "x" if "#" in urn else urn + "#x"
        if not is_valid(urn):
            return
    text = prefix + before + urn + after + " tail"
    start = len(prefix) + len(before)
    assert (start, start + len(urn), urn) in found(text)


@given(valid_urns)
def test_wrapped_urn_is_found(urn: str) -> None:
    for text in (f"<{urn}>", f"<URL:{urn}>", f"<URN:{urn}>"):
        got = found(text)
        expected_start = text.index(urn)
        # ">" cannot be in a URN, so the wrapper always ends it exactly (or earlier, trimmed)
        assert got and got[0][0] == expected_start
        assert urn.startswith(got[0][2])


# --- differential test against a reference written from the documented rule ---------------------

_BLOCKERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-./:%_")
_URN_CHARS = frozenset(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:@/?#%"
)
_LABEL = re.compile(r"<(?:URN|URL):(?=urn:)", re.IGNORECASE)
_ALNUM_ISH = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789%~_-")


def _reference_trim(value: str) -> str:
    # trailing punctuation and unmatched ")" go, one at a time, while a URN remains
    while (
        value[-1] in ".,;:!?'" or (value[-1] == ")" and value.count(")") > value.count("("))
    ) and oracle_parts(value[:-1]):
        value = value[:-1]
    return value


def reference_find(text: str) -> list[tuple[int, int, str]]:
    """The rule of urnld._core._extract's docstring, implemented the slow, obvious way."""
    labels = {m.end() for m in _LABEL.finditer(text)}
    scan = _LABEL.sub(lambda m: "<" + " " * (len(m.group()) - 1), text)
    out: list[tuple[int, int, str]] = []
    i, n = 0, len(scan)
    while True:
        j = i
        while j <= n - 4 and not (
            scan[j : j + 4].lower() == "urn:" and (j == 0 or scan[j - 1] not in _BLOCKERS)
        ):
            j += 1
        if j > n - 4:
            return out
        # a placeholder: an NSS of two or more dots, and nothing URN-like after them
        dots = re.match(r"urn:[A-Za-z0-9-]+:(\.{2,})", scan[j:], re.IGNORECASE)
        if dots and (j + dots.end() == n or scan[j + dots.end()] not in _ALNUM_ISH):
            i = j + dots.end()
            continue
        # inside <…>, a URN broken across lines: its whitespace is dropped
        if j in labels or (j > 0 and scan[j - 1] == "<"):
            close = scan.find(">", j)
            if 0 <= close - j < 4096:
                region = scan[j:close].rstrip(" \t\r\n")
                joined = re.sub(r"[ \t\r\n]", "", region)
                if (("\n" in region or "\r" in region) and oracle_parts(joined)
                        and _reference_trim(joined) == joined):
                    out.append((j, j + len(region), joined))
                    i = j + len(region)
                    continue
        # a quote before: ends at the next same quote; a list: ends before ",urn:" / ",http(s)://"
        limit = n
        if j > 0 and scan[j - 1] in "'\"":
            q = scan.find(scan[j - 1], j)
            limit = q if q >= 0 else n
        for sep in (",urn:", ",http://", ",https://"):
            at = scan.lower().find(sep, j, limit)
            if at >= 0:
                limit = min(limit, at)
        k = j
        while k < limit and scan[k] in _URN_CHARS:
            k += 1
        run = scan[j:k]
        # the longest prefix of the run that is a URN
        value = next((run[:m] for m in range(len(run), 0, -1) if oracle_parts(run[:m])), None)
        if value is None:
            i = j + 4
            continue
        value = _reference_trim(value)
        out.append((j, j + len(value), value))
        i = j + len(value)


_FRAGMENTS = st.one_of(
    valid_urns,
    st.sampled_from([" ", "(", ")", ".", ",", "<", ">", "<URL:", "<URN:", "urn:", "URN:", "?",
                     "#", "!", "'", "x", "é", "\n", "%", "urn:ab:", "-", ",urn:", ",http://",
                     "...", "\"", "\r\n  ", ":"]),
)


@given(st.lists(_FRAGMENTS, max_size=6).map("".join))
@example("URN:00:).")
@example("<URL:urn:ex:a>(urn:ex:b))")
def test_find_urns_matches_the_reference(text: str) -> None:
    assert found(text) == reference_find(text)


# --- real-world text (each source named) -----------------------------------------------------


def test_urn_broken_across_lines_inside_angle_brackets() -> None:
    # RFC 3986 App. C (Appendix E of draft-fielding-uri-rfc2396bis-01): whitespace inside the
    # delimiters is dropped; a NETCONF capability list wrapped by a mail client
    text = "caps: <urn:ietf:params:netconf:\n   capability:writable-running:1.0> ok"
    ((s, e, u),) = find_urns(text)
    assert str(u) == "urn:ietf:params:netconf:capability:writable-running:1.0"
    assert text[s:e] == "urn:ietf:params:netconf:\n   capability:writable-running:1.0"
    # the label form of the 1993 URL draft too
    ((_, _, u),) = find_urns("<URL:urn:ietf:\r\n rfc:2141>")
    assert str(u) == "urn:ietf:rfc:2141"
    # without the delimiters a line break still ends the URN
    assert [str(u) for _, _, u in find_urns("urn:ietf:params:netconf:\ncapability:x")] == [
        "urn:ietf:params:netconf"
    ]


def test_quote_ends_the_urn() -> None:
    # XEP-0369 (MIX) stanza: <items node='urn:xmpp:mix:nodes:messages'/>
    text = "<items node='urn:xmpp:mix:nodes:messages'/>"
    assert [str(u) for _, _, u in find_urns(text)] == ["urn:xmpp:mix:nodes:messages"]
    assert [str(u) for _, _, u in find_urns('x="urn:a1:b\'c"')] == ["urn:a1:b'c"]


def test_dash_profiles_list_is_split() -> None:
    # MPEG-DASH MPD @profiles (DASH-IF IOP examples)
    text = ('profiles="urn:mpeg:dash:profile:isoff-live:2011,'
            'http://dashif.org/guidelines/dash264,urn:hbbtv:dash:profile:isoff-live:2012"')
    matches = list(find_urns(text))
    assert [str(u) for _, _, u in matches] == [
        "urn:mpeg:dash:profile:isoff-live:2011",
        "urn:hbbtv:dash:profile:isoff-live:2012",
    ]
    assert not any(m.shortened for m in matches)
    assert [str(u) for _, _, u in find_urns("urn:a1:x,URN:a1:y,https://e.org/")] == [
        "urn:a1:x", "URN:a1:y"
    ]


def test_shortened_match_is_flagged() -> None:
    # RFC 6241 §8.8.3: the :url capability with its (draft-era) query
    text = "urn:ietf:params:netconf:capability:url:1.0?scheme=http,ftp,file"
    (m,) = find_urns(text)
    assert str(m.urn) == "urn:ietf:params:netconf:capability:url:1.0"
    assert m.shortened and m.rest == "?scheme=http,ftp,file"
    assert (m.start, m.end) == (0, 42)
    # sentence punctuation is not a cut-off part
    (m,) = find_urns("Is it urn:example:a?")
    assert not m.shortened and m.rest == ""


def test_placeholder_is_no_urn() -> None:
    # documentation and schema comments write urn:uuid:... for "some UUID"
    assert list(find_urns("an id such as urn:uuid:... goes here")) == []
    assert list(find_urns("<urn:uuid:...>")) == []
    assert [str(u) for _, _, u in find_urns("urn:ab:...x")] == ["urn:ab:...x"]
