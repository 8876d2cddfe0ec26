"""``urn:epc`` and ``urn:epcglobal``: EPCglobal names, RFC 5134 §2 and §3.

Grammar (RFC 5134 §2, §3)::

    "urn:epc:" sub-ns-name ":" sub-ns          "urn:epcglobal:" subnsname ":" subns
    sub-ns-name = let-num [ 1*let-num-hyp ]    sub-ns = 1*<URN chars>

The normative syntax of each sub-namespace is GS1's Tag Data Standard (TDS), which GS1
maintains: by default the pure-identity bodies of ``urn:epc:id:`` sgtin, sscc, sgln, grai,
giai, gsrn, gsrnp, gdti, cpi, sgcn, ginc, gsin, itip, upui, pgln, gid and the class URI
``urn:epc:class:lgtin`` are checked field by field against TDS (:mod:`urnld.namespaces._tds`):
an SGTIN serial is 1-20 GS3A3 characters, so GS1's own EPCIS 2.0 example
``urn:epc:id:sgtin:4012345.033333.AGHFG`` is valid. Other TDS schemes (tag, pattern, USDOD, ADI,
…) get the RFC 5134 checks only.

Under ``strict=True`` an SGTIN is read by RFC 5134's own, illustrative, grammar instead::

    "urn:epc:id:sgtin:" 2*( PaddedNumericComponent "." ) NumericComponent

``PaddedNumericComponent = *Digit`` (leading zeros significant); ``NumericComponent`` is ``0`` or
a number without leading zero, so alphanumeric (SGTIN-198) serials are errors there.

Equivalence: RFC 5134 says "the entire URN is case-sensitive"; RFC 8141 still folds ``urn``, the
NID and ``%XX`` hex (**choice**: RFC 8141 wins for those three; NAMESPACES.md §6). The canonical
NSS is the NSS itself. There is no ``gs1`` NID: GS1 keys appear in URNs through ``epc``.

>>> from urnld import check, equivalent
>>> equivalent("URN:EPC:id:sgtin:900100.0003456.1234567", "urn:epc:id:sgtin:900100.0003456.1234567")
True
>>> equivalent("urn:epc:id:sgtin:900100.0003456.1234567", "urn:epc:id:SGTIN:900100.0003456.1234567")
False
>>> check("urn:epc:id:sgtin:4012345.033333.AGHFG")
[]
>>> check("urn:epc:id:sgtin:900100.0003456.01234567", strict=True)[0].message
"SGTIN serial '01234567' has a leading zero (RFC 5134 §2 NumericComponent)"
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from .._core import CheckOptions, NamespaceRule, native_copy
from ..findings import Finding
from ._tds import check_body
from ._util import quote_char
from .views import EPC

__all__ = ["EPCGLOBAL_RULE", "RULE", "EPCRule", "EPCglobalRule"]

_SUB_NS_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9-]*")
_SGTIN_PREFIX = "id:sgtin:"


class EPCRule(NamespaceRule):
    """RFC 5134 §2 EPC URNs."""

    nid = "epc"
    title = "EPCglobal Electronic Product Code"
    reference = "RFC 5134 §2"

    def typed_nss(self, nss: str) -> EPC:
        return EPC.parse(nss)

    def equivalent_iris(self, nss: str) -> tuple[str, ...]:
        """The canonical GS1 Digital Link URI of an EPC with a GS1 key (GS1 TDS 2.x)."""
        from ._digital_link import epc_to_digital_link

        dl = epc_to_digital_link(f"urn:epc:{nss}")
        return () if dl is None else (dl,)

    @native_copy("epc")  # with the default options: _speedups/tds.h check_epc
    def check_nss(self, nss: str, options: CheckOptions) -> Iterator[Finding]:
        found = self._sub_namespace(nss)
        if found is not None:
            yield found
            return
        yield from self._scheme(nss, options)

    def _sub_namespace(self, nss: str) -> Finding | None:
        """What breaks RFC 5134's ``sub-ns-name ":" sub-ns``, or None."""
        colon = nss.find(":")
        if colon < 0:
            return self.finding(
                "nss-invalid",
                f"the NSS is sub-ns-name ':' sub-ns; there is no ':' ({self.reference})",
                0,
                len(nss),
            )
        name = nss[:colon]
        if not _SUB_NS_NAME.fullmatch(name):
            return self.finding(
                "nss-invalid",
                f"sub-namespace name {name!r} must start with a letter or digit and hold only "
                f"letters, digits and '-' ({self.reference})",
                0,
                max(colon, 1),
            )
        if colon == len(nss) - 1:
            return self.finding(
                "nss-invalid",
                f"the sub-namespace string after {name + ':'!r} is empty ({self.reference})",
                colon,
                colon + 1,
            )
        if nss[colon + 1] == "/":
            return self.finding(
                "nss-invalid",
                f"the sub-namespace string must not start with '/' ({self.reference})",
                colon + 1,
                colon + 2,
            )
        return None

    def _scheme(self, nss: str, options: CheckOptions) -> Iterator[Finding]:
        """The scheme's body: RFC 5134's numeric SGTIN under strict, otherwise GS1 TDS."""
        if options.strict and nss.startswith(_SGTIN_PREFIX):
            yield from self._sgtin(nss)
            return
        colon = nss.find(":", nss.find(":") + 1)
        if colon < 0:
            return
        problem = check_body(nss[:colon], nss[colon + 1 :])
        if problem is not None:
            message, start, end = problem
            yield self.finding("nss-invalid", message, colon + 1 + start, colon + 1 + end)

    def _sgtin(self, nss: str) -> Iterator[Finding]:
        body_start = len(_SGTIN_PREFIX)
        body = nss[body_start:]
        parts = body.split(".")
        if len(parts) < 3:
            yield self.finding(
                "nss-invalid",
                f"an SGTIN is CompanyPrefix.ItemReference.Serial; {body!r} has "
                f"{len(parts)} part(s) (RFC 5134 §2)",
                body_start,
                len(nss),
            )
            return
        pos = body_start
        for k, part in enumerate(parts):
            last = k == len(parts) - 1
            if last and not part:
                yield self.finding(
                    "nss-invalid", "the SGTIN serial is empty (RFC 5134 §2)", pos - 1, pos
                )
                return
            bad = next((i for i, c in enumerate(part) if not c.isdigit()), None)
            if bad is not None:
                yield self.finding(
                    "nss-invalid",
                    f"{quote_char(part, bad)} in SGTIN component {part!r} is not a digit "
                    "(RFC 5134 §2)",
                    pos + bad,
                    pos + bad + 1,
                )
                return
            if last and len(part) > 1 and part[0] == "0":
                yield self.finding(
                    "nss-invalid",
                    f"SGTIN serial {part!r} has a leading zero (RFC 5134 §2 NumericComponent)",
                    pos,
                    pos + len(part),
                )
            pos += len(part) + 1


class EPCglobalRule(EPCRule):
    """RFC 5134 §3 EPCglobal URNs (same grammar, no SGTIN branch)."""

    nid = "epcglobal"
    title = "EPCglobal"
    reference = "RFC 5134 §3"

    def check_nss(self, nss: str, options: CheckOptions) -> Iterator[Finding]:
        found = self._sub_namespace(nss)
        if found is not None:
            yield found


RULE = EPCRule()
EPCGLOBAL_RULE = EPCglobalRule()
