"""check(): every level of validation, each reported as its own finding.

Levels (URN.md §3): syntax → NID policy → IANA registry → percent-encoding lints → namespace
(NSS grammar, check digits) → canonical form.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Collection, Iterator

from ._abnf import UNRESERVED_CHARS
from ._parser import Mode
from ._urn import URN, _check_mode, _check_text
from .errors import URNSyntaxError, URNValidationError
from .findings import CODES, CheckOptions, Finding, Severity
from .namespaces import get_rule
from .registry import is_registered

__all__ = ["URNValidationError", "check", "nid_policy_error", "validate"]

_PCT = re.compile(r"%([0-9A-Fa-f]{2})")
_INFORMAL_OK = re.compile(r"urn-[1-9][0-9]*")
_TWO_LETTERS_HYPHEN = re.compile(r"[a-z]{2}-")
_UNRESERVED = frozenset(UNRESERVED_CHARS)
# One finding per code and part is enough to act on; a 1 MB string of "%2a" must not produce
# a million findings.
_MAX_PER_CODE = 3


def _finding(code: str, message: str, start: int, end: int, rule: str | None = None) -> Finding:
    return Finding(code, CODES[code][0], message, (start, end), rule)


def _nid_findings(written: str, mode: Mode) -> Iterator[Finding]:
    """NID policy and registry findings for the NID *written*; spans as in ``urn:NID:…``."""
    nid = written.lower()
    span = (4, 4 + len(nid))
    if mode == "rfc2141" and nid == "urn":
        yield _finding("nid-reserved", "the NID 'urn' is reserved (RFC 2141 §2)", *span)
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
            )
            return
    elif len(nid) <= 2:
        yield _finding(
            "nid-reserved",
            f"NID {written!r} is too short: formal NIDs have more than two characters "
            "(RFC 8141 §5.1)",
            *span,
        )
        return
    elif _TWO_LETTERS_HYPHEN.match(nid):
        yield _finding(
            "nid-reserved",
            f"NID {written!r} starts with two letters and '-', which RFC 8141 §5.1 reserves",
            *span,
        )
        return
    if not is_registered(nid):
        yield _finding(
            "nid-unregistered",
            f"NID {written!r} is not in the IANA URN namespace registry",
            *span,
        )


@functools.lru_cache(maxsize=4096)
def nid_policy_error(nid: str, mode: Mode = "rfc8141") -> str | None:
    """``"code: message"`` when RFC 8141 rules the NID out (so the string is no URN), else None.

    The NID-policy level of :func:`check` alone, for passes that meet the same NID on millions
    of terms (the RDF passes treat such strings as non-URNs). Cached; never raises for a str.

    >>> nid_policy_error("X-local").split(":")[0]
    'nid-experimental'
    >>> nid_policy_error("isbn") is None
    True
    """
    for f in _nid_findings(nid, mode):
        if f.severity is Severity.ERROR:
            return f"{f.code}: {f.message}"
    return None


def _pct_findings(part: str, offset: int, what: str) -> Iterator[Finding]:
    counts: dict[str, int] = {}

    def emit(code: str, message: str, start: int, end: int) -> Iterator[Finding]:
        n = counts.get(code, 0)
        counts[code] = n + 1
        if n < _MAX_PER_CODE:
            yield _finding(code, message, offset + start, offset + end)

    high_start = -1
    high_end = 0
    high_bytes = bytearray()

    def flush_high(end: int) -> Iterator[Finding]:
        nonlocal high_start
        if high_start >= 0:
            try:
                high_bytes.decode("utf-8")
            except UnicodeDecodeError:
                yield from emit(
                    "pct-not-utf8",
                    f"escapes {part[high_start:end]!r} in the {what} are not UTF-8",
                    high_start,
                    end,
                )
            high_start = -1
            high_bytes.clear()

    for m in _PCT.finditer(part):
        start, end = m.span()
        hexdigits = m.group(1)
        if hexdigits != hexdigits.upper():
            yield from emit(
                "pct-lowercase",
                f"escape {m.group()!r} in the {what} should be written {m.group().upper()!r}",
                start,
                end,
            )
        value = int(hexdigits, 16)
        if value == 0:
            yield from emit("pct-nul", f"%00 (NUL) in the {what}", start, end)
        elif value < 0x80 and chr(value) in _UNRESERVED:
            yield from emit(
                "pct-unreserved",
                f"{m.group()!r} in the {what} encodes {chr(value)!r}, which needs no encoding",
                start,
                end,
            )
        if value >= 0x80:
            if high_start >= 0 and start != high_end:
                yield from flush_high(high_end)
            if high_start < 0:
                high_start = start
            high_bytes.append(value)
            high_end = end
        elif high_start >= 0:
            yield from flush_high(high_end)
    if high_start >= 0:
        yield from flush_high(high_end)


def _parts_with_offsets(urn: URN) -> Iterator[tuple[str, int, str]]:
    text = str(urn)
    pos = 4 + len(urn.nid) + 1
    yield urn.nss, pos, "NSS"
    pos += len(urn.nss)
    for value, delim, what in (
        (urn.r_component, "?+", "r-component"),
        (urn.q_component, "?=", "q-component"),
        (urn.f_component, "#", "f-component"),
    ):
        if value is not None:
            pos += len(delim)
            yield value, pos, what
            pos += len(value)
    assert pos == len(text)


def check(
    text: str,
    mode: Mode = "rfc8141",
    *,
    strict: bool = False,
    profiles: Collection[str] = (),
) -> list[Finding]:
    """Validate *text* at every level; return the findings, errors first.

    A URN is valid when no finding has severity ``error``. Never raises for a ``str``.

    Args:
        text: the string to check.
        mode: ``"rfc8141"`` (default) or ``"rfc2141"`` for the legacy grammar.
        strict: apply namespaces' optional strict checks (e.g. ISAN check characters).
        profiles: opt-in profiles by name, e.g. ``{"nbn-de"}`` for the German NBN check digit.

    >>> [(f.code, f.severity.value) for f in check("urn:x-foo:bar")]
    [('nid-experimental', 'error')]
    >>> [f.code for f in check("urn:example:a%2cb?+r")]
    ['pct-lowercase', 'r-component', 'not-canonical']
    >>> check("urn:example:a b")[0].message
    'space is not allowed in a URN; percent-encode it as %20 (in the namespace-specific string)'
    """
    text = _check_text(text)
    mode = _check_mode(mode)
    try:
        urn = URN(text, mode)
    except URNSyntaxError as e:
        return [_finding("syntax", e.reason, e.position, min(e.position + 1, len(text)))]
    findings = list(_nid_findings(urn.nid, mode))
    for part, offset, what in _parts_with_offsets(urn):
        findings.extend(_pct_findings(part, offset, what))
    if urn.r_component is not None:
        start = text.index("?+", 4 + len(urn.nid) + 1 + len(urn.nss))
        findings.append(
            _finding(
                "r-component",
                "r-components SHOULD NOT be used until their semantics are standardized "
                "(RFC 8141 §2.3.1)",
                start,
                start + 2 + len(urn.r_component),
            )
        )
    nss_start = 4 + len(urn.nid) + 1
    if mode == "rfc2141":
        for i, c in enumerate(urn.nss):
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
    options = CheckOptions(strict=strict, profiles=frozenset(profiles))
    findings.extend(f.shifted(nss_start) for f in get_rule(urn.nid).check_nss(urn.nss, options))
    if not urn.is_canonical:
        findings.append(
            _finding(
                "not-canonical",
                f"canonical form is {urn.canonical_str!r}",
                0,
                len(text),
            )
        )
    findings.sort(key=lambda f: f.sort_key)
    return findings


def validate(
    text: str,
    mode: Mode = "rfc8141",
    *,
    strict: bool = False,
    profiles: Collection[str] = (),
) -> URN:
    """Parse *text* and require it to pass every level of :func:`check`.

    Raises :class:`URNValidationError` (with the error findings) when any level fails.

    >>> validate("URN:ISBN:0-395-36341-1").nid
    'ISBN'
    >>> validate("urn:isbn:0-395-36341-2")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    urnld.URNValidationError: 'urn:isbn:0-395-36341-2' is not a valid URN: ... [nss-check-digit]
    """
    findings = check(text, mode, strict=strict, profiles=profiles)
    errors = [f for f in findings if f.severity is Severity.ERROR]
    if errors:
        raise URNValidationError(text, errors)
    return URN(text, mode)

