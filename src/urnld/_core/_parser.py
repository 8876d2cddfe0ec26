"""Parsing: one compiled regex on the fast path, a diagnostic scanner when it fails.

Valid input costs one ``re.fullmatch``. Only when it fails does :func:`diagnose` walk the text
again to say *what* is wrong and *where*; both are built from the pieces in :mod:`urnld._core`,
and the test-suite checks that they accept exactly the same strings.
"""

from __future__ import annotations

import re
from typing import Final, Literal

from ..errors import URNSyntaxError
from . import _abnf

Mode = Literal["rfc8141", "rfc2141"]
MODES: Final = ("rfc8141", "rfc2141")

RFC8141_RE: Final = re.compile(_abnf.NAMESTRING)
RFC2141_RE: Final = re.compile(_abnf.RFC2141_NAMESTRING)

_NID_RUN = re.compile(r"[A-Za-z0-9\-]*")
_NSS_RUN = re.compile(rf"(?:{_abnf.PCHAR_SLASH}++|{_abnf.PCT_ENCODED})*+")
_R_RUN = re.compile(rf"(?:{_abnf.PCHAR_SLASH}++|{_abnf.PCT_ENCODED}|\?(?!=))*+")
_QF_RUN = re.compile(rf"(?:{_abnf.PCHAR_SLASH_QUERY}++|{_abnf.PCT_ENCODED})*+")
_RFC2141_NSS_RUN = re.compile(
    rf"(?:[{re.escape(_abnf.RFC2141_TRANS_CHARS + _abnf.RFC2141_RESERVED_CHARS)}]++"
    rf"|{_abnf.RFC2141_PCT_ENCODED})*+"
)
_HEX = frozenset(_abnf.HEX_CHARS)
_PCHAR = frozenset(_abnf.PCHAR_CHARS)


def _describe(c: str) -> str:
    """Why the character *c* cannot appear where it stands, and what to write instead."""
    if c == " ":
        return "space is not allowed in a URN; percent-encode it as %20"
    code = ord(c)
    if code < 0x20 or code == 0x7F:
        return f"control character U+{code:04X} is not allowed in a URN"
    if 0xD800 <= code <= 0xDFFF:
        # A lone surrogate has no UTF-8 form; U+DC80..U+DCFF is how Python carries an
        # undecodable byte (surrogateescape), so name the byte too.
        hint = f" (probably the undecodable byte 0x{code - 0xDC00:02X})" if code >= 0xDC80 else ""
        return f"lone surrogate U+{code:04X} is not a character and has no UTF-8 form{hint}"
    if code > 0x7F:
        encoded = "".join(f"%{b:02X}" for b in c.encode("utf-8"))
        return f"non-ASCII character {c!r} must be percent-encoded as UTF-8 ({encoded})"
    return f"character {c!r} is not allowed in a URN; percent-encode it as %{code:02X}"


def _bad_percent(text: str, i: int) -> URNSyntaxError:
    return URNSyntaxError(text, i, "'%' must be followed by two hex digits")


def _check_prefix(text: str) -> None:
    for i, expected in enumerate("urn:"):
        if i >= len(text):
            raise URNSyntaxError(text, i, "a URN starts with 'urn:'; the input ends early")
        if text[i].lower() != expected:
            raise URNSyntaxError(text, i, "a URN starts with 'urn:'")


def _scan_nid(text: str, *, legacy: bool) -> int:
    """Check the NID starting at 4; return the index of the ':' that ends it."""
    start = 4
    end = _NID_RUN.match(text, start).end()  # type: ignore[union-attr]  # matches empty
    nid = text[start:end]
    if nid.startswith("-"):
        raise URNSyntaxError(text, start, "NID may not start with '-'")
    # Faults are reported leftmost first: a NID already too long beats a bad character after it.
    if len(nid) > 32:
        raise URNSyntaxError(text, start + 32, "NID is longer than 32 characters")
    if end < len(text) and text[end] != ":":
        c = text[end]
        if not nid:
            raise URNSyntaxError(text, end, f"NID must start with a letter or digit, not {c!r}")
        raise URNSyntaxError(
            text, end, f"character {c!r} is not allowed in a NID (letters, digits and '-' only)"
        )
    if not nid:
        raise URNSyntaxError(text, end, "NID is missing")
    if end == len(text):
        raise URNSyntaxError(text, end, "':' and a namespace-specific string must follow the NID")
    if not legacy:
        if nid.endswith("-"):
            raise URNSyntaxError(text, end - 1, "NID may not end with '-'")
        if len(nid) < 2:
            raise URNSyntaxError(text, start, "NID must have at least 2 characters")
    return end


def _stop(text: str, i: int, what: str) -> URNSyntaxError:
    """The error for the character at *i* that ended a run inside *what*."""
    if text[i] == "%":
        return _bad_percent(text, i)
    return URNSyntaxError(text, i, _describe(text[i]) + f" (in the {what})")


def _first_char(text: str, i: int, what: str) -> None:
    """A component (NSS, r, q) must start with a pchar or a valid %XX."""
    n = len(text)
    if i >= n or text.startswith("?=", i) or text[i] == "#":
        raise URNSyntaxError(text, i, f"{what} is empty")
    c = text[i]
    if c in "/?":
        raise URNSyntaxError(text, i, f"{what} may not start with {c!r}")
    if c == "%":
        if not (i + 2 < n and text[i + 1] in _HEX and text[i + 2] in _HEX):
            raise _bad_percent(text, i)
    elif c not in _PCHAR:
        raise _stop(text, i, what)


def _diagnose_rfc8141(text: str) -> URNSyntaxError:
    _check_prefix(text)
    n = len(text)
    i = _scan_nid(text, legacy=False) + 1
    _first_char(text, i, "namespace-specific string")
    i = _NSS_RUN.match(text, i).end()  # type: ignore[union-attr]
    if i < n and text[i] == "?":
        if text.startswith("?+", i):
            i += 2
            _first_char(text, i, "r-component")
            i = _R_RUN.match(text, i).end()  # type: ignore[union-attr]
            if i < n and text[i] not in "?#":
                return _stop(text, i, "r-component")
        if i < n and text[i] == "?":
            if not text.startswith("?=", i):
                return URNSyntaxError(
                    text, i, "'?' must be followed by '+' (r-component) or '=' (q-component)"
                )
            i += 2
            _first_char(text, i, "q-component")
            i = _QF_RUN.match(text, i).end()  # type: ignore[union-attr]
            if i < n and text[i] != "#":
                return _stop(text, i, "q-component")
    if i < n and text[i] == "#":
        i = _QF_RUN.match(text, i + 1).end()  # type: ignore[union-attr]
        if i < n:
            if text[i] == "#":
                return URNSyntaxError(text, i, "'#' may appear only once in a URN")
            return _stop(text, i, "f-component")
    if i < n:
        return _stop(text, i, "namespace-specific string")
    # The regex rejected what the scanner accepts: a bug, but still a URNSyntaxError.
    return URNSyntaxError(text, 0, "not a valid URN")


def _diagnose_rfc2141(text: str) -> URNSyntaxError:
    _check_prefix(text)
    n = len(text)
    i = _scan_nid(text, legacy=True) + 1
    if i >= n:
        return URNSyntaxError(text, i, "namespace-specific string is empty")
    i = _RFC2141_NSS_RUN.match(text, i).end()  # type: ignore[union-attr]
    if i < n:
        if text.startswith("%00", i):
            return URNSyntaxError(text, i, "%00 is forbidden in RFC 2141 (§2.4)")
        if text[i] in "&~":
            return URNSyntaxError(
                text, i, f"character {text[i]!r} is excluded from RFC 2141 URNs; use RFC 8141 mode"
            )
        return _stop(text, i, "namespace-specific string")
    return URNSyntaxError(text, 0, "not a valid URN")


def _explain(text: str, mode: Mode) -> tuple[int, str]:
    error = diagnose(text, mode)
    i, reason = error.position, error.reason
    if mode == "rfc8141" and reason.startswith(_BARE_QUERY):
        # A draft-era bare ``?query`` (draft-ietf-urnbis-rfc2141bis, RFC 6241): when '?='
        # makes the whole string a URN, say so and how to write it.
        fixed = text[: i + 1] + "=" + text[i + 1 :]
        if RFC8141_RE.fullmatch(fixed) is not None:
            reason = (
                f"{reason}: {text[i:]!r} is a draft-era query (draft-ietf-urnbis-rfc2141bis, "
                f"RFC 6241); RFC 8141 writes a q-component as '?=': {fixed!r} "
                "(urnld.upgrade_draft_query converts it)"
            )
    return i, reason


_BARE_QUERY = "'?' must be followed by '+'"


def syntax_error(text: str, mode: Mode) -> URNSyntaxError:
    """The error for *text*, which failed to match; the scan for the fault runs on first use."""
    return URNSyntaxError._deferred(text, lambda: _explain(text, mode))


def diagnose(text: str, mode: Mode) -> URNSyntaxError:
    """Explain why *text* failed to match: the error to raise.

    >>> print(diagnose("urn:example:a b", "rfc8141").reason)
    space is not allowed in a URN; percent-encode it as %20 (in the namespace-specific string)
    """
    try:
        if mode == "rfc2141":
            return _diagnose_rfc2141(text)
        return _diagnose_rfc8141(text)
    except URNSyntaxError as e:
        return e
