"""``Graph(store="URN").parse``: rdflib's parse entry point, read through urnld's reader.

rdflib's ``Graph.parse`` never consults the store: it picks a parser plugin by syntax name and
hands it the graph, and the parser adds finished statements. By then a reference such as ``c``
under ``xml:base="urn:example:a:b"`` is already ``c`` (rdflib's RDF/XML parser) or
``urn:example:a:b/c`` (its JSON-LD parser), and nothing in a statement tells it from one written
that way: a store cannot find the hazard, only the parser can. So urnld puts itself at the
parse entry point: for each syntax it reads, the rdflib parser plugin of that name is replaced
by a wrapper that, **for a graph on a** :class:`~urnld.rdf.URNStore`, reads the document with
:func:`urnld.read.read_into` — the ``urn-base`` guard with its positions, RDF/XML entities
refused, JSON-LD contexts from a catalog only, literals as written (pyoxigraph) — and for every
other graph calls rdflib's own parser, unchanged. ``catalog=`` and ``hazards=`` given to
``parse`` reach the reader (rdflib passes extra arguments on to the parser).

The wrappers are installed when :mod:`urnld.rdf`'s store is imported, which any URN store
needs first.

>>> from rdflib import Graph
>>> g = Graph(store="URN").parse(
...     data='<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" '
...          'xml:base="urn:example:a:b"><rdf:Description rdf:about="c"/></rdf:RDF>',
...     format="xml")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
urnld.jsonld.URNBaseError: <data>:1:...: relative reference <c> against the URN base ...
"""

from __future__ import annotations

import re
from typing import Any, Final

from rdflib import plugin
from rdflib.parser import InputSource, Parser

from .._kernel import get_syntax
from ..errors import URNError

__all__ = ["install_parsers"]

#: The syntaxes urnld's reader reads (its names): rdflib parser plugins named for one of them
#: (an alias, a media type, oxrdflib's ``ox-`` twin) are wrapped.
_READER_SYNTAXES: Final = frozenset(
    {"turtle", "trig", "n3", "nt", "nquads", "xml", "json-ld", "trix", "hext"})

_installed: dict[str, Any] = {}
# The URN store's class, given by the store's module when it installs the parsers.
_STORE: list[type] = []


def _syntax_of(name: str) -> str | None:
    """urnld's syntax name for the rdflib parser plugin *name*, or None (not read by urnld)."""
    bare = name[3:] if name.startswith("ox-") else name
    if bare == "streaming-json-ld":
        bare = "json-ld"
    try:
        syntax = get_syntax(bare).name
    except URNError:
        return None
    return syntax if syntax in _READER_SYNTAXES else None


def _document(source: InputSource) -> bytes:
    stream: Any = source.getByteStream()
    if stream is None:
        stream = source.getCharacterStream()
    content = stream.read() if stream is not None else b""
    return content.encode("utf-8") if isinstance(content, str) else bytes(content)


class _URNStoreParser(Parser):
    """A parser plugin that reads through urnld for graphs on a URN store (see the module)."""

    plugin_name: str = ""
    syntax: str = ""
    original: Any = None  # rdflib's plugin of the same name

    def parse(self, source: InputSource, sink: Any, **kwargs: Any) -> None:
        from ..read import IN_READER, read_into

        if not isinstance(getattr(sink, "store", None), _STORE[0]) or IN_READER.get():
            # Any other graph, or urnld's reader asking for rdflib's own parser: rdflib's.
            self.original.getClass()().parse(source, sink, **kwargs)
            return
        catalog = kwargs.pop("catalog", None)
        hazards = kwargs.pop("hazards", "error")
        if kwargs:
            raise URNError(f"parse into a URN store does not take {', '.join(sorted(kwargs))}")
        public_id = source.getPublicId()
        read_into(sink, _document(source), self.syntax, base=str(public_id) or None,
                  catalog=catalog, hazards=hazards, name=_name(source))


def _name(source: InputSource) -> str:
    """How messages name the document: its path, its URL, or ``<data>``."""
    system_id = source.getSystemId()
    if not system_id:
        return "<data>"
    text = str(system_id)
    if text.startswith("file://"):
        from urllib.parse import urlsplit
        from urllib.request import url2pathname

        return url2pathname(urlsplit(text).path)
    return text


def _class_name(name: str) -> str:
    return "Parser_" + re.sub(r"[^0-9A-Za-z]", "_", name)


def install_parsers(store: type) -> None:
    """Wrap every rdflib parser plugin of a syntax urnld reads, for graphs on a *store* (the
    URN store's class), once; see the module.

    >>> from urnld.rdf import URNStore
    >>> install_parsers(URNStore)
    >>> from rdflib.parser import Parser
    >>> plugin.get("turtle", Parser).__module__
    'urnld.rdf._parse'
    """
    if _installed:
        return
    _STORE.append(store)
    for registered in list(plugin.plugins(kind=Parser)):
        name = registered.name
        syntax = _syntax_of(name)
        if syntax is None or getattr(registered, "module_path", None) == __name__:
            continue
        cls_name = _class_name(name)
        cls = type(cls_name, (_URNStoreParser,), {
            "plugin_name": name, "syntax": syntax, "original": registered,
            "__module__": __name__,
            "__doc__": f"rdflib's {name!r} parser, read through urnld for URN stores.",
        })
        globals()[cls_name] = cls
        _installed[name] = cls
        plugin.register(name, Parser, __name__, cls_name)
