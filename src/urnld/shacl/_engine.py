"""Running shapes with pyshacl, with urnld's components evaluated in Python.

pyshacl runs a SPARQL-based constraint component by parsing and executing its query once per
value node (0.40.1: 237.9 s for 20,000 focus nodes, against 1.1 s for ``sh:pattern``). urnld
leaves the shapes standard and changes only *how* its own six components are evaluated, inside
one pyshacl run:

1. build pyshacl's :class:`~pyshacl.validator.Validator` exactly as ``pyshacl.validate`` does;
2. in its shapes graph, replace each ``urnsh:`` component whose declaration is *identical* to
   the one shipped in ``shapes/urn.ttl`` (same validators, queries, messages, parameters) by a
   subclass that binds it once per shape, and (``engine="python"``) computes the validator's
   SPARQL ``FILTER`` in Python (:mod:`urnld.shacl._rules`), building each result with pyshacl's
   own ``make_v_result`` from the same focus node, value, path, component, severity and message
   bindings as the SPARQL path. A redefined component (different text) is left to pyshacl;
3. let pyshacl run everything else (core constraints, other SPARQL, the report graph) unchanged.

Only this Validator instance is changed: no pyshacl class or function is patched, so
``pyshacl.validate`` elsewhere in the process behaves as before (the tests check it with the
W3C suite).

``engine="sparql"`` keeps pyshacl's SPARQL evaluation but calls it one value node at a time:
pyshacl 0.40.1 shares one message list across all results of a SPARQL component in one call
(``rept_kwargs.copy()`` is shallow), so its n-th result also carries the messages of the results
before it, in set-iteration order. One value per call gives each result its own message, as
SHACL §5.3.2 says. The tests check that ``"python"`` and ``"sparql"`` give identical reports, and
that ``"pyshacl"`` (untouched) differs from them only by those extra messages.
"""

from __future__ import annotations

import logging
import warnings
from collections.abc import Mapping
from typing import Any, Literal, cast

from pyshacl.constraints.constraint_component import ConstraintComponent
from pyshacl.constraints.sparql.sparql_based_constraint_components import (
    BoundShapeValidatorComponent,
    SPARQLConstraintComponent,
)
from pyshacl.graph_abstraction import DataGraph
from pyshacl.monkey import apply_patches
from pyshacl.validator import Validator, assign_baked_in
from rdflib import Dataset, Graph, URIRef
from rdflib.namespace import SH
from rdflib.term import Node

from ..rdf import register_functions
from . import _progress
from ._rules import RULES, URNSH, Rule, index_holders
from ._signature import _shipped_signatures, _signature, shipped_shapes_text

__all__ = ["Engine", "ensure_functions", "run", "shipped_shapes_text"]

#: "python": urnsh: components in Python; "sparql": their SPARQL, one value node per query;
#: "pyshacl": pyshacl exactly as it is (its message-list bug included; for tests and benches).
Engine = Literal["python", "sparql", "pyshacl"]

_LOG = logging.getLogger("urnld.shacl")
_VALIDATOR_KINDS = (SH.validator, SH.nodeValidator, SH.propertyValidator)


class _URNComponent(SPARQLConstraintComponent):
    """An unmodified ``urnsh:`` component, bound once per shape and evaluated by urnld.

    ``engine="python"`` evaluates it with :mod:`._rules`; ``engine="sparql"`` with pyshacl's own
    SPARQL validator, called one value node at a time (see :class:`_SparqlBound`).
    """

    __slots__ = ("bound", "engine", "rule")
    rule: Rule
    engine: Engine
    bound: dict[int, Any]

    def __new__(cls, original: SPARQLConstraintComponent, rule: Rule, engine: Engine) -> Any:
        new: Any = cast(Any, SPARQLConstraintComponent).__new__
        self: _URNComponent = new(
            cls,
            original.sg,
            original.node,
            original.parameters,
            original.validators,
            original.node_validators,
            original.property_validators,
        )
        self.rule = rule
        self.engine = engine
        self.bound = {}
        return self

    def make_validator_for_shape(self, shape: Any) -> Any:
        # pyshacl evaluates a property shape reached through sh:property once per focus node and
        # binds the component anew each time (a SPARQL helper, prefix collection: ~0.2 ms). The
        # binding depends only on the shape, so bind once per shape. The value keeps the shape
        # alive, so its id() cannot be reused while cached.
        cached = self.bound.get(id(shape))
        if cached is not None:
            return cached
        # Let pyshacl choose and bind the validator (it also raises the standard errors, e.g. a
        # node shape using a property-only component).
        bound = super().make_validator_for_shape(shape)
        result: Any
        if self.engine == "sparql":
            result = _SparqlBound(bound)
        elif self.rule.needs_graph and not isinstance(shape.path(), URIRef):
            # Uniqueness reads "?other $PATH ?otherValue" over the whole graph: complex paths
            # keep the SPARQL query, which pyshacl translates faithfully.
            result = _SparqlBound(bound)
        else:
            result = _PythonBound(bound, self.rule)
        self.bound[id(shape)] = result
        return result


class _BoundBase(BoundShapeValidatorComponent):
    """Shares a SPARQL-bound component's binding: its parameter values, message templates."""

    def __init__(self, bound: BoundShapeValidatorComponent) -> None:
        ConstraintComponent.__init__(self, bound.shape)
        self.constraint = bound.constraint
        self.validator = bound.validator
        self.query_helper = bound.query_helper
        self.sparql = bound

    def _result(self, target_graph: Any, focus: Node, value: Node) -> Any:
        """One validation result, built as pyshacl's SELECT path builds it.

        The message templates get the bindings pyshacl gives them: the parameters, ``$this``,
        ``$value`` and (property shapes) ``$path``.
        """
        helper = self.query_helper
        bindings: dict[str, Any] = dict(helper.param_bind_map)
        bindings["this"] = focus
        bindings["value"] = value
        if self.shape.is_property_shape:
            bindings["path"] = cast(Any, self.shape).path()
        helper.bind_messages(bindings)
        return self.make_v_result(
            target_graph,
            cast(Any, focus),
            value_node=cast(Any, value),
            constraint_component=self.constraint.node,
            extra_messages=list(helper.bound_messages),
        )


class _SparqlBound(_BoundBase):
    """pyshacl's SPARQL evaluation, one value node per call.

    pyshacl 0.40.1 shares one message list across the results of one ``evaluate`` call, so
    results after the first carry earlier results' messages too. Called with a single value node,
    the SELECT (``?value`` pre-bound) yields at most one result, with its own message: exactly
    what SHACL §5.3.2 asks, and what :class:`_PythonBound` produces.

    The empty literal ``""`` is false in Python, and pyshacl 0.40.1 tests terms for truth: it does
    not pre-bind ``$value`` to ``""`` (so the query would judge every value of the focus node),
    and it keeps a SELECT row only if ``$this``, ``?value`` or ``?path`` is true (so a row for
    the focus node ``""`` of a node shape is dropped). ``""`` is not a URN and must be reported:
    for such a pair the same query runs here, with both variables pre-bound.
    """

    def evaluate(
        self,
        executor: Any,
        target_graph: Any,
        focus_value_nodes: Mapping[Node, Any],
        _evaluation_path: list[Any],
    ) -> tuple[bool, list[Any]]:
        reports: list[Any] = []
        for focus, values in focus_value_nodes.items():
            for value in values:
                if not focus or not value:
                    reports.extend(self._falsy_pair(target_graph, focus, value))
                    continue
                _, found = self.sparql.evaluate(
                    executor, target_graph, {focus: {value}}, _evaluation_path
                )
                reports.extend(found)
        return not reports, reports

    def _falsy_pair(self, target_graph: Any, focus: Node, value: Node) -> list[Any]:
        # The query pyshacl would run (same text, prefixes and parameter bindings), with $this
        # and $value bound whatever their truth value.
        helper = self.query_helper
        params = dict(helper.param_bind_map)
        init, text = helper.pre_bind_variables(focus, valuenode=value, extravars=params.keys())
        init.update(params)
        init["this"] = focus
        if self.shape.is_property_shape:
            init["value"] = value
        rows = target_graph.query(helper.apply_prefixes(text), initBindings=init)
        if not rows or len(rows.bindings) < 1:
            return []
        return [self._result(target_graph, focus, value)]


class _PythonBound(_BoundBase):
    """pyshacl's bound SPARQL component with ``evaluate`` done in Python (:mod:`._rules`)."""

    def __init__(self, bound: BoundShapeValidatorComponent, rule: Rule) -> None:
        super().__init__(bound)
        self.rule = rule
        # (data graph, index) for uniqueness: pyshacl calls evaluate once per focus node, and
        # the index covers the whole graph. The graph is held, so its id cannot be reused.
        self.holders: tuple[Any, dict[str, set[Node]]] | None = None

    def evaluate(
        self,
        executor: Any,
        target_graph: Any,
        focus_value_nodes: Mapping[Node, Any],
        _evaluation_path: list[Any],
    ) -> tuple[bool, list[Any]]:
        params: dict[str, Node] = dict(self.query_helper.param_bind_map)
        holders = None
        if self.rule.needs_graph:
            path = cast(Any, self.shape).path()
            if self.holders is None or self.holders[0] is not target_graph:
                self.holders = (target_graph, index_holders(target_graph.subject_objects(path)))
            holders = self.holders[1]
        reports = [
            self._result(target_graph, focus, value)
            for focus, value in self.rule.violations(focus_value_nodes, params, holders)
        ]
        return not reports, reports


def _install(shapes_graph: Any, engine: Engine) -> int:
    """Hand the unmodified ``urnsh:`` components to urnld; return how many were taken."""
    shipped = _shipped_signatures()
    graph = shapes_graph.graph
    taken = 0
    components = set()
    for original in shapes_graph.custom_constraints:
        component = original
        rule = RULES.get(original.node)
        if rule is not None and not any(True for _ in graph.subjects(URNSH[rule.param], None)):
            # No shape uses it: pyshacl would still look it up for every shape and focus node.
            continue
        if (
            rule is not None
            and type(original) is SPARQLConstraintComponent
            and _signature(graph, original.node) == shipped[original.node]
        ):
            component = _URNComponent(original, rule, engine)
            taken += 1
        components.add(component)
    # pyshacl caches the harvested components in this attribute (ShapesGraph.custom_constraints).
    shapes_graph._custom_constraints = components
    return taken


def _installable(shapes_graph: Any) -> bool:
    """Does this pyshacl keep harvested components where :func:`_install` puts them?"""
    return hasattr(shapes_graph, "_custom_constraints") and hasattr(
        type(shapes_graph), "custom_constraints"
    )


def _pyshacl_version() -> str:
    from importlib.metadata import version

    return version("pyshacl")


def ensure_functions() -> None:
    """Register the ``urnfn:`` functions and prove rdflib's SPARQL engine sees them.

    A SPARQL ``FILTER`` calling an unknown function is an expression error, which drops the row:
    every SELECT-based constraint would then pass silently. So check, don't hope.
    """
    register_functions()
    probe = (
        "PREFIX urnfn: <https://w3id.org/urnld/fn#> "
        'SELECT ?n WHERE { BIND(urnfn:nid("URN:URNLD-PROBE:x") AS ?n) }'
    )
    rows = list(Graph().query(probe))
    if len(rows) != 1 or str(rows[0][0]) != "urnld-probe":  # type: ignore[index]
        raise RuntimeError("the urnfn: SPARQL functions are not registered with rdflib")


def run(
    data: Graph,
    shapes: Graph,
    *,
    inference: str = "none",
    engine: Engine = "python",
    progress: _progress.ProgressCallback | None = None,
) -> tuple[bool, Graph, str, int]:
    """Validate *data* against *shapes* with pyshacl: (conforms, report graph, text, taken).

    *taken* counts the ``urnsh:`` components urnld evaluated (0 with ``engine="pyshacl"``).
    *progress*, if given, is called with ``(done, total)`` focus-node checks as pyshacl works
    through them (:mod:`._progress`; not called on a pyshacl whose layout it does not know).

    Raises pyshacl's load errors as they come; the public wrapper turns them into
    :class:`urnld.shacl.ShapesError`.
    """
    ensure_functions()
    # What pyshacl.validate does before it builds a Validator.
    cast(Any, apply_patches)()
    cast(Any, assign_baked_in)()
    options: dict[str, Any] = {
        "inference": inference,
        "inplace": False,
        "logger": _LOG,
        "abort_on_first": False,
        "advanced": False,
    }
    validator = Validator(DataGraph.from_rdflib(data), shacl_graph=shapes, options=options)
    taken = 0
    if engine != "pyshacl":
        if _installable(validator.shacl_graph):
            taken = _install(validator.shacl_graph, engine)
        else:
            warnings.warn(
                f"pyshacl {_pyshacl_version()} keeps its constraint components differently than "
                "the versions urnld knows (0.40); urnsh: components run as plain SPARQL "
                "(correct, but one query per value node)",
                RuntimeWarning,
                stacklevel=3,
            )
    if progress is not None:
        _progress.install(validator.shacl_graph, progress)
    # pyshacl sets default_union=True on a Dataset it validates (the union is what SHACL sees);
    # that is an attribute of the caller's object: put it back.
    union = data.default_union if isinstance(data, Dataset) else None
    try:
        conforms, report, text = cast(Any, validator).run()
    finally:
        if union is not None:
            cast(Dataset, data).default_union = union
    return bool(conforms), report, str(text), taken


