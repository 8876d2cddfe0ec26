"""What a URN offers beyond its parts and canonical form: builders, decoded views, typed parts,
resolution and its RFC 2141 / RFC 8141 forms (mixed into :class:`urnld.URN`).

Each is implemented in its own module, imported on first use, so parsing never pays for them.

>>> from urnld import URN
>>> URN("urn:example:M%C4%81ori").nss_decoded
'Māori'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from ..errors import URNConversionError
from ._display import display_form
from ._legacy import legacy_escaped
from ._parser import RFC2141_RE, RFC8141_RE, diagnose

if TYPE_CHECKING:
    import uuid
    from collections.abc import Iterable

    from ._params import Params
    from ._parser import Mode
    from ._urn import URN, Parts

__all__ = ["URNViews"]


def _as_urn(view: URNViews) -> URN:
    # Only URN derives from URNViews: the functions behind these methods are typed for it.
    return cast("URN", view)


def _urn_class(cls: type[URNViews]) -> type[URN]:
    return cast("type[URN]", cls)


class URNViews:
    """The builders, views and other forms of :class:`urnld.URN` (which derives from this).

    >>> from urnld import URN
    >>> str(URN.from_isbn("0-8044-2957-x"))
    'urn:isbn:080442957X'
    """

    __slots__ = ()

    if TYPE_CHECKING:  # provided by URN
        _text: str
        _mode: Mode

        @property
        def nid(self) -> str: ...
        @property
        def nss(self) -> str: ...
        @property
        def parts(self) -> Parts: ...
        @property
        def assigned_name(self) -> str: ...
        @property
        def has_components(self) -> bool: ...

    # -- native names, parameters, typed parts, resolution -------------------------------
    # Implemented in their own modules, imported on first use: parsing never pays for them.

    @classmethod
    def build(
        cls,
        nid: str,
        nss_raw: str,
        *,
        r: str | None = None,
        q: str | None = None,
        f: str | None = None,
        validate: bool = True,
    ) -> URN:
        """A URN from unencoded text, each part percent-encoded by its grammar (RFC 8141 §2).

        UTF-8 ``%XX`` escapes with upper-case hex; ``%`` becomes ``%25``; ``?`` and ``#`` in
        the NSS (and a leading ``/``) are escaped so that they cannot start a component. The
        result is in canonical form (the namespace's rule applies) and, unless
        ``validate=False``, must pass every level of :func:`urnld.check` (a wrong check digit or
        an ``X-`` NID raises :class:`~urnld.URNValidationError`). Text without a UTF-8 form
        raises :class:`~urnld.URNEncodingError`.

        >>> from urnld import URN
        >>> str(URN.build("isbn", "978-0-14-143951-8"))
        'urn:isbn:9780141439518'
        >>> str(URN.build("example", "a?b#c", q="lang=en"))
        'urn:example:a%3Fb%23c?=lang=en'
        """
        from ._native import build

        return build(_urn_class(cls), nid, nss_raw, r=r, q=q, f=f, validate=validate)

    @classmethod
    def from_uuid(cls, value: uuid.UUID | str) -> URN:
        """``urn:uuid:`` for a :class:`uuid.UUID` (or a string it accepts), RFC 9562 §4.

        >>> import uuid
        >>> from urnld import URN
        >>> str(URN.from_uuid(uuid.UUID(int=0)))
        'urn:uuid:00000000-0000-0000-0000-000000000000'
        """
        from ._native import from_uuid

        return from_uuid(_urn_class(cls), value)

    @classmethod
    def from_oid(cls, value: str | Iterable[int]) -> URN:
        """``urn:oid:`` for a dotted OID or integer arcs (RFC 3061 §2).

        >>> from urnld import URN
        >>> str(URN.from_oid("1.3.6.1"))
        'urn:oid:1.3.6.1'
        """
        from ._native import from_oid

        return from_oid(_urn_class(cls), value)

    @classmethod
    def from_isbn(cls, value: str) -> URN:
        """``urn:isbn:`` for an ISBN (hyphens, spaces allowed), canonical, check digit checked.

        >>> from urnld import URN
        >>> str(URN.from_isbn("0-8044-2957-x"))
        'urn:isbn:080442957X'
        """
        from ._native import from_isbn

        return from_isbn(_urn_class(cls), value)

    @classmethod
    def from_issn(cls, value: str) -> URN:
        """``urn:issn:`` for an ISSN, canonical, check character checked.

        >>> from urnld import URN
        >>> str(URN.from_issn("1046-8188"))
        'urn:issn:1046-8188'
        """
        from ._native import from_issn

        return from_issn(_urn_class(cls), value)

    @property
    def nss_decoded(self) -> str:
        """The NSS with every ``%XX`` escape decoded as UTF-8 (the inverse of :meth:`build`).

        Raises :class:`~urnld.URNEncodingError` where an escape is not UTF-8.

        >>> from urnld import URN
        >>> URN("urn:example:M%C4%81ori%2Fa").nss_decoded
        'Māori/a'
        """
        from ._encode import decode_nss

        return decode_nss(self.nss)

    @property
    def f_decoded(self) -> str | None:
        """The f-component with its escapes decoded as UTF-8, or None.

        >>> from urnld import URN
        >>> URN("urn:example:a#%C2%A71").f_decoded
        '§1'
        """
        f = self.parts[4]
        if f is None:
            return None
        from ._encode import decode_component

        return decode_component(f)

    @property
    def r_decoded(self) -> str | None:
        """The r-component with its escapes decoded as UTF-8, or None (the inverse of
        :func:`~urnld.encode_component` with ``"r_component"``).

        >>> from urnld import URN
        >>> URN("urn:example:a?+cc=%C3%A9").r_decoded
        'cc=é'
        """
        r = self.parts[2]
        if r is None:
            return None
        from ._encode import decode_component

        return decode_component(r)

    @property
    def q_decoded(self) -> str | None:
        """The q-component with its escapes decoded as UTF-8, or None.

        >>> from urnld import URN
        >>> URN("urn:example:a?=q=%E2%82%AC1%26a").q_decoded
        'q=€1&a'
        """
        q = self.parts[3]
        if q is None:
            return None
        from ._encode import decode_component

        return decode_component(q)

    @property
    def q_params(self) -> Params:
        """The q-component as ordered, decoded ``(key, value)`` pairs (repeated keys kept).

        >>> from urnld import URN
        >>> URN("urn:example:a?=lang=en&lang=fr&x").q_params
        Params([('lang', 'en'), ('lang', 'fr'), ('x', None)])
        """
        from ._params import parse_params

        return parse_params(self.parts[3])

    @property
    def r_params(self) -> Params:
        """The r-component as ordered, decoded ``(key, value)`` pairs.

        >>> from urnld import URN
        >>> URN("urn:example:a?+cc=us").r_params.get("cc")
        'us'
        """
        from ._params import parse_params

        return parse_params(self.parts[2])

    @property
    def typed_nss(self) -> object | None:
        """The namespace's typed, immutable view of the NSS; None when the rule has none.

        Raises :class:`~urnld.URNValidationError` when the NSS breaks its namespace's rule.

        >>> from urnld import URN
        >>> URN("URN:UUID:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6").typed_nss
        UUID('f81d4fae-7dec-11d0-a765-00a0c91e6bf6')
        >>> URN("urn:example:x").typed_nss is None
        True
        """
        from ._native import typed_nss

        return typed_nss(_as_urn(self))

    def functional_equivalents(self) -> tuple[URN, ...]:
        """Other canonical URNs naming the same resource, by the namespace's rule.

        Beyond URN-equivalence (draft-ietf-urnbis-rfc2141bis-urn-03 §6): an ISBN-10 and its
        ISBN-13, an ISBN and its ISBN-A DOI. Empty without such a rule or for an NSS that
        breaks its rule. See :func:`urnld.functionally_equivalent`.

        >>> from urnld import URN
        >>> [str(u) for u in URN("urn:isbn:0-395-36341-1").functional_equivalents()]
        ['urn:isbn:9780395363416', 'urn:doi:10.978.0395/363416']
        """
        from ._native import functional_equivalents

        return functional_equivalents(_as_urn(self))

    def equivalent_iris(self) -> tuple[str, ...]:
        """IRIs (not URNs) naming the same resource by the namespace's own standard.

        An EPC's canonical GS1 Digital Link URI (GS1 TDS 2.x): the same GS1 key, written for
        the web. Empty without such a rule or for an NSS that breaks its rule. Resolver
        addresses are not here: see :meth:`resolve` and :mod:`urnld.resolvers`.

        >>> from urnld import URN
        >>> URN("urn:epc:id:sgtin:4012345.011111.987").equivalent_iris()
        ('https://id.gs1.org/01/04012345111118/21/987',)
        """
        from ._native import equivalent_iris

        return equivalent_iris(_as_urn(self))

    def resolve(self, template: str | None = None) -> str:
        """A locator for this URN from an RFC 6570 *template* (RFC 8141 §1.2.1, §2.3.2-2.3.3).

        Without a template, the first matching entry of :func:`urnld.resolvers.resolvers`.
        Nothing is fetched: the locator is only built.

        >>> from urnld import URN
        >>> URN("urn:ietf:rfc:8141#section-2").resolve()
        'https://www.rfc-editor.org/rfc/rfc8141#section-2'
        >>> URN("urn:example:a?=x=1").resolve("https://r.example/{nss}")
        'https://r.example/a?x=1'
        """
        from .. import resolvers

        if template is not None:
            return resolvers.expand(_as_urn(self), template)
        found = resolvers.locators(_as_urn(self))
        if not found:
            raise resolvers.ResolverError(f"no resolver is known for {self._text!r}")
        return found[0][1]

    # pydantic v2 finds these on a field typed URN; the schema module (and pydantic) load then.
    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: Any) -> Any:
        from ._schema import urn_schema

        return urn_schema(_urn_class(cls))

    @classmethod
    def __get_pydantic_json_schema__(cls, schema: Any, handler: Any) -> Any:
        from ._schema import json_schema

        return json_schema()

    # -- other forms ---------------------------------------------------------------------

    def to_rfc2141(self) -> str:
        """This name in RFC 2141 syntax; :class:`~urnld.URNConversionError` when impossible.

        RFC 2141 had no components and excluded ``&`` and ``~``; encoding them would change
        the name under RFC 8141 (escapes are never decoded), so such URNs have no RFC 2141 form.

        >>> from urnld import URN
        >>> URN("URN:ISBN:0-395-36341-1").to_rfc2141()
        'URN:ISBN:0-395-36341-1'
        """
        if self.has_components:
            raise URNConversionError(
                f"{self._text!r} has r-, q- or f-components, which RFC 2141 does not allow"
            )
        text = self.assigned_name
        if RFC2141_RE.fullmatch(text) is None:
            raise URNConversionError(f"{self._text!r} cannot be written in RFC 2141 syntax: "
                                     f"{diagnose(text, 'rfc2141').reason}")
        return text

    def to_rfc8141(self) -> str:
        """This name in RFC 8141 syntax, read the same way; :class:`~urnld.URNConversionError`
        when impossible.

        An RFC 2141 (legacy mode) NSS may hold ``?``, ``#`` and a leading ``/`` as data; RFC
        8141 would read the first two as the start of components and refuses the third. They
        are percent-encoded (``%3F``, ``%23``, ``%2F``), as RFC 2141 §2.3.2 already asked.
        An NID that RFC 8141 does not allow (one character, or a final ``-``) has no such form.
        An RFC 8141 URN comes back as written.

        >>> from urnld import URN
        >>> URN("urn:foo:a?b#c", mode="rfc2141").to_rfc8141()
        'urn:foo:a%3Fb%23c'
        >>> URN("urn:foo:/a/b", mode="rfc2141").to_rfc8141()
        'urn:foo:%2Fa/b'
        """
        if self._mode == "rfc8141":
            return self._text
        text = legacy_escaped(self._text)
        if RFC8141_RE.fullmatch(text) is None:
            raise URNConversionError(f"{self._text!r} cannot be written in RFC 8141 syntax: "
                                     f"{diagnose(text, 'rfc8141').reason}")
        return text

    def display(self) -> str:
        """A human-readable form: UTF-8 escapes of printable non-ASCII characters decoded.

        For display only, never for comparison: ASCII escapes stay as they are (``%2C`` is
        not ``,``), and so do escapes of invisible or ambiguous characters.

        >>> from urnld import URN
        >>> URN("urn:example:M%C4%81ori%2C%20x").display()
        'urn:example:Māori%2C%20x'
        """
        return display_form(self._text)
