"""Repairs: near-miss URNs that a documented rule turns into the URN their writer meant.

Real data carries URNs that break their namespace's grammar in a way with exactly one
reading: a UUID in braces or without hyphens, a CGMES identifier with the ``_`` that XML IDs
need. A *repair* rewrites such a string into the valid URN; it is opt-in (``urnld.repair``,
``canonicalize --repair``) and recorded (each rewrite names its code). Each rule in
:data:`REPAIRS` has a code, a source saying why the rewrite cannot change what is named, and
tests. Strings no rule reads with certainty are refused: a UUID with a digit missing or one
too many, hex that is not hex, a wrong check digit.

=====================  ============================================================  =======
code                   rewrites                                                      example
=====================  ============================================================  =======
``uuid-braces``        ``urn:uuid:{…}`` / ``%7B…%7D`` (Microsoft registry form)      braced
``uuid-hyphens``       ``urn:uuid:`` + 32 hex digits without the four hyphens        compact
``uuid-underscore``    ``urn:uuid:_`` + UUID (CGMES 2.4 ``rdf:ID`` written in the    CIM XML
                       CGMES 3 ``urn:uuid:`` form)
``publicid-solidus``   ``urn:publicid:`` with a raw ``/`` (RFC 3151 transcribes       FPI
                       ``//`` as ``:`` and ``/`` as ``%2F``)
=====================  ============================================================  =======

Rules combine where each is certain: ``urn:uuid:{_F81D…}`` is not repaired (no source writes
it), ``urn:uuid:{f81d4fae7dec11d0a76500a0c91e6bf6}`` is (braces, then hyphens: the Windows
registry form of a compact UUID), under the code of the first rule.

>>> r = repair("urn:uuid:F81D4FAE7DEC11D0A76500A0C91E6BF6")
>>> r.code, r.repaired
('uuid-hyphens', 'urn:uuid:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6')
>>> repair("urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf") is None  # a digit missing
True
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from typing import Final

from .._core import RFC8141_RE, Repair, get_rule
from ..findings import CheckOptions, Severity

__all__ = ["REPAIRS", "Repair", "RepairRule", "repair"]


@dataclasses.dataclass(frozen=True, slots=True)
class RepairRule:
    """A rule of the repair table: its code, why it is safe, and its function."""

    code: str
    nid: str
    source: str
    fix: Callable[[str], str | None]  # NSS as written -> repaired NSS, or None


_HEX32: Final = re.compile(r"[0-9A-Fa-f]{32}")
_UUID: Final = re.compile(
    r"[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}"
)


def _hyphenate(hex32: str) -> str:
    h = hex32
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def _uuid_body(nss: str) -> str | None:
    """A UUID written in 8-4-4-4-12 or 32-hex form, as 8-4-4-4-12; else None."""
    if _UUID.fullmatch(nss):
        return nss
    if _HEX32.fullmatch(nss):
        return _hyphenate(nss)
    return None


def _uuid_braces(nss: str) -> str | None:
    upper = nss.upper()
    if nss.startswith("{") and nss.endswith("}"):
        inner = nss[1:-1]
    elif upper.startswith("%7B") and upper.endswith("%7D"):
        inner = nss[3:-3]
    else:
        return None
    return _uuid_body(inner)


def _uuid_hyphens(nss: str) -> str | None:
    return _hyphenate(nss) if _HEX32.fullmatch(nss) else None


def _uuid_underscore(nss: str) -> str | None:
    if not nss.startswith("_"):
        return None
    return _uuid_body(nss[1:])


# RFC 3151 §1.1 transcription of a public identifier: "//" -> ":", "/" -> "%2F" (and "::"
# -> ";", ":" -> "%3A", whitespace -> "+", "+" -> "%2B", ";" -> "%3B", "'" -> "%27",
# "?" -> "%3F", "#" -> "%23", "%" -> "%25"). A raw "/" never survives transcription.
_PUBLICID_SOLIDUS: Final = re.compile(r"//|/")


def _publicid_solidus(nss: str) -> str | None:
    if "/" not in nss:
        return None
    return _PUBLICID_SOLIDUS.sub(lambda m: ":" if m[0] == "//" else "%2F", nss)


REPAIRS: Final[tuple[RepairRule, ...]] = (
    RepairRule(
        "uuid-braces", "uuid",
        "RFC 9562 §4: the braced form is one of the UUID's 'other formats' (Microsoft's "
        "registry form); the braces carry none of its 128 bits",
        _uuid_braces,
    ),
    RepairRule(
        "uuid-hyphens", "uuid",
        "RFC 9562 §4: the hyphens only separate the fields of the 32 hex digits, which are the "
        "whole UUID; the URN form is 8-4-4-4-12",
        _uuid_hyphens,
    ),
    RepairRule(
        "uuid-underscore", "uuid",
        "IEC 61970-552 (CIM XML): an rdf:ID is an XML name, which cannot start with a digit, "
        "so CGMES 2.4 writes '_' + mRID; CGMES 3 names the same object urn:uuid:<mRID>",
        _uuid_underscore,
    ),
    RepairRule(
        "publicid-solidus", "publicid",
        "RFC 3151 §1.1: transcribing a public identifier writes '//' as ':' and '/' as '%2F'; "
        "a raw '/' is a public identifier left untranscribed",
        _publicid_solidus,
    ),
)  # fmt: skip

_PREFIX: Final = re.compile(r"urn:([A-Za-z0-9][A-Za-z0-9-]{0,31}):", re.IGNORECASE)


def repair(text: str) -> Repair | None:
    """The repair that turns *text* into a valid URN, or None when no documented rule does.

    *text* may be outside URN syntax (``{`` and ``}`` are not URN characters). The first rule
    of :data:`REPAIRS` whose result is a valid URN (no error from :func:`urnld.check`) wins; a
    string that is already a valid URN is not repaired.

    >>> r = repair("urn:uuid:{f81d4fae-7dec-11d0-a765-00a0c91e6bf6}")
    >>> r.code, r.repaired
    ('uuid-braces', 'urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6')
    >>> repair("urn:publicid:ISO/IEC+10179").repaired
    'urn:publicid:ISO%2FIEC+10179'
    >>> repair("urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6") is None  # nothing to repair
    True
    """
    if not isinstance(text, str):
        raise TypeError(f"repair() takes a str, not {type(text).__name__}")
    m = _PREFIX.match(text)
    if m is None:
        return None
    nid = m[1].lower()
    nss = text[m.end() :]
    checked = False
    for rule in _BY_NID.get(nid, ()):
        # A rule's own test comes first: it is cheap and fails for nearly every URN, so a
        # valid URN costs no validation here.
        fixed = rule.fix(nss)
        if fixed is None:
            continue
        if not checked:
            if _valid(text):
                return None  # already a valid URN: nothing to repair
            checked = True
        candidate = text[: m.end()] + fixed
        if _valid(candidate):
            return Repair(rule.code, text, candidate, rule.source)
    return None


_BY_NID: Final[dict[str, tuple[RepairRule, ...]]] = {
    nid: tuple(r for r in REPAIRS if r.nid == nid) for nid in {r.nid for r in REPAIRS}
}


_DEFAULT_CHECK: Final = CheckOptions()


def _valid(text: str) -> bool:
    """URN syntax and its namespace rule without errors (what :func:`urnld.check` calls
    valid with the default options), without asking ``check`` itself, which asks us."""
    if RFC8141_RE.fullmatch(text) is None:
        return False
    nid, _, nss = text[4:].partition(":")
    error = Severity.ERROR
    return not any(f.severity is error for f in get_rule(nid).check_nss(nss, _DEFAULT_CHECK))
