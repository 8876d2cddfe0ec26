"""One RDF document in, canonicalized in memory, written out in any syntax rdflib writes.

The in-memory way of ``urnld canonicalize`` (every syntax that is not read line by line, and
every output syntax that is not written line by line), shared by the command's local engine and
the Dask engine's whole-document tasks, so that both give the same statements and the same report.
"""

from __future__ import annotations

import os
import re
from typing import Any, Final, Literal

from rdflib import Dataset, Graph

from .._core import Policy
from .._kernel import atomic_output, get_syntax, writable_output
from ..errors import URNError
from ..read import Catalog, HazardMode, kept_labels, read
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
    target = relabelled(target)
    if fmt in _UNORDERED:
        # rdflib writes these in the order of its store's sets, which changes from run to
        # run: the statements (and TriX's graphs) are sorted, so every run writes one file.
        data = _UNORDERED[fmt](target.serialize(format=fmt, encoding="utf-8"))
        with atomic_output(path, fsync=True) as fo:
            fo.write(data)
        return
    target = _in_order(target)
    with atomic_output(path, fsync=True) as fo:
        target.serialize(destination=fo, format=fmt, encoding="utf-8")


def _in_order(graph: Graph) -> Graph:
    """*graph* copied into a new graph in sorted order: rdflib's writers follow the order of
    the store, which for rdflib's default store is the order of a set (a new one every run);
    the ``SimpleMemory`` store keeps the order statements were added in. A dataset's graphs
    stay in sets (rdflib's TriG writer sorts them)."""
    if isinstance(graph, Dataset):
        out: Graph = Dataset()
        default = graph.default_graph.identifier
        names: list[Any] = sorted((g.identifier for g in graph.graphs()
                                   if g.identifier != default), key=lambda n: n.n3())
        for named in names:
            out.graph(named)  # type: ignore[attr-defined]
        quads: list[Any] = list(graph.quads((None, None, None, None)))
        rows = sorted(quads, key=lambda q: (getattr(q[3], "identifier", q[3]).n3(),
                                            q[0].n3(), q[1].n3(), q[2].n3()))
        for s, p, o, ctx in rows:
            name: Any = getattr(ctx, "identifier", ctx)
            into = out.default_graph if name == default else out.graph(name)  # type: ignore[attr-defined]
            into.add((s, p, o))
    else:
        out = Graph(store="SimpleMemory", bind_namespaces="none")  # dicts: added order kept
        for triple in sorted(graph, key=lambda t: (t[0].n3(), t[1].n3(), t[2].n3())):
            out.add(triple)
    for prefix, namespace in graph.namespaces():
        out.bind(prefix, namespace, override=True, replace=True)
    return out


def _sorted_hext(data: bytes) -> bytes:
    """HexTuples, N-Triples, N-Quads: one statement a line, in no meaningful order."""
    lines = data.splitlines(keepends=True)
    return b"".join(sorted(set(lines)))  # rdflib writes the default graph twice


_GRAPH = re.compile(rb"  <graph>\n.*?  </graph>\n", re.S)
_TRIPLE = re.compile(rb"    <triple>\n.*?    </triple>\n", re.S)


def _sorted_trix(data: bytes) -> bytes:
    """TriX as rdflib lays it out (one element a line, indented by depth): the graphs sorted,
    and the triples of each graph."""
    graphs = list(_GRAPH.finditer(data))
    if not graphs:
        return data

    def sort_graph(block: bytes) -> bytes:
        triples = list(_TRIPLE.finditer(block))
        if not triples:
            return block
        head, tail = block[:triples[0].start()], block[triples[-1].end():]
        return head + b"".join(sorted(m.group(0) for m in triples)) + tail

    head, tail = data[:graphs[0].start()], data[graphs[-1].end():]
    return head + b"".join(sorted(sort_graph(m.group(0)) for m in graphs)) + tail


def _sorted_jsonld(data: bytes) -> bytes:
    """JSON-LD as rdflib writes it: every array sorted but ``@list``'s (node objects and
    values are in no meaningful order), written back as rdflib lays it out."""
    import json

    def walk(value: Any, ordered: bool = False) -> Any:
        if isinstance(value, dict):
            return {k: walk(v, ordered=k == "@list") for k, v in value.items()}
        if isinstance(value, list):
            items = [walk(v) for v in value]
            return items if ordered else sorted(
                items, key=lambda v: json.dumps(v, sort_keys=True, ensure_ascii=False))
        return value

    doc = walk(json.loads(data))
    return json.dumps(doc, indent=2, separators=(",", ": "), sort_keys=True,
                      ensure_ascii=False).encode("utf-8")


_UNORDERED: Final = {"json-ld": _sorted_jsonld, "hext": _sorted_hext, "trix": _sorted_trix,
                     "nt": _sorted_hext,
                     "nquads": _sorted_hext}


def relabelled(graph: Graph) -> Graph:
    """*graph*, or a copy of it whose blank nodes carry deterministic labels (the readers'
    labels are random: :class:`urnld._kernel.BlankLabels`), so that a document written twice
    is the same bytes. Statements, graphs and prefixes are the same.

    >>> from rdflib import BNode, URIRef
    >>> g = Graph()
    >>> _ = g.add((BNode("N" + "1" * 32), URIRef("urn:example:p"), BNode("kept")))
    >>> sorted(str(t) for t in next(iter(relabelled(g)))[::2])
    ['b0', 'kept']
    """
    from rdflib import BNode

    from .._kernel import BlankLabels, invented

    quads = list(graph.quads((None, None, None, None))) if isinstance(graph, Dataset) else None
    triples = None if quads is not None else list(graph)
    rows: list[Any] = quads if quads is not None else triples  # type: ignore[assignment]
    if not any(type(t) is BNode and invented(t) for row in rows for t in row[:3]) and not (
            quads is not None and any(type(n := getattr(q[3], "identifier", q[3])) is BNode
                                      and invented(n) for q in quads)):
        return graph  # no label a parser made up: nothing to do
    labels = BlankLabels()

    def term(t: Any) -> Any:
        return BNode(labels.label(str(t))) if type(t) is BNode else t

    out: Graph
    if quads is not None:
        ds = Dataset()
        default = graph.default_graph.identifier  # type: ignore[attr-defined]
        for g in graph.graphs():  # type: ignore[attr-defined]
            if g.identifier != default:
                ds.graph(term(g.identifier))  # kept even when empty
        for s, p, o, ctx in quads:
            name = getattr(ctx, "identifier", ctx)  # Dataset.quads gives the name itself
            target = ds.default_graph if name == default else ds.graph(term(name))
            target.add((term(s), p, term(o)))
        out = ds
    else:
        out = Graph()
        for s, p, o in rows:
            out.add((term(s), p, term(o)))
    for prefix, namespace in graph.namespaces():
        out.bind(prefix, namespace, override=True, replace=True)
    return out


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
    the syntax written (default: the one *output*'s extension names, as ``urnld canonicalize
    -o`` takes it; the input's for ``-`` and a name without extension; an unknown extension
    is refused); *iris*, *policy* and
    *options* (``ignore_components``, ``literals``, ``link``, ``keep_spellings``,
    ``link_resolvers``, or all of them as one value ``options=``) are
    :func:`~urnld.rdf.canonicalize`'s. The whole document is held in
    memory.

    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "in.ttl").write_text("<URN:ISBN:0-395-36341-1> <urn:example:p> 1 .")
    >>> report = canonicalize_document(d / "in.ttl", str(d / "out.nt"))
    >>> (d / "out.nt").read_text()
    '<urn:isbn:0395363411> <urn:example:p> "1"^^<http://www.w3.org/2001/XMLSchema#integer> .\\n'
    >>> report.rewritten
    1
    """
    with kept_labels():  # labels as written, the others numbered: the same bytes every run
        graph = read(source, format=format, catalog=catalog, base=base, hazards=hazards,
                     name=name)
    if output_format is None:
        # As the command does: the syntax -o's extension names, else the input's; an
        # extension that names none is refused.
        from ..read import format_for_path

        given = format_for_path(os.fspath(source), format, stdin="turtle")
        output_format = writable_output(os.fspath(output), None, default=given).name
    check_output_format(output_format)
    if policy is not None:
        options["policy"] = policy
    result = canonicalize(graph, iris=iris, **options)
    del graph  # the copy is all that is needed from here on
    write_graph(result.graph, output, output_format, source=name or os.fspath(source))
    return result.report
