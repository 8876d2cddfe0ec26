"""``urn:isni``: International Standard Name Identifier (ISO 27729), template v1.0 (2025).

**Provisional**: only the opening of the IANA template was read (NAMESPACES.md §3.22), so the
NSS grammar and equivalence below are ISO 27729's number, not verified template text.

Grammar: 16 characters, 15 digits and a check character ``0-9``/``X`` (ISO 7064 MOD 11-2,
``stdnum.isni``), written compactly; the printed groups-of-four with spaces cannot appear in a
URN. Equivalence: ``x`` is ``X`` (by analogy with ISBN and ISSN); canonical NSS upper-case for
an ISNI-shaped NSS, generic otherwise.

>>> from urnld import canonical, check
>>> canonical("urn:isni:000000012146438x")
'urn:isni:000000012146438X'
>>> check("urn:isni:0000000121464389")[0].code
'nss-check-digit'
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from .._core import CheckOptions, NamespaceRule, native_copy
from ..findings import Finding

__all__ = ["RULE", "ISNIRule"]

_ISNI = re.compile(r"[0-9]{15}[0-9Xx]")


class ISNIRule(NamespaceRule):
    """ISO 27729 ISNI URNs (provisional)."""

    nid = "isni"
    title = "International Standard Name Identifier"
    reference = "ISO 27729; IANA template v1.0 (2025), partly read"
    provisional = True

    @native_copy("isni")  # the compiled accelerator's copy: _speedups/rules.h canonical_isni
    def canonical_nss(self, nss: str) -> str:
        if _ISNI.fullmatch(nss):
            return nss.upper()
        return nss

    def check_nss(self, nss: str, options: CheckOptions) -> Iterator[Finding]:
        if not _ISNI.fullmatch(nss):
            bad = next((i for i, c in enumerate(nss[:15]) if not c.isdigit()), None)
            if bad is not None:
                yield self.finding(
                    "nss-invalid",
                    f"{nss[bad]!r} at NSS position {bad} is not a digit: an ISNI is 15 digits "
                    "and a check character (ISO 27729)",
                    bad,
                    bad + 1,
                )
            else:
                yield self.finding(
                    "nss-invalid",
                    f"an ISNI has 16 characters (15 digits and a check character 0-9 or X), "
                    f"this NSS has {len(nss)}",
                    0,
                    len(nss),
                )
            return
        from stdnum.iso7064 import mod_11_2

        expected = mod_11_2.calc_check_digit(nss[:15])
        if nss[15].upper() != expected:
            yield self.finding(
                "nss-check-digit",
                f"ISNI check character is {nss[15]!r}, expected {expected!r} "
                "(ISO 7064 MOD 11-2)",
                15,
                16,
            )


RULE = ISNIRule()
