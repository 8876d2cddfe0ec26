"""RDF syntax names: the spellings users type, the file extensions, what each syntax holds."""

from __future__ import annotations

from pathlib import PurePath
from typing import Final

from ._errors import ReadError

__all__ = [
    "FORMATS",
    "LINE_FORMATS",
    "QUAD_FORMATS",
    "format_for_path",
    "normalize_format",
]


#: Every syntax the reader reads, by its rdflib plugin name.
FORMATS: Final = frozenset(
    {"turtle", "trig", "nt", "nquads", "xml", "json-ld", "n3", "trix", "hext"}
)
#: Syntaxes that can hold named graphs: read into a Dataset.
QUAD_FORMATS: Final = frozenset({"trig", "nquads", "json-ld", "trix", "hext"})
#: One statement per line: the streaming paths read these without building a graph.
LINE_FORMATS: Final = frozenset({"nt", "nquads"})

_ALIASES: Final = {
    "ttl": "turtle", "turtle": "turtle",
    "trig": "trig",
    "nt": "nt", "ntriples": "nt", "n-triples": "nt", "nt11": "nt",
    "nq": "nquads", "nquads": "nquads", "n-quads": "nquads",
    "xml": "xml", "rdf": "xml", "rdfxml": "xml", "rdf/xml": "xml", "application/rdf+xml": "xml",
    "json-ld": "json-ld", "jsonld": "json-ld", "application/ld+json": "json-ld",
    "n3": "n3", "notation3": "n3",
    "trix": "trix", "hext": "hext",
}

_EXTENSIONS: Final = {
    ".ttl": "turtle", ".turtle": "turtle", ".trig": "trig", ".nt": "nt", ".ntriples": "nt",
    ".nq": "nquads", ".nquads": "nquads", ".rdf": "xml", ".owl": "xml", ".xml": "xml",
    ".rdfs": "xml", ".jsonld": "json-ld", ".json": "json-ld", ".n3": "n3", ".trix": "trix",
    ".hext": "hext",
}


def normalize_format(name: str) -> str:
    """The reader's name for the syntax *name* (case-insensitive; common aliases accepted).

    >>> normalize_format("TTL"), normalize_format("jsonld"), normalize_format("nq")
    ('turtle', 'json-ld', 'nquads')
    >>> normalize_format("yaml")
    Traceback (most recent call last):
    ...
    urnld.read.ReadError: unknown RDF syntax 'yaml'; known: hext, json-ld, n3, nquads, nt, trig, \
trix, turtle, xml
    """
    fmt = _ALIASES.get(name.strip().lower())
    if fmt is None:
        known = ", ".join(sorted(FORMATS))
        raise ReadError(f"unknown RDF syntax {name!r}; known: {known}")
    return fmt


def format_for_path(path: str, given: str | None = None, *, stdin: str = "nt") -> str:
    """The syntax of *path*: *given* when set, else from the extension (``.gz`` looked through);
    ``-`` (stdin) is *stdin*.

    >>> format_for_path("data.ttl.gz"), format_for_path("x.jsonld"), format_for_path("-")
    ('turtle', 'json-ld', 'nt')
    >>> format_for_path("x.data", "n-quads")
    'nquads'
    """
    if given:
        return normalize_format(given)
    if path == "-":
        return normalize_format(stdin)
    name = path[:-3] if path.lower().endswith(".gz") else path
    fmt = _EXTENSIONS.get(PurePath(name).suffix.lower())
    if fmt is None:
        raise ReadError(
            f"{path}: cannot tell the RDF syntax from the extension; use --input-format "
            f"(one of {', '.join(sorted(FORMATS))})"
        )
    return fmt
