"""Canonicalize URN IRIs in expanded JSON-LD and in JSON-LD contexts.

Expanded JSON-LD says exactly which strings are IRIs (``@id``, ``@type``, property keys,
``@reverse`` keys), so one walk over pyld's expansion output rewrites every URN IRI to its
canonical form and leaves literals alone (``"name": "URN:X:Y"`` is data, not an identifier).
Each distinct string is looked at once: the cache maps it to its canonical form, and the set of
cache keys doubles as "every IRI in the output" for the hazard checks.

Contexts are rewritten separately (before pyld processes them): full URN IRIs get their
canonical form; namespace prefixes (``"urn:ISBN:"``) get only the RFC 8141 §3 case
normalization, since a prefix is not a complete URN and namespace rules apply to whole NSSs.

>>> c = Canonicalizer()
>>> c.expanded([{"@id": "URN:UUID:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6",
...              "URN:Example:p": [{"@value": "URN:X:kept"}]}])  # doctest: +NORMALIZE_WHITESPACE
[{'@id': 'urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6',
  'urn:example:p': [{'@value': 'URN:X:kept'}]}]
>>> c.context({"isbn": "URN:ISBN:", "book": {"@id": "URN:ISBN:0-395-36341-1"}})
{'isbn': 'urn:isbn:', 'book': {'@id': 'urn:isbn:0395363411'}}
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from .._core import is_urn_like
from .._kernel import TermCache
from ..findings import CheckOptions, Severity
from ..namespaces import GENERIC, get_rule

__all__ = ["GEN_DELIMS", "Canonicalizer", "is_urn_like", "normalize_prefix"]

#: RFC 3986 gen-delims: JSON-LD 1.1 uses a simple term as a prefix only when its IRI ends in one.
GEN_DELIMS = frozenset(":/?#[]@")

_NO_OPTIONS = CheckOptions(strict=False, profiles=frozenset())
# "urn:" + an NID-shaped run + the rest: enough to case-normalize a prefix that is not a URN.
_PREFIX_RE = re.compile(r"([uU][rR][nN]:)([A-Za-z0-9-]{1,32})((?::.*)?)", re.DOTALL)
_PCT_RE = re.compile(r"%[0-9a-fA-F]{2}")
# Context keys whose values are not IRIs (or are handled elsewhere) and pass through untouched.
_TERM_IRI_KEYS = ("@id", "@reverse", "@type")


def _upper_pct(match: re.Match[str]) -> str:
    return match.group(0).upper()


def normalize_prefix(text: str) -> str:
    """RFC 8141 §3 case normalization of a URN namespace prefix (scheme, NID, ``%xx``).

    >>> normalize_prefix("URN:ISBN:")
    'urn:isbn:'
    >>> normalize_prefix("URN:Example:a%2cb/")
    'urn:example:a%2Cb/'
    >>> normalize_prefix("http://Example.org/")
    'http://Example.org/'
    """
    m = _PREFIX_RE.fullmatch(text)
    if m is None:
        return text
    return "urn:" + m.group(2).lower() + _PCT_RE.sub(_upper_pct, m.group(3))


def _namespace_error(nid: str, text: str) -> str | None:
    """The first error-level finding of *nid*'s namespace rule on the NSS as written."""
    rule = get_rule(nid)
    if rule is GENERIC:
        return None
    nss = text[len(nid) + 5 :]  # after "urn:" + NID + ":", as written
    for ch in "?#":  # the NSS ends where the components begin (they are never in an NSS)
        nss = nss.partition(ch)[0]
    for finding in rule.check_nss(nss, _NO_OPTIONS):
        if finding.severity is Severity.ERROR:
            return finding.message
    return None


class Canonicalizer:
    """Per-operation state: the IRIs met, their output, and the invalid URNs seen.

    Which strings are usable URNs and their canonical form is the term rule's
    (:mod:`urnld._kernel`), as on every other path: a string the rule leaves as written (bad
    syntax, an ``X-`` NID) stays as written here too. ``invalid`` maps each ``urn:`` IRI that is
    not a valid URN to the reason: the term rule's, or the first error-level finding of its
    namespace's rules (such a URN is still canonicalized; warnings do not count).
    ``cache`` maps every IRI met to its output (the hazard checks read it as "every IRI").
    """

    __slots__ = ("cache", "invalid", "terms")

    def __init__(self) -> None:
        self.cache: dict[str, str] = {}
        self.invalid: dict[str, str] = {}
        self.terms = TermCache()

    # -- single strings -------------------------------------------------------------------

    def iri(self, text: str) -> str:
        """The canonical form of *text* when it is a valid URN, else *text* unchanged."""
        out = self.cache.get(text)
        if out is None:
            out = self._compute(text)
            self.cache[text] = out
        return out

    def _compute(self, text: str) -> str:
        if not is_urn_like(text):
            return text
        verdict = self.terms.get(text)
        if verdict.nid is None:
            self.invalid[text] = verdict.message or ""
            return text
        reason = _namespace_error(verdict.nid, text)
        if reason is not None:
            self.invalid[text] = reason
        return verdict.output

    def url(self, text: str) -> str:
        """A context or document reference: canonical when it is a valid URN."""
        return self.iri(text)

    def prefix(self, text: str, *, is_prefix: bool = False) -> str:
        """An IRI in a context: namespace prefixes get case normalization, full URNs canonical."""
        if not is_urn_like(text):
            return text
        if is_prefix or text[-1:] in GEN_DELIMS:
            return normalize_prefix(text)
        return self.iri(text)

    # -- expanded documents ---------------------------------------------------------------

    def expanded(self, data: Any) -> Any:
        """Canonicalize URN IRIs of pyld expansion output in place and return it."""
        if isinstance(data, list):
            self._list(data)
        elif isinstance(data, dict):
            self._node(data)
        return data

    def _list(self, items: list[Any]) -> None:
        node = self._node
        for item in items:
            if type(item) is dict:
                node(item)
            elif type(item) is list:
                self._list(item)

    def _node(self, obj: dict[str, Any]) -> None:
        # The hot loop of canonicalization: cache lookups are inlined and value objects (the
        # most common dicts in expanded output) take a short path.
        cache = self.cache
        if "@value" in obj:
            datatype = obj.get("@type")
            if type(datatype) is str:
                canon = cache.get(datatype)
                obj["@type"] = canon if canon is not None else self.iri(datatype)
            return  # @value, @language, @direction, @index: data, never rewritten
        node = self._node
        renamed: list[tuple[str, str]] | None = None
        for key, value in obj.items():
            if key[:1] == "@":
                if key == "@id":
                    if type(value) is str:
                        canon = cache.get(value)
                        obj[key] = canon if canon is not None else self.iri(value)
                    elif type(value) is list:  # an expanded frame matches a list of ids
                        value[:] = [self.iri(v) if type(v) is str else v for v in value]
                elif key == "@type":
                    if type(value) is list:
                        value[:] = [self.iri(t) if type(t) is str else t for t in value]
                    elif type(value) is str:
                        obj[key] = self.iri(value)
                elif key in ("@graph", "@list", "@included", "@set"):
                    if type(value) is list:
                        self._list(value)
                    elif type(value) is dict:
                        node(value)
                elif key == "@reverse" and type(value) is dict:
                    node(value)
                # @index: data, never rewritten.
            else:
                canon = cache.get(key)
                if canon is None:
                    canon = self.iri(key)
                if canon != key:
                    if renamed is None:
                        renamed = []
                    renamed.append((key, canon))
                if type(value) is list:
                    for item in value:
                        if type(item) is dict:
                            node(item)
                        elif type(item) is list:
                            self._list(item)
                elif type(value) is dict:
                    node(value)
        if renamed:
            for key, canon in renamed:
                value = obj.pop(key)
                # Two spellings of one property merge into one key, values in document order.
                if canon in obj and type(obj[canon]) is list and type(value) is list:
                    obj[canon].extend(value)
                else:
                    obj[canon] = value

    # -- contexts -------------------------------------------------------------------------

    def context(self, ctx: Any) -> Any:
        """A canonicalized copy of a context (a reference, an object, or a list of them)."""
        if isinstance(ctx, str):
            return self.url(ctx)
        if isinstance(ctx, list):
            return [self.context(c) for c in ctx]
        if isinstance(ctx, Mapping):
            return self._context_object(ctx)
        return ctx

    def _context_object(self, ctx: Mapping[str, Any]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value in ctx.items():
            if key == "@context":
                out[key] = self.context(value)
            elif key in ("@base", "@vocab"):
                out[key] = self.prefix(value, is_prefix=True) if isinstance(value, str) else value
            elif key == "@import":
                out[key] = self.url(value) if isinstance(value, str) else value
            elif key[:1] == "@":
                out[key] = value
            else:
                name = self.iri(key) if ":" in key else key
                out[name] = self._term_definition(value)
        return out

    def _term_definition(self, value: Any) -> Any:
        if isinstance(value, str):
            return self.prefix(value)
        if isinstance(value, Mapping):
            out = dict(value)
            is_prefix = out.get("@prefix") is True
            for key in _TERM_IRI_KEYS:
                iri = out.get(key)
                if isinstance(iri, str):
                    out[key] = self.prefix(iri, is_prefix=is_prefix and key == "@id")
            if "@context" in out:
                out["@context"] = self.context(out["@context"])
            return out
        return value
