"""The driver: plan partitions, run the tasks on Dask, merge reports, commit the output."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from .._kernel import (
    CanonOptions,
    Engine,
    ReadingOptions,
    check_route,
    extras_of_report,
    ntriples,
    record_extras,
    resolve_options,
)
from ..errors import URNError
from ..report import CanonicalizeReport, CheckReport
from ._cluster import check_cluster_args, client_for, require_distributed
from ._errors import DaskJobError, positive_int
from ._output import OutputDir, output_names
from ._partition import FileInfo, Partition, nominal_ranges, scan_range
from ._tasks import (
    canonicalize_document_task,
    canonicalize_partition,
    check_document_task,
    check_partition,
    concat_pieces,
    digest_file,
    merge_reports,
)

if TYPE_CHECKING:
    # The reader (rdflib, pyld) is imported when a job reads documents, not with this module:
    # workers import it to run any task, and one that only streams never needs the reader.
    from ..namespaces import PrefixLengths
    from ..read import Catalog, HazardMode
    from ._documents import Reading

__all__ = [
    "DEFAULT_PARTITION_SIZE",
    "canonicalize_files",
    "check_files",
    "digest_files",
    "plan",
]

DEFAULT_PARTITION_SIZE = 64 * 1024 * 1024

# Reports merged per task when combining partition reports (see _reduce).
_FAN_IN = 16

ScanCall = tuple[FileInfo, int, int]
ScanResult = tuple[int, int, int]
R = TypeVar("R")


def _check_args(workers: int | None, scheduler: str | None, partition_size: int) -> None:
    """Everything that can be refused without touching a file or starting a cluster."""
    require_distributed()  # first: a missing extra is the first thing to tell
    check_cluster_args(workers, scheduler)
    positive_int(partition_size, "partition_size (bytes)")


def _check_inputs(inputs: object) -> None:
    if isinstance(inputs, (str, bytes, os.PathLike)):
        # A lone path would otherwise be iterated character by character.
        raise URNError("inputs must be a sequence of paths, not a single path")
    if not inputs:
        raise URNError("no input files given")


def stat_inputs(inputs: Sequence[str | os.PathLike[str]]) -> list[FileInfo]:
    """Stat every input up front, so a typo fails before any cluster starts."""
    _check_inputs(inputs)
    return [FileInfo.stat(i, p) for i, p in enumerate(inputs)]


def _splits(file: FileInfo, partition_size: int) -> bool:
    return not file.compressed and file.size > partition_size


def plan(
    files: Sequence[FileInfo],
    partition_size: int,
    run_scans: Callable[[list[ScanCall]], list[ScanResult]],
) -> list[Partition]:
    """Cut ``files`` into line-aligned partitions with exact first-line numbers.

    ``run_scans`` evaluates :func:`scan_range` over a list of ``(file, lo, hi)`` calls and
    returns the results in order — on Dask workers in production, with ``map`` in tests.
    Partitions left empty by a line longer than ``partition_size`` are dropped (every file keeps
    at least one partition, so an empty file still gets an empty output).
    """
    positive_int(partition_size, "partition_size (bytes)")
    calls = [
        (f, lo, hi)
        for f in files
        if _splits(f, partition_size)
        for lo, hi in nominal_ranges(f.size, partition_size)
    ]
    results = iter(run_scans(calls))
    parts: list[Partition] = []
    for f in files:
        if not _splits(f, partition_size):
            parts.append(Partition(f, 0, 0, f.size, 1))
            continue
        line = 1
        number = 0
        for _ in nominal_ranges(f.size, partition_size):
            start, end, newlines = next(results)
            if start < end:
                parts.append(Partition(f, number, start, end, line))
                number += 1
            line += newlines
    return parts


def _raise_task_error(future: Any, what: str) -> None:
    """Re-raise a failed task's error with the partition it was working on."""
    distributed = require_distributed()
    exc = future.exception()
    if isinstance(exc, (URNError, OSError)):
        # Already says what and where (file names, line numbers): the user's error, as is.
        raise exc
    if isinstance(exc, distributed.scheduler.KilledWorker):
        raise DaskJobError(
            f"{what}: the worker running it died repeatedly (out of memory?): {exc}"
        ) from exc
    raise DaskJobError(f"{what} failed: {type(exc).__name__}: {exc}") from exc


def _start(
    client: Any,
    func: Callable[..., Any],
    calls: Sequence[tuple[Any, ...]],
    priorities: Sequence[int] | None = None,
) -> list[Any]:
    """Submit ``func(*call)`` for every call; return the futures without waiting."""
    return [
        client.submit(func, *args, pure=False, priority=priorities[i] if priorities else 0)
        for i, args in enumerate(calls)
    ]


def _wait(
    client: Any,
    futures: list[Any],
    names: Sequence[str],
    spare: Callable[[int, BaseException], bool] | None = None,
) -> list[Any]:
    """Wait for every future (results stay on the workers); on the first task error cancel the
    rest and raise, unless ``spare(index of the future, error)`` says to go on without it."""
    distributed = require_distributed()
    label = dict(zip((f.key for f in futures), names, strict=True))
    index = {f.key: i for i, f in enumerate(futures)}
    try:
        for fut in distributed.as_completed(futures):
            if fut.status == "error":
                if spare is not None and spare(index[fut.key], fut.exception()):
                    continue
                _raise_task_error(fut, label[fut.key])
            if fut.status == "cancelled":
                raise DaskJobError(f"{label[fut.key]} was cancelled (scheduler or worker lost?)")
    except BaseException:
        client.cancel(futures)
        raise
    return futures


def _submit(
    client: Any,
    func: Callable[..., Any],
    calls: Sequence[tuple[Any, ...]],
    names: Sequence[str],
    priorities: Sequence[int] | None = None,
) -> list[Any]:
    """Submit ``func(*call)`` for every call and wait for all of them (see :func:`_wait`)."""
    return _wait(client, _start(client, func, calls, priorities), names)


def _map(
    client: Any,
    func: Callable[..., R],
    calls: Sequence[tuple[Any, ...]],
    names: Sequence[str],
) -> list[R]:
    """Run ``func`` over ``calls`` on the cluster and return the (small) results in order."""
    return list(client.gather(_submit(client, func, calls, names)))


def _reduce(client: Any, futures: list[Any]) -> Any:
    """Merge the reports held by ``futures`` in a tree of tasks on the workers.

    No single process merges thousands of them in sequence: each level merges groups of
    :data:`_FAN_IN`, in partition order (merge is order-independent anyway; a fixed order keeps
    runs reproducible). The last level, at most :data:`_FAN_IN` reports, is merged here: its
    reports come to the driver once, where a merge on a worker would send them there and the
    merged report here again (a spilled report carries its runs' bytes, tens of MB).
    """
    while len(futures) > _FAN_IN:
        groups = [tuple(futures[i : i + _FAN_IN]) for i in range(0, len(futures), _FAN_IN)]
        futures = _submit(
            client, merge_reports, groups, [f"merging {len(g)} reports" for g in groups]
        )
    return merge_reports(*client.gather(futures))


def _plan_on(client: Any, files: list[FileInfo], partition_size: int) -> list[Partition]:
    def run_scans(calls: list[ScanCall]) -> list[ScanResult]:
        names = [f"scanning {f.source} bytes {lo}-{hi}" for f, lo, hi in calls]
        return _map(client, scan_range, list(calls), names)

    return plan(files, partition_size, run_scans)


def _describe(part: Partition) -> str:
    if part.file.compressed or (part.start == 0 and part.end == part.file.size):
        return part.file.source
    return f"{part.file.source} (partition {part.number}, from line {part.first_line})"


def _cost(part: Partition) -> int:
    # Largest first (longest-processing-time order) so one big .gz does not start last and
    # leave the other workers idle at the end; a .gz costs ~4x its compressed bytes.
    size = part.end - part.start
    return (size * 4 if part.file.compressed else size) >> 16


def _fail_on_malformed(report: Any) -> None:
    if report.error_count:
        first = report.errors[0]
        raise DaskJobError(
            f"{report.error_count} malformed line(s), no output written; first: {first}",
            report,
        )


def _router(
    input_format: str | None,
    stream: Callable[[str], bool],
    *,
    catalog: Catalog,
    base: str | None,
    hazards: object,
) -> Callable[[FileInfo], Reading | None]:
    """Checks the reading options (before any cluster starts) and returns the rule that says,
    for an input, ``None`` when it is cut into line partitions, else how a worker reads it
    whole (raising :class:`urnld.read.ReadError` for an unknown syntax)."""
    from ..read import format_for_path
    from ._documents import Reading, check_hazards, reading_catalog

    mode = check_hazards(hazards)
    catalog = reading_catalog(catalog)

    def route(f: FileInfo) -> Reading | None:
        fmt = format_for_path(f.source, input_format)
        return None if stream(fmt) else Reading(fmt, catalog, base, mode)

    return route


def _document_cost(file: FileInfo) -> int:
    # Reading and canonicalizing a Turtle document took about 100 times the CPU per byte of
    # streaming the same statements as N-Triples (50,000 statements, compiled streaming pass):
    # a document outranks partitions of a similar size, so it does not start last.
    return (file.size * 100) >> 16


def _run_tasks(
    client: Any,
    verb: str,
    *,
    documents: Sequence[tuple[Any, ...]],
    document_task: Callable[..., Any],
    streamed: list[FileInfo],
    partition_size: int,
    partition_task: Callable[..., Any],
    partition_calls: Callable[[list[Partition]], list[tuple[Any, ...]]],
    spare: Callable[[int, BaseException], bool] | None = None,
) -> tuple[list[Any], list[Partition], list[Any]]:
    """Run ``document_task`` on every call of ``documents`` (each begins with its
    :class:`FileInfo`) and ``partition_task`` on the line partitions of ``streamed``; wait for
    all (see :func:`_wait`). Return the documents' futures, the partitions and theirs.

    Whole documents start first (one task each, the slowest ones) and run while the line
    partitions are planned.
    """
    whole = _start(client, document_task, documents, [_document_cost(c[0]) for c in documents])
    try:
        parts = _plan_on(client, streamed, partition_size)
        done = _start(client, partition_task, partition_calls(parts), [_cost(p) for p in parts])
    except BaseException:
        client.cancel(whole)
        raise
    _wait(
        client,
        whole + done,
        [f"reading and {verb} {c[0].source}" for c in documents]
        + [f"{verb} {_describe(p)}" for p in parts],
        spare,
    )
    return whole, parts, done


def _documents_done(futures: list[Any]) -> list[Any]:
    """The reports of the whole-document tasks, in input order; their warnings raised here."""
    from ._documents import relay

    reports = []
    for report, messages in (f.result() for f in futures if f.status != "error"):
        relay(messages)
        reports.append(report)
    return reports


def canonicalize_files(
    inputs: Sequence[str | os.PathLike[str]],
    outdir: str | os.PathLike[str],
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    ignore_components: bool = False,
    literals: bool = False,
    partition_size: int = DEFAULT_PARTITION_SIZE,
    link: bool = False,
    keep_spellings: bool = False,
    link_resolvers: bool = False,
    input_format: str | None = None,
    output_format: str | None = None,
    catalog: Catalog = None,
    base: str | None = None,
    hazards: HazardMode = "error",
    iris: Literal["as-is", "rfc3986"] = "as-is",
    repair: bool = False,
    link_locators: bool = False,
    merge_locators: bool = False,
    prefix_lengths: PrefixLengths | None = None,
    options: CanonOptions | None = None,
    reading: ReadingOptions | None = None,
) -> CanonicalizeReport:
    """Canonicalize the URNs of RDF files on a Dask cluster.

    ``options`` (:class:`urnld.stream.CanonOptions`) and ``reading``
    (:class:`urnld.files.ReadingOptions`) give the canonicalization and reading options as one
    value each, as :func:`urnld.files.canonicalize` takes them; the separate keywords
    (``ignore_components`` … ``prefix_lengths``, ``input_format``, ``catalog``, ``base``,
    ``hazards``) are the older spelling of the same, ignored when the value is given.

    Writes one output per input into ``outdir`` (see :mod:`urnld.dask` for the layout), each
    what ``urnld canonicalize INPUT`` writes for that input alone, and returns the merged
    report, equal to the merge of the single-process reports. ``outdir`` must not exist or be
    empty; it appears, complete, only if the whole job succeeded.

    N-Triples/N-Quads files (plain or ``.gz``) are cut into line partitions and streamed, and
    their outputs are byte-identical to the local ones. Every other syntax the reader reads
    (``input_format``, default: from the extension) is one task on one worker, on the engine
    the local command uses: streamed through N-Quads (Turtle, TriG, RDF/XML, JSON-LD, N3), or
    read whole with :func:`urnld.read.read` and canonicalized in memory (TriX, HexTuples,
    JSON-LD with a ``catalog``); ``catalog``, ``base`` and ``hazards`` as there.
    ``output_format`` (default: each input's syntax) is the syntax written; ``iris="rfc3986"``
    also normalizes IRIs that are not URNs (in memory, as locally).

    ``workers``: size of the local cluster to start (default: one process per CPU);
    ``scheduler``: address of an existing cluster instead (its workers must see the inputs,
    the catalog and ``outdir`` at the same paths, and have urnld installed).

    ``link``, ``keep_spellings``, ``link_resolvers``: the statements
    :func:`urnld.stream.canonicalize_file` adds, per file, at the end of each output (from the
    file's own spellings, so each output still equals the local command's).
    ``repair``, ``link_locators``, ``merge_locators`` and ``prefix_lengths``: the spelling
    modes of :func:`urnld.stream.canonicalize_file`, with the same outputs and counts (the
    locator statements of a split file come from its merged report, as ``link``'s do; a
    ``prefix_lengths`` callable must be picklable to reach the workers).

    Raises :class:`DaskJobError` (malformed lines — all partitions still run and the report in
    ``.report`` lists every one with file and line — or a failed task), :class:`DaskNotInstalled`,
    :class:`URNError` for bad arguments and unreadable documents (:class:`urnld.read.ReadError`,
    :class:`urnld.jsonld.URNBaseError`…, the local command's messages), ``OSError`` for
    unreadable inputs.

    >>> import pathlib, tempfile
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "books.nt").write_bytes(
    ...     b'<URN:ISBN:0-395-36341-1> <http://purl.org/dc/terms/title> "T" .\\n')
    >>> report = canonicalize_files([d / "books.nt"], d / "out", workers=1)
    >>> (d / "out" / "books.nt").read_bytes()
    b'<urn:isbn:0395363411> <http://purl.org/dc/terms/title> "T" .\\n'
    >>> report.rewritten, report.clusters
    (1, {'urn:isbn:0395363411': {'URN:ISBN:0-395-36341-1': 1}})
    """
    _check_args(workers, scheduler, partition_size)
    if reading is not None:
        input_format, catalog, base, hazards = (reading.format, reading.catalog, reading.base,
                                                reading.hazards)
    if iris not in ("as-is", "rfc3986"):
        raise URNError(f"iris must be 'as-is' or 'rfc3986', not {iris!r}")
    if output_format is not None:
        from ..rdf import check_output_format

        check_output_format(output_format)
    files = stat_inputs(inputs)
    from ._documents import partitions

    route = _router(input_format, lambda fmt: partitions(fmt, output_format, iris),
                    catalog=catalog, base=base, hazards=hazards)
    routes = [route(f) for f in files]
    names = output_names([f.path for f in files])
    opts = options if options is not None else CanonOptions(
        ignore_components=ignore_components, literals=literals, link=link,
        keep_spellings=keep_spellings, link_resolvers=link_resolvers, repair=repair,
        link_locators=link_locators, merge_locators=merge_locators,
        prefix_lengths=prefix_lengths,
    )
    if opts.policy != CanonOptions().policy:
        raise URNError("the Dask engine takes the default policy only")
    ignore_components, literals = opts.ignore_components, opts.literals
    # A partition that is not a whole file adds nothing: the file's added statements come
    # from its merged report, below.
    rewrite_only = opts.replace(write_added=False)
    streamed = [f for f, r in zip(files, routes, strict=True) if r is None]
    documents = [(f, r) for f, r in zip(files, routes, strict=True) if r is not None]
    settings = {"iris": iris, "options": opts}
    pieces: dict[int, list[str]] = {}
    with OutputDir(outdir) as out, client_for(workers, scheduler) as client:

        def partition_calls(parts: list[Partition]) -> list[tuple[Any, ...]]:
            # A file of one partition is written straight to its output; a split file's
            # partitions write pieces that are joined, in order, once everything succeeded.
            split = Counter(p.file.index for p in parts)
            calls: list[tuple[Any, ...]] = []
            for part in parts:
                i = part.file.index
                if split[i] == 1:
                    target = out.path(names[i])
                    task_options = opts  # the task sees every spelling of the file
                else:
                    target = out.piece(i, part.number)
                    pieces.setdefault(i, []).append(target)
                    task_options = rewrite_only
                calls.append((part, target, task_options))
            return calls

        whole, parts, done = _run_tasks(
            client, "canonicalizing",
            documents=[(f, out.path(names[f.index]), r,
                        {"output_format": output_format or r.format, **settings})
                       for f, r in documents],
            document_task=canonicalize_document_task,
            streamed=streamed, partition_size=partition_size,
            partition_task=canonicalize_partition, partition_calls=partition_calls,
        )
        merged = CanonicalizeReport(ignore_components=ignore_components, literals=literals)
        if done:
            merged = merged.merge(_reduce(client, done))
        _fail_on_malformed(merged)
        for report in _documents_done(whole):
            merged = merged.merge(report)
        if opts.links:
            for i, targets in pieces.items():
                file_report: CanonicalizeReport = _reduce(
                    client, [f for f, p in zip(done, parts, strict=True) if p.file.index == i]
                )
                extras = extras_of_report(file_report, opts.links, files[i].source)
                last = out.piece(i, len(targets))
                with open(last, "wb") as fh:  # a split file is never compressed
                    fh.write(ntriples(extras))
                targets.append(last)
                record_extras(merged, extras)
        _submit(
            client,
            concat_pieces,
            [(p, out.path(names[i])) for i, p in pieces.items()],
            [f"joining the output of {files[i].source}" for i in pieces],
        )
        out.commit()
    return merged


def check_files(
    inputs: Sequence[str | os.PathLike[str]],
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    partition_size: int = DEFAULT_PARTITION_SIZE,
    input_format: str | None = None,
    catalog: Catalog = None,
    base: str | None = None,
    hazards: HazardMode = "error",
    on_unreadable: Callable[[str, Exception], None] | None = None,
    memory_budget: int | None = None,
    reading: ReadingOptions | None = None,
    options: CanonOptions | None = None,
) -> CheckReport:
    """Check the URNs of RDF files on a Dask cluster; return the merged report.

    ``memory_budget`` (bytes) is each partition report's (see :mod:`urnld.report`): past it
    a report's maps spill sorted runs to disk, and travel with the report; None is the
    default (:envvar:`URNLD_MEMORY_BUDGET`, which a local cluster's workers inherit).

    The report equals the merge of the single-process ``urnld check`` reports of the inputs;
    malformed lines are in it (``.errors``, with file and exact line number), not raised.
    N-Triples/N-Quads files are partitioned; other syntaxes are one task each (streamed where
    the local command streams them), with ``input_format``, ``catalog``, ``base`` and
    ``hazards`` as in :func:`canonicalize_files`, whose ``workers``/``scheduler`` these are too.

    An input that cannot be read (missing, of unknown syntax, a document the reader refuses:
    :class:`urnld.read.ReadError`, :class:`urnld.jsonld.URNBaseError`…) raises that error; with
    ``on_unreadable``, it is called instead with the input as given and the error, in input
    order, and the other inputs are checked (what ``urnld check`` does with several files).
    ``reading`` (:class:`urnld.files.ReadingOptions`) gives ``input_format``, ``catalog``,
    ``base`` and ``hazards`` as one value (the keywords are then ignored). ``options``
    (:class:`urnld.stream.CanonOptions`, as :func:`urnld.files.check` takes it): the Dask
    engine checks by the default policy, without the locator modes; other options are
    refused, as ``urnld check --engine dask`` refuses them.
    """
    _check_args(workers, scheduler, partition_size)
    if options is not None and options != CanonOptions():
        raise URNError("the Dask engine checks with the default options only "
                       "(no policy, no locators)")
    if reading is not None:
        input_format, catalog, base, hazards = (reading.format, reading.catalog, reading.base,
                                                reading.hazards)
    route = _router(input_format, lambda fmt: check_route(fmt) is Engine.LINES,
                    catalog=catalog, base=base, hazards=hazards)
    skipped: dict[int, Exception] = {}
    if on_unreadable is None:
        files = stat_inputs(inputs)
        routes = [route(f) for f in files]
    else:
        files, routes = _readable(inputs, route, skipped)
    streamed = [f for f, r in zip(files, routes, strict=True) if r is None]
    documents = [(f, r) for f, r in zip(files, routes, strict=True) if r is not None]

    def spare(i: int, exc: BaseException) -> bool:
        # Only a whole document's own error (not a lost worker, not a bad partition).
        if on_unreadable is None or i >= len(documents) or not isinstance(exc, (URNError, OSError)):
            return False
        skipped[documents[i][0].index] = exc
        return True

    merged = CheckReport()
    if files:
        with client_for(workers, scheduler) as client:
            whole, _, done = _run_tasks(
                client, "checking",
                documents=documents, document_task=check_document_task,
                streamed=streamed, partition_size=partition_size,
                partition_task=check_partition,
                partition_calls=lambda ps: [(p, memory_budget) for p in ps],
                spare=spare,
            )
            if done:
                merged = merged.merge(_reduce(client, done))
            for report in _documents_done(whole):
                merged = merged.merge(report)
    if on_unreadable is not None:
        for i in sorted(skipped):
            on_unreadable(os.fspath(inputs[i]), skipped[i])
    return merged


def _readable(
    inputs: Sequence[str | os.PathLike[str]],
    route: Callable[[FileInfo], Reading | None],
    skipped: dict[int, Exception],
) -> tuple[list[FileInfo], list[Reading | None]]:
    """:func:`stat_inputs` and *route* on every input, except that an input that cannot be
    stat'ed or has no known syntax goes into ``skipped`` (by its index) instead of raising."""
    _check_inputs(inputs)
    files: list[FileInfo] = []
    routes: list[Reading | None] = []
    for i, path in enumerate(inputs):
        try:
            f = FileInfo.stat(i, path)
            routes.append(route(f))
        except (OSError, URNError) as e:
            skipped[i] = e
            continue
        files.append(f)
    return files, routes


def digest_files(
    inputs: Sequence[str | os.PathLike[str]],
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    ignore_components: bool = False,
    literals: bool = False,
    options: CanonOptions | None = None,
) -> dict[str, str]:
    """RDFC-1.0 digest of every input file on its own, one Dask task per file.

    Returns ``{input as given: SHA-256 hex}`` in input order; each value equals
    ``urnld.rdf.digest(<file contents>)`` (URNs canonicalized first, so spellings do not
    matter). This is the scalable stand-in for a whole-dump digest: blank-node labels are scoped
    to their file, so per-file canonicalization is exact for each file, but the digests describe
    the files, not their union (moving a statement to another file changes them). Each file is
    held in memory by its task; RDFC-1.0 cannot be split below one file.
    Raises as :func:`canonicalize_files`, plus ``urnld.rdf``'s errors for blank-node structures
    too complex to canonicalize. ``options`` (:class:`urnld.stream.CanonOptions`) may give
    ``ignore_components`` and ``literals`` as one value; the digest takes no other option.
    """
    _check_args(workers, scheduler, DEFAULT_PARTITION_SIZE)
    opts = resolve_options(options, ignore_components=ignore_components, literals=literals)
    if opts.replace(ignore_components=False, literals=False) != CanonOptions():
        raise URNError("digest_files takes ignore_components and literals only")
    ignore_components, literals = opts.ignore_components, opts.literals
    files = stat_inputs(inputs)
    with client_for(workers, scheduler) as client:
        digests = _map(
            client,
            digest_file,
            [(f, ignore_components, literals) for f in files],
            [f"digesting {f.source}" for f in files],
        )
    return {f.source: d for f, d in zip(files, digests, strict=True)}
