"""File jobs, as the command runs them: ``urnld canonicalize`` in one call of the library.

:func:`canonicalize` takes the syntaxes from the paths through the syntax table (or from
``reading.format`` and ``output_format``), asks the route which engine does the job
(:func:`plan`), runs it and returns the report. ``urnld canonicalize`` calls it for every
input, so the library, the command and the Dask engine's document tasks give the same bytes
and the same report for the same files and options.

>>> import pathlib, tempfile
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> _ = (d / "a.ttl").write_text("<URN:ISBN:0-395-36341-1> <urn:example:p> [ <urn:example:q> 1 ] .")
>>> report = canonicalize(d / "a.ttl", d / "b.nt")      # Turtle in, N-Triples out
>>> print((d / "b.nt").read_text(), end="")
_:b0 <urn:example:q> "1"^^<http://www.w3.org/2001/XMLSchema#integer> .
<urn:isbn:0395363411> <urn:example:p> _:b0 .
>>> report.rewritten
1
>>> plan(d / "a.ttl", d / "b.nt").engine
<Engine.SYNTAX: 'syntax'>
>>> canonicalize(d / "a.ttl", d / "b.txt")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
urnld.errors.ReadError: ...b.txt: cannot tell the output syntax from the extension '.txt'; ...
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from ._kernel import (
    DEFAULT_OPTIONS,
    DEFAULT_READING,
    CanonOptions,
    Engine,
    HazardMode,
    ReadingOptions,
    Route,
    atomic_output,
    canonicalize_route,
    check_route,
    open_input,
    syntax_for_path,
    writable_output,
)
from .report import CanonicalizeReport, CheckReport

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from .stream import ProgressCallback

__all__ = [
    "DEFAULT_READING",
    "RDFC",
    "HazardMode",
    "ReadingOptions",
    "canonicalize",
    "check",
    "check_plan",
    "plan",
]

Iris = Literal["as-is", "rfc3986"]


@dataclasses.dataclass(frozen=True, slots=True)
class RDFC:
    """Write RDFC-1.0 canonical N-Quads, within these bounds of the blank-node hashing:
    ``max_work`` (default: urnld's budget, see ``urnld canonicalize --max-work``) and
    ``max_time`` seconds (None: no bound)."""

    max_work: int | None = None
    max_time: float | None = 2.0


def _name(path: str | os.PathLike[str]) -> str:
    return os.fspath(path)


def _source(path: str) -> str:
    return "<stdin>" if path == "-" else path


def plan(
    src: str | os.PathLike[str], out: str | os.PathLike[str], *,
    reading: ReadingOptions = DEFAULT_READING, output_format: str | None = None,
    rdfc: RDFC | None = None, iris: Iris = "as-is",
) -> Route:
    """The route of canonicalizing *src* into *out*: the syntaxes from the paths (``-``:
    N-Triples in, the input's syntax out; a directory: the input's syntax), the engine, why.

    >>> plan("a.jsonld", "b.nq", reading=ReadingOptions(catalog="ctx/")).engine
    <Engine.SYNTAX: 'syntax'>
    >>> plan("a.ttl", "b.nq", rdfc=RDFC()).engine
    <Engine.GRAPH_RDFC: 'graph-rdfc'>
    """
    s, o = _name(src), _name(out)
    in_syntax = syntax_for_path(s, reading.format, stdin="nt")
    if rdfc is not None:
        if output_format and writable_output("-", output_format, default="nquads").name \
                != "nquads":
            from .errors import URNError

            raise URNError("--rdfc writes N-Quads; drop --output-format or use nquads")
        out_name = "nquads"
    else:
        target = "-" if o == "-" or os.path.isdir(o) else o
        out_name = writable_output(target, output_format, default=in_syntax.name).name
    return canonicalize_route(in_syntax.name, out_name, rdfc=rdfc is not None, iris=iris,
                              catalog=reading.catalog is not None)


def canonicalize(
    src: str | os.PathLike[str],
    out: str | os.PathLike[str],
    *,
    options: CanonOptions = DEFAULT_OPTIONS,
    reading: ReadingOptions = DEFAULT_READING,
    output_format: str | None = None,
    rdfc: RDFC | None = None,
    iris: Iris = "as-is",
    jobs: int | None = None,
    progress: ProgressCallback | None = None,
    name: str | None = None,
) -> CanonicalizeReport:
    """Canonicalize the RDF file *src* into *out* (``-``: stdin / stdout; ``.gz`` in and out)
    as ``urnld canonicalize SRC -o OUT`` does, and return the report.

    *options*: what is rewritten and added (:class:`urnld.stream.CanonOptions`); *reading*:
    how *src* is read (:class:`ReadingOptions`: syntax, base, JSON-LD catalog, URN-base
    hazards); *output_format*: the syntax written (default: *out*'s extension, else the
    input's; an unknown extension is refused); *rdfc*: write RDFC-1.0 canonical N-Quads;
    *iris*: ``"rfc3986"`` also normalizes the IRIs that are not URNs; *jobs*, *progress*: the
    streaming engine's worker processes and progress calls; *name*: how messages name the
    input. The output appears only complete (temporary file renamed into place).
    """
    route = plan(src, out, reading=reading, output_format=output_format, rdfc=rdfc,
                 iris=iris)
    s, o = _name(src), _name(out)
    label = name or _source(s)
    in_fmt, out_fmt = route.input.name, route.output.name
    if route.engine in (Engine.LINES, Engine.SYNTAX):
        from .stream import canonicalize_file

        return canonicalize_file(s, o, progress=progress, jobs=jobs, options=options,
                                 input_format=in_fmt, output_format=out_fmt, source=name,
                                 **reading.stream_kwargs())
    if route.engine is Engine.LINES_RDFC:
        assert rdfc is not None
        return _lines_rdfc(s, o, options=options, rdfc=rdfc, label=label)
    if route.engine is Engine.DOCUMENT:
        from .rdf import canonicalize_document

        return canonicalize_document(
            s, o, output_format=out_fmt, name=label, iris=iris, options=options,
            **reading.replace(format=in_fmt).reader_kwargs(),
        )
    assert rdfc is not None  # GRAPH_RDFC
    from .rdf import canonical_nquads
    from .rdf import canonicalize as canonicalize_graph
    from .read import read

    graph = read(s, name=label, **reading.replace(format=in_fmt).reader_kwargs())
    result = canonicalize_graph(graph, iris=iris, options=options)
    nquads = canonical_nquads(result.graph, max_work=rdfc.max_work, max_time=rdfc.max_time)
    with atomic_output(o, fsync=True) as fo:
        fo.write(nquads.encode("utf-8"))
    return result.report


def _lines_rdfc(src: str, out: str, *, options: CanonOptions, rdfc: RDFC,
                label: str) -> CanonicalizeReport:
    """N-Triples/N-Quads: the URN pass streams straight into RDFC-1.0, which keeps only the
    statements with blank nodes in memory and sorts the rest in runs (spilled to disk beside
    the output when large)."""
    from .rdf import write_canonical_nquads
    from .stream import canonicalize_lines, read_lines

    report = CanonicalizeReport()
    tmp_dir = None if out == "-" else str(Path(out).resolve().parent)
    with open_input(src) as (f, _size), atomic_output(out, fsync=True) as fo:
        write_canonical_nquads(
            canonicalize_lines(read_lines(f, source=label), source=label, report=report,
                               options=options),
            fo.write, max_work=rdfc.max_work, max_time=rdfc.max_time, tmp_dir=tmp_dir,
            source=label,
        )
    return report


def check_plan(src: str | os.PathLike[str], *,
               reading: ReadingOptions = DEFAULT_READING, iris: Iris = "as-is") -> Engine:
    """The engine that checks *src* (its syntax from the path or ``reading.format``).

    >>> check_plan("a.nq"), check_plan("a.trix"), check_plan("a.nq", iris="rfc3986")
    (<Engine.LINES: 'lines'>, <Engine.DOCUMENT: 'document'>, <Engine.DOCUMENT: 'document'>)
    """
    syntax = syntax_for_path(_name(src), reading.format, stdin="nt")
    return check_route(syntax.name, iris=iris, catalog=reading.catalog is not None)


def check(
    srcs: Sequence[str | os.PathLike[str]] | str | os.PathLike[str],
    *,
    options: CanonOptions = DEFAULT_OPTIONS,
    reading: ReadingOptions = DEFAULT_READING,
    jobs: int | None = None,
    progress: ProgressCallback | None = None,
    report: CheckReport | None = None,
    on_unreadable: Callable[[str, Exception], None] | None = None,
    name: str | None = None,
    iris: Iris = "as-is",
) -> CheckReport:
    """Check the URNs of the RDF files *srcs* as ``urnld check FILE…`` does; return one
    report for all of them.

    *options*: ``policy`` judges the URNs, ``link_locators`` also counts the IRIs that are a
    resolver's address of a URN (``check --locators``) with ``prefix_lengths``; *reading*:
    how the files are read. *jobs*, *progress*: the streaming engine's. A file that cannot be
    read raises its error; with *on_unreadable* it is called instead (the path, the error)
    and the other files are checked. *name*: how messages and the report name a single input
    (default: its path). *iris*: ``"rfc3986"`` also counts the IRIs other than URNs that are
    not in RFC 3986 normal form (what :func:`canonicalize` with it rewrites; the files are
    then read into a graph, as there).

    >>> import pathlib, tempfile
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "a.ttl").write_text("<URN:ISBN:0-395-36341-1> <urn:example:p> <urn:HotelRoom> .")
    >>> sorted(check(d / "a.ttl").invalid)
    ['urn:HotelRoom']
    """
    from .errors import URNError

    if iris not in ("as-is", "rfc3986"):
        raise URNError(f"iris must be 'as-is' or 'rfc3986', not {iris!r}")
    paths = [srcs] if isinstance(srcs, (str, os.PathLike)) else list(srcs)
    if name is not None and len(paths) != 1:
        raise ValueError("name= names a single input")
    report = CheckReport() if report is None else report
    extra: dict[str, object] = {}
    if options.link_locators:
        extra = {"locators": True, "prefix_lengths": options.prefix_lengths}
    for src in paths:
        s = _name(src)
        try:
            _check_one(s, report, options=options, reading=reading, jobs=jobs,
                       progress=progress, iris=iris,
                       extra={**extra, "source": name or _source(s)})
        except (URNError, OSError) as e:
            if on_unreadable is None:
                raise
            on_unreadable(s, e)
    return report


def _check_one(src: str, report: CheckReport, *, options: CanonOptions,
               reading: ReadingOptions, jobs: int | None, progress: ProgressCallback | None,
               iris: Iris, extra: dict[str, object]) -> None:
    fmt = syntax_for_path(src, reading.format, stdin="nt").name
    engine = check_route(fmt, iris=iris, catalog=reading.catalog is not None)
    if engine in (Engine.LINES, Engine.SYNTAX):
        # Streamed in bounded memory, never built into a graph: N-Triples line by line, the
        # other syntaxes pyoxigraph reads converted on the way.
        from .stream import check_file

        if engine is Engine.LINES:
            check_file(src, report=report, progress=progress, policy=options.policy,
                       jobs=jobs, **extra)  # type: ignore[arg-type]
        else:
            check_file(src, report=report, progress=progress, policy=options.policy,
                       jobs=jobs, input_format=fmt, **reading.stream_kwargs(),
                       **extra)  # type: ignore[arg-type]
        if fmt == "json-ld":
            _jsonld_notes(src, report, source=str(extra["source"]), reading=reading)
        return
    from .rdf import check_graph
    from .read import read

    label = extra.pop("source")
    graph = read(src, name=str(label), **reading.replace(format=fmt).reader_kwargs())
    check_graph(graph, report, policy=options.policy, iris=iris,
                **extra)  # type: ignore[arg-type]
    if fmt == "json-ld":
        _jsonld_notes(src, report, source=str(label), reading=reading)


#: The largest JSON-LD document whose reading is looked at for what it drops
#: (:func:`urnld.jsonld.reading_notes` runs the Expansion algorithm over it, in memory).
MAX_NOTES_BYTES = 16 << 20


def _jsonld_notes(src: str, report: CheckReport, *, source: str,
                  reading: ReadingOptions) -> None:
    """Record in *report* what reading the JSON-LD document *src* drops or warns about: keys
    that expand to no IRI, IRIs that are not well-formed, references resolved against the
    file's location (:func:`urnld.jsonld.reading_notes`), each with its JSON pointer. Read
    again, within :data:`MAX_NOTES_BYTES` (a larger document gets one note saying it was not
    looked at); standard input cannot be read again and gets none."""
    import json

    from .jsonld import reading_notes
    from .read import loader_for

    if src == "-":
        return
    with open_input(src) as (f, _size):
        raw = f.read(MAX_NOTES_BYTES + 1)
    if len(raw) > MAX_NOTES_BYTES:
        report.record_note(source, "", "jsonld-not-analysed",
                           f"over {MAX_NOTES_BYTES:,} bytes: what reading it drops is not "
                           "looked for")
        return
    try:
        document = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        return  # the reader has refused it already
    base = reading.base if reading.base is not None else Path(src).resolve().as_uri()
    try:
        notes = reading_notes(document, loader=loader_for(reading.catalog), base=base)
    except Exception as e:  # pyld failing where the reader did not: said, never fatal
        report.record_note(source, "", "jsonld-not-analysed",
                           f"what reading it drops could not be looked for: "
                           f"{type(e).__name__}: {e}")
        return
    for note in notes:
        report.record_note(source, note.where, note.code, note.message)
