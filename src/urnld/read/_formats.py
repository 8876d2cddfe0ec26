"""RDF syntax names as the reader takes them: a view of the one syntax table
(:mod:`urnld._kernel`), which every reader and writer of urnld shares."""

from __future__ import annotations

from .._kernel import FORMATS, LINE_FORMATS, QUAD_FORMATS, get_syntax, syntax_for_path

__all__ = [
    "FORMATS",
    "LINE_FORMATS",
    "QUAD_FORMATS",
    "format_for_path",
    "normalize_format",
]


def normalize_format(name: str) -> str:
    """The reader's name for the syntax *name* (case-insensitive; common aliases accepted).

    >>> normalize_format("TTL"), normalize_format("jsonld"), normalize_format("nq")
    ('turtle', 'json-ld', 'nquads')
    >>> normalize_format("yaml")
    Traceback (most recent call last):
    ...
    urnld.errors.ReadError: unknown RDF syntax 'yaml'; known: hext, json-ld, n3, nquads, nt, \
trig, trix, turtle, xml (and for output: longturtle, pretty-xml)
    """
    return get_syntax(name).name


def format_for_path(path: str, given: str | None = None, *, stdin: str = "nt") -> str:
    """The syntax of *path*: *given* when set, else from the extension (``.gz`` looked through);
    ``-`` (stdin) is *stdin*.

    >>> format_for_path("data.ttl.gz"), format_for_path("x.jsonld"), format_for_path("-")
    ('turtle', 'json-ld', 'nt')
    >>> format_for_path("x.data", "n-quads"), format_for_path("x.ntriples")
    ('nquads', 'nt')
    """
    return syntax_for_path(path, given, stdin=stdin).name
