"""find_urns(): URNs in running text.

The rule (draft-ietf-urnbis-rfc2141bis-urn-03 §2.5.3, with urnld's choices where it leaves one):

* a URN starts at ``urn:`` (any case) that does not continue a word or another URI (not preceded
  by a letter, digit, ``+ - . / : % _``);
* it ends at the first character that cannot appear in a URN: space, controls, ``" < > \\ ^ `
  { | }``, and anything non-ASCII;
* trailing sentence punctuation is not part of it: ``. , ; : ! ?`` and ``'`` at the end are
  dropped, and so is a final ``)`` without a matching ``(`` inside the URN, unless what remains
  would not be a URN (``urn:ab:!`` keeps its ``!``, its whole NSS);
* wrappers from the 1993 URL draft are accepted: ``<urn:…>``, and ``<URN:urn:…>`` or
  ``<URL:urn:…>`` where ``URN:``/``URL:`` is a label before the URN;
* what remains is cut to its longest prefix that is a URN; candidates with no valid prefix are
  skipped. Nothing raises.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ._parser import RFC8141_RE
from ._urn import URN

__all__ = ["find_urns"]

_START = re.compile(r"(?<![A-Za-z0-9+\-./:%_])urn:", re.IGNORECASE)
_LABEL = re.compile(r"<(?:URN|URL):(?=urn:)", re.IGNORECASE)
_TRAILING = ".,;:!?'"
# The namestring without the final anchor: the longest prefix that is a URN.
_PREFIX = re.compile(RFC8141_RE.pattern)


def _shortest_cut(value: str) -> int:
    """How far trailing punctuation may be cut from *value* (a match of the grammar)."""
    # Count parentheses once: recounting per stripped character would be quadratic on
    # adversarial input such as "urn:a:b" followed by a million ")".
    opens = value.count("(")
    closes = value.count(")")
    end = len(value)
    while end:
        last = value[end - 1]
        if last in _TRAILING:
            end -= 1
        elif last == ")" and closes > opens:
            end -= 1
            closes -= 1
        else:
            break
    return end


# A prefix of a grammar match that fails to be a URN ends in an empty part ("urn:ab:",
# "…?+"); a few more characters always mend it. Bounding the attempts keeps the scan linear.
_MAX_ATTEMPTS = 8


def _trim(value: str) -> str:
    """*value* without the trailing punctuation that is not part of the URN."""
    cut = _shortest_cut(value)
    for end in range(cut, min(len(value), cut + _MAX_ATTEMPTS)):
        if _PREFIX.fullmatch(value, 0, end) is not None:
            return value[:end]
    return value


def find_urns(text: str) -> Iterator[tuple[int, int, URN]]:
    """Yield ``(start, end, urn)`` for each URN in *text*, left to right.

    Never raises on a ``str``; anything else (``None``, ``bytes``) is a :class:`TypeError` at
    the call, like every other function of urnld.

    >>> [(s, e, str(u)) for s, e, u in find_urns("See <URN:ISBN:0-395-36341-1>, or urn:x:y.")]
    [(5, 27, 'URN:ISBN:0-395-36341-1')]
    >>> [str(u) for _, _, u in find_urns("(urn:example:a(1)) and <URL:urn:ietf:rfc:2141>")]
    ['urn:example:a(1)', 'urn:ietf:rfc:2141']
    """
    if not isinstance(text, str):
        raise TypeError(f"find_urns() takes a str, not {type(text).__name__}")
    return _find(text)


def _find(text: str) -> Iterator[tuple[int, int, URN]]:
    # Labels are blanked out (same length) so offsets into *text* stay right.
    scan = _LABEL.sub(lambda m: "<" + " " * (len(m.group()) - 1), text)
    pos = 0
    while True:
        m = _START.search(scan, pos)
        if m is None:
            return
        start = m.start()
        # Matching the grammar directly (not a run of URN characters first) keeps the scan
        # linear: each start costs no more than the URN it yields.
        match = _PREFIX.match(scan, start)
        value = _trim(match.group()) if match is not None else ""
        if not value:
            pos = start + 4
            continue
        try:
            urn = URN(value)
        except ValueError:  # cannot happen: value matched the grammar; never raise anyway
            pos = start + 4
            continue
        end = start + len(value)
        yield start, end, urn
        pos = end
