"""The one rule that picks the engine for a job: (input syntax, output syntax, options) → engine.

The command line, the library's file functions and the Dask engine all ask here, so a file
takes the same road whoever runs it.

>>> canonicalize_route("nt", "nt").engine
<Engine.LINES: 'lines'>
>>> canonicalize_route("nquads", "nt").engine  # named graphs must not be flattened silently
<Engine.DOCUMENT: 'document'>
>>> canonicalize_route("nt", "nquads", rdfc=True).engine
<Engine.LINES_RDFC: 'lines-rdfc'>
>>> check_route("turtle")
<Engine.SYNTAX: 'syntax'>
>>> check_route("trix")
<Engine.DOCUMENT: 'document'>
"""

from __future__ import annotations

import dataclasses
import enum

from ._formats import Syntax, get_syntax

__all__ = ["Engine", "Route", "canonicalize_route", "check_route"]


class Engine(enum.StrEnum):
    """How the statements travel from input to output."""

    #: the line pass: one statement a line in and out, in bounded memory, on several processes
    LINES = "lines"
    #: the line pass streamed straight into RDFC-1.0 (only blank-node statements held)
    LINES_RDFC = "lines-rdfc"
    #: the line pass, the other syntaxes converted to and from N-Quads on the way by
    #: pyoxigraph: bounded memory, statements as written (:mod:`urnld.stream`)
    SYNTAX = "syntax"
    #: the whole document read into a graph, canonicalized there and written back
    DOCUMENT = "document"
    #: the whole graph read, canonicalized, then labelled and sorted by RDFC-1.0
    GRAPH_RDFC = "graph-rdfc"


@dataclasses.dataclass(frozen=True, slots=True)
class Route:
    """The engine for a job, and why (for messages and tests)."""

    engine: Engine
    input: Syntax
    output: Syntax
    why: str

    @property
    def streams(self) -> bool:
        """Does the input travel as a stream (bounded memory, not deduplicated: a report's
        ``duplicates_merged`` is not counted)?"""
        return self.engine in (Engine.LINES, Engine.LINES_RDFC, Engine.SYNTAX)

    @property
    def counts_duplicates(self) -> bool:
        """Does the job's report count the duplicate statements it merged? Not where the
        statements pass one by one, never all held (the line pass, the syntax stream): there
        the command writes ``duplicates_merged`` as null and shows a progress line.

        >>> canonicalize_route("nt", "nt").counts_duplicates
        False
        >>> canonicalize_route("turtle", "trix").counts_duplicates
        True
        """
        return self.engine not in (Engine.LINES, Engine.SYNTAX)

    @property
    def partitions(self) -> bool:
        """May the input be cut into line partitions (the line pass alone does the job: what
        :mod:`urnld.stream` runs line by line and Dask partitions)?

        >>> canonicalize_route("nt", "nquads").partitions
        True
        >>> [canonicalize_route(a, "nt").partitions for a in ("nquads", "turtle")]
        [False, False]
        """
        return self.engine is Engine.LINES


def _syntax(s: Syntax | str) -> Syntax:
    return s if isinstance(s, Syntax) else get_syntax(s)


def canonicalize_route(
    input: Syntax | str, output: Syntax | str, *, rdfc: bool = False, iris: str = "as-is",
    catalog: bool = False,
) -> Route:
    """The engine that canonicalizes *input* into *output*.

    ``rdfc``: write RDFC-1.0 canonical N-Quads; ``iris``: the opt-in normalization of IRIs
    that are not URNs (``"as-is"`` rewrites URNs only); ``catalog``: JSON-LD contexts come
    from a catalog (the streaming path inlines them into the document).

    >>> canonicalize_route("turtle", "json-ld").engine
    <Engine.SYNTAX: 'syntax'>
    >>> canonicalize_route("json-ld", "nquads", catalog=True).engine
    <Engine.SYNTAX: 'syntax'>

    >>> canonicalize_route("nt", "nt", iris="rfc3986").why
    'IRIs other than URNs are normalized on a graph'
    """
    src, dst = _syntax(input), _syntax(output)
    if iris != "as-is":
        engine = Engine.GRAPH_RDFC if rdfc else Engine.DOCUMENT
        return Route(engine, src, dst, "IRIs other than URNs are normalized on a graph")
    if rdfc:
        if src.lines:
            return Route(Engine.LINES_RDFC, src, dst, "line input streams into RDFC-1.0")
        return Route(Engine.GRAPH_RDFC, src, dst, f"{src.label} is read whole for RDFC-1.0")
    if src.lines and dst.lines:
        if src.quads and not dst.quads:
            return Route(Engine.DOCUMENT, src, dst,
                         f"{src.label} into {dst.label} keeps named graphs only if they are empty")
        return Route(Engine.LINES, src, dst, "one statement a line in and out")
    if _streams(src, catalog) and dst.oxigraph is not None:
        return Route(Engine.SYNTAX, src, dst,
                     f"{src.label} into {dst.label} streams through N-Quads")
    return Route(Engine.DOCUMENT, src, dst, f"{src.label} into {dst.label} goes through a graph")


def _streams(src: Syntax, catalog: bool) -> bool:  # the callers' signature
    """Does pyoxigraph read *src* for the streaming path? (JSON-LD too with a catalog: the
    stream inlines its contexts, :mod:`urnld.stream`.)"""
    return src.oxigraph is not None


def check_route(input: Syntax | str, *, iris: str = "as-is", catalog: bool = False) -> Engine:
    """The engine that checks an input of syntax *input* (``catalog``: as for
    :func:`canonicalize_route`).

    >>> check_route("nquads"), check_route("xml"), check_route("json-ld", catalog=True)
    (<Engine.LINES: 'lines'>, <Engine.SYNTAX: 'syntax'>, <Engine.SYNTAX: 'syntax'>)
    """
    src = _syntax(input)
    if iris != "as-is":
        return Engine.DOCUMENT
    if src.lines:
        return Engine.LINES
    return Engine.SYNTAX if _streams(src, catalog) else Engine.DOCUMENT
