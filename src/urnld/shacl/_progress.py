"""How far pyshacl has got: focus-node checks done, of all there are, told to a callback.

pyshacl's :meth:`Validator.run <pyshacl.validator.Validator.run>` validates the shapes one after
the other (``for s in shapes: s.validate(executor, graph)``), each over all its focus nodes, and
says nothing while it does. The unit of work here is one *check*: one focus node validated
against one shape, which pyshacl does in one ``Shape.validate`` call — for a shape that has
targets, and for each property shape it reaches through ``sh:property`` (pyshacl validates those
once per focus node too). So a focus node of a shape with three ``sh:property`` shapes is four
checks, which keeps the ETA honest when cheap and costly shapes alternate. The total is known
once the focus nodes are: before the first shape runs, every shape's focus nodes are found on the
graph pyshacl validates (after inference), exactly as pyshacl finds them. Each shape then runs
through :meth:`pyshacl.shape.Shape.validate` with its focus nodes given explicitly, in batches, in
pyshacl's own order; the callback is told after each batch.

SHACL validates every focus node on its own, so batching changes what is computed in no way:
the same results, the same ``sh:conforms`` (the tests compare reports with and without
progress). Only the order in which results are produced differs, and pyshacl's order was never
stable (focus nodes come from a set); :class:`urnld.shacl.Report` sorts them.

The hook: the validator iterates ``ShapesGraph.shapes``, the values of the shapes graph's
``_node_shape_cache`` dict (pyshacl 0.40). :func:`install` replaces that dict by one whose
``values()`` hands out a batching wrapper per shape; looking shapes up by node (what
``sh:node``, ``sh:property`` and the other constraints do) still gives pyshacl's own shapes.
On a pyshacl without that attribute nothing is installed and no progress is told.

>>> calls = []
>>> plan = Plan(lambda done, total: calls.append((done, total)))
>>> plan.total, plan.batch_size(20_000), plan.batch_size(10)
(0, 200, 64)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from typing import Any

__all__ = ["Plan", "ProgressCallback", "install", "installable"]

#: Called as ``progress(done, total)``: *done* of *total* focus-node checks are finished.
ProgressCallback = Callable[[int, int], None]

# A batch is one Shape.validate call: pyshacl rebuilds the shape's constraint objects per call
# (about what validating one property shape for one focus node costs, which pyshacl does per
# value anyway). ~100 batches a shape, never fewer than 64 focus nodes each, keep that small.
_BATCHES = 100
_MIN_BATCH = 64


class Plan:
    """The checks of one validation run, counted as they finish."""

    def __init__(self, progress: ProgressCallback) -> None:
        self.progress = progress
        self.total = 0
        self.done = 0
        self.focus: dict[int, tuple[list[Any], int]] | None = None  # id(shape) -> nodes, weight

    @staticmethod
    def batch_size(n: int) -> int:
        return max(_MIN_BATCH, math.ceil(n / _BATCHES))

    def focus_of(
        self, shape: Any, shapes: Iterable[Any], graph: Any, executor: Any
    ) -> tuple[list[Any], int]:
        """*shape*'s focus nodes on *graph* and the checks each costs (1 + its ``sh:property``).

        On the first call, every shape's are found, for the total.
        """
        if self.focus is None:
            find = "focus_nodes_sparql" if executor.sparql_mode else "focus_nodes"
            self.focus = {}
            for s in shapes:
                if s.deactivated:
                    continue
                nodes = list(getattr(s, find)(graph, debug=executor.debug))
                weight = 1 + len(set(s.property_shapes()))
                self.focus[id(s)] = (nodes, weight)
                self.total += len(nodes) * weight
            self.progress(0, self.total)
        return self.focus.get(id(shape), ([], 1))

    def advance(self, checks: int) -> None:
        self.done += checks
        self.progress(self.done, self.total)


class _Batched:
    """Stands for one pyshacl Shape in the validator's loop, and validates it in batches."""

    __slots__ = ("plan", "shape", "shapes")

    def __init__(self, shape: Any, shapes: list[Any], plan: Plan) -> None:
        self.shape = shape
        self.shapes = shapes
        self.plan = plan

    def __getattr__(self, name: str) -> Any:
        return getattr(self.shape, name)

    def validate(
        self, executor: Any, target_graph: Any, focus: Any = None, _evaluation_path: Any = None
    ) -> tuple[bool, list[Any]]:
        shape = self.shape
        if focus is not None or executor.focus_nodes or executor.abort_on_first:
            # Not how urnld runs pyshacl (no focus_nodes / abort_on_first): pyshacl's way.
            return shape.validate(executor, target_graph, focus, _evaluation_path)  # type: ignore[no-any-return]
        if shape.deactivated:
            return True, []
        nodes, weight = self.plan.focus_of(shape, self.shapes, target_graph, executor)
        conforms = True
        reports: list[Any] = []
        size = self.plan.batch_size(len(nodes))
        for start in range(0, len(nodes), size):
            batch = nodes[start : start + size]
            ok, found = shape.validate(executor, target_graph, focus=batch)
            conforms = conforms and ok
            reports.extend(found)
            self.plan.advance(len(batch) * weight)
            if executor.abort_on_first and not conforms:
                break
        return conforms, reports


class _Shapes(dict):  # type: ignore[type-arg]  # pyshacl's Dict[RDFNode, Shape]
    """The shapes cache, whose ``values()`` (the validator's loop) yields batching wrappers."""

    plan: Plan

    def values(self) -> Any:
        shapes = list(super().values())
        return [_Batched(s, shapes, self.plan) for s in shapes]


def installable(shapes_graph: Any) -> bool:
    """Does this pyshacl keep its shapes where :func:`install` looks (0.40)?"""
    return type(getattr(shapes_graph, "_node_shape_cache", None)) is dict and hasattr(
        type(shapes_graph), "shapes"
    )


def install(shapes_graph: Any, progress: ProgressCallback) -> bool:
    """Count the checks of the next ``Validator.run`` on *shapes_graph*; False if not possible."""
    if not installable(shapes_graph):
        return False
    shapes_graph.shapes  # noqa: B018  # harvest now (what run() does first), so the cache is full
    cache = _Shapes(shapes_graph._node_shape_cache)
    cache.plan = Plan(progress)
    shapes_graph._node_shape_cache = cache
    return True
