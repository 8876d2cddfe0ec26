"""The plan against a running store: the same queries over the SPARQL 1.1 Protocol, read-only.

Each step's SELECT is sent as it is, wrapped to name the graphs (``FROM``); with a page size,
it is read in pages (``ORDER BY`` the selected variables, ``LIMIT``/``OFFSET``), for stores
that cap the rows of a result. Virtuoso sorts at most 10,000 rows for a paged query
(``MaxSortedTopRows``), offset included: there, raise its ``ResultSetMaxRows`` and read each
result whole instead. Results come back as SPARQL JSON
results (the CSV form cannot tell an IRI from a literal). Terms are queried as the store keeps
them (:class:`~._terms.Plain`): a store that keeps literals by value (Oxigraph, Virtuoso)
answers about them so, as it would to any other query.
"""

from __future__ import annotations

import codecs
import json
import re
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from rdflib import BNode, Literal, URIRef
from rdflib.term import Node

from ..endpoint import Endpoint, EndpointError
from ._results import Cell, cell
from ._terms import XSD_STRING, Plain

__all__ = ["DEFAULT_PAGE_SIZE", "RemoteStore"]

#: Rows asked for per request: None, each result read whole as it streams in.
DEFAULT_PAGE_SIZE: int | None = None
_JSON = "application/sparql-results+json"
_HEAD = re.compile(r"^SELECT\s+(DISTINCT\s+)?(.*?)\s+WHERE\s", re.DOTALL)


class RemoteStore:
    """A SPARQL endpoint as the plan's backend (see the module's text).

    *graph*: validate that named graph; *all_graphs*: the default graph and every named
    graph (Virtuoso's default graph is already their union; Oxigraph is asked for its union
    default graph; elsewhere, the named graphs, listed first); neither: the store's default
    graph.
    """

    terms: Plain = Plain()
    spill: str | None = None  # sorting on disk in the system's temporary directory
    #: urnld's components ask with DISTINCT here: a repeated row would cross the network.
    repeats = False

    def __init__(self, endpoint: Endpoint, *, graph: str | None = None,
                 all_graphs: bool = False, page_size: int | None = DEFAULT_PAGE_SIZE) -> None:
        if graph is not None and all_graphs:
            raise ValueError("give a graph IRI or all graphs, not both")
        if graph is not None and (not graph or any(c in graph for c in '<>"{}|^`\\ \n')):
            raise ValueError(f"not a usable graph IRI: {graph!r}")
        if page_size is not None and page_size < 1:
            raise ValueError(f"the page size must be a positive number, not {page_size}")
        self.endpoint = endpoint
        self.page_size = page_size
        self._from = f"FROM <{graph}> " if graph is not None else ""
        if all_graphs:
            # A store whose default graph is the union already (Virtuoso), or one opened with
            # its union option (Oxigraph's union-default-graph, see union_url): as it is.
            profile = endpoint.profile
            if not (profile.union_default or profile.union_option) and \
                    "union-default-graph" not in endpoint.url:
                names = [_term(r.get("g")) for r in _bindings(
                    endpoint, "SELECT DISTINCT ?g WHERE { GRAPH ?g { } }")]
                self._from = "".join(f"FROM <{n[1]}> " for n in names
                                     if n is not None and n[0] == "uri")

    def select(self, sparql: str) -> Iterable[Sequence[Any]]:
        """The rows of *sparql* (one of the plan's SELECTs), page by page."""
        m = _HEAD.match(sparql)
        if m is None:  # pragma: no cover - the compiler writes every query this way
            raise EndpointError(f"cannot page the query {sparql[:60]!r}")
        names = [v[1:] for v in _selected(m.group(2))]
        if self.page_size is None:
            query = f"SELECT * {self._from}WHERE {{ {{ {sparql} }} }}"
            yield from (tuple(_term(b.get(n)) for n in names)
                        for b in _bindings(self.endpoint, query))
            return
        order = " ".join(f"?{n}" for n in names)
        offset = 0
        while True:
            page = (f"SELECT * {self._from}WHERE {{ {{ {sparql} }} }} ORDER BY {order} "
                    f"LIMIT {self.page_size} OFFSET {offset}")
            rows = [tuple(_term(b.get(n)) for n in names)
                    for b in _bindings(self.endpoint, page)]
            yield from rows
            if len(rows) < self.page_size:
                return
            offset += self.page_size

    def node(self, term: Any) -> Node | None:
        if term is None:
            return None
        kind, value, language, datatype = term
        if kind == "uri":
            return URIRef(value)
        if kind == "bnode":
            return BNode(value)
        if language:
            return Literal(value, lang=language)
        if datatype and datatype != XSD_STRING:
            return Literal(value, datatype=URIRef(datatype), normalize=False)
        return Literal(value)

    def cell(self, term: Any) -> Cell | None:
        node = self.node(term)
        return None if node is None else cell(node)

    def text(self, term: Any) -> str | None:
        if term is None or term[0] == "bnode":
            return None
        return term[1]  # type: ignore[no-any-return]

    def describe(self, nodes: Iterable[Node]) -> None:
        """A store's blank-node labels name nothing outside one answer: not described."""
        del nodes


#: A term of the answers, hashable: (kind, value, language, datatype).
Term = tuple[str, str, str | None, str | None]


def _term(binding: Any) -> Term | None:
    if not isinstance(binding, dict):
        return None
    kind = binding.get("type")
    if kind == "typed-literal":  # the SPARQL 1.0 JSON form some stores still send
        kind = "literal"
    return (str(kind), str(binding.get("value", "")), binding.get("xml:lang"),
            binding.get("datatype"))


def _selected(head: str) -> list[str]:
    # "?this ?value ?t1" or "?this (LCASE(…) AS ?lang) ?t1": the names the rows carry
    return [part.group(1) or part.group(2)
            for part in re.finditer(r"\(.*?\sAS\s(\?\w+)\)|(\?\w+)", head)]


def union_url(url: str, timeout: float) -> str:
    """The query URL that reads the default graph and every named graph as one: with the
    store profile's ``union_option`` (Oxigraph's ``union-default-graph`` parameter); other
    stores' URL as it is."""
    with Endpoint(url, timeout=timeout) as probe:
        option = probe.profile.union_option
    if option is None:
        return url
    return url + ("&" if "?" in url else "?") + option


def _bindings(endpoint: Endpoint, query: str) -> Iterator[dict[str, Any]]:
    """The solutions of a SELECT, each parsed as it arrives: the answer listing every focus
    node of a catalog is never held whole (the client's memory stays flat however large the
    store)."""
    malformed = f"{endpoint.url}: malformed SPARQL JSON results"
    chunks = iter(endpoint.raw(query, _JSON))
    text = codecs.getincrementaldecoder("utf-8")("replace")
    decoder = json.JSONDecoder()
    buf, pos, ended = "", 0, False

    def more() -> bool:
        nonlocal buf, ended
        if ended:
            return False
        chunk = next(chunks, None)
        if chunk is None:
            buf += text.decode(b"", final=True)
            ended = True
        else:
            buf += text.decode(chunk)
        return True

    # the array of solutions: the one key "bindings" (a JSON string "bindings" followed by a
    # colon is a key; where it is a value, as a variable's name in "head", none follows)
    while (m := _BINDINGS.search(buf, max(0, pos - 4096))) is None:
        pos = len(buf)  # searched up to here (a key split across chunks is found again)
        if not more():
            raise EndpointError(malformed)
    pos = m.end()
    need = 0  # the buffer's length a parse of one solution waits for
    while True:
        while pos < len(buf) and buf[pos] in " \t\r\n,":
            pos += 1
        if pos >= len(buf) or len(buf) < need:
            if more():
                continue
            if pos >= len(buf):
                raise EndpointError(malformed)  # the answer ended inside the array
            need = 0  # all of it is here: parse what there is
        if buf[pos] == "]":
            for _ in chunks:  # the rest of the answer ("}}"): read, so the connection is free
                pass
            return
        try:
            row, end = decoder.raw_decode(buf, pos)
        except json.JSONDecodeError:
            if ended:
                raise EndpointError(malformed) from None
            # one solution not all here yet: parsed again only once the buffer has doubled,
            # so a very long literal costs linear time, not quadratic
            need = 2 * len(buf)
            continue
        if not isinstance(row, dict):
            raise EndpointError(malformed)
        need = 0
        pos = end
        if pos > _COMPACT:
            buf, pos = buf[pos:], 0
        yield row


_BINDINGS = re.compile(r'"bindings"\s*:\s*\[')
_COMPACT = 1 << 20  # characters of parsed solutions the buffer drops at once
