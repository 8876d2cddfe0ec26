"""``urn:uci``: Korean Universal Content Identifier, RFC 4179 §2.

Grammar (RFC 4179 §2)::

    UCI       = prefix "-" instance *1( ":" qualifier )
    prefix    = 1*alphaDigit *1( ":" 1*alphaDigit ) *1( "+" 1*alphaDigit )
    instance  = 1*( trans / "%" HEXDIG HEXDIG )   ; trans: alphaDigit ( ) + , - . = @ ; $ _ ! * '
    qualifier = head 1*alphaDigit *2( "-" head 1*alphaDigit )   ; head: C, R or F

The prefix holds no ``-``, so the first ``-`` ends it. **Choice:** the RFC's prose writes
``urn:uci:{prefix code}:`` with a colon where its ABNF has ``-``; the ABNF is followed
(NAMESPACES.md §6).

Equivalence (RFC 4179 §2): the prefix is case-insensitive, the rest case-sensitive. The
canonical NSS lower-cases the prefix of a grammatical NSS; any other NSS stays generic.

>>> from urnld import canonical, equivalent
>>> canonical("urn:uci:I500+PAPER-cii90007")
'urn:uci:i500+paper-cii90007'
>>> equivalent("urn:uci:I500+paper-cii90007", "urn:uci:I500+paper-CII90007")
False
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from .._core import CheckOptions, NamespaceRule
from ..findings import Finding

__all__ = ["RULE", "UCIRule"]

_PREFIX = r"[A-Za-z0-9]+(?::[A-Za-z0-9]+)?(?:\+[A-Za-z0-9]+)?"
_INSTANCE = r"(?:[A-Za-z0-9()+,\-.=@;$_!*']|%[0-9A-Fa-f]{2})+"
_QUALIFIER = r"[CRF][A-Za-z0-9]+(?:-[CRF][A-Za-z0-9]+){0,2}"
_UCI = re.compile(rf"({_PREFIX})-{_INSTANCE}(?::{_QUALIFIER})?")
_PREFIX_RE = re.compile(_PREFIX)
_INSTANCE_RE = re.compile(_INSTANCE)
_QUALIFIER_RE = re.compile(_QUALIFIER)


class UCIRule(NamespaceRule):
    """RFC 4179 UCI URNs."""

    nid = "uci"
    title = "Universal Content Identifier (Korea)"
    reference = "RFC 4179 §2"

    def canonical_nss(self, nss: str) -> str:
        m = _UCI.fullmatch(nss)
        if m is None:
            return nss
        return m.group(1).lower() + nss[m.end(1) :]

    def check_nss(self, nss: str, options: CheckOptions) -> Iterator[Finding]:
        if _UCI.fullmatch(nss):
            return
        dash = nss.find("-")
        if dash < 0:
            yield self.finding(
                "nss-invalid",
                "a UCI is prefix '-' instance (RFC 4179 §2); there is no '-'",
                0,
                len(nss),
            )
            return
        if not _PREFIX_RE.fullmatch(nss, 0, dash):
            yield self.finding(
                "nss-invalid",
                f"prefix {nss[:dash]!r} must be letters and digits, with at most one ':' part "
                "and one '+' part (RFC 4179 §2)",
                0,
                max(dash, 1),
            )
            return
        colon = nss.find(":", dash + 1)
        end = len(nss) if colon < 0 else colon
        if not _INSTANCE_RE.fullmatch(nss, dash + 1, end):
            yield self.finding(
                "nss-invalid",
                f"instance {nss[dash + 1 : end]!r} must be non-empty and hold letters, digits, "
                "%XX and ( ) + , - . = @ ; $ _ ! * ' (RFC 4179 §2)",
                dash + 1 if dash + 1 < end else dash,
                max(end, dash + 1),
            )
            return
        yield self.finding(
            "nss-invalid",
            f"qualifier {nss[colon + 1 :]!r} must be C, R or F and letters/digits, up to three "
            "joined by '-' (RFC 4179 §2)",
            colon,
            len(nss),
        )


RULE = UCIRule()
