"""Private helpers shared by the namespace modules: character scans and segment spans.

Every helper works on an NSS that already passed RFC 8141 syntax, so it holds only ASCII
``pchar`` characters, ``/`` and ``%XX`` escapes (plus ``?`` and ``#`` in RFC 2141 mode).

>>> segments("a:bc::d")
[(0, 1), (2, 4), (5, 5), (6, 7)]
"""

from __future__ import annotations

import re
import string

__all__ = [
    "PCHAR_NC_RE",
    "PCHAR_RE",
    "PCHAR_SLASH_RE",
    "quote_char",
    "segment_problem",
    "segments",
    "visible_span",
]

# RFC 3986 §3.3 pchar less ":" (what "PCHAR_NC" means in NAMESPACES.md), plus %XX escapes.
_PCHAR_NC_CHARS = re.escape(string.ascii_letters + string.digits + "-._~" + "!$&'()*+,;=" + "@")
PCHAR_NC_RE = rf"(?:[{_PCHAR_NC_CHARS}]|%[0-9A-Fa-f]{{2}})"
PCHAR_RE = rf"(?:[{_PCHAR_NC_CHARS}:]|%[0-9A-Fa-f]{{2}})"
PCHAR_SLASH_RE = rf"(?:[{_PCHAR_NC_CHARS}:/]|%[0-9A-Fa-f]{{2}})"


def segments(s: str, sep: str = ":") -> list[tuple[int, int]]:
    """``(start, end)`` of each *sep*-separated segment of *s* (empty segments included).

    >>> segments("std:iso")
    [(0, 3), (4, 7)]
    """
    out: list[tuple[int, int]] = []
    start = 0
    while True:
        end = s.find(sep, start)
        if end < 0:
            out.append((start, len(s)))
            return out
        out.append((start, end))
        start = end + len(sep)


def quote_char(s: str, i: int) -> str:
    """Describe the character at *i* for a message: a ``%XX`` escape is shown whole.

    >>> quote_char("a%2Fb", 1)
    "'%2F'"
    >>> quote_char("a b", 1)
    "' '"
    """
    if s[i] == "%" and i + 3 <= len(s):
        return repr(s[i : i + 3])
    return repr(s[i])


def visible_span(start: int, end: int, length: int) -> tuple[int, int]:
    """A non-empty span for a finding about an empty part: the separator before it.

    >>> visible_span(2, 2, 4), visible_span(0, 0, 3), visible_span(1, 3, 4)
    ((1, 2), (0, 1), (1, 3))
    """
    if start < end or length == 0:
        return start, end
    if start > 0:
        return start - 1, start
    return 0, 1


def segment_problem(
    nss: str, *, min_segments: int, slash_from: int | None, what: str
) -> tuple[str, int, int] | None:
    """The first structural problem of a ``:``-separated NSS: ``(message, start, end)``.

    Each segment must be non-empty; ``/`` is allowed only in segments at index *slash_from*
    and later (None: nowhere); at least *min_segments* segments. *what* names the structure
    in messages, e.g. ``"{ShortName}[:{SubName}]"``.

    >>> segment_problem("a::b", min_segments=1, slash_from=None, what="x")
    ('empty segment at NSS position 2 (structure: x)', 1, 2)
    >>> segment_problem("a", min_segments=2, slash_from=None, what="a:b")
    ('1 segment, at least 2 needed (structure: a:b)', 0, 1)
    """
    spans = segments(nss)
    for k, (start, end) in enumerate(spans):
        if start == end:
            return (
                f"empty segment at NSS position {start} (structure: {what})",
                *visible_span(start, end, len(nss)),
            )
        if slash_from is None or k < slash_from:
            slash = nss.find("/", start, end)
            if slash >= 0:
                return (
                    f"'/' at NSS position {slash} is not allowed here (structure: {what})",
                    slash,
                    slash + 1,
                )
    if len(spans) < min_segments:
        plural = "segment" if len(spans) == 1 else "segments"
        return (
            f"{len(spans)} {plural}, at least {min_segments} needed (structure: {what})",
            0,
            len(nss),
        )
    return None
