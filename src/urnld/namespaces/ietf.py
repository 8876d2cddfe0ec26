"""``urn:ietf``: IETF documents, RFC 2648 §2, with the ``params`` sub-namespace of RFC 3553.

Grammar (RFC 2648 §2, extended by RFC 3553 §3)::

    ietf-nss  = ("rfc:" / "fyi:" / "std:" / "bcp:") 1*DIGIT
              / ("id:" / "mtg:") string
              / "params:" name *( ":" name )      ; RFC 3553; names IANA-assigned
              / other-nss                         ; other-nss = string
    string    = 1*( DIGIT / ALPHA / "-" )

Equivalence. RFC 2648 §2 says the entire ``ietf`` URN is case-insensitive; RFC 3553 §3 says
names under ``urn:ietf:params`` compare by exact string match, and does not say it updates
RFC 2648. **Choice** (NAMESPACES.md §3.7): fold the case of ``urn``, ``ietf`` and the literal
``params`` label, and compare the rest of a params name case-sensitively
(``…:rr-type-codes:soa`` ≠ ``…:rr-type-codes:SOA``). Every other ``ietf`` NSS is lower-cased
(``%XX`` escapes stay upper-case), whether or not it matches the grammar: RFC 2648 states the
case-insensitivity for the whole namespace. RFC 3553 §4 lets each params registry define a
further canonicalization of its index values; none is applied here (no registry is known to
the library).

Sub-namespaces outside the grammar (``urn:ietf:wg:oauth:2.0:oob`` is common but was never
registered) get an ``nss-invalid`` **warning**, an error with ``strict=True``; a malformed known
sub-namespace (``rfc:two``) is an error.

>>> from urnld import canonical, equivalent
>>> canonical("URN:IETF:RFC:2141")
'urn:ietf:rfc:2141'
>>> canonical("URN:IETF:PARAMS:xml:ns:SOA")
'urn:ietf:params:xml:ns:SOA'
>>> equivalent("urn:ietf:params:dns:rr-type-codes:soa", "urn:ietf:params:dns:rr-type-codes:SOA")
False
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from .._core import CheckOptions, NamespaceRule, lower_except_pct, native_copy
from ..findings import Finding, Severity
from ._util import PCHAR_NC_RE, quote_char, segments, visible_span
from .views import IETFName

__all__ = ["RULE", "IETFRule"]

_STRING = re.compile(r"[A-Za-z0-9-]+")
_NUMBERED = ("rfc", "fyi", "std", "bcp")
_NAMED = ("id", "mtg")
_PARAMS_NAME = re.compile(rf"{PCHAR_NC_RE}+")
_PARAMS_CHAR = re.compile(PCHAR_NC_RE)
_STRING_CHAR = re.compile(r"[A-Za-z0-9-]")


def _is_params(nss: str) -> bool:
    return nss[:7].lower() == "params:"


class IETFRule(NamespaceRule):
    """RFC 2648 / RFC 3553 IETF URNs."""

    nid = "ietf"
    title = "IETF documents and registered protocol parameters"
    reference = "RFC 2648 §2; RFC 3553 §3"

    @native_copy("ietf")  # the compiled accelerator's copy: _speedups/rules.h canonical_ietf
    def canonical_nss(self, nss: str) -> str:
        if _is_params(nss):
            return "params:" + nss[7:]
        return lower_except_pct(nss)

    def typed_nss(self, nss: str) -> IETFName:
        return IETFName.parse(nss)

    def check_nss(self, nss: str, options: CheckOptions) -> Iterator[Finding]:
        spans = segments(nss)
        head = nss[spans[0][0] : spans[0][1]].lower()
        if head == "params" and len(spans) > 1:
            for start, end in spans[1:]:
                if not _PARAMS_NAME.fullmatch(nss, start, end):
                    yield self._bad_part(
                        nss, start, end, _PARAMS_CHAR, "a params name is a non-empty "
                        "IANA-assigned name without '/' (RFC 3553 §3)"
                    )
                    return
            return
        if head in _NUMBERED or head in _NAMED:
            if len(spans) != 2:
                start = spans[1][1] if len(spans) > 2 else 0
                yield self.finding(
                    "nss-invalid",
                    f"'{head}:' is followed by exactly one value (RFC 2648 §2)",
                    start,
                    len(nss),
                )
                return
            start, end = spans[1]
            value = nss[start:end]
            if head in _NUMBERED and not (value and value.isdigit()):
                yield self.finding(
                    "nss-invalid",
                    f"'{head}:' is followed by a number, not {value!r} (RFC 2648 §2)",
                    start,
                    end,
                )
            elif head in _NAMED and not _STRING.fullmatch(value):
                yield self._bad_part(
                    nss, start, end, _STRING_CHAR, f"'{head}:' names are letters, digits "
                    "and '-' (RFC 2648 §2)"
                )
            return
        if not head:
            yield self.finding(
                "nss-invalid",
                "the NSS starts with ':': the sub-namespace name is empty (RFC 2648 §2)",
                0,
                1,
            )
            return
        if len(spans) == 1:
            if not _STRING.fullmatch(nss):
                yield self._bad_part(
                    nss, 0, len(nss), _STRING_CHAR, "other ietf names are letters, digits "
                    "and '-' (RFC 2648 §2)"
                )
            return
        yield self.finding(
            "nss-invalid",
            f"sub-namespace {head!r} is not defined by RFC 2648 or RFC 3553 "
            "(rfc, fyi, std, bcp, id, mtg, params)",
            *spans[0],
            Severity.ERROR if options.strict else Severity.WARNING,
        )

    def _bad_part(
        self, nss: str, start: int, end: int, ok: re.Pattern[str], why: str
    ) -> Finding:
        if start == end:
            return self.finding(
                "nss-invalid",
                f"empty name at NSS position {start}: {why}",
                *visible_span(start, end, len(nss)),
            )
        bad = next((i for i in range(start, end) if not ok.match(nss, i)), start)
        return self.finding(
            "nss-invalid",
            f"{quote_char(nss, bad)} at NSS position {bad}: {why}",
            start,
            end,
        )


RULE = IETFRule()
