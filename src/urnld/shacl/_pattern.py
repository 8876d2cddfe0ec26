"""The RFC 8141 syntax as an XPath / SPARQL ``REGEX`` pattern, for ``sh:pattern``.

:mod:`urnld._core` writes the grammar for Python's :mod:`re` (possessive repetitions, look-ahead,
inline flags). None of that exists in the regular expressions of XPath F&O §7.6 that
``sh:pattern`` and SPARQL ``REGEX`` use, so the pattern here is derived again from the same
character sets, with only the portable subset: character classes, ``|``, capturing groups,
``*`` ``+`` ``?`` ``{m,n}``, ``^`` and ``$``. The result means the same thing under XPath
(pyoxigraph, Jena), Java and Python, and the test-suite checks it against :func:`urnld.is_valid`.

Two places need care (RFC 8141 §2, strict reading, ``spec/URN.md`` §1):

* ``urn`` is case-insensitive, and XPath has no inline ``(?i)``: each letter is a class.
* the r-component ends at ``?=`` (the prose of §2.3.1), which :mod:`urnld._core` writes as the
  look-ahead ``\\?(?!=)``. Without look-ahead, "a string with no ``?=`` inside" is
  ``(X | \\?+Y)* \\?*`` where ``X`` is any r-component unit but ``?`` and ``Y`` any unit but
  ``?`` and ``=``: every run of ``?`` is followed by something other than ``=``, or ends the
  component.

>>> import re
>>> bool(re.search(URN_PATTERN, "URN:ISBN:0-395-36341-1"))
True
>>> bool(re.search(URN_PATTERN, "urn:xy:a?+r?=q#f")), bool(re.search(URN_PATTERN, "urn:xy:a?b"))
(True, False)
"""

from __future__ import annotations

from typing import Final

from .._core import abnf as _abnf

__all__ = ["URN_PATTERN", "URN_PATTERN_BODY", "xpath_class"]

# Characters that must be escaped inside an XPath/XSD character class ("-" would otherwise make a
# range or, before "[", a class subtraction; "^" first would negate).
_CLASS_SPECIAL = "\\[]-^"


def xpath_class(chars: str) -> str:
    """A character class matching exactly *chars*, portable to XPath, Java and Python.

    Runs of three or more consecutive letters or digits become ranges (``A-Z``), which keeps the
    pattern short; punctuation is listed one by one, so a reader sees exactly what is allowed.

    >>> xpath_class("abcx-")
    '[\\\\-a-cx]'
    """
    codes = sorted(set(map(ord, chars)))
    parts: list[str] = []
    i = 0
    while i < len(codes):
        j = i
        while (
            j + 1 < len(codes)
            and codes[j + 1] == codes[j] + 1
            and _kind(chr(codes[j + 1])) == _kind(chr(codes[i])) != ""
        ):
            j += 1
        lo, hi = chr(codes[i]), chr(codes[j])
        if j - i >= 2:
            parts.append(f"{_esc(lo)}-{_esc(hi)}")
            i = j + 1
        else:
            parts.append(_esc(lo))
            i += 1
    return "[" + "".join(parts) + "]"


def _kind(c: str) -> str:
    """Which alphanumeric run *c* may join ("" for punctuation, which never forms a range)."""
    if c.isascii() and c.isdigit():
        return "digit"
    if c.isascii() and c.isalpha():
        return "upper" if c.isupper() else "lower"
    return ""


def _esc(c: str) -> str:
    return "\\" + c if c in _CLASS_SPECIAL else c


# RFC 3986 §2.1: pct-encoded = "%" HEXDIG HEXDIG
_PCT: Final = "%[0-9A-Fa-f]{2}"


def _unit(chars: str) -> str:
    """One character of *chars* or one percent-encoded octet, as a capturing group."""
    return f"({xpath_class(chars)}|{_PCT})"


# RFC 3986 §3.3: pchar = unreserved / pct-encoded / sub-delims / ":" / "@"
_P: Final = _unit(_abnf.PCHAR_CHARS)
# pchar / "/"
_PS: Final = _unit(_abnf.PCHAR_CHARS + "/")
# pchar / "/" / "?"
_PSQ: Final = _unit(_abnf.PCHAR_CHARS + "/?")
# pchar / "/" but not "=": what may follow a run of "?" inside an r-component
_PS_NO_EQ: Final = _unit((_abnf.PCHAR_CHARS + "/").replace("=", ""))

# RFC 8141 §2: "urn" is case-insensitive
_URN: Final = "[uU][rR][nN]"
# RFC 8141 §2: NID = (alphanum) 0*30(ldh) (alphanum)
_NID: Final = "[A-Za-z0-9][A-Za-z0-9\\-]{0,30}[A-Za-z0-9]"
# RFC 8141 §2: NSS = pchar *(pchar / "/")
_NSS: Final = f"{_P}{_PS}*"
# RFC 8141 §2: r-component = pchar *( pchar / "/" / "?" ), ending at "?=" (§2.3.1 prose)
_R: Final = f"{_P}({_PS}|\\?+{_PS_NO_EQ})*\\?*"
# RFC 8141 §2: q-component = pchar *( pchar / "/" / "?" ), ending at "#"
_Q: Final = f"{_P}{_PSQ}*"
# RFC 3986 §3.5: fragment = *( pchar / "/" / "?" )
_F: Final = f"{_PSQ}*"

#: Unanchored body: namestring = assigned-name [ rq-components ] [ "#" f-component ].
URN_PATTERN_BODY: Final = f"{_URN}:{_NID}:{_NSS}(\\?\\+{_R})?(\\?={_Q})?(#{_F})?"

#: The ``sh:pattern`` of ``urnsh:URN`` (``shapes/urn.ttl``): the whole value is a URN.
URN_PATTERN: Final = f"^{URN_PATTERN_BODY}$"
