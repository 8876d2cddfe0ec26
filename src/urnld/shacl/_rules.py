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

from .._core import Policy, active_policy
from .._kernel import fields_function

__all__ = [
    "RULES",
    "URNSH",
    "Facts",
    "Rule",
    "facts",
    "finding_codes",
    "in_scope",
    "index_holders",
    "key_function",
    "namespace_codes",
    "namespace_verdict",
]

#: The namespace of urnld's shapes (prefix ``urnsh:``).
URNSH = Namespace("https://w3id.org/urnld/shacl#")

# Same bound as the urnfn: functions' cache: past this many distinct URNs it only costs memory.
# A :class:`_Checks` holds two generations of this many.
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


#: What the components ask about one spelling under one policy, as a plain tuple (the garbage
#: collector stops tracking a tuple of strings, never a NamedTuple, and a run caches hundreds
#: of thousands): (nid, canonical form, assigned name, check()'s codes). The first three are
#: None for a string that is not a URN.
Entry = tuple[str | None, str | None, str | None, tuple[str, ...]]


@functools.lru_cache(maxsize=256)
def code_set(codes: tuple[str, ...]) -> frozenset[str]:
    """The codes of an :data:`Entry` as a set (few distinct tuples: one set each)."""
    return frozenset(codes)


@functools.lru_cache(maxsize=256)
def _namespace_set(codes: tuple[str, ...]) -> frozenset[str]:
    return frozenset(codes) & _NAMESPACE_CODES


class _Checks:
    """The URN core's verdicts on spellings under one policy: one check per distinct string
    (the accelerator's where it answers), one cached :data:`Entry` holding what every
    component asks. Bounded: two generations of :data:`_CACHE_SIZE` strings, the older
    dropped when the newer is full. Emptying one cache instead made a validation read again
    every value of a pass just larger than the cache: a plan reads the same identifiers in
    consecutive passes (one per shape, then the uniqueness index), and measured at a million
    statements a sixth of the URN core's checks were repeats.
    """

    __slots__ = ("entries", "fields", "older", "plain", "plain_fields", "policy")

    def __init__(self, policy: Policy) -> None:
        self.policy = policy
        self.plain = policy == Policy()
        self.entries: dict[str, Entry] = {}
        self.older: dict[str, Entry] = {}
        self.fields = fields_function(policy)
        self.plain_fields = fields_function()

    def entry(self, text: str) -> Entry:
        found = self.entries.get(text)
        if found is None:
            found = self.older.get(text)
            if found is None:
                found = self._judge(text)
            if len(self.entries) >= _CACHE_SIZE:
                self.older, self.entries = self.entries, {}
            self.entries[text] = found
        return found

    def _judge(self, text: str) -> Entry:
        codes, _, canonical, nid = self.fields(text)
        if not self.plain:
            # The canonical form and NID do not depend on the policy's severities.
            _, _, canonical, nid = self.plain_fields(text)
        if canonical is None or nid is None:
            return (None, None, None, codes)
        if "?" not in canonical and "#" not in canonical:  # most URNs: no components
            return (nid, canonical, canonical, codes)
        cut = len(canonical)
        for ch in "?#":
            i = canonical.find(ch, 4)
            if 0 <= i < cut:
                cut = i
        return (nid, canonical, canonical[:cut], codes)

    def fact(self, text: str) -> Facts:
        nid, canonical, key, _ = self.entry(text)
        return Facts(nid, canonical, key)


_LAST: list[_Checks] = []


def _checks() -> _Checks:
    """The caches of the policy in force (the same object while it stays in force)."""
    policy = active_policy()
    if _LAST and _LAST[0].policy is policy:
        return _LAST[0]
    found = _Checks(policy)
    _LAST[:] = [found]
    return found


def facts(text: str) -> Facts:
    """The :class:`Facts` of *text* (cached per distinct string).

    From the kernel's check of the spelling (the accelerator's where it is built): the
    canonical form and NID ``urnld.canonical`` and ``URN.parse`` give, and the assigned name
    (the canonical form up to its first ``?`` or ``#``: a canonical NSS holds neither).

    >>> facts("URN:ISBN:0-395-36341-1")
    Facts(nid='isbn', canonical='urn:isbn:0395363411', key='urn:isbn:0395363411')
    >>> facts("no urn").canonical is None
    True
    """
    return _checks().fact(text)


def key_function() -> Callable[[str], str | None]:
    """``urnfn:equivalent``'s class of a spelling under the policy in force: its canonical
    assigned name, None for a string that is not a URN (equal to nothing).

    >>> key_function()("URN:ISBN:0-395-36341-1?=x")
    'urn:isbn:0395363411'
    """
    entry = _checks().entry
    return lambda text: entry(text)[2]


def finding_codes(text: str) -> frozenset[str]:
    """``urnfn:findings`` as a set: the codes of :func:`urnld.check` (``{"syntax"}`` for a non-URN).

    >>> sorted(finding_codes("URN:ISBN:0-395-36341-2"))
    ['not-canonical', 'nss-check-digit']
    """
    # check() itself reports "syntax" for a non-URN; a valid canonical URN has no findings.
    return code_set(_checks().entry(text)[3])


def namespace_codes(text: str) -> frozenset[str]:
    """The codes the namespace rule of *text*'s NID reports (a subset of :func:`finding_codes`):
    ``nss-invalid`` / ``nss-check-digit``.

    >>> sorted(namespace_codes("urn:isbn:0395363412"))
    ['nss-check-digit']
    """
    return namespace_verdict(text) or frozenset()


def namespace_verdict(text: str) -> frozenset[str] | None:
    """:func:`namespace_codes`, or None where *text* is not a URN (``urnfn:nid`` raises).

    >>> namespace_verdict("urn:isbn"), namespace_verdict("urn:isbn:0395363411")
    (None, frozenset())
    """
    nid, _, _, codes = _checks().entry(text)
    return None if nid is None else _namespace_set(codes)


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
    if not narrows(only_urns):
        return True
    text = _text(value)
    return text is not None and text[:4].lower() == "urn:"


def narrows(only_urns: Node | None) -> bool:
    """Does ``urnsh:onlyURNs`` with this value narrow a component to values that start with
    ``urn:``? (An unusable flag does: ``!error`` is an error in SPARQL, so the value stays in
    scope only through STRSTARTS, as with a flag that is true.)

    >>> narrows(Literal(True)), narrows(Literal(False)), narrows(None), narrows(Literal("x"))
    (True, False, False, True)
    """
    if only_urns is None:
        return False
    with contextlib.suppress(SPARQLError):
        if not EBV(only_urns):  # type: ignore[call-overload]  # any term; errors caught
            return False
    return True


def switched_on(param: Node | None) -> bool:
    """``FILTER ($param)``: SPARQL's effective boolean value; an error counts as false.

    >>> switched_on(Literal(True)), switched_on(Literal(False)), switched_on(None)
    (True, False, False)
    """
    return _ebv(param)


def _ebv(param: Node | None) -> bool:
    """``FILTER ($param)``: SPARQL's effective boolean value; an error counts as false."""
    if param is None:
        return False
    try:
        return bool(EBV(param))  # type: ignore[call-overload]  # any term; errors caught
    except SPARQLError:
        return False


#: A per-value test on the value's lexical form (``STR(?value)``; None for a blank node, where
#: STR is an error), made once per shape from its parameter values; None: never violated.
Check = Callable[[str | None], bool]
#: The same test given the form's :data:`Entry` too (None with the form): a caller that runs
#: several components over one value looks the entry up once.
EntryCheck = Callable[[str | None, Entry | None], bool]
Prepare = Callable[[Mapping[str, Node]], EntryCheck | None]


def entry_function() -> Callable[[str], Entry]:
    """The :data:`Entry` of a spelling under the policy in force (cached per distinct string).

    >>> entry_function()("URN:ISBN:0-395-36341-1")[:3]
    ('isbn', 'urn:isbn:0395363411', 'urn:isbn:0395363411')
    """
    return _checks().entry


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
        test = self.text_check(params)
        if test is None:
            return []
        return [(f, v) for f, values in focus_values.items() for v in values if test(_text(v))]

    def text_check(self, params: Mapping[str, Node]) -> Check | None:
        """Whether a value with this lexical form (None: a blank node) breaks the component,
        ``urnsh:onlyURNs`` included; None where no value can (the component is off).

        >>> from rdflib import Literal
        >>> test = RULES[URNSH.CanonicalConstraintComponent].text_check(
        ...     {"canonical": Literal(True), "onlyURNs": Literal(True)})
        >>> test("URN:ISBN:0-395-36341-1"), test("urn:isbn:0395363411"), test("http://x")
        (True, False, False)
        """
        found = self.entry_test(params)
        if found is None:
            return None
        check, narrowed = found
        entry = entry_function()
        if narrowed:  # a value out of scope is not looked up
            return lambda text: (text is not None and text[:4].lower() == "urn:"
                                 and check(text, entry(text)))
        return lambda text: check(text, None if text is None else entry(text))

    def entry_test(self, params: Mapping[str, Node]) -> tuple[EntryCheck, bool] | None:
        """The component's test given a value's form and its :data:`Entry` (from
        :func:`entry_function`, under the same policy), without ``urnsh:onlyURNs``, and
        whether that narrows it to values that start with ``urn:`` (in any case): a caller
        judging several components over one value looks the entry up and tests that once."""
        if self.needs_graph:
            raise ValueError("a graph rule is not judged value by value")
        check = self.prepare(params)
        if check is None:
            return None
        return check, narrows(params.get("onlyURNs"))


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


def _prepare_nid(params: Mapping[str, Node]) -> EntryCheck | None:
    # FILTER (!BOUND(?valueNid) || !isLiteral($nid) || !CONTAINS(CONCAT(" ",
    #         REPLACE(LCASE(STR($nid)), "\\s+", " "), " "), CONCAT(" ", ?valueNid, " ")))
    allowed = params.get("nid")
    if not isinstance(allowed, Literal):
        return lambda text, entry: True  # `true || error` is true: every value, blank nodes too
    haystack = " " + _XPATH_SPACE.sub(" ", str(allowed).lower()) + " "

    def check(text: str | None, entry: Entry | None) -> bool:
        nid = None if entry is None else entry[0]
        return nid is None or f" {nid} " not in haystack

    return check


def _urn_codes(text: str) -> frozenset[str] | None:
    """:func:`finding_codes`, or None where *text* is not a URN."""
    return None if facts(text).nid is None else finding_codes(text)


def _prepare_codes(param: str, codes: frozenset[str]) -> Prepare:
    # FILTER ($param) FILTER (!BOUND(?valueNid)
    #                         || REGEX(CONCAT(" ", urnfn:findings(STR(?value)), " "), " (a|b) "))
    # (urn.ttl's REGEX looks only for the namespace rule's codes: codes is a subset of them.)
    def prepare(params: Mapping[str, Node]) -> EntryCheck | None:
        if not _ebv(params.get(param)):
            return None

        def check(text: str | None, entry: Entry | None) -> bool:
            if entry is None or entry[0] is None:  # a blank node, or not a URN
                return True
            return not codes.isdisjoint(_namespace_set(entry[3]))

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


def _prepare_registered(params: Mapping[str, Node]) -> EntryCheck | None:
    # FILTER ($registered) ... BIND (... AS ?codes)
    # FILTER (!BOUND(?valueNid) || REGEX(CONCAT(" ", urnfn:findings(STR(?value)), " "), ?codes))
    if not _ebv(params.get("registered")):
        return None
    pattern = _registry_pattern(params.get("nidFindings"))
    matched: dict[tuple[str, ...], bool] = {}  # few distinct code tuples: the regex once each

    def check(text: str | None, entry: Entry | None) -> bool:
        if entry is None:
            return True
        nid, _, _, found = entry
        if nid is None:  # not a URN
            return True
        verdict = matched.get(found)
        if verdict is None:
            # a bad pattern: REGEX raises, `false || error` drops the row. The codes' order
            # does not matter to the pattern (" (a|b) " finds any one of them).
            verdict = matched[found] = pattern is not None and pattern.search(
                f" {' '.join(sorted(found))} ") is not None
        return verdict

    return check


def _prepare_canonical(params: Mapping[str, Node]) -> EntryCheck | None:
    # FILTER ($canonical)
    # FILTER (!BOUND(?valueNid) || urnfn:canonical(STR(?value)) != STR(?value))
    if not _ebv(params.get("canonical")):
        return None

    def check(text: str | None, entry: Entry | None) -> bool:
        if text is None or entry is None:
            return True
        canonical = entry[1]  # None exactly where nid is None: not a URN
        return canonical is None or canonical != text

    return check


def _prepare_no_components(params: Mapping[str, Node]) -> EntryCheck | None:
    # FILTER ($noComponents) FILTER (!BOUND(?valueNid) || REGEX(STR(?value), "[?#]"))
    if not _ebv(params.get("noComponents")):
        return None

    def check(text: str | None, entry: Entry | None) -> bool:
        if text is None or entry is None or entry[0] is None:
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


def _graph_only(params: Mapping[str, Node]) -> EntryCheck | None:  # pragma: no cover - never called
    raise AssertionError("a graph rule is not evaluated value by value")


#: Component IRI -> its rule. The keys are exactly the components declared in ``urn.ttl``.
RULES: dict[URIRef, Rule] = {
    URNSH.NIDConstraintComponent: Rule("nid", _prepare_nid),
    URNSH.RegisteredConstraintComponent: Rule("registered", _prepare_registered),
    URNSH.NamespaceValidConstraintComponent: Rule(
        "namespaceValid", _prepare_codes("namespaceValid", _NAMESPACE_CODES)
    ),
    URNSH.CanonicalConstraintComponent: Rule("canonical", _prepare_canonical),
    URNSH.NoComponentsConstraintComponent: Rule("noComponents", _prepare_no_components),
    URNSH.UniqueByEquivalenceConstraintComponent: Rule(
        "uniqueByEquivalence", _graph_only, needs_graph=True
    ),
}
