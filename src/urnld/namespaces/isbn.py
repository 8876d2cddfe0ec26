"""``urn:isbn`` (RFC 3187 §5; ISBN-13 per ISO 2108:2017).

Hyphens are not significant and ``x`` is ``X`` (RFC 3187 §5, "Rules for Lexical Equivalence"),
so the canonical NSS is the compact number with an upper-case ``X``.

>>> from urnld import canonical
>>> canonical("URN:ISBN:0-395-36341-1")
'urn:isbn:0395363411'
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ..findings import Finding
from ._base import CheckOptions, NamespaceRule

_ISBN = re.compile(r"[0-9](?:-?[0-9]){8}-?[0-9Xx]|97[89](?:-?[0-9]){9}-?[0-9]")


def _isbn10_ok(digits: str) -> bool:
    total = sum((10 - i) * (10 if c in "Xx" else int(c)) for i, c in enumerate(digits))
    return total % 11 == 0


def _isbn13_ok(digits: str) -> bool:
    return sum((3 if i % 2 else 1) * int(c) for i, c in enumerate(digits)) % 10 == 0


class ISBNRule(NamespaceRule):
    nid = "isbn"
    title = "International Standard Book Number"
    reference = "RFC 3187 §5"

    def canonical_nss(self, nss: str) -> str:
        if _ISBN.fullmatch(nss):
            return nss.replace("-", "").upper()
        return nss

    def check_nss(self, nss: str, options: CheckOptions) -> Iterator[Finding]:
        if not _ISBN.fullmatch(nss):
            yield self.finding(
                "nss-invalid", f"{nss!r} is not an ISBN-10 or ISBN-13", 0, len(nss)
            )
            return
        digits = nss.replace("-", "")
        ok = _isbn10_ok(digits) if len(digits) == 10 else _isbn13_ok(digits)
        if not ok:
            yield self.finding(
                "nss-check-digit",
                f"ISBN check digit {digits[-1]!r} is wrong",
                len(nss) - 1,
                len(nss),
            )


RULE = ISBNRule()
