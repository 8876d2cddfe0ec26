"""find_urns(): URNs in running text.

The rule (draft-ietf-urnbis-rfc2141bis-urn-03 §2.5.3; RFC 3986 App. C, which is Appendix E of
draft-fielding-uri-rfc2396bis-01; the 1993 URL draft's wrappers; with urnld's choices where
they leave one):

* a URN starts at ``urn:`` (any case) that does not continue a word or another URI (not preceded
  by a letter, digit, ``+ - . / : % _``);
* it ends at the first character that cannot appear in a URN: space, controls, ``" < > \\ ^ `
  { | }``, and anything non-ASCII;
* when ``urn:`` follows a quote (``'`` or ``"``), it ends at the next such quote at the latest
  (``node='urn:xmpp:mix:nodes:messages'/>``);
* a list written with commas is split: a URN ends before ``,urn:``, ``,http://`` and
  ``,https://`` (MPEG-DASH ``@profiles``, ``urn:…:2011,http://…,urn:…``);
* trailing sentence punctuation is not part of it: ``. , ; : ! ?`` and ``'`` at the end are
  dropped, and so is a final ``)`` without a matching ``(`` inside the URN, unless what remains
  would not be a URN (``urn:ab:!`` keeps its ``!``, its whole NSS);
* wrappers from the 1993 URL draft are accepted: ``<urn:…>``, and ``<URN:urn:…>`` or
  ``<URL:urn:…>`` where ``URN:``/``URL:`` is a label before the URN. Inside ``<…>``, whitespace
  is dropped when it holds a line break (RFC 3986 App. C: a URI broken across lines); such a
  match's offsets span the text with its whitespace, its URN has none;
* a placeholder (an NSS of dots only, ``urn:uuid:...``) is no URN;
* what remains is cut to its longest prefix that is a URN; candidates with no valid prefix are
  skipped. When the text goes on with URI characters after that prefix (``…:url:1.0?scheme=…``,
  which RFC 8141 does not allow), the match is *shortened*: :attr:`URNMatch.shortened` is true
  and :attr:`URNMatch.rest` holds what was left behind, so callers can tell that the URN found
  is not what the text wrote. Nothing raises.

With ``locators=True``, a locator that stands for a URN by the resolver table
(:func:`urnld.resolvers.urn_of_locator`: ``https://nbn-resolving.org/urn:nbn:…``,
``https://doi.org/10.…``, ``doi:10.…``) is reported too, as a match of :attr:`URNMatch.kind`
``"locator"`` whose offsets span the locator and whose :attr:`URNMatch.locator` is its text; a
URN written inside such a locator (``…/resolve?urn=urn:nbn:se:…``) is then reported once, as
the locator. A locator ends where a URN would (space, ``" < > \\ ^ ` { | }``, non-ASCII) and
loses trailing sentence punctuation the same way.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ._parser import RFC8141_RE
from ._urn import URN

__all__ = ["URNMatch", "find_urns"]

_START = re.compile(r"(?<![A-Za-z0-9+\-./:%_])urn:", re.IGNORECASE)
_LABEL = re.compile(r"<(?:URN|URL):(?=urn:)", re.IGNORECASE)
_TRAILING = ".,;:!?'"
# The namestring without the final anchor: the longest prefix that is a URN.
_PREFIX = re.compile(RFC8141_RE.pattern)
_LIST_SPLIT = re.compile(r",(?:urn:|https?://)", re.IGNORECASE)
_PLACEHOLDER = re.compile(r"urn:[A-Za-z0-9-]+:\.{2,}(?![.A-Za-z0-9%~_\-])", re.IGNORECASE)
# Characters that may continue a URI (RFC 3986 unreserved, reserved and '%'): a match that
# stops before one of them is shortened.
_URI_CHARS = frozenset(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:@/?#[]%"
)
_SPACE = re.compile(r"[ \t\r\n]+")
# How far a '<' wrapper is searched for its '>' when the URN inside is broken across lines.
_MAX_WRAPPED = 4096
_MAX_REST = 64


class URNMatch(tuple[int, int, URN]):
    """One URN found in text: unpacks as ``(start, end, urn)``.

    Attributes:
        start, end: offsets of the URN in the text (whitespace included for a URN broken
            across lines inside ``<…>``); of the locator for a ``"locator"`` match.
        urn: the URN.
        shortened: the text goes on with URI characters that the URN could not take (the
            match is the longest prefix that is a URN, not what the text wrote).
        rest: those characters (up to 64), ``""`` when not shortened.
        kind: ``"urn"`` for a URN written as one, ``"locator"`` for a resolver's address
            that stands for it (``find_urns(…, locators=True)``).
        locator: the locator's text for a ``"locator"`` match, else None.
    """

    shortened: bool
    rest: str
    kind: str
    locator: str | None

    def __new__(
        cls, start: int, end: int, urn: URN, rest: str = "", locator: str | None = None
    ) -> URNMatch:
        self = super().__new__(cls, (start, end, urn))
        self.shortened = bool(rest)
        self.rest = rest
        self.kind = "urn" if locator is None else "locator"
        self.locator = locator
        return self

    @property
    def start(self) -> int:
        return self[0]

    @property
    def end(self) -> int:
        return self[1]

    @property
    def urn(self) -> URN:
        return self[2]

    def __repr__(self) -> str:
        tail = f", rest={self.rest!r}" if self.shortened else ""
        if self.locator is not None:
            tail += f", locator={self.locator!r}"
        return f"URNMatch({self[0]}, {self[1]}, {str(self[2])!r}{tail})"


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


def _cut(scan: str, start: int, end: int) -> int | None:
    """Where, before *end*, the URN starting at *start* must end: a closing quote, a list comma.

    Only ``scan[start:end]`` (the grammar's match) is searched, which keeps the scan linear.
    """
    limit = end
    before = scan[start - 1] if start else ""
    if before and before in "'\"":
        quote = scan.find(before, start, end)
        if quote >= 0:
            limit = quote
    split = _LIST_SPLIT.search(scan, start, limit)
    if split is not None:
        limit = split.start()
    return limit if limit < end else None


def _rest(scan: str, end: int, limit: int) -> str:
    """The URI characters after a match that the match could not take."""
    stop = end
    while stop < limit and stop - end < _MAX_REST and scan[stop] in _URI_CHARS:
        stop += 1
    # Sentence punctuation after a URN ("Is it urn:example:a?") is not a cut-off part of it.
    rest = scan[end:stop]
    return "" if not rest.rstrip(_TRAILING + ")") else rest


def _wrapped(scan: str, start: int, wrapped: bool) -> tuple[int, str] | None:
    """For a URN inside ``<…>`` broken by whitespace: (end offset, the URN without whitespace)."""
    if not wrapped:
        return None
    close = scan.find(">", start, start + _MAX_WRAPPED)
    if close < 0:
        return None
    region = scan[start:close].rstrip(" \t\r\n")
    # Broken across lines: a space alone inside '<…>' more likely ends the URN than breaks it.
    if "\n" not in region and "\r" not in region:
        return None
    joined = _SPACE.sub("", region)
    # Only when the whole content is one URN: otherwise the '<' wrapped something else.
    if RFC8141_RE.fullmatch(joined) is None or _trim(joined) != joined:
        return None
    return start + len(region), joined


def find_urns(text: str, *, locators: bool = False) -> Iterator[URNMatch]:
    """Yield a :class:`URNMatch` ``(start, end, urn)`` for each URN in *text*, left to right.

    With *locators*, also each locator that stands for a URN (kind ``"locator"``).

    Never raises on a ``str``; anything else (``None``, ``bytes``) is a :class:`TypeError` at
    the call, like every other function of urnld.

    >>> [(s, e, str(u)) for s, e, u in find_urns("See <URN:ISBN:0-395-36341-1>, or urn:x:y.")]
    [(5, 27, 'URN:ISBN:0-395-36341-1')]
    >>> [str(u) for _, _, u in find_urns("(urn:example:a(1)) and <URL:urn:ietf:rfc:2141>")]
    ['urn:example:a(1)', 'urn:ietf:rfc:2141']
    >>> list(find_urns("capability urn:ietf:params:netconf:capability:url:1.0?scheme=http,ftp"))
    [URNMatch(11, 53, 'urn:ietf:params:netconf:capability:url:1.0', rest='?scheme=http,ftp')]
    >>> [(m.kind, str(m.urn)) for m in find_urns(
    ...     "Cite http://nbn-resolving.de/urn:nbn:de:bsz:mh39-90215.", locators=True)]
    [('locator', 'urn:nbn:de:bsz:mh39-90215')]
    """
    if not isinstance(text, str):
        raise TypeError(f"find_urns() takes a str, not {type(text).__name__}")
    if not locators:
        return _find(text)
    return _with_locators(text)


# A locator candidate: an http(s) URI or the "doi:" form, up to where a URN would end.
_LOCATOR = re.compile(
    r"(?<![A-Za-z0-9+\-.])(?:https?://|doi:)[A-Za-z0-9\-._~:/?\[\]@!$&'()*+,;=%#]+",
    re.IGNORECASE,
)


def _locators(text: str) -> Iterator[URNMatch]:
    from ..resolvers import urn_of_locator

    for m in _LOCATOR.finditer(text):
        value = m[0]
        cut = _shortest_cut(value)
        # Trailing sentence punctuation is not part of the locator, unless only the whole
        # reads back to a URN.
        for end in (cut, len(value)) if 0 < cut < len(value) else (len(value),):
            urn = urn_of_locator(value[:end])
            if urn is not None:
                yield URNMatch(m.start(), m.start() + end, urn, locator=value[:end])
                break


def _with_locators(text: str) -> Iterator[URNMatch]:
    found = list(_locators(text))
    spans = [(m.start, m.end) for m in found]
    plain = [
        m for m in _find(text) if not any(s <= m.start < e for s, e in spans)
    ]
    yield from sorted(found + plain, key=lambda m: m.start)


def _find(text: str) -> Iterator[URNMatch]:
    # Labels are blanked out (same length) so offsets into *text* stay right; where they were,
    # the URN is wrapped as much as after a plain '<'.
    labels = {m.end() for m in _LABEL.finditer(text)}
    scan = _LABEL.sub(lambda m: "<" + " " * (len(m.group()) - 1), text) if labels else text
    pos = 0
    while True:
        m = _START.search(scan, pos)
        if m is None:
            return
        start = m.start()
        placeholder = _PLACEHOLDER.match(scan, start)
        if placeholder is not None:
            pos = placeholder.end()
            continue
        joined = _wrapped(scan, start, start in labels or scan[start - 1 : start] == "<")
        if joined is not None:
            end, value = joined
            yield URNMatch(start, end, URN(value))
            pos = end
            continue
        # Matching the grammar directly (not a run of URN characters first) keeps the scan
        # linear: each start costs no more than the URN it yields.
        match = _PREFIX.match(scan, start)
        limit = len(scan)
        if match is not None:
            cut = _cut(scan, start, match.end())
            if cut is not None:
                limit = cut
                match = _PREFIX.match(scan, start, cut)
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
        assert match is not None
        yield URNMatch(start, end, urn, _rest(scan, match.end(), limit))
        pos = end
