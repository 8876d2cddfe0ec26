"""Errors of :mod:`urnld.read`::

    ValueError
    └── URNError                          (urnld.errors)
        └── ReadError                     an RDF input cannot be read (syntax, file, parser)
            └── UnsafeXMLError            XML entity declarations or external entities

URN base hazards are :class:`urnld.jsonld.URNBaseError` in every syntax.
"""

from __future__ import annotations

from ..errors import ReadError, UnsafeXMLError

__all__ = ["ReadError", "UnsafeXMLError"]
