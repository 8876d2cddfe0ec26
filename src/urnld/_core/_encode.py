"""Percent-encoding of native names into URN parts, and decoding back (RFC 8141 §2, RFC 3986 §2).

Each part has its own grammar (RFC 8141 §2), so each has its own set of characters that may
stay literal. Everything else is written as ``%XX`` escapes of its UTF-8 bytes (RFC 8141 §2:
"percent-encoded UTF-8"), with upper-case hex (RFC 3986 §2.1). ``%`` itself always becomes
``%25``, so decoding gives back exactly the input.

* NSS: ``pchar *( pchar / "/" )``: ``/`` stays, except as the first character (``%2F``); ``?``
  and ``#`` are always escaped, so they cannot start a component.
* r-component: ``?`` is always escaped (``?=`` would end it); a leading ``/`` is escaped.
* q-component: a leading ``/`` or ``?`` is escaped; ``#`` is escaped.
* f-component: ``#`` is escaped; ``/`` and ``?`` stay (RFC 3986 fragment).

>>> encode_nss("Māori/a b?c#d")
'M%C4%81ori/a%20b%3Fc%23d'
>>> decode_nss("M%C4%81ori/a%20b%3Fc%23d")
'Māori/a b?c#d'
>>> encode_nss("/etc")
'%2Fetc'
"""

from __future__ import annotations

import re
from typing import Final, Literal
from urllib.parse import quote

from ..errors import URNSyntaxError

__all__ = [
    "URNEncodingError",
    "decode_component",
    "decode_nss",
    "encode_component",
    "encode_nss",
]

Part = Literal["nss", "r_component", "q_component", "f_component"]

# RFC 3986 sub-delims plus ":" and "@" (pchar less unreserved, which quote() always keeps).
_SUB_DELIMS: Final = "!$&'()*+,;="
_SAFE: Final[dict[Part, str]] = {
    "nss": _SUB_DELIMS + ":@/",
    "r_component": _SUB_DELIMS + ":@/",  # no "?": "?=" would end the r-component
    "q_component": _SUB_DELIMS + ":@/?",
    "f_component": _SUB_DELIMS + ":@/?",
}
# Characters that may not open a part although they may follow (RFC 8141 §2: each part starts
# with a pchar).
_NOT_FIRST: Final[dict[Part, str]] = {
    "nss": "/",
    "r_component": "/",
    "q_component": "/?",
    "f_component": "",
}
_ESCAPE_RUN: Final = re.compile(r"(?:%[0-9A-Fa-f]{2})+")


class URNEncodingError(URNSyntaxError):
    """Text cannot be percent-encoded as UTF-8, or an escape does not decode as UTF-8.

    Like :class:`~urnld.URNSyntaxError` (its base) it has ``text``, ``position`` and ``reason``:
    the position is the offending character of the input (encoding) or the first ``%`` of an
    escape sequence that is not UTF-8 (decoding).

    >>> try:
    ...     decode_nss("ab%C3%28")
    ... except URNEncodingError as e:
    ...     print(e.position, e.reason)
    2 the escape '%C3' is not part of a valid UTF-8 sequence (RFC 8141 §2)
    """


def encode_component(text: str, part: Part = "nss") -> str:
    """Percent-encode *text* so that it is exactly one *part* of a URN, nothing more.

    Raises :class:`URNEncodingError` for text that has no UTF-8 form (a lone surrogate).

    >>> encode_component("lang=en&x=?#", "q_component")
    'lang=en&x=?%23'
    >>> encode_component("?a", "q_component")
    '%3Fa'
    >>> encode_component("a?b", "r_component")
    'a%3Fb'
    """
    if type(text) is not str:
        if not isinstance(text, str):
            raise TypeError(f"expected str, not {type(text).__name__}")
        text = str.__str__(text)
    try:
        out = quote(text, safe=_SAFE[part], encoding="utf-8", errors="strict")
    except UnicodeEncodeError as e:
        raise URNEncodingError(
            text,
            e.start,
            f"{text[e.start]!r} has no UTF-8 form (a lone surrogate), so it cannot be "
            "percent-encoded (RFC 8141 §2)",
        ) from None
    if out and out[0] in _NOT_FIRST[part]:
        out = f"%{ord(out[0]):02X}" + out[1:]
    return out


def encode_nss(text: str) -> str:
    """Percent-encode *text* as an RFC 8141 NSS (see :func:`encode_component`).

    >>> encode_nss("100% sure")
    '100%25%20sure'
    """
    return encode_component(text, "nss")


def decode_component(text: str) -> str:
    """Decode every ``%XX`` escape of *text* as UTF-8; other characters are kept as they are.

    Raises :class:`URNEncodingError` at the first ``%`` not followed by two hex digits, or at
    the first escape sequence that is not UTF-8.

    >>> decode_component("lang%3Den")
    'lang=en'
    >>> decode_component("50%")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    urnld.URNEncodingError: '%' is not followed by two hex digits (RFC 3986 §2.1) ...
    """
    if type(text) is not str:
        if not isinstance(text, str):
            raise TypeError(f"expected str, not {type(text).__name__}")
        text = str.__str__(text)
    if "%" not in text:
        return text
    out: list[str] = []
    pos = 0
    for m in _ESCAPE_RUN.finditer(text):
        _literal(text, pos, m.start(), out)
        run = m[0]
        try:
            out.append(bytes.fromhex(run.replace("%", "")).decode("utf-8"))
        except UnicodeDecodeError as e:
            at = m.start() + 3 * e.start
            raise URNEncodingError(
                text,
                at,
                f"the escape {text[at:at + 3]!r} is not part of a valid UTF-8 sequence "
                "(RFC 8141 §2)",
            ) from None
        pos = m.end()
    _literal(text, pos, len(text), out)
    return "".join(out)


def _literal(text: str, start: int, end: int, out: list[str]) -> None:
    """Append ``text[start:end]`` (no escapes in it); a stray ``%`` is an error."""
    stray = text.find("%", start, end)
    if stray >= 0:
        raise URNEncodingError(
            text, stray, "'%' is not followed by two hex digits (RFC 3986 §2.1)"
        )
    out.append(text[start:end])


def decode_nss(text: str) -> str:
    """The native name behind an NSS: the inverse of :func:`encode_nss`.

    ``decode_nss(encode_nss(s)) == s`` for every ``str`` that has a UTF-8 form.

    >>> decode_nss("a%2Fb/c")
    'a/b/c'
    """
    return decode_component(text)
