"""The one table of RDF syntaxes: names, aliases, extensions, what each holds and who writes it.

Every part of urnld that names a syntax — the reader, every writer, the command line, Dask and
the engine route — asks this table, so ``-o x.ntriples`` and ``--input-format ntriples`` mean the
same thing everywhere. Importing it costs nothing: no parser is loaded.

>>> syntax_for_path("dump.ttl.gz").name, syntax_for_path("x.ntriples").name
('turtle', 'nt')
>>> SYNTAXES["nquads"].quads, SYNTAXES["nquads"].lines, SYNTAXES["turtle"].lines
(True, 'nq', None)
>>> output_syntax("b.hext", None, default="turtle").name
'hext'

A syntax's ``name`` is rdflib's plugin name for it (what :mod:`urnld.read` and rdflib's
serializers take); ``oxigraph`` names the :class:`pyoxigraph.RdfFormat` member that parses and
writes it, where pyoxigraph has one.
"""

from __future__ import annotations

import dataclasses
from pathlib import PurePath
from typing import Final, Literal

from ..errors import ReadError

__all__ = [
    "FORMATS",
    "LINE_FORMATS",
    "QUAD_FORMATS",
    "SYNTAXES",
    "Syntax",
    "get_syntax",
    "output_syntax",
    "syntax_for_path",
    "writable_output",
]


@dataclasses.dataclass(frozen=True, slots=True)
class Syntax:
    """One RDF syntax: how users name it and what urnld can do with it.

    >>> SYNTAXES["xml"].extensions[:2], SYNTAXES["xml"].media_type
    (('.rdf', '.owl'), 'application/rdf+xml')
    """

    #: rdflib's plugin name, urnld's name for the syntax.
    name: str
    #: how people call it, for messages.
    label: str
    #: other names users type (case-insensitive), media types included.
    aliases: tuple[str, ...]
    #: file extensions, the one urnld writes first; ``.gz`` is looked through separately.
    extensions: tuple[str, ...]
    media_type: str
    #: can hold named graphs (read into a dataset, written from one).
    quads: bool
    #: one statement a line: ``"nt"`` or ``"nq"`` for the line grammar, else None.
    lines: Literal["nt", "nq"] | None
    #: urnld can write it (rdflib has a serializer).
    writable: bool = True
    #: the pyoxigraph ``RdfFormat`` member name, where pyoxigraph reads and writes it.
    oxigraph: str | None = None
    #: urnld can read it (a writer-only variant such as ``pretty-xml`` cannot).
    readable: bool = True
    #: how a base declaration naming a URN looks in it (a regular expression over the
    #: lower-cased bytes), searched in every block the streaming reader reads: the URN-base
    #: guard. Required of every syntax that is streamed and not read line by line (checked
    #: below, at import); line syntaxes have no base.
    urn_base: bytes | None = None

    @property
    def streams(self) -> bool:
        """Is it read and written as a stream (pyoxigraph has a reader and a writer)?"""
        return self.oxigraph is not None


# Turtle, TriG, N3: "@base <" or SPARQL's "BASE <" (the reader's guard looks for the same).
_TURTLE_BASE: Final = rb"base\s*<\s*urn:"

_TABLE: Final = (
    Syntax("nt", "N-Triples", ("ntriples", "n-triples", "nt11", "application/n-triples"),
           (".nt", ".ntriples"), "application/n-triples", quads=False, lines="nt",
           oxigraph="N_TRIPLES"),
    Syntax("nquads", "N-Quads", ("nq", "n-quads", "application/n-quads"),
           (".nq", ".nquads"), "application/n-quads", quads=True, lines="nq",
           oxigraph="N_QUADS"),
    Syntax("turtle", "Turtle", ("ttl", "text/turtle"), (".ttl", ".turtle"), "text/turtle",
           quads=False, lines=None, oxigraph="TURTLE", urn_base=_TURTLE_BASE),
    Syntax("trig", "TriG", ("application/trig",), (".trig",), "application/trig",
           quads=True, lines=None, oxigraph="TRIG", urn_base=_TURTLE_BASE),
    Syntax("n3", "N3", ("notation3", "text/n3"), (".n3",), "text/n3",
           quads=False, lines=None, oxigraph="N3", urn_base=_TURTLE_BASE),
    Syntax("xml", "RDF/XML", ("rdf", "rdfxml", "rdf/xml", "rdf-xml", "application/rdf+xml"),
           (".rdf", ".owl", ".xml", ".rdfs"), "application/rdf+xml",
           quads=False, lines=None, oxigraph="RDF_XML",
           urn_base=rb"xml:base\s*=\s*[\"']\s*urn:"),
    Syntax("json-ld", "JSON-LD", ("jsonld", "application/ld+json"), (".jsonld", ".json"),
           "application/ld+json", quads=True, lines=None, oxigraph="JSON_LD",
           # "@base": "urn:…", and a term named "urn" (it makes every urn: IRI compact).
           urn_base=rb"\"@base\"\s*:\s*\"\s*urn:|\"urn\"\s*:"),
    Syntax("trix", "TriX", ("application/trix",), (".trix",), "application/trix",
           quads=True, lines=None),
    Syntax("hext", "Hextuples", ("application/x-ndjson+hextuples",), (".hext",),
           "application/x-ndjson", quads=True, lines=None),
    # rdflib's writer-only variants of Turtle and RDF/XML: a layout, not a syntax of their own.
    Syntax("longturtle", "Turtle (long form)", (), (), "text/turtle",
           quads=False, lines=None, readable=False),
    Syntax("pretty-xml", "RDF/XML (pretty)", (), (), "application/rdf+xml",
           quads=False, lines=None, readable=False),
)



def _complete(table: tuple[Syntax, ...]) -> None:
    """A row that leaves out a capability its other columns need is an error here, at
    import, never a silent skip later (a streamed syntax without its URN-base scanner would
    lose the guard)."""
    for s in table:
        if s.streams and s.lines is None and s.urn_base is None:
            raise ImportError(f"syntax table: {s.name} is streamed but has no urn_base scanner")
        if s.lines is not None and s.oxigraph is None:
            raise ImportError(f"syntax table: {s.name} is read line by line but pyoxigraph "
                              "cannot write it")


_complete(_TABLE)

#: Every syntax urnld reads and writes, by name.
SYNTAXES: Final = {s.name: s for s in _TABLE}
#: Every syntax urnld reads.
FORMATS: Final = frozenset(s.name for s in _TABLE if s.readable)
#: Syntaxes that can hold named graphs.
QUAD_FORMATS: Final = frozenset(s.name for s in _TABLE if s.quads)
#: One statement per line: the line pass reads these without any parser.
LINE_FORMATS: Final = frozenset(s.name for s in _TABLE if s.lines)

_BY_NAME: Final = {
    alias.lower(): s for s in _TABLE for alias in (s.name, *s.aliases)
}
_BY_EXTENSION: Final = {ext: s for s in _TABLE for ext in s.extensions}


def get_syntax(name: str) -> Syntax:
    """The syntax users call *name* (case-insensitive; aliases and media types accepted).

    >>> get_syntax("TTL").name, get_syntax("application/ld+json").name
    ('turtle', 'json-ld')
    >>> get_syntax("yaml")
    Traceback (most recent call last):
    ...
    urnld.errors.ReadError: unknown RDF syntax 'yaml'; known: hext, json-ld, n3, nquads, nt, \
trig, trix, turtle, xml (and for output: longturtle, pretty-xml)
    """
    found = _BY_NAME.get(name.strip().lower())
    if found is None:
        writers = sorted(set(SYNTAXES) - FORMATS)
        raise ReadError(
            f"unknown RDF syntax {name!r}; known: {', '.join(sorted(FORMATS))}"
            f" (and for output: {', '.join(writers)})"
        )
    return found


def _by_extension(path: str) -> Syntax | None:
    name = path[:-3] if path.lower().endswith(".gz") else path
    return _BY_EXTENSION.get(PurePath(name).suffix.lower())


def _readable(found: Syntax) -> Syntax:
    if not found.readable:
        raise ReadError(
            f"{found.name} is a layout urnld writes, not one it reads; known: "
            f"{', '.join(sorted(FORMATS))}"
        )
    return found


def syntax_for_path(path: str, given: str | None = None, *, stdin: str = "nt") -> Syntax:
    """The syntax of the input *path*: *given* when set, else from the extension (``.gz``
    looked through); ``-`` (stdin) is *stdin*.

    >>> syntax_for_path("x.data", "n-quads").name, syntax_for_path("-").name
    ('nquads', 'nt')
    >>> syntax_for_path("notes.txt")
    Traceback (most recent call last):
    ...
    urnld.errors.ReadError: notes.txt: cannot tell the RDF syntax from the extension; use \
--input-format (one of hext, json-ld, n3, nquads, nt, trig, trix, turtle, xml)
    """
    if given:
        return _readable(get_syntax(given))
    if path == "-":
        return _readable(get_syntax(stdin))
    found = _by_extension(path)
    if found is None:
        raise ReadError(
            f"{path}: cannot tell the RDF syntax from the extension; use --input-format "
            f"(one of {', '.join(sorted(FORMATS))})"
        )
    return found


def output_syntax(path: str, given: str | None, *, default: str) -> Syntax:
    """The syntax to write *path* in: *given* when set, else the extension of *path* (any
    extension the reader knows, ``.gz`` looked through), else *default* (the input's syntax,
    for stdout ``-`` and a path without an extension). An extension that names no syntax is
    refused unless *given* says what to write: ``-o x.txt`` never silently means "the
    input's syntax". The command line and the library's file functions all ask here.

    >>> output_syntax("b.ntriples", None, default="turtle").name
    'nt'
    >>> output_syntax("-", None, default="trig").name
    'trig'
    >>> output_syntax("o.txt", "nq", default="turtle").name
    'nquads'
    >>> output_syntax("o.txt", None, default="turtle")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    urnld.errors.ReadError: o.txt: cannot tell the output syntax from the extension '.txt'; ...
    """
    if given:
        return get_syntax(given)
    if path == "-":
        return get_syntax(default)
    found = _by_extension(path)
    if found is not None:
        return found
    name = path[:-3] if path.lower().endswith(".gz") else path
    suffix = PurePath(name).suffix
    if not suffix:
        return get_syntax(default)
    raise ReadError(
        f"{path}: cannot tell the output syntax from the extension {suffix!r}; name one with "
        f"--output-format, or use an extension of: {', '.join(sorted(_BY_EXTENSION))} "
        "(.gz after any)"
    )


def writable_output(path: str, given: str | None, *, default: str) -> Syntax:
    """:func:`output_syntax`, refused with the command's messages when urnld cannot write it
    (the one check behind ``urnld canonicalize -o`` and the library's file functions).

    >>> writable_output("x.ttl", None, default="nt").name
    'turtle'
    >>> writable_output("x.ttl", "yaml", default="nt")
    Traceback (most recent call last):
    ...
    urnld.errors.ReadError: unknown output format 'yaml'; use one of: hext, json-ld, \
longturtle, n3, nquads, nt, pretty-xml, trig, trix, turtle, xml
    """
    try:
        syntax = output_syntax(path, given, default=default)
    except ReadError:
        if not given:
            raise
        writable = sorted(s.name for s in SYNTAXES.values() if s.writable)
        raise ReadError(f"unknown output format {given!r}; use one of: "
                        f"{', '.join(writable)}") from None
    if not syntax.writable:
        raise ReadError(f"urnld cannot write {syntax.label}; choose another --output-format")
    return syntax
