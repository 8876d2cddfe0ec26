"""Typed, immutable views of namespace-specific strings: what :attr:`urnld.URN.typed_nss` returns.

A namespace rule defines its view by overriding :meth:`NamespaceRule.typed_nss`; the views of
the built-in rules are here. Every view's ``str()`` is the canonical NSS it was read from, so
``URN.from_parts(u.nid, str(u.typed_nss))`` rebuilds the canonical assigned-name.

>>> from urnld import URN
>>> URN("urn:oid:1.3.6.1.4.1").typed_nss
OID(arcs=(1, 3, 6, 1, 4, 1))
>>> URN("URN:ISBN:978-0-14-143951-8").typed_nss.registrant
'14'
>>> URN("urn:ietf:params:scim:schemas:core:2.0:User").typed_nss.scim
SCIMName(type='schemas', name='core', version='2.0', resource='User')
"""

from __future__ import annotations

import dataclasses
import re
from typing import Final

__all__ = ["EPC", "ISBN", "ISSN", "NBN", "OID", "IETFName", "LexName", "SCIMName"]

_VERSION: Final = re.compile(r"[0-9]+(?:\.[0-9]+)*")
_NUMBERED: Final = ("rfc", "fyi", "std", "bcp")


@dataclasses.dataclass(frozen=True, slots=True)
class ISBN:
    """An ISBN split into its ISO 2108 elements (ranges from ``stdnum.isbn``).

    ``prefix`` is ``""`` for an ISBN-10. ``registrant`` and ``publication`` are ``""`` where
    the International ISBN Agency's range table does not cover the group.

    >>> v = ISBN.parse("080442957X")
    >>> v.group, v.registrant, v.publication, v.check_digit
    ('0', '8044', '2957', 'X')
    >>> v.isbn13, v.hyphenated
    ('9780804429573', '0-8044-2957-X')
    """

    prefix: str
    group: str
    registrant: str
    publication: str
    check_digit: str

    @classmethod
    def parse(cls, compact: str) -> ISBN:
        """Read a compact ISBN-10 or ISBN-13 (the canonical ``urn:isbn`` NSS)."""
        from stdnum import isbn

        return cls(*isbn.split(compact))

    @property
    def compact(self) -> str:
        """Digits (and ``X``) only: the canonical NSS."""
        return "".join(dataclasses.astuple(self))

    @property
    def hyphenated(self) -> str:
        """The elements joined by hyphens, as printed on books."""
        return "-".join(p for p in dataclasses.astuple(self) if p)

    @property
    def isbn13(self) -> str:
        """The ISBN-13 form (an ISBN-10 gets ``978`` and a new check digit)."""
        from stdnum import isbn

        return str(isbn.to_isbn13(self.compact))

    @property
    def isbn10(self) -> str | None:
        """The ISBN-10 form, or None for a ``979`` ISBN-13 (which has none)."""
        from stdnum import isbn

        if self.prefix == "979":
            return None
        return str(isbn.to_isbn10(self.compact))

    def __str__(self) -> str:
        return self.compact


@dataclasses.dataclass(frozen=True, slots=True)
class ISSN:
    """An ISSN: seven digits and a check character (RFC 3044 §5).

    >>> v = ISSN.parse("0259-000X")
    >>> v.digits, v.check_digit, str(v)
    ('0259000', 'X', '0259-000X')
    """

    digits: str
    check_digit: str

    @classmethod
    def parse(cls, nss: str) -> ISSN:
        """Read the canonical ``NNNN-NNNC`` form."""
        compact = nss.replace("-", "")
        return cls(compact[:7], compact[7])

    def __str__(self) -> str:
        return f"{self.digits[:4]}-{self.digits[4:]}{self.check_digit}"


@dataclasses.dataclass(frozen=True, slots=True)
class NBN:
    """A National Bibliography Number: country, sub-namespaces and NBN string (RFC 8458 §4.2).

    >>> NBN.parse("de:gbv:089-3321752946")
    NBN(country='de', subnamespaces=('gbv', '089'), nbn_string='3321752946')
    """

    country: str
    subnamespaces: tuple[str, ...]
    nbn_string: str

    @classmethod
    def parse(cls, nss: str) -> NBN:
        """Read ``prefix "-" nbn-string`` (the first ``-`` ends the prefix)."""
        prefix, _, string = nss.partition("-")
        country, *subs = prefix.split(":")
        return cls(country, tuple(subs), string)

    @property
    def prefix(self) -> str:
        """Country code and sub-namespaces joined by ``:``."""
        return ":".join((self.country, *self.subnamespaces))

    def __str__(self) -> str:
        return f"{self.prefix}-{self.nbn_string}"


@dataclasses.dataclass(frozen=True, slots=True)
class SCIMName:
    """A SCIM schema or message URN under ``urn:ietf:params:scim`` (RFC 7643 §10.2).

    ``type`` is ``schemas``, ``api`` or ``param``; ``name`` the segments before the version
    (``core``, ``extension:enterprise``, ``messages``); ``version`` the first segment that is a
    dotted number (None without one); ``resource`` what follows it (None without one).
    """

    type: str
    name: str
    version: str | None
    resource: str | None

    def __str__(self) -> str:
        parts = [self.type, self.name]
        if self.version is not None:
            parts.append(self.version)
        if self.resource is not None:
            parts.append(self.resource)
        return ":".join(parts)


@dataclasses.dataclass(frozen=True, slots=True)
class IETFName:
    """An IETF URN: kind (``rfc``, ``bcp``, ``id``, ``params``, …) and the parts after it.

    >>> v = IETFName.parse("rfc:8141")
    >>> v.kind, v.number
    ('rfc', 8141)
    >>> IETFName.parse("params:xml:ns:yang:ietf-yang-types").parts
    ('xml', 'ns', 'yang', 'ietf-yang-types')
    """

    kind: str
    parts: tuple[str, ...]

    @classmethod
    def parse(cls, nss: str) -> IETFName:
        """Split the canonical NSS at ``:``."""
        kind, *parts = nss.split(":")
        return cls(kind, tuple(parts))

    @property
    def number(self) -> int | None:
        """The document number of ``rfc``, ``fyi``, ``std`` and ``bcp`` names, else None."""
        if self.kind in _NUMBERED and len(self.parts) == 1 and self.parts[0].isdigit():
            return int(self.parts[0])
        return None

    @property
    def value(self) -> str:
        """Everything after the kind."""
        return ":".join(self.parts)

    @property
    def scim(self) -> SCIMName | None:
        """The SCIM reading of ``params:scim:…`` names (RFC 7643 §10.2), else None.

        >>> IETFName.parse("params:scim:api:messages:2.0:ListResponse").scim
        SCIMName(type='api', name='messages', version='2.0', resource='ListResponse')
        """
        if self.kind != "params" or len(self.parts) < 3 or self.parts[0] != "scim":
            return None
        type_, *rest = self.parts[1:]
        at = next((i for i, p in enumerate(rest) if _VERSION.fullmatch(p)), None)
        if at is None or at == 0:
            return SCIMName(type_, rest[0], None, ":".join(rest[1:]) or None)
        return SCIMName(type_, ":".join(rest[:at]), rest[at], ":".join(rest[at + 1 :]) or None)

    def __str__(self) -> str:
        return ":".join((self.kind, *self.parts))


@dataclasses.dataclass(frozen=True, slots=True)
class OID:
    """An object identifier as integer arcs (RFC 3061 §2).

    >>> OID.parse("2.25.1").arcs, str(OID((1, 3, 6)))
    ((2, 25, 1), '1.3.6')
    """

    arcs: tuple[int, ...]

    @classmethod
    def parse(cls, nss: str) -> OID:
        """Read dot-separated decimal arcs."""
        return cls(tuple(int(a) for a in nss.split(".")))

    def __str__(self) -> str:
        return ".".join(map(str, self.arcs))


@dataclasses.dataclass(frozen=True, slots=True)
class EPC:
    """An EPC URN body: category (``id``, ``tag``, ``idpat``, ``class``, ``raw``…), scheme and
    the ``.``-separated fields (GS1 Tag Data Standard; RFC 5134 §2).

    >>> EPC.parse("id:sgtin:0614141.112345.400")
    EPC(category='id', scheme='sgtin', fields=('0614141', '112345', '400'))
    """

    category: str
    scheme: str | None
    fields: tuple[str, ...]

    @classmethod
    def parse(cls, nss: str) -> EPC:
        """``category ":" scheme ":" fields`` (scheme None when there are two segments)."""
        segs = nss.split(":", 2)
        if len(segs) == 2:
            return cls(segs[0], None, tuple(segs[1].split(".")))
        return cls(segs[0], segs[1], tuple(segs[2].split(".")))

    def __str__(self) -> str:
        head = self.category if self.scheme is None else f"{self.category}:{self.scheme}"
        return f"{head}:{'.'.join(self.fields)}"


@dataclasses.dataclass(frozen=True, slots=True)
class LexName:
    """A source of law: jurisdiction (code and units) and local-name parts (RFC 9676 §2.1).

    >>> v = LexName.parse("eu:commission:directive:2010-03-09;2010-19-eu")
    >>> v.jurisdiction, v.authority, v.measure, v.details
    ('eu', 'commission', 'directive', '2010-03-09;2010-19-eu')
    """

    jurisdiction: str
    units: tuple[str, ...]
    parts: tuple[str, ...]

    @classmethod
    def parse(cls, nss: str) -> LexName:
        """Split jurisdiction (``;`` units) from the ``:``-separated local name."""
        jurisdiction, *parts = nss.split(":")
        code, *units = jurisdiction.split(";")
        return cls(code, tuple(units), tuple(parts))

    def _part(self, i: int) -> str | None:
        return self.parts[i] if i < len(self.parts) else None

    @property
    def authority(self) -> str | None:
        """The issuing authority."""
        return self._part(0)

    @property
    def measure(self) -> str | None:
        """The type of measure."""
        return self._part(1)

    @property
    def details(self) -> str | None:
        """Date, number and further details (``:``-joined)."""
        return ":".join(self.parts[2:]) or None

    def __str__(self) -> str:
        return ":".join((";".join((self.jurisdiction, *self.units)), *self.parts))
