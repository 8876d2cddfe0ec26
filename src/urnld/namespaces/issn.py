"""``urn:issn``: RFC 3044 §5, revised by the ISSN International Centre template v2 (2017).

Grammar: ``NNNN-NNNC``, eight characters, the last a check character (``0-9`` or ``X``);
the hyphen between the 4th and 5th digit may be omitted (RFC 3044 §5).

Check character: weights 8…2 over the first seven digits, check = (11 − Σ mod 11) mod 11,
10 written ``X`` (:func:`issn_check_character`, in the standard library, as the compiled
accelerator computes it; the tests compare it with ``stdnum.issn``).

Equivalence (RFC 3044 §5, and §3.1 quoting RFC 2288): the hyphen is optional and ``x`` is
``X``. The canonical NSS is the hyphenated ``NNNN-NNNC`` with an upper-case ``X``, the form
RFC 3044's examples use. An NSS that is not ISSN-shaped stays in its generic class.

ISSN-L (the linking ISSN of ISO 3297:2007) is itself an ISSN; which ISSNs share an ISSN-L is
registry data, not a lexical rule, so two ISSNs of one title are never equivalent here.

>>> from urnld import canonical, equivalent
>>> canonical("urn:ISSN:0259000x")
'urn:issn:0259-000X'
>>> equivalent("urn:issn:1046-8188", "urn:ISSN:10468188")
True
"""

from __future__ import annotations

import operator
import re
from collections.abc import Iterator

from .._core import CheckOptions, NamespaceRule, native_copy
from ..findings import Finding
from .views import ISSN

__all__ = ["RULE", "ISSNRule", "issn_check_character"]

_ISSN = re.compile(r"[0-9]{4}-?[0-9]{3}[0-9Xx]")
_WEIGHTS = (8, 7, 6, 5, 4, 3, 2)
#: The wording of a wrong check character: a str.format template, which the compiled
#: accelerator formats too (scripts/gen_speedups.py copies it into the C).
MSG_CHECK_CHARACTER = (
    "ISSN check character is {!r}, expected {!r} (mod 11, weights 8…2; RFC 3044 §5)"
)


def issn_check_character(first7: str) -> str:
    """The ISSN check character for seven digits: 11 − Σ(8−i)·dᵢ mod 11, mod 11; 10 is ``X``
    (ISO 3297 §5, RFC 3044 §5).

    >>> issn_check_character("0259000")
    'X'
    >>> issn_check_character("1046818")
    '8'
    """
    if first7.isascii() and first7.isdigit() and len(first7) == 7:
        # Digit bytes are the digit plus 48 (weights 8 … 2 sum to 35): the loop stays in C.
        total = sum(map(operator.mul, _WEIGHTS, first7.encode())) - 48 * 35
    else:
        total = sum((8 - i) * int(c) for i, c in enumerate(first7))
    check = (11 - total % 11) % 11
    return "X" if check == 10 else str(check)


class ISSNRule(NamespaceRule):
    """RFC 3044 ISSN URNs."""

    nid = "issn"
    title = "International Standard Serial Number"
    reference = "RFC 3044 §5; ISO 3297:2007 (template v2)"

    @native_copy("issn")  # the compiled accelerator's copy: _speedups/rules.h canonical_issn
    def canonical_nss(self, nss: str) -> str:
        if _ISSN.fullmatch(nss):
            compact = nss.replace("-", "").upper()
            return compact[:4] + "-" + compact[4:]
        return nss

    def typed_nss(self, nss: str) -> ISSN:
        return ISSN.parse(nss)

    @native_copy("issn")  # with the default options: _speedups/rules_check.h check_issn
    def check_nss(self, nss: str, options: CheckOptions) -> Iterator[Finding]:
        if not _ISSN.fullmatch(nss):
            yield self._why_not_issn(nss)
            return
        compact = nss.replace("-", "").upper()
        expected = issn_check_character(compact[:7])
        if compact[7] != expected:
            yield self.finding(
                "nss-check-digit",
                MSG_CHECK_CHARACTER.format(nss[-1], expected),
                len(nss) - 1,
                len(nss),
            )

    def _why_not_issn(self, nss: str) -> Finding:
        for i, c in enumerate(nss):
            if c not in "0123456789-Xx":
                what = "percent-encoding" if c == "%" else f"character {c!r}"
                return self.finding(
                    "nss-invalid",
                    f"{what} at NSS position {i} is not allowed in an ISSN "
                    "(NNNN-NNNC: digits, one optional hyphen, check character 0-9 or X)",
                    i,
                    i + (3 if c == "%" else 1),
                )
        digits = [(i, c) for i, c in enumerate(nss) if c != "-"]
        for k, (i, c) in enumerate(digits):
            if c in "Xx" and k != len(digits) - 1:
                return self.finding(
                    "nss-invalid",
                    f"{c!r} at NSS position {i}: 'X' is only the ISSN check character",
                    i,
                    i + 1,
                )
        if len(digits) != 8:
            return self.finding(
                "nss-invalid",
                f"an ISSN has 8 characters (NNNN-NNNC), this one has {len(digits)}",
                0,
                len(nss),
            )
        i = next(i for i, c in enumerate(nss) if c == "-" and i != 4)
        return self.finding(
            "nss-invalid",
            f"hyphen at NSS position {i}: the only hyphen of an ISSN is between the 4th and "
            "5th digit (RFC 3044 §5)",
            i,
            i + 1,
        )


RULE = ISSNRule()
