"""The validation report: SHACL's standard report graph, plus a typed view of its results."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

import rdflib.term
from rdflib import RDF, BNode, Graph, Literal, URIRef
from rdflib.namespace import SH, NamespaceManager
from rdflib.term import Node

__all__ = [
    "RecordedResults",
    "Report",
    "TermRenderer",
    "ValidationResult",
    "build_graph",
    "render_path",
    "render_term",
    "result_record",
    "results_of_graph",
]

_SEVERITY_RANK = {"Violation": 0, "Warning": 1, "Info": 2}


def render_term(term: Node | None, nsm: NamespaceManager | None = None) -> str:
    """A term in Turtle/SPARQL syntax (prefixed where a prefix is bound); ``""`` for None.

    >>> render_term(Literal("urn:isbn:1", lang="en"))
    '"urn:isbn:1"@en'
    """
    if term is None:
        return ""
    if isinstance(term, (URIRef, Literal, BNode)):
        return str(term.n3(nsm))
    return str(term)


#: rdflib's own test of an IRI it can write (``URIRef.n3`` raises otherwise).
writable_iri: Callable[[str], bool] = cast(Any, rdflib.term)._is_valid_uri
_PREFIXED = 1 << 12  # IRIs under a bound namespace whose text is kept (few: shapes, paths)


class TermRenderer:
    """:func:`render_term` with one namespace manager, for the many terms of a large report.

    rdflib's ``normalizeUri`` splits every IRI character by character to find a namespace it
    could abbreviate: measured on a report of 193,000 results, most of the time of writing
    it. An IRI that starts with no bound namespace has none (the namespace rdflib looks up is
    a prefix of the IRI), so it is written as ``<iri>`` at once; the others, few, are asked of
    rdflib once each. The namespaces are read when the renderer is made: rdflib binds new
    ones while it renders only under a namespace already bound, so the answer stays exact.

    >>> from rdflib import Graph
    >>> g = Graph()
    >>> g.bind("dcterms", "http://purl.org/dc/terms/")
    >>> render = TermRenderer(g.namespace_manager)
    >>> render(URIRef("urn:isbn:0395363411")), render(URIRef("http://purl.org/dc/terms/title"))
    ('<urn:isbn:0395363411>', 'dcterms:title')
    """

    __slots__ = ("_bound", "_known", "nsm")

    def __init__(self, nsm: NamespaceManager | None) -> None:
        self.nsm = nsm
        self._bound = tuple(str(ns) for _, ns in nsm.namespaces()) if nsm is not None else ()
        self._known: dict[str, str] = {}

    def __call__(self, term: Node | None) -> str:
        if type(term) is URIRef:
            return self.iri(term)
        if type(term) is Literal and term.datatype is None:
            return render_term(term)  # the namespaces only ever abbreviate a datatype
        return render_term(term, self.nsm)

    def iri(self, text: str) -> str:
        """:meth:`__call__` of the IRI *text* (a ``str`` or a ``URIRef``)."""
        # str's startswith: rdflib's own takes one prefix, not a tuple
        if not str.startswith(text, self._bound) and writable_iri(text):
            return f"<{text}>"  # a str (URIRef + str would be an IRI again)
        found = self._known.get(text)
        if found is None:
            if len(self._known) >= _PREFIXED:
                self._known.clear()
            # as the store wrote it: no IRI check on making the term (n3 checks it)
            term = text if type(text) is URIRef else str.__new__(URIRef, text)
            found = self._known[text] = render_term(term, self.nsm)
        return found


def render_path(graph: Graph, path: Node | None, nsm: NamespaceManager | None = None) -> str:
    """A SHACL property path (SHACL §2.3.1) in SPARQL property-path syntax.

    >>> g = Graph()
    >>> render_path(g, URIRef("http://purl.org/dc/terms/identifier"))
    '<http://purl.org/dc/terms/identifier>'
    """
    if path is None:
        return ""
    if isinstance(path, URIRef):
        return render_term(path, nsm)
    items = list(graph.items(path)) if graph.value(path, RDF.first) is not None else None
    if items:
        return "/".join(_group(graph, p, nsm) for p in items)
    for prop, fmt in (
        (SH.inversePath, "^{}"),
        (SH.zeroOrMorePath, "{}*"),
        (SH.oneOrMorePath, "{}+"),
        (SH.zeroOrOnePath, "{}?"),
    ):
        inner = graph.value(path, prop)
        if inner is not None:
            return fmt.format(_group(graph, inner, nsm))
    alternatives = graph.value(path, SH.alternativePath)
    if alternatives is not None:
        return "|".join(_group(graph, p, nsm) for p in graph.items(alternatives))
    return render_term(path, nsm)


def _group(graph: Graph, path: Node, nsm: NamespaceManager | None) -> str:
    text = render_path(graph, path, nsm)
    return text if isinstance(path, URIRef) else f"({text})"


@dataclass(frozen=True, slots=True)
class ValidationResult:
    """One ``sh:ValidationResult`` of the report graph.

    Attributes:
        focus_node: ``sh:focusNode``.
        path: ``sh:resultPath``: an IRI, or the blank node of a complex path (in
            :attr:`Report.graph`); None for node shapes.
        value: ``sh:value``, None when the engine gave none.
        component: ``sh:sourceConstraintComponent``, e.g. ``urnsh:CanonicalConstraintComponent``.
        severity: the local name of ``sh:resultSeverity``: ``"Violation"``, ``"Warning"`` or
            ``"Info"``.
        message: the ``sh:resultMessage`` values, sorted, joined with ``" | "`` (``""`` if none).
        source_shape: ``sh:sourceShape``.
        path_text: :attr:`path` in SPARQL property-path syntax.
        shape_text: :attr:`source_shape` in Turtle syntax; an anonymous property shape is shown
            as ``[ sh:path … ]`` (its blank-node label differs each time the shapes are read).
    """

    focus_node: Node
    path: Node | None
    value: Node | None
    component: URIRef
    severity: str
    message: str
    source_shape: Node
    path_text: str = ""
    shape_text: str = ""
    # What the report graph says as written (sh:sourceConstraint of SPARQL constraints, the
    # messages with their language tags, a severity IRI of the shape's own): not compared.
    source_constraint: Node | None = field(default=None, compare=False, repr=False)
    message_terms: tuple[Node, ...] = field(default=(), compare=False, repr=False)
    severity_term: Node | None = field(default=None, compare=False, repr=False)

    def sort_key(self) -> tuple[Any, ...]:
        """Deterministic order: severity, then focus node, path, value, component, message."""
        return (
            _SEVERITY_RANK.get(self.severity, 3),
            render_term(self.focus_node),
            self.path_text,
            render_term(self.value),
            str(self.component),
            self.message,
        )

    def to_dict(self, nsm: NamespaceManager | None = None) -> dict[str, str | None]:
        """JSON-ready: terms in Turtle syntax (so an IRI and a literal stay distinguishable).

        Many results with the same prefixes: :meth:`Report.records`, which renders faster.
        """
        return self.record(TermRenderer(nsm))

    def record(self, render: TermRenderer) -> dict[str, str | None]:
        """:meth:`to_dict` with the terms written by *render*."""
        return result_record(
            focus=render(self.focus_node), path=self.path_text,
            value=render(self.value) if self.value is not None else None,
            component=render(self.component), severity=self.severity, message=self.message,
            source_shape=self.shape_text or render(self.source_shape))


def result_record(*, focus: str, path: str, value: str | None, component: str, severity: str,
                  message: str, source_shape: str) -> dict[str, str | None]:
    """A result as :meth:`ValidationResult.to_dict` gives it, from its parts as written (the
    one layout of a record, whether it is written from a result or from a stored row)."""
    return {"focus_node": focus, "path": path or None, "value": value, "component": component,
            "severity": severity, "message": message, "source_shape": source_shape}


class RecordedResults(Sequence[ValidationResult]):
    """Results that write their records themselves (a compiled run's, from its rows)."""

    __slots__ = ()

    def records(self, render: TermRenderer) -> Iterator[dict[str, str | None]]:
        """Each result as :meth:`ValidationResult.record` gives it with *render*, in order."""
        for result in self:
            yield result.record(render)


@dataclass(frozen=True)
class Report:
    """What :func:`urnld.shacl.validate` returns.

    Attributes:
        conforms: ``sh:conforms`` (SHACL: true iff there are no results of any severity).
        results: the results, in :meth:`ValidationResult.sort_key` order (a sequence that,
            after a compiled run, reads them from disk past a few tens of thousands).
        graph: the standard SHACL validation report graph (built when first asked for).
        text: a human-readable report (pyshacl's, where pyshacl ran every shape).
        engines: which shapes ran where: each shape with targets (in Turtle syntax) mapped to
            ``"plan"`` or to ``"pyshacl: "`` and the reason the plan did not compile it.
        tally: the counts :meth:`counts` gives, where the run kept them (else None).
    """

    conforms: bool
    results: Sequence[ValidationResult]
    report_graph: Graph | None = field(default=None, repr=False, compare=False)
    pyshacl_text: str = field(default="", repr=False, compare=False)
    shapes: Graph | None = field(default=None, repr=False, compare=False)
    engines: Mapping[str, str] = field(default_factory=dict, repr=False, compare=False)
    descriptions: Graph | None = field(default=None, repr=False, compare=False)
    tally: Mapping[tuple[str, str, str], int] | None = field(default=None, repr=False,
                                                              compare=False)

    def counts(self) -> dict[tuple[str, str, str], int]:
        """How many results each (source shape as shown, component IRI, severity) has.

        Kept as the results were found where the compiled plan ran, so a report whose
        results wait on disk is counted without reading them.

        >>> Report(True, ()).counts()
        {}
        """
        if self.tally is not None:
            return dict(self.tally)
        found: dict[tuple[str, str, str], int] = {}
        for r in self.results:
            key = (r.shape_text, str(r.component), r.severity)
            found[key] = found.get(key, 0) + 1
        return found

    @classmethod
    def from_graph(cls, graph: Graph, text: str = "") -> Report:
        """Read a report graph (one ``sh:ValidationReport``) into a :class:`Report`."""
        report = next(iter(graph.subjects(RDF.type, SH.ValidationReport)), None)
        if report is None:
            raise ValueError("the graph has no sh:ValidationReport")
        conforms = graph.value(report, SH.conforms)
        return cls(
            conforms=isinstance(conforms, Literal) and conforms.value is True,
            results=tuple(sorted(results_of_graph(graph), key=ValidationResult.sort_key)),
            report_graph=graph,
            pyshacl_text=text,
        )

    @functools.cached_property
    def graph(self) -> Graph:  # documented in the class
        if self.report_graph is not None:
            return self.report_graph
        return build_graph(self.conforms, self.results, self.shapes, self.descriptions)

    @property
    def text(self) -> str:  # documented in the class
        if self.pyshacl_text:
            return self.pyshacl_text
        lines = ["Validation Report", f"Conforms: {self.conforms}"]
        if self.results:
            lines.append(f"Results ({len(self.results)}):")
        for r in self.results:
            d = r.to_dict()
            lines.append(f"{r.severity}: {_local_name(r.component)}: focus {d['focus_node']}"
                         + (f", path {r.path_text}" if r.path_text else "")
                         + (f", value {d['value']}" if d["value"] is not None else "")
                         + (f": {r.message}" if r.message else ""))
        return "\n".join(lines) + "\n"

    def __iter__(self) -> Iterator[ValidationResult]:
        return iter(self.results)

    def __len__(self) -> int:
        return len(self.results)

    @property
    def namespace_manager(self) -> NamespaceManager:
        """The prefixes terms are shown with: the report graph's, else the shapes'.

        Unlike :attr:`graph`, this never builds the report graph.
        """
        return self._nsm()

    def _nsm(self) -> NamespaceManager:
        if self.report_graph is not None:
            return self.report_graph.namespace_manager
        if self.shapes is not None:
            return self.shapes.namespace_manager
        return Graph().namespace_manager

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready and deterministic: ``{"conforms": bool, "results": [...]}``."""
        return {"conforms": self.conforms, "results": list(self.records())}

    def records(self) -> Iterator[dict[str, str | None]]:
        """Each result as :meth:`ValidationResult.to_dict` gives it with :attr:`namespace_manager`,
        one at a time (a report of a large dump keeps its results on disk: they are never all
        held here).

        >>> next(Report(True, ()).records(), None) is None
        True
        """
        render = TermRenderer(self._nsm())
        if isinstance(self.results, RecordedResults):  # a compiled run's: from its rows
            yield from self.results.records(render)
            return
        for r in self.results:
            yield r.record(render)

    def serialize(self, format: str = "turtle") -> str:
        """The report graph as text (any rdflib serializer: turtle, json-ld, nt, xml…)."""
        return self.graph.serialize(format=format)


def results_of_graph(graph: Graph) -> Iterator[ValidationResult]:
    """The results of a report graph, as :class:`ValidationResult`\\ s (unsorted)."""
    nsm = graph.namespace_manager
    for report in graph.subjects(RDF.type, SH.ValidationReport):
        for r in graph.objects(report, SH.result):
            # One pass over the result's triples (not one lookup per property): reports with
            # tens of thousands of results are common on real catalogs.
            props: dict[Node, Node] = {}
            messages: list[str] = []
            for p, o in graph.predicate_objects(r):
                if p == SH.resultMessage:
                    messages.append(str(o))
                else:
                    props[p] = o
            path = props.get(SH.resultPath)
            shape = props.get(SH.sourceShape)
            yield ValidationResult(
                focus_node=props.get(SH.focusNode),  # type: ignore[arg-type]
                path=path,
                value=props.get(SH.value),
                component=props.get(SH.sourceConstraintComponent),  # type: ignore[arg-type]
                severity=_local_name(props.get(SH.resultSeverity)),
                message=" | ".join(sorted(messages)),
                source_shape=shape,  # type: ignore[arg-type]
                path_text=render_path(graph, path, nsm),
                shape_text=_shape_text(graph, shape, nsm),
                source_constraint=props.get(SH.sourceConstraint),
                message_terms=tuple(graph.objects(r, SH.resultMessage)),
                severity_term=props.get(SH.resultSeverity),
            )


def build_graph(conforms: bool, results: Iterable[ValidationResult],
                shapes: Graph | None, descriptions: Graph | None = None) -> Graph:
    """The standard ``sh:ValidationReport`` graph of *results* (SHACL §3.6).

    A complex ``sh:resultPath`` is copied from *shapes*, where the result's path lives;
    *descriptions* (what the data says about blank nodes the results name, as pyshacl's
    reports hold it) is added.
    """
    graph = Graph()
    graph.bind("sh", SH)
    if shapes is not None:
        for prefix, ns in shapes.namespaces():
            graph.bind(prefix, ns, override=False)
    report = BNode()
    graph.add((report, RDF.type, SH.ValidationReport))
    graph.add((report, SH.conforms, Literal(conforms)))
    copied: set[Node] = set()
    for r in results:
        node = BNode()
        graph.add((report, SH.result, node))
        graph.add((node, RDF.type, SH.ValidationResult))
        graph.add((node, SH.focusNode, r.focus_node))
        graph.add((node, SH.resultSeverity, r.severity_term if r.severity_term is not None
                   else SH[r.severity]))
        graph.add((node, SH.sourceConstraintComponent, r.component))
        graph.add((node, SH.sourceShape, r.source_shape))
        if r.value is not None:
            graph.add((node, SH.value, r.value))
        if r.source_constraint is not None:
            graph.add((node, SH.sourceConstraint, r.source_constraint))
        if r.path is not None:
            graph.add((node, SH.resultPath, r.path))
            if isinstance(r.path, BNode) and shapes is not None and r.path not in copied:
                copied.add(r.path)
                _copy_tree(shapes, graph, r.path)
        if isinstance(r.source_shape, BNode) and shapes is not None and \
                r.source_shape not in copied:
            copied.add(r.source_shape)
            _copy_tree(shapes, graph, r.source_shape)
        messages = r.message_terms or [Literal(m) for m in (r.message.split(" | ")
                                                            if r.message else ())]
        for m in messages:
            graph.add((node, SH.resultMessage, m))
    if descriptions is not None:
        graph += descriptions
    return graph


def _copy_tree(source: Graph, target: Graph, node: Node) -> None:
    """*node*'s statements and those of the blank nodes it reaches (a path, a shape)."""
    todo, seen = [node], set()
    while todo:
        n = todo.pop()
        if n in seen:
            continue
        seen.add(n)
        for p, o in source.predicate_objects(n):
            target.add((n, p, o))
            if isinstance(o, BNode):
                todo.append(o)


def _shape_text(graph: Graph, shape: Node | None, nsm: NamespaceManager) -> str:
    if not isinstance(shape, BNode):
        return render_term(shape, nsm)
    path = graph.value(shape, SH.path)
    return f"[ sh:path {render_path(graph, path, nsm)} ]" if path is not None else "[]"


def _local_name(term: Node | None) -> str:
    text = str(term or "")
    return text.rsplit("#", 1)[-1]
