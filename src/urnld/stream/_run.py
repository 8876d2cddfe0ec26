"""The streaming entry points: lines and files in, output and reports out, progress told.

>>> from urnld.report import CanonicalizeReport
>>> r = CanonicalizeReport()
>>> list(canonicalize_lines([b"<URN:EXAMPLE:a> <http://e/p> _:b .\\n"], report=r))
[b'<urn:example:a> <http://e/p> _:b .\\n']
"""

from __future__ import annotations

import io
import itertools
import os
from collections.abc import Callable, Generator, Iterable, Iterator
from typing import TYPE_CHECKING, Any, NamedTuple

from .._core import Policy
from .._kernel import (
    NO_SPELLINGS,
    CanonOptions,
    Engine,
    SpellingOptions,
    atomic_output,
    canonicalize_route,
    check_route,
    extras_of_report,
    ntriples,
    open_input,
    resolve_options,
)
from ..errors import URNError
from ..report import CanonicalizeReport, CheckReport
from ._chunks import line_chunks, read_chunks
from ._names import HazardMode, normalize_syntax
from ._passes import DEFAULT_POLICY, CanonPass, CheckPass, OnError
from ._workers import MIN_PARALLEL_BYTES, canonicalize_chunks, check_chunks, default_jobs

if TYPE_CHECKING:
    from ..namespaces import PrefixLengths

__all__ = [
    "Progress",
    "ProgressCallback",
    "canonicalize_file",
    "canonicalize_lines",
    "check_file",
    "check_lines",
]


class Progress(NamedTuple):
    """How far a file pass has got, as told to a progress callback.

    Attributes:
        done: bytes of the input file read so far (for ``.gz``: compressed bytes).
        total: the input file's size in bytes, or None when unknown (stdin).
        statements: statements processed so far.
    """

    done: int
    total: int | None
    statements: int


#: Called with a :class:`Progress` after each chunk of about 1 MiB (the library draws nothing).
ProgressCallback = Callable[[Progress], None]


def canonicalize_lines(
    lines: Iterable[bytes],
    *,
    source: str = "<stdin>",
    first_line: int = 1,
    ignore_components: bool = False,
    literals: bool = False,
    report: CanonicalizeReport | None = None,
    on_error: OnError = "raise",
    link: bool = False,
    keep_spellings: bool = False,
    link_resolvers: bool = False,
    policy: Policy = DEFAULT_POLICY,
    options: CanonOptions | None = None,
    repair: bool = False,
    link_locators: bool = False,
    merge_locators: bool = False,
    prefix_lengths: PrefixLengths | None = None,
) -> Iterator[bytes]:
    r"""Canonicalize the URNs in N-Triples / N-Quads lines; yield the output lines.

    ``lines`` are raw lines (bytes, with or without their ``\n``), numbered from ``first_line``
    for error messages. Counts go to ``report`` (its ``ignore_components``/``literals`` are set
    to the options of this pass); the report is complete once the iterator is exhausted or
    closed. ``policy`` (:class:`urnld.Policy`) decides, with RFC 8141, which NIDs make a term no
    URN (``strict``; severity overrides such as ``nid-experimental = "warning"``). A malformed
    line is recorded in the report (source and line number) and raises
    :class:`NTriplesSyntaxError`, or with ``on_error="report"`` is skipped.

    ``link``, ``keep_spellings`` and ``link_resolvers`` add statements (``owl:sameAs``,
    ``urnld:spelling``, ``rdfs:seeAlso``; see :mod:`urnld.rdf`'s :func:`canonicalize`) after
    the last line, sorted, as triples (the default graph of N-Quads). They are computed from
    the report's clusters, so past its ``max_examples`` distinct spellings they raise
    :class:`urnld.errors.SpellingLimitError` at the end instead. The options can also come as
    one value, ``options`` (:class:`~urnld.stream.CanonOptions`), instead of one by one.
    ``repair``, ``link_locators``, ``merge_locators`` and ``prefix_lengths`` are the spelling
    modes of :func:`urnld.rdf.canonicalize`, with the same results.

    >>> from urnld.report import CanonicalizeReport
    >>> r = CanonicalizeReport()
    >>> list(canonicalize_lines([b"<a> <b> <c>\n", b"<urn:EXAMPLE:1> <b> <c> .\n"], report=r,
    ...                         on_error="report"))
    [b'<urn:example:1> <b> <c> .\n']
    >>> [str(e) for e in r.errors]
    ["<stdin>:1: statement does not end with '.'"]
    >>> lines = [b"<URN:EXAMPLE:1> <b> <c> .\n"]
    >>> for line in canonicalize_lines(lines, keep_spellings=True):
    ...     print(line.decode(), end="")
    <urn:example:1> <b> <c> .
    <urn:example:1> <https://w3id.org/urnld/vocab#spelling> "URN:EXAMPLE:1" .
    """
    opts = resolve_options(
        options, ignore_components=ignore_components, literals=literals, link=link,
        keep_spellings=keep_spellings, link_resolvers=link_resolvers, policy=policy,
        repair=repair, link_locators=link_locators, merge_locators=merge_locators,
        prefix_lengths=prefix_lengths,
    )
    if report is None:
        report = CanonicalizeReport()
    report.ignore_components = opts.ignore_components
    report.literals = opts.literals
    state = CanonPass(report, opts)
    for chunk in state.run(line_chunks(lines), source, first_line, on_error):
        yield from io.BytesIO(chunk)
    if opts.links:
        yield from io.BytesIO(ntriples(extras_of_report(report, opts.links, source)))


def check_lines(
    lines: Iterable[bytes],
    *,
    source: str = "<stdin>",
    first_line: int = 1,
    report: CheckReport,
    on_error: OnError = "report",
    policy: Policy = DEFAULT_POLICY,
    locators: bool = False,
    prefix_lengths: PrefixLengths | None = None,
) -> None:
    r"""Scan N-Triples / N-Quads lines for URNs (IRIs and literals) and fill ``report``.

    A literal is scanned when it is plain, ``xsd:string`` or ``xsd:anyURI`` and its whole
    lexical form starts with ``urn:`` (any case). Malformed lines are recorded in the report
    (and raise :class:`NTriplesSyntaxError` with ``on_error="raise"``). With ``locators``,
    IRIs that are a resolver's address of a URN (:func:`urnld.resolvers.urn_of_locator`,
    with *prefix_lengths* for GS1 Digital Links) are counted as ``locator`` findings.

    >>> from urnld.report import CheckReport
    >>> r = CheckReport()
    >>> check_lines([b'<urn:isbn:0-395-36341-2> <p> "urn:x-y:z" .\n'], report=r)
    >>> sorted(r.invalid)
    ['urn:isbn:0-395-36341-2', 'urn:x-y:z']
    """
    spellings = _check_spellings(locators, prefix_lengths)
    for _ in CheckPass(report, policy, spellings).run(
        line_chunks(lines), source, first_line, on_error
    ):
        pass


def _check_spellings(locators: bool, prefix_lengths: PrefixLengths | None) -> SpellingOptions:
    """The spelling options of a check: only the locators, read back by the resolver table."""
    if not locators:
        return NO_SPELLINGS
    return SpellingOptions(locators="link", prefix_lengths=prefix_lengths)


def _jobs_for(
    chunks: Iterator[bytes], size: int | None, jobs: int | None
) -> tuple[Iterator[bytes], int]:
    """The chunks (unchanged) and the number of processes for an input of *size* bytes."""
    if jobs is not None:
        return chunks, jobs
    if size is None:
        # A stream of unknown size (stdin): read ahead up to the size that pays for worker
        # processes, then decide.
        head: list[bytes] = []
        got = 0
        for chunk in chunks:
            head.append(chunk)
            got += len(chunk)
            if got >= MIN_PARALLEL_BYTES:
                break
        size = got if got < MIN_PARALLEL_BYTES else None
        chunks = itertools.chain(head, chunks)
    return chunks, default_jobs(size)


def canonicalize_file(
    in_path: str | os.PathLike[str],
    out_path: str | os.PathLike[str],
    *,
    ignore_components: bool = False,
    literals: bool = False,
    on_error: OnError = "raise",
    report: CanonicalizeReport | None = None,
    progress: ProgressCallback | None = None,
    jobs: int | None = None,
    link: bool = False,
    keep_spellings: bool = False,
    link_resolvers: bool = False,
    policy: Policy = DEFAULT_POLICY,
    options: CanonOptions | None = None,
    repair: bool = False,
    link_locators: bool = False,
    merge_locators: bool = False,
    prefix_lengths: PrefixLengths | None = None,
    input_format: str | None = None,
    output_format: str | None = None,
    base: str | None = None,
    catalog: Any = None,
    hazards: HazardMode = "error",
    source: str | None = None,
) -> CanonicalizeReport:
    """Canonicalize an RDF file (``.gz`` in and out supported) into ``out_path``.

    ``input_format`` and ``output_format`` name the syntaxes (``nt``, ``nquads``, ``turtle``,
    ``trig``, ``n3``, ``xml``, ``json-ld``, or a common alias; default: N-Triples / N-Quads in,
    the input's syntax out). Every syntax streams in bounded memory: N-Triples and N-Quads line
    by line, the others converted on the way by pyoxigraph (see :mod:`urnld.stream._syntaxes`),
    keeping literals, the default graph and blank nodes as written. ``base`` is the base IRI of
    relative references (default: the file's location), ``catalog`` where JSON-LD contexts come
    from for the URN-base guard (nothing is fetched; pyoxigraph itself loads no context, so a
    JSON-LD document that names one is refused here: :func:`urnld.read.read` reads it with
    the catalog), ``hazards`` what a relative reference against a URN base does
    (``"error"``: :class:`~urnld.jsonld.URNBaseError`; ``"warn"``; ``"ignore"``), as in
    :func:`urnld.read.read`. A syntax error is an :class:`RDFSyntaxError` with the position;
    ``source`` names the input in messages (default: the path).

    The output is written to a temporary file and renamed, so it appears only complete; the
    input is only read. ``-`` means stdin / stdout. ``progress`` is called with a
    :class:`Progress` as the work advances (the command line draws it on a terminal).
    ``jobs`` worker processes share the work (``None``: one per CPU for inputs over 8 MiB,
    else 1); output and report are the same for any ``jobs``.
    ``link``, ``keep_spellings`` and ``link_resolvers`` add statements at the end, as
    :func:`canonicalize_lines` does (a :class:`~urnld.errors.SpellingLimitError` leaves no
    output); ``options`` gives them all as one value. Returns the report.

    >>> import tempfile, os
    >>> d = tempfile.mkdtemp()
    >>> with open(os.path.join(d, "in.nt"), "wb") as f:
    ...     _ = f.write(b"<URN:EXAMPLE:a> <http://e/p> <urn:example:a> .\\n")
    >>> r = canonicalize_file(os.path.join(d, "in.nt"), os.path.join(d, "out.nt"))
    >>> with open(os.path.join(d, "out.nt"), "rb") as f:
    ...     f.read()
    b'<urn:example:a> <http://e/p> <urn:example:a> .\\n'
    """
    opts = resolve_options(
        options, ignore_components=ignore_components, literals=literals, link=link,
        keep_spellings=keep_spellings, link_resolvers=link_resolvers, policy=policy,
        repair=repair, link_locators=link_locators, merge_locators=merge_locators,
        prefix_lengths=prefix_lengths,
    )
    if report is None:
        report = CanonicalizeReport()
    if jobs is not None and jobs < 1:
        raise ValueError(f"jobs must be >= 1, got {jobs!r}")
    source = "<stdin>" if os.fspath(in_path) == "-" else os.fspath(in_path)
    in_fmt, out_fmt = _file_syntaxes(os.fspath(in_path), os.fspath(out_path), input_format,
                                     output_format)
    if not _line_pass(in_fmt, out_fmt):
        with atomic_output(out_path) as fout:
            from ._syntaxes import canonicalize_stream  # pyoxigraph: only for other syntaxes

            canonicalize_stream(
                os.fspath(in_path), fout, input_format=in_fmt or "nquads",
                output_format=out_fmt or "nquads", report=report, base=base, catalog=catalog,
                hazards=hazards, jobs=jobs, options=opts, source=source,
                on_progress=_progress_of(progress, in_path),
            )
        return report
    with open_input(in_path) as (fin, size):
        report.ignore_components = opts.ignore_components
        report.literals = opts.literals
        pos = [0]

        def counter(p: int) -> None:
            pos[0] = p

        chunks, n_jobs = _jobs_for(read_chunks(fin, counter, source=source), size, jobs)

        def tell(statements: int) -> None:
            assert progress is not None
            progress(Progress(pos[0], size, statements))

        outputs: Generator[bytes, None, None]
        if n_jobs > 1:
            # The workers' counts reach the report only at the end: progress comes from them
            # as their chunks complete.
            outputs = canonicalize_chunks(
                chunks, jobs=n_jobs, report=report, source=source, on_error=on_error,
                options=opts, on_progress=None if progress is None else tell,
            )
        else:
            outputs = CanonPass(report, opts).run(chunks, source, 1, on_error)
        try:
            with atomic_output(out_path) as fout:
                for chunk in outputs:
                    fout.write(chunk)
                    if n_jobs == 1 and progress is not None:
                        tell(report.statements_in)
                # The report is complete (workers merged) only now: the added statements last.
                if opts.links:
                    fout.write(ntriples(extras_of_report(report, opts.links, source)))
        finally:
            # On an error, stop the workers now rather than when the traceback is freed.
            outputs.close()
    return report


def check_file(
    path: str | os.PathLike[str],
    *,
    report: CheckReport | None = None,
    on_error: OnError = "report",
    progress: ProgressCallback | None = None,
    jobs: int | None = None,
    policy: Policy = DEFAULT_POLICY,
    locators: bool = False,
    prefix_lengths: PrefixLengths | None = None,
    input_format: str | None = None,
    base: str | None = None,
    catalog: Any = None,
    hazards: HazardMode = "error",
    source: str | None = None,
) -> CheckReport:
    """Check the URNs of an RDF file (plain or ``.gz``; ``-`` = stdin).

    ``input_format``, ``base``, ``catalog`` and ``hazards`` are those of
    :func:`canonicalize_file` (default: N-Triples / N-Quads). The report of a file in any
    syntax is the report of the same statements written as N-Triples; a syntax error of a file
    that is not N-Triples stops the check (:class:`RDFSyntaxError`).

    ``progress`` is called with a :class:`Progress` as the work advances (the command line
    draws it on a terminal). ``jobs`` worker processes share the work, as in
    :func:`canonicalize_file` (``None``: one per CPU for inputs over 8 MiB, else 1); the report
    is the same for any ``jobs``. ``locators`` and ``prefix_lengths`` are
    :func:`check_lines`'s (they run in one process).

    >>> import tempfile, os
    >>> p = os.path.join(tempfile.mkdtemp(), "x.nt")
    >>> with open(p, "wb") as f:
    ...     _ = f.write(b"<URN:ISBN:0-395-36341-1> <http://e/p> <urn:isbn:0395363411> .\\n")
    >>> check_file(p).clusters
    {'urn:isbn:0395363411': {'URN:ISBN:0-395-36341-1': 1, 'urn:isbn:0395363411': 1}}
    """
    if report is None:
        report = CheckReport()
    if jobs is not None and jobs < 1:
        raise ValueError(f"jobs must be >= 1, got {jobs!r}")
    source = "<stdin>" if os.fspath(path) == "-" else os.fspath(path)
    spellings = _check_spellings(locators, prefix_lengths)
    if spellings:
        jobs = 1  # the check workers do not carry the locator mode
    in_fmt = normalize_syntax(input_format) if input_format else None
    if in_fmt is not None and not _line_check(in_fmt):
        if spellings:
            raise URNError(
                f"{source}: check's locator mode reads N-Triples / N-Quads; convert the "
                f"{in_fmt} input first (urnld canonicalize IN -o OUT.nt)"
            )
        from ._syntaxes import check_stream  # pyoxigraph: only for other syntaxes

        check_stream(
            os.fspath(path), input_format=in_fmt, report=report, base=base, catalog=catalog,
            hazards=hazards, jobs=jobs, policy=policy, source=source,
            on_progress=_progress_of(progress, path),
        )
        return report
    with open_input(path) as (fin, size):
        pos = [0]

        def counter(p: int) -> None:
            pos[0] = p

        chunks, n_jobs = _jobs_for(read_chunks(fin, counter, source=source), size, jobs)
        tell = progress
        if n_jobs > 1:
            # The workers' statement counts reach the report at the end: progress from them.
            check_chunks(
                chunks, jobs=n_jobs, report=report, source=source, on_error=on_error,
                policy=policy, on_progress=None if tell is None else (
                    lambda n: tell(Progress(pos[0], size, n))),
            )
        else:
            if tell is not None:
                chunks = _told(chunks, lambda: tell(Progress(pos[0], size, report.statements_in)))
            for _ in CheckPass(report, policy, spellings).run(chunks, source, 1, on_error):
                pass
    return report


def _file_syntaxes(
    src: str, dst: str, input_format: str | None, output_format: str | None,
) -> tuple[str | None, str | None]:
    """The syntaxes of a file job, as the command takes them: given, else from the paths'
    extensions through the syntax table (an input whose extension names none, and stdin, is
    read line by line: N-Triples or N-Quads); the output's from its extension, else the
    input's; an output extension that names no syntax is refused.

    >>> _file_syntaxes("a.ttl", "b.nt", None, None)
    ('turtle', 'nt')
    >>> _file_syntaxes("one.nt", "x.ttl", None, None), _file_syntaxes("-", "-", None, None)
    (('nt', 'turtle'), (None, None))
    """
    from pathlib import PurePath

    from .._kernel import writable_output

    if input_format:
        in_fmt: str | None = normalize_syntax(input_format)
    else:
        found = None if src == "-" else _known_syntax(src)
        in_fmt = None if found is None else normalize_syntax(found)
    if output_format:
        return in_fmt, normalize_syntax(writable_output(dst, output_format, default="nt").name)
    if dst == "-" or not PurePath(dst[:-3] if dst.lower().endswith(".gz") else dst).suffix:
        return in_fmt, in_fmt
    return in_fmt, normalize_syntax(writable_output(dst, None, default=in_fmt or "nt").name)


def _known_syntax(path: str) -> str | None:
    """The syntax *path*'s extension names, or None."""
    from .._kernel import syntax_for_path

    try:
        return syntax_for_path(path).name
    except URNError:
        return None


def _line_pass(in_fmt: str | None, out_fmt: str | None) -> bool:
    """Does the line pass alone do the job? The route says (:func:`canonicalize_route`); an
    input of no known syntax (stdin, an unknown extension) is read line by line, as
    N-Triples/N-Quads, and written as it was read.

    >>> _line_pass(None, None), _line_pass("nquads", "nt"), _line_pass("nt", "turtle")
    (True, False, False)
    """
    src = in_fmt or "nt"
    try:
        return canonicalize_route(src, out_fmt or src).partitions
    except URNError:  # a syntax the table does not name: the syntax path says so
        return False


def _line_check(in_fmt: str) -> bool:
    """Is an input of syntax *in_fmt* checked line by line? The route says
    (:func:`check_route`).

    >>> _line_check("nquads"), _line_check("turtle")
    (True, False)
    """
    try:
        return check_route(in_fmt) is Engine.LINES
    except URNError:  # a syntax the table does not name: the syntax path says so
        return False


def _progress_of(
    progress: ProgressCallback | None, path: str | os.PathLike[str]
) -> Callable[[int, int], None] | None:
    """The streaming path's progress calls as :class:`Progress` for *progress*."""
    if progress is None:
        return None
    p = os.fspath(path)
    size = None
    if p != "-":
        try:
            size = os.path.getsize(p)
        except OSError:
            size = None
    told = progress

    def tell(position: int, statements: int) -> None:
        told(Progress(position, size, statements))

    return tell


def _told(chunks: Iterator[bytes], tell: Callable[[], None]) -> Iterator[bytes]:
    """*chunks*, calling *tell* before each one is handed on."""
    for chunk in chunks:
        tell()
        yield chunk
