"""SPARQL extension functions for URNs, in the namespace ``https://w3id.org/urnld/fn#``.

After :func:`register_functions` (which importing :mod:`urnld.rdf` calls), every rdflib SPARQL
query — including the SPARQL-based constraints pyshacl runs — can call:

=========================  ==================================================================
``urnfn:isValid(?x)``      ``xsd:boolean``: ``true`` iff ``urnld.check`` has no error finding.
``urnfn:canonical(?x)``    the canonical URN; an IRI for an IRI argument, a literal (same
                           datatype / language tag) for a literal argument.
``urnfn:equivalent(?a,?b)`` ``xsd:boolean``: RFC 8141 equivalence (+ namespace rules,
                           components ignored); ``false`` when either side is not a URN.
``urnfn:nid(?x)``          the NID of the canonical form (lower case), as a plain literal.
``urnfn:nss(?x)``          the NSS of the canonical form, as a plain literal.
``urnfn:findings(?x)``     the finding codes of ``urnld.check``, space-separated, in the order
                           ``check`` reports them, each once; ``""`` when there are none.
``urnfn:resolve(?x [,t])`` the locator IRI of the URN: from the RFC 6570 template literal
                           *t*, else the first entry of urnld's resolver table
                           (:mod:`urnld.resolvers`); an error when none serves it.
=========================  ==================================================================

Arguments may be IRIs or literals of any kind (plain, ``xsd:string``, ``xsd:anyURI``,
language-tagged…): the lexical form is what is read. For an argument that is not a URN at all
(or a blank node), ``isValid`` is ``false``, ``equivalent`` is ``false``, ``findings`` is
``"syntax"``, and ``canonical``/``nid``/``nss`` raise a SPARQL error — standard SPARQL error
semantics: a ``BIND`` leaves the variable unbound and a ``FILTER`` drops the row.

Results are cached per distinct lexical form, because SHACL validation calls these once per
focus node and catalog data repeats the same URNs many times.

>>> from rdflib import Graph
>>> from urnld.rdf import register_functions
>>> register_functions()
>>> q = '''PREFIX urnfn: <https://w3id.org/urnld/fn#>
... SELECT ?c ?n WHERE { BIND(urnfn:canonical(<URN:EXAMPLE:a%2cb>) AS ?c)
...                      BIND(urnfn:nid("URN:EXAMPLE:x") AS ?n) }'''
>>> [(str(c), str(n)) for c, n in Graph().query(q)]
[('urn:example:a%2Cb', 'example')]
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import NamedTuple

from rdflib import Literal, Namespace, URIRef
from rdflib.plugins.sparql.operators import register_custom_function
from rdflib.plugins.sparql.sparql import SPARQLError
from rdflib.term import Node

import urnld

from .._core import Policy, active_policy
from .._kernel import check_term
from ..errors import URNError

__all__ = ["URNFN", "register_functions"]

#: The namespace of urnld's SPARQL functions (prefix ``urnfn:``).
URNFN = Namespace("https://w3id.org/urnld/fn#")

# Distinct URNs in a catalog run to the hundreds of thousands; beyond that the cache would only
# cost memory, and misses are still correct (just slower).
_CACHE_SIZE = 1 << 16


class _Info(NamedTuple):
    """Everything the functions need to know about one lexical form, computed once."""

    canonical: str | None  # None: not a URN (syntax error)
    nid: str | None
    nss: str | None
    codes: str  # space-separated finding codes
    valid: bool


def _info(text: str) -> _Info:
    # The policy in force (strict, profiles, severity overrides): urnld.shacl.validate sets it.
    return _info_under(text, active_policy())


@functools.lru_cache(maxsize=_CACHE_SIZE)
def _info_under(text: str, policy: Policy) -> _Info:
    # The check side of the term rule (what ``urnld check`` reports): findings, and the
    # canonical form of anything that parses, valid or not.
    checked = check_term(text, policy)
    codes = " ".join(checked.codes)
    valid = checked.valid
    if checked.canonical is None:
        return _Info(None, None, None, codes or "syntax", valid=False)
    canon = urnld.URN.parse(checked.canonical)
    return _Info(canon.canonical_str, canon.nid, canon.nss, codes, valid)


def _lexical(term: Node) -> str | None:
    """The string a function reads from its argument; None for blank nodes and variables."""
    if isinstance(term, (URIRef, Literal)):
        return str(term)
    return None


def _term_info(term: Node) -> _Info | None:
    text = _lexical(term)
    return None if text is None else _info(text)


def _require_urn(term: Node, fn: str) -> _Info:
    info = _term_info(term)
    if info is None or info.canonical is None:
        # SPARQLError is the evaluator's "expression error": BIND leaves the variable unbound.
        raise SPARQLError(f"urnfn:{fn}: {term!r} is not a URN")
    return info


def is_valid(x: Node) -> Literal:
    """``urnfn:isValid``: true iff the argument is a URN without error-level findings."""
    info = _term_info(x)
    return Literal(info is not None and info.valid)


def canonical(x: Node) -> Node:
    """``urnfn:canonical``: IRI in → IRI out; literal in → literal with the same datatype/lang."""
    info = _require_urn(x, "canonical")
    assert info.canonical is not None  # _require_urn guarantees it; narrows for mypy
    if isinstance(x, Literal):
        return Literal(info.canonical, lang=x.language, datatype=x.datatype)
    return URIRef(info.canonical)


def equivalent(a: Node, b: Node) -> Literal:
    """``urnfn:equivalent``: RFC 8141 equivalence (components ignored); false for non-URNs."""
    ta, tb = _lexical(a), _lexical(b)
    if ta is None or tb is None:
        return Literal(False)
    return Literal(_equivalent(ta, tb))


@functools.lru_cache(maxsize=_CACHE_SIZE)
def _equivalent(a: str, b: str) -> bool:
    if _info(a).canonical is None or _info(b).canonical is None:
        return False
    try:
        return urnld.equivalent(a, b)
    except URNError:  # pragma: no cover - both parsed above; kept so bad input never crashes
        return False


def nid(x: Node) -> Literal:
    """``urnfn:nid``: the NID of the canonical form (so always lower case)."""
    return Literal(_require_urn(x, "nid").nid)


def nss(x: Node) -> Literal:
    """``urnfn:nss``: the NSS of the canonical form (namespace rules applied)."""
    return Literal(_require_urn(x, "nss").nss)


def findings(x: Node) -> Literal:
    """``urnfn:findings``: space-separated finding codes; ``"syntax"`` for a non-URN."""
    info = _term_info(x)
    return Literal("syntax" if info is None else info.codes)


def resolve(x: Node, template: Node | None = None) -> URIRef:
    """``urnfn:resolve``: the locator of a URN (built, never fetched).

    >>> from rdflib import Graph
    >>> q = ('PREFIX urnfn: <https://w3id.org/urnld/fn#> SELECT ?l WHERE { '
    ...      'BIND(urnfn:resolve(<URN:IETF:RFC:2141>) AS ?l) }')
    >>> [str(row.l) for row in Graph().query(q)]
    ['https://www.rfc-editor.org/rfc/rfc2141']
    """
    text = _lexical(x)
    if template is not None and not isinstance(template, Literal):
        raise SPARQLError(f"urnfn:resolve: the template {template!r} is not a literal")
    try:
        if text is None:
            raise URNError(f"{x!r} is not a URN")
        urn = urnld.URN(text)
        return URIRef(urn.resolve(None if template is None else str(template)))
    except URNError as e:
        raise SPARQLError(f"urnfn:resolve: {str(e).splitlines()[0]}") from None


_FUNCTIONS: dict[str, Callable[..., Node]] = {
    "isValid": is_valid,
    "canonical": canonical,
    "equivalent": equivalent,
    "nid": nid,
    "nss": nss,
    "findings": findings,
    "resolve": resolve,
}


def register_functions() -> None:
    """Register the ``urnfn:`` functions with rdflib's SPARQL engine. Safe to call repeatedly.

    rdflib refuses a second registration of an IRI unless ``override=True``; overriding with the
    same function object is a no-op, which makes this idempotent.

    >>> register_functions(); register_functions()
    """
    for name, func in _FUNCTIONS.items():
        register_custom_function(URNFN[name], func, override=True)
