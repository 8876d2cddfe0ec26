"""``urn:nbn``: National Bibliography Numbers, RFC 8458 §4 (obsoletes RFC 3188).

Grammar (RFC 8458 §4.2)::

    nbn-nss    = prefix "-" nbn-string
    prefix     = iso-cc *( ":" subspc )      ; iso-cc = 2ALPHA (ISO 3166-1 alpha-2)
    subspc     = 1*( ALPHA / DIGIT )
    nbn-string = path-rootless               ; RFC 3986

Sub-namespace codes hold no ``-``, so the first ``-`` ends the prefix: in
``urn:nbn:se:uu:diva-3475`` the prefix is ``se:uu:diva``, while ``urn:nbn:se-uu:diva-3475`` is
prefix ``se`` with NBN string ``uu:diva-3475``, another name. RFC 3188's non-ISO prefixes
(``fin-123``) were removed by RFC 8458 (§5, Revision Information) and are invalid here.

Equivalence (RFC 8458 §4.2-4.3): the whole prefix is case-insensitive; the NBN string is
case-sensitive (only ``%XX`` hex case is folded). Canonical NSS: the prefix in lower case, the
NBN string as written. An NSS that does not split into prefix and NBN string stays generic.

National profile ``"nbn-de"`` (opt-in, ``check(..., profiles={"nbn-de"})``): the German National
Library ends every ``urn:nbn:de`` name with a check digit (algorithm of
``nbn-resolving.de/nbncheckdigit.php``, as implemented in ``slub/dnburnlib``). RFC 8458 knows
no check digits, so without the profile a wrong DNB digit is not reported.

>>> from urnld import canonical, check
>>> canonical("URN:NBN:SE:UU:DIVA-3475")
'urn:nbn:se:uu:diva-3475'
>>> check("urn:nbn:de:gbv:089-3321752946") == []
True
>>> [f.code for f in check("urn:nbn:de:gbv:089-3321752946", profiles={"nbn-de"})]
['nss-check-digit']
>>> dnb_check_digit("urn:nbn:de:gbv:089-332175294")
'5'
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from .._core import CheckOptions, NamespaceRule, native_copy
from ..findings import Finding
from ._util import PCHAR_RE, PCHAR_SLASH_RE, segments, visible_span
from .views import NBN

__all__ = ["PROFILE_DE", "RULE", "NBNRule", "dnb_check_digit"]

#: The profile name that enables the DNB check digit for ``urn:nbn:de``.
PROFILE_DE = "nbn-de"

_NBN = re.compile(rf"([A-Za-z]{{2}}(?::[A-Za-z0-9]+)*)-({PCHAR_RE}{PCHAR_SLASH_RE}*)")

# DNB's character table (nbn-resolving.de/nbncheckdigit.php; slub/dnburnlib DNBURN.java).
_DNB_CODES: dict[str, str] = {
    "0": "1", "1": "2", "2": "3", "3": "4", "4": "5", "5": "6", "6": "7", "7": "8",
    "8": "9", "9": "41", "a": "18", "b": "14", "c": "19", "d": "15", "e": "16", "f": "21",
    "g": "22", "h": "23", "i": "24", "j": "25", "k": "42", "l": "26", "m": "27", "n": "13",
    "o": "28", "p": "29", "q": "31", "r": "12", "s": "32", "t": "33", "u": "11", "v": "34",
    "w": "35", "x": "36", "y": "37", "z": "38", "+": "49", ":": "17", "-": "39", "/": "45",
    "_": "43", ".": "47",
}  # fmt: skip


def dnb_check_digit(urn_without_check: str) -> str:
    """The DNB check digit for a ``urn:nbn:de`` name given without its last character.

    Each character of the lower-cased URN becomes its 1-2 digit code; every digit of that
    sequence is weighted by its (1-based) position; the sum divided (integer division) by the
    last digit of the sequence gives a quotient whose last digit is the check digit.

    Raises ``ValueError`` naming a character DNB's table does not cover.

    >>> dnb_check_digit("urn:nbn:de:bvb:19-14664")
    '2'
    """
    digits: list[int] = []
    for c in urn_without_check.lower():
        code = _DNB_CODES.get(c)
        if code is None:
            raise ValueError(f"{c!r} is not in the DNB check-digit table")
        digits.extend(int(d) for d in code)
    if not digits:
        raise ValueError("nothing to compute a check digit over")
    total = sum(d * pos for pos, d in enumerate(digits, start=1))
    # No code ends in 0, so the divisor is never zero.
    return str(total // digits[-1] % 10)


class NBNRule(NamespaceRule):
    """RFC 8458 NBN URNs, with the opt-in DNB check-digit profile for ``urn:nbn:de``."""

    nid = "nbn"
    title = "National Bibliography Number"
    reference = "RFC 8458 §4"
    profiles = frozenset({PROFILE_DE})

    @native_copy("nbn")  # the compiled accelerator's copy: _speedups/rules.h canonical_nbn
    def canonical_nss(self, nss: str) -> str:
        m = _NBN.fullmatch(nss)
        if m is None:
            return nss
        return m.group(1).lower() + nss[m.end(1) :]

    def typed_nss(self, nss: str) -> NBN:
        return NBN.parse(nss)

    def check_nss(self, nss: str, options: CheckOptions) -> Iterator[Finding]:
        m = _NBN.fullmatch(nss)
        if m is None:
            yield self._why_not_nbn(nss)
            return
        prefix = m.group(1).lower()
        if PROFILE_DE in options.profiles and (prefix == "de" or prefix.startswith("de:")):
            yield from self._check_dnb(nss)

    def _why_not_nbn(self, nss: str) -> Finding:
        dash = nss.find("-")
        if dash < 0:
            return self.finding(
                "nss-invalid",
                "an NBN is prefix '-' NBN string (RFC 8458 §4.2); there is no '-'",
                0,
                len(nss),
            )
        for k, (start, end) in enumerate(segments(nss[:dash])):
            part = nss[start:end]
            if k == 0 and not (len(part) == 2 and part.isascii() and part.isalpha()):
                extra = (
                    "; RFC 3188's other prefixes were removed by RFC 8458 §5"
                    if part.isascii() and part.isalnum()
                    else ""
                )
                return self.finding(
                    "nss-invalid",
                    f"the prefix must start with a two-letter ISO 3166-1 country code, "
                    f"not {part!r}{extra}",
                    *visible_span(start, end, len(nss)),
                )
            if k > 0 and not (part and part.isascii() and part.isalnum()):
                return self.finding(
                    "nss-invalid",
                    f"sub-namespace code {part!r} must be letters and digits (RFC 8458 §4.2)",
                    *visible_span(start, end, len(nss)),
                )
        rest = dash + 1
        if rest == len(nss):
            return self.finding(
                "nss-invalid", "the NBN string after '-' is empty", dash, dash + 1
            )
        if nss[rest] == "/":
            return self.finding(
                "nss-invalid",
                "the NBN string must not start with '/' (RFC 3986 path-rootless)",
                rest,
                rest + 1,
            )
        # Left: '?' or '#', which only the RFC 2141 grammar lets into an NSS.
        bad = next((i for i in range(rest, len(nss)) if nss[i] in "?#"), rest)
        return self.finding(
            "nss-invalid",
            f"{nss[bad]!r} at NSS position {bad} is not allowed in an NBN string "
            "(RFC 3986 path-rootless)",
            bad,
            bad + 1,
        )

    def _check_dnb(self, nss: str) -> Iterator[Finding]:
        last = nss[-1]
        if not last.isdigit():
            yield self.finding(
                "nss-check-digit",
                f"a urn:nbn:de name ends in a DNB check digit, not {last!r} (profile nbn-de)",
                len(nss) - 1,
                len(nss),
            )
            return
        try:
            expected = dnb_check_digit("urn:nbn:" + nss[:-1])
        except ValueError as e:
            pos = next(i for i, c in enumerate(nss[:-1]) if c.lower() not in _DNB_CODES)
            yield self.finding(
                "nss-invalid",
                f"{e}, so no DNB check digit can be computed (profile nbn-de)",
                pos,
                pos + 1,
            )
            return
        if last != expected:
            yield self.finding(
                "nss-check-digit",
                f"DNB check digit is {last!r}, expected {expected!r} (profile nbn-de)",
                len(nss) - 1,
                len(nss),
            )


RULE = NBNRule()
