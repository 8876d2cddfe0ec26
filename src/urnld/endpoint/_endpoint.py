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
from collections.abc import Callable, Iterator
from typing import IO, TYPE_CHECKING, Any

from .._kernel import (
    DEFAULT_OPTIONS,
    SPELLING,
    CanonOptions,
    CheckFields,
    Extra,
    LinkOptions,
    SpellingOptions,
    TermCache,
    TermRule,
    TermVerdict,
    check_fields,
    is_rdflib_internal,
    is_urn_like,
    record_extras,
    repair_counts,
    report_extras,
    resolve_options,
    spelling_options,
)
from ..errors import URNError
from ..report import DEFAULT_MAX_EXAMPLES, CanonicalizeReport, CheckReport
from ._client import DEFAULT_TIMEOUT, Endpoint, EndpointError
from ._sparql import (
    _REPORT_BATCH,
    _XSD_STRING,
    DEFAULT_BATCH,
    _Change,
    _check_scope,
    _data_op,
    _escape_iri,
    _for_store,
    _not_spelling,
    _Quad,
    _Scope,
    _Term,
    _term_rows,
    _terms,
    _typed_like,
    _validate_graph,
)
from ._undo_ops import _undo_ops

if TYPE_CHECKING:
    from ..namespaces import PrefixLengths

__all__ = [
    "DEFAULT_BATCH",
    "BatchProgress",
    "EndpointBatchError",
    "canonicalize_endpoint",
    "check_endpoint",
]

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
    options: CanonOptions | None = None,
) -> CheckReport:
    """Scan the URN terms of the SPARQL endpoint at ``url``; fill a :class:`CheckReport`.

    Reads the default graph, the named ``graph``, or (``all_graphs=True``) the default graph,
    every named graph and the graph names. With ``literals=True`` plain / ``xsd:string`` /
    ``xsd:anyURI`` literals whose whole value is a URN count too. ``page_size`` reads the term
    list in pages of that many terms (``ORDER BY``/``LIMIT``/``OFFSET``) for endpoints that cap
    result sizes; by default it is one streamed result. ``options``
    (:class:`urnld.stream.CanonOptions`) may give ``literals`` instead; a store is judged by
    the default policy, without the locator modes (other options are refused).

    Raises :class:`EndpointError` (an environment failure) when the endpoint fails, ``URNError`` on
    bad arguments or a named graph that holds no statement.
    """
    scope = _validate_graph(graph, all_graphs)
    opts = resolve_options(options, literals=literals)
    _endpoint_options(opts, "check_endpoint", allowed={"literals"})
    literals = opts.literals
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


def _endpoint_options(opts: CanonOptions, caller: str, allowed: set[str] | None = None) -> None:
    """Refuse what a run on a store does not do: another policy than the default (the
    command's ``--endpoint`` takes none either), and for the check the rewriting options."""
    if opts.policy != DEFAULT_OPTIONS.policy:
        raise URNError(f"{caller} takes the default policy only")
    if allowed is None:
        return
    given = [f.name for f in dataclasses.fields(opts)
             if f.name not in allowed | {"policy", "write_added"}
             and getattr(opts, f.name) != getattr(DEFAULT_OPTIONS, f.name)]
    if given:
        raise URNError(f"{caller} does not take {', '.join(given)}")


# -- canonicalize ----------------------------------------------------------------------------------

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
    if scope.profile.typed_strings:
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
            # The subquery keeps Virtuoso from taking ?d for the constant ?f again. Virtuoso
            # keeps "v" and "v"^^xsd:string apart (a query for one misses the other): the new
            # literal is written in the form the store holds the old one in, plain (through
            # STR(), never a plain constant: see _Scope.constants) or typed. There a plain
            # string equals its STR() and a typed one does not.
            plain = f"(DATATYPE(?d) = <{_XSD_STRING}> && ?d = STR(?d))"
            for t, w in scope.parts():
                for form, new, bind in ((plain, "?tp", " BIND(STR(?t) AS ?tp)"),
                                        (f"!{plain}", "?t", "")):
                    ops.append(
                        f"DELETE {{ {t('?s ?p ?d')} }} INSERT {{ {t('?s ?p ' + new)} }} WHERE {{ "
                        "{ SELECT DISTINCT ?g ?s ?p ?k ?t (STR(?f) AS ?fs) WHERE { "
                        f"VALUES (?f ?k ?t) {{ {lit_rows} }} {w('?s ?p ?f')}"
                        f"{keep and ' ' + keep} }} }} {w('?s ?p ?d')} "
                        f"FILTER(isLiteral(?d) && STR(?d) = ?fs && DATATYPE(?d) = ?k && {form})"
                        f"{bind} }}"
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
    repair: bool = False,
    link_locators: bool = False,
    merge_locators: bool = False,
    prefix_lengths: PrefixLengths | None = None,
    options: CanonOptions | None = None,
) -> CanonicalizeReport:
    """Rewrite, in place, every non-canonical URN spelling the store at ``url`` holds.

    The rule is :func:`urnld.rdf.canonicalize`'s (same options, same report); the scope
    arguments are :func:`check_endpoint`'s. Updates go to ``update_url`` (default ``url``), in
    requests of about ``batch`` statement-occurrences each. ``dry_run=True`` reports what would
    change and sends no update (its report's ``statements_out`` is the input count).
    ``undo`` names a file that receives, batch by batch and on disk before each batch is sent,
    the updates that restore the original spellings (:mod:`urnld.endpoint._undo`; apply with
    :func:`urnld.endpoint.apply_undo` or ``urnld undo``); an existing undo file is added to.
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

    ``repair``, ``link_locators``, ``merge_locators`` and ``prefix_lengths`` are the spelling
    modes of the file paths (:func:`urnld.rdf.canonicalize`): a repaired URN is rewritten as a
    non-canonical one is, a merged locator IRI is rewritten to its URN, and the ``owl:sameAs``
    statements of ``link_locators`` are added as ``link``'s are; the report counts them as
    the file paths do. The locator modes read, besides URNs, the IRIs that start like an
    address of the resolver table.

    ``options`` (:class:`urnld.stream.CanonOptions`) gives all of these as one value, as every
    file path takes them (then leave their keywords out); a store is judged by the default
    policy.

    Idempotent (a second run changes nothing) and resumable: when a batch fails,
    :class:`EndpointBatchError` says which; batches before it are committed, and running again
    finishes the job with the same final store as one uninterrupted run.
    """
    scope = _validate_graph(graph, all_graphs)
    opts = resolve_options(
        options, ignore_components=ignore_components, literals=literals, link=link,
        keep_spellings=keep_spellings, link_resolvers=link_resolvers, repair=repair,
        link_locators=link_locators, merge_locators=merge_locators,
        prefix_lengths=prefix_lengths,
    )
    _endpoint_options(opts, "canonicalize_endpoint")
    ignore_components, literals, repair = opts.ignore_components, opts.literals, opts.repair
    link_locators, merge_locators = opts.link_locators, opts.merge_locators
    prefix_lengths = opts.prefix_lengths
    link, keep_spellings, link_resolvers = opts.link, opts.keep_spellings, opts.link_resolvers
    if undo is not None and not dry_run:
        from ._undo import check_undo_file

        check_undo_file(undo)  # before the store is asked anything: a bad file is refused first
    if batch < 1:
        raise URNError(f"batch size must be a positive integer, got {batch}")
    if dry_run and undo is not None:
        raise URNError("a dry run changes nothing, so it has nothing to undo: drop the undo file")
    if page_size is not None and page_size < 1:
        raise URNError(f"page size must be a positive integer, got {page_size}")
    links = LinkOptions(link, keep_spellings, link_resolvers, link_locators)
    spellings = spelling_options(repair=repair, link_locators=link_locators,
                                 merge_locators=merge_locators, prefix_lengths=prefix_lengths)
    # The locator modes read the IRIs that start like a locator too (a SPARQL string holds
    # each head as it is: no head has '"' or '\\', which no IRI has either).
    heads = tuple(h for h in (b.decode("ascii") for b in spellings.heads())
                  if '"' not in h and "\\" not in h)
    # Spelling records (an earlier keep_spellings run) are never URN terms, on every path.
    skip_spellings = literals
    report = CanonicalizeReport(
        ignore_components=ignore_components, literals=literals, max_examples=max_examples
    )
    rule = TermCache(TermRule(ignore_components=ignore_components, spellings=spellings))
    spool = _Spool()
    try:
        with Endpoint(url, update_url=update_url, timeout=timeout) as endpoint:
            scope = _for_store(scope, endpoint)
            if links and scope.union_default:
                scope.target()  # no default graph to add statements to: fail before reading
            report.statements_in = _check_scope(endpoint, scope)
            verdicts: list[tuple[str, TermVerdict, int]] = []
            locators: list[tuple[str, str, str | None, int, bool]] = []

            def record() -> None:
                report.record_verdicts(verdicts)
                if repair:
                    report.record_repairs(repair_counts(verdicts, ignore_components))
                verdicts.clear()
                report.record_locators(locators)
                locators.clear()

            for term, count in _terms(endpoint, scope, literals=literals, page_size=page_size,
                                      keep_spellings=skip_spellings, heads=heads):
                if is_rdflib_internal(term.value):
                    continue  # rdflib's own names are not data (as in the file paths)
                if heads and term.kind == "iri" and not is_urn_like(term.value):
                    change = _locator(spellings, rule, term, count, locators)
                    if change is not None:
                        spool.add(change)
                    continue
                # Each distinct term comes once: the uncached rule.
                verdict = rule.verdict(term.value)
                verdicts.append((term.value, verdict, count))
                if len(verdicts) >= 4096 or len(locators) >= 4096:
                    record()
                if verdict.ok and verdict.output != term.value:
                    spool.add(_Change(term, term._replace(value=verdict.output), count))
            record()
            # Decided before anything is written: past the cap, nothing is added or rewritten.
            extras = report_extras(report, links, endpoint.url) if links else []
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


def _locator(
    spellings: SpellingOptions, rule: TermCache, term: _Term, count: int,
    found: list[tuple[str, str, str | None, int, bool]],
) -> _Change | None:
    """Note an IRI of the locator modes in *found* (as the stream's pass records it); the
    change that merges it into its URN under ``merge_locators``, else None."""
    urn = spellings.locator(term.value)
    if urn is None:
        return None
    if not urn:  # a GS1 Digital Link, linked to an EPC URN of the data if there is one
        found.append((term.value, "", None, count, False))
        return None
    v = rule.verdict(urn)
    if v.nid is None:
        return None
    merged = spellings.locators == "merge"
    found.append((term.value, v.output, v.nid, count, merged))
    return _Change(term, term._replace(value=v.output), count) if merged else None


def _max_terms(scope: _Scope) -> int | None:
    # Virtuoso compiles an update into a code vector of at most 32 KiB: a batch also ends at
    # the profile's max_terms distinct terms (see urnld.endpoint._profile.VIRTUOSO).
    return scope.profile.max_terms


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
    return _data_op(verb, quads, scope.profile)


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


