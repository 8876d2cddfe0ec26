"""RDF/XML through rdflib's own handler, with three changes made where rdflib allows them.

* **No entity declarations, no external entities**: a document that declares an entity (the
  "billion laughs" and its small quadratic cousins) or refers to an external one is refused
  before any of it reaches rdflib, as :mod:`urnld.xmlns` does. A DOCTYPE without declarations
  is fine.
* **Character data is buffered** by expat (``buffer_text``), so a literal made of a million
  ``&#65;`` references arrives in a few calls instead of a million string concatenations.
* **URN bases**: references under an ``xml:base`` that is a URN go through the base guard;
  rdflib's ``urljoin`` would leave ``<c>``, ``<#f>`` and ``<../d>`` relative in the graph.
"""

from __future__ import annotations

import xml.parsers.expat
from typing import Any
from xml.sax import handler as sax_handler
from xml.sax.expatreader import ExpatParser
from xml.sax.handler import ErrorHandler

from rdflib import Graph, URIRef
from rdflib.parser import InputSource
from rdflib.plugins.parsers.rdfxml import BASE, RDFXMLHandler

from .._kernel import (
    BASE_CODE,
    HAZARD_KINDS,
    RDFLIB_OUTCOME,
    base_message,
    is_urn,
    reference_kind,
    resolve,
)
from ..jsonld import Hazard
from ._errors import UnsafeXMLError
from ._guard import HazardMode, Position

__all__ = ["parse_rdfxml"]

_TEXT_BUFFER = 1 << 20


class _SafeExpat(ExpatParser):
    def __init__(self, source_name: str) -> None:
        super().__init__(namespaceHandling=1)
        self._source_name = source_name

    def reset(self) -> None:
        super().reset()
        parser: Any = self._parser  # type: ignore[attr-defined]  # made by reset()
        parser.SetParamEntityParsing(xml.parsers.expat.XML_PARAM_ENTITY_PARSING_NEVER)
        parser.EntityDeclHandler = self._refuse_declaration
        parser.UnparsedEntityDeclHandler = self._refuse_declaration
        parser.ExternalEntityRefHandler = self._refuse_external
        parser.buffer_text = True
        parser.buffer_size = _TEXT_BUFFER

    def _refuse(self, what: str) -> None:
        parser: Any = self._parser  # type: ignore[attr-defined]
        raise UnsafeXMLError(
            f"{self._source_name}:{parser.CurrentLineNumber}:{parser.CurrentColumnNumber + 1}: "
            f"{what} are refused in RDF/XML (protection against entity expansion and external "
            "entities); expand them in the document first"
        )

    def _refuse_declaration(self, *_: Any) -> None:
        self._refuse("entity declarations")

    def _refuse_external(self, *_: Any) -> int:
        self._refuse("external entity references")
        return 0


class _Handler(RDFXMLHandler):
    def __init__(self, store: Graph, source_name: str, mode: HazardMode) -> None:
        super().__init__(store)
        self.source_name = source_name
        self.mode = mode
        self.found: list[Hazard] = []

    def _position(self) -> Position:
        locator: Any = self.locator
        try:
            return Position(self.source_name, locator.getLineNumber(),
                            locator.getColumnNumber() + 1)
        except (AttributeError, TypeError):  # no position known
            return Position(self.source_name)

    def _guarded(self, ref: str, base: str) -> str:
        kind = reference_kind(ref)
        if kind == "absolute":
            return ref
        new = resolve(ref, base)
        if kind in HAZARD_KINDS:
            self.found.append(Hazard(BASE_CODE, base_message(
                ref, base, where=str(self._position()),
                outcomes={"rdflib": RDFLIB_OUTCOME["xml"]},
                continuing=new if self.mode == "warn" else None,
            )))
        return new

    def startElementNS(self, name: Any, qname: Any, attrs: Any) -> None:
        parent = self.current if len(self.stack) > 1 else None
        written = attrs.get(BASE, None)
        if written is not None and parent is not None and parent.base and is_urn(parent.base):
            # rdflib's urljoin keeps a relative xml:base relative under a URN parent.
            attrs._attrs[BASE] = self._guarded(written, parent.base)
        super().startElementNS(name, qname, attrs)

    def absolutize(self, uri: str) -> URIRef:
        base = self.current.base
        if base is not None and is_urn(base):
            return URIRef(self._guarded(uri, base))
        return super().absolutize(uri)


def parse_rdfxml(
    source: InputSource, graph: Graph, *, source_name: str, mode: HazardMode
) -> list[Hazard]:
    """Parse RDF/XML from *source* into *graph*; return the URN-base hazards found."""
    parser = _SafeExpat(source_name)
    parser.setFeature(sax_handler.feature_namespaces, 1)
    parser.setFeature(sax_handler.feature_external_ges, 0)
    handler = _Handler(graph, source_name, mode)
    handler.setDocumentLocator(source)  # type: ignore[arg-type]  # as rdflib does
    parser.setContentHandler(handler)
    parser.setErrorHandler(ErrorHandler())
    parser.parse(source)
    return handler.found
