"""Reading a resolver's locator back to its URN: RFC 6570 templates matched in reverse.

The resolver table (:mod:`urnld.resolvers`, the public face, which documents the reversible
subset of templates and how an IRI is compared) decides which templates are tried and in what
order. This module holds how one template is read backwards: its anchored pattern
(:func:`reverse_pattern`), the match and the check of the URN it gives (:class:`Reverse`),
the folding of scheme and authority both sides undergo (:func:`fold_scheme`), and the index of
patterns by the scheme and authority an IRI must start with (:func:`by_head`,
:func:`read_back`, :func:`heads`).

>>> from urnld.resolvers import Resolver
>>> doi = Resolver("doi", "https://doi.org/{+nss}")
>>> index = by_head([reverse_pattern(doi, [("https://doi.org/", "+", "nss"), ("", "", "")])])
>>> read_back(index, "HTTP://DX.DOI.ORG/10.1000/182") is None  # another host
True
>>> read_back(index, "HTTP://DOI.ORG/10.1000/182"), heads(index)
('urn:doi:10.1000/182', ('http://doi.org', 'https://doi.org'))
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Final
from urllib.parse import unquote

if TYPE_CHECKING:
    from . import Resolver

#: What a check of one string gives, as :func:`urnld._kernel.check_fields` does: the codes of
#: its findings, the first error as ``"code: message"`` (None for a valid URN), the canonical
#: form and the NID in lower case (None when it does not parse).
CheckFields = tuple[tuple[str, ...], "str | None", "str | None", "str | None"]

_REVERSIBLE: Final = frozenset({"urn", "nid", "nss", "rest"})
# RFC 3986 characters a reserved expansion may produce (all but '#', which ends the URI) and
# those a simple expansion may (unreserved and %XX).
_RESERVED_VALUE: Final = r"(?:[A-Za-z0-9\-._~:/?\[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})+"
_SIMPLE_VALUE: Final = r"(?:[A-Za-z0-9\-._~]|%[0-9A-Fa-f]{2})+"
_SCHEME: Final = re.compile(r"([A-Za-z][A-Za-z0-9+.\-]*):(//[^/?#]*)?")
_HEAD: Final = re.compile(r"[a-z][a-z0-9+.\-]*:(?://[^/?#]*)?")


@dataclasses.dataclass(frozen=True, slots=True)
class Reverse:
    """One reversible template: its anchored pattern and how each group makes the URN.

    >>> from urnld.resolvers import Resolver
    >>> r = Resolver("nbn", "https://nbn-resolving.org/{+urn}", nss_prefix="de:")
    >>> reverse = reverse_pattern(r, [("https://nbn-resolving.org/", "+", "urn"), ("", "", "")])
    >>> reverse.match_text("https://nbn-resolving.org/urn:nbn:de:bvb:19-146642")
    'urn:nbn:de:bvb:19-146642'
    >>> reverse.match_text("https://nbn-resolving.org/urn:nbn:ch:bel-9039") is None  # not served
    True
    """

    resolver: Resolver
    pattern: re.Pattern[str]
    names: tuple[tuple[str, str], ...]  # (group variable, operator)
    prefix: str  # the template's literal start, folded: a cheap first test
    # The pattern and the literal start after the head (:func:`head`) of *prefix*: an IRI
    # whose own head is that one is matched from there on, so that it need not be folded.
    tail: re.Pattern[str]
    path: str

    def match_text(
        self, folded: str, check_fields: Callable[[str], CheckFields] | None = None
    ) -> str | None:
        """The URN (a str) whose locator the IRI *folded* (by :func:`fold_scheme`) is, or None.

        Raises :class:`UnicodeDecodeError` when a simple expansion's value has %XX triplets
        that are not UTF-8.
        """
        m = self.pattern.fullmatch(folded)
        return None if m is None else self.urn_of_match(m, check_fields)

    def urn_of_match(
        self, m: re.Match[str], check_fields: Callable[[str], CheckFields] | None = None
    ) -> str | None:
        """The URN that a match of :attr:`pattern` or :attr:`tail` gives, or None when the
        entry does not serve it (see :meth:`match_text`)."""
        r = self.resolver
        if len(self.names) == 1:  # every template of urnld's table: no dict to build
            name, op = self.names[0]
            value = unquote(m[1], errors="strict") if op == "" else m[1]
            if name == "urn":
                text = value
            elif name == "nss":
                text = f"urn:{r.nid}:{value}"
            elif name == "rest":
                text = f"urn:{r.nid}:{r.nss_prefix}{value}"
            else:
                return None
            return text if served(r, text, check_fields) else None
        values: dict[str, str] = {}
        for i, (name, op) in enumerate(self.names):
            value = m[i + 1]
            values[name] = unquote(value, errors="strict") if op == "" else value
        if "nid" in values and values["nid"].lower() != r.nid:
            return None
        if "urn" in values:
            text = values["urn"]
        elif "nss" in values:
            text = f"urn:{r.nid}:{values['nss']}"
        elif "rest" in values:
            text = f"urn:{r.nid}:{r.nss_prefix}{values['rest']}"
        else:
            return None
        return text if served(r, text, check_fields) else None


def served(r: Resolver, text: str, check_fields: Callable[[str], CheckFields] | None) -> bool:
    """Whether *text* is a URN without components that *r* serves and that passes its
    namespace's rule without errors.

    >>> from urnld.resolvers import Resolver
    >>> r = Resolver("isbn", "https://example.org/{nss}")
    >>> served(r, "urn:isbn:0395363411", None), served(r, "urn:isbn:0395363412", None)
    (True, False)
    """
    if check_fields is not None:  # the caller's check (a pass's fast, cached one)
        _codes, error, canonical, nid = check_fields(text)
        if error is not None or canonical is None or "?" in canonical or "#" in canonical:
            return False  # '?' and '#' cannot occur in a canonical NSS: components
        if nid != r.nid:
            return False
        prefix = r.nss_prefix  # most entries serve every NSS of their NID
        return not prefix or canonical[len(nid) + 5 :].lower().startswith(prefix.lower())
    from .. import URN, check
    from ..findings import Severity

    try:
        urn = URN(text)
    except ValueError:
        return False
    if urn.parts[2:] != (None, None, None) or not r.matches(urn):
        return False
    return not any(f.severity is Severity.ERROR for f in check(urn.assigned_key))


def fold_scheme(iri: str) -> str:
    """*iri* with scheme and authority in lower case and ``http`` written as ``https``.

    >>> fold_scheme("HTTP://DOI.Org/10.1000/ABC"), fold_scheme("DOI:10.1000/ABC")
    ('https://doi.org/10.1000/ABC', 'doi:10.1000/ABC')
    """
    m = _SCHEME.match(iri)
    if m is None:
        return iri
    scheme = m[1].lower()
    if scheme == "http":
        scheme = "https"
    return scheme + ":" + (m[2] or "").lower() + iri[m.end() :]


def reverse_pattern(r: Resolver, pieces: Sequence[tuple[str, str, str]]) -> Reverse | None:
    """The reverse matcher of a template of *r*, given as its ``(literal, operator,
    variable)`` *pieces* (the last with an empty variable), or None when the template is
    outside the reversible subset.

    >>> from urnld.resolvers import Resolver
    >>> r = Resolver("example", "https://r.example/{nid}{nss}")
    >>> reverse_pattern(r, [("https://r.example/", "", "nid"), ("", "", "nss"), ("", "", "")])
    >>> reverse_pattern(r, [("https://r.example/", "#", "nss"), ("", "", "")])
    """
    regex: list[str] = []
    names: list[tuple[str, str]] = []
    seen: set[str] = set()
    for k, (literal, op, name) in enumerate(pieces):
        if k and not literal and name:
            return None  # two expressions side by side: no literal tells where one ends
        regex.append(re.escape(fold_scheme(literal) if k == 0 else literal))
        if not name:
            continue
        if name not in _REVERSIBLE or op == "#" or name in seen:
            return None
        seen.add(name)
        names.append((name, op))
        value = _SIMPLE_VALUE if op == "" else _RESERVED_VALUE
        # In a query, '&' separates parameters: a value there stops before it.
        if "?" in "".join(p[0] for p in pieces[: k + 1]) and op == "+":
            value = value.replace("&", "")
        regex.append(f"({value})")
    if not names:
        return None
    prefix = fold_scheme(pieces[0][0])
    path = prefix[len(head(prefix)) :]
    tail = re.escape(path) + "".join(regex[1:])
    return Reverse(r, re.compile("".join(regex)), tuple(names), prefix, re.compile(tail), path)


def head(folded: str) -> str:
    """Scheme and authority of a folded IRI or template prefix (``https://doi.org``,
    ``doi:``): the key under which the reversible templates are indexed.

    >>> head("https://doi.org/10.1000/182"), head("doi:10.1000/182"), head("no scheme")
    ('https://doi.org', 'doi:', '')
    """
    m = _HEAD.match(folded)
    return "" if m is None else m[0]


def by_head(reverses: Iterable[Reverse]) -> dict[str, tuple[Reverse, ...]]:
    """*reverses* by the :func:`head` of their prefix, each group in the order given.

    >>> from urnld.resolvers import Resolver
    >>> r = Resolver("doi", "doi:{+nss}")
    >>> list(by_head([reverse_pattern(r, [("doi:", "+", "nss"), ("", "", "")])]))
    ['doi:']
    """
    by: dict[str, list[Reverse]] = {}
    for reverse in reverses:
        by.setdefault(head(reverse.prefix), []).append(reverse)
    return {key: tuple(found) for key, found in by.items()}


def read_back(
    index: Mapping[str, Sequence[Reverse]],
    iri: str,
    check_fields: Callable[[str], CheckFields] | None = None,
) -> str | None:
    """The URN (a str) given by the first of the *index*'s templates (see :func:`by_head`)
    that reads *iri* back, or None; a %XX sequence that is not UTF-8 gives no URN.

    >>> from urnld.resolvers import Resolver
    >>> r = Resolver("doi", "https://doi.org/{nss}")
    >>> index = by_head([reverse_pattern(r, [("https://doi.org/", "", "nss"), ("", "", "")])])
    >>> read_back(index, "https://doi.org/10.1000%2F182"), read_back(index, "https://doi.org/%FF")
    ('urn:doi:10.1000/182', None)
    """
    # The IRI's head as head(fold_scheme(iri)) gives it, and what follows it as written: the
    # templates under that head match the rest from their tail (no folded copy is built).
    m = _SCHEME.match(iri)
    if m is None:
        key, rest = "", iri
    else:
        scheme = m[1].lower()
        key = ("https" if scheme == "http" else scheme) + ":" + (m[2] or "").lower()
        rest = iri[m.end() :]
    for reverse in index.get(key, ()):
        if not rest.startswith(reverse.path):
            continue
        found = reverse.tail.fullmatch(rest)
        if found is None:
            continue
        try:
            text = reverse.urn_of_match(found, check_fields)
        except UnicodeDecodeError:  # a %XX sequence that is not UTF-8: no URN
            continue
        if text is not None:
            return text
    return None


def heads(index: Mapping[str, Sequence[Reverse]]) -> tuple[str, ...]:
    """The keys of *index* (see :func:`by_head`), each ``https:`` one also as ``http:``,
    sorted, without the empty key.

    >>> heads({"https://doi.org": (), "doi:": (), "": ()})
    ('doi:', 'http://doi.org', 'https://doi.org')
    """
    found: set[str] = set()
    for key in index:
        found.add(key)
        if key.startswith("https:"):
            found.add("http:" + key[len("https:") :])
    return tuple(sorted(h for h in found if h))
