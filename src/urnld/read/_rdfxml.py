"""RDF/XML: the pass that makes a document safe for pyoxigraph, which then parses it.

pyoxigraph parses RDF/XML fast and keeps literals as written, but it expands the entities a
document declares, resolves ``<c>`` against ``xml:base="urn:…"`` the RFC 3986 way without a
word, and takes time that grows faster than the square of the element depth (20,000 nested
elements: seconds; a million: hours). The kernel's one RDF/XML scan comes first (the
streaming path's guard runs the same): entity declarations and external entities are refused,
nesting deeper than :data:`MAX_XML_DEPTH` elements is refused, and every IRI reference made
against a URN ``xml:base`` (or a given URN base) is a ``urn-base`` hazard with its line and
column.

>>> xml_hazards(b'<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" '
...     b'xml:base="urn:example:a:b"><rdf:Description rdf:about="#e"/></rdf:RDF>',
...     None, source_name="x.rdf", mode="error")
[]
"""

from __future__ import annotations

from .._kernel import BASE_CODE, MAX_XML_DEPTH, xml_base_hazards
from ..jsonld import Hazard
from ._guard import HazardMode

__all__ = ["MAX_XML_DEPTH", "xml_hazards"]


def xml_hazards(raw: bytes, base: str | None, *, source_name: str,
                mode: HazardMode) -> list[Hazard]:
    """Check the RDF/XML document *raw* (see the module's description); return the URN-base
    hazards found. Raises :class:`UnsafeXMLError` for entities, :class:`ReadError` for nesting
    past :data:`MAX_XML_DEPTH` and for a document that is not well-formed XML."""
    return [Hazard(BASE_CODE, message) for message in
            xml_base_hazards(raw, base, source=source_name, warn=mode == "warn")]
