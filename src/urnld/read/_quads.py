"""The reader's statements as pyoxigraph quads, for loading a store without rdflib.

The same guards and the same statements as :func:`~urnld.read.read`: Turtle, TriG, N-Triples,
N-Quads and RDF/XML are parsed by pyoxigraph after :func:`~._reader.guard_raw` (N-Triples and
N-Quads straight from the file, in bounded memory: they have no base and no nesting); JSON-LD,
N3, TriX and HexTuples go through :func:`~urnld.read.read` and come out as quads.

A Turtle or TriG file past :data:`STREAM_BYTES` is parsed as it is read, in bounded memory,
when one pass over it first shows the guard has nothing to say: no base directive that may
name a URN (and no URN base given), and too few brackets to nest past
:data:`~._oxigraph.MAX_TURTLE_DEPTH` levels (the guard's own first test). Any other file is
read whole and guarded as :func:`~urnld.read.read` guards it.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any, Final, cast

from .._kernel import is_urn, open_input
from ._errors import ReadError
from ._formats import format_for_path
from ._guard import HazardMode, turtle_may_have_urn_base
from ._oxigraph import MAX_TURTLE_DEPTH, _syntax_error, bracket_count, lines_of
from ._reader import OXIGRAPH_GUARDED, Catalog, _read_bytes, guard_raw, read

__all__ = ["STREAM_BYTES", "UnstorableTermError", "quads_of_graph", "read_quads"]

#: Turtle and TriG files larger than this (bytes; a ``.gz`` counted at 8 times its size) are
#: parsed as they are read when the guard has nothing to say (smaller ones are read once, whole).
STREAM_BYTES: Final = 16 << 20
_SCAN_BLOCK: Final = 1 << 20
# What may end a block in the middle of a base directive naming a URN ("base", white space,
# "<", "urn"): the bytes kept to search again with the next block.
_PARTIAL_BASE: Final = b" \t\n\r\f\v<bBaAsSeEuUrRnN"


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
        if fmt in ("turtle", "trig") and _streamable(path, doc_base, hazards, label):
            try:
                with open_input(path) as (stream, _size):
                    scanned = _Scanned(stream, hazards != "ignore", label)
                    try:
                        yield from ox.parse(cast(IO[bytes], scanned), ox_format,
                                            base_iri=doc_base)
                    except (OSError, SyntaxError, ValueError):
                        # pyoxigraph turns what read() raised into its own error
                        if scanned.failure is not None:
                            raise scanned.failure from None
                        raise
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
        # the whole document, or its line read again from the file it was parsed from
        line_of = (lines_of(raw) if raw is not None
                   else None if path == "-" else functools.partial(_line_bytes, path))
        raise _syntax_error(e, label, fmt, line_of) from None
    except MemoryError as e:
        raise ReadError(f"{label}: cannot parse as {fmt}: one token (literal, IRI, string) is "
                        f"too long: {e}") from None


class _Scan:
    """What :func:`~._reader.guard_raw` first asks of a Turtle or TriG document, answered a
    block at a time: could a base directive name a URN (*urn_bases*: unless hazards are
    ignored), and are there more brackets than levels allowed. :meth:`feed` is False as soon
    as either is so (the document is then read whole and guarded as a whole)."""

    def __init__(self, urn_bases: bool) -> None:
        self.urn_bases = urn_bases
        self.brackets = 0
        self.carry = b""

    def feed(self, block: bytes) -> bool:
        self.brackets += bracket_count(block)
        if self.brackets > MAX_TURTLE_DEPTH:
            return False
        if not self.urn_bases:
            return True
        window = self.carry + block
        # "base" in any case first: a block without it (most) costs no regular expression
        if b"base" in window.lower() and turtle_may_have_urn_base(window):
            return False
        # A directive cut by the block's end is made of these bytes only: kept, and searched
        # again with the next block (so the answer is the whole document's).
        self.carry = window[len(window.rstrip(_PARTIAL_BASE)):]
        return len(self.carry) <= _SCAN_BLOCK


def _streamable(path: str, base: str | None, hazards: HazardMode, label: str) -> bool:
    """Whether the Turtle or TriG file *path* can be parsed as it is read: large enough for it
    to matter, re-readable, and nothing for the guard to do (one bounded pass over it)."""
    if path == "-" or (hazards != "ignore" and base is not None and is_urn(base)):
        return False
    try:
        size = os.stat(path).st_size * (8 if path.lower().endswith(".gz") else 1)
        if size <= STREAM_BYTES:
            return False
        scan = _Scan(hazards != "ignore")
        with open_input(path) as (stream, _size):
            while block := stream.read(_SCAN_BLOCK):
                if not scan.feed(block):
                    return False
    except OSError as e:
        raise ReadError(f"{label}: cannot read: {e.strerror or e}") from None
    return True


class _Scanned:
    """The stream pyoxigraph parses, each block scanned again as it goes by: a file that
    changed since :func:`_streamable` read it is refused, never parsed unguarded."""

    def __init__(self, stream: IO[bytes], urn_bases: bool, label: str) -> None:
        self._stream = stream
        self._scan = _Scan(urn_bases)
        self._label = label
        self._block = b""
        self._at = 0
        self.failure: BaseException | None = None

    def readable(self) -> bool:
        return True

    def read(self, n: int = -1) -> bytes:
        # pyoxigraph asks a few KiB at a time: blocks of _SCAN_BLOCK are read and scanned,
        # and handed out in the pieces asked.
        if self._at >= len(self._block):
            try:
                self._block = self._stream.read(_SCAN_BLOCK)
            except BaseException as e:  # kept: pyoxigraph would make it an error of its own
                self.failure = e
                raise
            self._at = 0
            if self._block and not self._scan.feed(self._block):
                self.failure = ReadError(f"{self._label}: changed while it was read: read "
                                         "it again")
                raise self.failure
        start = self._at
        self._at = len(self._block) if n is None or n < 0 else min(start + n,
                                                                    len(self._block))
        return self._block[start:self._at]


def _line_bytes(path: str, lineno: int) -> bytes:
    """Line *lineno* (from 1) of a file, at most :data:`_SCAN_BLOCK` bytes of it: what
    :func:`~._oxigraph._syntax_error` reads of a document parsed as it was read."""
    try:
        with open_input(path) as (stream, _size):
            at = 1
            while at < lineno:
                part = stream.readline(_SCAN_BLOCK)
                if not part:
                    return b""
                if part.endswith(b"\n"):
                    at += 1
            line = stream.readline(_SCAN_BLOCK)
            return line[:-1] if line.endswith(b"\n") else line
    except (OSError, ValueError):
        return b""


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
