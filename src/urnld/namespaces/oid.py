"""``urn:oid``: ISO/ITU-T object identifiers, RFC 3061 §2.

Grammar (RFC 3061 §2)::

    oid    = number *( "." number )
    number = DIGIT / ( LEADDIGIT 1*DIGIT )     ; no leading zeros

Only digits and dots: never the human-readable arc names (``iso.org.dod``).

Equivalence (RFC 3061 §2): exact string match (after RFC 8141's own case folding, which cannot
touch digits), so the canonical NSS is the NSS itself.

X.660 arc rules (first arc 0-2; second arc at most 39 under arcs 0 and 1) are not part of
RFC 3061; they are checked only with ``strict=True``, as errors.

>>> from urnld import check
>>> check("urn:oid:1.3.06.1")[0].message
"arc '06' at NSS position 4 has a leading zero (RFC 3061 §2)"
>>> [f.code for f in check("urn:oid:3.1", strict=True)]
['nss-invalid']
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from .._core import CheckOptions, NamespaceRule
from ..findings import Finding
from ._util import quote_char, segments, visible_span
from .views import OID

__all__ = ["RULE", "OIDRule"]

_OID = re.compile(r"(?:0|[1-9][0-9]*)(?:\.(?:0|[1-9][0-9]*))*")


class OIDRule(NamespaceRule):
    """RFC 3061 object identifier URNs."""

    nid = "oid"
    title = "Object Identifier"
    reference = "RFC 3061 §2"

    def typed_nss(self, nss: str) -> OID:
        return OID.parse(nss)

    def check_nss(self, nss: str, options: CheckOptions) -> Iterator[Finding]:
        if not _OID.fullmatch(nss):
            yield self._why_not_oid(nss)
            return
        if options.strict:
            yield from self._x660(nss)

    def _why_not_oid(self, nss: str) -> Finding:
        for start, end in segments(nss, "."):
            arc = nss[start:end]
            if not arc:
                return self.finding(
                    "nss-invalid",
                    f"empty arc at NSS position {start}: arcs are numbers separated by single "
                    "dots (RFC 3061 §2)",
                    *visible_span(start, end, len(nss)),
                )
            bad = next((i for i in range(start, end) if not nss[i].isdigit()), None)
            if bad is not None:
                names = " (arc names are never used in URN:OID)" if arc.isalpha() else ""
                return self.finding(
                    "nss-invalid",
                    f"{quote_char(nss, bad)} at NSS position {bad} is not a digit{names} "
                    "(RFC 3061 §2)",
                    bad,
                    end,
                )
            if arc[0] == "0" and len(arc) > 1:
                return self.finding(
                    "nss-invalid",
                    f"arc {arc!r} at NSS position {start} has a leading zero (RFC 3061 §2)",
                    start,
                    end,
                )
        return self.finding("nss-invalid", "not an OID (RFC 3061 §2)", 0, len(nss))

    def _x660(self, nss: str) -> Iterator[Finding]:
        spans = segments(nss, ".")
        first = int(nss[spans[0][0] : spans[0][1]])
        if first > 2:
            yield self.finding(
                "nss-invalid",
                f"first arc {first} is not 0, 1 or 2 (ITU-T X.660; strict)",
                *spans[0],
            )
        elif first < 2 and len(spans) > 1:
            second = int(nss[spans[1][0] : spans[1][1]])
            if second > 39:
                yield self.finding(
                    "nss-invalid",
                    f"second arc {second} exceeds 39 under first arc {first} "
                    "(ITU-T X.660; strict)",
                    *spans[1],
                )


RULE = OIDRule()
