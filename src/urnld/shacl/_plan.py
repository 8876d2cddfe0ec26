"""Running a compiled validation plan: on a local pyoxigraph store or a SPARQL endpoint.

:func:`load_store` fills a pyoxigraph ``Store`` (in memory, or on disk in a temporary
directory) from urnld's reader, keeping only the predicates the plan reads and holding literals
in the lossless form of :mod:`._terms`. :func:`execute` runs each step's query and turns its
rows into results; the steps of urnld's own components ask for (focus node, value) pairs and
judge each distinct value once with the URN core.
"""

from __future__ import annotations

import ctypes
import itertools
import os
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, Protocol, cast

from rdflib import BNode, Graph, Literal, URIRef
from rdflib.namespace import SH
from rdflib.term import Node

from .._kernel import BlankLabels
from ._compile import Root, Step, query_key
from ._report import render_path, render_term, writable_iri
from ._results import Cell, ResultSink, cell, external_sort
from ._rules import RULES, URNSH, Entry, entry_function, narrows, switched_on
from ._terms import (
    LANG_PREFIX,
    LIT_PREFIX,
    XSD_STRING,
    Encoded,
    Plain,
    decode_literal,
    needs_encoding,
)

__all__ = ["AUTO_DISK_BYTES", "DISK_BATCH", "Backend", "LocalStore", "execute", "load_store",
           "store_directory"]

# What a result says when its shape has no sh:message (pyshacl's wording where it has one).
_DEFAULT_MESSAGES = {
    "Class": "Value does not have class {p}",
    "Datatype": "Value is not Literal with datatype {p}",
    "NodeKind": "Value is not of Node Kind {p}",
    "MinCount": "Less than {p} values on {focus}->{path}",
    "MaxCount": "More than {p} values on {focus}->{path}",
    "MinExclusive": "Value is not > {p}",
    "MinInclusive": "Value is not >= {p}",
    "MaxExclusive": "Value is not < {p}",
    "MaxInclusive": "Value is not <= {p}",
    "MinLength": "String length not >= {p}",
    "MaxLength": "String length not <= {p}",
    "Pattern": "Value does not match pattern {p}",
    "LanguageIn": "String language is not in {p}",
    "UniqueLang": "More than one String shares the same Language",
    "Equals": "Value of {focus}->{path} != {p}",
    "Disjoint": "Value of {focus}->{path} == {p}",
    "LessThan": "Value of {focus}->{path} is not < value of {p}",
    "LessThanOrEquals": "Value of {focus}->{path} is not <= value of {p}",
    "Not": "Value conforms to the shape in sh:not",
    "And": "Value does not conform to every shape in sh:and",
    "Or": "Value does not conform to any shape in sh:or",
    "Xone": "Value does not conform to exactly one shape in sh:xone",
    "Node": "Value does not conform to Shape {p}",
    "QualifiedMinCount": "Focus node does not have enough values conforming to the qualified "
                         "value shape",
    "QualifiedMaxCount": "Focus node has too many values conforming to the qualified value shape",
    "Closed": "Node {focus} is closed. It cannot have value: {value}",
    "HasValue": "Node {focus}->{path} does not contain Value {p}",
    "In": "Value is not in {p}",
}
_PARAM_OF = {
    "Class": SH["class"], "Datatype": SH.datatype, "NodeKind": SH.nodeKind,
    "MinCount": SH.minCount, "MaxCount": SH.maxCount, "MinExclusive": SH.minExclusive,
    "MinInclusive": SH.minInclusive, "MaxExclusive": SH.maxExclusive,
    "MaxInclusive": SH.maxInclusive, "MinLength": SH.minLength, "MaxLength": SH.maxLength,
    "Pattern": SH.pattern, "Equals": SH.equals, "Disjoint": SH.disjoint,
    "LessThan": SH.lessThan, "LessThanOrEquals": SH.lessThanOrEquals, "Node": SH.node,
    "HasValue": SH.hasValue,
}


class Backend(Protocol):
    """Where the plan's queries run: rows of terms, in the backend's own term type."""

    terms: Plain
    #: where sorting on disk writes its runs (None: the system's temporary directory)
    spill: str | None
    #: urnld's components ask their pairs without DISTINCT (:attr:`Step.bag`)
    repeats: bool

    def select(self, sparql: str) -> Iterable[Sequence[Any]]: ...

    def node(self, term: Any) -> Node | None: ...

    def cell(self, term: Any) -> Cell | None: ...

    def text(self, term: Any) -> str | None: ...


#: Quads a store on disk takes in one bulk load (its memory is about proportional to this).
DISK_BATCH = 1 << 17
_NODE_CACHE = 1 << 15  # store terms -> rdflib terms, per store
# How rdflib's n3() quotes a lexical form, its own function (a result rendered without an
# rdflib term is rendered the same). Whether it writes an IRI at all is _report.writable_iri
# (URIRef.n3 raises otherwise: such an IRI takes rdflib's path).
_quoted: Callable[[str], str] = cast(Any, Literal)._quote_encode


class LocalStore:
    """A pyoxigraph ``Store`` filled by :func:`load_store` (literals in the lossless form)."""

    terms: Plain = Encoded()
    #: oxigraph's DISTINCT holds every row it returned, the largest query's being every focus
    #: node of the data: urnld's components ask without it, and the sink keeps one of each
    #: result.
    repeats = True

    def __init__(self, store: Any, directory: str | None = None) -> None:
        import pyoxigraph as ox

        self.store = store
        self.directory = directory
        self.spill = directory
        self._nodes: dict[Any, Node] = {}
        self._cells: dict[Any, Cell] = {}
        self._blank = ox.BlankNode
        self._named = ox.NamedNode
        self._literal = ox.Literal

    def select(self, sparql: str) -> Iterable[Sequence[Any]]:
        return self.store.query(sparql, use_default_graph_as_union=True)  # type: ignore[no-any-return]

    def node(self, term: Any) -> Node | None:
        if term is None:
            return None
        found = self._nodes.get(term)
        if found is None:
            if len(self._nodes) >= _NODE_CACHE:
                self._nodes.clear()  # bounded: results name nodes close to one another
            found = self._nodes[term] = _to_rdflib(term)
        return found

    def cell(self, term: Any) -> Cell | None:
        """*term* as a result row holds it (:func:`._results.cell`): IRIs, blank nodes and
        plain or language-tagged literals without making an rdflib term."""
        if term is None:
            return None
        found = self._cells.get(term)
        if found is None:
            kind = type(term)
            value = term.value
            if kind is self._named and writable_iri(value):
                found = ("<" + value + ">", (0, value))
            elif kind is self._blank:
                found = ("_:" + value, (1, value))
            elif kind is self._literal and term.language is not None:
                # lower case here: a tag with capitals is in the lossless form, a datatype
                found = (_quoted(value) + "@" + term.language, (2, value, None, term.language))
            elif kind is self._literal and term.datatype.value == XSD_STRING:
                found = (_quoted(value), (2, value, None, None))
            else:
                found = cell(self.node(term))  # type: ignore[arg-type]
            if len(self._cells) >= _NODE_CACHE:
                self._cells.clear()
            self._cells[term] = found
        return found

    def text(self, term: Any) -> str | None:
        """``STR(term)`` as written (None for a blank node, where STR is an error)."""
        if term is None or type(term) is self._blank:
            return None
        return term.value  # type: ignore[no-any-return]

    def describe(self, nodes: Iterable[Node]) -> Graph:
        """What the store says about these blank nodes and the blank nodes they reach."""
        graph = Graph()
        todo = [self._blank(str(n)) for n in nodes if isinstance(n, BNode)]
        seen: set[Any] = set()
        while todo:
            b = todo.pop()
            if b in seen:
                continue
            seen.add(b)
            for q in self.store.quads_for_pattern(b, None, None):
                o = q.object
                graph.add((self.node(b), self.node(q.predicate), self.node(o)))  # type: ignore[arg-type]
                if type(o) is type(b):
                    todo.append(o)
        return graph

    def close(self) -> None:
        self._nodes.clear()
        self._cells.clear()
        self.store = None
        if self.directory is not None:
            shutil.rmtree(self.directory, ignore_errors=True)
            self.directory = None


def _to_rdflib(term: Any) -> Node:
    import pyoxigraph as ox

    kind = type(term)
    if kind is ox.NamedNode:
        return str.__new__(URIRef, term.value)
    if kind is ox.BlankNode:
        return BNode(term.value)
    if kind is ox.Literal:
        return decode_literal(term.value, term.datatype.value if term.language is None else None,
                              term.language)
    raise ValueError(f"the store answered with a term urnld cannot report: {term}")


def load_store(
    quad_sources: Sequence[Iterable[Any]],
    *,
    predicates: set[str] | None,
    directory: str | None = None,
) -> LocalStore:
    """A store holding the statements of *quad_sources* (pyoxigraph quads, one iterable per
    document) whose predicate is in *predicates* (None: all), literals in the lossless form.

    *directory*: the parent of the store's temporary directory on disk (removed by
    :meth:`LocalStore.close`); None keeps the store in memory. Blank nodes of different
    documents stay apart (each document's labels get its own prefix).
    """
    import pyoxigraph as ox

    where = None
    if directory is not None:
        where = tempfile.mkdtemp(prefix="urnld-shacl-", dir=directory)
    try:
        store = ox.Store(where) if where is not None else ox.Store()
        for i, quads in enumerate(quad_sources):
            prefix = f"d{i}_" if len(quad_sources) > 1 else None
            prepared = _prepared(quads, predicates, prefix)
            if where is None:
                store.bulk_extend(prepared)
                continue
            # On disk, in batches: one bulk_extend buffers what it is given before it writes
            # (measured: 0.8 GB for a million statements, 0.25 GB in batches of 128k, the same
            # at four million), and the store on disk is there to keep memory flat.
            while batch := list(itertools.islice(prepared, DISK_BATCH)):
                store.bulk_extend(batch)
        if where is not None:
            store.optimize()
    except BaseException:
        if where is not None:
            shutil.rmtree(where, ignore_errors=True)
        raise
    _give_back_memory()
    return LocalStore(store, where)


def _give_back_memory() -> None:
    """Hand the memory the load freed back to the system, where the C library can.

    pyoxigraph's loader allocates from several threads; glibc keeps what they freed in
    per-thread arenas, so after a load of four million statements the process held 150 MB it
    no longer used, and the queries' memory came on top of it. ``malloc_trim`` (glibc only:
    elsewhere this does nothing) returns it.
    """
    if not sys.platform.startswith("linux"):
        return
    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):  # not glibc (musl has no malloc_trim)
        return
    trim(0)


def _prepared(quads: Iterable[Any], keep: set[str] | None, prefix: str | None) -> Iterator[Any]:
    """The quads to store: projected on *keep*, literals lossless, blank nodes apart and
    labelled as the input gives them."""
    import pyoxigraph as ox

    literal, blank, named, quad_t = ox.Literal, ox.BlankNode, ox.NamedNode, ox.Quad
    encoded: dict[tuple[str, str], Any] = {}
    # Verdicts per predicate and per datatype, keyed by the term itself: hashing a pyoxigraph
    # term makes no Python string, and a dump has few of either (bounded all the same).
    kept: dict[Any, bool] = {}
    tags: dict[Any, str | None] = {}
    # The parser invents a random label for each [ ] of Turtle (and the like); a report names
    # blank nodes by label, so they get the labels canonicalize writes (numbered in order of
    # appearance, the input's own kept): the same report on every run.
    name = BlankLabels().label
    before = prefix or ""
    for q in quads:
        p = q.predicate
        if keep is not None:
            verdict = kept.get(p)
            if verdict is None:
                if len(kept) >= _TERM_VERDICTS:
                    kept.clear()
                verdict = kept[p] = p.value in keep
            if not verdict:
                continue
        s, o, g = q.subject, q.object, q.graph_name
        changed = False
        if type(s) is blank:
            label = before + name(s.value)
            if label != s.value:
                s, changed = blank(label), True
        kind = type(o)
        if kind is literal:
            # the datatype the lossless form names, or None: the one rule, in _terms
            language = o.language
            if language is not None:
                tag = LANG_PREFIX + language if needs_encoding(None, language) else None
            else:
                datatype = o.datatype
                if datatype in tags:
                    tag = tags[datatype]
                else:
                    if len(tags) >= _TERM_VERDICTS:
                        tags.clear()
                    dt = datatype.value
                    tag = tags[datatype] = LIT_PREFIX + dt if needs_encoding(dt, None) else None
            if tag is not None:
                key = (o.value, tag)
                new = encoded.get(key)
                if new is None:
                    if len(encoded) > 65536:
                        encoded.clear()
                    new = encoded[key] = literal(o.value, datatype=named(tag))
                o, changed = new, True
        elif kind is blank:
            label = before + name(o.value)
            if label != o.value:
                o, changed = blank(label), True
        if type(g) is blank:
            label = before + name(g.value)
            if label != g.value:
                g, changed = blank(label), True
        yield quad_t(s, p, o, g) if changed else q


_TERM_VERDICTS = 4096  # predicates and datatypes whose verdict _prepared keeps


class _Texts:
    """Per-step texts of a result that do not depend on the row: computed once per step."""

    def __init__(self, shapes: Graph) -> None:
        self.shapes = shapes
        self.nsm = shapes.namespace_manager
        self._cache: dict[tuple[Node | None, Node], tuple[str, str]] = {}

    def path_and_shape(self, path: Node | None, shape: Node) -> tuple[str, str]:
        key = (path, shape)
        found = self._cache.get(key)
        if found is None:
            path_text = render_path(self.shapes, path, self.nsm)
            if isinstance(shape, BNode):
                p = self.shapes.value(shape, SH.path)
                shape_text = f"[ sh:path {render_path(self.shapes, p, self.nsm)} ]" \
                    if p is not None else "[]"
            else:
                shape_text = render_term(shape, self.nsm)
            found = self._cache[key] = (path_text, shape_text)
        return found


def _messages(step: Step, shapes: Graph) -> Callable[[Cell, Cell | None], str]:
    """How a step words its results: the shape's sh:message, else the component's own."""
    if step.messages:
        fixed = " | ".join(sorted(str(m) for m in step.messages))
        return lambda focus, value: fixed
    name = str(step.component)
    if name.startswith(str(URNSH)):
        kind = SH.nodeValidator if step.path is None else SH.propertyValidator
        template = name
        for validator in shapes.objects(step.component, kind):
            for m in shapes.objects(validator, SH.message):
                template = str(m)
        for name_, v in step.params.items():
            template = template.replace("{$" + name_ + "}", str(v))
        # {$value} is STR(?value): an IRI's or blank node's text, a literal's lexical form
        return lambda focus, value: template.replace("{$value}", "" if value is None
                                                     else value[1][1])
    local = name.rsplit("#", 1)[-1].removesuffix("ConstraintComponent")
    text = _DEFAULT_MESSAGES.get(local, f"{local} constraint violated")
    parameter: Node | None = step.parameter
    if parameter is None and local in _PARAM_OF:
        parameter = shapes.value(step.shape, _PARAM_OF[local])
    text = text.replace("{p}", render_term(parameter)).replace("{path}",
                                                           render_path(shapes, step.path))
    if "{focus}" not in text and "{value}" not in text:
        return lambda focus, value: text
    return lambda focus, value: text.replace("{focus}", focus[0]).replace(
        "{value}", "" if value is None else value[0])


class _Out:
    """How one step's rows become results: the texts that do not depend on the row, once."""

    __slots__ = ("backend", "cell", "number", "shapes", "sink", "step", "word")

    def __init__(self, step: Step, texts: _Texts, backend: Backend, sink: ResultSink) -> None:
        self.step, self.backend, self.sink, self.shapes = step, backend, sink, texts.shapes
        self.cell = backend.cell
        path_text, shape_text = texts.path_and_shape(step.path, step.shape)
        self.number = sink.step(path=step.path, component=step.component,
                                severity=step.severity, source_shape=step.shape,
                                shape_text=shape_text, message_terms=step.messages,
                                path_text=path_text)
        self.word = _messages(step, texts.shapes)

    def add(self, focus: Cell | None, value: Cell | None, path: Cell | None = None,
            path_text: str = "") -> None:
        if focus is None:
            return
        self.sink.add_cells(self.number, focus, value, path_text=path_text,
                            message=self.word(focus, value), path=path)

    def rows(self, rows: Iterable[Sequence[Any]]) -> None:
        cell, kind = self.cell, self.step.kind
        if kind == "value":
            for row in rows:
                self.add(cell(row[0]), cell(row[1]))
        elif kind == "self":
            for row in rows:
                focus = cell(row[0])
                self.add(focus, focus)
        elif kind in ("focus", "lang"):
            for row in rows:
                self.add(cell(row[0]), None)
        elif kind == "closed":
            for row in rows:
                predicate = self.backend.node(row[1])
                self.add(cell(row[0]), cell(row[2]), cell(row[1]),
                         render_path(self.shapes, predicate, self.shapes.namespace_manager)
                         if predicate is not None else "")
        else:  # pragma: no cover - the compiler makes no other kind here
            raise AssertionError(kind)


def execute(
    roots: Sequence[Root],
    backend: Backend,
    shapes: Graph,
    sink: ResultSink,
    *,
    progress: Callable[[int, int], None] | None = None,
) -> None:
    """Run every step of *roots* on *backend*, each result handed to *sink* as it is found.

    The steps of urnld's own components that ask the same (focus node, value) pairs (a node
    shape with three components, two shapes with the same targets) share one query and one
    reading of its rows.
    """
    texts = _Texts(shapes)
    steps = [s for r in roots for s in r.steps]
    groups: dict[str, list[Step]] = {}
    keys = [query_key(s.sparql) if s.kind == "urn" else "" for s in steps]
    for step, key in zip(steps, keys, strict=True):
        if step.kind == "urn":
            groups.setdefault(key, []).append(step)
    total, done = len(steps), 0
    if progress is not None:
        progress(0, total)
    for step, key in zip(steps, keys, strict=True):
        if step.kind == "urn":
            group = groups.pop(key, None)
            if group is None:
                continue  # done with the first step of its group
            _judge(group, backend, [_Out(s, texts, backend, sink) for s in group], sink)
            done += len(group)
        else:
            _Out(step, texts, backend, sink).rows(backend.select(step.sparql))
            done += 1
        if progress is not None:
            progress(done, total)


def _judge(group: Sequence[Step], backend: Backend, outs: Sequence[_Out],
           sink: ResultSink) -> None:
    """urnld's components over one query's (focus, value) rows, each row read once and each
    value judged by its lexical form; the URN core's verdicts are cached per distinct string
    (a catalog repeats its URNs), in bounded memory. ``urnsh:uniqueByEquivalence`` judges a
    value against the holders of its equivalence class, gathered first."""
    entry = entry_function()
    # the tests on every value, and those urnsh:onlyURNs narrows to values spelled "urn:…"
    on_all: list[tuple[Callable[[str | None, Entry | None], bool], _Out]] = []
    on_urns: list[tuple[Callable[[str | None, Entry | None], bool], _Out]] = []
    for step, out in zip(group, outs, strict=True):
        if RULES[step.component].needs_graph:
            unique = _unique_test(step, backend)  # narrowed by itself
            if unique is not None:
                on_all.append((unique, out))
        else:
            found = RULES[step.component].entry_test(step.params)
            if found is not None:
                (on_urns if found[1] else on_all).append((found[0], out))
    if not on_all and not on_urns:
        return
    cell, text = backend.cell, backend.text
    column = 0 if group[0].path is None else 1
    query = group[0].sparql
    if backend.repeats and group[0].bag is not None:
        query = group[0].bag
        sink.may_repeat()
    # A catalog repeats its values: the text tests' verdicts on a spelling, once per distinct
    # spelling (bounded), so a row costs a lookup. The uniqueness test needs only the
    # spelling too: the focus node holds the value, so "another subject holds its key" is
    # "two subjects hold it", counted before the rows are read.
    failing: dict[str | None, tuple[_Out, ...]] = {}
    verdict = failing.get
    passed: tuple[_Out, ...] = ()  # one tuple for every spelling nothing fails
    for row in backend.select(query):
        raw = row[column]
        t = text(raw)
        outs_failed = verdict(t)
        if outs_failed is None:
            if len(failing) >= _VERDICTS:
                failing.clear()
            urn = t is not None and t[:4].lower() == "urn:"
            # the URN core's entry once per spelling, for every component that asks
            e = entry(t) if t is not None and (urn or on_all) else None
            fails = [out for test, out in on_all if test(t, e)]
            if urn:
                fails += [out for test, out in on_urns if test(t, e)]
            outs_failed = failing[t] = tuple(fails) if fails else passed
        if outs_failed:
            focus = cell(row[0])
            value = focus if column == 0 else cell(raw)
            for out in outs_failed:
                out.add(focus, value)


#: How many distinct spellings :func:`_judge` keeps verdicts for before starting afresh.
_VERDICTS = 1 << 15


def _unique_test(step: Step, backend: Backend
                 ) -> Callable[[str | None, Entry | None], bool] | None:
    """``urnsh:uniqueByEquivalence`` (:func:`._rules.index_holders` and the SPARQL's
    ``!sameTerm(?other, $this) && urnfn:equivalent(…)``, on the store's own terms): the path's
    values of every subject grouped by their canonical assigned name.

    A focus node holds the key of each of its values itself, so "another subject holds an
    equivalent value" is "two subjects hold that key". The (key, subject) pairs are sorted on
    disk past :data:`._results.RUN_ROWS` (:func:`._results.external_sort`), so only the keys
    held twice stay in memory, however many records the catalog has.
    """
    if not switched_on(step.params.get(RULES[step.component].param)):
        return None
    text = backend.text
    entry = entry_function()
    narrow = narrows(step.params.get("onlyURNs"))

    def pairs() -> Iterator[tuple[str, str]]:
        for subject, value in backend.select(step.holders or ""):
            t = text(value)
            key = None if t is None else entry(t)[2]
            if key is not None:
                yield key, str(subject)

    shared: set[str] = set()
    last_key = last_subject = None
    for key, subject in external_sort(pairs(), directory=backend.spill):
        if key == last_key:
            if subject != last_subject:
                shared.add(key)
        else:
            last_key, last_subject = key, subject

    def test(t: str | None, e: Entry | None) -> bool:
        if narrow and (t is None or t[:4].lower() != "urn:"):
            return False
        key = None if e is None else e[2]
        if key is None:
            return True  # not a URN
        return key in shared  # held by this focus node and another subject

    return test


#: ``store="auto"`` keeps inputs up to this size (bytes read) in memory, larger ones on disk.
AUTO_DISK_BYTES = 256 << 20


def store_directory(choice: str | os.PathLike[str], size: int) -> str | None:
    """Where the store goes: None (memory) or the parent directory of a store on disk.

    ``"memory"``, ``"disk"`` (``$TMPDIR``), ``"auto"`` (disk past :data:`AUTO_DISK_BYTES`), or
    a directory to put it in.

    >>> store_directory("auto", 1000) is None, store_directory("memory", 10**12) is None
    (True, True)
    """
    if choice == "memory":
        return None
    if choice == "auto":
        return tempfile.gettempdir() if size > AUTO_DISK_BYTES else None
    if choice == "disk":
        return tempfile.gettempdir()
    return os.fspath(choice)
