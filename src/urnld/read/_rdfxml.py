"""RDF/XML: one expat pass that makes a document safe for pyoxigraph, which then parses it.

pyoxigraph parses RDF/XML fast and keeps literals as written, but it expands the entities a
document declares, resolves ``<c>`` against ``xml:base="urn:…"`` the RFC 3986 way without a
word, and takes time that grows faster than the square of the element depth (20,000 nested
elements: seconds; a million: hours). The pass here, with expat (no entity is ever expanded,
no external DTD is read), comes first:

* **entity declarations and external entities** are refused, as :mod:`urnld.xmlns` does (the
  "billion laughs" and its small quadratic cousins); a DOCTYPE without declarations is fine;
* **nesting** deeper than :data:`MAX_XML_DEPTH` elements is refused (real RDF/XML nests a few
  levels: an element per node and property);
* **URN bases**: every IRI reference (``rdf:about``, ``rdf:resource``, ``rdf:datatype``, a
  nested ``xml:base``) made against an ``xml:base`` (or a given base) that is a URN goes
  through the base guard: the hazards are reported with their line and column.

>>> found = xml_hazards(b'<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" '
...     b'xml:base="urn:example:a:b"><rdf:Description rdf:about="#e"/></rdf:RDF>',
...     None, source_name="x.rdf", mode="error")
>>> found
[]
"""

from __future__ import annotations

import xml.parsers.expat
from typing import Any, Final

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
from ._errors import ReadError, UnsafeXMLError
from ._guard import HazardMode

__all__ = ["MAX_XML_DEPTH", "xml_hazards"]

#: The deepest element nesting read from RDF/XML.
MAX_XML_DEPTH: Final = 1000

_XML_NS: Final = "http://www.w3.org/XML/1998/namespace"
_RDF_NS: Final = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
_BASE: Final = f"{_XML_NS} base"
# RDF/XML attributes whose values are IRI references (rdf:ID and rdf:nodeID are not).
_IRI_ATTRS: Final = frozenset(f"{_RDF_NS} {name}" for name in ("about", "resource", "datatype"))


def xml_hazards(raw: bytes, base: str | None, *, source_name: str,
                mode: HazardMode) -> list[Hazard]:
    """Check the RDF/XML document *raw* (see the module's description); return the URN-base
    hazards found. Raises :class:`UnsafeXMLError` for entities, :class:`ReadError` for nesting
    past :data:`MAX_XML_DEPTH` and for a document that is not well-formed XML."""
    parser: Any = xml.parsers.expat.ParserCreate(namespace_separator=" ")
    parser.SetParamEntityParsing(xml.parsers.expat.XML_PARAM_ENTITY_PARSING_NEVER)
    found: list[Hazard] = []
    bases: list[str | None] = [base]

    def where() -> str:
        return f"{source_name}:{parser.CurrentLineNumber}:{parser.CurrentColumnNumber + 1}"

    def refuse(what: str) -> None:
        raise UnsafeXMLError(
            f"{where()}: {what} are refused in RDF/XML (protection against entity expansion "
            "and external entities); expand them in the document first"
        )

    def declaration(*_: Any) -> None:
        refuse("entity declarations")

    def external(*_: Any) -> int:
        refuse("external entity references")
        return 0

    def check(ref: str, against: str | None) -> str:
        kind = reference_kind(ref)
        if against is None or kind == "absolute":
            return ref
        new = resolve(ref, against)
        if kind in HAZARD_KINDS and is_urn(against):
            found.append(Hazard(BASE_CODE, base_message(
                ref, against, where=where(), outcomes={"rdflib": RDFLIB_OUTCOME["xml"]},
                continuing=new if mode == "warn" else None,
            )))
        return new

    def start(_name: str, attrs: dict[str, str]) -> None:
        if len(bases) > MAX_XML_DEPTH:
            raise ReadError(f"{where()}: cannot parse as xml: elements nested more than "
                            f"{MAX_XML_DEPTH:,} levels deep: refused (nested too deeply)")
        current = bases[-1]
        written = attrs.get(_BASE)
        if written is not None:
            current = check(written, current)
        if current is not None and is_urn(current):
            for key, value in attrs.items():
                if key in _IRI_ATTRS:
                    check(value, current)
        bases.append(current)

    def end(_name: str) -> None:
        bases.pop()

    parser.EntityDeclHandler = declaration
    parser.UnparsedEntityDeclHandler = declaration
    parser.ExternalEntityRefHandler = external
    parser.StartElementHandler = start
    parser.EndElementHandler = end
    try:
        parser.Parse(raw, True)
    except xml.parsers.expat.ExpatError as e:
        raise ReadError(f"{source_name}:{e.lineno}:{e.offset + 1}: cannot parse as xml: "
                        f"{xml.parsers.expat.errors.messages[e.code]}") from None
    return found
