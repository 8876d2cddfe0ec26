"""Reading data and shapes graphs from files, with one clear error per unreadable input."""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, TypeAlias

from rdflib import Dataset, Graph, Literal, URIRef
from rdflib.namespace import XSD

from .._core import open_regular
from .._kernel import ReadingOptions
from ..errors import URNError
from ..read import QUAD_FORMATS, ReadError, format_for_path, read
from ._rules import RULES, URNSH

__all__ = [
    "DataError",
    "GraphSource",
    "ReadOptions",
    "ShapesError",
    "check_parameters",
    "load_data",
    "load_shapes",
]

#: A graph, or the path of an RDF file (any syntax :func:`urnld.read.read` reads; ``.gz`` is
#: decompressed; ``"-"`` is Turtle on stdin).
GraphSource: TypeAlias = Graph | str | os.PathLike[str]

_NID_LIST = re.compile(r"[A-Za-z0-9\- \t\n\r]*")



class DataError(URNError):
    """A data file could not be read or parsed. The message names the file and the reason."""


class ShapesError(URNError):
    """The shapes could not be read, or cannot be run (bad shape, bad parameter value)."""


def _format(path: str, given: str | None = None) -> str:
    try:
        return format_for_path(path, given, stdin="turtle")
    except ReadError:
        if given:
            raise
        return "turtle"  # an unknown extension: Turtle, as before (N-Triples is a subset)


def _read_into(
    graph: Graph, path: str, error: type[URNError], *, options: ReadOptions | None = None
) -> None:
    opts = options or ReadOptions()
    # pyshacl.validate reads a shapes *file* with rdflib's boolean parsing made strict (only
    # "true" is true: SHACL's W3C test uniqueLang-002 depends on it); read it the same way.
    strict_booleans = error is ShapesError
    if strict_booleans and path != "-" and os.path.exists(path):  # else: read says why
        # A shapes file is read whole: a FIFO or a device is refused, and so is a file past
        # the limit, with one line naming it.
        try:
            open_regular(path, "shapes file", max_bytes=MAX_SHAPES_BYTES).close()
        except URNError as e:
            raise ShapesError(str(e)) from None
    try:
        with _booleans_as_pyshacl_reads_them() if strict_booleans else contextlib.nullcontext():
            read(path, graph=graph, format=_format(path, opts.format), catalog=opts.catalog,
                 hazards=opts.hazards, base=opts.base)
    except ReadError as e:
        raise error(str(e)) from e
    except OSError as e:
        raise error(f"{path}: cannot read: {e.strerror or e}") from e


@contextlib.contextmanager
def _booleans_as_pyshacl_reads_them() -> Iterator[None]:
    """rdflib reading as ``pyshacl.validate`` makes it read a shapes file: only ``"true"``
    (in any case) is a true ``xsd:boolean``, and literals are not normalized. What
    ``pyshacl.monkey.rdflib_bool_patch`` does, here so that a run that never needs pyshacl
    does not import it; what was there before is put back."""
    import rdflib
    import rdflib.term

    mapping: dict[URIRef, Any] = getattr(rdflib.term, "_toPythonMapping")  # noqa: B009
    key = URIRef(XSD.boolean)
    normalize, had, parse = rdflib.NORMALIZE_LITERALS, key in mapping, mapping.get(key)
    rdflib.NORMALIZE_LITERALS = False
    mapping[key] = lambda text: text.lower() == "true"
    try:
        yield
    finally:
        rdflib.NORMALIZE_LITERALS = normalize
        if had:
            mapping[key] = parse
        else:
            mapping.pop(key, None)


#: The largest shapes file read (shapes graphs are small; a data dump given as shapes is not).
MAX_SHAPES_BYTES = 256 << 20

#: How data or shapes files are read: the one reading-options value of every entry point
#: (``format``, ``base``, ``catalog``, ``hazards``; :func:`urnld.read.read`).
ReadOptions = ReadingOptions


def _sources(source: GraphSource | Sequence[GraphSource]) -> list[GraphSource]:
    if isinstance(source, (Graph, str, os.PathLike)):
        return [source]
    return list(source)


def load_data(
    source: GraphSource | Sequence[GraphSource], options: ReadOptions | None = None
) -> Graph:
    """The data graph: a given graph as is (never modified), or files merged into one graph.

    Files in formats with named graphs (N-Quads, TriG, TriX, JSON-LD) go into a
    :class:`~rdflib.Dataset`, which is validated as the union of its graphs.
    """
    sources = _sources(source)
    if len(sources) == 1 and isinstance(sources[0], Graph):
        return sources[0]
    if not sources:
        raise DataError("no data to validate")
    paths = [os.fspath(s) for s in sources if not isinstance(s, Graph)]
    given = options.format if options is not None else None
    quads = any(_format(p, given) in QUAD_FORMATS for p in paths)
    merged: Graph = Dataset(default_union=True) if quads else Graph()
    for s in sources:
        if isinstance(s, Graph):
            for prefix, ns in s.namespaces():
                merged.bind(prefix, ns, override=False)
            if isinstance(merged, Dataset):
                merged.addN((t[0], t[1], t[2], merged.default_graph) for t in s)
            else:
                merged += s
        else:
            _read_into(merged, os.fspath(s), DataError, options=options)
    return merged


def shipped_path(name: str) -> Path:
    """The file system path of a shapes file shipped with urnld (``urn.ttl``, ``catalog.ttl``)."""
    from importlib import resources

    return Path(str(resources.files("urnld") / "shapes" / name))


def load_shapes(
    shapes: GraphSource | Sequence[GraphSource] | None, options: ReadOptions | None = None
) -> Graph:
    """``urn.ttl`` (always: it declares the components) + *shapes*, or + ``catalog.ttl`` if None.

    Loading ``urn.ttl`` every time means a shapes file that uses ``urnsh:canonical`` without
    declaring the component still gets it checked, instead of SHACL silently ignoring an
    unknown property.
    """
    graph = Graph()
    _read_into(graph, str(shipped_path("urn.ttl")), ShapesError)
    extra: Iterable[GraphSource] = (
        [str(shipped_path("catalog.ttl"))] if shapes is None else _sources(shapes)
    )
    for s in extra:
        if isinstance(s, Graph):
            for prefix, ns in s.namespaces():
                graph.bind(prefix, ns, override=False)
            graph += s
        else:
            _read_into(graph, os.fspath(s), ShapesError,
                       options=ReadOptions(catalog=options.catalog, hazards=options.hazards)
                       if options is not None else None)
    check_parameters(graph)
    return graph


def check_parameters(graph: Graph) -> None:
    """Refuse ``urnsh:`` parameter values that would make a component silently do nothing.

    ``urnsh:nid`` must be a string literal ("isbn issn"; an RDF list cannot be read by a SPARQL
    validator), the boolean parameters ``true``/``false`` literals.
    """
    params = [component.param for component in RULES.values()] + ["onlyURNs"]
    for param in params:
        prop = URNSH[param]
        for shape, value in graph.subject_objects(prop):
            if prop == URNSH.nid:
                # Only NID characters and ASCII white space: there XPath's "\s" (the normative
                # REPLACE) and Python's (rdflib's REPLACE, urnld's Python path) split alike.
                ok = (
                    isinstance(value, Literal)
                    and value.datatype in (None, XSD.string)
                    and _NID_LIST.fullmatch(str(value)) is not None
                )
                expected = 'a string of space-separated NIDs, e.g. "isbn issn"'
            else:
                ok = isinstance(value, Literal) and value.datatype == XSD.boolean
                expected = "true or false"
            if not ok:
                raise ShapesError(
                    f"shape {shape.n3(graph.namespace_manager)}: urnsh:{param} "
                    f"must be {expected}, not {value.n3(graph.namespace_manager)}"
                )
