"""``urn:uuid``: RFC 4122 §3, obsoleted by RFC 9562 §4 (2024).

Grammar (RFC 9562 §4): the 8-4-4-4-12 hex form. The braced form ``{…}`` and the 32-hex form
without hyphens are "other formats", not URN syntax, and are invalid here.

Equivalence (RFC 4122 §3, "Rules for Lexical Equivalence"): compare the fields as unsigned
integers, i.e. the hex is case-insensitive; RFC 4122 asks for lower case on output, so the
canonical NSS is lower case. A non-UUID NSS stays in its generic class.

Version and variant are not restricted by the grammar (the Nil and Max UUIDs of RFC 9562 §5.9
and §5.10 are valid). With ``strict=True`` a UUID whose variant bits are not ``10`` (RFC 9562
§4.1) and that is neither Nil nor Max gets a warning.

>>> from urnld import canonical, check
>>> canonical("URN:UUID:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6")
'urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6'
>>> check("urn:uuid:%7Bf81d4fae-7dec-11d0-a765-00a0c91e6bf6%7D")[0].message
'braces are not part of a UUID URN: write the bare 8-4-4-4-12 form (RFC 9562 §4)'
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator

from .._core import CheckOptions, NamespaceRule, native_copy
from ..findings import Finding, Severity

__all__ = ["RULE", "UUIDRule"]

_UUID = re.compile(r"[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}")
# A character that is neither a hex digit (string.hexdigits) nor '-'.
_NOT_HEX = re.compile(r"[^0-9A-Fa-f-]")
_GROUPS = (8, 4, 4, 4, 12)
_NAMES = ("time_low", "time_mid", "time_high_and_version", "clock_seq", "node")
#: The wording of a group of the wrong length: a str.format template, which the compiled
#: accelerator formats too (scripts/gen_speedups.py copies it into the C).
MSG_GROUP_LENGTH = "UUID field {} has {} hex digits, expected {} (RFC 9562 §4)"


class UUIDRule(NamespaceRule):
    """RFC 9562 UUID URNs."""

    nid = "uuid"
    title = "Universally Unique Identifier"
    reference = "RFC 4122 §3; RFC 9562 §4"

    def repair(self, text: str) -> tuple[str, str, str] | None:
        """The documented repairs of this namespace (:data:`urnld.namespaces.REPAIRS`)."""
        from ._repairs import repair

        fixed = repair(text)
        return None if fixed is None else (fixed.code, fixed.repaired, fixed.source)

    @native_copy("uuid")  # the compiled accelerator's copy: _speedups/rules.h canonical_uuid
    def canonical_nss(self, nss: str) -> str:
        if _UUID.fullmatch(nss):
            return nss.lower()
        return nss

    def typed_nss(self, nss: str) -> uuid.UUID:
        return uuid.UUID(nss)

    @native_copy("uuid")  # with the default options: _speedups/rules_check.h check_uuid
    def check_nss(self, nss: str, options: CheckOptions) -> Iterator[Finding]:
        if not _UUID.fullmatch(nss):
            yield self._why_not_uuid(nss)
            return
        if options.strict:
            compact = nss.replace("-", "").lower()
            if compact not in ("0" * 32, "f" * 32) and int(compact[16], 16) & 0b1100 != 0b1000:
                yield self.finding(
                    "nss-invalid",
                    f"variant bits of {nss[19]!r} are not 10: not an RFC 9562 layout UUID "
                    "(§4.1)",
                    19,
                    20,
                    Severity.WARNING,
                )

    def _why_not_uuid(self, nss: str) -> Finding:
        # "{" and "}" are not URN characters: a braced UUID can only arrive percent-encoded.
        if nss.upper().startswith("%7B") or nss.upper().endswith("%7D"):
            return self.finding(
                "nss-invalid",
                "braces are not part of a UUID URN: write the bare 8-4-4-4-12 form "
                "(RFC 9562 §4)",
                0,
                len(nss),
            )
        bad = _NOT_HEX.search(nss)  # the first character that is no hex digit nor '-'
        if bad is not None:
            i, c = bad.start(), bad[0]
            return self.finding(
                "nss-invalid",
                f"{c!r} at NSS position {i} is not a hex digit (RFC 9562 §4)",
                i,
                i + 1,
            )
        groups = nss.split("-")
        if len(groups) != 5:
            what = "no hyphens" if len(groups) == 1 else f"{len(groups)} groups"
            return self.finding(
                "nss-invalid",
                f"a UUID URN is five hyphen-separated hex groups 8-4-4-4-12; this one has "
                f"{what} (RFC 9562 §4)",
                0,
                len(nss),
            )
        start = 0
        for name, want, group in zip(_NAMES, _GROUPS, groups, strict=True):
            if len(group) != want:
                return self.finding(
                    "nss-invalid",
                    MSG_GROUP_LENGTH.format(name, len(group), want),
                    start,
                    start + len(group),
                )
            start += len(group) + 1
        # Unreachable (hex digits in 8-4-4-4-12 groups match the regex); kept total.
        return self.finding("nss-invalid", "not a UUID in 8-4-4-4-12 hex form", 0, len(nss))


RULE = UUIDRule()
