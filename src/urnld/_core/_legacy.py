"""Draft-era and legacy spellings: recognising them and writing them the RFC 8141 way.

Before RFC 8141, drafts of its revision let a URN carry a plain query: rfc2141bis-03 had
``?s=…&c=…`` resolution directives, later drafts a ``?``-introduced q-component, and RFC 6241
(NETCONF) defines ``urn:ietf:params:netconf:capability:url:1.0?scheme=http,ftp``. RFC 8141
§2.3 writes the q-component as ``?=``, and a bare ``?`` is a syntax error; these helpers name
that form and convert it.

>>> draft_query_position("urn:ietf:params:netconf:capability:url:1.0?scheme=http,ftp")
42
>>> upgrade_draft_query("urn:ietf:params:netconf:capability:url:1.0?scheme=http,ftp")
'urn:ietf:params:netconf:capability:url:1.0?=scheme=http,ftp'
"""

from __future__ import annotations

from ..errors import URNConversionError
from ._parser import RFC8141_RE, diagnose

__all__ = ["draft_query_position", "legacy_escaped", "upgrade_draft_query"]

_BARE_QUERY_REASON = "'?' must be followed by '+'"


def draft_query_position(text: str) -> int | None:
    """Where *text* has a draft-era bare ``?query`` that makes it fail RFC 8141, else None.

    Only when inserting ``=`` after that ``?`` makes the whole string a URN: a bare ``?`` at
    the end, or one followed by something no query may hold, is some other fault.

    >>> draft_query_position("urn:example:a?s=1&c=2")
    13
    >>> draft_query_position("urn:example:a?") is None
    True
    >>> draft_query_position("urn:example:a?=ok") is None
    True
    """
    if not isinstance(text, str) or RFC8141_RE.fullmatch(text) is not None:
        return None
    error = diagnose(text, "rfc8141")
    i = error.position
    if not error.reason.startswith(_BARE_QUERY_REASON):
        return None
    if RFC8141_RE.fullmatch(text[: i + 1] + "=" + text[i + 1 :]) is None:
        return None
    return i


def upgrade_draft_query(text: str) -> str:
    """*text* with its draft-era ``?query`` written as an RFC 8141 q-component (``?=query``).

    A string that is already an RFC 8141 URN comes back unchanged; anything else that is not
    such a draft form raises :class:`~urnld.URNConversionError` saying why.

    >>> upgrade_draft_query("urn:example:a?s=1&c=2")
    'urn:example:a?=s=1&c=2'
    >>> upgrade_draft_query("urn:example:a?+r")
    'urn:example:a?+r'
    >>> upgrade_draft_query("urn:example:a b")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    urnld.URNConversionError: 'urn:example:a b' has no draft-era '?query' to convert: ...
    """
    if not isinstance(text, str):
        raise URNConversionError(f"expected a str, not {type(text).__name__}")
    if RFC8141_RE.fullmatch(text) is not None:
        return text
    i = draft_query_position(text)
    if i is None:
        raise URNConversionError(
            f"{text!r} has no draft-era '?query' to convert: {diagnose(text, 'rfc8141').reason}"
        )
    return text[: i + 1] + "=" + text[i + 1 :]


def legacy_escaped(text: str) -> str:
    """A legacy (RFC 2141) URN text with the NSS's ``?``, ``#`` and leading ``/`` escaped.

    RFC 2141 §2.3.2 reserves them and asks for their escapes; RFC 8141 would read the first
    two as the start of components and refuses the third, so the escaped text is the one both
    RFCs read as the same name. Returned as given where RFC 8141 has no form for it (an NID
    of one character or ending in ``-``).

    >>> legacy_escaped("urn:foo:/a?b#c")
    'urn:foo:%2Fa%3Fb%23c'
    >>> legacy_escaped("urn:a:b#c")
    'urn:a:b#c'
    """
    start = text.index(":", 4) + 1
    nss = text[start:]
    if "?" not in nss and "#" not in nss and not nss.startswith("/"):
        return text
    nss = nss.replace("?", "%3F").replace("#", "%23")
    if nss.startswith("/"):
        nss = "%2F" + nss[1:]
    escaped = text[:start] + nss
    return escaped if RFC8141_RE.fullmatch(escaped) is not None else text
