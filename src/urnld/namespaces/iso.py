"""``urn:iso``: ISO standards and their parts, RFC 5141 §2.

Grammar (RFC 5141 §2.4.1, condensed)::

    NSS           = "std:" docidentifier *supplement *docelement [addition]
    docidentifier = originator [":" type] ":" docnumber [":" partnumber]
                    [[":" status] ":" edition] [":" docversion] [":" language]
    originator    = "iso" / "iso-iec" / "iso-cie" / "iso-astm" / "iso-ieee" / "iec"
    type          = "data" / "guide" / "isp" / "iwa" / "pas" / "r" / "tr" / "ts" / "tta"
    partnumber    = "-" 1*( ALPHA / DIGIT / "-" )
    status        = "draft" / "cancelled" / "stage-" 2DIGIT "." 2DIGIT [".v" 1*DIGIT]
    edition       = "ed-" 1*DIGIT
    docversion    = "v" 1*DIGIT *( "." 1*DIGIT ) *( "-" ( "amd" / "cor" / "add" ) 1*DIGIT
                    [ ".v" 1*DIGIT *( "." 1*DIGIT ) ] )
    language      = 2ALPHA *( "," 2ALPHA )
    supplement    = ":" ( "amd" / "cor" / "add" ) ":" 1*DIGIT [":v" 1*DIGIT] [":" language]
    docelement    = ":" ( "clause" / "figure" / "table" / "term" ) ":" list
    addition      = ":tech" *( ":" 1*pchar-without-colon )

The tail (language lists, docelement lists, ``tech`` additions) is checked leniently. A
document version may name the supplement it belongs to, as the RFC's own §2.4.2 example
``urn:iso:std:iso:9999:-1:ed-1:v1-amd1.v1:en,fr:amd:2:v2:en`` does (version 1 of amendment 1
of version 1).

Opt-in profile ``"iso-current"`` (``check(..., profiles={"iso-current"})``): forms that ISO and
HL7 FHIR use today and RFC 5141 (2008) does not have: a part number written without its ``-``
(``urn:iso:std:iso:11073:10101``, FHIR's code system for ISO/IEEE 11073 MDC codes) and a
year of publication after the number (``urn:iso:std:iso:6710:2017``). Without the profile
both are ``nss-invalid``, as RFC 5141 says.

**Choice** on the RFC's own erratum: the §2.4.2 example ``urn:iso:std:iso:9999:1:ed-2:en,fr:…``
has no ``-`` before the part number and so fails §2.4.1's ABNF; it is **invalid** here (the
JSONL records it so) and the finding says why. ``…:clause:a.1,a.2`` and ``…:clause:a.1-a.2``
name the same clauses (§2.4.2) but are different strings, so they are not equivalent.

Equivalence (RFC 5141 §2.9): octet equality after normalizing the case of all elements; the
canonical NSS is lower case (``%XX`` kept upper-case), for every ``iso`` NSS.

>>> from urnld import canonical, check
>>> canonical("URN:ISO:STD:ISO:9999:-1:ED-1:EN")
'urn:iso:std:iso:9999:-1:ed-1:en'
>>> check("urn:iso:std:iso:9999:1:ed-2:en,fr:amd:2:en")[0].message[:54]
"'1' at NSS position 13: a part number starts with '-' "
>>> check("urn:iso:std:iso:9999:-1:ed-1:v1-amd1.v1:en,fr:amd:2:v2:en")
[]
>>> check("urn:iso:std:iso:11073:10101", profiles={"iso-current"})
[]
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from .._core import CheckOptions, NamespaceRule, lower_except_pct, native_copy
from ..findings import Finding
from ._util import PCHAR_NC_RE, segments, visible_span

__all__ = ["PROFILE_CURRENT", "RULE", "ISORule"]

#: The profile name that accepts today's ISO/FHIR forms RFC 5141 does not have.
PROFILE_CURRENT = "iso-current"

_ORIGINATORS = ("iso", "iso-iec", "iso-cie", "iso-astm", "iso-ieee", "iec")
_TYPES = ("data", "guide", "isp", "iwa", "pas", "r", "tr", "ts", "tta")
_DOCNUMBER = re.compile(r"[0-9]+")
_PARTNUMBER = re.compile(r"-[a-z0-9-]+")
_STATUS = re.compile(r"draft|cancelled|stage-[0-9]{2}\.[0-9]{2}(?:\.v[0-9]+)?")
_EDITION = re.compile(r"ed-[0-9]+")
_DOCVERSION = re.compile(
    r"v[0-9]+(?:\.[0-9]+)*(?:-(?:amd|cor|add)[0-9]+(?:\.v[0-9]+(?:\.[0-9]+)*)?)*"
)
_YEAR = re.compile(r"[0-9]{4}")
_LANGUAGE = re.compile(r"[a-z]{2}(?:,[a-z]{2})*")
_SUPPLEMENTS = ("amd", "cor", "add")
_ELEMENTS = ("clause", "figure", "table", "term")
_LIST = re.compile(r"[a-z0-9.,\-]+")
_TECH_PART = re.compile(rf"{PCHAR_NC_RE}+")


class ISORule(NamespaceRule):
    """RFC 5141 ISO URNs."""

    nid = "iso"
    title = "International Organization for Standardization"
    reference = "RFC 5141 §2"
    profiles = frozenset({PROFILE_CURRENT})

    @native_copy("lower_except_pct")  # C copy: _speedups/rules.h canonical_lower_except_pct
    def canonical_nss(self, nss: str) -> str:
        return lower_except_pct(nss)

    def check_nss(self, nss: str, options: CheckOptions) -> Iterator[Finding]:
        problem = _Walker(nss, current=PROFILE_CURRENT in options.profiles).run()
        if problem is not None:
            message, start, end = problem
            yield self.finding(
                "nss-invalid", message, *visible_span(start, end, len(nss))
            )


class _Walker:
    """A recursive-descent pass over the ``:``-separated tokens of an ISO NSS (lower-cased)."""

    def __init__(self, nss: str, *, current: bool = False) -> None:
        self.text = nss.lower()
        self.spans = segments(self.text)
        self.i = 0
        self.current = current

    def tok(self) -> str | None:
        if self.i >= len(self.spans):
            return None
        s, e = self.spans[self.i]
        return self.text[s:e]

    def fail(self, why: str) -> tuple[str, int, int]:
        if self.i >= len(self.spans):
            n = len(self.text)
            return f"the name ends too early: {why} (RFC 5141 §2.4.1)", n, n
        s, e = self.spans[self.i]
        return f"{self.text[s:e]!r} at NSS position {s}: {why} (RFC 5141 §2.4.1)", s, e

    def take(self, ok: bool) -> bool:
        if ok:
            self.i += 1
        return ok

    def fullmatch(self, pattern: re.Pattern[str]) -> bool:
        t = self.tok()
        return t is not None and self.take(pattern.fullmatch(t) is not None)

    def run(self) -> tuple[str, int, int] | None:
        if self.tok() != "std":
            return self.fail("an ISO URN starts with 'std:'")
        self.i += 1
        if not self.take(self.tok() in _ORIGINATORS):
            return self.fail(f"the originator is one of {', '.join(_ORIGINATORS)}")
        self.take(self.tok() in _TYPES)
        if not self.fullmatch(_DOCNUMBER):
            return self.fail("expected the document number (digits)")
        # [":" partnumber] [[":" status] ":" edition] [":" docversion] [":" language]
        t = self.tok()
        if self.current and t is not None and _DOCNUMBER.fullmatch(t):
            # profile iso-current: a part number without '-' (11073:10101), then perhaps a
            # year (6710:2017; a lone four-digit token reads as either, and both are accepted)
            self.i += 1
            self.fullmatch(_YEAR)
            t = self.tok()
        if t is not None and _DOCNUMBER.fullmatch(t):
            return self.fail(
                "a part number starts with '-' (the RFC's §2.4.2 example "
                "'…:9999:1:…' omits it, an erratum; profile 'iso-current' accepts today's "
                "'11073:10101' and '6710:2017' forms)"
                if not self.current
                else "after the number, profile 'iso-current' accepts one part number "
                "and one year"
            )
        self.fullmatch(_PARTNUMBER)
        if self.fullmatch(_STATUS) and not self.fullmatch(_EDITION):
            return self.fail("a status is followed by an edition 'ed-N'")
        self.fullmatch(_EDITION)
        self.fullmatch(_DOCVERSION)
        self.fullmatch(_LANGUAGE)
        while self.tok() in _SUPPLEMENTS:
            self.i += 1
            if not self.fullmatch(_DOCNUMBER):
                return self.fail("a supplement (amd, cor, add) is followed by its number")
            self.fullmatch(_DOCVERSION)
            self.fullmatch(_LANGUAGE)
        while self.tok() in _ELEMENTS:
            self.i += 1
            if not self.fullmatch(_LIST):
                return self.fail("a clause, figure, table or term is followed by a list")
        if self.tok() == "tech":
            self.i += 1
            while self.i < len(self.spans):
                if not self.fullmatch(_TECH_PART):
                    return self.fail("a 'tech' addition holds non-empty parts without '/'")
        if self.i < len(self.spans):
            return self.fail(
                "unexpected here; after the document identifier come supplements "
                "(amd, cor, add), document elements (clause, figure, table, term) or 'tech'"
            )
        return None


RULE = ISORule()
