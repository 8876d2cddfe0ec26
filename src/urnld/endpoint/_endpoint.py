"""Check and canonicalize the URNs of a running triplestore over the SPARQL 1.1 Protocol.

The third transport of one rule: the terms a store holds get the same verdict and canonical form
as in memory (:func:`urnld.rdf.canonicalize`) and in files (:mod:`urnld.stream`), and fill the
same report types.

How it works (see ``docs/endpoint.md``):

1. **Terms.** One aggregate ``SELECT ?x (COUNT(*) AS ?n) … GROUP BY ?x`` lists every distinct
   URN-looking term (``STRSTARTS(LCASE(STR(?x)), "urn:")``) with the number of statements it
   occurs in. The result is read while it streams in (or page by page with ``page_size``), so the
   client never holds the store. The non-canonical ones are spooled to a temporary file.
2. **Rewrite.** The spool is read back in batches of about ``batch`` statement-occurrences;
   each batch is one SPARQL Update request of ``DELETE { … } INSERT { … } WHERE { VALUES … }``
   operations, which read the store as it is when the request runs: statements written by
   others meanwhile are rewritten or kept, never lost. Inserting a statement that already exists
   is a no-op, which is how equivalent nodes merge.

A run rewrites only spellings the store still holds, so running it again changes nothing, and a
run killed after *k* batches is finished by running it again.

3. **Added statements** (opt-in, as in the file paths: ``link``, ``keep_spellings``,
   ``link_resolvers``; :mod:`urnld._kernel` decides them from the report's clusters). A spelling's
   ``urnld:spelling`` statement is inserted in the request that rewrites the spelling, so a
   store never holds a rewritten spelling without its record, even when a run stops between
   batches. The ``owl:sameAs`` and ``rdfs:seeAlso`` statements follow in batches of their own.
   Each batch first asks which of its statements the store already holds: only the others are
   inserted, counted and (in the undo file) deleted again.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import os
import tempfile
from collections.abc import Callable, Iterable, Iterator
from typing import IO, Any, NamedTuple

from .._kernel import (
    SPELLING,
    CheckFields,
    Extra,
    LinkOptions,
    TermCache,
    TermRule,
    TermVerdict,
    check_fields,
    is_rdflib_internal,
    record_extras,
    report_extras,
)
from ..errors import URNError
from ..report import DEFAULT_MAX_EXAMPLES, CanonicalizeReport, CheckReport
from ._client import DEFAULT_TIMEOUT, Endpoint, EndpointError, ResultCapError

__all__ = [
    "DEFAULT_BATCH",
    "BatchProgress",
    "EndpointBatchError",
    "canonicalize_endpoint",
    "check_endpoint",
]

#: Default statement-occurrences rewritten per SPARQL Update request.
DEFAULT_BATCH = 10_000

_XSD = "http://www.w3.org/2001/XMLSchema#"
_XSD_STRING = _XSD + "string"
_XSD_ANYURI = _XSD + "anyURI"
# Distinct terms judged before their counts go into the report (one aggregation per batch).
_REPORT_BATCH = 10_000


@dataclasses.dataclass(frozen=True, slots=True)
class BatchProgress:
    """Passed to the ``progress`` callback after each batch (and once before the first)."""

    batches_done: int
    batches_total: int
    statements_done: int
    statements_total: int


class EndpointBatchError(EndpointError):
    """A batch failed: batches ``1 … batch - 1`` are committed, the rest are not.

    ``report`` describes the whole run as planned, ``batches_done`` how far it got. Running the
    same command again finishes the job.
    """

    def __init__(self, message: str, *, batch: int, batches_done: int, batches_total: int,
                 report: CanonicalizeReport) -> None:
        super().__init__(message)
        self.batch = batch
        self.batches_done = batches_done
        self.batches_total = batches_total
        self.report = report

    def __reduce__(self) -> tuple[Any, ...]:
        # keyword-only constructor: pickle (worker processes, Dask) rebuilds it through _rebuild
        return (_rebuild_batch_error, (str(self), self.batch, self.batches_done,
                                       self.batches_total, self.report))


def _rebuild_batch_error(message: str, batch: int, done: int, total: int,
                         report: CanonicalizeReport) -> EndpointBatchError:
    return EndpointBatchError(message, batch=batch, batches_done=done, batches_total=total,
                              report=report)


class _Term(NamedTuple):
    """An RDF term as read from CSV results: ``kind`` is ``iri``, ``literal`` or ``bnode``."""

    kind: str
    value: str
    datatype: str = ""
    lang: str = ""

    def sparql(self) -> str:
        if self.kind == "iri":
            return f"<{_escape_iri(self.value)}>"
        if self.kind == "literal":
            body = '"' + _escape_string(self.value) + '"'
            if self.lang:
                return f"{body}@{self.lang}"
            if self.datatype and self.datatype != _XSD_STRING:
                return f"{body}^^<{_escape_iri(self.datatype)}>"
            return body
        raise ValueError("blank nodes have no SPARQL constant")  # callers use variables


def _escape_iri(iri: str) -> str:
    # IRIREF excludes these characters; \u escapes are decoded by SPARQL before parsing.
    return "".join(
        f"\\u{ord(c):04X}" if c in '<>"{}|^`\\' or ord(c) <= 0x20 else c for c in iri
    )


def _escape_string(text: str) -> str:
    return (
        text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\r", "\\r")
    )


# -- scope and query text -----------------------------------------------------------------------
# Virtuoso's own schema graph: part of every Virtuoso store, never data to rewrite or count.
_VIRTRDF = "http://www.openlinksw.com/schemas/virtrdf#"


def _graph_var(body: str) -> str:
    return f"GRAPH ?g {{ {body} }}"


def _plain(body: str) -> str:
    return body


@dataclasses.dataclass(frozen=True, slots=True)
class _Scope:
    """Which graphs a run reads and writes: the default graph, one named graph, or all.

    ``union_default`` is Virtuoso's model: its default graph is the union of the named graphs
    and cannot be written without naming a graph (openlink/virtuoso-opensource #215, ``SP031:
    No plain default graph specified in the preamble``). There the default graph and all graphs
    are read and rewritten graph by graph (``GRAPH ?g``): each statement keeps its graph, and
    the union is not counted a second time beside the graphs it is made of.
    """

    graph: str | None = None
    all_graphs: bool = False
    union_default: bool = False

    @property
    def virtuoso(self) -> bool:
        return self.union_default

    def parts(self) -> list[tuple[Callable[[str], str], Callable[[str], str]]]:
        """Per part of the scope: the template wrapper (``DELETE``/``INSERT``) and the pattern
        wrapper (``WHERE``) of ``?s ?p ?o``."""
        if self.graph is not None:
            g = _Term("iri", self.graph).sparql()

            def one(body: str) -> str:
                return f"GRAPH {g} {{ {body} }}"
            return [(one, one)]
        if self.union_default:
            def where(body: str) -> str:
                return f"GRAPH ?g {{ {body} }} FILTER(?g != <{_VIRTRDF}>)"
            return [(_graph_var, where)]
        if self.all_graphs:
            return [(_plain, _plain), (_graph_var, _graph_var)]
        return [(_plain, _plain)]

    def wrappers(self) -> list[Callable[[str], str]]:
        """One pattern wrapper per part of the scope (``W("?s ?p ?o")`` → a graph pattern)."""
        return [where for _template, where in self.parts()]

    def count_query(self) -> str:
        parts = [f"{{ {w('?s ?p ?o')} }}" for w in self.wrappers()]
        return "SELECT (COUNT(*) AS ?n) WHERE { " + " UNION ".join(parts) + " }"

    def target(self) -> Callable[[str], str]:
        """Where added statements go: the named graph of a one-graph run, else the default
        graph (with ``all_graphs`` too: the file paths add them to the default graph of a
        dataset, where statements about the resources themselves belong)."""
        if self.graph is not None:
            return self.parts()[0][0]
        if self.union_default:
            raise URNError(
                "this store (Virtuoso) has no default graph to add statements to: give --graph"
            )
        return _plain

    def constants(self, term: _Term) -> list[str]:
        """The SPARQL constants that match ``term`` in the store.

        On Virtuoso a string literal is written typed (``"v"^^xsd:string``): a plain ``"v"`` in
        an update that also holds the IRI ``<v>`` is taken for that IRI (seen on 7.2.5: a
        rewrite turned the literal ``"URN:X"`` into the IRI ``<urn:x>``). The typed constant
        matches only the typed spelling there, since Virtuoso keeps ``"v"`` and
        ``"v"^^xsd:string`` apart although RDF 1.1 makes them one term
        (openlink/virtuoso-opensource #633, #247); :meth:`plain_rows` reaches the other.
        """
        if self.virtuoso and _is_string(term):
            return [_typed(term)]
        return [term.sparql()]

    def pairs(self, old: _Term, new: _Term) -> list[str]:
        """VALUES rows ``(old new)``."""
        return [f"({o} {n})" for o, n in zip(self.constants(old), self.constants(new),
                                            strict=True)]

    def plain_rows(self, changes: Iterable[_Change]) -> str:
        """On Virtuoso, VALUES rows ``(?fs ?ts)`` of typed string constants whose ``STR()`` is
        the plain spelling of the old and new literal (``""`` elsewhere, or without any)."""
        if not self.virtuoso:
            return ""
        return " ".join(f"({_typed(c.old)} {_typed(c.new)})" for c in changes
                        if _is_string(c.old))


def _is_string(term: _Term) -> bool:
    return term.kind == "literal" and not term.lang and term.datatype in ("", _XSD_STRING)


def _typed_like(term: _Term) -> str:
    """A literal's constant with its datatype written out (xsd:string too)."""
    return _typed(term) if _is_string(term) else term.sparql()


def _typed(term: _Term) -> str:
    return f'"{_escape_string(term.value)}"^^<{_XSD_STRING}>'


def _data_op(verb: str, quads: list[_Quad], *, virtuoso: bool) -> str:
    """``INSERT DATA`` / ``DELETE DATA`` of ``quads``, or what Virtuoso needs instead.

    Virtuoso: a plain string literal is inserted as ``STR("v"^^xsd:string)`` (a plain constant
    may be taken for the IRI of the same text, see :meth:`_Scope.constants`), and a statement
    with a literal object is deleted through a variable read from the store, matched by its
    text, datatype and language: a constant literal in a ``DELETE`` is not always deleted
    (openlink/virtuoso-opensource #379, #633, #247, #335). A blank node is its ``nodeID://``
    name there.
    """
    if not virtuoso:
        return f"{verb} DATA {{ " + " ".join(_quad_text(q, _constant) for q in quads) + " }"
    if verb == "INSERT":
        binds: dict[str, str] = {}

        def spell(t: _Term) -> str:
            if not _is_string(t):
                return _constant(t)
            return binds.setdefault(_typed(t), f"?l{len(binds)}")
        body = " ".join(_quad_text(q, spell) for q in quads)
        if not binds:
            return f"INSERT DATA {{ {body} }}"
        where = " ".join(f"BIND(STR({k}) AS {v})" for k, v in binds.items())
        return f"INSERT {{ {body} }} WHERE {{ {where} }}"
    ops = []
    ground = [q for q in quads if q[2].kind != "literal"]
    if ground:
        ops.append("DELETE DATA { " + " ".join(_quad_text(q, _constant) for q in ground) + " }")
    templates, branches = [], []
    for i, q in enumerate(q for q in quads if q[2].kind == "literal"):
        var, o = f"?o{i}", q[2]
        test = [f"isLiteral({var})", f"STR({var}) = STR({_typed(o)})"]
        if o.lang:
            test.append(f'LANG({var}) = "{_escape_string(o.lang)}"')
        else:
            test.append(f"DATATYPE({var}) = <{_escape_iri(o.datatype or _XSD_STRING)}>")
        pattern = _quad_text((q[0], q[1], _Term("var", var), q[3]), _constant)
        templates.append(pattern)
        branches.append(f"{{ {pattern} FILTER({' && '.join(test)}) }}")
    if templates:
        ops.append(f"DELETE {{ {' '.join(templates)} }} WHERE {{ {' UNION '.join(branches)} }}")
    return " ;\n".join(ops)


def _constant(t: _Term) -> str:
    if t.kind == "var":
        return t.value
    # A Virtuoso blank node read back is nodeID://…, a name its DATA operations accept for
    # the same node (its INSERT DATA refuses _:labels: "SP031: Blank node … is not allowed
    # in a constant clause"); elsewhere no blank node reaches a DATA operation.
    return f"<{_escape_iri(t.value)}>" if t.kind == "bnode" else t.sparql()


def _quad_text(q: _Quad, spell: Callable[[_Term], str]) -> str:
    body = " ".join(spell(t) for t in q[:3] if t is not None) + " ."
    return f"GRAPH {spell(q[3])} {{ {body} }}" if q[3] is not None else body


_Quad = tuple["_Term", "_Term", "_Term", "_Term | None"]


def _not_spelling(var: str) -> str:
    """Leave the literal object of a ``urnld:spelling`` statement alone (whenever literals are
    looked at): it records a spelling as the data said it, and rewriting it would make a later
    run change what an earlier ``keep_spellings`` run wrote."""
    return f"FILTER(!isLiteral({var}) || !sameTerm(?p, <{SPELLING}>))"


def _urn_filter(var: str, *, literals: bool) -> str:
    test = f'STRSTARTS(LCASE(STR({var})), "urn:")'
    if literals:
        kinds = (
            f"(isIRI({var}) || (isLiteral({var}) && (DATATYPE({var}) = <{_XSD_STRING}> "
            f"|| DATATYPE({var}) = <{_XSD_ANYURI}>)))"
        )
    else:
        kinds = f"isIRI({var})"
    return f"FILTER({kinds} && {test})"


def _occurrence_patterns(scope: _Scope, *, literals: bool, keep_spellings: bool = False) -> str:
    """A pattern binding ``?x`` once per statement it occurs in (in any position).

    Each branch matches one position; the ``sameTerm`` filters drop a statement from the later
    branches when the same term already matched in an earlier position, so ``COUNT(*)`` per
    ``?x`` counts statements, as the file reports do.
    """
    iri = _urn_filter("?x", literals=False)
    any_term = _urn_filter("?x", literals=literals)
    if literals and keep_spellings:
        any_term += " " + _not_spelling("?x")
    branches = []
    for w in scope.wrappers():
        branches += [
            f"{{ {w('?x ?p ?o')} {iri} }}",
            f"{{ {w('?s ?x ?o')} {iri} FILTER(!sameTerm(?s, ?x)) }}",
            f"{{ {w('?s ?p ?x')} {any_term} FILTER(!sameTerm(?s, ?x) && !sameTerm(?p, ?x)) }}",
        ]
    if scope.all_graphs:
        branches.append(
            f"{{ GRAPH ?x {{ ?s ?p ?o }} {iri} "
            "FILTER(!sameTerm(?x, ?s) && !sameTerm(?x, ?p) && !sameTerm(?x, ?o)) }"
        )
    return " UNION ".join(branches)


def term_count_query(scope: _Scope, *, literals: bool, keep_spellings: bool = False) -> str:
    """The aggregate query listing each URN-looking term with its statement count.

    Virtuoso may put terms of the same text in one group of ``GROUP BY ?x`` (seen on 7.2.5:
    ``<urn:a:b>`` and ``"urn:a:b"``, or ``"urn:a:b"`` and ``"urn:a:b"^^xsd:anyURI``, counted as
    one term), so there the datatype (``""`` for an IRI) is a grouping key too.
    """
    patterns = _occurrence_patterns(scope, literals=literals, keep_spellings=keep_spellings)
    if scope.virtuoso and literals:
        return (
            "SELECT ?x (COUNT(*) AS ?n) ?dt WHERE { "
            f"{{ {patterns} }} BIND(COALESCE(STR(DATATYPE(?x)), \"\") AS ?dt) }} GROUP BY ?x ?dt"
        )
    return (
        "SELECT ?x (COUNT(*) AS ?n) (DATATYPE(?x) AS ?dt) WHERE { " + patterns + " } GROUP BY ?x"
    )


def occurrence_count_query(scope: _Scope, *, literals: bool) -> str:
    """``SELECT (COUNT(*) …)`` over the same patterns (the benchmark's baseline)."""
    return (
        "SELECT (COUNT(*) AS ?n) WHERE { " + _occurrence_patterns(scope, literals=literals) + " }"
    )


def _terms(
    endpoint: Endpoint, scope: _Scope, *, literals: bool, page_size: int | None,
    keep_spellings: bool = False,
) -> Iterator[tuple[_Term, int]]:
    for x, count, dt in _term_rows(endpoint, scope, literals=literals, page_size=page_size,
                                   keep_spellings=keep_spellings):
        yield (_Term("literal", x, dt) if dt else _Term("iri", x)), count


def _term_rows(
    endpoint: Endpoint, scope: _Scope, *, literals: bool, page_size: int | None,
    keep_spellings: bool = False,
) -> Iterator[tuple[str, int, str]]:
    """Each distinct URN term once: its value, its statement count and its datatype (``""``
    for an IRI), page by page; :func:`_terms` as plain tuples, for the check's million rows.

    A store that cuts a result at its row cap and says so (:class:`ResultCapError`, Virtuoso's
    ``ResultSetMaxRows``) is read again in ordered pages of at most that many rows; the cut
    result is dropped before any of its rows is used.
    """
    query = term_count_query(scope, literals=literals, keep_spellings=keep_spellings)
    if page_size is None:
        try:
            yield from _read_terms(endpoint, query)
            return
        except ResultCapError as e:
            if e.cap < 1:
                raise
            page_size = e.cap
    offset = 0
    while True:  # ends at the first short page: the term list is finite
        if scope.virtuoso:
            # Virtuoso sorts at most MaxSortedTopRows for ORDER BY … OFFSET (SR353), except in
            # a subquery ("scrollable cursor"), which keeps the order for the outer slice.
            page = (f"SELECT * WHERE {{ {{ {query} ORDER BY ?x }} }} "
                    f"LIMIT {page_size} OFFSET {offset}")
        else:
            page = f"{query} ORDER BY ?x LIMIT {page_size} OFFSET {offset}"
        try:
            n = 0
            for row in _read_terms(endpoint, page, limit=page_size):
                n += 1
                yield row
        except ResultCapError as e:
            if n or e.cap < 1 or e.cap >= page_size:
                raise
            page_size = e.cap  # a page larger than the store's cap: smaller pages
            continue
        if n < page_size:
            return
        offset += n


def _read_terms(endpoint: Endpoint, query: str,
                limit: int | None = None) -> Iterator[tuple[str, int, str]]:
    for x, count, dt in endpoint.select_columns(query, ("x", "n", "dt"), limit=limit):
        try:
            yield x, int(count), dt
        except ValueError as e:
            raise EndpointError(
                f"{endpoint.url}: unexpected results (a count of {count!r})"
            ) from e


def _check_scope(endpoint: Endpoint, scope: _Scope) -> int:
    """Count the statements in scope; a named graph that holds none is an error."""
    if scope.graph is not None:
        g = _Term("iri", scope.graph).sparql()
        if not endpoint.ask(f"ASK {{ GRAPH {g} {{ ?s ?p ?o }} }}"):
            raise URNError(f"graph {g} does not exist or is empty at {endpoint.url}")
    return endpoint.count(scope.count_query())


def _for_store(scope: _Scope, endpoint: Endpoint) -> _Scope:
    """The scope as this store needs it spelled (asked once per run, from its answers)."""
    return dataclasses.replace(scope, union_default=endpoint.vendor == "virtuoso")


def _validate_graph(graph: str | None, all_graphs: bool) -> _Scope:
    if graph is not None and all_graphs:
        raise URNError("give a graph IRI or all graphs, not both")
    if graph is not None and (not graph or any(c in graph for c in '<>"{}|^`\\ \n')):
        raise URNError(f"not a usable graph IRI: {graph!r}")
    return _Scope(graph, all_graphs)


# -- check -----------------------------------------------------------------------------------------
def check_endpoint(
    url: str,
    *,
    graph: str | None = None,
    all_graphs: bool = False,
    literals: bool = False,
    timeout: float = DEFAULT_TIMEOUT,
    page_size: int | None = None,
    report: CheckReport | None = None,
) -> CheckReport:
    """Scan the URN terms of the SPARQL endpoint at ``url``; fill a :class:`CheckReport`.

    Reads the default graph, the named ``graph``, or (``all_graphs=True``) the default graph,
    every named graph and the graph names. With ``literals=True`` plain / ``xsd:string`` /
    ``xsd:anyURI`` literals whose whole value is a URN count too. ``page_size`` reads the term
    list in pages of that many terms (``ORDER BY``/``LIMIT``/``OFFSET``) for endpoints that cap
    result sizes; by default it is one streamed result.

    Raises :class:`EndpointError` (an environment failure) when the endpoint fails, ``URNError`` on
    bad arguments or a named graph that holds no statement.
    """
    scope = _validate_graph(graph, all_graphs)
    if page_size is not None and page_size < 1:
        raise URNError(f"page size must be a positive integer, got {page_size}")
    if report is None:
        report = CheckReport()
    with Endpoint(url, timeout=timeout) as endpoint:
        scope = _for_store(scope, endpoint)
        report.statements_in += _check_scope(endpoint, scope)
        # Each distinct term comes once: the uncached rule, the report filled in batches.
        batch: list[tuple[str, CheckFields, bool, int]] = []
        for value, count, datatype in _term_rows(
            endpoint, scope, literals=literals, page_size=page_size, keep_spellings=literals
        ):
            if is_rdflib_internal(value):
                continue  # rdflib's own names are not data (as in the file paths)
            batch.append((value, check_fields(value), bool(datatype), count))
            if len(batch) >= _REPORT_BATCH:
                report.record_checks(batch)
                batch.clear()
        report.record_checks(batch)
    return report


# -- canonicalize ----------------------------------------------------------------------------------
class _Change(NamedTuple):
    old: _Term
    new: _Term
    n: int  # statement-occurrences


def _rewrite_ops(scope: _Scope, changes: list[_Change], *, keep_spellings: bool = False) -> str:
    """One update request: rewrite every position that holds one of ``changes``' old terms.

    The operations run in order within the request, each reading the store as the previous one
    left it, so a statement holding several old terms ends with all of them rewritten. With
    ``keep_spellings``, literal objects of ``urnld:spelling`` statements are left alone.
    """
    iri_rows = " ".join(r for c in changes if c.old.kind == "iri"
                        for r in scope.pairs(c.old, c.new))
    all_rows = " ".join(r for c in changes for r in scope.pairs(c.old, c.new))
    ops = []
    literal_rows = any(c.old.kind == "literal" for c in changes)
    keep = _not_spelling("?f") if keep_spellings and literal_rows else ""
    parts = [("?f ?p ?o", "?f ?p ?o", "?t ?p ?o", iri_rows, ""),
             ("?s ?f ?o", "?s ?f ?o", "?s ?t ?o", iri_rows, "")]
    if scope.virtuoso:
        # Virtuoso does not always delete a literal given as a constant (VALUES included):
        # it does through a variable read from the store (openlink/virtuoso-opensource #379,
        # #633, #247). The statement is found by either spelling of the old literal (a plain
        # constant only finds statements here, never goes into one: see _Scope.constants),
        # then read again as ?d; the new literal is written typed, the same RDF 1.1 term.
        lit_rows = " ".join(
            f"({old} <{_escape_iri(c.old.datatype or _XSD_STRING)}> {_typed_like(c.new)})"
            for c in changes if c.old.kind == "literal"
            for old in sorted({_typed_like(c.old), c.old.sparql()})
        )
        parts.append(("?s ?p ?f", "?s ?p ?f", "?s ?p ?t", iri_rows, ""))
        if lit_rows:
            # The subquery keeps Virtuoso from taking ?d for the constant ?f again.
            for t, w in scope.parts():
                ops.append(
                    f"DELETE {{ {t('?s ?p ?d')} }} INSERT {{ {t('?s ?p ?t')} }} WHERE {{ "
                    "{ SELECT DISTINCT ?g ?s ?p ?k ?t (STR(?f) AS ?fs) WHERE { "
                    f"VALUES (?f ?k ?t) {{ {lit_rows} }} {w('?s ?p ?f')}{keep and ' ' + keep} "
                    f"}} }} {w('?s ?p ?d')} "
                    "FILTER(isLiteral(?d) && STR(?d) = ?fs && DATATYPE(?d) = ?k) }"
                )
    else:
        parts.append(("?s ?p ?f", "?s ?p ?f", "?s ?p ?t", all_rows, keep))
    for t, w in scope.parts():
        for pattern, where, out, rows, extra in parts:
            if rows:
                ops.append(
                    f"DELETE {{ {t(pattern)} }} INSERT {{ {t(out)} }} "
                    f"WHERE {{ VALUES (?f ?t) {{ {rows} }} {w(where)}{extra and ' ' + extra} }}"
                )
    if scope.all_graphs and iri_rows:
        ops.append(
            "DELETE { GRAPH ?f { ?s ?p ?o } } INSERT { GRAPH ?t { ?s ?p ?o } } "
            f"WHERE {{ VALUES (?f ?t) {{ {iri_rows} }} GRAPH ?f {{ ?s ?p ?o }} }}"
        )
    return " ;\n".join(ops)


class _Spool:
    """Non-canonical terms on disk (JSON lines): the client's memory stays bounded."""

    def __init__(self) -> None:
        self.file: IO[str] = tempfile.TemporaryFile("w+", encoding="utf-8")  # noqa: SIM115
        self.terms = 0
        self.occurrences = 0

    def add(self, change: _Change) -> None:
        self.file.write(json.dumps([*change.old, *change.new, change.n]) + "\n")  # one write
        self.terms += 1
        self.occurrences += change.n

    def batches(self, size: int, max_terms: int | None = None) -> Iterator[list[_Change]]:
        self.file.seek(0)
        batch: list[_Change] = []
        total = 0
        for line in self.file:
            v = json.loads(line)
            batch.append(_Change(_Term(*v[0:4]), _Term(*v[4:8]), v[8]))
            total += v[8]
            if total >= size or (max_terms is not None and len(batch) >= max_terms):
                yield batch
                batch, total = [], 0
        if batch:
            yield batch

    def close(self) -> None:
        self.file.close()


def canonicalize_endpoint(
    url: str,
    *,
    update_url: str | None = None,
    graph: str | None = None,
    all_graphs: bool = False,
    literals: bool = False,
    ignore_components: bool = False,
    dry_run: bool = False,
    batch: int = DEFAULT_BATCH,
    undo: str | os.PathLike[str] | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    page_size: int | None = None,
    progress: Callable[[BatchProgress], None] | None = None,
    link: bool = False,
    keep_spellings: bool = False,
    link_resolvers: bool = False,
    max_examples: int = DEFAULT_MAX_EXAMPLES,
) -> CanonicalizeReport:
    """Rewrite, in place, every non-canonical URN spelling the store at ``url`` holds.

    The rule is :func:`urnld.rdf.canonicalize`'s (same options, same report); the scope
    arguments are :func:`check_endpoint`'s. Updates go to ``update_url`` (default ``url``), in
    requests of about ``batch`` statement-occurrences each. ``dry_run=True`` reports what would
    change and sends no update (its report's ``statements_out`` is the input count).
    ``undo`` names a file that receives, batch by batch and on disk before each batch is sent,
    the updates that restore the original spellings (:mod:`urnld.endpoint._undo`; apply with
    :func:`urnld.endpoint.apply_undo` or ``urnld undo``); an existing undo file is added to.
    Refused on Virtuoso (a :class:`URNError` before anything is written).
    ``progress`` is called with a :class:`BatchProgress` after each batch.

    ``link``, ``keep_spellings`` and ``link_resolvers`` add the statements they add on the file
    paths (:func:`urnld.rdf.canonicalize`: ``owl:sameAs``, ``urnld:spelling``,
    ``rdfs:seeAlso``), to the named ``graph`` or else the default graph. The report counts only
    statements the store did not hold yet (on a dry run: would not hold), so a second run adds
    and counts nothing; ``undo`` deletes exactly those. They come from the report's clusters:
    past ``max_examples`` distinct spellings a :class:`~urnld.errors.SpellingLimitError` is
    raised before anything is written. With ``literals``, the literal objects of
    ``urnld:spelling`` statements are not canonicalized (they record spellings), as on every
    path.

    Idempotent (a second run changes nothing) and resumable: when a batch fails,
    :class:`EndpointBatchError` says which; batches before it are committed, and running again
    finishes the job with the same final store as one uninterrupted run.
    """
    scope = _validate_graph(graph, all_graphs)
    if batch < 1:
        raise URNError(f"batch size must be a positive integer, got {batch}")
    if dry_run and undo is not None:
        raise URNError("a dry run changes nothing, so it has nothing to undo: drop the undo file")
    if page_size is not None and page_size < 1:
        raise URNError(f"page size must be a positive integer, got {page_size}")
    options = LinkOptions(link, keep_spellings, link_resolvers)
    # Spelling records (an earlier keep_spellings run) are never URN terms, on every path.
    skip_spellings = literals
    report = CanonicalizeReport(
        ignore_components=ignore_components, literals=literals, max_examples=max_examples
    )
    rule = TermCache(TermRule(ignore_components=ignore_components))
    spool = _Spool()
    try:
        with Endpoint(url, update_url=update_url, timeout=timeout) as endpoint:
            scope = _for_store(scope, endpoint)
            if undo is not None and scope.virtuoso:
                # Virtuoso reads some constants of an update as terms of another kind (a
                # literal as the IRI of the same text, and back) and does not always delete a
                # literal constant (#379, #633): an undo file there could not restore exactly.
                raise URNError("undo files are not supported on Virtuoso: back the store up "
                               "(or dump it) before the run instead")
            if options and scope.union_default:
                scope.target()  # no default graph to add statements to: fail before reading
            report.statements_in = _check_scope(endpoint, scope)
            verdicts: list[tuple[str, TermVerdict, int]] = []
            for term, count in _terms(endpoint, scope, literals=literals, page_size=page_size,
                                      keep_spellings=skip_spellings):
                if is_rdflib_internal(term.value):
                    continue  # rdflib's own names are not data (as in the file paths)
                # Each distinct term comes once: the uncached rule.
                verdict = rule.verdict(term.value)
                verdicts.append((term.value, verdict, count))
                if len(verdicts) >= 4096:
                    report.record_verdicts(verdicts)
                    verdicts.clear()
                if verdict.ok and verdict.output != term.value:
                    spool.add(_Change(term, term._replace(value=verdict.output), count))
            report.record_verdicts(verdicts)
            # Decided before anything is written: past the cap, nothing is added or rewritten.
            extras = report_extras(report, options, endpoint.url) if options else []
            if dry_run:
                for i in range(0, len(extras), batch):
                    record_extras(report, _missing(endpoint, scope, extras[i:i + batch]))
                report.statements_out = report.statements_in
                return report
            _rewrite(
                endpoint, scope, spool, size=batch, report=report, undo=undo, progress=progress,
                extras=extras, keep_spellings=skip_spellings,
            )
            report.statements_out = endpoint.count(scope.count_query())
            # The added statements are in the count but merged nothing.
            report.duplicates_merged = max(
                0, report.statements_in + report.added - report.statements_out
            )
            return report
    finally:
        spool.close()


# Virtuoso compiles an update into a code vector of at most 32 KiB ("SQ199: Maximum size
# (32767) of a code vector exceeded"): about 6,000 VALUES rows in one request exceed it, 2,000
# do not. There a batch also ends at this many distinct terms.
_VIRTUOSO_MAX_TERMS = 1000


def _max_terms(scope: _Scope) -> int | None:
    return _VIRTUOSO_MAX_TERMS if scope.virtuoso else None


def _plan(
    spool: _Spool, size: int, extras: list[Extra], scope: _Scope
) -> tuple[list[list[Extra]], list[list[Extra]]]:
    """The added statements per request: each rewrite batch's ``urnld:spelling`` statements
    (those of the spellings it rewrites), then the rest in chunks of ``size``."""
    by_spelling: dict[str, list[Extra]] = {}
    rest: list[Extra] = []
    for e in extras:
        if e.predicate == SPELLING:
            by_spelling.setdefault(e.object, []).append(e)
        else:
            rest.append(e)
    per_batch = []
    for changes in spool.batches(size, _max_terms(scope)):
        mine: list[Extra] = []
        for c in changes:  # an IRI and a literal of one spelling: the first takes them
            mine.extend(by_spelling.pop(c.old.value, ()))
        per_batch.append(sorted(mine, key=Extra.ntriples))
    # A spelling the store no longer holds (written meanwhile by others): added all the same.
    rest.extend(e for es in by_spelling.values() for e in es)
    rest.sort(key=Extra.ntriples)
    return per_batch, [rest[i:i + size] for i in range(0, len(rest), size)]


def _extra_terms(e: Extra) -> tuple[_Term, _Term, _Term]:
    obj = _Term("literal", e.object) if e.literal else _Term("iri", e.object)
    return _Term("iri", e.subject), _Term("iri", e.predicate), obj


def _extra_sparql(e: Extra) -> str:
    return " ".join(t.sparql() for t in _extra_terms(e))


def _extras_op(scope: _Scope, verb: str, extras: list[Extra]) -> str:
    """The ``INSERT DATA`` / ``DELETE DATA`` (or Virtuoso's form) of ``extras``."""
    scope.target()  # a store without a default graph needs a named one
    g = _Term("iri", scope.graph) if scope.graph is not None else None
    quads: list[_Quad] = [(*_extra_terms(e), g) for e in extras]
    return _data_op(verb, quads, virtuoso=scope.virtuoso)


def _missing(endpoint: Endpoint, scope: _Scope, extras: list[Extra]) -> list[Extra]:
    """The statements of ``extras`` (distinct) the store does not hold where they would go."""
    if not extras:
        return []
    rows = " ".join(f"({i} {_extra_sparql(e)})" for i, e in enumerate(extras))
    query = (
        f"SELECT ?i WHERE {{ VALUES (?i ?s ?p ?o) {{ {rows} }} {scope.target()('?s ?p ?o')} }}"
    )
    held: set[int] = set()
    for (i,) in endpoint.select_columns(query, ("i",)):
        try:
            held.add(int(i))
        except ValueError as e:
            raise EndpointError(f"{endpoint.url}: unexpected results (a row {i!r})") from e
    return [e for i, e in enumerate(extras) if i not in held]


def _rewrite(
    endpoint: Endpoint,
    scope: _Scope,
    spool: _Spool,
    *,
    size: int,
    report: CanonicalizeReport,
    undo: str | os.PathLike[str] | None,
    progress: Callable[[BatchProgress], None] | None,
    extras: list[Extra],
    keep_spellings: bool,
) -> None:
    per_batch, after = _plan(spool, size, extras, scope)
    total = len(per_batch) + len(after)
    statements_total = spool.occurrences + len(extras)
    done_statements = 0
    from ._undo import UndoWriter

    undo_log = UndoWriter(undo) if undo is not None else None
    if progress is not None:
        progress(BatchProgress(0, total, 0, statements_total))
    requests = zip(spool.batches(size, _max_terms(scope)), per_batch, strict=True)
    k = 0
    try:
        for k, (changes, added) in enumerate(
            itertools.chain(requests, (([], chunk) for chunk in after)), 1
        ):
            try:
                # Read before the request: which added statements are new, what the rewrite
                # will change (for the undo file).
                new = _missing(endpoint, scope, added)
                ops, reverts = [], []
                if new:
                    reverts.append(_extras_op(scope, "DELETE", new))
                if changes:
                    if undo_log is not None:
                        reverts.append(_undo_ops(endpoint, scope, changes,
                                                 keep_spellings=keep_spellings))
                    ops.append(_rewrite_ops(scope, changes, keep_spellings=keep_spellings))
                if new:
                    ops.append(_extras_op(scope, "INSERT", new))
                if undo_log is not None:  # on disk before the batch leaves
                    undo_log.begin(" ;\n".join(r for r in reverts if r))
                if ops:
                    endpoint.update(" ;\n".join(ops))
                if undo_log is not None:
                    undo_log.committed()
            except EndpointError as e:
                raise EndpointBatchError(
                    f"batch {k} of {total} failed, batches 1-{k - 1} are committed "
                    f"(run again to finish): {e}" if k > 1 else
                    f"batch 1 of {total} failed, nothing was changed (run again to retry): {e}",
                    batch=k, batches_done=k - 1, batches_total=total, report=report,
                ) from e
            record_extras(report, new)
            done_statements += sum(c.n for c in changes) + len(added)
            if progress is not None:
                progress(BatchProgress(k, total, done_statements, statements_total))
    finally:
        if undo_log is not None:
            undo_log.close()


# -- undo ------------------------------------------------------------------------------------------
_TERM_COLUMNS = " ".join(
    f"({fn}(?{v}) AS ?{v}_{tag})"
    for v in "spog"
    for fn, tag in (("DATATYPE", "dt"), ("LANG", "lang"), ("isBlank", "b"))
)

# SPARQL CSV writes booleans as true/false; Virtuoso writes 1/0.
_TRUE = ("true", "1")


def _read_term(row: dict[str, str], var: str) -> _Term | None:
    value = row.get(var, "")
    if row.get(f"{var}_b") in _TRUE:
        return _Term("bnode", value)
    if var in "pg":  # never literals (Virtuoso gives a graph name a DATATYPE)
        return _Term("iri", value) if value else None
    dt = row.get(f"{var}_dt", "")
    if dt or row.get(f"{var}_lang"):
        return _Term("literal", value, dt, row.get(f"{var}_lang", ""))
    if not value:
        return None  # unbound: the default graph
    return _Term("iri", value)


def _undo_ops(
    endpoint: Endpoint, scope: _Scope, changes: list[_Change], *, keep_spellings: bool = False
) -> str:
    """The update that reverts this batch, read from the store just before the batch runs.

    Grouped per statement the batch will write (its *canonical statement*): every statement
    holding an old term is read with its graph, and the store says in the same query whether
    the statement it becomes is already there. The undo deletes a canonical statement only if
    it was not there before, and inserts back every original spelling that was there; a
    statement that was canonical already is neither read nor touched. Several spellings that
    merge into one statement (sharing a blank node too) come back together, from one
    operation.

    Blank nodes: on Virtuoso they have names that later requests can use (``nodeID://…``),
    so the undo is ground. Elsewhere the standard gives none, and a statement with a blank
    node is reverted by pattern (its blank nodes as variables).
    """
    mapping = {c.old: c.new for c in changes}
    olds = " ".join(k for c in changes for k in scope.constants(c.old))
    iri_rows = " ".join(r for c in changes if c.old.kind == "iri"
                        for r in scope.pairs(c.old, c.new))
    all_rows = " ".join(r for c in changes for r in scope.pairs(c.old, c.new))
    keep = " " + _not_spelling("?f") if keep_spellings else ""
    plain = scope.plain_rows(changes)
    plain_olds = " ".join(_typed(c.old) for c in changes if _is_string(c.old))
    groups: dict[_Quad, tuple[bool, list[_Quad]]] = {}
    for t, w in scope.parts():
        named = t is not _plain
        branches = []
        for pos in ("?s", "?p", "?o"):
            pattern = "?s ?p ?o".replace(pos, "?f")
            only = keep if pos == "?o" else ""
            branches.append(f"{{ {w(pattern)}{only} BIND(?f AS {pos}) }}")
        rename_graphs = named and scope.all_graphs
        if rename_graphs:
            branches.append("{ GRAPH ?f { ?s ?p ?o } BIND(?f AS ?g) }")
        found = f"{{ VALUES ?f {{ {olds} }} {' UNION '.join(branches)} }}"
        maps = [f"OPTIONAL {{ VALUES (?s ?ms) {{ {iri_rows} }} }}" if iri_rows else "",
                f"OPTIONAL {{ VALUES (?p ?mp) {{ {iri_rows} }} }}" if iri_rows else "",
                f"OPTIONAL {{ VALUES (?o ?mo) {{ {all_rows} }} }}"]
        news = ["BIND(COALESCE(?ms, ?s) AS ?ns)", "BIND(COALESCE(?mp, ?p) AS ?np)",
                "BIND(COALESCE(?mo, ?mq, ?o) AS ?no)"]
        if plain:  # Virtuoso's plain string literals (see _Scope.constants)
            found = (f"{{ {found} UNION {{ VALUES ?fs {{ {plain_olds} }} BIND(STR(?fs) AS ?f) "
                     f"{w('?s ?p ?f')}{keep} BIND(?f AS ?o) }} }}")
            maps.append(f"OPTIONAL {{ VALUES (?qs ?qt) {{ {plain} }} "
                        "BIND(STR(?qs) AS ?o) BIND(STR(?qt) AS ?mq) }")
        if scope.graph is not None:
            graph_bind = f"BIND({_Term('iri', scope.graph).sparql()} AS ?g)"
            there = t("?ns ?np ?no")
        elif named:
            graph_bind = ""
            if rename_graphs and iri_rows:
                maps.append(f"OPTIONAL {{ VALUES (?g ?mg) {{ {iri_rows} }} }}")
            news.append("BIND(COALESCE(?mg, ?g) AS ?ng)")
            there = "GRAPH ?ng { ?ns ?np ?no }"
        else:
            graph_bind = ""
            there = "?ns ?np ?no"
        query = (
            f"SELECT DISTINCT ?s ?p ?o ?g ?e {_TERM_COLUMNS} WHERE {{ "
            f"{found} {graph_bind} "
            + " ".join(maps) + " " + " ".join(news)
            + f" OPTIONAL {{ {there} BIND(1 AS ?e) }} }}"
        )
        for row in endpoint.select(query):
            s, p, o, g = (_read_term(row, v) for v in "spog")
            if s is None or p is None or o is None:
                raise EndpointError(f"{endpoint.url}: incomplete statement in results: {row!r}")
            old: _Quad = (s, p, o, g)
            new_g = mapping.get(g, g) if g is not None and rename_graphs else g
            new: _Quad = (mapping.get(s, s), mapping.get(p, p), mapping.get(o, o), new_g)
            groups.setdefault(new, (row.get("e", "") in _TRUE, []))[1].append(old)
    stars: dict[str, list[_Quad]] = {}
    if not scope.virtuoso:
        blank = {t.value for new in groups for t in new if t is not None and t.kind == "bnode"}
        if blank:
            stars = _stars(endpoint, scope, olds, blank, mapping)
    return " ;\n".join(_revert(groups, named_bnodes=scope.virtuoso, stars=stars))


# A blank node's place in a statement of its neighbourhood (see _stars).
_BLANK = _Term("bnode", "")


def _stars(endpoint: Endpoint, scope: _Scope, olds: str, wanted: set[str],
           mapping: dict[_Term, _Term]) -> dict[str, list[_Quad]]:
    """The other statements of the blank nodes in the batch's statements that the batch does
    not change (so they read the same when its undo runs): ``(node, p, o, g)`` for
    ``node p o`` and ``(o, p, node, g)`` for the reverse, with the node as :data:`_BLANK`.
    Read by blank-node label, which a store keeps from one query to the next (Oxigraph does);
    where it does not, nothing is found and the undo stays a pattern."""
    anchors = [f"{{ {w(pattern)} }}" for w in scope.wrappers()
               for pattern in ("?f ?p ?b", "?b ?f ?o", "?b ?p ?f", "?s ?f ?b")]
    query = (
        "SELECT DISTINCT ?b ?x ?y ?h ?in (isBlank(?b) AS ?b_b) (isBlank(?y) AS ?y_b) "
        "(DATATYPE(?y) AS ?y_dt) (LANG(?y) AS ?y_lang) WHERE { "
        f"{{ VALUES ?f {{ {olds} }} {' UNION '.join(anchors)} }} FILTER(isBlank(?b)) "
        "{ { ?b ?x ?y } UNION { GRAPH ?h { ?b ?x ?y } } BIND(0 AS ?in) } UNION "
        "{ { ?y ?x ?b } UNION { GRAPH ?h { ?y ?x ?b } } BIND(1 AS ?in) } }"
    )
    out: dict[str, list[_Quad]] = {}
    for row in endpoint.select(query):
        b, y = row.get("b", ""), _read_term(row, "y")
        if b not in wanted or y is None or y.kind == "bnode":
            continue  # another blank node: no constant to match it by
        x, h = _Term("iri", row.get("x", "")), _read_term(row, "h")
        if x in mapping or y in mapping or h in mapping:
            continue  # reverted by the same undo block, in an order not known here
        star: _Quad = (_BLANK, x, y, h) if row.get("in") == "0" else (y, x, _BLANK, h)
        out.setdefault(b, []).append(star)
    return out


def _revert(groups: dict[_Quad, tuple[bool, list[_Quad]]], *, named_bnodes: bool,
            stars: dict[str, list[_Quad]] | None = None) -> list[str]:
    deletes: list[_Quad] = []
    inserts: list[_Quad] = []
    patterns: list[str] = []
    for new, (existed, olds) in sorted(groups.items(), key=lambda kv: repr(kv[0])):
        if named_bnodes or not any(t is not None and t.kind == "bnode" for t in new):
            if not existed:
                deletes.append(new)
            inserts.extend(olds)
        else:
            patterns.append(_bnode_undo(new, olds, existed, stars or {}))
    ops = []
    for verb, quads in (("DELETE", deletes), ("INSERT", inserts)):
        if quads:
            unique = sorted(set(quads), key=repr)
            ops.append(_data_op(verb, unique, virtuoso=named_bnodes))
    return ops + patterns


def _bnode_undo(new: _Quad, olds: list[_Quad], existed: bool,
                stars: dict[str, list[_Quad]]) -> str:
    labels: dict[str, str] = {}

    def spell(t: _Term) -> str:
        if t.kind != "bnode":
            return t.sparql()
        if t.value not in labels:
            labels[t.value] = f"?b{len(labels)}"
        return labels[t.value]

    def quad(q: _Quad) -> str:
        body = " ".join(spell(t) for t in q[:3] if t is not None) + " ."
        return f"GRAPH {q[3].sparql()} {{ {body} }}" if q[3] is not None else body

    new_body = quad(new)
    old_bodies = " ".join(sorted({quad(o) for o in olds}))
    # The pattern alone would match every blank node in that place: the one meant is told
    # apart by its other statements, and each operation takes one match (LIMIT 1), so
    # spellings that blank nodes with the same statements had come back one per node.
    context = []
    for label, var in list(labels.items()):
        for star in stars.get(label, ()):
            body = " ".join(var if t is _BLANK else t.sparql() for t in star[:3]
                            if t is not None) + " ."
            context.append(f"GRAPH {star[3].sparql()} {{ {body} }}" if star[3] is not None
                           else body)
    new_body_where = " ".join([new_body, *sorted(set(context))])
    blank = " && ".join(f"isBlank({v})" for v in labels.values())
    delete = "" if existed else f"DELETE {{ {new_body} }} "
    names = " ".join(labels.values())
    return (f"{delete}INSERT {{ {old_bodies} }} WHERE {{ {{ SELECT {names} WHERE {{ "
            f"{new_body_where} FILTER({blank}) }} LIMIT 1 }} }}")
