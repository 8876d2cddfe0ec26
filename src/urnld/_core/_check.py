"""check(): every level of validation, each reported as its own finding.

Levels (URN.md §3): syntax → NID policy → IANA registry → percent-encoding lints → namespace
(NSS grammar, check digits) → canonical form.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Collection, Iterator
from typing import Any, Final

from ..errors import URNError, URNSyntaxError, URNValidationError
from ..findings import CODES, SEVERITY_RANK, CheckOptions, Finding, Severity
from ..registry import is_registered
from . import _accel
from ._abnf import UNRESERVED_CHARS
from ._parser import Mode, syntax_error
from ._rules import PREFIXES, get_rule, on_register
from ._severity import NO_OVERRIDES, SeverityLike, SeverityMap
from ._urn import URN, _check_mode, _check_text, _fast_canonical, _match_rfc8141, canonical_of_match

__all__ = ["URNValidationError", "check", "nid_policy_error", "validate"]

_PCT = re.compile(r"%([0-9A-Fa-f]{2})")
_INFORMAL_OK = re.compile(r"urn-[1-9][0-9]*")
_TWO_LETTERS_HYPHEN = re.compile(r"[a-z]{2}-")
_UNRESERVED = frozenset(UNRESERVED_CHARS)
# One finding per code and part is enough to act on; a 1 MB string of "%2a" must not produce
# a million findings.
_MAX_PER_CODE = 3


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
    ``_MAX_PER_CODE`` findings per code)."""
    out: list[Finding] = []
    counts: dict[str, int] = {}

    def emit(code: str, message: str, start: int, end: int) -> None:
        n = counts.get(code, 0)
        counts[code] = n + 1
        if n < _MAX_PER_CODE:
            out.append(_finding(code, message, offset + start, offset + end))

    # A run of adjacent escapes of bytes >= 0x80 must decode as UTF-8 (RFC 3629 via RFC 3986).
    high_start = -1
    high_end = 0
    high_bytes = bytearray()

    def flush_high(end: int) -> None:
        nonlocal high_start
        try:
            high_bytes.decode("utf-8")
        except UnicodeDecodeError:
            if counts.get("pct-not-utf8", 0) < _MAX_PER_CODE:
                message = f"escapes {part[high_start:end]!r} in the {what} are not UTF-8"
            else:
                message = ""
            emit("pct-not-utf8", message, high_start, end)
        high_start = -1
        high_bytes.clear()

    for m in _PCT.finditer(part):
        hexdigits = m[1]
        if hexdigits != hexdigits.upper():
            start, end = m.span()
            emit(
                "pct-lowercase",
                f"escape {m[0]!r} in the {what} should be written {m[0].upper()!r}",
                start,
                end,
            )
        value = int(hexdigits, 16)
        if value >= 0x80:
            start, end = m.span()
            if high_start >= 0 and start != high_end:
                flush_high(high_end)
            if high_start < 0:
                high_start = start
            high_bytes.append(value)
            high_end = end
            continue
        if value == 0:
            emit("pct-nul", f"%00 (NUL) in the {what}", *m.span())
        elif chr(value) in _UNRESERVED:
            emit(
                "pct-unreserved",
                f"{m[0]!r} in the {what} encodes {chr(value)!r}, which needs no encoding",
                *m.span(),
            )
        if high_start >= 0:
            flush_high(high_end)
    if high_start >= 0:
        flush_high(high_end)
    return out


@functools.lru_cache(maxsize=256)  # bounded: hostile input invents NIDs
def _nid_findings_of(written: str, mode: Mode, strict: bool) -> tuple[Finding, ...]:
    """:func:`_nid_findings` as a tuple, cached: a NID's findings and spans (always
    ``4 … 4+len``) are the same in every URN that writes it so, and data repeats few NIDs."""
    return tuple(_nid_findings(written, mode, strict))


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
    """:func:`check`'s findings before severity overrides, with the canonical form and the NID
    as written (both None when *text* does not parse): the one implementation behind
    :func:`check` and the term rule's check side, which needs the parse too. *text* and *mode*
    are already checked."""
    urn: URN | None = None
    if mode == "rfc8141":
        # The grammar's match gives every part at once (a URN object would match lazily).
        m = _match_rfc8141(text)
        if m is None:
            return [_syntax_finding(text, mode, syntax_error(text, mode))], None, None
        nid, nss, r_component, q_component, f_component = m.groups()
        canonical = _fast_canonical(text) or canonical_of_match(text, m)
    else:
        try:
            urn = URN(text, mode)
        except URNSyntaxError as e:
            return [_syntax_finding(text, mode, e)], None, None
        nid, nss, r_component, q_component, f_component = urn.parts
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
        legacy = "" if urn is None else _rfc8141_spelling(urn)
        findings.append(
            _finding(
                "not-canonical",
                f"canonical form is {canonical!r}" + legacy,
                0,
                len(text),
            )
        )
    if len(findings) > 1:
        findings.sort(key=_sort_key)
    return findings, canonical, nid


#: What the accelerator's check_fields() needs: every code's rank and each severity's.
_CODE_RANKS: Final = {code: SEVERITY_RANK[severity] for code, (severity, _) in CODES.items()}
_RANKS: Final = dict(SEVERITY_RANK)

#: check_fields()'s result: (codes, first error "code: message", canonical, NID lower case).
Fields = tuple[tuple[str, ...], "str | None", "str | None", "str | None"]


@functools.lru_cache(maxsize=256)  # bounded: hostile input invents NIDs
def _nid_spec(written: str) -> tuple[tuple[tuple[str, int, int, str], ...], str, Any, Any]:
    """What the accelerator needs of an NID as written: its findings as (code, rank, start,
    message), the NID in lower case, the rule's check_nss and that method's native mark."""
    entries = tuple(
        (f.code, SEVERITY_RANK[f.severity], f.span[0], f.message)
        for f in _nid_findings_of(written, "rfc8141", False)
    )
    check_nss = get_rule(written).check_nss
    return entries, written.lower(), check_nss, getattr(check_nss, "_urnld_native", None)


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
    """
    text = _check_text(text)
    mode = _check_mode(mode)
    overrides = SeverityMap.of(severity)
    findings, _, _ = check_parsed(text, mode, strict, check_options(strict, profiles))
    return overrides.apply(findings)


def _rfc8141_spelling(urn: URN) -> str:
    """For a legacy URN whose canonical NSS RFC 8141 would read differently: its RFC 8141 form."""
    if urn.mode != "rfc2141" or not any(c in urn.nss for c in "?#/"):
        return ""
    try:
        written = URN(urn.canonical_str, "rfc2141").to_rfc8141()
    except URNError:
        return ""
    return f", written for RFC 8141 {written!r}" if written != urn.canonical_str else ""


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
