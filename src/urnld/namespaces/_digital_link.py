"""EPC URNs and GS1 Digital Link URIs: one GS1 key, two spellings (GS1 TDS 2.x §7, Digital Link).

An EPC pure-identity URI (``urn:epc:id:sgtin:4012345.011111.987``) and a GS1 Digital Link URI
(``https://id.gs1.org/01/04012345111118/21/987``) carry the same GS1 key; GS1's Tag Data
Standard (TDS 2.x, "Correspondence between EPCs and GS1 keys") defines the translation field by
field, and EPCIS 2.0 (§8.2) lets events name objects either way. This module translates both
ways, for every scheme urnld's TDS table knows that has a GS1 key:

=========  ====================================================  ===========================
scheme     EPC fields                                            Digital Link path
=========  ====================================================  ===========================
sgtin      company prefix . indicator+item ref . serial          ``/01/{gtin}/21/{serial}``
sscc       company prefix . extension+serial ref                 ``/00/{sscc}``
sgln       company prefix . location ref . extension             ``/414/{gln}[/254/{ext}]``
grai       company prefix . asset type . serial                  ``/8003/0{grai}{serial}``
giai       company prefix . asset ref                            ``/8004/{giai}``
gsrn(p)    company prefix . service ref                          ``/8018|8017/{gsrn}``
gdti       company prefix . document type . serial               ``/253/{gdti}{serial}``
cpi        company prefix . part ref . serial                    ``/8010/{cpid}/8011/{ser}``
sgcn       company prefix . coupon ref . serial                  ``/255/{gcn}{serial}``
ginc       company prefix . consignment ref                      ``/401/{ginc}``
gsin       company prefix . shipper ref                          ``/402/{gsin}``
itip       company prefix . indicator+item ref . piece . total   ``/8006/{itip}/21/{serial}``
           . serial
upui       company prefix . indicator+item ref . TPX             ``/01/{gtin}/235/{tpx}``
pgln       company prefix . party ref                            ``/417/{gln}``
lgtin      (class) company prefix . indicator+item ref . lot     ``/01/{gtin}/10/{lot}``
=========  ====================================================  ===========================

Check digits (GS1 General Specifications §7.9, mod 10 with weights 3 and 1 from the right) are
computed; an SGLN whose extension is ``0`` has none in the Digital Link (TDS: ``0`` is "no
extension"). Serials are GS1 AI encodable characters (CSET 82): the EPC URI escapes
``" % & / < > ?`` (TDS §6.3 GS3A3), the Digital Link percent-encodes every character that is
not ``A-Z a-z 0-9 - . _`` (GS1 Digital Link URI syntax 1.2, ABNF ``XCHAR``; ``"`` too, which
RFC 3986 does not allow raw). The URI out is the *canonical, constrained* Digital Link: domain
``id.gs1.org``, key and key qualifiers only.

Back from a Digital Link, the EPC needs the GS1 Company Prefix's length, which the key's digits
do not tell: it comes from the caller (a mapping of prefixes to lengths, or a function), never
from a guess. :func:`biip_prefix_lengths` reads GS1's prefix table shipped with the optional
``biip`` package.

>>> epc_to_digital_link("urn:epc:id:sgtin:4012345.011111.987")
'https://id.gs1.org/01/04012345111118/21/987'
>>> digital_link_to_epc("https://id.gs1.org/01/04012345111118/21/987", {"4012345": 7})
'urn:epc:id:sgtin:4012345.011111.987'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping
from typing import Final

from ._tds import SCHEMES, check_body

__all__ = [
    "GS1_DOMAIN",
    "PrefixLengths",
    "biip_prefix_lengths",
    "digital_link_to_epc",
    "epc_to_digital_link",
    "gs1_check_digit",
]

#: The domain of canonical GS1 Digital Link URIs (Digital Link URI syntax 1.2 §4.12).
GS1_DOMAIN: Final = "id.gs1.org"

#: Where the GS1 Company Prefix length comes from: a mapping whose keys are prefixes of GS1
#: key digits (a company prefix itself, or a range of GS1's prefix-format list) and whose
#: values are company prefix lengths (the longest key that matches wins), or a function of the
#: key's digits giving the length or None.
PrefixLengths = Mapping[str, int] | Callable[[str], int | None]

# CSET 82 characters a Digital Link value may hold raw (ABNF XCHAR minus the escaped symbols).
_DL_SAFE: Final = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._")
# TDS §6.3 GS3A3: the characters the EPC URI escapes (the rest of CSET 82 is written raw).
_GS3A3_ESCAPED: Final = frozenset('"%&/<>?')
# TDS §6.3 CPRefComponent: '/' and '#' escaped, the rest raw (digits, upper case, '-').
_CPREF_ESCAPED: Final = frozenset("/#")
_CSET82: Final = frozenset(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!\"%&'()*+,-./:;<=>?_"
)
_CSET39: Final = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789#-/")
_PCT: Final = re.compile(r"%([0-9A-Fa-f]{2})")
_DIGITS: Final = re.compile(r"[0-9]+")


def gs1_check_digit(digits: str) -> str:
    """The GS1 check digit of *digits* (GS1 General Specifications §7.9.1: mod 10, weights 3
    and 1 alternating from the rightmost digit).

    >>> gs1_check_digit("0401234511111")  # GTIN-14 04012345111118
    '8'
    >>> gs1_check_digit("10614141234567890")  # SSCC 106141412345678908 (GS1 TDS §7)
    '8'
    """
    total = sum(int(d) * (3 if i % 2 == 0 else 1) for i, d in enumerate(reversed(digits)))
    return str(-total % 10)


def _decode(value: str) -> str | None:
    """*value* with its ``%XX`` decoded; None when that gives a non-ASCII byte or a stray '%'."""
    if "%" not in value:
        return value
    out: list[str] = []
    pos = 0
    for m in _PCT.finditer(value):
        out.append(value[pos : m.start()])
        code = int(m[1], 16)
        if code > 0x7E:
            return None
        out.append(chr(code))
        pos = m.end()
    out.append(value[pos:])
    text = "".join(out)
    # A '%' left that did not start an escape: not a percent-encoded value.
    if "%" in _PCT.sub("", value):
        return None
    return text


def _escape(text: str, escaped: frozenset[str]) -> str:
    return "".join(f"%{ord(c):02X}" if c in escaped else c for c in text)


def _dl_escape(text: str) -> str:
    return "".join(c if c in _DL_SAFE else f"%{ord(c):02X}" for c in text)


def _gs3a3(value: str) -> str | None:
    """An EPC GS3A3 field from its characters; None outside CSET 82."""
    if not value or any(c not in _CSET82 for c in value):
        return None
    return _escape(value, _GS3A3_ESCAPED)


def _with_check(digits: str) -> str:
    return digits + gs1_check_digit(digits)


# -- EPC -> Digital Link --------------------------------------------------------------------


def epc_to_digital_link(urn: str) -> str | None:
    """The canonical GS1 Digital Link URI of an EPC URN, or None when it has none.

    *urn* is an ``urn:epc:id:…`` or ``urn:epc:class:lgtin:…`` URN (any case for ``urn`` and
    the NID; the rest as TDS writes it, lower-case scheme names). None for a body that breaks
    its TDS grammar, for schemes without a GS1 key (``gid``, ``usdod``, ``adi``…), and for
    tag, pattern and raw URIs.

    >>> epc_to_digital_link("urn:epc:id:sscc:0614141.1234567890")
    'https://id.gs1.org/00/106141412345678908'
    >>> epc_to_digital_link("urn:epc:id:sgln:0614141.12345.0")
    'https://id.gs1.org/414/0614141123452'
    >>> epc_to_digital_link("urn:epc:id:gid:95100000.12345.400") is None
    True
    """
    if not isinstance(urn, str):
        raise TypeError(f"epc_to_digital_link() takes a str, not {type(urn).__name__}")
    if urn[:8].lower() != "urn:epc:":
        return None
    nss = urn[8:]
    colon = nss.find(":", nss.find(":") + 1)
    if colon < 0:
        return None
    key, body = nss[:colon], nss[colon + 1 :]
    build = _TO_DL.get(key)
    if build is None or check_body(key, body) is not None:
        return None
    # The last field may hold '.' (a GS3A3 serial): split as often as the scheme has dots.
    fields = body.split(".", len(SCHEMES[key].fields) - 1)
    path = build(fields)
    return None if path is None else f"https://{GS1_DOMAIN}{path}"


def _gtin(cp: str, ref: str) -> str:
    """GTIN-14 from company prefix and indicator+item reference (TDS §7.1)."""
    return _with_check(ref[:1] + cp + ref[1:])


def _serial_dl(epc_field: str) -> str | None:
    decoded = _decode(epc_field)
    return None if decoded is None else _dl_escape(decoded)


def _sgtin(f: list[str]) -> str | None:
    serial = _serial_dl(f[2])
    return None if serial is None else f"/01/{_gtin(f[0], f[1])}/21/{serial}"


def _lgtin(f: list[str]) -> str | None:
    lot = _serial_dl(f[2])
    return None if lot is None else f"/01/{_gtin(f[0], f[1])}/10/{lot}"


def _sscc(f: list[str]) -> str:
    return f"/00/{_with_check(f[1][:1] + f[0] + f[1][1:])}"


def _sgln(f: list[str]) -> str | None:
    gln = _with_check(f[0] + f[1])
    if f[2] == "0":  # TDS §6.3.3: extension 0 means the GLN without extension
        return f"/414/{gln}"
    ext = _serial_dl(f[2])
    return None if ext is None else f"/414/{gln}/254/{ext}"


def _grai(f: list[str]) -> str | None:
    serial = _serial_dl(f[2])
    return None if serial is None else f"/8003/0{_with_check(f[0] + f[1])}{serial}"


def _giai(f: list[str]) -> str | None:
    ref = _serial_dl(f[1])
    return None if ref is None else f"/8004/{f[0]}{ref}"


def _gsrn(ai: str) -> Callable[[list[str]], str]:
    return lambda f: f"/{ai}/{_with_check(f[0] + f[1])}"


def _gdti(f: list[str]) -> str | None:
    serial = _serial_dl(f[2])
    return None if serial is None else f"/253/{_with_check(f[0] + f[1])}{serial}"


def _cpi(f: list[str]) -> str | None:
    ref = _decode(f[1])
    return None if ref is None else f"/8010/{f[0]}{_dl_escape(ref)}/8011/{f[2]}"


def _sgcn(f: list[str]) -> str:
    return f"/255/{_with_check(f[0] + f[1])}{f[2]}"


def _ginc(f: list[str]) -> str | None:
    ref = _serial_dl(f[1])
    return None if ref is None else f"/401/{f[0]}{ref}"


def _gsin(f: list[str]) -> str:
    return f"/402/{_with_check(f[0] + f[1])}"


def _itip(f: list[str]) -> str | None:
    serial = _serial_dl(f[4])
    return None if serial is None else f"/8006/{_gtin(f[0], f[1])}{f[2]}{f[3]}/21/{serial}"


def _upui(f: list[str]) -> str | None:
    tpx = _serial_dl(f[2])
    return None if tpx is None else f"/01/{_gtin(f[0], f[1])}/235/{tpx}"


def _pgln(f: list[str]) -> str:
    return f"/417/{_with_check(f[0] + f[1])}"


_TO_DL: Final[dict[str, Callable[[list[str]], str | None]]] = {
    "id:sgtin": _sgtin,
    "id:sscc": _sscc,
    "id:sgln": _sgln,
    "id:grai": _grai,
    "id:giai": _giai,
    "id:gsrn": _gsrn("8018"),
    "id:gsrnp": _gsrn("8017"),
    "id:gdti": _gdti,
    "id:cpi": _cpi,
    "id:sgcn": _sgcn,
    "id:ginc": _ginc,
    "id:gsin": _gsin,
    "id:itip": _itip,
    "id:upui": _upui,
    "id:pgln": _pgln,
    "class:lgtin": _lgtin,
}


# -- Digital Link -> EPC --------------------------------------------------------------------

# Primary key AI -> the qualifier paths that name one EPC, and the builder for each.
_PATH_SHAPES: Final[dict[tuple[str, ...], str]] = {
    ("01", "21"): "sgtin",
    ("01", "10"): "lgtin",
    ("01", "235"): "upui",
    ("00",): "sscc",
    ("414",): "sgln",
    ("414", "254"): "sgln",
    ("8003",): "grai",
    ("8004",): "giai",
    ("8018",): "gsrn",
    ("8017",): "gsrnp",
    ("253",): "gdti",
    ("8010", "8011"): "cpi",
    ("255",): "sgcn",
    ("401",): "ginc",
    ("402",): "gsin",
    ("8006", "21"): "itip",
    ("417",): "pgln",
}


def _prefix_length(lengths: PrefixLengths, digits: str) -> int | None:
    if callable(lengths):
        n = lengths(digits)
    else:
        n = None
        best = -1
        for prefix, length in lengths.items():
            if len(prefix) > best and digits.startswith(prefix):
                best, n = len(prefix), length
    if n is None or not 6 <= n <= 12 or n > len(digits):
        return None
    return n


def digital_link_to_epc(
    iri: str,
    prefix_lengths: PrefixLengths,
    *,
    domains: Collection[str] = (GS1_DOMAIN,),
) -> str | None:
    """The EPC URN a GS1 Digital Link URI names, or None.

    The URI must be ``http`` or ``https`` on one of *domains* (by default only ``id.gs1.org``:
    a path like ``/01/…`` on any other site is not known to follow GS1's syntax), hold exactly
    a primary key and the qualifiers one EPC scheme needs (no query, no fragment), with right
    check digits. The GS1 Company Prefix length comes from *prefix_lengths* (see
    :data:`PrefixLengths`); without a length for the key, the answer is None, never a guess.

    >>> lengths = {"0614141": 7}
    >>> digital_link_to_epc("https://id.gs1.org/414/0614141123452/254/5678", lengths)
    'urn:epc:id:sgln:0614141.12345.5678'
    >>> digital_link_to_epc("https://id.gs1.org/00/106141412345678908", lengths)
    'urn:epc:id:sscc:0614141.1234567890'
    >>> digital_link_to_epc("https://id.gs1.org/00/106141412345678907", lengths) is None
    True
    """
    if not isinstance(iri, str):
        raise TypeError(f"digital_link_to_epc() takes a str, not {type(iri).__name__}")
    scheme, sep, rest = iri.partition("://")
    if not sep or scheme.lower() not in ("http", "https") or "?" in rest or "#" in rest:
        return None
    host, slash, path = rest.partition("/")
    if not slash or host.lower() not in {d.lower() for d in domains}:
        return None
    segments = path.split("/")
    if len(segments) % 2 or not segments[0]:
        return None
    ais = tuple(segments[0::2])
    kind = _PATH_SHAPES.get(ais)
    if kind is None:
        return None
    values: list[str] = []
    for raw in segments[1::2]:
        value = _decode(raw)
        if not value:
            return None
        values.append(value)
    built = _FROM_DL[kind](values, prefix_lengths)
    if built is None:
        return None
    key, body = built
    if check_body(key, body) is not None:
        return None
    return f"urn:epc:{key}:{body}"


def _checked(digits: str, n: int) -> str | None:
    """*digits* without its check digit, when it has *n* digits and the check digit is right."""
    if len(digits) != n or not digits.isascii() or not digits.isdigit():
        return None
    return digits[:-1] if gs1_check_digit(digits[:-1]) == digits[-1] else None


def _split_gtin(
    gtin: str, lengths: PrefixLengths
) -> tuple[str, str] | None:
    """(company prefix, indicator+item ref) of a GTIN-14; None for a bad check digit."""
    body = _checked(gtin, 14)
    if body is None:
        return None
    n = _prefix_length(lengths, body[1:])
    if n is None:
        return None
    return body[1 : 1 + n], body[0] + body[1 + n :]


def _split_plain(key: str, size: int, lengths: PrefixLengths) -> tuple[str, str] | None:
    """(company prefix, reference) of a key of *size* digits ending in a check digit."""
    body = _checked(key, size)
    if body is None:
        return None
    n = _prefix_length(lengths, body)
    if n is None:
        return None
    return body[:n], body[n:]


def _lead_digits(value: str) -> str:
    m = _DIGITS.match(value)
    return m[0][:12] if m else ""


def _from_gtin_family(
    scheme: str,
) -> Callable[[list[str], PrefixLengths], tuple[str, str] | None]:
    def build(v: list[str], lengths: PrefixLengths) -> tuple[str, str] | None:
        split = _split_gtin(v[0], lengths)
        extra = _gs3a3(v[1])
        if split is None or extra is None:
            return None
        key = "class:lgtin" if scheme == "lgtin" else f"id:{scheme}"
        return key, f"{split[0]}.{split[1]}.{extra}"

    return build


def _from_sscc(v: list[str], lengths: PrefixLengths) -> tuple[str, str] | None:
    body = _checked(v[0], 18)
    if body is None:
        return None
    n = _prefix_length(lengths, body[1:])
    if n is None:
        return None
    return "id:sscc", f"{body[1 : 1 + n]}.{body[0]}{body[1 + n :]}"


def _from_sgln(v: list[str], lengths: PrefixLengths) -> tuple[str, str] | None:
    split = _split_plain(v[0], 13, lengths)
    ext = "0" if len(v) == 1 else _gs3a3(v[1])
    if split is None or ext is None:
        return None
    return "id:sgln", f"{split[0]}.{split[1]}.{ext}"


def _from_keyed_serial(
    key: str, size: int, pad: str = ""
) -> Callable[[list[str], PrefixLengths], tuple[str, str] | None]:
    """GRAI (``0`` + 13 digits + serial), GDTI and SGCN (13 digits + serial)."""

    def build(v: list[str], lengths: PrefixLengths) -> tuple[str, str] | None:
        value = v[0]
        if pad:
            if not value.startswith(pad):
                return None
            value = value[len(pad) :]
        split = _split_plain(value[:size], size, lengths)
        serial = value[size:]
        if split is None or not serial:
            return None  # no serial: a class of assets or documents, not one EPC
        if key == "id:sgcn":
            if not (serial.isascii() and serial.isdigit()):
                return None
            field = serial
        else:
            gs3a3 = _gs3a3(serial)
            if gs3a3 is None:
                return None
            field = gs3a3
        return key, f"{split[0]}.{split[1]}.{field}"

    return build


def _from_prefixed(key: str) -> Callable[[list[str], PrefixLengths], tuple[str, str] | None]:
    """GIAI and GINC: company prefix + alphanumeric reference, no check digit."""

    def build(v: list[str], lengths: PrefixLengths) -> tuple[str, str] | None:
        n = _prefix_length(lengths, _lead_digits(v[0]))
        if n is None:
            return None
        ref = _gs3a3(v[0][n:])
        return None if ref is None else (key, f"{v[0][:n]}.{ref}")

    return build


_Builder = Callable[[list[str], PrefixLengths], tuple[str, str] | None]


def _from_fixed(key: str, size: int) -> _Builder:
    """GSRN, GSRN-P, GSIN, PGLN: company prefix + reference + check digit."""

    def build(v: list[str], lengths: PrefixLengths) -> tuple[str, str] | None:
        split = _split_plain(v[0], size, lengths)
        return None if split is None else (key, f"{split[0]}.{split[1]}")

    return build


def _from_cpi(v: list[str], lengths: PrefixLengths) -> tuple[str, str] | None:
    cpid, serial = v
    if any(c not in _CSET39 for c in cpid):
        return None
    # TDS: the EPC's CPI serial is a NumericComponent (no leading zeros).
    if not (serial.isascii() and serial.isdigit()) or (len(serial) > 1 and serial[0] == "0"):
        return None
    n = _prefix_length(lengths, _lead_digits(cpid))
    if n is None or len(cpid) <= n:
        return None
    return "id:cpi", f"{cpid[:n]}.{_escape(cpid[n:], _CPREF_ESCAPED)}.{serial}"


def _from_itip(v: list[str], lengths: PrefixLengths) -> tuple[str, str] | None:
    itip, serial = v
    if len(itip) != 18 or not (itip.isascii() and itip.isdigit()):
        return None
    split = _split_gtin(itip[:14], lengths)
    ser = _gs3a3(serial)
    if split is None or ser is None:
        return None
    return "id:itip", f"{split[0]}.{split[1]}.{itip[14:16]}.{itip[16:18]}.{ser}"


_FROM_DL: Final[dict[str, Callable[[list[str], PrefixLengths], tuple[str, str] | None]]] = {
    "sgtin": _from_gtin_family("sgtin"),
    "lgtin": _from_gtin_family("lgtin"),
    "upui": _from_gtin_family("upui"),
    "sscc": _from_sscc,
    "sgln": _from_sgln,
    "grai": _from_keyed_serial("id:grai", 13, pad="0"),
    "giai": _from_prefixed("id:giai"),
    "gsrn": _from_fixed("id:gsrn", 18),
    "gsrnp": _from_fixed("id:gsrnp", 18),
    "gdti": _from_keyed_serial("id:gdti", 13),
    "cpi": _from_cpi,
    "sgcn": _from_keyed_serial("id:sgcn", 13),
    "ginc": _from_prefixed("id:ginc"),
    "gsin": _from_fixed("id:gsin", 17),
    "itip": _from_itip,
    "pgln": _from_fixed("id:pgln", 13),
}


def biip_prefix_lengths(digits: str) -> int | None:
    """The GS1 Company Prefix length for a key's *digits* from GS1's prefix table, as the
    optional ``biip`` package ships it (``pip install urnld[gs1]``); None when the table has
    no length for them.

    *digits* start where the company prefix starts (a GTIN-14 without its indicator digit,
    an SSCC without its extension digit). Raises :class:`urnld.errors.URNLDEnvironmentError`
    when ``biip`` is not installed. Pass the function itself as *prefix_lengths*.
    """
    try:
        from biip.gs1_prefixes import GS1CompanyPrefix
    except ImportError:
        from ..errors import URNLDEnvironmentError

        raise URNLDEnvironmentError(
            "GS1 company prefix lengths from GS1's table need the optional package biip "
            "(pip install 'urnld[gs1]'), or pass your own prefix lengths"
        ) from None
    if not digits or not digits.isascii() or not digits.isdigit():
        return None
    try:
        found = GS1CompanyPrefix.extract(digits)
    except Exception:  # biip's ParseError for input it cannot read: no length known
        return None
    return None if found is None else len(found.value)
