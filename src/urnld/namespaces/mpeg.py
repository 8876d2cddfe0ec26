"""``urn:mpeg``: MPEG standards, RFC 3614 §2.

Structure: ``{standard name}:{assigned US-ASCII string}``, e.g. ``mpeg7:schema:2001``; the
standard name holds no ``:`` and both parts are non-empty.

Equivalence (RFC 3614 §2): ``urn:mpeg:{standard name}:`` is case-insensitive, the rest is
case-sensitive. The canonical NSS lower-cases the standard name (``MPEG7`` → ``mpeg7``) and
keeps the rest as written. An NSS without that structure stays generic.

>>> from urnld import canonical, equivalent
>>> canonical("urn:mpeg:MPEG7:schema:2001")
'urn:mpeg:mpeg7:schema:2001'
>>> equivalent("urn:mpeg:mpeg7:schema:2001", "urn:mpeg:mpeg7:SCHEMA:2001")
False
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from .._core import CheckOptions, NamespaceRule, lower_except_pct, native_copy
from ..findings import Finding
from ._util import PCHAR_NC_RE, PCHAR_RE, PCHAR_SLASH_RE

__all__ = ["RULE", "MPEGRule"]

_MPEG = re.compile(rf"({PCHAR_NC_RE}+):{PCHAR_RE}{PCHAR_SLASH_RE}*")


class MPEGRule(NamespaceRule):
    """RFC 3614 MPEG URNs."""

    nid = "mpeg"
    title = "Moving Picture Experts Group"
    reference = "RFC 3614 §2"

    @native_copy("mpeg")  # the compiled accelerator's copy: _speedups/rules.h canonical_mpeg
    def canonical_nss(self, nss: str) -> str:
        m = _MPEG.fullmatch(nss)
        if m is None:
            return nss
        return lower_except_pct(m.group(1)) + nss[m.end(1) :]

    def check_nss(self, nss: str, options: CheckOptions) -> Iterator[Finding]:
        if _MPEG.fullmatch(nss):
            return
        colon = nss.find(":")
        if colon < 0:
            message = "there is no ':' after the standard name"
            span = (0, len(nss))
        elif colon == 0:
            message, span = "the standard name before ':' is empty", (0, 1)
        elif colon == len(nss) - 1:
            message, span = "the assigned string after ':' is empty", (colon, colon + 1)
        else:
            # Left: a character the parts do not allow ('/' in the standard name or first
            # in the assigned string; '?' or '#' from RFC 2141 mode).
            bad = next(
                i
                for i, c in enumerate(nss)
                if c in "?#" or (c == "/" and (i < colon or i == colon + 1))
            )
            message = f"{nss[bad]!r} at NSS position {bad} is not allowed there"
            span = (bad, bad + 1)
        yield self.finding(
            "nss-invalid",
            f"{message}: an MPEG NSS is {{standard name}}:{{assigned string}} (RFC 3614 §2)",
            *span,
        )


RULE = MPEGRule()
