"""The core's string normalizers: ``%XX`` case, ASCII case, URN-scheme prefix tests.

One home for the small text operations that RFC 8141 §3 equivalence is built from, used by the
core (:mod:`urnld._core._urn`), the namespace rules (:mod:`urnld.namespaces`) and the term rule
(:mod:`urnld._kernel`) alike, as rfc3986 keeps its ``normalizers`` module. Stdlib only.

>>> upper_pct("a%2cb"), lower_except_pct("Govt:M%c4%81ori"), is_urn_like("URN:x:y")
('a%2Cb', 'govt:m%C4%81ori', True)
"""

from __future__ import annotations

import re
from typing import Final

__all__ = [
    "LOWER_HEX_PCT",
    "is_urn_like",
    "lower_except_pct",
    "upper_except_pct",
    "upper_match",
    "upper_pct",
]

#: A ``%XX`` escape with at least one lower-case hex digit (the only ones §3 changes).
LOWER_HEX_PCT: Final = re.compile(r"%(?:[a-f][0-9A-Fa-f]|[0-9A-F][a-f])")


def upper_match(m: re.Match[str]) -> str:
    """``re.sub`` callback: the match, upper-cased.

    >>> LOWER_HEX_PCT.sub(upper_match, "%2c")
    '%2C'
    """
    return m[0].upper()


def upper_pct(s: str) -> str:
    """Upper-case the hex digits of every ``%XX`` (RFC 8141 §3, step 3).

    >>> upper_pct("a%2cb%d0%b0")
    'a%2Cb%D0%B0'
    """
    # Only escapes with a lower-case hex digit are visited, so upper-case data (most of it)
    # costs one C-level scan.
    if "%" not in s:
        return s
    return LOWER_HEX_PCT.sub(upper_match, s)


def lower_except_pct(s: str) -> str:
    """Lower-case ASCII letters, leaving ``%XX`` escapes upper-cased (case-insensitive NSS).

    >>> lower_except_pct("Govt:M%c4%81ori")
    'govt:m%C4%81ori'
    """
    return upper_pct(s.lower())


def upper_except_pct(s: str) -> str:
    """Upper-case ASCII letters; ``%XX`` escapes end up upper-cased too (they are hex).

    >>> upper_except_pct("0000-2cea-y%2f")
    '0000-2CEA-Y%2F'
    """
    return s.upper()


def is_urn_like(text: str) -> bool:
    """True when *text* starts with the ``urn:`` scheme, in any case (RFC 8141 §2: the scheme
    is case-insensitive). Says nothing about the rest: ``urn:`` alone is URN-like.

    >>> is_urn_like("URN:x:y"), is_urn_like("uRn:"), is_urn_like("http://x"), is_urn_like("urn")
    (True, True, False, False)
    """
    return text[:4].lower() == "urn:"
