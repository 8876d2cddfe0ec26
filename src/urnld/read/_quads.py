"""The reader's statements as pyoxigraph quads, for loading a store without rdflib.

The same guards and the same statements as :func:`~urnld.read.read`: Turtle, TriG, N-Triples,
N-Quads and RDF/XML are parsed by pyoxigraph after :func:`~._reader.guard_raw` (N-Triples and
N-Quads straight from the file, in bounded memory: they have no base and no nesting); JSON-LD,
N3, TriX and HexTuples go through :func:`~urnld.read.read` and come out as quads.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .._kernel import open_input
from ._errors import ReadError
from ._formats import format_for_path
from ._guard import HazardMode
from ._oxigraph import _syntax_error
from ._reader import OXIGRAPH_GUARDED, Catalog, _read_bytes, guard_raw, read

__all__ = ["UnstorableTermError", "quads_of_graph", "read_quads"]


class UnstorableTermError(ReadError):
    """A graph read by rdflib's own parser (N3, TriX, HexTuples) holds a term that RDF 1.1 and
    pyoxigraph do not accept (an IRI with a space, a malformed language tag)."""

_OX_FORMATS = {"turtle": "TURTLE", "trig": "TRIG", "nt": "N_TRIPLES", "nquads": "N_QUADS",
               "xml": "RDF_XML"}


def read_quads(
    source: str | os.PathLike[str],
    *,
    format: str | None = None,
    base: str | None = None,
    catalog: Catalog = None,
    hazards: HazardMode = "error",
    name: str | None = None,
) -> Iterator[Any]:
    """The statements of an RDF file (``-``: stdin; ``.gz`` is decompressed) as pyoxigraph
    ``Quad``\\ s, read and guarded as :func:`~urnld.read.read` reads them; blank-node labels
    as the document wrote them (anonymous ones labelled by the parser).

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "a.nt"
    >>> _ = p.write_text('<urn:example:a> <urn:example:p> "01"^^<urn:example:t> .\\n')
    >>> [str(q.object) for q in read_quads(p)]
    ['"01"^^<urn:example:t>']

    Raises:
        ReadError: unknown syntax, unreadable file, a parser's complaint (the input named).
        URNContextError: a URN hazard, as for :func:`~urnld.read.read`.
    """
    import pyoxigraph as ox

    path = os.fspath(source)
    label = name or ("<stdin>" if path == "-" else path)
    fmt = format_for_path(path, format, stdin="turtle")
    doc_base = base
    if doc_base is None and path != "-":
        doc_base = Path(path).resolve().as_uri()
    if fmt not in OXIGRAPH_GUARDED:
        graph = read(path, format=fmt, base=base, catalog=catalog, hazards=hazards, name=label)
        yield from quads_of_graph(graph)
        return
    ox_format = getattr(ox.RdfFormat, _OX_FORMATS[fmt])
    raw: bytes | None = None
    try:
        if fmt in ("nt", "nquads"):
            try:
                with open_input(path) as (stream, _size):
                    yield from ox.parse(stream, ox_format)
            except OSError as e:
                raise ReadError(f"{label}: cannot read: {e.strerror or e}") from None
            return
        try:
            raw = _read_bytes(path)
        except OSError as e:
            raise ReadError(f"{label}: cannot read: {e.strerror or e}") from None
        guard_raw(raw, fmt, base=doc_base, hazards=hazards, name=label, stacklevel=5)
        yield from ox.parse(raw, ox_format, base_iri=doc_base)
    except SyntaxError as e:
        raise _syntax_error(e, label, fmt, raw) from None
    except MemoryError as e:
        raise ReadError(f"{label}: cannot parse as {fmt}: one token (literal, IRI, string) is "
                        f"too long: {e}") from None


def quads_of_graph(graph: Any) -> Iterator[Any]:
    """An rdflib ``Graph`` or ``Dataset`` as pyoxigraph quads (graph names kept).

    >>> from rdflib import Graph
    >>> g = Graph().parse(data='<urn:example:a> <urn:example:p> "x"@EN .', format="nt")
    >>> [str(q.object) for q in quads_of_graph(g)]
    ['"x"@en']
    """
    import pyoxigraph as ox
    from rdflib import BNode, Dataset, Literal, URIRef

    def term(t: Any) -> Any:
        try:
            return convert(t)
        except ValueError as e:  # pyoxigraph checks IRIs and language tags; rdflib's N3 does not
            raise UnstorableTermError(f"the term {str(t)!r} is not RDF 1.1 ({e})") from None

    def convert(t: Any) -> Any:
        if isinstance(t, URIRef):
            return ox.NamedNode(str(t))
        if isinstance(t, BNode):
            return ox.BlankNode(str(t))
        if isinstance(t, Literal):
            if t.language:
                return ox.Literal(str(t), language=t.language)
            if t.datatype is not None:
                return ox.Literal(str(t), datatype=ox.NamedNode(str(t.datatype)))
            return ox.Literal(str(t))
        raise ReadError(f"the term {t!r} cannot be stored")

    if isinstance(graph, Dataset):
        for s, p, o, g in graph.quads((None, None, None, None)):
            name = getattr(g, "identifier", g)
            default = name is None or str(name) == "urn:x-rdflib:default"
            yield ox.Quad(term(s), term(p), term(o),
                          ox.DefaultGraph() if default else term(name))
    else:
        for s, p, o in graph.triples((None, None, None)):
            yield ox.Quad(term(s), term(p), term(o))
