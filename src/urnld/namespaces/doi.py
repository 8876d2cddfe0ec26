"""``urn:doi``: Digital Object Identifier (ISO 26324). **Provisional.**

The NID is registered, but the IANA template's syntax and equivalence text was not read
(NAMESPACES.md §3.21). What is known: ISO 26324:2022 dropped the requirement that the directory
indicator be ``10`` and allows DOI names without a registrant code, so ``10.`` is not required.

Grammar (provisional): ``prefix "/" suffix``, where the prefix is dot-separated numbers and the
suffix is non-empty. Equivalence (provisional): the DOI Handbook treats DOI names as
case-insensitive for ASCII, so the canonical NSS is upper case (the Handle system's form) for
every ``doi`` NSS. Whether the template adopts that as URN-equivalence is not verified.

>>> from urnld import canonical, check
>>> canonical("urn:doi:10.1000/abc.Def")
'urn:doi:10.1000/ABC.DEF'
>>> check("urn:doi:10.1000")[0].message
"a DOI name is prefix '/' suffix; there is no '/' (ISO 26324; provisional rule)"
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from .._core import CheckOptions, NamespaceRule, native_copy, upper_except_pct
from ..findings import Finding

__all__ = ["RULE", "DOIRule"]

_PREFIX = re.compile(r"[0-9]+(?:\.[0-9]+)*")
# ISBN-A: "10." EAN prefix "." group+registrant "/" publication+check digit (13 digits in all).
_ISBN_A = re.compile(r"10\.(97[89])\.([0-9]+)/([0-9]+)")


class DOIRule(NamespaceRule):
    """ISO 26324 DOI URNs (provisional)."""

    nid = "doi"
    title = "Digital Object Identifier"
    reference = "ISO 26324; IANA template not read (provisional)"
    provisional = True

    @native_copy("upper")  # the compiled accelerator's copy: _speedups/rules.h canonical_upper
    def canonical_nss(self, nss: str) -> str:
        return upper_except_pct(nss)

    def functional_equivalents(self, nss: str) -> tuple[str, ...]:
        """An ISBN-A DOI (``10.978.…``/``10.979.…``) names the book of its ISBN."""
        m = _ISBN_A.fullmatch(nss)
        if m is None:
            return ()
        from .isbn import RULE as ISBN_RULE
        from .isbn import isbn_a
        from .views import ISBN

        digits = m[1] + m[2] + m[3]
        if any(True for _ in ISBN_RULE.check_nss(digits, CheckOptions())):
            return ()  # a wrong check digit: not an ISBN-A
        view = ISBN.parse(digits)
        if isbn_a(view) != nss:
            return ()  # the split is not the ISBN's group/registrant: another DOI name
        return tuple(f"urn:isbn:{form}" for form in (view.isbn13, view.isbn10) if form)

    def check_nss(self, nss: str, options: CheckOptions) -> Iterator[Finding]:
        slash = nss.find("/")
        if slash < 0:
            yield self.finding(
                "nss-invalid",
                "a DOI name is prefix '/' suffix; there is no '/' (ISO 26324; provisional rule)",
                0,
                len(nss),
            )
        elif not _PREFIX.fullmatch(nss, 0, slash):
            yield self.finding(
                "nss-invalid",
                f"DOI prefix {nss[:slash]!r} must be numbers joined by '.' (ISO 26324; "
                "provisional rule)",
                0,
                max(slash, 1),
            )
        elif slash == len(nss) - 1:
            yield self.finding(
                "nss-invalid",
                "the DOI suffix after '/' is empty (ISO 26324; provisional rule)",
                slash,
                slash + 1,
            )


RULE = DOIRule()
