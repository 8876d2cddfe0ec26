"""check(): every level of validation, each reported as its own finding.

Levels (URN.md §3): syntax → NID policy → IANA registry → percent-encoding lints → namespace
(NSS grammar, check digits) → canonical form.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Collection, Iterator
from typing import Any, Final

from ..errors import URNSyntaxError, URNValidationError
from ..findings import CODES, SEVERITY_RANK, CheckOptions, Finding, Severity
from ..registry import is_registered
from . import _accel
from ._parser import RFC2141_RE, Mode, syntax_error
from ._pct_lints import PCT_CODES, pct_lints
from ._repair import repair
from ._rule import NamespaceRule
from ._rules import PREFIXES, get_rule, on_register
from ._severity import NO_OVERRIDES, SeverityLike, SeverityMap
from ._urn import (
    URN,
    Parts,
    _check_mode,
    _check_text,
    _fast_canonical,
    _match_rfc8141,
    canonical_of_match,
)

__all__ = [
    "URNValidationError",
    "check",
    "check_described",
    "fast_findings",
    "nid_findings",
    "nid_policy_error",
    "validate",
]

_INFORMAL_OK = re.compile(r"urn-[1-9][0-9]*")
_TWO_LETTERS_HYPHEN = re.compile(r"[a-z]{2}-")
def _finding(
    code: str,
    message: str,
    start: int,
    end: int,
    *,
    rule: str | None = None,
    severity: Severity | None = None,
) -> Finding:
    return Finding(code, severity or CODES[code][0], message, (start, end), rule)


def _nid_findings(written: str, mode: Mode, strict: bool = False) -> Iterator[Finding]:
    """NID policy and registry findings for the NID *written*; spans as in ``urn:NID:…``."""
    nid = written.lower()
    span = (4, 4 + len(nid))
    # RFC 8141 §5.1/§5.2 describe what may be registered, not what is a URN: warnings, unless
    # the caller asks for the strict reading.
    policy = Severity.ERROR if strict else Severity.WARNING
    if nid == "urn":
        yield _finding(
            "nid-doubled-scheme",
            f"{written!r} as the NID: the scheme is written twice ('URN:urn:…'); the URN is "
            "probably what follows it",
            *span,
        )
        if mode == "rfc2141":
            # RFC 2141 §2: "the NID 'urn' is reserved" and MUST NOT be used, a rule of its own.
            yield _finding(
                "nid-reserved", "the NID 'urn' is reserved (RFC 2141 §2)", *span,
                severity=Severity.ERROR,
            )
        return
    if nid.startswith("x-"):
        yield _finding(
            "nid-experimental",
            f"'X-' experimental NIDs such as {written!r} were removed by RFC 8141 (App. C); "
            "this is not a valid URN",
            *span,
        )
        return
    if nid.startswith("urn-"):
        if not _INFORMAL_OK.fullmatch(nid):
            yield _finding(
                "nid-informal-malformed",
                f"informal NID {written!r} must be 'urn-' and a number without leading zero "
                "(RFC 8141 §5.2)",
                *span,
                severity=policy,
            )
            return
    elif len(nid) <= 2:
        yield _finding(
            "nid-reserved",
            f"NID {written!r} is too short: formal NIDs have more than two characters "
            "(RFC 8141 §5.1)",
            *span,
            severity=policy,
        )
        return
    elif _TWO_LETTERS_HYPHEN.match(nid):
        yield _finding(
            "nid-reserved",
            f"NID {written!r} starts with two letters and '-', which RFC 8141 §5.1 reserves",
            *span,
            severity=policy,
        )
        return
    if not is_registered(nid):
        yield _finding(
            "nid-unregistered",
            f"NID {written!r} is not in the IANA URN namespace registry",
            *span,
        )


@functools.lru_cache(maxsize=4096)
def nid_policy_error(
    nid: str,
    mode: Mode = "rfc8141",
    *,
    strict: bool = False,
    severity: SeverityMap = NO_OVERRIDES,
) -> str | None:
    """``"code: message"`` when RFC 8141 rules the NID out (so the string is no URN), else None.

    The NID-policy level of :func:`check` alone (with the same *strict* and *severity*), for
    passes that meet the same NID on millions of terms (the RDF passes treat such strings as
    non-URNs). Cached; never raises for a str.

    >>> nid_policy_error("X-local").split(":")[0]
    'nid-experimental'
    >>> nid_policy_error("un") is None, nid_policy_error("un", strict=True).split(":")[0]
    (True, 'nid-reserved')
    >>> nid_policy_error("X-local", severity=SeverityMap({"nid-experimental": "warning"}))
    """
    for f in severity.apply(_nid_findings(nid, mode, strict)):
        if f.severity is Severity.ERROR:
            return f"{f.code}: {f.message}"
    return None


def _pct_findings(part: str, offset: int, what: str) -> list[Finding]:
    """The percent-encoding lints of one part, spans shifted by *offset* (at most
    ``MAX_PER_CODE`` findings per code)."""
    return [_finding(*lint) for lint in pct_lints(part, offset, what)]


@functools.lru_cache(maxsize=256)  # bounded: hostile input invents NIDs
def _nid_findings_of(written: str, mode: Mode, strict: bool) -> tuple[Finding, ...]:
    """:func:`_nid_findings` as a tuple, cached: a NID's findings and spans (always
    ``4 … 4+len``) are the same in every URN that writes it so, and data repeats few NIDs."""
    return tuple(_nid_findings(written, mode, strict))


def nid_findings(written: str, mode: Mode = "rfc8141", strict: bool = False) -> tuple[Finding, ...]:
    """The findings :func:`check` makes of the NID *written* (policy and registry), in every
    URN that writes it so: their spans are always ``(4, 4 + len(written))``.

    >>> [(f.code, f.span) for f in nid_findings("X-local")]
    [('nid-experimental', (4, 11))]
    >>> nid_findings("isbn")
    ()
    """
    return _nid_findings_of(written, mode, strict)


_PLAIN_OPTIONS: Final = {False: CheckOptions(), True: CheckOptions(strict=True)}


def check_options(strict: bool, profiles: Collection[str]) -> CheckOptions:
    """The :class:`~urnld.findings.CheckOptions` namespace rules see (one object per call
    site when no profile is named)."""
    if not profiles:
        return _PLAIN_OPTIONS[bool(strict)]
    return CheckOptions(strict=strict, profiles=frozenset(profiles))


def check_parsed(
    text: str, mode: Mode, strict: bool, options: CheckOptions
) -> tuple[list[Finding], str | None, str | None]:
    """:func:`check`'s findings before severity overrides (the ``repairable`` hint included),
    with the canonical form and the NID as written (both None when *text* does not parse): the
    one implementation behind :func:`check` and the term rule's check side, which needs the
    parse too. *text* and *mode* are already checked."""
    findings, canonical, parts, _ = check_described(text, mode, strict, options)
    return findings, canonical, None if parts is None else parts[0]


def check_described(
    text: str, mode: Mode, strict: bool, options: CheckOptions
) -> tuple[list[Finding], str | None, Parts | None, URNSyntaxError | None]:
    """:func:`check`'s findings without severity overrides (the ``repairable`` hint included),
    with what a description of *text* needs besides: the canonical form, the five parts as
    written and, when *text* does not parse, the syntax error (parts and canonical form are
    then None). One parse and at most one scan for the fault serve all of them.

    >>> findings, canonical, parts, error = check_described(
    ...     "URN:Example:a?+r", "rfc8141", False, check_options(False, ()))
    >>> [f.code for f in findings], canonical, parts, error
    (['r-component', 'not-canonical'], 'urn:example:a?+r', ('Example', 'a', 'r', None, None), None)
    >>> check_described("urn:ex:a b", "rfc8141", False, check_options(False, ()))[3].position
    8
    """
    findings, canonical, parts, error = _check_described(text, mode, strict, options)
    if (findings and findings[0].severity is Severity.ERROR and mode == "rfc8141"
            and (parts is None or type(get_rule(parts[0])).repair is not NamespaceRule.repair)):
        # Only a NID whose rule has repairs can give a hint (an unparsed text: ask repair()).
        hint = _repair_hint(text)
        if hint is not None:
            findings = sorted([*findings, hint], key=_sort_key)
    return findings, canonical, parts, error


def _check_described(
    text: str, mode: Mode, strict: bool, options: CheckOptions
) -> tuple[list[Finding], str | None, Parts | None, URNSyntaxError | None]:
    """:func:`check_described` before the ``repairable`` hint (what :func:`check_parsed`
    gives)."""
    urn: URN | None = None
    if mode == "rfc8141":
        # The grammar's match gives every part at once (a URN object would match lazily).
        m = _match_rfc8141(text)
        if m is None:
            error = syntax_error(text, mode)
            return [_syntax_finding(text, mode, error)], None, None, error
        parts: Parts = m.groups()  # type: ignore[assignment]  # the RFC 8141 regex: 5 groups
        nid, nss, r_component, q_component, f_component = parts
        canonical = _fast_canonical(text) or canonical_of_match(text, m)
    else:
        if RFC2141_RE.fullmatch(text) is None:
            error = syntax_error(text, mode)
            return [_syntax_finding(text, mode, error)], None, None, error
        urn = URN(text, mode)
        parts = urn.parts
        nid, nss, r_component, q_component, f_component = parts
        canonical = urn.canonical_str
    findings = list(_nid_findings_of(nid, mode, strict))
    nss_start = 4 + len(nid) + 1
    if "%" in text:
        # Spans count from the start of the text: each part's offset, components after the NSS.
        if "%" in nss:
            findings.extend(_pct_findings(nss, nss_start, "NSS"))
        pos = nss_start + len(nss)
        for value, delim, what in (
            (r_component, "?+", "r-component"),
            (q_component, "?=", "q-component"),
            (f_component, "#", "f-component"),
        ):
            if value is not None:
                pos += len(delim)
                if "%" in value:
                    findings.extend(_pct_findings(value, pos, what))
                pos += len(value)
    if r_component is not None:
        start = text.index("?+", nss_start + len(nss))
        findings.append(
            _finding(
                "r-component",
                "r-components SHOULD NOT be used until their semantics are standardized "
                "(RFC 8141 §2.3.1)",
                start,
                start + 2 + len(r_component),
            )
        )
    if mode == "rfc2141":
        for i, c in enumerate(nss):
            if c in "/?#":
                findings.append(
                    _finding(
                        "rfc2141-reserved-char",
                        f"{c!r} is reserved in RFC 2141 and SHOULD be percent-encoded",
                        nss_start + i,
                        nss_start + i + 1,
                    )
                )
                break
    findings.extend(f.shifted(nss_start) for f in get_rule(nid).check_nss(nss, options))
    if text != canonical:
        findings.append(
            _finding(
                "not-canonical",
                f"canonical form is {canonical!r}",
                0,
                len(text),
            )
        )
    if len(findings) > 1:
        findings.sort(key=_sort_key)
    return findings, canonical, parts, None


#: What the accelerator's check_fields() needs: every code's rank and each severity's.
_CODE_RANKS: Final = {code: SEVERITY_RANK[severity] for code, (severity, _) in CODES.items()}
_RANKS: Final = dict(SEVERITY_RANK)

#: check_fields()'s result: (codes, first error "code: message", canonical, NID lower case).
Fields = tuple[tuple[str, ...], "str | None", "str | None", "str | None"]


@functools.lru_cache(maxsize=1024)  # bounded: hostile input invents NIDs; mixed data has hundreds
def _nid_spec(
    written: str,
) -> tuple[tuple[tuple[str, int, int, str], ...], str, Any, Any, Any]:
    """What the accelerator needs of an NID as written: its findings as (code, rank, start,
    message), the NID in lower case, the rule's check_nss, that method's native mark, and
    for a rule with repairs the function giving an invalid URN's ``repairable`` hint as
    (code, rank, start, message) or None (None for a rule without repairs)."""
    entries = tuple(
        (f.code, SEVERITY_RANK[f.severity], f.span[0], f.message)
        for f in _nid_findings_of(written, "rfc8141", False)
    )
    rule = get_rule(written)
    check_nss = rule.check_nss
    hint = _hint_entry if type(rule).repair is not NamespaceRule.repair else None
    return entries, written.lower(), check_nss, getattr(check_nss, "_urnld_native", None), hint


def _hint_entry(text: str) -> tuple[str, int, int, str] | None:
    """:func:`_repair_hint` as the accelerator adds it to its findings: (code, rank, start,
    message), or None when no repair fixes *text*."""
    hint = _repair_hint(text)
    if hint is None:
        return None
    return hint.code, SEVERITY_RANK[hint.severity], hint.span[0], hint.message


# A rule registered at run time replaces the one a spec holds.
on_register(_nid_spec.cache_clear)

_CONTEXT: Final = (_nid_spec, _PLAIN_OPTIONS[False], _CODE_RANKS, _RANKS)
#: check_fields()'s arguments after the text, for a compiled caller that checks many spellings.
FAST_CONTEXT: Final = (PREFIXES, *_CONTEXT)


def fast_check_fields(text: str) -> Fields | None:
    """The accelerator's answer for what :func:`check` reports of *text* under the default
    options (no strict reading, profile or severity override), or None when it has none
    (pure Python, or not its common case): the codes in :func:`check`'s order, each once, the
    first error as ``"code: message"``, the canonical form and the NID in lower case.

    >>> fast_check_fields("URN:ISBN:0-395-36341-2") in (None, (
    ...     ("nss-check-digit", "not-canonical"),
    ...     "nss-check-digit: ISBN check digit '2' is wrong",
    ...     "urn:isbn:0395363412", "isbn"))
    True
    """
    speedups = _accel.speedups
    if speedups is None:
        return None
    fields: Fields | None = speedups.check_fields(text, *FAST_CONTEXT)
    return fields




#: A finding as plain values, as :func:`fast_findings` gives it: (code, severity, message, start,
#: end, rule).
FindingTuple = tuple[str, str, str, int, int, "str | None"]


def fast_findings(text: str, fields: Fields) -> list[FindingTuple] | None:
    """:func:`check`'s findings of *text* under the default options, as plain values, from its
    :func:`fast_check_fields` answer *fields* (None: not a case it answers, or an error): the NID's
    findings are known, the percent-encoding lints are looked for only where the accelerator
    found some, the namespace rule is asked only where it reported something (or is a plugin's,
    whose codes may coincide with these), and nothing is parsed again.

    >>> text = "urn:example:a%2cb"
    >>> fields = fast_check_fields(text)
    >>> fields is None or [f[0] for f in fast_findings(text, fields) or ()] == [
    ...     f.code for f in check(text)]
    True
    """
    codes, error, canonical, lower = fields
    # An error may come with check()'s ``repairable`` hint: the full path decides.
    if error is not None or canonical is None or lower is None:
        return None
    nid = text[4 : 4 + len(lower)]
    entries, _, method, _, _ = _nid_spec(nid)
    # The NID's findings, as the accelerator's spec holds them: each spans the NID.
    nid_end = 4 + len(nid)
    found: list[FindingTuple] = [
        (code, _SEVERITY_NAME[rank], message, start, nid_end, None)
        for code, rank, start, message in entries
    ]
    # An ASCII URN without components (what the accelerator answers for): the NSS is the rest.
    nss_start = 5 + len(lower)
    if "%" in text:
        # The accelerator's codes say which lints find something.
        found += [(code, _SEVERITY_OF[code], message, start, end, None)
                  for code, message, start, end
                  in pct_lints(text[nss_start:], nss_start, "NSS", codes)]
    # A plugin's rule could report a code the others share, which the accelerator lists once.
    if not type(getattr(method, "__self__", None)).__module__.startswith("urnld.") or any(
        code not in PCT_CODES and code != "not-canonical"
        and not any(entry[0] == code for entry in entries)
        for code in codes
    ):
        found += [
            (f.code, str(f.severity), f.message, f.span[0] + nss_start, f.span[1] + nss_start,
             f.rule)
            for f in method(text[nss_start:], _PLAIN_OPTIONS[False])
        ]
    if text != canonical:
        found.append(("not-canonical", _SEVERITY_OF["not-canonical"],
                      f"canonical form is {canonical!r}", 0, len(text), None))
    if len(found) > 1:
        found.sort(key=_tuple_sort_key)
    return found


_SEVERITY_OF: Final = {code: str(severity) for code, (severity, _) in CODES.items()}
_RANK_OF: Final = {str(severity): rank for severity, rank in SEVERITY_RANK.items()}
_SEVERITY_NAME: Final = {rank: str(severity) for severity, rank in SEVERITY_RANK.items()}


def _tuple_sort_key(f: FindingTuple) -> tuple[int, int, str]:
    return (_RANK_OF[f[1]], f[3], f[0])


def _sort_key(f: Finding) -> tuple[int, int, str]:
    return f.sort_key


def check(
    text: str,
    mode: Mode = "rfc8141",
    *,
    strict: bool = False,
    profiles: Collection[str] = (),
    severity: SeverityLike = None,
) -> list[Finding]:
    """Validate *text* at every level; return the findings, errors first.

    A URN is valid when no finding has severity ``error``. Never raises for a ``str`` (a bad
    *severity* map raises :class:`~urnld.SeverityConfigError`).

    Args:
        text: the string to check.
        mode: ``"rfc8141"`` (default) or ``"rfc2141"`` for the legacy grammar.
        strict: the strict reading: reserved and malformed informal NIDs are errors, and
            namespaces apply their optional strict checks (e.g. ISAN check characters, RFC
            5134's numeric SGTIN serials).
        profiles: opt-in profiles by name, e.g. ``{"nbn-de"}`` for the German NBN check digit.
        severity: per-code level overrides (:class:`~urnld.SeverityMap` or a mapping of code
            to ``"error"``, ``"warning"``, ``"info"`` or ``"ignore"``), applied last.

    >>> [(f.code, f.severity.value) for f in check("urn:x-foo:bar")]
    [('nid-experimental', 'error')]
    >>> [f.code for f in check("urn:example:a%2cb?+r")]
    ['pct-lowercase', 'r-component', 'not-canonical']
    >>> check("urn:example:a b")[0].message
    'space is not allowed in a URN; percent-encode it as %20 (in the namespace-specific string)'
    >>> found = check("urn:x-foo:bar", severity={"nid-experimental": "warning"})
    >>> [(f.code, str(f.severity)) for f in found]
    [('nid-experimental', 'warning')]

    An invalid URN that a documented repair (:func:`urnld.repair`) fixes gets an ``info``
    finding ``repairable`` naming the repair and its result:

    >>> [f.code for f in check("urn:uuid:f81d4fae7dec11d0a76500a0c91e6bf6")]
    ['nss-invalid', 'repairable']
    """
    text = _check_text(text)
    mode = _check_mode(mode)
    overrides = SeverityMap.of(severity)
    findings = check_described(text, mode, strict, check_options(strict, profiles))[0]
    return overrides.apply(findings)


def _repair_hint(text: str) -> Finding | None:
    """The ``repairable`` finding for *text*, when its namespace's repair rule fixes it."""
    fixed = repair(text)
    if fixed is None:
        return None
    return _finding(
        "repairable",
        f"repair {fixed.code!r} gives {fixed.repaired!r} ({fixed.source})",
        0,
        len(text),
    )


def _syntax_finding(text: str, mode: Mode, e: URNSyntaxError) -> Finding:
    """The syntax finding; a draft-era bare ``?query`` is named, with its RFC 8141 spelling."""
    # The parser's reason names a draft-era query and its RFC 8141 spelling (one message for
    # URNSyntaxError and the finding).
    return _finding("syntax", e.reason, e.position, min(e.position + 1, len(text)))


def validate(
    text: str,
    mode: Mode = "rfc8141",
    *,
    strict: bool = False,
    profiles: Collection[str] = (),
    severity: SeverityLike = None,
) -> URN:
    """Parse *text* and require it to pass every level of :func:`check`.

    Raises :class:`URNValidationError` (with the error findings) when any level fails;
    *strict*, *profiles* and *severity* are those of :func:`check`. A string that does not
    parse raises :class:`~urnld.URNSyntaxError` even when ``syntax`` is overridden: it has no
    parts to return.

    >>> validate("URN:ISBN:0-395-36341-1").nid
    'ISBN'
    >>> validate("urn:isbn:0-395-36341-2")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    urnld.URNValidationError: 'urn:isbn:0-395-36341-2' is not a valid URN: ... [nss-check-digit]
    >>> validate("urn:x-ogc:def:crs:EPSG:6.11:2192", severity={"nid-experimental": "warning"}).nid
    'x-ogc'
    """
    findings = check(text, mode, strict=strict, profiles=profiles, severity=severity)
    errors = [f for f in findings if f.severity is Severity.ERROR]
    if errors:
        raise URNValidationError(text, errors)
    return URN(text, mode)


# Builders (URN.build, the canonical pydantic type) run the whole check through the URN class.
URN._validate_text = validate
