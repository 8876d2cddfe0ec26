"""The compiled plan's results in bounded memory: plain rows, sorted in runs spilled to disk.

A catalog with a million statements can have hundreds of thousands of results, and a
:class:`~._report.ValidationResult` with its rdflib terms takes about 800 bytes: held whole,
the results, not the store on disk, would decide how much memory a run needs. So the plan hands
each result to a :class:`ResultSink` as a row of plain strings (its sort key, which step found
it, its terms as plain tuples); the sink keeps at most :data:`RUN_ROWS` rows in memory and
writes each full batch, sorted, to an anonymous temporary file (removed by the system even if
the process is killed). :class:`Results` reads them back as :class:`ValidationResult`\\ s in
:meth:`ValidationResult.sort_key` order, merging the runs, each time it is iterated; the counts
per shape, component and severity are kept as the rows arrive.

>>> from rdflib import Literal, URIRef
>>> from rdflib.namespace import SH
>>> sink = ResultSink(run_rows=2)
>>> step = sink.step(path=None, component=SH.PatternConstraintComponent, severity=SH.Violation,
...                  source_shape=URIRef("http://example.org/S"), shape_text="ex:S")
>>> for n in (3, 1, 2):
...     focus = URIRef(f"http://example.org/{n}")
...     sink.add(step, focus, Literal(str(n)), message="Value does not match pattern")
>>> results = sink.results()
>>> [str(r.focus_node) for r in results], len(results)
(['http://example.org/1', 'http://example.org/2', 'http://example.org/3'], 3)
"""

from __future__ import annotations

import heapq
import os
import pickle
import tempfile
import weakref
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from operator import itemgetter
from typing import IO, Any, overload

from rdflib import BNode, Literal, URIRef
from rdflib.term import Node

from ._report import ValidationResult, render_term

__all__ = ["RUN_ROWS", "ResultSink", "Results", "Tally", "external_sort"]

#: Rows a sink holds in memory before it writes them, sorted, to a run on disk.
RUN_ROWS = 1 << 15
_BLOCK = 2048  # rows per pickled block of a run

_RANK = {"Violation": 0, "Warning": 1, "Info": 2}
_KEY = itemgetter(0, 1, 2, 3, 4, 5)

#: Results counted per (source shape as shown, component IRI, severity).
Tally = dict[tuple[str, str, str], int]

# A term as plain values: (0, iri) | (1, label) | (2, lexical, datatype, language).
_Spec = tuple[Any, ...]


def _spec(node: Node | None) -> _Spec | None:
    if node is None:
        return None
    if isinstance(node, Literal):
        return (2, str(node), None if node.datatype is None else str(node.datatype),
                node.language)
    if isinstance(node, BNode):
        return (1, str(node))
    return (0, str(node))


def _node(spec: _Spec | None) -> Node | None:
    if spec is None:
        return None
    kind = spec[0]
    if kind == 0:
        return str.__new__(URIRef, spec[1])  # as the store wrote it: no IRI check on reading
    if kind == 1:
        return BNode(spec[1])
    _, lexical, datatype, language = spec
    if language is not None:
        return Literal(lexical, lang=language)
    if datatype is None:
        return Literal(lexical)
    return Literal(lexical, datatype=URIRef(datatype), normalize=False)


class _Step:
    """What every result of one step shares (kept once, rows name it by number)."""

    __slots__ = ("component", "message_terms", "path", "path_text", "severity",
                 "severity_term", "shape_text", "source_shape")

    def __init__(self, *, path: Node | None, component: URIRef, severity: Node,
                 source_shape: Node, shape_text: str, message_terms: tuple[Node, ...]) -> None:
        self.path, self.component, self.source_shape = path, component, source_shape
        self.severity_term, self.shape_text, self.message_terms = severity, shape_text, \
            message_terms
        self.severity = str(severity).rsplit("#", 1)[-1]
        self.path_text = ""


class ResultSink:
    """Where the plan puts its results; :meth:`results` gives them back, sorted.

    *directory*: where the runs go (None: the system's temporary directory); *run_rows*: rows
    held in memory before a run is written (None: :data:`RUN_ROWS`).
    """

    def __init__(self, *, directory: str | None = None, run_rows: int | None = None) -> None:
        self._rows: list[tuple[Any, ...]] = []
        self._runs: list[_Run] = []
        self._steps: list[_Step] = []
        self._kept: list[ValidationResult] = []
        self._directory = directory
        self._run_rows = RUN_ROWS if run_rows is None else run_rows
        self.count = 0
        self.tally: Counter[tuple[str, str, str]] = Counter()
        #: the blank nodes the results name (their descriptions go into the report graph)
        self.blanks: set[BNode] = set()

    def step(self, *, path: Node | None, component: URIRef, severity: Node, source_shape: Node,
             shape_text: str, message_terms: tuple[Node, ...] = (), path_text: str = "") -> int:
        """Register what one step's results share; the number :meth:`add` takes."""
        found = _Step(path=path, component=component, severity=severity,
                      source_shape=source_shape, shape_text=shape_text,
                      message_terms=message_terms)
        found.path_text = path_text
        self._steps.append(found)
        return len(self._steps) - 1

    def add(self, step: int, focus: Node, value: Node | None, *, path_text: str = "",
            message: str, path: Node | None = None) -> None:
        """One result of *step*; *path* (with its text) where it is not the step's own."""
        s = self._steps[step]
        self.count += 1
        self.tally[(s.shape_text, str(s.component), s.severity)] += 1
        if isinstance(focus, BNode):
            self.blanks.add(focus)
        if isinstance(value, BNode):
            self.blanks.add(value)
        self._rows.append((
            _RANK.get(s.severity, 3), render_term(focus), path_text or s.path_text,
            render_term(value), str(s.component), message, step, _spec(focus), _spec(value),
            None if path is None else _spec(path)))
        if len(self._rows) >= self._run_rows:
            self._spill()

    def keep(self, result: ValidationResult) -> None:
        """A result found elsewhere (pyshacl's, for the shapes the plan did not compile)."""
        self.count += 1
        self.tally[(result.shape_text, str(result.component), result.severity)] += 1
        self._kept.append(result)
        self._rows.append((*result.sort_key(), -len(self._kept), None, None, None))
        if len(self._rows) >= self._run_rows:
            self._spill()

    def _spill(self) -> None:
        self._rows.sort(key=_KEY)
        self._runs.append(_Run(self._rows, self._directory))
        self._rows = []

    def results(self) -> Results:
        """Every result added, in :meth:`ValidationResult.sort_key` order."""
        self._rows.sort(key=_KEY)
        return Results(self._rows, self._runs, self._steps, self._kept, self.count)


class _Run:
    """Sorted rows in an anonymous temporary file, read back block by block (``pread``: any
    number of readers at once, none moving another's place)."""

    def __init__(self, rows: Sequence[tuple[Any, ...]], directory: str | None) -> None:
        # Open as long as the run is (closed by the finalizer below): not a with-block.
        self._file: IO[bytes] = tempfile.TemporaryFile(  # noqa: SIM115
            prefix="urnld-results-", dir=directory)
        self._blocks: list[tuple[int, int]] = []
        offset = 0
        for i in range(0, len(rows), _BLOCK):
            data = pickle.dumps(rows[i:i + _BLOCK], protocol=pickle.HIGHEST_PROTOCOL)
            self._file.write(data)
            self._blocks.append((offset, len(data)))
            offset += len(data)
        self._file.flush()
        # Closed when the run is dropped (the file has no name: closing removes it), not left to
        # the garbage collector's warning about an open file.
        weakref.finalize(self, self._file.close)

    def __iter__(self) -> Iterator[tuple[Any, ...]]:
        fd = self._file.fileno()
        for offset, size in self._blocks:
            # urnld wrote these bytes in this run, to a file no other process can open.
            yield from pickle.loads(os.pread(fd, size, offset))


class Results(Sequence[ValidationResult]):
    """The results of a run, in :meth:`ValidationResult.sort_key` order, read from their rows
    (in memory, and on disk past :data:`RUN_ROWS`) each time they are iterated."""

    __slots__ = ("_count", "_kept", "_rows", "_runs", "_steps", "_tuple")

    def __init__(self, rows: list[tuple[Any, ...]], runs: list[_Run], steps: list[_Step],
                 kept: list[ValidationResult], count: int) -> None:
        self._rows, self._runs, self._steps, self._kept = rows, runs, steps, kept
        self._count = count
        self._tuple: tuple[ValidationResult, ...] | None = None

    def __len__(self) -> int:
        return self._count

    def __iter__(self) -> Iterator[ValidationResult]:
        if self._tuple is not None:
            return iter(self._tuple)
        return map(self._build, self._sorted_rows())

    def _sorted_rows(self) -> Iterable[tuple[Any, ...]]:
        if not self._runs:
            return self._rows
        return heapq.merge(*self._runs, self._rows, key=_KEY)

    def _build(self, row: tuple[Any, ...]) -> ValidationResult:
        step = row[6]
        if step < 0:
            kept: ValidationResult = self._kept[-step - 1]
            return kept
        s = self._steps[step]
        path_spec = row[9]
        return ValidationResult(
            focus_node=_node(row[7]),  # type: ignore[arg-type]
            path=s.path if path_spec is None else _node(path_spec), value=_node(row[8]),
            component=s.component, severity=s.severity, message=row[5],
            source_shape=s.source_shape, path_text=row[2], shape_text=s.shape_text,
            message_terms=s.message_terms, severity_term=s.severity_term)

    @overload
    def __getitem__(self, index: int) -> ValidationResult: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[ValidationResult]: ...

    def __getitem__(self, index: int | slice) -> ValidationResult | Sequence[ValidationResult]:
        # Random access holds every result: what a caller that indexes asks for.
        if self._tuple is None:
            self._tuple = tuple(self)
        return self._tuple[index]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or isinstance(other, str):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))

    __hash__ = None  # type: ignore[assignment]

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled (a report sent to another process) as the tuple of its results: the runs
        # on disk are this process's.
        return (tuple, (tuple(self),))

    def __repr__(self) -> str:
        return f"<Results: {self._count}>"


def external_sort(rows: Iterable[tuple[Any, ...]], *, directory: str | None = None,
                  run_rows: int | None = None) -> Iterator[tuple[Any, ...]]:
    """*rows* sorted, in bounded memory: runs of *run_rows* (None: :data:`RUN_ROWS`) sorted and
    written to anonymous temporary files, then merged.

    >>> list(external_sort([(3, "c"), (1, "a"), (2, "b")], run_rows=2))
    [(1, 'a'), (2, 'b'), (3, 'c')]
    """
    size = RUN_ROWS if run_rows is None else run_rows
    runs: list[_Run] = []
    batch: list[tuple[Any, ...]] = []
    for row in rows:
        batch.append(row)
        if len(batch) >= size:
            batch.sort()
            runs.append(_Run(batch, directory))
            batch = []
    batch.sort()
    if not runs:
        return iter(batch)
    return heapq.merge(*runs, batch)


def results_of(items: Iterable[ValidationResult]) -> Results:
    """*items* as :class:`Results`, sorted (the pyshacl path's results).

    >>> len(results_of([]))
    0
    """
    sink = ResultSink()
    for r in items:
        sink.keep(r)
    return sink.results()
