"""``URNRef``: an rdflib IRI term for URNs whose lexical form is the canonical URN.

rdflib compares IRIs as plain strings and, on top of that, compares terms by *exact class*
(``Identifier.__eq__`` checks ``type(self) is type(other)``), orders them by a table keyed by
exact class (``rdflib.term._ORDERING``; an unknown subclass sorts below blank nodes), and pickles
``URIRef`` subclasses as plain ``URIRef`` (``URIRef.__reduce__``). ``URNRef`` fixes all four:

* its string value is ``urnld.canonical(text)``, so it *is* the canonical IRI, and it equals — in
  both directions — a plain ``URIRef`` with that string (Python tries the subclass's reflected
  ``__eq__`` first, so ``URIRef(c) == URNRef(x)`` also lands here);
* it hashes like ``str`` (as every rdflib term does), so it finds plain ``URIRef`` nodes in any
  store, set or dict;
* it sorts among ``URIRef`` nodes (by string), above blank nodes and below literals;
* it pickles, copies and deep-copies as itself, keeping the spelling it was made from in
  :attr:`URNRef.original`.

>>> from rdflib import URIRef
>>> u = URNRef("URN:ISBN:0-395-36341-1")
>>> str(u), u.original
('urn:isbn:0395363411', 'URN:ISBN:0-395-36341-1')
>>> u == URIRef("urn:isbn:0395363411") == u
True
>>> try:
...     URNRef("http://example.org/")
... except NotAURNError as e:
...     print(e)
'http://example.org/' is not a URN: a URN starts with 'urn:'
"""

from __future__ import annotations

from typing import Any

from rdflib import term as _rdflib_term
from rdflib.term import URIRef

import urnld

from .._kernel import TermCache
from ..errors import URNError

__all__ = ["NotAURNError", "URNRef"]

# Distinct URNs in one process rarely exceed this; a miss only costs one more parse.
_TERMS = TermCache(max_size=1 << 16)


class NotAURNError(URNError):
    """A string given where a URN term is required is not a URN.

    Attributes:
        text: the string, exactly as given.
        reason: why it is not a URN (from the URN parser).

    >>> try:
    ...     URNRef("urn:isbn")
    ... except NotAURNError as e:
    ...     e.text
    'urn:isbn'
    """

    text: str
    reason: str

    def __init__(self, text: str, reason: str) -> None:
        self.text = text
        self.reason = reason
        super().__init__(f"{text!r} is not a URN: {reason}")

    def __reduce__(self) -> tuple[type[NotAURNError], tuple[str, str]]:
        return (type(self), (self.text, self.reason))


def analyze(text: str) -> tuple[str | None, str]:
    """``(canonical, "")`` for a usable URN, ``(None, reason)`` otherwise. Cached, never raises.

    *Usable* is the term rule every urnld path applies (:mod:`urnld._kernel`, the same as
    ``urnld canonicalize``): RFC 8141 syntax, and an NID that RFC 8141 §5 / App. C does not rule
    out (``X-`` experimental, reserved ``XY-`` prefixes, malformed informal NIDs: such strings
    are not URNs). Namespace findings such as a wrong ISBN check digit do not make a URN
    unusable: it still has an equivalence class, hence a canonical form (``urnld check`` and
    ``urnfn:findings`` report it).

    >>> analyze("URN:ISBN:0-395-36341-1")
    ('urn:isbn:0395363411', '')
    >>> analyze("urn:x-foo:bar")[0] is None
    True
    """
    verdict = _TERMS.get(text)
    if verdict.canonical is None:
        # A syntax error reads as the parser's sentence; an NID ruled out keeps its code.
        return None, (verdict.message if verdict.code == "syntax" else verdict.reason) or ""
    return verdict.canonical, ""


def _canonical(text: str) -> str:
    """The canonical form of a usable URN, or :class:`NotAURNError`."""
    canonical, reason = analyze(text)
    if canonical is None:
        raise NotAURNError(text, reason)
    return canonical


def _restore(canonical: str, original: str) -> URNRef:
    """Unpickle without re-canonicalizing: the stored IRI must come back exactly as it was."""
    ref = str.__new__(URNRef, canonical)
    ref._original = original
    return ref


class URNRef(URIRef):
    """A URN as an rdflib IRI term: canonical lexical form, original spelling kept.

    Args:
        value: the URN, in any spelling (a ``str``, a ``URIRef`` or a :class:`urnld.URN`).

    Raises:
        NotAURNError: ``value`` is not a URN: RFC 8141 syntax, or an NID that RFC 8141 rules
            out (``X-`` experimental, reserved ``XY-``; see :func:`analyze`).

    >>> u = URNRef("urn:EXAMPLE:a123%2cz456#Frag")
    >>> u
    URNRef('urn:EXAMPLE:a123%2cz456#Frag')
    >>> str(u)
    'urn:example:a123%2Cz456#Frag'
    >>> sorted([URNRef("urn:example:b"), URIRef("urn:example:a")])
    [rdflib.term.URIRef('urn:example:a'), URNRef('urn:example:b')]
    """

    __slots__ = ("_original",)

    _original: str

    def __new__(cls, value: str | urnld.URN) -> URNRef:
        if type(value) is cls:
            return value  # immutable, and this keeps its .original
        text = str(value)
        ref = str.__new__(cls, _canonical(text))
        ref._original = text
        return ref

    @property
    def original(self) -> str:
        """The spelling this term was made from (the string value is the canonical form)."""
        return self._original

    @property
    def urn(self) -> urnld.URN:
        """The canonical URN as a :class:`urnld.URN` value.

        >>> URNRef("URN:EXAMPLE:x").urn.nid
        'example'
        """
        return urnld.URN.parse(str(self))

    # --- equality and hashing: equal to any URIRef with the same (canonical) string ---------
    # rdflib's Identifier.__eq__ demands the exact same class; we relax it to "any URIRef".
    # Because URNRef subclasses URIRef and defines these, Python calls them first for
    # ``URIRef(...) == URNRef(...)`` too (reflected operand priority for subclasses).
    def __eq__(self, other: object) -> bool:
        if isinstance(other, URIRef):
            return str.__eq__(self, other)
        return False

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    # Defining __eq__ resets __hash__ to None; every rdflib term hashes as its string.
    __hash__ = URIRef.__hash__

    # --- ordering: among URIRefs by string; vs other node kinds by rdflib's kind table ------
    def __lt__(self, other: Any) -> bool:
        if isinstance(other, URIRef):
            return str.__lt__(self, other)
        return super().__lt__(other)

    def __gt__(self, other: Any) -> bool:
        if isinstance(other, URIRef):
            return str.__gt__(self, other)
        return super().__gt__(other)

    def __le__(self, other: Any) -> bool:
        if isinstance(other, URIRef):
            return str.__le__(self, other)
        return super().__le__(other)

    def __ge__(self, other: Any) -> bool:
        if isinstance(other, URIRef):
            return str.__ge__(self, other)
        return super().__ge__(other)

    # --- pickling and copying: as itself, with the original spelling -------------------------
    def __reduce__(self) -> tuple[Any, tuple[str, str]]:  # type: ignore[override]
        return (_restore, (str(self), self._original))

    def __getnewargs__(self) -> tuple[str]:
        return (self._original,)

    def __copy__(self) -> URNRef:
        return self  # immutable, like str

    def __deepcopy__(self, memo: dict[int, Any]) -> URNRef:
        return self

    def __repr__(self) -> str:
        # Evaluates back to an equal term with the same .original.
        return f"URNRef({self._original!r})"


# rdflib orders nodes of different classes by this table, keyed by exact class; unregistered
# classes get 0 and sort below blank nodes. rdflib itself registers QuotedGraph the same way.
_rdflib_term._ORDERING[URNRef] = _rdflib_term._ORDERING[URIRef]
