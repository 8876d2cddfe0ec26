"""``urn:ogc``: Open Geospatial Consortium resources, RFC 5165 §2.

Structure: ``{OGCresource}:{ResourceSpecificString}``; the resource type holds no ``:``; the
rest is any URN text, and may hold empty fields (``urn:ogc:def:crs:EPSG::4326``, the OGC URN
policy's "no version" form, is valid).

Equivalence: RFC 8141 rules only; the resource type is case-sensitive (RFC 5165 §2), so
``serviceType`` ≠ ``servicetype``. The canonical NSS is the NSS itself.

>>> from urnld import check, equivalent
>>> check("urn:ogc:def:crs:EPSG::4326")
[]
>>> equivalent("urn:ogc:serviceType:x", "urn:ogc:servicetype:x")
False
"""

from __future__ import annotations

from collections.abc import Iterator

from .._core import CheckOptions, NamespaceRule
from ..findings import Finding

__all__ = ["RULE", "OGCRule"]


class OGCRule(NamespaceRule):
    """RFC 5165 OGC URNs."""

    nid = "ogc"
    title = "Open Geospatial Consortium"
    reference = "RFC 5165 §2"

    def check_nss(self, nss: str, options: CheckOptions) -> Iterator[Finding]:
        colon = nss.find(":")
        if colon < 0:
            yield self.finding(
                "nss-invalid",
                "an OGC NSS is {OGCresource}:{ResourceSpecificString}; there is no ':' "
                "(RFC 5165 §2)",
                0,
                len(nss),
            )
        elif colon == 0:
            yield self.finding(
                "nss-invalid", "the OGC resource type before ':' is empty (RFC 5165 §2)", 0, 1
            )
        elif colon == len(nss) - 1:
            yield self.finding(
                "nss-invalid",
                "the resource-specific string after ':' is empty (RFC 5165 §2)",
                colon,
                colon + 1,
            )
        elif "/" in nss[:colon]:
            slash = nss.index("/")
            yield self.finding(
                "nss-invalid",
                f"'/' at NSS position {slash} is not allowed in the OGC resource type",
                slash,
                slash + 1,
            )


RULE = OGCRule()
