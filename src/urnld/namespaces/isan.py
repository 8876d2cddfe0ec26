"""``urn:isan``: International Standard Audiovisual Number, RFC 4246 §2-3.

Grammar (RFC 4246 §3, read as intended: "4*hex" is exactly four)::

    ISAN-NSS = root episode [ version ]
    root     = 3( hexnum "-" )        episode = hexnum "-" check
    version  = 2( "-" hexnum ) "-" check          hexnum = 4HEXDIG

i.e. ``XXXX-XXXX-XXXX-XXXX-C`` or ``XXXX-XXXX-XXXX-XXXX-C-XXXX-XXXX-C``; the space separator
of ISO 15706 is prohibited.

Check characters: ISO/IEC 7064 MOD 37,36 over the 16 hex digits of root and episode, and over
all 24 for the version (``stdnum.iso7064.mod_37_36``). **Choice:** both RFC 4246 examples carry
wrong check characters (``0123-1230-3210-2310-1`` should end in ``J``); they are grammatical,
and the JSONL records them as valid, so a wrong check character is a **warning** by default
and an **error** with ``strict=True``.

Equivalence (RFC 4246 §2): the NSS is case-insensitive; the canonical NSS is upper case (as
``stdnum.isan.to_urn`` writes it). Check characters are part of the string, and a URN without
the version part is not equivalent to one with it.

>>> from urnld import canonical, check
>>> canonical("urn:isan:0000-0000-2cea-0000-1-0000-0000-y")
'urn:isan:0000-0000-2CEA-0000-1-0000-0000-Y'
>>> [(f.code, f.severity.value) for f in check("URN:ISAN:0123-1230-3210-2310-1")][:1]
[('nss-check-digit', 'warning')]
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from .._core import CheckOptions, NamespaceRule, native_copy, upper_except_pct
from ..findings import Finding, Severity

__all__ = ["RULE", "ISANRule"]

_H4 = "[0-9A-Fa-f]{4}"
_ISAN = re.compile(rf"{_H4}(?:-{_H4}){{3}}-[0-9A-Za-z](?:-{_H4}-{_H4}-[0-9A-Za-z])?")
_SHAPES = ("XXXX-XXXX-XXXX-XXXX-C", "XXXX-XXXX-XXXX-XXXX-C-XXXX-XXXX-C")


class ISANRule(NamespaceRule):
    """RFC 4246 ISAN URNs."""

    nid = "isan"
    title = "International Standard Audiovisual Number"
    reference = "RFC 4246 §2-3"

    @native_copy("upper")  # the compiled accelerator's copy: _speedups/rules.h canonical_upper
    def canonical_nss(self, nss: str) -> str:
        return upper_except_pct(nss)

    def check_nss(self, nss: str, options: CheckOptions) -> Iterator[Finding]:
        if not _ISAN.fullmatch(nss):
            yield self._why_not_isan(nss)
            return
        from stdnum.iso7064 import mod_37_36

        upper = nss.upper()
        hex16 = upper[0:19].replace("-", "")
        severity = Severity.ERROR if options.strict else Severity.WARNING
        checks = [(20, mod_37_36.calc_check_digit(hex16), "root and episode")]
        if len(upper) > 21:
            version = upper[22:31].replace("-", "")
            checks.append((32, mod_37_36.calc_check_digit(hex16 + version), "the version"))
        for pos, expected, over in checks:
            if upper[pos] != expected:
                yield self.finding(
                    "nss-check-digit",
                    f"ISAN check character {nss[pos]!r} at NSS position {pos} should be "
                    f"{expected!r} (ISO 7064 MOD 37,36 over {over})",
                    pos,
                    pos + 1,
                    severity,
                )

    def _why_not_isan(self, nss: str) -> Finding:
        for shape in _SHAPES:
            if len(nss) == len(shape):
                for i, (c, want) in enumerate(zip(nss, shape, strict=True)):
                    ok = (
                        c == "-" if want == "-"
                        else c in "0123456789abcdefABCDEF" if want == "X"
                        else c.isascii() and c.isalnum()
                    )
                    if not ok:
                        kind = {"-": "'-'", "X": "a hex digit", "C": "a check character"}[want]
                        return self.finding(
                            "nss-invalid",
                            f"{c!r} at NSS position {i}: expected {kind} ({shape}, "
                            "RFC 4246 §3)",
                            i,
                            i + 1,
                        )
        return self.finding(
            "nss-invalid",
            f"an ISAN URN is {_SHAPES[0]} or {_SHAPES[1]} (hex digits, check characters; "
            f"RFC 4246 §3), not {len(nss)} characters like this",
            0,
            len(nss),
        )


RULE = ISANRule()
