"""``validate(evaluator="plan")``: compile, load a store, run the plan, pyshacl for the rest."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from rdflib import Graph, URIRef
from rdflib.namespace import RDF, RDFS, SH

from .._kernel import collector_paused
from ..errors import URNError
from ..read import ReadError, UnstorableTermError, quads_of_graph, read_quads
from ._compile import compile_shapes, roots_of
from ._load import DataError, GraphSource, ReadOptions, _sources, load_data
from ._plan import execute, load_store, store_directory
from ._report import Report, render_term
from ._results import ResultSink
from ._terms import Encoded

__all__ = ["input_size", "plan_sources", "run_endpoint", "run_plan", "subclass_relation"]

_TARGETS = (SH.targetNode, SH.targetClass, SH.targetSubjectsOf, SH.targetObjectsOf)


def input_size(sources: Sequence[GraphSource]) -> int:
    """Bytes the inputs take to read (a ``.gz`` file counted at 8 times its size)."""
    total = 0
    for s in sources:
        if isinstance(s, Graph):
            total += 200 * len(s)
            continue
        path = os.fspath(s)
        with contextlib.suppress(OSError):
            size = os.stat(path).st_size if path != "-" else 0
            total += size * (8 if path.lower().endswith(".gz") else 1)
    return total


def plan_sources(sources: Sequence[GraphSource], options: ReadOptions | None
                 ) -> list[Iterable[Any]]:
    """Each input as pyoxigraph quads, read by urnld's reader (errors as :class:`DataError`)."""
    opts = options or ReadOptions()
    return [quads_of_graph(s) if isinstance(s, Graph) else _quads(os.fspath(s), opts)
            for s in sources]


def _quads(path: str, opts: ReadOptions) -> Iterator[Any]:
    try:
        yield from read_quads(path, format=opts.format, base=opts.base, catalog=opts.catalog,
                              hazards=opts.hazards)
    except UnstorableTermError:  # a ReadError that says what to do itself
        raise
    except ReadError as e:
        raise DataError(str(e)) from e
    except OSError as e:
        raise DataError(f"{path}: cannot read: {e.strerror or e}") from e
    except URNError:
        raise
    except ValueError as e:  # gzip data that ends early or is not gzip (the file named)
        raise DataError(f"{path}: cannot read: {e}") from e


def subclass_relation(backend: Any) -> dict[str, set[str]]:
    """The data's ``rdfs:subClassOf`` statements between IRIs: class -> direct subclasses."""
    found: dict[str, set[str]] = {}
    for sub, sup in backend.select(f"SELECT ?s ?o WHERE {{ ?s <{RDFS.subClassOf}> ?o }}"):
        s, o = backend.node(sub), backend.node(sup)
        if isinstance(s, URIRef) and isinstance(o, URIRef):
            found.setdefault(str(o), set()).add(str(s))
    return found


def run_plan(
    data: GraphSource | Sequence[GraphSource],
    shapes: Graph,
    *,
    read_options: ReadOptions | None,
    progress: Callable[[int, int], None] | None,
    store: str | os.PathLike[str],
) -> Report:
    """Validate with the compiled plan; the shapes it cannot compile on pyshacl."""
    sources = _sources(data)
    if not sources:
        raise DataError("no data to validate")
    roots, failed = compile_shapes(shapes, Encoded())
    predicates: set[str] | None = set()
    for root in roots:
        if root.predicates is None or predicates is None:
            predicates = None
        else:
            predicates |= root.predicates
    directory = store_directory(store, input_size(sources))
    try:
        with collector_paused():
            backend = load_store(plan_sources(sources, read_options), predicates=predicates,
                                 directory=directory)
    except UnstorableTermError as e:
        # rdflib's N3 parser takes what no store holds: validate the graph rdflib read.
        return _all_on_pyshacl(data, shapes, read_options, f"pyshacl: {e}")
    sink = ResultSink(directory=directory)
    with collector_paused():
        try:
            roots, _ = compile_shapes(shapes, Encoded(), subclass_relation(backend))
            execute(roots, backend, shapes, sink, progress=progress)
            # pyshacl's reports describe the blank nodes they name; so does this one.
            descriptions = backend.describe(sink.blanks) if sink.blanks else None
        finally:
            backend.close()
    nsm = shapes.namespace_manager
    engines = {render_term(r.shape, nsm): "plan" for r in roots}
    conforms = sink.count == 0
    if failed:
        fallback = _fallback(data, shapes, roots, read_options)
        for result in fallback.results:
            sink.keep(result)
        conforms = conforms and fallback.conforms
        for shape, reason in failed.items():
            engines[render_term(shape, nsm)] = f"pyshacl: {reason}"
    results = sink.results()  # first: where a result may repeat, it makes the tally exact
    return Report(conforms, results, None, "", shapes, dict(sorted(engines.items())),
                  descriptions, dict(sink.tally))


def _all_on_pyshacl(data: GraphSource | Sequence[GraphSource], shapes: Graph,
                    read_options: ReadOptions | None, why: str) -> Report:
    from . import _run_pyshacl

    report = _run_pyshacl(load_data(data, read_options), shapes, inference="none",
                          engine="python", progress=None)
    engines = {render_term(r, shapes.namespace_manager): why for r in roots_of(shapes)}
    return Report(report.conforms, report.results, report.report_graph, report.pyshacl_text,
                  shapes, dict(sorted(engines.items())))


def _fallback(data: GraphSource | Sequence[GraphSource], shapes: Graph, compiled: Sequence[Any],
              read_options: ReadOptions | None) -> Report:
    """pyshacl over the shapes the plan did not compile: the compiled roots lose their targets
    (they may still be referred to, with ``sh:node`` and the like, so they stay)."""
    from . import _run_pyshacl

    pruned = Graph()
    for prefix, ns in shapes.namespaces():
        pruned.bind(prefix, ns, override=False)
    pruned += shapes
    done = {r.shape for r in compiled}
    for shape in done:
        for prop in _TARGETS:
            pruned.remove((shape, prop, None))
        if (shape, RDF.type, RDFS.Class) in pruned:
            pruned.remove((shape, RDF.type, RDFS.Class))
    assert not (set(roots_of(pruned)) & done)
    return _run_pyshacl(load_data(data, read_options), pruned, inference="none",
                        engine="python", progress=None)


def run_endpoint(
    url: str,
    shapes: Graph,
    *,
    graph: str | None,
    all_graphs: bool,
    progress: Callable[[int, int], None] | None,
    timeout: float,
    page_size: int | None,
) -> Report:
    """Validate the data of a running store with the compiled plan, read-only."""
    from ..endpoint import Endpoint
    from ._load import ShapesError
    from ._remote import RemoteStore, union_url
    from ._terms import Plain

    roots, failed = compile_shapes(shapes, Plain())
    nsm = shapes.namespace_manager
    if failed:
        listed = "; ".join(f"{render_term(s, nsm)}: {why}" for s, why in failed.items())
        raise ShapesError("against an endpoint every shape must compile into queries (pyshacl "
                          f"needs the data in memory): {listed}")
    if all_graphs:
        url = union_url(url, timeout)
    with Endpoint(url, timeout=timeout) as endpoint:
        backend = RemoteStore(endpoint, graph=graph, all_graphs=all_graphs,
                              page_size=page_size)
        roots, _ = compile_shapes(shapes, Plain(), subclass_relation(backend))
        sink = ResultSink()
        with collector_paused():
            execute(roots, backend, shapes, sink, progress=progress)
    engines = {render_term(r.shape, nsm): "plan" for r in roots}
    results = sink.results()  # first: where a result may repeat, it makes the tally exact
    return Report(sink.count == 0, results, None, "", shapes,
                  dict(sorted(engines.items())), None, dict(sink.tally))
