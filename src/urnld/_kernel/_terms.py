"""The term rule: is this RDF / JSON-LD term a usable URN, and what is its canonical form?

Every path that meets URNs inside linked data asks this, and all of them ask it here: the
streaming N-Triples pass (:mod:`urnld.stream`), the in-memory pass
(:func:`urnld.rdf.canonicalize`), the URN store, ``URNRef`` and the SPARQL functions
(:mod:`urnld.rdf`), JSON-LD (:mod:`urnld.jsonld`) and the Dask engine. Change the rule here and
all of them follow.

*Usable* means: RFC 8141 syntax, and an NID that the NID policy (by default the core's,
:func:`urnld._core._check.nid_policy_error`) does not rule out, such as ``X-`` experimental NIDs
(RFC 8141 App. C). A usable URN is rewritten to its canonical form; anything else that starts
with ``urn:`` is left exactly as written and reported with the reason. Namespace findings (a
wrong ISBN check digit) do not make a URN unusable: it still has an equivalence class, hence a
canonical form. The opt-in spelling modes (repairs, locators) live in ``_spellings`` and the
check side (what ``urnld check`` reports) in ``_term_check``; the rule and its cache use them
here.

>>> v = term_verdict("URN:ISBN:0-395-36341-1")
>>> v.ok, v.output, v.nid
(True, 'urn:isbn:0395363411', 'isbn')
>>> v = term_verdict("urn:X-foo:Bar")
>>> v.ok, v.output, v.code
(False, 'urn:X-foo:Bar', 'nid-experimental')
>>> cache = TermCache(TermRule(ignore_components=True))
>>> cache.get("urn:example:a#Part").dropped
'#Part'
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Iterable
from typing import Final, NamedTuple

from .._core import (
    FAST_CONTEXT,
    RFC8141_RE,
    Policy,
    SeverityMap,
    canonical_of_match,
    is_urn_like,
    nid_policy_error,
    syntax_error,
)
from .._core import accel as _accel
from ..namespaces import PREFIXES
from ._spellings import (
    _REPAIR_NIDS,
    _REPAIR_ONLY_PYTHON,
    NO_SPELLINGS,
    SpellingOptions,
    _repair,
    repair_prefixes,
)
from ._term_check import _DEFAULT_POLICY, CheckFields, _check_fields, _is_plain

__all__ = [
    "POLICY_OK_NIDS",
    "RDFLIB_INTERNAL_PREFIX",
    "SPELLING",
    "URN_LITERAL_DATATYPES",
    "XSD",
    "NidPolicy",
    "TermCache",
    "TermRule",
    "TermVerdict",
    "is_rdflib_internal",
    "is_urn_like",
    "repair_code",
    "repair_counts",
    "term_verdict",
]

_match_rfc8141: Final = RFC8141_RE.fullmatch

#: XML Schema datatypes namespace.
XSD: Final = "http://www.w3.org/2001/XMLSchema#"

#: Datatypes of literals whose whole lexical form may be a URN (besides plain literals without
#: a language tag): ``xsd:string`` and ``xsd:anyURI``.
URN_LITERAL_DATATYPES: Final = (XSD + "string", XSD + "anyURI")

#: urnld's property for an original spelling of a canonical URN (``keep_spellings``). Its
#: literal object records how the data spelled a URN: it is never a URN term itself, on any
#: path, so no later run (``literals=True``) rewrites or reports the record.
SPELLING: Final = "https://w3id.org/urnld/vocab#spelling"

#: rdflib names its own internals with this ``X-`` URN prefix (the Dataset default graph is
#: ``urn:x-rdflib:default``). They are not data: every path passes them through silently instead
#: of reporting them as invalid URNs.
RDFLIB_INTERNAL_PREFIX: Final = "urn:x-rdflib:"

#: An NID policy: ``"code: message"`` when the NID rules the string out as a URN, else None.
NidPolicy = Callable[[str], "str | None"]


def is_rdflib_internal(text: str) -> bool:
    """True for rdflib's own ``urn:x-rdflib:`` IRIs.

    >>> is_rdflib_internal("urn:x-rdflib:default"), is_rdflib_internal("urn:x-foo:a")
    (True, False)
    """
    return text.startswith(RDFLIB_INTERNAL_PREFIX)


class TermVerdict(NamedTuple):
    """What the term rule says about one string that starts with ``urn:``.

    Attributes:
        output: the text to write: the canonical form of a usable URN (without its components
            when they are ignored), else the text exactly as given.
        canonical: the canonical form (as ``output``) for a usable URN, else None.
        nid: the NID in lower case for a usable URN, else None.
        dropped: the components cut off (``"?=x#f"``) with ``ignore_components``, else None.
        code: None for a usable URN, else the finding code that rules it out (``"syntax"``,
            ``"nid-experimental"``, …).
        message: None for a usable URN, else what is wrong, in one sentence.
    """

    output: str
    canonical: str | None
    nid: str | None
    dropped: str | None
    code: str | None
    message: str | None

    @property
    def ok(self) -> bool:
        """True for a usable URN."""
        return self.code is None

    @property
    def reason(self) -> str | None:
        """``"code: message"`` as reports show it, or None for a usable URN."""
        return None if self.code is None else f"{self.code}: {self.message}"


def term_verdict(
    text: str, ignore_components: bool = False, nid_policy: NidPolicy = nid_policy_error
) -> TermVerdict:
    """The term rule for one string (uncached). Never raises for a ``str``.

    This is the stable entry point behind every cache: an accelerated implementation must
    return the same :class:`TermVerdict` for every input.

    >>> term_verdict("urn:example:a?=q", ignore_components=True)  # doctest: +NORMALIZE_WHITESPACE
    TermVerdict(output='urn:example:a', canonical='urn:example:a', nid='example',
                dropped='?=q', code=None, message=None)
    >>> term_verdict("urn:isbn").reason
    "syntax: ':' and a namespace-specific string must follow the NID"
    """
    m = _match_rfc8141(text)
    if m is None:
        return TermVerdict(text, None, None, None, "syntax", syntax_error(text, "rfc8141").reason)
    policy = nid_policy(m[1])
    if policy is not None:
        code, _, message = policy.partition(": ")
        return TermVerdict(text, None, None, None, code, message)
    canonical = canonical_of_match(text, m)
    nid = canonical[4 : m.end(1)]
    if not ignore_components or m.lastindex == 2:
        return TermVerdict(canonical, canonical, nid, None, None, None)
    # '?' and '#' cannot occur in a canonical NSS: the first one starts the components.
    cut = len(canonical)
    for ch in "?#":
        i = canonical.find(ch)
        if 0 <= i < cut:
            cut = i
    key = canonical[:cut]
    return TermVerdict(key, key, nid, canonical[cut:], None, None)


@functools.lru_cache(maxsize=64)
def _policy_nid(strict: bool, severity: SeverityMap) -> NidPolicy:
    """The core's NID policy under a validation policy (one function per distinct policy)."""
    return functools.partial(nid_policy_error, strict=strict, severity=severity)


def repair_code(spelling: str, v: TermVerdict, ignore_components: bool = False) -> str | None:
    """The code of the repair that gave *v* for *spelling* (a pass with ``repair``), or None.

    >>> v = TermRule(spellings=SpellingOptions(repair=True)).verdict("urn:uuid:_" + "a" * 32)
    >>> repair_code("urn:uuid:_" + "a" * 32, v)
    'uuid-underscore'
    >>> repair_code("urn:isbn:0395363411", term_verdict("urn:isbn:0395363411")) is None
    True
    """
    if v.nid is None or spelling[4 : spelling.find(":", 4)].lower() not in _REPAIR_NIDS:
        return None
    fixed = _repair(spelling)
    if fixed is None or term_verdict(fixed.repaired, ignore_components).output != v.output:
        return None
    return fixed.code


def repair_counts(
    items: Iterable[tuple[str, TermVerdict, int]], ignore_components: bool = False
) -> dict[str, int]:
    """Repair code -> occurrences, for ``(spelling, verdict, count)`` triples of a pass with
    ``repair``: a spelling counts when a documented repair of it gives the verdict's URN.

    >>> v = TermRule(spellings=SpellingOptions(repair=True)).verdict("urn:uuid:_" + "a" * 32)
    >>> repair_counts([("urn:uuid:_" + "a" * 32, v, 2), ("urn:isbn:0395363411", v, 1)])
    {'uuid-underscore': 2}
    """
    out: dict[str, int] = {}
    for spelling, v, n in items:
        code = repair_code(spelling, v, ignore_components)
        if code is not None:
            out[code] = out.get(code, 0) + n
    return out


@dataclasses.dataclass(frozen=True, slots=True)
class TermRule:
    """The options of the term rule, shared by every path.

    Attributes:
        ignore_components: merge URNs by RFC 8141 equivalence alone (r-, q- and f-components
            are cut off and reported in :attr:`TermVerdict.dropped`).
        nid_policy: decides which NIDs make a string no URN (default: the core's NID policy,
            :func:`urnld._core._check.nid_policy_error`, whose severities it follows).
        policy: the validation policy (:class:`urnld.Policy`): under ``strict`` reserved and
            malformed informal NIDs make a string no URN; severity overrides move NID findings
            (``nid-experimental = "warning"`` makes ``urn:x-ogc:…`` usable); the check side
            (:meth:`TermCache.checked`) reports findings under it.
        spellings: the opt-in spelling modes (:class:`SpellingOptions`); with ``repair``, a
            URN that a documented repair fixes gets the verdict of the repaired URN.

    >>> TermRule().verdict("URN:EXAMPLE:x").output
    'urn:example:x'
    >>> strict = TermRule(policy=Policy(strict=True))
    >>> TermRule().verdict("urn:ab:x").ok, strict.verdict("urn:ab:x").ok
    (True, False)
    """

    ignore_components: bool = False
    nid_policy: NidPolicy = nid_policy_error
    policy: Policy = _DEFAULT_POLICY
    spellings: SpellingOptions = NO_SPELLINGS

    def verdict(self, text: str) -> TermVerdict:
        """:func:`term_verdict` under these options (uncached).

        >>> TermRule(spellings=SpellingOptions(repair=True)).verdict(
        ...     "urn:uuid:F81D4FAE7DEC11D0A76500A0C91E6BF6").output
        'urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6'
        """
        nid_policy = self.nid_policy
        if nid_policy is nid_policy_error and (self.policy.strict or self.policy.severity):
            nid_policy = _policy_nid(self.policy.strict, self.policy.severity)
        if self.spellings.repair and text[4 : text.find(":", 4)].lower() in _REPAIR_NIDS:
            fixed = _repair(text)
            if fixed is not None:
                text = fixed.repaired
        return term_verdict(text, self.ignore_components, nid_policy)


#: NIDs (as written) that the core's NID policy accepts, met by an accelerated verdict: the
#: compiled accelerator's fast path takes only these (the policy is a function of the NID
#: alone, so entries never go stale). Bounded.
POLICY_OK_NIDS: dict[str, None] = {}
_MAX_POLICY_OK = 1024


def _accelerated(rule: TermRule) -> Callable[[str], TermVerdict]:
    """*rule*'s verdict, through the compiled accelerator where it can answer.

    The accelerator takes an ASCII URN whose NID is already in the core's NID table and in
    :data:`POLICY_OK_NIDS` (its namespace rule, if any, still runs in Python) and returns the
    verdict :func:`term_verdict` would; everything else, and any rule with its own NID policy,
    goes through :func:`term_verdict`.
    """
    c = _accel.speedups
    slow = rule.verdict
    policy = rule.policy
    if c is None or rule.nid_policy is not nid_policy_error or policy.strict or policy.severity:
        # POLICY_OK_NIDS holds the default policy's verdicts only.
        return slow
    fast = c.canonical_str
    ignore_components = rule.ignore_components

    def verdict(text: str) -> TermVerdict:
        canonical = fast(text, PREFIXES, POLICY_OK_NIDS)
        if canonical is None:
            v = slow(text)
            if v.nid is not None and len(POLICY_OK_NIDS) < _MAX_POLICY_OK:
                POLICY_OK_NIDS[text[4 : text.index(":", 4)]] = None
            return v
        if ignore_components and ("?" in canonical or "#" in canonical):
            return slow(text)
        nid = canonical[4 : canonical.index(":", 4)]
        return TermVerdict(canonical, canonical, nid, None, None, None)

    if rule.spellings.repair:
        # The accelerator knows no repairs: URNs of NIDs with repair rules go to Python, but
        # those whose NSS no repair touches (repair_prefixes guards their rules).
        def repairing(text: str) -> TermVerdict:
            nid = text[4 : text.find(":", 4)].lower()
            if nid not in _REPAIR_NIDS:
                return verdict(text)
            if nid in _REPAIR_ONLY_PYTHON:
                return slow(text)
            canonical = fast(text, repair_prefixes(), POLICY_OK_NIDS)
            if canonical is None:
                fixed = _repair(text)
                if fixed is not None:
                    # rule.verdict's answer, term_verdict of the repaired URN: a valid URN
                    # that no repair touches, which the accelerated verdict takes as it is.
                    return verdict(fixed.repaired)
            if canonical is None or (ignore_components and ("?" in canonical or "#" in canonical)):
                v = slow(text)
                if v.nid is not None and len(POLICY_OK_NIDS) < _MAX_POLICY_OK:
                    POLICY_OK_NIDS[text[4 : text.index(":", 4)]] = None
                return v
            nid = canonical[4 : canonical.index(":", 4)]
            return TermVerdict(canonical, canonical, nid, None, None, None)

        return repairing
    return verdict


class TermCache:
    """The term rule's verdicts, cached per distinct string, in bounded memory.

    One instance per pass (a stream, a graph, a store, a JSON-LD operation). Past *max_size*
    distinct strings the cache restarts: data repeats URNs locally, so it refills quickly.

    >>> c = TermCache(max_size=2)
    >>> c.get("URN:abc:b").output, c.get("urn:abc:b").output, len(c)
    ('urn:abc:b', 'urn:abc:b', 2)
    >>> _ = c.get("urn:abc:d"); len(c)
    1
    """

    __slots__ = ("_cache", "_checks", "_max", "_plain", "rule", "verdict")

    def __init__(self, rule: TermRule | None = None, *, max_size: int = 200_000) -> None:
        self.rule = rule if rule is not None else TermRule()
        #: The uncached rule (for callers that cache by a key of their own).
        self.verdict: Callable[[str], TermVerdict] = _accelerated(self.rule)
        self._cache: dict[str, TermVerdict] = {}
        self._checks: dict[str, CheckFields] = {}
        self._max = max_size
        # The default policy: the accelerator's check may answer (see _check_fields).
        self._plain = _is_plain(self.rule.policy)

    def get(self, text: str) -> TermVerdict:
        """The verdict for *text* (a string that starts with ``urn:``), cached."""
        hit = self._cache.get(text)
        if hit is not None:
            return hit
        result = self.verdict(text)
        if len(self._cache) >= self._max:
            self._cache.clear()
        self._cache[text] = result
        return result

    def checked(self, text: str) -> CheckFields:
        """:func:`check_term` for *text*, cached, as a plain tuple of its fields.

        >>> codes, error, canonical, nid = TermCache().checked("URN:EXAMPLE:a")
        >>> codes, error, canonical, nid
        (('not-canonical',), None, 'urn:example:a', 'example')
        """
        hit = self._checks.get(text)
        if hit is not None:
            return hit
        # A plain tuple: the garbage collector stops tracking a tuple that holds only strings,
        # but never a NamedTuple instance, and a pass caches hundreds of thousands of these.
        result = _check_fields(text, self.rule.policy, self._plain)
        if len(self._checks) >= self._max:
            self._checks.clear()
        self._checks[text] = result
        return result

    @property
    def checks(self) -> dict[str, CheckFields]:
        """The cache :meth:`checked` fills (spelling → its fields), for the compiled flush that
        reads it without a call per spelling. Bounded like the verdicts (:attr:`max_size`)."""
        return self._checks

    @property
    def max_size(self) -> int:
        """How many entries each cache holds before it starts afresh."""
        return self._max

    @property
    def fast_check(self) -> tuple[object, ...] | None:
        """What the accelerator's ``check_fields`` takes after the text, when its answer is
        :meth:`checked`'s (the default policy, accelerator built), else None: a compiled flush
        then checks a missing spelling without a Python call, and fills :attr:`checks`."""
        return FAST_CONTEXT if self._plain and _accel.speedups is not None else None

    def clear(self) -> None:
        """Forget every cached verdict."""
        self._cache.clear()
        self._checks.clear()

    def __len__(self) -> int:
        return len(self._cache)
