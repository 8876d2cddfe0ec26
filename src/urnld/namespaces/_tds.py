"""GS1 EPC Tag Data Standard (TDS) pure-identity and class URI bodies, field by field.

RFC 5134 registered ``urn:epc`` and left the syntax of each scheme to the Tag Data Standard,
which GS1 maintains (TDS 2.x §6.3 "EPC Pure Identity URI", and the "EPC Class URI" for
LGTIN); its one grammar, for SGTIN, is illustrative. The bodies below follow TDS's grammars::

    PaddedNumericComponent        = 1*Digit       ; leading zeros significant
    PaddedNumericComponentOrEmpty = *Digit
    NumericComponent              = "0" / NonZeroDigit *Digit
    GS3A3Component                = 1*GS3A3Char
    GS3A3Char = Digit / UpperAlpha / LowerAlpha / "!" / "'" / "(" / ")" / "*" / "+" / ","
              / "-" / "." / ":" / ";" / "=" / "_" / Escape
    Escape    = "%22" / "%25" / "%26" / "%2F" / "%3C" / "%3E" / "%3F"   ; " % & / < > ?
    CPRefComponent = 1*( Digit / UpperAlpha / "-" / "%2F" / "%23" )

and the digit budgets of the GS1 keys (a GS1 Company Prefix has 6 to 12 digits; with the next
field it fills the key's fixed length). A GS3A3 escape counts as one character.

>>> check_body("id:sgtin", "4012345.033333.AGHFG") is None
True
>>> check_body("id:sscc", "4012345.000000333")[0]
'SSCC: GS1 Company Prefix + serial reference must have 17 digits, not 16 (GS1 TDS §6.3, SSCC)'
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["SCHEMES", "check_body"]

_GS3A3 = re.compile(r"(?:[A-Za-z0-9!'()*+,\-.:;=_]|%(?:22|25|26|2[Ff]|3[CcEeFf]))+")
_CPREF = re.compile(r"(?:[A-Z0-9\-]|%(?:2[Ff]|23))+")
_ESCAPE = re.compile(r"%[0-9A-Fa-f]{2}")


@dataclass(frozen=True, slots=True)
class _Field:
    """One '.'-separated field: its name, kind and length bounds (in characters)."""

    name: str
    kind: str  # "cp" | "padded" | "padded-or-empty" | "numeric" | "gs3a3" | "cpref"
    min_len: int = 1
    max_len: int = 0  # 0: no bound of its own


@dataclass(frozen=True, slots=True)
class _Scheme:
    title: str
    section: str
    fields: tuple[_Field, ...]
    # (fields whose lengths add up, exact total or None, maximum total or None)
    budget: tuple[tuple[int, ...], int | None, int | None] | None = None


def _cp() -> _Field:
    return _Field("GS1 Company Prefix", "cp", 6, 12)


SCHEMES: dict[str, _Scheme] = {
    "id:sgtin": _Scheme("SGTIN", "§6.3", (
        _cp(), _Field("indicator + item reference", "padded"),
        _Field("serial", "gs3a3", 1, 20)), ((0, 1), 13, None)),
    "id:sscc": _Scheme("SSCC", "§6.3", (
        _cp(), _Field("serial reference", "padded")), ((0, 1), 17, None)),
    "id:sgln": _Scheme("SGLN", "§6.3", (
        _cp(), _Field("location reference", "padded-or-empty", 0),
        _Field("extension", "gs3a3", 1, 20)), ((0, 1), 12, None)),
    "id:grai": _Scheme("GRAI", "§6.3", (
        _cp(), _Field("asset type", "padded-or-empty", 0),
        _Field("serial", "gs3a3", 1, 16)), ((0, 1), 12, None)),
    "id:giai": _Scheme("GIAI", "§6.3", (
        _cp(), _Field("individual asset reference", "gs3a3", 1)), ((0, 1), None, 30)),
    "id:gsrn": _Scheme("GSRN", "§6.3", (
        _cp(), _Field("service reference", "padded")), ((0, 1), 17, None)),
    "id:gsrnp": _Scheme("GSRNP", "§6.3", (
        _cp(), _Field("service reference", "padded")), ((0, 1), 17, None)),
    "id:gdti": _Scheme("GDTI", "§6.3", (
        _cp(), _Field("document type", "padded-or-empty", 0),
        _Field("serial", "gs3a3", 1, 17)), ((0, 1), 12, None)),
    "id:cpi": _Scheme("CPI", "§6.3", (
        _cp(), _Field("component/part reference", "cpref", 1),
        _Field("serial", "numeric", 1, 12)), ((0, 1), None, 30)),
    "id:sgcn": _Scheme("SGCN", "§6.3", (
        _cp(), _Field("coupon reference", "padded-or-empty", 0),
        _Field("serial", "padded", 1, 12)), ((0, 1), 12, None)),
    "id:ginc": _Scheme("GINC", "§6.3", (
        _cp(), _Field("consignment reference", "gs3a3", 1)), ((0, 1), None, 30)),
    "id:gsin": _Scheme("GSIN", "§6.3", (
        _cp(), _Field("shipper reference", "padded")), ((0, 1), 16, None)),
    "id:itip": _Scheme("ITIP", "§6.3", (
        _cp(), _Field("indicator + item reference", "padded"),
        _Field("piece", "padded", 2, 2), _Field("total", "padded", 2, 2),
        _Field("serial", "gs3a3", 1, 20)), ((0, 1), 13, None)),
    "id:upui": _Scheme("UPUI", "§6.3", (
        _cp(), _Field("indicator + item reference", "padded"),
        _Field("third-party extension", "gs3a3", 1, 28)), ((0, 1), 13, None)),
    "id:pgln": _Scheme("PGLN", "§6.3", (
        _cp(), _Field("party reference", "padded-or-empty", 0)), ((0, 1), 12, None)),
    "id:gid": _Scheme("GID", "§6.3", (
        _Field("manager number", "numeric"), _Field("object class", "numeric"),
        _Field("serial", "numeric"))),
    "class:lgtin": _Scheme("LGTIN", "EPC Class URI", (
        _cp(), _Field("indicator + item reference", "padded"),
        _Field("lot", "gs3a3", 1, 20)), ((0, 1), 13, None)),
}  # fmt: skip

_KIND_TEXT = {
    "cp": "digits",
    "padded": "digits",
    "padded-or-empty": "digits",
    "numeric": "a number without leading zeros",
    "gs3a3": "GS1 AI encodable characters (letters, digits, !'()*+,-.:;=_ and %22 %25 %26 "
    "%2F %3C %3E %3F)",
    "cpref": "digits, upper-case letters, '-', %2F or %23",
}


def _length(value: str) -> int:
    """Characters as TDS counts them: an escape is one."""
    return len(value) - 2 * len(_ESCAPE.findall(value)) if "%" in value else len(value)


def _fits(kind: str, value: str) -> bool:
    if kind in ("cp", "padded"):
        return value.isascii() and value.isdigit()
    if kind == "padded-or-empty":
        return not value or (value.isascii() and value.isdigit())
    if kind == "numeric":
        return value.isascii() and value.isdigit() and (value == "0" or value[0] != "0")
    if kind == "gs3a3":
        return _GS3A3.fullmatch(value) is not None
    return _CPREF.fullmatch(value) is not None


def check_body(key: str, body: str) -> tuple[str, int, int] | None:
    """``(message, start, end)`` when *body* breaks scheme *key*'s grammar (``"id:sgtin"``).

    Offsets are relative to *body*. None when the body fits, or when urnld has no grammar for
    the scheme (TDS has more schemes than listed here, and adds new ones).

    >>> check_body("id:sgln", "0614141.07346.1234") is None
    True
    >>> check_body("id:sgtin", "4012345.033333.A B")[0][:45]
    "SGTIN serial 'A B' holds characters outside G"
    """
    scheme = SCHEMES.get(key)
    if scheme is None:
        return None
    parts = body.split(".", len(scheme.fields) - 1)
    if len(parts) < len(scheme.fields):
        names = ".".join(f.name for f in scheme.fields)
        return (
            f"{scheme.title} is {names}: {len(parts)} of {len(scheme.fields)} fields "
            f"({_where(scheme)})",
            0,
            len(body),
        )
    pos = 0
    for field, value in zip(scheme.fields, parts, strict=True):
        n = _length(value)
        if not _fits(field.kind, value) or (not value and field.min_len):
            span = (pos, pos + len(value)) if value else (max(pos - 1, 0), pos)
            what = "is empty" if not value else f"holds characters outside {_KIND_TEXT[field.kind]}"
            if value and field.kind == "numeric" and value.isascii() and value.isdigit():
                what = "has a leading zero"
            return f"{scheme.title} {field.name} {value!r} {what} ({_where(scheme)})", *span
        if n < field.min_len or (field.max_len and n > field.max_len):
            span = (pos, pos + len(value)) if value else (max(pos - 1, 0), pos)
            bound = (
                f"{field.min_len}" if field.min_len == field.max_len
                else f"{field.min_len} to {field.max_len}" if field.max_len
                else f"at least {field.min_len}"
            )
            unit = "character" if field.kind in ("gs3a3", "cpref") else "digit"
            return (
                f"{scheme.title} {field.name} {value!r} has {n} {unit}{'s' * (n != 1)}, "
                f"not {bound} ({_where(scheme)})",
                *span,
            )
        pos += len(value) + 1
    if scheme.budget is not None:
        indexes, exact, most = scheme.budget
        total = sum(_length(parts[i]) for i in indexes)
        if exact is not None and total != exact:
            return (
                f"{scheme.title}: {_names(scheme, indexes)} must have {exact} digits, not "
                f"{total} ({_where(scheme)})",
                0,
                _end(parts, indexes),
            )
        if most is not None and total > most:
            return (
                f"{scheme.title}: {_names(scheme, indexes)} may have at most {most} "
                f"characters, not {total} ({_where(scheme)})",
                0,
                _end(parts, indexes),
            )
    return None


# The messages' parts, built only for a body that breaks its grammar (most bodies fit).
def _where(scheme: _Scheme) -> str:
    return f"GS1 TDS {scheme.section}, {scheme.title}"


def _names(scheme: _Scheme, indexes: tuple[int, ...]) -> str:
    return " + ".join(scheme.fields[i].name for i in indexes)


def _end(parts: list[str], indexes: tuple[int, ...]) -> int:
    return sum(len(parts[i]) + 1 for i in range(max(indexes) + 1)) - 1
