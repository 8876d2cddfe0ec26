"""Independent oracles and Hypothesis strategies for the core tests.

Nothing here imports ``urnld._core._abnf``: the regexes below are written again, by hand, from the
ABNF in ``spec/URN.md`` §1 (RFC 8141 §2) and §4 (RFC 2141), in a different style (plain
alternations, no possessive quantifiers), so that a slip in the library's grammar cannot be
copied into the oracle that checks it.
"""

from __future__ import annotations

import re
import string

from hypothesis import strategies as st

# --- RFC 8141 §2 / RFC 3986, written out from URN.md §1 ---------------------------------------
# unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~"
UNRESERVED = string.ascii_letters + string.digits + "-._~"
# sub-delims = "!" / "$" / "&" / "'" / "(" / ")" / "*" / "+" / "," / ";" / "="
SUB_DELIMS = "!$&'()*+,;="
# pchar = unreserved / pct-encoded / sub-delims / ":" / "@"   (pct-encoded handled apart)
PCHAR_LITERALS = UNRESERVED + SUB_DELIMS + ":@"
HEX = "0123456789ABCDEFabcdef"

_P = r"(?:[A-Za-z0-9\-._~!$&'()*+,;=:@]|%[0-9A-Fa-f][0-9A-Fa-f])"
_NID = r"[A-Za-z0-9][A-Za-z0-9-]{0,30}[A-Za-z0-9]"
_NSS = rf"{_P}(?:{_P}|/)*"
# r-component ends (prose of §2.3.1) at "?=" or "#": a "?" inside it is data unless "=" follows.
_R = rf"{_P}(?:{_P}|/|\?(?!=))*"
_Q = rf"{_P}(?:{_P}|/|\?)*"
_F = rf"(?:{_P}|/|\?)*"
ORACLE_8141 = re.compile(
    rf"[Uu][Rr][Nn]:(?P<nid>{_NID}):(?P<nss>{_NSS})"
    rf"(?:\?\+(?P<r>{_R}))?(?:\?=(?P<q>{_Q}))?(?:#(?P<f>{_F}))?"
)

# --- RFC 2141, from URN.md §4 ------------------------------------------------------------------
# <NID> ::= <let-num> [ 1,31<let-num-hyp> ];  NSS: trans chars incl. reserved "/?#", or %XX
# except %00 (§2.4 "should NEVER be used"); "&", "~" and everything else excluded.
_NID_2141 = r"[A-Za-z0-9][A-Za-z0-9-]{0,31}"
_NSS_2141 = r"(?:[A-Za-z0-9()+,\-.:=@;$_!*'/?#]|%(?!00)[0-9A-Fa-f]{2})+"
ORACLE_2141 = re.compile(rf"[Uu][Rr][Nn]:(?P<nid>{_NID_2141}):(?P<nss>{_NSS_2141})")

_PCT_TRIPLET = re.compile(r"%([0-9A-Fa-f]{2})")


def oracle_parts(text: str) -> tuple[str, str, str | None, str | None, str | None] | None:
    """The five parts per the independent RFC 8141 regex, or None when it does not match."""
    m = ORACLE_8141.fullmatch(text)
    if m is None:
        return None
    return (m["nid"], m["nss"], m["r"], m["q"], m["f"])


def upper_hex(s: str) -> str:
    """Upper-case the hex digits of every %XX (RFC 8141 §3 step 3), written independently."""
    return _PCT_TRIPLET.sub(lambda m: "%" + m.group(1).upper(), s)


def generic_key(text: str) -> str:
    """RFC 8141 §3 equivalence key for NIDs without namespace rules (components dropped)."""
    parts = oracle_parts(text)
    assert parts is not None, text
    return f"urn:{parts[0].lower()}:{upper_hex(parts[1])}"


def normalized_components(text: str) -> tuple[str | None, str | None, str | None]:
    """The r/q/f components with %XX hex upper-cased (urnld's term identity, URN.md §3)."""
    parts = oracle_parts(text)
    assert parts is not None, text
    return tuple(None if c is None else upper_hex(c) for c in parts[2:])  # type: ignore[return-value]


# --- Strategies --------------------------------------------------------------------------------

hexdig = st.sampled_from(HEX)
pct_encoded = st.builds(lambda a, b: "%" + a + b, hexdig, hexdig)
pchar = st.one_of(st.sampled_from(PCHAR_LITERALS), pct_encoded)
pchar_no_eq = st.one_of(st.sampled_from(PCHAR_LITERALS.replace("=", "")), pct_encoded)

_ALNUM = string.ascii_letters + string.digits
# A few real NIDs (with namespace rules or registered) mixed in with random ones.
_KNOWN_NIDS = ["example", "EXAMPLE", "isbn", "ISBN", "uuid", "Uuid", "ietf", "oid", "nbn", "sha1"]


@st.composite
def nids(draw: st.DrawFn) -> str:
    if draw(st.booleans()):
        return draw(st.sampled_from(_KNOWN_NIDS))
    first = draw(st.sampled_from(_ALNUM))
    middle = draw(st.text(alphabet=_ALNUM + "-", max_size=30))
    last = draw(st.sampled_from(_ALNUM))
    return first + middle + last


@st.composite
def nsss(draw: st.DrawFn) -> str:
    first = draw(pchar)
    rest = draw(st.lists(st.one_of(pchar, st.just("/")), max_size=12))
    return first + "".join(rest)


@st.composite
def r_components(draw: st.DrawFn) -> str:
    # "?" is data in an r-component unless "=" follows (that starts the q-component).
    first = draw(pchar)
    token = st.one_of(
        pchar, st.just("/"), st.builds(lambda c: "?" + c, pchar_no_eq), st.just("?+")
    )
    rest = draw(st.lists(token, max_size=8))
    text = first + "".join(rest)
    # A trailing "?" is data too, as long as nothing makes it "?=".
    if draw(st.booleans()):
        text += "?"
    return text


@st.composite
def q_components(draw: st.DrawFn) -> str:
    first = draw(pchar)
    rest = draw(st.lists(st.one_of(pchar, st.sampled_from(["/", "?", "?+", "?="])), max_size=8))
    return first + "".join(rest)


@st.composite
def f_components(draw: st.DrawFn) -> str:
    items = draw(st.lists(st.one_of(pchar, st.sampled_from(["/", "?", "?+", "?="])), max_size=8))
    return "".join(items)


@st.composite
def urn_parts(draw: st.DrawFn) -> tuple[str, str, str, str | None, str | None, str | None]:
    """(scheme spelling, nid, nss, r, q, f) of a valid RFC 8141 URN."""
    scheme = draw(st.sampled_from(["urn", "URN", "Urn", "uRn", "urN"]))
    r = draw(st.none() | r_components())
    q = draw(st.none() | q_components())
    f = draw(st.none() | f_components())
    return scheme, draw(nids()), draw(nsss()), r, q, f


def assemble(scheme: str, nid: str, nss: str, r: str | None, q: str | None, f: str | None) -> str:
    text = f"{scheme}:{nid}:{nss}"
    if r is not None:
        text += "?+" + r
    if q is not None:
        text += "?=" + q
    if f is not None:
        text += "#" + f
    return text


valid_urns = urn_parts().map(lambda p: assemble(*p))

# Characters that make near misses interesting: delimiters, escapes, and the forbidden.
_MUTATION_CHARS = [*":/?#%+=-@!&~ ", "é", "\x00", "\x7f", "\ud800", "A", "0", "%2", "%zz"]


@st.composite
def near_misses(draw: st.DrawFn) -> str:
    """A valid URN with one to three local edits: some stay valid, most do not."""
    text = draw(valid_urns)
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(text)))
        op = draw(st.sampled_from(["insert", "delete", "replace", "duplicate"]))
        c = draw(st.sampled_from(_MUTATION_CHARS))
        if op == "insert":
            text = text[:i] + c + text[i:]
        elif op == "delete":
            text = text[:i] + text[i + 1 :]
        elif op == "replace":
            text = text[:i] + c + text[i + 1 :]
        else:
            text = text[:i] + text[i : i + 3] + text[i:]
    return text


# RFC 2141 strings: legal characters (and a few forbidden ones) after a legacy NID.
_NSS_2141_CHARS = _ALNUM + "()+,-.:=@;$_!*'/?#"


@st.composite
def rfc2141_candidates(draw: st.DrawFn) -> str:
    scheme = draw(st.sampled_from(["urn", "URN", "uRN"]))
    nid_first = draw(st.sampled_from(_ALNUM + "-"))
    nid_rest = draw(st.text(alphabet=_ALNUM + "-", max_size=33))
    token = st.one_of(
        st.sampled_from(_NSS_2141_CHARS),
        pct_encoded,
        st.just("%00"),
        st.sampled_from(["&", "~", " ", "%", "é", "\x00"]),
    )
    nss = "".join(draw(st.lists(token, max_size=12)))
    return f"{scheme}:{nid_first}{nid_rest}:{nss}"


# Everything a user could pass: any text, including lone surrogates and controls (Hypothesis
# excludes surrogates by default; ask for every category, and force a few in).
_any_char = st.one_of(
    st.characters(exclude_categories=()),
    st.sampled_from(["\ud800", "\udfff", "\x00", "\n", "\u200b", "\uffff", "\U0010ffff"]),
    st.sampled_from(PCHAR_LITERALS + "%?#/"),
)
any_text = st.one_of(
    st.text(alphabet=_any_char, max_size=60),
    st.builds(lambda a, b: a + b, st.sampled_from(["urn:", "URN:ex:", "urn:example:"]),
              st.text(alphabet=_any_char, max_size=40)),
    near_misses(),
)
