"""One reader for every RDF syntax: offline JSON-LD, safe RDF/XML, the URN base guard.

Every urnld command, the SHACL loader, and ``Graph(store="URN").parse`` read RDF through
:func:`read`: Turtle, TriG, N-Triples, N-Quads, RDF/XML, JSON-LD, N3, TriX and HexTuples, the
syntax taken from the file extension unless given. Turtle, TriG, N-Triples, N-Quads, RDF/XML and
JSON-LD are parsed by pyoxigraph, so literals keep their lexical form (rdflib's own parsers,
still used for N3, TriX and HexTuples, normalize typed literals), the default graph stays the
default graph and blank nodes are fresh per document. JSON-LD contexts come only from a local
catalog (nothing is fetched); RDF/XML entity declarations are refused, and so is nesting past
1,000 levels in Turtle, TriG and RDF/XML; and a relative reference
that meets a URN base (``@base <urn:…>``, ``xml:base="urn:…"``, a JSON-LD ``@base``, a
``base=`` argument) is reported with the finding code ``urn-base``, the same in every syntax.

>>> from urnld.read import read
>>> g = read(data='<urn:EXAMPLE:a> <urn:example:p> "x" .', format="nt")
>>> [str(s) for s in g.subjects()]
['urn:EXAMPLE:a']
"""

from __future__ import annotations

from ._errors import ReadError, UnsafeXMLError
from ._fixbase import Rewrite, fix_base
from ._formats import FORMATS, LINE_FORMATS, QUAD_FORMATS, format_for_path, normalize_format
from ._guard import IN_READER, HazardMode, guard_text
from ._oxigraph import kept_labels
from ._quads import UnstorableTermError, quads_of_graph, read_quads
from ._reader import Catalog, loader_for, new_graph, read, read_into

__all__ = [
    "FORMATS",
    "IN_READER",
    "LINE_FORMATS",
    "QUAD_FORMATS",
    "Catalog",
    "HazardMode",
    "ReadError",
    "Rewrite",
    "UnsafeXMLError",
    "UnstorableTermError",
    "fix_base",
    "format_for_path",
    "guard_text",
    "kept_labels",
    "loader_for",
    "new_graph",
    "normalize_format",
    "quads_of_graph",
    "read",
    "read_into",
    "read_quads",
]

for _obj in (Rewrite, UnsafeXMLError, fix_base, format_for_path, guard_text,
             loader_for, new_graph, normalize_format, quads_of_graph, read, read_into,
             read_quads):
    _obj.__module__ = "urnld.read"
del _obj
