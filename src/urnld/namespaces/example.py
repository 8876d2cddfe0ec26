"""``urn:example``: the documentation and testing namespace, RFC 6963 (BCP 183).

Structure (RFC 6963 §3.4): any NSS that conforms to URN syntax. Equivalence (§3.10): no
special rules, only RFC 8141's: the canonical NSS is the NSS with ``%XX`` hex upper-cased
(which the core has already done). RFC 8141 §3.2's equivalence examples use this NID.

>>> from urnld import canonical, equivalent
>>> canonical("URN:EXAMPLE:a123%2cz456")
'urn:example:a123%2Cz456'
>>> equivalent("urn:example:a123,z456", "urn:example:A123,z456")
False
"""

from __future__ import annotations

from collections.abc import Iterator

from .._core import CheckOptions, NamespaceRule
from ..findings import Finding

__all__ = ["RULE", "ExampleRule"]


class ExampleRule(NamespaceRule):
    """RFC 6963: generic rules; listed so that tools show where the NID is defined."""

    nid = "example"
    title = "Examples in documentation (BCP 183)"
    reference = "RFC 6963 §3"

    def check_nss(self, nss: str, options: CheckOptions) -> Iterator[Finding]:
        return iter(())


RULE = ExampleRule()
