"""``URNGraph``: an rdflib ``Graph`` on a :class:`URNStore` that reads through urnld's reader.

``Graph(store="URN")`` canonicalizes URN terms, but two things stay rdflib's: ``parse`` (which
fetches JSON-LD contexts from the network and resolves references against a URN base in three
different ways) and the set operators (``a + b``, ``a - b``, ``a * b``, ``a ^ b``), which build
their result as a plain Memory ``Graph``. A ``URNGraph`` reads every syntax through
:func:`urnld.read.read` (offline, base guard, N3 formulas) and its operators return
``URNGraph`` objects, so equivalent URNs stay one term in the result.

>>> a = URNGraph().parse(data='<URN:ISBN:0-395-36341-1> <urn:example:p> "x" .', format="nt")
>>> b = URNGraph().parse(data='<urn:isbn:0395363411> <urn:example:p> "x" .', format="nt")
>>> len(a - b), type(a + b).__name__, len(a * b)
(0, 'URNGraph', 1)
"""

from __future__ import annotations

import os
from typing import Any

from rdflib import Graph
from rdflib.store import Store

from ..read import Catalog, HazardMode, ReadError, read
from ._store import URNStore

__all__ = ["URNGraph"]


class URNGraph(Graph):
    """A ``Graph`` on a new :class:`URNStore` (or on *store*), reading through urnld."""

    #: Its set operators are urnld's URN-aware ones (see :mod:`urnld.rdf._algebra`).
    urn_algebra = True

    def __init__(
        self,
        store: Store | str = "URN",
        identifier: Any = None,
        namespace_manager: Any = None,
        base: str | None = None,
        bind_namespaces: Any = "rdflib",
    ) -> None:
        if isinstance(store, str) and store == "URN":
            store = URNStore()
        super().__init__(store, identifier, namespace_manager, base, bind_namespaces)

    def parse(  # noqa: PLR0917  # rdflib's signature
        self,
        source: Any = None,
        publicID: str | None = None,  # rdflib's name
        format: str | None = None,
        location: str | None = None,
        file: Any = None,
        data: str | bytes | None = None,
        *,
        catalog: Catalog = None,
        hazards: HazardMode = "error",
        **args: Any,
    ) -> URNGraph:
        """Read RDF into this graph with :func:`urnld.read.read`; returns the graph.

        *source*/*location* is a path (``-``: stdin), *file* an open binary file, *data* the
        document; *publicID* is the base IRI. URLs are not fetched.
        """
        if args:
            raise ReadError(f"URNGraph.parse does not take {', '.join(sorted(args))}")
        path: Any = source if source is not None else location
        if file is not None or hasattr(path, "read"):
            stream: Any = file if file is not None else path
            content = stream.read()
            data = content.encode("utf-8") if isinstance(content, str) else content
            path = None
        if isinstance(path, (str, os.PathLike)) and data is None:
            text = os.fspath(path)
            if "://" in text:
                raise ReadError(f"{text}: URNGraph.parse reads files, it does not fetch URLs")
            read(text, format=format, graph=self, base=publicID, catalog=catalog,
                 hazards=hazards)
        elif data is not None:
            read(data=data, format=format, graph=self, base=publicID, catalog=catalog,
                 hazards=hazards)
        else:
            raise ReadError("URNGraph.parse needs a source, a location, a file or data")
        return self


