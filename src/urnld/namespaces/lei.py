"""``urn:lei``: Legal Entity Identifier (ISO 17442), GLEIF's registration.

Grammar: ``URN:LEI:<20-character LEI>`` as GLEIF states it: 18 letters or digits and two check
digits (ISO 7064 MOD 97-10 over the whole code, ``stdnum.lei``). The template text itself was
not read (NAMESPACES.md §3.22); the format and the case rule come from GLEIF's own page.

Equivalence: GLEIF says the URN is "not case sensitive"; the canonical NSS is upper case (the
LEI's printed form), applied to every ``lei`` NSS.

>>> from urnld import canonical, check
>>> canonical("urn:LEI:7ltwfzyicnsx8d621k86")
'urn:lei:7LTWFZYICNSX8D621K86'
>>> check("urn:lei:7LTWFZYICNSX8D621K86")
[]
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from .._core import CheckOptions, NamespaceRule, native_copy, upper_except_pct
from ..findings import Finding

__all__ = ["RULE", "LEIRule"]

_LEI = re.compile(r"[0-9A-Za-z]{18}[0-9]{2}")


class LEIRule(NamespaceRule):
    """ISO 17442 LEI URNs."""

    nid = "lei"
    title = "Legal Entity Identifier"
    reference = "ISO 17442; GLEIF registration (format and case from GLEIF)"

    @native_copy("upper")  # the compiled accelerator's copy: _speedups/rules.h canonical_upper
    def canonical_nss(self, nss: str) -> str:
        return upper_except_pct(nss)

    def check_nss(self, nss: str, options: CheckOptions) -> Iterator[Finding]:
        if not _LEI.fullmatch(nss):
            bad = next(
                (i for i, c in enumerate(nss) if not (c.isascii() and c.isalnum())), None
            )
            if bad is not None:
                yield self.finding(
                    "nss-invalid",
                    f"{nss[bad]!r} at NSS position {bad}: an LEI is letters and digits only "
                    "(ISO 17442)",
                    bad,
                    bad + 1,
                )
            elif len(nss) != 20:
                yield self.finding(
                    "nss-invalid",
                    f"an LEI has 20 characters, this NSS has {len(nss)} (ISO 17442)",
                    0,
                    len(nss),
                )
            else:
                yield self.finding(
                    "nss-invalid",
                    "the last two characters of an LEI are check digits (ISO 17442)",
                    18,
                    20,
                )
            return
        from stdnum.iso7064 import mod_97_10

        if not mod_97_10.is_valid(nss.upper()):
            yield self.finding(
                "nss-check-digit",
                f"LEI check digits {nss[18:]!r} are wrong, expected "
                f"{mod_97_10.calc_check_digits(nss[:18].upper())!r} (ISO 7064 MOD 97-10)",
                18,
                20,
            )


RULE = LEIRule()
