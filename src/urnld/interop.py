"""A URN as the generic URI objects other libraries expect (glue outside the core).

Each function imports its library on call: :func:`to_urllib` the standard library's
``urllib.parse``, :func:`to_rfc3986` the ``rfc3986`` package (``pip install 'urnld[rfc3986]'``),
:func:`to_uriref` rdflib. The URI is the URN as written; call ``canonical()`` first for the
canonical form. A URN is an absolute URI with scheme ``urn`` and no authority (RFC 8141 §2);
its r- and q-components sit in the URI query (``+…`` / ``=…``), its f-component in the fragment.

>>> from urnld import URN
>>> to_urllib(URN("urn:example:a?=lang=en#p1"))
SplitResult(scheme='urn', netloc='', path='example:a', query='=lang=en', fragment='p1')
>>> to_uriref(URN("URN:ISBN:0-395-36341-1").canonical())
rdflib.term.URIRef('urn:isbn:0395363411')
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from urllib.parse import SplitResult, urlsplit

from ._core import URN

if TYPE_CHECKING:
    from rdflib import URIRef

__all__ = ["to_rfc3986", "to_uriref", "to_urllib"]


def _text(urn: URN | str) -> str:
    return str(urn if isinstance(urn, URN) else URN(urn))


def to_urllib(urn: URN | str) -> SplitResult:
    """``urllib.parse.urlsplit`` of the URN (validated first)."""
    return urlsplit(_text(urn))


def to_rfc3986(urn: URN | str) -> Any:
    """An ``rfc3986.URIReference`` of the URN (validated first).

    >>> ref = to_rfc3986("urn:example:a#f")
    >>> ref.scheme, ref.path, ref.fragment
    ('urn', 'example:a', 'f')
    """
    import rfc3986

    return rfc3986.uri_reference(_text(urn))


def to_uriref(urn: URN | str) -> URIRef:
    """An ``rdflib.URIRef`` of the URN (validated first)."""
    from rdflib import URIRef

    return URIRef(_text(urn))
