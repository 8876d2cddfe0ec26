"""``urn:uuid`` (RFC 4122 §3, obsoleted by RFC 9562 §4).

The NSS is the 8-4-4-4-12 hex form; hex is case-insensitive ("Rules for Lexical Equivalence":
compare the fields as unsigned integers), and RFC 4122 asks for lower case on output, so the
canonical NSS is lower case. Braced and unhyphenated forms are "other formats", not URN syntax.

>>> from urnld import canonical
>>> canonical("URN:UUID:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6")
'urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6'
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ..findings import Finding
from ._base import CheckOptions, NamespaceRule

_UUID = re.compile(r"[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}")


class UUIDRule(NamespaceRule):
    nid = "uuid"
    title = "Universally Unique Identifier"
    reference = "RFC 4122 §3; RFC 9562 §4"

    def canonical_nss(self, nss: str) -> str:
        if _UUID.fullmatch(nss):
            return nss.lower()
        return nss

    def check_nss(self, nss: str, options: CheckOptions) -> Iterator[Finding]:
        if not _UUID.fullmatch(nss):
            yield self.finding(
                "nss-invalid",
                f"{nss!r} is not a UUID in 8-4-4-4-12 hex form",
                0,
                len(nss),
            )


RULE = UUIDRule()
