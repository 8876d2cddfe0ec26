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

from collections.abc import Callable, Sequence
from typing import Literal as _Literal

from pyshacl.errors import ReportableRuntimeError
from rdflib import Literal, URIRef

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
from ._report import Report, ValidationResult
from ._rules import URNSH

_SH_DEACTIVATED = URIRef("http://www.w3.org/ns/shacl#deactivated")
_TRUE = Literal(True)

__all__ = [
    "URNSH",
    "URN_PATTERN",
    "DataError",
    "GraphSource",
    "ReadOptions",
    "Report",
    "ShapesError",
    "ValidationResult",
    "shapes_path",
    "validate",
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


def validate(
    data: GraphSource | Sequence[GraphSource],
    shapes: GraphSource | Sequence[GraphSource] | None = None,
    *,
    inference: Inference = "none",
    engine: _Literal["python", "sparql", "pyshacl"] = "python",
    read_options: ReadOptions | None = None,
    policy: Policy | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Report:
    """Validate *data* against SHACL *shapes* with pyshacl.

    Args:
        data: an rdflib graph (never modified), or RDF file path(s), merged.
        shapes: shapes graph(s) or file(s). ``shapes/urn.ttl`` is always added (it declares the
            ``urnsh:`` components); when *shapes* is None, ``shapes/catalog.ttl`` is used too.
        inference: pyshacl's pre-validation inference: ``"none"``, ``"rdfs"``, ``"owlrl"``,
            ``"both"``.
        engine: ``"python"`` (default) evaluates unmodified ``urnsh:`` components in Python;
            ``"sparql"`` runs their SPARQL definitions as written, as any SHACL-SPARQL engine
            would (slow: one query per value node). Both give the same report. ``"pyshacl"``
            leaves everything to pyshacl, including its habit of repeating earlier results'
            messages on later results of the same SPARQL component (docs/shacl.md).
        read_options: how files are read: the data syntax (default: from the extension), the
            JSON-LD catalog, what to do about relative references against a URN base
            (:class:`ReadOptions`; the syntax applies to data files only).
        policy: the validation policy (:class:`urnld.Policy`: ``strict``, profiles, severity
            overrides) the ``urnsh:`` components and ``urnfn:`` functions judge URNs by;
            default: the one in force (:func:`urnld.find_policy` gives a project's). A finding
            code overridden to ``ignore`` is reported by no component.
        progress: called as ``progress(done, total)`` while the shapes run: *done* of *total*
            focus-node checks (one focus node of one shape with targets) are finished. Called
            first with ``done=0`` once the focus nodes are known, then after each batch of
            checks, *done* increasing to *total*. The report is the same with or without it.

    Returns:
        a :class:`Report` (``.conforms``, ``.results``, ``.graph``).

    Raises:
        DataError: a data file cannot be read or parsed.
        ShapesError: a shapes file cannot be read, or the shapes cannot be run.
        ValueError: an unknown *inference* or *engine*.

    The ``urnfn:`` SPARQL functions are registered (and checked) before every run: unregistered,
    a SPARQL FILTER calling them fails and every such constraint would pass silently.
    """
    if inference not in _INFERENCE:
        raise ValueError(f"inference must be one of {', '.join(_INFERENCE)}, not {inference!r}")
    if engine not in ("python", "sparql", "pyshacl"):
        raise ValueError(f"engine must be 'python', 'sparql' or 'pyshacl', not {engine!r}")
    from . import _engine

    data_graph = load_data(data, read_options)
    shapes_graph = load_shapes(shapes, read_options)
    if engine != "pyshacl":
        # urnsh:Functions reports an engine without the urnfn: functions. This run registers
        # them and proves it (ensure_functions raises otherwise), so the shape could only pass;
        # its SPARQL query, parsed anew in every run, would double the time of a small run.
        shapes_graph.add((URNSH.Functions, _SH_DEACTIVATED, _TRUE))
    try:
        with policy_scope(policy if policy is not None else active_policy()):
            _, graph, text, _ = _engine.run(
                data_graph, shapes_graph, inference=inference, engine=engine, progress=progress
            )
    except (ReportableRuntimeError, NotImplementedError) as e:
        # pyshacl's load/validation failures, and features it lacks (e.g. $shapesGraph).
        raise ShapesError(f"the shapes cannot be run: {_first_line(e)}") from e
    return Report.from_graph(graph, text)


def _first_line(e: Exception) -> str:
    text = str(getattr(e, "message", "") or e).strip() or type(e).__name__
    return text.splitlines()[0]
