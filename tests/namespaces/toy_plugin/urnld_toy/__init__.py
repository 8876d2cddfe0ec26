"""The toy namespace: ``urn:toy:T…``; letters are case-insensitive (canonical: upper case)."""

from __future__ import annotations

from collections.abc import Iterator

from urnld.findings import Finding
from urnld.namespaces import CheckOptions, NamespaceRule, upper_except_pct


class ToyRule(NamespaceRule):
    nid = "toy"
    title = "Toy namespace (test plugin)"
    reference = "urnld tests §toy"

    def canonical_nss(self, nss: str) -> str:
        return upper_except_pct(nss)

    def check_nss(self, nss: str, options: CheckOptions) -> Iterator[Finding]:
        if nss[:1] not in ("t", "T"):
            yield self.finding("nss-invalid", "a toy NSS starts with 'T'", 0, 1)


RULE = ToyRule()
