"""Python twins of the SPARQL validators in ``shapes/urn.ttl``.

Each rule answers, for a value node and the shape's parameter values, exactly what the
``FILTER`` of the component's SPARQL validator answers, with SPARQL's error semantics spelled out
(``true || error`` is true, an error alone drops the row). Every validator binds ``?valueNid`` to
``urnfn:nid(STR(?value))``, which is unbound exactly when the value is not a URN (a blank node
has no lexical form; a string may not be RFC 8141 syntax), and reports the value then: a
component constrains URNs, so a value that is not one breaks it. The optional
parameter ``urnsh:onlyURNs true`` narrows every component of a shape to values that start with
``urn:`` (:func:`in_scope`). The SPARQL text stays the normative definition; the test-suite runs
both on the same data and compares the reports.

What the ``urnfn:`` functions compute is taken from the public core API, once per distinct lexical
form (catalogs repeat URNs; SHACL asks about each value once per shape). The finding codes
follow the validation policy in force (:func:`urnld._core._config.active_policy`, set by
:func:`urnld.shacl.validate`'s ``policy``): ``strict`` and profiles change what the checks find,
and a code overridden to ``ignore`` is not reported by any component.

>>> from rdflib import Literal, URIRef
>>> rule = RULES[URNSH.CanonicalConstraintComponent]
>>> rule.violations({URIRef("http://example.org/b"): [Literal("URN:ISBN:0-395-36341-1")]},
...                 {"canonical": Literal(True)})
[(rdflib.term.URIRef('http://example.org/b'), rdflib.term.Literal('URN:ISBN:0-395-36341-1'))]
"""

from __future__ import annotations

import contextlib
import functools
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import NamedTuple

from rdflib import Literal, Namespace, URIRef
from rdflib.plugins.sparql.operators import EBV
from rdflib.plugins.sparql.sparql import SPARQLError
from rdflib.term import Node

import urnld

from .._core import Policy, active_policy
from ..errors import URNError
from ..findings import CheckOptions
from ..namespaces import get_rule

__all__ = [
    "RULES",
    "URNSH",
    "Facts",
    "Rule",
    "facts",
    "finding_codes",
    "in_scope",
    "index_holders",
    "namespace_codes",
    "namespace_verdict",
]

#: The namespace of urnld's shapes (prefix ``urnsh:``).
URNSH = Namespace("https://w3id.org/urnld/shacl#")

# Same bound as the urnfn: functions' cache: past this many distinct URNs it only costs memory.
_CACHE_SIZE = 1 << 17

# The finding codes the REGEX filters of urn.ttl look for.
_NAMESPACE_CODES = frozenset({"nss-invalid", "nss-check-digit"})
# XPath "\s" (what REPLACE(…, "\\s+", " ") splits on in the urnsh:nid validator).
_XPATH_SPACE = re.compile(r"[ \t\n\r]+")


class Facts(NamedTuple):
    """What the ``urnfn:`` functions say about one lexical form (besides the finding codes)."""

    nid: str | None  # urnfn:nid (canonical, lower case); None where it raises (not a URN)
    canonical: str | None  # urnfn:canonical; None where it raises
    key: str | None  # the urnfn:equivalent class: canonical assigned name; None: never equal


_NOT_A_URN = Facts(None, None, None)


@functools.lru_cache(maxsize=_CACHE_SIZE)
def facts(text: str) -> Facts:
    """The :class:`Facts` of *text* (cached per distinct string).

    >>> facts("URN:ISBN:0-395-36341-1")
    Facts(nid='isbn', canonical='urn:isbn:0395363411', key='urn:isbn:0395363411')
    >>> facts("no urn").canonical is None
    True
    """
    try:
        canonical = urnld.canonical(text)
        urn = urnld.URN.parse(canonical)
    except URNError:
        return _NOT_A_URN
    return Facts(urn.nid, canonical, urn.assigned_key)


def finding_codes(text: str) -> frozenset[str]:
    """``urnfn:findings`` as a set: the codes of :func:`urnld.check` (``{"syntax"}`` for a non-URN).

    >>> sorted(finding_codes("URN:ISBN:0-395-36341-2"))
    ['not-canonical', 'nss-check-digit']
    """
    return _finding_codes(text, active_policy())


@functools.lru_cache(maxsize=_CACHE_SIZE)
def _finding_codes(text: str, policy: Policy) -> frozenset[str]:
    # check() itself reports "syntax" for a non-URN; a valid canonical URN has no findings.
    return frozenset(f.code for f in urnld.check(text, **policy.check_kwargs()))


def namespace_codes(text: str) -> frozenset[str]:
    """The codes the namespace rule of *text*'s NID reports (a subset of :func:`finding_codes`).

    ``urnld.check`` gets ``nss-invalid`` / ``nss-check-digit`` from exactly one place, the NID's
    :meth:`~urnld.namespaces.NamespaceRule.check_nss` (with default options), after the syntax
    level passed. Asking the rule alone skips the other levels: ``urnsh:namespaceValid`` is the
    component users run over whole catalogs, and this halves its cost per value. The
    test-suite checks ``namespace_codes(t) == finding_codes(t) & {nss codes}`` on many inputs.

    >>> sorted(namespace_codes("urn:isbn:0395363412"))
    ['nss-check-digit']
    """
    return namespace_verdict(text) or frozenset()


def namespace_verdict(text: str) -> frozenset[str] | None:
    """:func:`namespace_codes`, or None where *text* is not a URN (``urnfn:nid`` raises).

    The rule needs the URN parsed anyway, so ``urnsh:namespaceValid`` learns whether a value is
    a URN at all from the same (cached) parse; the test-suite checks that None here is exactly
    :func:`facts` without a NID.

    >>> namespace_verdict("urn:isbn"), namespace_verdict("urn:isbn:0395363411")
    (None, frozenset())
    """
    return _namespace_codes(text, active_policy())


@functools.lru_cache(maxsize=_CACHE_SIZE)
def _namespace_codes(text: str, policy: Policy) -> frozenset[str] | None:
    try:
        urn = urnld.URN(text)
    except URNError:
        return None
    options = CheckOptions(strict=policy.strict, profiles=policy.profiles)
    found = policy.severity.apply(get_rule(urn.nid).check_nss(urn.nss, options))
    return frozenset(f.code for f in found)


def _text(value: Node) -> str | None:
    """``STR(value)``: the lexical form of an IRI or literal; None (an error) for a blank node."""
    if isinstance(value, (URIRef, Literal)):
        return str(value)
    return None


def in_scope(value: Node, only_urns: Node | None) -> bool:
    """``FILTER (!BOUND($onlyURNs) || !$onlyURNs || STRSTARTS(LCASE(STR(?value)), "urn:"))``.

    >>> yes = Literal(True)
    >>> in_scope(URIRef("http://x"), yes), in_scope(Literal("URN:x"), yes)
    (False, True)
    >>> in_scope(URIRef("http://x"), None), in_scope(URIRef("http://x"), Literal(False))
    (True, True)
    """
    if only_urns is None:
        return True
    # `!error` is an error in SPARQL: an unusable flag leaves the value in scope only through
    # STRSTARTS, as a flag that is true does.
    with contextlib.suppress(SPARQLError):
        if not EBV(only_urns):  # type: ignore[call-overload]  # any term; errors caught
            return True
    text = _text(value)
    return text is not None and text.lower().startswith("urn:")


def _ebv(param: Node | None) -> bool:
    """``FILTER ($param)``: SPARQL's effective boolean value; an error counts as false."""
    if param is None:
        return False
    try:
        return bool(EBV(param))  # type: ignore[call-overload]  # any term; errors caught
    except SPARQLError:
        return False


#: A per-value test, made once per shape from its parameter values; None: never violated.
Check = Callable[[Node], bool]
Prepare = Callable[[Mapping[str, Node]], Check | None]


@dataclass(frozen=True, slots=True)
class Rule:
    """One component: its parameter name and how its validators' FILTER decides.

    ``needs_graph`` rules (uniqueness) compare a value with the values of *other* nodes, so they
    are evaluated over the whole data graph instead of value by value.
    """

    param: str
    prepare: Prepare
    needs_graph: bool = False

    def violations(
        self,
        focus_values: Mapping[Node, Iterable[Node]],
        params: Mapping[str, Node],
        holders: Mapping[str, set[Node]] | None = None,
    ) -> list[tuple[Node, Node]]:
        """The ``(focus node, value node)`` pairs the validator's SELECT returns.

        ``needs_graph`` rules also need *holders*, :func:`index_holders` of the shape's path
        over the whole data graph.
        """
        if self.needs_graph:
            if holders is None:
                raise ValueError("a graph rule needs the index of the path's values")
            return _unique_violations(focus_values, params, holders)
        check = self.prepare(params)
        if check is None:
            return []
        only = params.get("onlyURNs")
        return [
            (f, v)
            for f, values in focus_values.items()
            for v in values
            if in_scope(v, only) and check(v)
        ]


def index_holders(pairs: Iterable[tuple[Node, Node]]) -> dict[str, set[Node]]:
    """Equivalence key -> the subjects that have a value with that key (for uniqueness).

    ``urnfn:equivalent`` is equality of the canonical assigned name, false for non-URNs: so
    grouping every ``(subject, value)`` of the path by that key once replaces comparing all
    pairs. Built once per shape and data graph (pyshacl evaluates a property shape once per
    focus node).
    """
    holders: dict[str, set[Node]] = {}
    for subject, value in pairs:
        text = _text(value)
        key = None if text is None else facts(text).key
        if key is not None:
            holders.setdefault(key, set()).add(subject)
    return holders


def _prepare_nid(params: Mapping[str, Node]) -> Check | None:
    # FILTER (!BOUND(?valueNid) || !isLiteral($nid) || !CONTAINS(CONCAT(" ",
    #         REPLACE(LCASE(STR($nid)), "\\s+", " "), " "), CONCAT(" ", ?valueNid, " ")))
    allowed = params.get("nid")
    if not isinstance(allowed, Literal):
        return lambda value: True  # `true || error` is true: every value, even a blank node
    haystack = " " + _XPATH_SPACE.sub(" ", str(allowed).lower()) + " "

    def check(value: Node) -> bool:
        text = _text(value)
        nid = None if text is None else facts(text).nid
        return nid is None or f" {nid} " not in haystack

    return check


def _urn_codes(text: str) -> frozenset[str] | None:
    """:func:`finding_codes`, or None where *text* is not a URN."""
    return None if facts(text).nid is None else finding_codes(text)


def _prepare_codes(
    param: str, codes: frozenset[str], source: Callable[[str], frozenset[str] | None]
) -> Prepare:
    # FILTER ($param) FILTER (!BOUND(?valueNid)
    #                         || REGEX(CONCAT(" ", urnfn:findings(STR(?value)), " "), " (a|b) "))
    def prepare(params: Mapping[str, Node]) -> Check | None:
        if not _ebv(params.get(param)):
            return None

        def check(value: Node) -> bool:
            text = _text(value)
            found = None if text is None else source(text)  # None: not a URN
            return found is None or not codes.isdisjoint(found)

        return check

    return prepare


# urnsh:nidFindings absent: the four registry codes, as urn.ttl's COALESCE spells them.
_REGISTRY_DEFAULT = "nid-unregistered nid-experimental nid-reserved nid-informal-malformed"
_XPATH_TRIM = re.compile(r"^[ \t\n\r]+|[ \t\n\r]+$")


def _registry_pattern(param: Node | None) -> re.Pattern[str] | None:
    """The regex urn.ttl builds from ``urnsh:nidFindings``; None where REGEX would raise.

    ``BIND (CONCAT(" (", REPLACE(REPLACE(LCASE(COALESCE(STR($nidFindings), default)),
    "^\\s+|\\s+$", ""), "\\s+", "|"), ") ") AS ?codes)``; ``STR`` of a blank node is an
    error, so COALESCE falls back to the default for it as for an absent parameter.

    >>> _registry_pattern(Literal(" NID-Experimental ")).pattern
    ' (nid-experimental) '
    """
    text = _REGISTRY_DEFAULT if param is None or _text(param) is None else str(param).lower()
    alternatives = _XPATH_SPACE.sub("|", _XPATH_TRIM.sub("", text))
    try:
        return re.compile(f" ({alternatives}) ")
    except re.error:
        return None


def _prepare_registered(params: Mapping[str, Node]) -> Check | None:
    # FILTER ($registered) ... BIND (... AS ?codes)
    # FILTER (!BOUND(?valueNid) || REGEX(CONCAT(" ", urnfn:findings(STR(?value)), " "), ?codes))
    if not _ebv(params.get("registered")):
        return None
    pattern = _registry_pattern(params.get("nidFindings"))

    def check(value: Node) -> bool:
        text = _text(value)
        found = None if text is None else _urn_codes(text)
        if found is None:  # not a URN
            return True
        # a bad pattern: REGEX raises, `false || error` drops the row
        return pattern is not None and pattern.search(f" {' '.join(found)} ") is not None

    return check


def _prepare_canonical(params: Mapping[str, Node]) -> Check | None:
    # FILTER ($canonical)
    # FILTER (!BOUND(?valueNid) || urnfn:canonical(STR(?value)) != STR(?value))
    if not _ebv(params.get("canonical")):
        return None

    def check(value: Node) -> bool:
        text = _text(value)
        if text is None:
            return True
        canonical = facts(text).canonical  # None exactly where nid is None: not a URN
        return canonical is None or canonical != text

    return check


def _prepare_no_components(params: Mapping[str, Node]) -> Check | None:
    # FILTER ($noComponents) FILTER (!BOUND(?valueNid) || REGEX(STR(?value), "[?#]"))
    if not _ebv(params.get("noComponents")):
        return None

    def check(value: Node) -> bool:
        text = _text(value)
        if text is None or facts(text).nid is None:
            return True
        return "?" in text or "#" in text

    return check


def _unique_violations(
    focus_values: Mapping[Node, Iterable[Node]],
    params: Mapping[str, Node],
    holders: Mapping[str, set[Node]],
) -> list[tuple[Node, Node]]:
    # OPTIONAL { ?other $PATH ?otherValue . FILTER (!sameTerm(?other, $this)
    #            && urnfn:equivalent(STR(?value), STR(?otherValue))) }
    # FILTER (!BOUND(?valueNid) || BOUND(?other))
    if not _ebv(params.get("uniqueByEquivalence")):
        return []
    only = params.get("onlyURNs")
    found: list[tuple[Node, Node]] = []
    for focus, values in focus_values.items():
        for value in values:
            if not in_scope(value, only):
                continue
            text = _text(value)
            key = None if text is None else facts(text).key
            if key is None:  # not a URN (facts: key is None exactly where nid is)
                found.append((focus, value))
                continue
            # !sameTerm(?other, $this): rdflib's == on terms is already term identity.
            if any(s != focus for s in holders.get(key, ())):
                found.append((focus, value))
    return found


def _graph_only(params: Mapping[str, Node]) -> Check | None:  # pragma: no cover - never called
    raise AssertionError("a graph rule is not evaluated value by value")


#: Component IRI -> its rule. The keys are exactly the components declared in ``urn.ttl``.
RULES: dict[URIRef, Rule] = {
    URNSH.NIDConstraintComponent: Rule("nid", _prepare_nid),
    URNSH.RegisteredConstraintComponent: Rule("registered", _prepare_registered),
    URNSH.NamespaceValidConstraintComponent: Rule(
        "namespaceValid", _prepare_codes("namespaceValid", _NAMESPACE_CODES, namespace_verdict)
    ),
    URNSH.CanonicalConstraintComponent: Rule("canonical", _prepare_canonical),
    URNSH.NoComponentsConstraintComponent: Rule("noComponents", _prepare_no_components),
    URNSH.UniqueByEquivalenceConstraintComponent: Rule(
        "uniqueByEquivalence", _graph_only, needs_graph=True
    ),
}
