"""rdflib integration: URN terms, a URN-aware store, SPARQL functions, graph canonicalization.

Normalizing IRIs departs from RDF 1.1, which compares IRIs as plain strings: that is what you opt
into by using :class:`URNStore` (``Graph(store="URN")``) or :func:`canonicalize`.

Importing this module registers the ``urnfn:`` SPARQL functions with rdflib.

>>> from rdflib import Graph, URIRef
>>> from urnld.rdf import URNRef
>>> URNRef("URN:ISBN:0-395-36341-1") == URIRef("urn:isbn:0395363411")
True
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from ._functions import URNFN, register_functions

if TYPE_CHECKING:
    from .._kernel import CanonOptions
    from ..endpoint import (
        BatchProgress,
        EndpointBatchError,
        EndpointError,
        apply_undo,
        canonicalize_endpoint,
        check_endpoint,
    )
    from ._canonicalize import CanonicalizeResult, canonicalize, check_graph
    from ._document import canonicalize_document, check_output_format, write_graph
    from ._graph import URNGraph
    from ._query import canonical_query
    from ._rdfc import (
        DEFAULT_MAX_PLANNED_WORK,
        DEFAULT_MAX_TIME,
        DEFAULT_MAX_WORK,
        CanonicalizationTooComplex,
        RDFCInputError,
        canonical_nquads,
        digest,
        write_canonical_nquads,
    )
    from ._store import URNStore
    from ._term import NotAURNError, URNRef

__all__ = [
    "DEFAULT_MAX_PLANNED_WORK",
    "DEFAULT_MAX_TIME",
    "DEFAULT_MAX_WORK",
    "URNFN",
    "BatchProgress",
    "CanonOptions",
    "CanonicalizationTooComplex",
    "CanonicalizeResult",
    "EndpointBatchError",
    "EndpointError",
    "NotAURNError",
    "RDFCInputError",
    "URNGraph",
    "URNRef",
    "URNStore",
    "apply_undo",
    "canonical_nquads",
    "canonical_query",
    "canonicalize",
    "canonicalize_document",
    "canonicalize_endpoint",
    "check_endpoint",
    "check_graph",
    "check_output_format",
    "digest",
    "register_functions",
    "write_canonical_nquads",
    "write_graph",
]

# name -> submodule; imported on first access so `import urnld.rdf` stays light.
_LAZY = {
    "URNRef": "._term",
    "NotAURNError": "._term",
    "URNStore": "._store",
    "URNGraph": "._graph",
    "canonicalize": "._canonicalize",
    "CanonOptions": "urnld._kernel",
    "CanonicalizeResult": "._canonicalize",
    "check_graph": "._canonicalize",
    "CanonicalizationTooComplex": "._rdfc",
    "RDFCInputError": "._rdfc",
    "canonical_nquads": "._rdfc",
    "DEFAULT_MAX_PLANNED_WORK": "._rdfc",
    "DEFAULT_MAX_TIME": "._rdfc",
    "DEFAULT_MAX_WORK": "._rdfc",
    "digest": "._rdfc",
    "write_canonical_nquads": "._rdfc",
    "EndpointError": "urnld.endpoint",
    "BatchProgress": "urnld.endpoint",
    "EndpointBatchError": "urnld.endpoint",
    "canonicalize_endpoint": "urnld.endpoint",
    "check_endpoint": "urnld.endpoint",
    "canonical_query": "._query",
    "apply_undo": "urnld.endpoint",
    "canonicalize_document": "._document",
    "check_output_format": "._document",
    "write_graph": "._document",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'urnld.rdf' has no attribute {name!r}")
    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return __all__


register_functions()
