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
from ._client import DEFAULT_TIMEOUT, Endpoint, EndpointError

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
@dataclasses.dataclass(frozen=True, slots=True)
class _Scope:
    """Which graphs a run reads and writes: the default graph, one named graph, or all."""

    graph: str | None = None
    all_graphs: bool = False

    def wrappers(self) -> list[Callable[[str], str]]:
        """One pattern wrapper per part of the scope (``W("?s ?p ?o")`` → a graph pattern)."""
        if self.graph is not None:
            g = _Term("iri", self.graph).sparql()
            return [lambda body: f"GRAPH {g} {{ {body} }}"]
        if self.all_graphs:
            return [lambda body: body, lambda body: f"GRAPH ?g {{ {body} }}"]
        return [lambda body: body]

    def count_query(self) -> str:
        parts = [f"{{ {w('?s ?p ?o')} }}" for w in self.wrappers()]
        return "SELECT (COUNT(*) AS ?n) WHERE { " + " UNION ".join(parts) + " }"

    def target(self) -> Callable[[str], str]:
        """Where added statements go: the named graph of a one-graph run, else the default
        graph (with ``all_graphs`` too: the file paths add them to the default graph of a
        dataset, where statements about the resources themselves belong)."""
        if self.graph is not None:
            return self.wrappers()[0]
        return lambda body: body


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
    """The aggregate query listing each URN-looking term with its statement count."""
    return (
        "SELECT ?x (COUNT(*) AS ?n) (DATATYPE(?x) AS ?dt) WHERE { "
        + _occurrence_patterns(scope, literals=literals, keep_spellings=keep_spellings)
        + " } GROUP BY ?x"
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
    for an IRI), page by page; :func:`_terms` as plain tuples, for the check's million rows."""
    query = term_count_query(scope, literals=literals, keep_spellings=keep_spellings)
    if page_size is None:
        pages: Iterable[str] = [query]
    else:
        pages = (
            f"{query} ORDER BY ?x LIMIT {page_size} OFFSET {k * page_size}"
            for k in range(1 << 40)  # bounded; the loop below stops at the first short page
        )
    for page in pages:
        n = 0
        for x, count, dt in endpoint.select_columns(page, ("x", "n", "dt")):
            n += 1
            try:
                yield x, int(count), dt
            except ValueError as e:
                raise EndpointError(
                    f"{endpoint.url}: unexpected results (a count of {count!r})"
                ) from e
        if page_size is None or n < page_size:
            return


def _check_scope(endpoint: Endpoint, scope: _Scope) -> int:
    """Count the statements in scope; a named graph that holds none is an error."""
    if scope.graph is not None:
        g = _Term("iri", scope.graph).sparql()
        if not endpoint.ask(f"ASK {{ GRAPH {g} {{ ?s ?p ?o }} }}"):
            raise URNError(f"graph {g} does not exist or is empty at {endpoint.url}")
    return endpoint.count(scope.count_query())


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
    iri_rows = " ".join(f"({c.old.sparql()} {c.new.sparql()})" for c in changes
                        if c.old.kind == "iri")
    all_rows = " ".join(f"({c.old.sparql()} {c.new.sparql()})" for c in changes)
    ops = []
    literal_rows = any(c.old.kind == "literal" for c in changes)
    keep = _not_spelling("?f") if keep_spellings and literal_rows else ""
    for w in scope.wrappers():
        for pattern, out, rows, extra in (
            ("?f ?p ?o", "?t ?p ?o", iri_rows, ""),
            ("?s ?f ?o", "?s ?t ?o", iri_rows, ""),
            ("?s ?p ?f", "?s ?p ?t", all_rows, keep),
        ):
            if rows:
                ops.append(
                    f"DELETE {{ {w(pattern)} }} INSERT {{ {w(out)} }} "
                    f"WHERE {{ VALUES (?f ?t) {{ {rows} }} {w(pattern)}{extra and ' ' + extra} }}"
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

    def batches(self, size: int) -> Iterator[list[_Change]]:
        self.file.seek(0)
        batch: list[_Change] = []
        total = 0
        for line in self.file:
            v = json.loads(line)
            batch.append(_Change(_Term(*v[0:4]), _Term(*v[4:8]), v[8]))
            total += v[8]
            if total >= size:
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
    ``undo`` names a file to receive a SPARQL Update that restores the original spellings
    (written also when a batch fails, covering every batch that may have been committed).
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


def _plan(
    spool: _Spool, size: int, extras: list[Extra]
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
    for changes in spool.batches(size):
        mine: list[Extra] = []
        for c in changes:  # an IRI and a literal of one spelling: the first takes them
            mine.extend(by_spelling.pop(c.old.value, ()))
        per_batch.append(sorted(mine, key=Extra.ntriples))
    # A spelling the store no longer holds (written meanwhile by others): added all the same.
    rest.extend(e for es in by_spelling.values() for e in es)
    rest.sort(key=Extra.ntriples)
    return per_batch, [rest[i:i + size] for i in range(0, len(rest), size)]


def _extra_sparql(e: Extra) -> str:
    obj = _Term("literal", e.object) if e.literal else _Term("iri", e.object)
    return f"{_Term('iri', e.subject).sparql()} {_Term('iri', e.predicate).sparql()} {obj.sparql()}"


def _extras_data(scope: _Scope, extras: list[Extra]) -> str:
    """The ``{ … }`` of an ``INSERT DATA`` / ``DELETE DATA`` holding ``extras``."""
    return "{ " + scope.target()(" ".join(_extra_sparql(e) + " ." for e in extras)) + " }"


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
    per_batch, after = _plan(spool, size, extras)
    total = len(per_batch) + len(after)
    statements_total = spool.occurrences + len(extras)
    done_statements = 0
    undo_log = _UndoLog(undo) if undo is not None else None
    if progress is not None:
        progress(BatchProgress(0, total, 0, statements_total))
    requests = zip(spool.batches(size), per_batch, strict=True)
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
                    reverts.append("DELETE DATA " + _extras_data(scope, new))
                if changes:
                    if undo_log is not None:
                        reverts.append(_undo_ops(endpoint, scope, changes,
                                                 keep_spellings=keep_spellings))
                    ops.append(_rewrite_ops(scope, changes, keep_spellings=keep_spellings))
                if new:
                    ops.append("INSERT DATA " + _extras_data(scope, new))
                if undo_log is not None:
                    undo_log.add(" ;\n".join(r for r in reverts if r))
                if ops:
                    endpoint.update(" ;\n".join(ops))
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
            undo_log.write()


# -- undo ------------------------------------------------------------------------------------------
_TERM_COLUMNS = " ".join(
    f"({fn}(?{v}) AS ?{v}_{tag})"
    for v in "spog"
    for fn, tag in (("DATATYPE", "dt"), ("LANG", "lang"), ("isBlank", "b"))
)


def _read_term(row: dict[str, str], var: str) -> _Term | None:
    value = row.get(var, "")
    if row.get(f"{var}_b") == "true":
        return _Term("bnode", value)
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

    For each statement the batch will rewrite: insert it back as it is, and delete its rewritten
    form unless that form is in the store already (then it was there before the batch too).
    Blank nodes cannot be named across requests, so their statements are reverted by pattern.
    With ``keep_spellings``, the spelling records the rewrite leaves alone are not read.
    """
    mapping = {c.old: c.new for c in changes}
    olds = " ".join(c.old.sparql() for c in changes)
    keep = " " + _not_spelling("?f") if keep_spellings else ""
    branches = []
    for w in scope.wrappers():
        for pos in ("?s", "?p", "?o"):
            pattern = "?s ?p ?o".replace(pos, "?f")
            only = keep if pos == "?o" else ""
            branches.append(f"{{ {w(pattern)}{only} BIND(?f AS {pos}) }}")
    if scope.all_graphs:
        branches.append("{ GRAPH ?f { ?s ?p ?o } BIND(?f AS ?g) }")
    if scope.graph is not None:
        graph_bind = f"BIND({_Term('iri', scope.graph).sparql()} AS ?g)"
    else:
        graph_bind = ""
    query = (
        f"SELECT DISTINCT ?s ?p ?o ?g {_TERM_COLUMNS} WHERE {{ VALUES ?f {{ {olds} }} "
        + " UNION ".join(branches) + f" {graph_bind} }}"
    )
    ground: list[tuple[tuple[_Term, ...], tuple[_Term, ...], _Term | None]] = []
    patterns: list[str] = []
    for row in endpoint.select(query):
        s, p, o, g = (_read_term(row, v) for v in "spog")
        if s is None or p is None or o is None:
            raise EndpointError(f"{endpoint.url}: incomplete statement in results: {row!r}")
        old = (s, p, o)
        new = tuple(mapping.get(t, t) for t in old)
        new_g = mapping.get(g, g) if g is not None else None
        if any(t.kind == "bnode" for t in old):
            patterns.append(_bnode_undo(old, new, g, new_g))
        else:
            ground.append((old, new, g))
    ops: list[str] = []
    if ground:
        ops.extend(_ground_undo(endpoint, ground, mapping))
    ops.extend(patterns)
    return " ;\n".join(ops)


def _quad(terms: tuple[_Term, ...], g: _Term | None) -> str:
    body = " ".join(t.sparql() for t in terms) + " ."
    return f"GRAPH {g.sparql()} {{ {body} }}" if g is not None else body


def _ground_undo(
    endpoint: Endpoint,
    ground: list[tuple[tuple[_Term, ...], tuple[_Term, ...], _Term | None]],
    mapping: dict[_Term, _Term],
) -> list[str]:
    news = {(new, mapping.get(g, g) if g is not None else None) for _old, new, g in ground}
    existing: set[tuple[tuple[_Term, ...], _Term | None]] = set()
    default = [n for n, g in news if g is None]
    named = [(n, g) for n, g in news if g is not None]
    if default:
        rows = " ".join(f"({' '.join(t.sparql() for t in n)})" for n in default)
        q = (f"SELECT ?s ?p ?o {_TERM_COLUMNS} WHERE {{ VALUES (?s ?p ?o) {{ {rows} }} "
             "?s ?p ?o }")
        for row in endpoint.select(q):
            existing.add((tuple(_read_term(row, v) for v in "spo"), None))  # type: ignore[misc]
    if named:
        rows = " ".join(f"({' '.join(t.sparql() for t in n)} {g.sparql()})" for n, g in named)
        q = (f"SELECT ?s ?p ?o ?g {_TERM_COLUMNS} WHERE {{ VALUES (?s ?p ?o ?g) {{ {rows} }} "
             "GRAPH ?g { ?s ?p ?o } }")
        for row in endpoint.select(q):
            key = (tuple(_read_term(row, v) for v in "spo"), _read_term(row, "g"))
            existing.add(key)  # type: ignore[arg-type]
    deletes = sorted({
        _quad(n, g) for n, g in news if (n, g) not in existing
    })
    inserts = sorted({_quad(old, g) for old, _new, g in ground})
    ops = []
    if deletes:
        ops.append("DELETE DATA { " + " ".join(deletes) + " }")
    ops.append("INSERT DATA { " + " ".join(inserts) + " }")
    return ops


def _bnode_undo(
    old: tuple[_Term, ...], new: tuple[_Term, ...], g: _Term | None, new_g: _Term | None
) -> str:
    names = iter(("?b0", "?b1", "?b2"))
    labels: dict[str, str] = {}

    def spell(t: _Term) -> str:
        if t.kind != "bnode":
            return t.sparql()
        if t.value not in labels:
            labels[t.value] = next(names)
        return labels[t.value]

    old_body = " ".join(spell(t) for t in old) + " ."
    new_body = " ".join(spell(t) for t in new) + " ."
    if g is not None:
        assert new_g is not None
        old_body = f"GRAPH {g.sparql()} {{ {old_body} }}"
        new_body = f"GRAPH {new_g.sparql()} {{ {new_body} }}"
    blank = " && ".join(f"isBlank({v})" for v in labels.values())
    return f"DELETE {{ {new_body} }} INSERT {{ {old_body} }} WHERE {{ {new_body} FILTER({blank}) }}"


class _UndoLog:
    """Undo text per batch, spooled to disk; written out in reverse batch order at the end."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = path
        self.file: IO[bytes] = tempfile.TemporaryFile("w+b")  # noqa: SIM115
        self.offsets: list[int] = []

    def add(self, ops: str) -> None:
        self.file.seek(0, os.SEEK_END)
        self.offsets.append(self.file.tell())
        self.file.write(ops.encode("utf-8"))

    def write(self) -> None:
        from .._kernel import atomic_output

        self.file.seek(0, os.SEEK_END)
        ends = [*self.offsets[1:], self.file.tell()]
        spans = list(zip(self.offsets, ends, strict=True))
        with atomic_output(self.path) as out:
            out.write(
                b"# urnld: restores the URN spellings the canonicalization rewrote and removes\n"
                b"# the statements it added.\n"
                b"# Batches in reverse order; each reverts one batch.\n"
            )
            first = True
            for n, (start, end) in reversed(list(enumerate(spans, 1))):
                if end == start:
                    continue
                self.file.seek(start)
                sep = b"" if first else b" ;\n"
                out.write(sep + f"# batch {n}\n".encode() + self.file.read(end - start))
                first = False
            out.write(b"\n")
        self.file.close()
