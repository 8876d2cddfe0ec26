"""pyoxigraph as the reader's parser: statements as written, handed to rdflib as rdflib terms.

rdflib's own parsers build every typed literal with ``Literal(lexical, datatype=…)``, which
normalizes the lexical form (``"01"^^xsd:integer`` becomes ``"1"`` and then merges with it,
``"…28.6637772Z"^^xsd:dateTime`` loses its seventh digit). pyoxigraph (Rust, already a
dependency) keeps literals as written; here each of its statements becomes rdflib terms with
``normalize=False``, so a graph read by urnld holds the document's statements, no fewer and no
others. The default graph stays the default graph, and blank nodes get fresh labels per
document (``rename_blank_nodes``), as rdflib's parsers give them.

Two things rdflib cannot hold are refused by name: RDF 1.2 triple terms and base directions.
pyoxigraph writes language tags in lower case (they are case-insensitive, RDF 1.1 §3.3).

>>> from rdflib import Graph
>>> g = Graph()
>>> parse_into(g, b'<urn:ex:a> <http://ex.org/v> "01"^^<http://www.w3.org/2001/XMLSchema#integer>,'
...            b' "1"^^<http://www.w3.org/2001/XMLSchema#integer> .', "turtle", base=None,
...            name="x.ttl")
>>> sorted(str(o) for o in g.objects())
['01', '1']
"""

from __future__ import annotations

import contextlib
import contextvars
import re
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Final

from rdflib import BNode, Dataset, Graph, Literal, URIRef
from rdflib.graph import DATASET_DEFAULT_GRAPH_ID

from .._kernel import BlankLabels, get_syntax
from ._errors import ReadError

__all__ = ["MAX_TURTLE_DEPTH", "OXIGRAPH_FORMATS", "bracket_count", "check_nesting", "kept_labels",
           "lines_of", "parse_into"]

_KEPT: contextvars.ContextVar[BlankLabels | None] = contextvars.ContextVar(
    "urnld_kept_labels", default=None)


def reading_kept() -> bool:
    """Is this read inside :func:`kept_labels`?"""
    return _KEPT.get() is not None


@contextlib.contextmanager
def kept_labels() -> Iterator[None]:
    """Within it, one document read into a new graph keeps its blank-node labels and numbers
    the ones it did not name (:class:`urnld._kernel.BlankLabels`): what a document that is
    canonicalized and written back needs to give the same bytes on every run. Outside it
    every document's blank nodes are fresh, so two documents read into one graph keep their
    blank nodes apart."""
    token = _KEPT.set(BlankLabels())
    try:
        yield
    finally:
        _KEPT.reset(token)

#: The deepest nesting of collections ``( … )`` and blank-node property lists ``[ … ]`` read
#: from Turtle and TriG. pyoxigraph keeps a few hundred bytes per open level: a megabyte of
#: ``(`` would cost a third of a gigabyte before the parser finds the document unterminated.
MAX_TURTLE_DEPTH: Final = 1000
# What cannot hold syntax brackets: strings, comments, IRIs, escaped characters.
_NOT_SYNTAX: Final = re.compile(
    rb'"""(?:[^"\\]|\\.|"(?!""))*"""'
    rb"|'''(?:[^'\\]|\\.|'(?!''))*'''"
    rb'|"(?:[^"\\\n\r]|\\.)*"'
    rb"|'(?:[^'\\\n\r]|\\.)*'"
    rb"|#[^\n\r]*"
    rb'|<[^<>"{}|^`\\\x00-\x20]*>'
    rb"|\\."
)
_NOT_BRACKETS: Final = bytes(b for b in range(256) if b not in b"()[]")
_SLICE: Final = 256

#: The reader's syntaxes that pyoxigraph parses for it (N3, TriX and HexTuples stay rdflib's:
#: pyoxigraph refuses N3 variables and has no reader for the other two).
OXIGRAPH_FORMATS: Final = frozenset({"turtle", "trig", "nt", "nquads", "xml", "json-ld"})

_XSD_STRING: Final = "http://www.w3.org/2001/XMLSchema#string"
# pyoxigraph's position prefix of a parse error message (the position is given apart).
_POSITION: Final = re.compile(r"^Parser error (?:at|between) line [^:]*: ")
# Statements handed to rdflib at a time: one addN call per batch keeps the Python overhead low
# and the list small.
_BATCH: Final = 4096


_UNEXPECTED_END: Final = "Unexpected end of file"


def _syntax_error(e: SyntaxError, name: str, fmt: str,
                  line_of: Callable[[int], bytes] | None = None) -> ReadError:
    """*e* as one :class:`ReadError` naming *name*; *line_of* gives the document's line n
    (without its newline), looked at for one case (None: the document is not at hand)."""
    msg = str(e.msg if e.msg else e)
    reason = _POSITION.sub("", msg)
    if reason == _UNEXPECTED_END and line_of is not None and e.lineno and e.offset:
        # At an opening quote, the end of file means a short string literal that does not end
        # on its line (pyoxigraph reads on to the end looking for the quote): say so.
        line = line_of(e.lineno)
        quote = line[e.offset - 1:e.offset]
        if quote in (b'"', b"'") and line[e.offset - 1:e.offset + 2] != quote * 3:
            reason = ("the string literal opened here does not end on its line (a newline in "
                      "a string literal needs triple quotes or \\n)")
    if e.lineno is not None:
        where = f"{name}:{e.lineno}" + (f":{e.offset}" if e.offset is not None else "")
    else:
        where = name
    return ReadError(f"{where}: cannot parse as {fmt}: {reason}")


def parse_into(graph: Graph, raw: bytes | Any, fmt: str, *, base: str | None,
               name: str, quads: Iterable[Any] | None = None) -> None:
    """Parse *raw* (bytes, or a binary file) in the syntax *fmt* into *graph*, literals as
    written; a syntax error is a :class:`ReadError` naming *name* and, when pyoxigraph gives
    it, the line and column. *quads*: pyoxigraph's quads, already parsed (*raw* unused).

    Inside :func:`kept_labels`, blank nodes keep the labels the document wrote and the others
    are numbered in order of appearance (the same graph on every run) instead of fresh."""
    import pyoxigraph as ox

    labels = _KEPT.get()

    ox_format = getattr(ox.RdfFormat, get_syntax(fmt).oxigraph or "")
    named_node, blank_node, literal_t = ox.NamedNode, ox.BlankNode, ox.Literal
    iris: dict[str, URIRef] = {}
    bnodes: dict[str, BNode] = {}

    def iri(value: str) -> URIRef:
        term = iris.get(value)
        if term is None:
            # pyoxigraph has validated the IRI (it is stricter than rdflib's check, which
            # URIRef() would run again): the str is made a URIRef directly.
            term = iris[value] = str.__new__(URIRef, value)
        return term

    def term(t: Any) -> Any:
        kind = type(t)
        if kind is named_node:
            return iri(t.value)
        if kind is blank_node:
            value = t.value
            node = bnodes.get(value)
            if node is None:
                node = bnodes[value] = BNode(value if labels is None else labels.label(value))
            return node
        if kind is literal_t:
            language = t.language
            if language is not None:
                if t.direction is not None:
                    raise ReadError(f"{name}: the literal {t} has a base direction (RDF 1.2), "
                                    "which rdflib cannot hold")
                return Literal(t.value, lang=language)
            datatype = t.datatype.value
            if datatype == _XSD_STRING:
                return Literal(t.value)
            # normalize=False: the lexical form as written ("01", seven fractional digits).
            return Literal(t.value, datatype=iri(datatype), normalize=False)
        raise ReadError(f"{name}: the statement term {t} is an RDF 1.2 triple term, which "
                        "rdflib cannot hold")

    default, contexts = _targets(graph)

    def context(name_: Any) -> Graph:
        if type(name_) is ox.DefaultGraph:
            return default
        key = term(name_)
        target = contexts.get(key)
        if target is None:
            target = contexts[key] = _named(graph, key)
        return target

    # The store's addN: Graph.addN would drop the statements of other graphs than its own.
    add = graph.store.addN
    batch: list[tuple[Any, Any, Any, Graph]] = []
    parser = None
    try:
        if quads is None:
            quads = parser = ox.parse(raw, ox_format, base_iri=base,
                                      rename_blank_nodes=labels is None)
        for q in quads:
            g = q.graph_name
            batch.append((term(q.subject), iri(q.predicate.value), term(q.object),
                          default if type(g) is ox.DefaultGraph else context(g)))
            if len(batch) >= _BATCH:
                add(batch)
                batch = []
    except SyntaxError as e:
        raise _syntax_error(e, name, fmt, lines_of(raw) if isinstance(raw, bytes) else None
                            ) from None
    except MemoryError as e:
        # pyoxigraph's bound on one token ("Reached the buffer maximal size").
        raise ReadError(f"{name}: cannot parse as {fmt}: one token (literal, IRI, string) is "
                        f"too long: {e}") from None
    if batch:
        add(batch)
    if parser is not None:
        # The document's prefixes, bound as rdflib's parsers bind them (a name already taken
        # for another namespace is kept, the new one gets a numbered name).
        for prefix, namespace in parser.prefixes.items():
            graph.bind(prefix, namespace, override=False)


def lines_of(data: bytes) -> Callable[[int], bytes]:
    """Line n (from 1, without its newline; ``b""`` past the end) of a document held whole.

    >>> lines_of(b"a\\nbc\\n")(2), lines_of(b"a")(5)
    (b'bc', b'')
    """
    def line(n: int) -> bytes:
        lines = data.split(b"\n", n)
        return lines[n - 1] if len(lines) >= n else b""

    return line


def bracket_count(data: bytes) -> int:
    """How many ``(`` and ``[`` *data* holds: a document with at most
    :data:`MAX_TURTLE_DEPTH` cannot nest past it (:func:`check_nesting`'s first test).

    >>> bracket_count(b'<urn:x:s> <urn:x:p> ( [ ] ) .')
    2
    """
    return data.count(b"(") + data.count(b"[")


def check_nesting(raw: bytes, fmt: str, name: str) -> None:
    """Refuse Turtle or TriG nested more than :data:`MAX_TURTLE_DEPTH` levels deep, before
    parsing. A document with fewer opening brackets than that (most of them) costs two
    ``bytes.count``; others one regular-expression pass that drops strings, comments and IRIs.

    >>> check_nesting(b"<urn:x:s> <urn:x:p> " + b"(" * 1001, "turtle", "x.ttl")
    Traceback (most recent call last):
    ...
    urnld.errors.ReadError: x.ttl: cannot parse as turtle: collections or blank-node property \
lists nested more than 1,000 levels deep: refused (nested too deeply)
    >>> check_nesting(b'<urn:x:s> <urn:x:p> "' + b"(" * 1001 + b'" .', "turtle", "x.ttl")
    """
    if bracket_count(raw) <= MAX_TURTLE_DEPTH:
        return
    brackets = _NOT_SYNTAX.sub(b"", raw).translate(None, _NOT_BRACKETS)
    depth = 0
    for i in range(0, len(brackets), _SLICE):
        part = brackets[i:i + _SLICE]
        opens = part.count(b"(") + part.count(b"[")
        if depth + opens <= MAX_TURTLE_DEPTH:
            depth = max(0, depth + 2 * opens - len(part))
            continue
        for c in part:
            depth = depth + 1 if c in b"([" else max(0, depth - 1)
            if depth > MAX_TURTLE_DEPTH:
                raise ReadError(
                    f"{name}: cannot parse as {fmt}: collections or blank-node property lists "
                    f"nested more than {MAX_TURTLE_DEPTH:,} levels deep: refused (nested too "
                    "deeply)")


def _targets(graph: Graph) -> tuple[Graph, dict[Any, Graph]]:
    """Where default-graph statements go (the dataset's default graph, or *graph*), and the
    cache of named graphs."""
    if isinstance(graph, Dataset):
        return graph.graph(DATASET_DEFAULT_GRAPH_ID), {}
    return graph, {}


def _named(graph: Graph, name: Any) -> Graph:
    """The graph a named graph's statements go to: the dataset's graph of that name; for a
    plain graph, that name's context of its store (where rdflib's TriG parser puts them), or
    the graph itself when its store holds no contexts."""
    if isinstance(graph, Dataset):
        return graph.graph(name)
    if graph.store.context_aware:
        return Graph(store=graph.store, identifier=name, namespace_manager=graph.namespace_manager)
    return graph
