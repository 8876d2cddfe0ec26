"""URNs from native names: per-part percent-encoding and the interop constructors.

The functions behind :meth:`urnld.URN.build`, :meth:`~urnld.URN.from_uuid`,
:meth:`~urnld.URN.from_oid`, :meth:`~urnld.URN.from_isbn`, :meth:`~urnld.URN.from_issn`,
:attr:`~urnld.URN.typed_nss` and :meth:`~urnld.URN.functional_equivalents`; imported on first
use, so parsing never pays for them. They are given the URN class (or a URN) by the caller
instead of importing the URN module, whose methods import this one.

>>> from urnld import URN
>>> str(build(URN, "example", "a b/c?d"))
'urn:example:a%20b/c%3Fd'
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Final

from ..errors import URNError, URNValidationError
from ..findings import CheckOptions, Severity
from ._encode import encode_component
from ._rules import NamespaceRule, get_rule

if TYPE_CHECKING:
    import uuid as _uuid

    from ._urn import URN

__all__ = [
    "build",
    "equivalent_iris",
    "from_isbn",
    "from_issn",
    "from_oid",
    "from_uuid",
    "functional_equivalents",
    "typed_nss",
]

_NSS_CODES: Final = frozenset({"nss-invalid", "nss-check-digit"})
_OID_ARC: Final = re.compile(r"0|[1-9][0-9]*")


def build(
    cls: type[URN],
    nid: str,
    nss_raw: str,
    *,
    r: str | None = None,
    q: str | None = None,
    f: str | None = None,
    validate: bool = True,
) -> URN:
    """A URN from unencoded parts, each percent-encoded by its own grammar, in canonical form.

    With *validate* (the default) the result must pass every level of :func:`urnld.check`
    (namespace grammar, check digits, NID policy), else :class:`~urnld.URNValidationError`;
    ``validate=False`` builds what the parts spell, for lenient construction.

    >>> from urnld import URN
    >>> str(build(URN, "isbn", "978-0-14-143951-8"))
    'urn:isbn:9780141439518'
    >>> str(build(URN, "Example", "Māori", q="lang=mi", f="§1"))
    'urn:example:M%C4%81ori?=lang=mi#%C2%A71'
    >>> build(URN, "isbn", "0-395-36341-2")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    urnld.URNValidationError: 'urn:isbn:0395363412' is not a valid URN: ... [nss-check-digit]
    >>> str(build(URN, "isbn", "0-395-36341-2", validate=False))
    'urn:isbn:0395363412'
    """
    if not isinstance(nid, str):
        raise TypeError(f"nid must be str, not {type(nid).__name__}")
    urn = cls.from_parts(
        nid,
        encode_component(nss_raw, "nss"),
        None if r is None else encode_component(r, "r_component"),
        None if q is None else encode_component(q, "q_component"),
        None if f is None else encode_component(f, "f_component"),
    ).canonical()
    if validate:
        cls._validate_text(str(urn), "rfc8141")
    return urn


def require_valid_nss(urn: URN) -> URN:
    """*urn*, when its NSS passes its namespace's rule; else :class:`~urnld.URNValidationError`.

    Only the rule's own error findings count (what :func:`urnld.check` reports as
    ``nss-invalid`` / ``nss-check-digit`` errors), with spans in the URN's text.
    """
    nss_start = 4 + len(urn.nid) + 1
    errors = [
        f.shifted(nss_start)
        for f in get_rule(urn.nid).check_nss(urn.nss, CheckOptions())
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
    return rule.typed_nss(type(urn)(urn.assigned_key).nss)


def functional_equivalents(urn: URN) -> tuple[URN, ...]:
    """Other canonical URNs for the resource *urn* names, by its namespace's rule.

    Empty when the rule defines none or the NSS breaks the rule (a wrong check digit names no
    book). See :meth:`urnld.URN.functional_equivalents`.
    """
    rule = get_rule(urn.nid)
    if type(rule).functional_equivalents is NamespaceRule.functional_equivalents:
        return ()
    try:
        require_valid_nss(urn)
    except URNValidationError:
        return ()
    cls = type(urn)
    return tuple(cls(text) for text in rule.functional_equivalents(cls(urn.assigned_key).nss))


def equivalent_iris(urn: URN) -> tuple[str, ...]:
    """IRIs naming the resource *urn* names, by its namespace's standard (see
    :meth:`urnld.URN.equivalent_iris`). Empty when the NSS breaks its rule."""
    rule = get_rule(urn.nid)
    if type(rule).equivalent_iris is NamespaceRule.equivalent_iris:
        return ()
    try:
        require_valid_nss(urn)
    except URNValidationError:
        return ()
    return rule.equivalent_iris(type(urn)(urn.assigned_key).nss)


def from_uuid(cls: type[URN], value: _uuid.UUID | str) -> URN:
    """``urn:uuid:`` for a :class:`uuid.UUID` or any string :class:`uuid.UUID` accepts.

    >>> from urnld import URN
    >>> str(from_uuid(URN, "{F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6}"))
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
    return cls("urn:uuid:" + str(value))


def from_oid(cls: type[URN], value: str | Iterable[int]) -> URN:
    """``urn:oid:`` for a dotted OID string or a sequence of integer arcs (RFC 3061 §2).

    >>> from urnld import URN
    >>> str(from_oid(URN, "1.3.6.1")), str(from_oid(URN, [2, 25, 7]))
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
    return cls("urn:oid:" + text)


def _from_number(cls: type[URN], nid: str, value: str) -> URN:
    if not isinstance(value, str):
        raise TypeError(f"expected str, not {type(value).__name__}")
    # People write ISBNs with spaces too (ISO 2108 §5); a URN never has them (RFC 3187 §5).
    compact = "".join(value.split())
    return require_valid_nss(build(cls, nid, compact))


def from_isbn(cls: type[URN], value: str) -> URN:
    """``urn:isbn:`` for an ISBN-10 or ISBN-13 (hyphens or spaces allowed), check digit checked.

    >>> from urnld import URN
    >>> str(from_isbn(URN, "978 0 14 143951 8"))
    'urn:isbn:9780141439518'
    """
    return _from_number(cls, "isbn", value)


def from_issn(cls: type[URN], value: str) -> URN:
    """``urn:issn:`` for an ISSN, check character checked.

    >>> from urnld import URN
    >>> str(from_issn(URN, "0317 8471"))
    'urn:issn:0317-8471'
    """
    return _from_number(cls, "issn", value)
