"""URN-aware JSON-LD on top of pyld.

>>> from urnld import jsonld
>>> loader = jsonld.URNDocumentLoader(
...     {"urn:example:ctx:v1": {"@context": {"uuid": "urn:uuid:", "@vocab": "https://schema.org/"}}})
>>> doc = {"@context": "URN:EXAMPLE:ctx:v1",
...        "@id": "URN:UUID:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6", "name": "Ada"}
>>> jsonld.compact(doc, "urn:example:ctx:v1", loader=loader)["@id"]
'uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6'
"""

from __future__ import annotations

from ._api import compact, dataset_from_pyld, expand, flatten, frame, from_rdf, to_rdf
from ._context import context_from_graph, context_from_namespaces, context_from_xml
from ._errors import (
    CatalogError,
    Hazard,
    JsonLdProcessingError,
    URNBaseError,
    URNContextError,
    URNContextWarning,
)
from ._inline import inline_contexts, oxigraph_deviates
from ._loader import CATALOG_FILE, URNDocumentLoader
from ._notes import ReadingNote, reading_notes
from ._rdflib import rdflib_loader

__all__ = [
    "CATALOG_FILE",
    "CatalogError",
    "Hazard",
    "JsonLdProcessingError",
    "ReadingNote",
    "URNBaseError",
    "URNContextError",
    "URNContextWarning",
    "URNDocumentLoader",
    "compact",
    "context_from_graph",
    "context_from_namespaces",
    "context_from_xml",
    "dataset_from_pyld",
    "expand",
    "flatten",
    "frame",
    "from_rdf",
    "inline_contexts",
    "oxigraph_deviates",
    "rdflib_loader",
    "reading_notes",
    "to_rdf",
]

for _name in __all__:
    _obj = globals()[_name]
    if hasattr(_obj, "__module__") and not isinstance(_obj, str):
        _obj.__module__ = "urnld.jsonld"
del _name, _obj


def __dir__() -> list[str]:
    return __all__
