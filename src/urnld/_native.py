"""URNs from native names: per-part percent-encoding and the interop constructors.

The functions behind :meth:`urnld.URN.build`, :meth:`~urnld.URN.from_uuid`,
:meth:`~urnld.URN.from_oid`, :meth:`~urnld.URN.from_isbn`, :meth:`~urnld.URN.from_issn` and
:attr:`~urnld.URN.typed_nss`; imported on first use, so parsing never pays for them.

>>> str(build("example", "a b/c?d"))
'urn:example:a%20b/c%3Fd'
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Final

from ._encode import encode_component
from ._urn import URN
from .errors import URNError
from .namespaces import NamespaceRule, get_rule

if TYPE_CHECKING:
    import uuid as _uuid

__all__ = [
    "build",
    "from_isbn",
    "from_issn",
    "from_oid",
    "from_uuid",
    "functional_equivalents",
    "functionally_equivalent",
    "typed_nss",
]

_NSS_CODES: Final = frozenset({"nss-invalid", "nss-check-digit"})
_OID_ARC: Final = re.compile(r"0|[1-9][0-9]*")


def build(
    nid: str,
    nss_raw: str,
    *,
    r: str | None = None,
    q: str | None = None,
    f: str | None = None,
) -> URN:
    """A URN from unencoded parts, each percent-encoded by its own grammar, in canonical form.

    >>> str(build("isbn", "978-0-14-143951-8"))
    'urn:isbn:9780141439518'
    >>> str(build("Example", "Māori", q="lang=mi", f="§1"))
    'urn:example:M%C4%81ori?=lang=mi#%C2%A71'
    """
    if not isinstance(nid, str):
        raise TypeError(f"nid must be str, not {type(nid).__name__}")
    urn = URN.from_parts(
        nid,
        encode_component(nss_raw, "nss"),
        None if r is None else encode_component(r, "r_component"),
        None if q is None else encode_component(q, "q_component"),
        None if f is None else encode_component(f, "f_component"),
    )
    return urn.canonical()


def require_valid_nss(urn: URN) -> URN:
    """*urn*, when its NSS passes its namespace's rule; else :class:`~urnld.URNValidationError`."""
    from ._check import URNValidationError, check
    from .findings import Severity

    errors = [
        f
        for f in check(urn.assigned_name, urn.mode)
        if f.code in _NSS_CODES and f.severity is Severity.ERROR
    ]
    if errors:
        raise URNValidationError(str(urn), errors)
    return urn


def typed_nss(urn: URN) -> object | None:
    """The namespace's typed view of *urn*'s NSS (see :attr:`urnld.URN.typed_nss`)."""
    rule = get_rule(urn.nid)
    if type(rule).typed_nss is NamespaceRule.typed_nss:
        return None
    require_valid_nss(urn)
    return rule.typed_nss(URN(urn.assigned_key).nss)


def functional_equivalents(urn: URN) -> tuple[URN, ...]:
    """Other canonical URNs for the resource *urn* names, by its namespace's rule.

    Empty when the rule defines none or the NSS breaks the rule (a wrong check digit names no
    book). See :meth:`urnld.URN.functional_equivalents`.
    """
    rule = get_rule(urn.nid)
    if type(rule).functional_equivalents is NamespaceRule.functional_equivalents:
        return ()
    from ._check import URNValidationError

    try:
        require_valid_nss(urn)
    except URNValidationError:
        return ()
    return tuple(URN(text) for text in rule.functional_equivalents(URN(urn.assigned_key).nss))


def functionally_equivalent(a: URN | str, b: URN | str) -> bool:
    """URN-equivalent, or functionally equivalent by a namespace rule (components ignored).

    >>> functionally_equivalent("urn:isbn:0-395-36341-1", "URN:ISBN:978-0-395-36341-6")
    True
    >>> functionally_equivalent("urn:isbn:9788898392315", "urn:doi:10.978.8898392/315")
    True
    >>> functionally_equivalent("urn:isbn:0395363411", "urn:isbn:080442957X")
    False
    """
    ua = a if isinstance(a, URN) else URN(a)
    ub = b if isinstance(b, URN) else URN(b)
    key = ub.assigned_key
    return ua.assigned_key == key or any(
        other.assigned_key == key for other in functional_equivalents(ua)
    )


def from_uuid(value: _uuid.UUID | str) -> URN:
    """``urn:uuid:`` for a :class:`uuid.UUID` or any string :class:`uuid.UUID` accepts.

    >>> str(from_uuid("{F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6}"))
    'urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6'
    """
    import uuid as _uuid  # here: importing uuid costs `import urnld` the time of `platform`

    if not isinstance(value, _uuid.UUID):
        if not isinstance(value, str):
            raise TypeError(f"from_uuid() takes uuid.UUID or str, not {type(value).__name__}")
        try:
            value = _uuid.UUID(value)
        except ValueError:
            raise URNError(f"{value!r} is not a UUID (RFC 9562 §4)") from None
    return URN("urn:uuid:" + str(value))


def from_oid(value: str | Iterable[int]) -> URN:
    """``urn:oid:`` for a dotted OID string or a sequence of integer arcs (RFC 3061 §2).

    >>> str(from_oid("1.3.6.1")), str(from_oid([2, 25, 7]))
    ('urn:oid:1.3.6.1', 'urn:oid:2.25.7')
    """
    if isinstance(value, str):
        text = value
    else:
        arcs = list(value)
        if not all(type(a) is int and a >= 0 for a in arcs):
            raise URNError(f"OID arcs are non-negative integers, not {arcs!r}")
        text = ".".join(map(str, arcs))
    pieces = text.split(".")
    bad = next((i for i, p in enumerate(pieces) if not _OID_ARC.fullmatch(p)), None)
    if bad is not None:
        raise URNError(
            f"{text!r} is not an OID: arc {bad + 1} {pieces[bad]!r} is not a number without "
            "leading zeros (RFC 3061 §2)"
        )
    return URN("urn:oid:" + text)


def _from_number(nid: str, value: str) -> URN:
    if not isinstance(value, str):
        raise TypeError(f"expected str, not {type(value).__name__}")
    # People write ISBNs with spaces too (ISO 2108 §5); a URN never has them (RFC 3187 §5).
    compact = "".join(value.split())
    return require_valid_nss(build(nid, compact))


def from_isbn(value: str) -> URN:
    """``urn:isbn:`` for an ISBN-10 or ISBN-13 (hyphens or spaces allowed), check digit checked.

    >>> str(from_isbn("978 0 14 143951 8"))
    'urn:isbn:9780141439518'
    """
    return _from_number("isbn", value)


def from_issn(value: str) -> URN:
    """``urn:issn:`` for an ISSN, check character checked.

    >>> str(from_issn("0317 8471"))
    'urn:issn:0317-8471'
    """
    return _from_number("issn", value)
