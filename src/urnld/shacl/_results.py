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

from ._report import (
    RecordedResults,
    TermRenderer,
    ValidationResult,
    render_term,
    result_record,
)

__all__ = ["RUN_ROWS", "Cell", "ResultSink", "Results", "Tally", "cell", "external_sort"]

#: Rows a sink holds in memory before it writes them, sorted, to a run on disk.
RUN_ROWS = 1 << 15
_BLOCK = 256  # rows per pickled block of a run (a merge holds one block of every run)

_RANK = {"Violation": 0, "Warning": 1, "Info": 2}
# Rows sort by ValidationResult.sort_key, then by the step that found them (steps are numbered
# in the order they run, so ties keep the order they were found in), which also puts a
# repeated result next to its twin.
_KEY = itemgetter(0, 1, 2, 3, 4, 5, 6)
# A result found elsewhere (kept whole) is row step _KEPT + its index: after the plan's own
# steps, in the order kept.
_KEPT = 1 << 62

#: Results counted per (source shape as shown, component IRI, severity).
Tally = dict[tuple[str, str, str], int]

# A term as plain values: (0, iri) | (1, label) | (2, lexical, datatype, language).
_Spec = tuple[Any, ...]


#: A term as a result row holds it: (as :func:`~._report.render_term` writes it, as plain
#: values).
Cell = tuple[str, _Spec]


def cell(node: Node) -> Cell:
    """*node* as a result row holds it.

    >>> cell(URIRef("urn:example:a"))
    ('<urn:example:a>', (0, 'urn:example:a'))
    """
    return (render_term(node), _spec(node))  # type: ignore[return-value]


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

    __slots__ = ("component", "message_terms", "path", "path_text", "rank", "severity",
                 "severity_term", "shape_text", "source_shape", "tally_key")

    def __init__(self, *, path: Node | None, component: URIRef, severity: Node,
                 source_shape: Node, shape_text: str, message_terms: tuple[Node, ...]) -> None:
        self.path, self.component, self.source_shape = path, component, source_shape
        self.severity_term, self.shape_text, self.message_terms = severity, shape_text, \
            message_terms
        self.severity = str(severity).rsplit("#", 1)[-1]
        self.path_text = ""
        self.rank = _RANK.get(self.severity, 3)
        self.tally_key = (shape_text, str(component), self.severity)


class ResultSink:
    """Where the plan puts its results; :meth:`results` gives them back, sorted.

    *directory*: where the runs go (None: the system's temporary directory); *run_rows*: rows
    held in memory before a run is written (None: :data:`RUN_ROWS`).

    A step may hand the same result more than once (:meth:`may_repeat`: its query has no
    DISTINCT, which would hold every row it returned in the store's memory); the sink keeps
    one of each, and :attr:`count` and :attr:`tally` are exact once :meth:`results` is called.
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
        self._repeats = False

    def step(self, *, path: Node | None, component: URIRef, severity: Node, source_shape: Node,
             shape_text: str, message_terms: tuple[Node, ...] = (), path_text: str = "") -> int:
        """Register what one step's results share; the number :meth:`add` takes."""
        found = _Step(path=path, component=component, severity=severity,
                      source_shape=source_shape, shape_text=shape_text,
                      message_terms=message_terms)
        found.path_text = path_text
        self._steps.append(found)
        return len(self._steps) - 1

    def may_repeat(self) -> None:
        """Results may come more than once from now on: keep one of each."""
        self._repeats = True

    def add(self, step: int, focus: Node, value: Node | None, *, path_text: str = "",
            message: str, path: Node | None = None) -> None:
        """One result of *step*; *path* (with its text) where it is not the step's own."""
        self.add_cells(step, cell(focus), None if value is None else cell(value),
                       path_text=path_text, message=message,
                       path=None if path is None else cell(path))

    def add_cells(self, step: int, focus: Cell, value: Cell | None, *, path_text: str = "",
                  message: str, path: Cell | None = None) -> None:
        """:meth:`add` with the terms as :func:`cell` gives them (what the plan has at hand)."""
        s = self._steps[step]
        self.count += 1
        self.tally[s.tally_key] += 1
        focus_spec = focus[1]
        if focus_spec[0] == 1:
            self.blanks.add(BNode(focus_spec[1]))
        if value is None:
            value_text, value_spec = "", None
        else:
            value_text, value_spec = value
            if value_spec[0] == 1:
                self.blanks.add(BNode(value_spec[1]))
        self._rows.append((
            s.rank, focus[0], path_text or s.path_text, value_text, s.tally_key[1],
            message, step, focus_spec, value_spec, None if path is None else path[1]))
        if len(self._rows) >= self._run_rows:
            self._spill()

    def keep(self, result: ValidationResult) -> None:
        """A result found elsewhere (pyshacl's, for the shapes the plan did not compile)."""
        self.count += 1
        self.tally[_kept_key(result)] += 1
        self._kept.append(result)
        self._rows.append((*result.sort_key(), _KEPT + len(self._kept) - 1, None, None, None))
        if len(self._rows) >= self._run_rows:
            self._spill()

    def _sorted(self) -> list[tuple[Any, ...]]:
        self._rows.sort(key=_KEY)
        if self._repeats:
            self._rows = list(_once(self._rows))
        return self._rows

    def _spill(self) -> None:
        self._runs.append(_Run(self._sorted(), self._directory))
        self._rows = []

    def results(self) -> Results:
        """Every result added, in :meth:`ValidationResult.sort_key` order (one of each)."""
        rows = self._sorted()
        results = Results(rows, self._runs, self._steps, self._kept, self.count,
                          once=self._repeats)
        if self._repeats:
            # A result may have come twice, in different runs: counted again over the merged
            # rows without repeats, in one pass.
            tally: Counter[tuple[str, str, str]] = Counter()
            for row in results._sorted_rows():
                step = row[6]
                tally[self._steps[step].tally_key if step < _KEPT
                      else _kept_key(self._kept[step - _KEPT])] += 1
            self.tally = tally
            self.count = results._count = sum(tally.values())
        return results


def _kept_key(result: ValidationResult) -> tuple[str, str, str]:
    return (result.shape_text, str(result.component), result.severity)


def _once(rows: Iterable[tuple[Any, ...]]) -> Iterator[tuple[Any, ...]]:
    """Sorted *rows* without repeats (a repeated result sorts next to its twin)."""
    last: tuple[Any, ...] | None = None
    for row in rows:
        if row != last:
            yield row
        last = row


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


class Results(RecordedResults):
    """The results of a run, in :meth:`ValidationResult.sort_key` order, read from their rows
    (in memory, and on disk past :data:`RUN_ROWS`) each time they are iterated."""

    __slots__ = ("_count", "_kept", "_once", "_rows", "_runs", "_steps", "_tuple")

    def __init__(self, rows: list[tuple[Any, ...]], runs: list[_Run], steps: list[_Step],
                 kept: list[ValidationResult], count: int, *, once: bool = False) -> None:
        self._rows, self._runs, self._steps, self._kept = rows, runs, steps, kept
        self._count = count
        self._once = once
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
        merged = heapq.merge(*self._runs, self._rows, key=_KEY)
        return _once(merged) if self._once else merged

    def _build(self, row: tuple[Any, ...]) -> ValidationResult:
        step = row[6]
        if step >= _KEPT:
            kept: ValidationResult = self._kept[step - _KEPT]
            return kept
        s = self._steps[step]
        path_spec = row[9]
        return ValidationResult(
            focus_node=_node(row[7]),  # type: ignore[arg-type]
            path=s.path if path_spec is None else _node(path_spec), value=_node(row[8]),
            component=s.component, severity=s.severity, message=row[5],
            source_shape=s.source_shape, path_text=row[2], shape_text=s.shape_text,
            message_terms=s.message_terms, severity_term=s.severity_term)

    def records(self, render: TermRenderer) -> Iterator[dict[str, str | None]]:
        """Each result as :meth:`ValidationResult.record` gives it with *render*, in order,
        written from its row: an rdflib term is made only for a literal with a datatype (the
        one a row does not hold as it is written) and for an IRI under a bound namespace."""
        if self._tuple is not None:  # held whole already
            yield from super().records(render)
            return
        steps, kept = self._steps, self._kept
        shown: dict[int, tuple[str, str]] = {}  # step -> (component, source shape) as written
        for row in self._sorted_rows():
            step = row[6]
            if step >= _KEPT:
                yield kept[step - _KEPT].record(render)
                continue
            texts = shown.get(step)
            if texts is None:
                s = steps[step]
                texts = shown[step] = (render(s.component),
                                       s.shape_text or render(s.source_shape))
            yield result_record(
                focus=_written(row[7], row[1], render), path=row[2],
                value=None if row[8] is None else _written(row[8], row[3], render),
                component=texts[0], severity=steps[step].severity, message=row[5],
                source_shape=texts[1])

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


def _written(spec: _Spec, text: str, render: TermRenderer) -> str:
    """The term of *spec* as *render* writes it; *text* is how :func:`cell` wrote it (without
    the namespaces: the same for a blank node and a literal without a datatype)."""
    kind = spec[0]
    if kind == 0:
        return render.iri(spec[1])
    if kind == 1 or spec[2] is None:
        return text
    return render(_node(spec))


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
