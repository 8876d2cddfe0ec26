"""One RDF document in, canonicalized in memory, written out in any syntax rdflib writes.

The in-memory way of ``urnld canonicalize`` (every syntax that is not read line by line, and
every output syntax that is not written line by line), shared by the command's local engine and
the Dask engine's whole-document tasks, so that both give the same statements and the same report.
"""

from __future__ import annotations

import os
from typing import Any, Literal

from rdflib import Dataset, Graph

from .._core import Policy
from .._kernel import atomic_output, get_syntax
from ..errors import URNError
from ..read import Catalog, HazardMode, read
from ..report import CanonicalizeReport
from ._canonicalize import canonicalize

__all__ = ["canonicalize_document", "check_output_format", "write_graph"]

def _holds_quads(fmt: str) -> bool:
    """Can the syntax rdflib writes as *fmt* hold named graphs? (the one syntax table)"""
    try:
        return get_syntax(fmt).quads
    except URNError:
        return False  # a serializer of a plugin urnld does not know: written as triples


def check_output_format(fmt: str) -> str:
    """Return *fmt* if rdflib can write that syntax, else raise :class:`URNError` listing the
    syntaxes it can write.

    >>> check_output_format("turtle")
    'turtle'
    >>> check_output_format("yaml")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    urnld.URNError: unknown output format 'yaml'; use one of: hext, json-ld, ...
    """
    from rdflib.plugin import PluginException, get, plugins
    from rdflib.serializer import Serializer

    try:
        get(fmt, Serializer)
    except PluginException:
        known = sorted(
            p.name for p in plugins(kind=Serializer)
            if "/" not in p.name and not p.name.startswith("ox-")  # MIME and oxrdflib twins
        )
        raise URNError(f"unknown output format {fmt!r}; use one of: {', '.join(known)}") from None
    return fmt


def write_graph(graph: Graph, path: str, fmt: str, *, source: str = "<input>") -> None:
    """Write *graph* to *path* in the syntax *fmt* (temporary file + rename; ``.gz`` is
    compressed; ``-`` is stdout).

    A dataset goes into a triples syntax only when its named graphs are empty (else
    :class:`URNError` naming *source*); a graph written as quads lands in the default graph.

    >>> import tempfile, pathlib
    >>> out = pathlib.Path(tempfile.mkdtemp()) / "x.nq"
    >>> g = Graph().parse(data="<urn:example:a> <urn:example:p> 1 .", format="turtle")
    >>> write_graph(g, str(out), "nquads")
    >>> out.read_text().split()[:2]
    ['<urn:example:a>', '<urn:example:p>']
    """
    target: Graph = graph
    if isinstance(target, Dataset) and not _holds_quads(fmt):
        named = [g for g in target.graphs() if g.identifier != target.default_graph.identifier]
        if any(len(g) for g in named):
            raise URNError(
                f"{source} has named graphs, which {fmt} cannot hold; "
                "use --output-format nquads or trig"
            )
        target = target.default_graph
    elif not isinstance(target, Dataset) and _holds_quads(fmt):
        # rdflib refuses to write N-Quads/TriG from a plain Graph.
        dataset = Dataset()
        for triple in target:
            dataset.add(triple)
        for prefix, namespace in target.namespaces():
            dataset.bind(prefix, namespace, override=False)
        target = dataset
    with atomic_output(path, fsync=True) as fo:
        target.serialize(destination=fo, format=fmt, encoding="utf-8")


def canonicalize_document(
    source: str | os.PathLike[str],
    output: str,
    *,
    format: str | None = None,
    output_format: str | None = None,
    catalog: Catalog = None,
    base: str | None = None,
    hazards: HazardMode = "error",
    name: str | None = None,
    iris: Literal["as-is", "rfc3986"] = "as-is",
    policy: Policy | None = None,
    **options: Any,
) -> CanonicalizeReport:
    """Read *source* with :func:`urnld.read.read`, canonicalize it with
    :func:`urnld.rdf.canonicalize` and write it to *output*; return the report.

    *format*, *catalog*, *base*, *hazards* and *name* are the reader's; *output_format*
    (default: *format*, else the input's syntax) the syntax written; *iris*, *policy* and
    *options* (``ignore_components``, ``literals``, ``link``, ``keep_spellings``,
    ``link_resolvers``, or all of them as one value ``options=``) are
    :func:`~urnld.rdf.canonicalize`'s. The whole document is held in
    memory.

    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "in.ttl").write_text("<URN:ISBN:0-395-36341-1> <urn:example:p> 1 .")
    >>> report = canonicalize_document(d / "in.ttl", str(d / "out.nt"), output_format="nt")
    >>> (d / "out.nt").read_text()
    '<urn:isbn:0395363411> <urn:example:p> "1"^^<http://www.w3.org/2001/XMLSchema#integer> .\\n'
    >>> report.rewritten
    1
    """
    graph = read(source, format=format, catalog=catalog, base=base, hazards=hazards, name=name)
    if output_format is None:
        from ..read import format_for_path

        output_format = format_for_path(os.fspath(source), format)
    check_output_format(output_format)
    if policy is not None:
        options["policy"] = policy
    result = canonicalize(graph, iris=iris, **options)
    del graph  # the copy is all that is needed from here on
    write_graph(result.graph, output, output_format, source=name or os.fspath(source))
    return result.report
