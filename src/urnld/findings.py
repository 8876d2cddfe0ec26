"""Validation findings: what :func:`urnld.check` reports, one level at a time.

A URN is *valid* when :func:`urnld.check` returns no finding of severity ``error``. The codes
below are stable: tools (the ``urnfn:findings`` SPARQL function, SHACL result messages, JSON
output of the CLI) match on them.

>>> from urnld import check
>>> [f.code for f in check("URN:ISBN:0-395-36341-2")]
['nss-check-digit', 'not-canonical']
"""

from __future__ import annotations

import dataclasses
import enum

__all__ = ["CODES", "CheckOptions", "Finding", "Severity"]


class Severity(enum.StrEnum):
    """How bad a finding is. A URN with an ``error`` finding is not a valid URN."""

    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


SEVERITY_RANK = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.INFO: 2}

#: Every finding code, with its usual severity and the rule it comes from.
CODES: dict[str, tuple[Severity, str]] = {
    "syntax": (
        Severity.ERROR,
        "RFC 8141 §2 syntax (or RFC 2141 in legacy mode); a draft-era bare '?query' is named "
        "with its RFC 8141 spelling '?='",
    ),
    "nid-experimental": (
        Severity.ERROR,
        "RFC 8141 App. C: 'X-' experimental NIDs were removed; such strings are not URNs",
    ),
    # RFC 8141 §5.1 says what IANA may register as a formal NID; it calls only 'X-' NIDs "not
    # valid URNs" (App. C). So these are warnings, errors under strict.
    "nid-informal-malformed": (
        Severity.WARNING,
        "RFC 8141 §5.2: informal NIDs are 'urn-' + a number without leading zero "
        "(an error under strict)",
    ),
    "nid-reserved": (
        Severity.WARNING,
        "RFC 8141 §5.1: formal NIDs have more than two characters and do not start with "
        "two letters and '-' (an error under strict; RFC 2141's reserved 'urn' is always one)",
    ),
    "nid-doubled-scheme": (
        Severity.WARNING,
        "'URN:urn:…': the scheme written twice, so 'urn' reads as the NID",
    ),
    "nid-unregistered": (Severity.WARNING, "NID not in the IANA URN namespace registry"),
    "pct-lowercase": (Severity.WARNING, "RFC 3986 §2.1: percent-encodings should use upper case"),
    "pct-unreserved": (
        Severity.WARNING,
        "RFC 3986 §2.3: unreserved characters should not be percent-encoded",
    ),
    "pct-nul": (Severity.WARNING, "draft-ietf-urnbis-rfc2141bis-urn-03 §2.4: %00 MUST NOT be used"),
    "pct-not-utf8": (
        Severity.WARNING,
        "RFC 8141 §2: non-ASCII characters are percent-encoded UTF-8",
    ),
    "r-component": (
        Severity.WARNING,
        "RFC 8141 §2.3.1: r-components SHOULD NOT be used until their semantics are standardized",
    ),
    "not-canonical": (Severity.INFO, "urnld canonical form (RFC 8141 §3 + namespace rules)"),
    "nss-invalid": (Severity.ERROR, "the namespace's NSS grammar"),
    "nss-check-digit": (Severity.ERROR, "the namespace's check digit"),
    "rfc2141-reserved-char": (
        Severity.WARNING,
        "RFC 2141 §2.3.2: '/', '?' and '#' are reserved and SHOULD NOT appear unencoded",
    ),
    # The spelling modes' codes come last, so that the codes before keep their places.
    "repairable": (
        Severity.INFO,
        "an invalid URN that a documented repair turns into the URN meant (urnld.repair; "
        "canonicalize --repair)",
    ),
    "locator": (
        Severity.INFO,
        "an IRI that is a resolver's address of a URN (urnld.resolvers.urn_of_locator; "
        "canonicalize --link-locators)",
    ),
}


@dataclasses.dataclass(frozen=True, slots=True)
class Finding:
    """One problem (or remark) about a URN.

    Attributes:
        code: a stable code from :data:`CODES`.
        severity: ``error`` (not a valid URN), ``warning`` or ``info``.
        message: one sentence for a human, naming the offending part.
        span: ``(start, end)`` character offsets in the checked text.
        rule: the rule that produced it, e.g. ``"isbn: RFC 3187 §5"`` (None for generic rules).

    >>> f = Finding("r-component", Severity.WARNING, "r-components are not standardized", (11, 16))
    >>> f.severity == "warning", f.span
    (True, (11, 16))
    """

    code: str
    severity: Severity
    message: str
    span: tuple[int, int]
    rule: str | None = None

    def shifted(self, offset: int) -> Finding:
        """Return this finding with its span moved by *offset* characters.

        >>> Finding("nss-invalid", Severity.ERROR, "bad", (0, 3)).shifted(9).span
        (9, 12)
        """
        start, end = self.span
        # Not dataclasses.replace: this runs once per namespace finding of every check.
        return Finding(self.code, self.severity, self.message, (start + offset, end + offset),
                       self.rule)

    def with_severity(self, severity: Severity) -> Finding:
        """Return this finding at another level (a severity override).

        >>> f = Finding("pct-nul", Severity.WARNING, "NUL", (5, 8))
        >>> f.with_severity(Severity.ERROR).severity
        <Severity.ERROR: 'error'>
        """
        return dataclasses.replace(self, severity=severity)

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready dict (the ``urnld parse --json`` format).

        >>> Finding("pct-nul", Severity.WARNING, "NUL", (5, 8)).to_dict()["severity"]
        'warning'
        """
        return {
            "code": self.code,
            "severity": str(self.severity),
            "message": self.message,
            "span": list(self.span),
            "rule": self.rule,
        }

    @property
    def sort_key(self) -> tuple[int, int, str]:
        """Errors first, then by position: the order :func:`urnld.check` returns."""
        return (SEVERITY_RANK[self.severity], self.span[0], self.code)


@dataclasses.dataclass(frozen=True, slots=True)
class CheckOptions:
    """Options a namespace rule receives from :func:`urnld.check`.

    Attributes:
        strict: apply the optional strict checks (e.g. ISAN check characters as errors,
            X.660 arcs for OIDs).
        profiles: opt-in national or local profiles by name, e.g. ``{"nbn-de"}``.
    """

    strict: bool = False
    profiles: frozenset[str] = frozenset()
