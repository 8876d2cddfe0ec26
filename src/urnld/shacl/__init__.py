"""SHACL shapes for URNs, run by pyshacl: :func:`validate` returns a standard report.

The shapes live in ``shapes/urn.ttl`` (namespace ``https://w3id.org/urnld/shacl#``, prefix
``urnsh:``) and ``shapes/catalog.ttl``, shipped inside the package. ``urn.ttl`` has two layers:

* ``urnsh:URN``, a node shape in core SHACL (``sh:pattern`` with RFC 8141 §2): any engine;
* six SPARQL-based constraint components — ``urnsh:nid``, ``urnsh:registered``,
  ``urnsh:namespaceValid``, ``urnsh:canonical``, ``urnsh:noComponents``,
  ``urnsh:uniqueByEquivalence`` — whose validators call the ``urnfn:`` SPARQL functions
  (:mod:`urnld.rdf`). Any SHACL-SPARQL engine with those functions runs them; :func:`validate`
  evaluates them in Python inside pyshacl, with the same results, at ``sh:pattern`` speed.

>>> from rdflib import Graph
>>> data = Graph().parse(format="turtle", data='''
...     @prefix dcterms: <http://purl.org/dc/terms/> .
...     @prefix bibo: <http://purl.org/ontology/bibo/> .
...     <http://example.org/b1> a bibo:Book ; dcterms:identifier "urn:isbn:0395363412" .''')
>>> report = validate(data)
>>> report.conforms
False
>>> [(r.value, r.component.split("#")[1]) for r in report.results]
[(rdflib.term.Literal('urn:isbn:0395363412'), 'NamespaceValidConstraintComponent')]
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Literal as _Literal

from rdflib import Graph, Literal, URIRef

from .._core import Policy, active_policy, policy_scope
from ._load import (
    DataError,
    GraphSource,
    ReadOptions,
    ShapesError,
    load_data,
    load_shapes,
    shipped_path,
)
from ._pattern import URN_PATTERN
from ._report import Report, TermRenderer, ValidationResult
from ._rules import URNSH

_SH_DEACTIVATED = URIRef("http://www.w3.org/ns/shacl#deactivated")
_TRUE = Literal(True)

__all__ = [
    "URNSH",
    "URN_PATTERN",
    "DataError",
    "Evaluator",
    "GraphSource",
    "ReadOptions",
    "Report",
    "ShapesError",
    "TermRenderer",
    "ValidationResult",
    "shapes_path",
    "validate",
    "validate_endpoint",
]

Inference = _Literal["none", "rdfs", "owlrl", "both"]
_INFERENCE = ("none", "rdfs", "owlrl", "both")


def __dir__() -> list[str]:
    return __all__


def shapes_path(name: str = "urn.ttl") -> str:
    """The path of a shapes file shipped with urnld: ``"urn.ttl"`` or ``"catalog.ttl"``.

    >>> shapes_path("catalog.ttl").endswith("catalog.ttl")
    True
    """
    if name not in ("urn.ttl", "catalog.ttl"):
        raise ValueError(f"no shipped shapes file {name!r}; expected 'urn.ttl' or 'catalog.ttl'")
    return str(shipped_path(name))


#: How shapes are evaluated: ``"plan"`` compiles them into set-at-a-time queries on a store
#: (shapes it cannot compile run on pyshacl); ``"pyshacl"`` runs everything on pyshacl, urnld's
#: components in Python; ``"sparql"`` runs everything on pyshacl with urnld's components as
#: their SPARQL definitions; ``"plain-pyshacl"`` is pyshacl untouched (for comparisons).
Evaluator = _Literal["plan", "pyshacl", "sparql", "plain-pyshacl"]
_EVALUATORS = ("plan", "pyshacl", "sparql", "plain-pyshacl")
_PYSHACL_ENGINE = {"pyshacl": "python", "sparql": "sparql", "plain-pyshacl": "pyshacl"}


def validate(
    data: GraphSource | Sequence[GraphSource],
    shapes: GraphSource | Sequence[GraphSource] | None = None,
    *,
    inference: Inference = "none",
    evaluator: Evaluator = "plan",
    reading: ReadOptions | None = None,
    policy: Policy | None = None,
    progress: Callable[[int, int], None] | None = None,
    store: str | os.PathLike[str] = "auto",
) -> Report:
    """Validate *data* against SHACL *shapes*.

    Args:
        data: an rdflib graph (never modified), or RDF file path(s), merged.
        shapes: shapes graph(s) or file(s). ``shapes/urn.ttl`` is always added (it declares the
            ``urnsh:`` components); when *shapes* is None, ``shapes/catalog.ttl`` is used too.
        inference: pyshacl's pre-validation inference: ``"none"``, ``"rdfs"``, ``"owlrl"``,
            ``"both"``; any but ``"none"`` runs every shape on pyshacl.
        evaluator: ``"plan"`` (default) compiles the shapes into set-at-a-time SPARQL over a
            pyoxigraph store and judges each distinct URN once; a shape it cannot compile
            (``sh:sparql``, a shape that refers to itself…) runs on pyshacl, and
            :attr:`Report.engines` says which ran where. ``"pyshacl"`` runs every shape on
            pyshacl with urnld's components in Python; ``"sparql"`` runs their SPARQL
            definitions as any SHACL-SPARQL engine would (slow: one query per value node).
            All give the same results. ``"plain-pyshacl"`` leaves everything to pyshacl,
            including its habit of repeating earlier results' messages on later results of
            the same SPARQL component (docs/shacl.md).
        reading: how files are read (:class:`urnld._kernel.ReadingOptions`, also
            importable here as :data:`ReadOptions`): the data syntax (default: from the
            extension), the base, the JSON-LD catalog, what to do about relative references
            against a URN base (the syntax applies to data files only).
        policy: the validation policy (:class:`urnld.Policy`: ``strict``, profiles, severity
            overrides) the ``urnsh:`` components and ``urnfn:`` functions judge URNs by;
            default: the one in force (:func:`urnld.find_policy` gives a project's). A finding
            code overridden to ``ignore`` is reported by no component.
        progress: called as ``progress(done, total)`` while the shapes run; with the plan,
            *done* of *total* queries are finished (on pyshacl: focus-node checks). Called first
            with ``done=0``, then as the work goes on, up to ``done == total``. The report is
            the same with or without it.
        store: where the plan's store lives: ``"auto"`` (in memory for inputs up to 256 MiB,
            else on disk), ``"memory"``, ``"disk"`` (a temporary directory in ``$TMPDIR``,
            removed afterwards), or a directory to make that temporary directory in.

    Returns:
        a :class:`Report` (``.conforms``, ``.results``, ``.graph``, ``.engines``).

    Raises:
        DataError: a data file cannot be read or parsed.
        ShapesError: a shapes file cannot be read, or the shapes cannot be run.
        ValueError: an unknown *inference*, *evaluator* or *store*.

    >>> from rdflib import Graph
    >>> data = Graph().parse(format="turtle", data=\'\'\'
    ...     @prefix dcterms: <http://purl.org/dc/terms/> .
    ...     @prefix schema: <http://schema.org/> .
    ...     <http://example.org/b1> a schema:Book ;
    ...         dcterms:identifier "urn:isbn:0395363412" .\'\'\')
    >>> report = validate(data)
    >>> [(r.value, r.component.split("#")[1]) for r in report]
    [(rdflib.term.Literal('urn:isbn:0395363412'), 'NamespaceValidConstraintComponent')]
    >>> sorted(set(report.engines.values()))
    ['plan']
    """
    if inference not in _INFERENCE:
        raise ValueError(f"inference must be one of {', '.join(_INFERENCE)}, not {inference!r}")
    if evaluator not in _EVALUATORS:
        raise ValueError(f"evaluator must be one of {', '.join(_EVALUATORS)}, not {evaluator!r}")
    if not isinstance(store, os.PathLike) and store not in ("auto", "memory", "disk") and (
            not isinstance(store, str) or not os.path.isdir(store)):
        raise ValueError(f"store must be 'auto', 'memory', 'disk' or a directory, not {store!r}")
    read_options = reading
    shapes_graph = load_shapes(shapes, read_options)
    if evaluator != "plain-pyshacl":
        # urnsh:Functions reports an engine without the urnfn: functions. This run registers
        # them (the pyshacl path proves it: ensure_functions raises otherwise), so the shape
        # could only pass; its SPARQL query, parsed anew in every run, would double the time
        # of a small run.
        shapes_graph.add((URNSH.Functions, _SH_DEACTIVATED, _TRUE))
    with policy_scope(policy if policy is not None else active_policy()):
        if evaluator == "plan" and inference == "none":
            from ._run import run_plan

            return run_plan(data, shapes_graph, read_options=read_options, progress=progress,
                            store=store)
        data_graph = load_data(data, read_options)
        report = _run_pyshacl(data_graph, shapes_graph, inference=inference,
                              engine=_PYSHACL_ENGINE.get(evaluator, "python"), progress=progress)
    why = "inference" if inference != "none" else "chosen"
    engines = dict.fromkeys(_root_texts(shapes_graph), f"pyshacl: {why}")
    return Report(report.conforms, report.results, report.report_graph, report.pyshacl_text,
                  shapes_graph, engines)


def validate_endpoint(
    url: str,
    shapes: GraphSource | Sequence[GraphSource] | None = None,
    *,
    graph: str | None = None,
    all_graphs: bool = False,
    policy: Policy | None = None,
    progress: Callable[[int, int], None] | None = None,
    timeout: float = 300.0,
    page_size: int | None = None,
) -> Report:
    """Validate the data of a running store (a SPARQL 1.1 query endpoint) with the compiled
    plan: the same queries as :func:`validate` sends to its local store, paged, read-only.

    Args:
        url: the query endpoint (http or https; credentials as for ``urnld check --endpoint``).
        shapes: as for :func:`validate`; every shape must compile (pyshacl needs the data in
            memory): one that does not is a :class:`ShapesError` naming it and why.
        graph: validate this named graph; *all_graphs*: the default graph and every named
            graph; neither: the store's default graph.
        policy, progress: as for :func:`validate`.
        timeout: seconds per request. *page_size*: read each result in pages of this many
            rows (for stores that cap results); default: each result whole, streamed.

    Raises:
        ShapesError: the shapes cannot be read, or a shape does not compile.
        urnld.endpoint.EndpointError: the store cannot be reached or answers wrongly.
        ValueError: *graph* with *all_graphs*, an unusable graph IRI or page size.

    The same data gives the same results as :func:`validate` on a dump of it, but for
    literals the store keeps by value (``"01"^^xsd:int``), which it answers about so.
    """
    from ._run import run_endpoint

    shapes_graph = load_shapes(shapes, None)
    shapes_graph.add((URNSH.Functions, _SH_DEACTIVATED, _TRUE))
    with policy_scope(policy if policy is not None else active_policy()):
        return run_endpoint(url, shapes_graph, graph=graph, all_graphs=all_graphs,
                            progress=progress, timeout=timeout, page_size=page_size)


def _run_pyshacl(data_graph: Graph, shapes_graph: Graph, *, inference: str, engine: str,
                 progress: Callable[[int, int], None] | None) -> Report:
    from pyshacl.errors import ReportableRuntimeError

    from . import _engine

    try:
        _, graph, text, _ = _engine.run(data_graph, shapes_graph, inference=inference,
                                        engine=engine, progress=progress)  # type: ignore[arg-type]
    except (ReportableRuntimeError, NotImplementedError) as e:
        # pyshacl's load/validation failures, and features it lacks (e.g. $shapesGraph).
        raise ShapesError(f"the shapes cannot be run: {_first_line(e)}") from e
    return Report.from_graph(graph, text)


def _root_texts(shapes_graph: Graph) -> list[str]:
    from ._compile import roots_of
    from ._report import render_term

    return [render_term(r, shapes_graph.namespace_manager) for r in roots_of(shapes_graph)]


def _first_line(e: Exception) -> str:
    text = str(getattr(e, "message", "") or e).strip() or type(e).__name__
    return text.splitlines()[0]
