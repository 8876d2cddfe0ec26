"""Streaming every RDF syntax: Turtle, TriG, N3, RDF/XML and JSON-LD through the N-Quads pass.

Three stages, each in bounded memory:

* **A** reads the input syntax with pyoxigraph (Rust) and writes it as N-Quads, in chunks of
  whole lines (one statement a line, so "line *n*" of the N-Quads is "statement *n*");
* **B** is the N-Triples / N-Quads pass of :mod:`urnld.stream` (term rule, report, accelerator)
  over those chunks, so the report of a Turtle file is the report of the same statements as
  N-Triples, by construction;
* **C** writes B's output in the requested syntax with pyoxigraph, with the prefixes the input
  declared before its first statement (URN namespaces among them in their canonical case).

pyoxigraph keeps what urnld must not change: literals keep their lexical form, datatype and
language (``"01"^^xsd:integer`` stays ``"01"``), the default graph stays the default graph and
blank nodes keep their labels; the labels pyoxigraph invents for the blank nodes the input did
not name are replaced by ``b0``, ``b1``… in order of appearance, so every run writes the same
bytes (:mod:`urnld._kernel._blanks`). On a large input stage A runs in a child process that
feeds the parent through a pipe, and stage C (written to a file) in another that the parent
feeds, so the three stages share the cores and B, the heaviest, has a process to itself; a check
has no stage C, and its B is shared among the line pass's workers. A parse error in a child is
raised in the parent as :class:`RDFSyntaxError` (source, line and column when the parser gives
them).

Why N-Quads text between the stages rather than pyoxigraph's terms: the rule on the terms
themselves (one parse, a cache from term to rewritten term, one serialize) costs more than
the two conversions, since most statements of URN-rich data hold a URN to rewrite and each
rewritten statement is a new pyoxigraph quad, whose construction from Python costs more than
pyoxigraph's own N-Quads writing and reading of it (``bench/syntaxes.py --stages``).

Guards kept from the whole-document reader (:mod:`urnld.read`): a base that is a URN (``@base``,
``BASE``, ``xml:base``, a JSON-LD ``@base``, or the caller's ``base``) is looked for in every
block read (one search in the lower-cased block); when one is seen, the document is checked for
relative references made against it with the reader's guard before any output is kept (the
``urn-base`` finding with its position), which is the one case that costs a second reading.
RDF/XML entity declarations are refused (pyoxigraph would expand them). JSON-LD contexts are
never fetched: a remote context is an error that names it.

>>> import io
>>> from urnld.report import CanonicalizeReport
>>> report = CanonicalizeReport()
>>> out = io.BytesIO()
>>> data = io.BytesIO(b'@prefix ex: <http://ex.org/> . <URN:ISBN:0-395-36341-1> ex:n "01" .')
>>> canonicalize_stream(data, out, input_format="turtle", output_format="turtle", report=report)
>>> print(out.getvalue().decode(), end="")
@prefix ex: <http://ex.org/> .
<urn:isbn:0395363411> ex:n "01" .
>>> report.rewritten
1
"""

from __future__ import annotations

import contextlib
import itertools
import os
import re
import shutil
import sys
import tempfile
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping
from typing import IO, TYPE_CHECKING, Any, Final

from .._core import Policy
from .._kernel import (
    DEFAULT_OPTIONS,
    SPELLING,
    CanonOptions,
    LinkOptions,
    extras_of_report,
    ntriples,
    open_input,
    relabel_chunks,
)
from .._kernel import SYNTAXES as SYNTAX_TABLE
from ..errors import URNError
from ..report import CanonicalizeReport, CheckReport
from ._grammar import NTriplesSyntaxError
from ._guard import guard_document
from ._names import LINE_SYNTAXES, SYNTAXES, HazardMode, RDFSyntaxError, normalize_syntax
from ._passes import DEFAULT_POLICY, CanonPass, CheckPass
from ._sniff import _BLOCK, _URN_BASE, _Sniffer
from ._stage_a import (
    _convert,
    _explained,
    _in_child,
    _Job,
    _State,
)
from ._stage_c import output_prefixes, write_quads
from ._workers import canonicalize_chunks, check_chunks, default_jobs

if TYPE_CHECKING:
    pass

__all__ = [
    "LINE_SYNTAXES",
    "SYNTAXES",
    "RDFSyntaxError",
    "canonicalize_stream",
    "check_stream",
    "normalize_syntax",
    "output_prefixes",
]


# Syntaxes that hold named graphs (N3 formulas are graphs too, named by blank nodes).
_DATASETS: Final = frozenset(name for name in SYNTAXES if SYNTAX_TABLE[name].quads) | {"n3"}

# The vocabularies of the statements --link, --keep-spellings and --link-resolvers add.
_LINK_PREFIXES: Final = {
    "owl": "http://www.w3.org/2002/07/owl#",
    "rdfs": "http://www.w3.org/2000/01/rdf-schema#",
    "urnld": SPELLING.rpartition("#")[0] + "#",
}

#: Below this many input bytes, stage A runs in the calling process.
MIN_CHILD_BYTES: Final = 1 << 20









# --- the guard: relative references against a URN base --------------------------------------


def _default_base(path: str, syntax: str, base: str | None) -> str | None:
    """The base IRI of the document: *base*, else the file's ``file:`` URI (as the reader
    does, for every syntax; none for stdin)."""
    if base is not None:
        return base
    if path == "-":
        return None
    from pathlib import Path

    return Path(path).resolve().as_uri()


#: The largest JSON-LD document looked at for the constructs pyoxigraph 0.5 reads otherwise
#: than JSON-LD 1.1 (and, when it has one, read by the algorithm: whole, as the URN-base
#: guard reads it). Larger documents stream through pyoxigraph as they are.
MAX_ALGORITHM_BYTES: Final = 64 << 20
# A dot segment as a whole path segment ("a/./b", "../x", "."), in bytes of a JSON string.
_DOT_SEGMENT: Final = re.compile(rb'(?:^|/|")\.\.?(?:$|[/?#"])')
# What pyoxigraph 0.5 reads otherwise: a dot segment in an @base value (W3C toRdf e091, 0122,
# 0123) or in a network-path reference (e062), and (counted apart: two "@context" keys) a
# scoped context (c013).
_DEVIATES: Final = re.compile(
    rb'"@base"\s*:\s*"(?:[^"]*?/)?\.\.?[/?#"]|"//[^"]*?/\.\.?[/?#"]')

# The key of a context in JSON text (not a quote escaped inside a string).
_CONTEXT_KEY: Final = re.compile(rb'(?<!\\)"@context"\s*:\s*')

# A directional literal (RDF 1.2) as pyoxigraph writes it in N-Quads: "…"@en--ltr.
_DIRECTIONAL: Final = re.compile(rb'"@[A-Za-z][A-Za-z0-9-]*--(?:ltr|rtl)[ \t]')


def _drop_directions(chunk: bytes) -> bytes:
    """*chunk* (N-Quads) with each directional literal ``"x"@en--ltr`` written ``"x"@en``:
    JSON-LD 1.1's toRdf with the default ``rdfDirection`` (null) drops ``@direction``, where
    pyoxigraph 0.5 makes RDF 1.2 directional literals. Only the lines that may hold one are
    parsed again.

    >>> _drop_directions(b'<http://a/s> <http://a/p> "x"@en--rtl .\\n')
    b'<http://a/s> <http://a/p> "x"@en .\\n'
    """
    if b"--ltr" not in chunk and b"--rtl" not in chunk:
        return chunk
    import io

    import pyoxigraph as ox

    out = []
    for line in chunk.splitlines(keepends=True):
        if _DIRECTIONAL.search(line) is None:
            out.append(line)
            continue
        quads = []
        for q in ox.parse(line, ox.RdfFormat.N_QUADS):
            o = q.object
            if isinstance(o, ox.Literal) and o.direction is not None:
                o = ox.Literal(o.value, language=o.language)
            quads.append(ox.Quad(q.subject, q.predicate, o, q.graph_name))
        buf = io.BytesIO()
        ox.serialize(quads, buf, ox.RdfFormat.N_QUADS)
        out.append(buf.getvalue())
    return b"".join(out)


# --- the passes ------------------------------------------------------------------------------


def _statement_error(e: NTriplesSyntaxError, source: str) -> RDFSyntaxError:
    """A statement that the line pass cannot read, as converted by stage A (an RDF 1.2 triple
    term, say): said by statement number, the only position the N-Quads have."""
    error = RDFSyntaxError(source, f"statement {e.line}: urnld cannot rewrite it ({e.reason})")
    error.statement = e.line
    return error


class _Input:
    """An input of any streamed syntax (a file: it can be read twice) as N-Quads chunks
    (stage A, or the lines themselves), the guard checked before a chunk is passed on."""

    def __init__(
        self, path: str, syntax: str, *, source: str, base: str | None, catalog: Any,
        hazards: HazardMode, jobs: int | None,
    ) -> None:
        self.path = path
        self.syntax = syntax
        self.source = source
        self.base = base
        self.catalog = catalog
        self.hazards = hazards
        self.jobs = jobs
        self.position = 0  # bytes of the file read so far (compressed bytes for .gz)
        self.workers = 1  # processes of stage B (set by chunks())
        self.child = False  # stages A and C in child processes (set by chunks())
        self.checking = False  # a check: no stage C
        self.state = _State()
        self._stack = contextlib.ExitStack()
        self._guarded = False

    def __enter__(self) -> _Input:
        return self

    def __exit__(self, *exc: object) -> None:
        self._stack.close()

    def _told(self, position: int) -> None:
        self.position = position

    def _use_child(self, size: int | None) -> bool:
        if self.jobs == 1:
            return False
        import multiprocessing

        if multiprocessing.current_process().daemon:  # a daemon may not have children
            return False
        if self.jobs is not None:
            return True
        cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1
        return cpus > 1 and (size is None or size >= MIN_CHILD_BYTES)

    def chunks(self) -> Iterator[bytes]:
        """The N-Quads chunks of the input (whole lines)."""
        from ._chunks import read_chunks

        if self.syntax in LINE_SYNTAXES:
            fin, size = self._stack.enter_context(open_input(self.path))
            # No stage A: stage C (another syntax out) has a process of its own beside B.
            self.child = self._use_child(size)
            return read_chunks(fin, self._told, source=self.source)
        base_iri = _default_base(self.path, self.syntax, self.base)
        size = None
        with contextlib.suppress(OSError):
            size = os.path.getsize(self.path)
        if self.syntax == "json-ld":
            algorithm = self._jsonld_by_algorithm(base_iri, size)
            if algorithm is not None:
                return self._checked(algorithm)
        if self._use_child(size):
            # Stage A has a process of its own, and so has stage C (canonicalize); stage B runs
            # here, or on the line pass's workers on the cores A leaves when there are several.
            # A check has no stage C and a heavier B: its B is shared by as many workers as
            # there are cores (the three processes share two cores, but B no longer waits for
            # A's core to finish its part alone).
            if self.jobs is not None:
                self.workers = self.jobs
            elif self.checking:
                self.workers = default_jobs(size)
            else:
                self.workers = max(1, default_jobs(size) - 1)
            self.child = True
            job = _Job(self.path, self.syntax, base_iri, self.source)
            return self._checked(_in_child(job, self.state, self._told))
        fin, size = self._stack.enter_context(open_input(self.path))
        sniffer = _Sniffer(fin, self.syntax, self.source)
        return self._checked(self._positions(
            _convert(sniffer, self.syntax, base_iri, self.source, self.state), sniffer))

    def _jsonld_by_algorithm(self, base: str | None, size: int | None) -> Iterator[bytes] | None:
        """The N-Quads of a JSON-LD document on which pyoxigraph 0.5 deviates from the JSON-LD
        1.1 toRdf algorithm (dot segments in a base or a network-path reference, scoped
        contexts: see :data:`_DEVIATES`), made by the algorithm (pyld, through
        :func:`urnld.jsonld.to_rdf`); None for every other document, which streams. Only
        documents of at most :data:`MAX_ALGORITHM_BYTES` are looked at (read whole), and every
        document read with a catalog (read whole, as the JSON-LD processor reads it: its
        contexts are inlined, then it streams from memory), which may be no larger: a larger
        one is refused (:class:`RDFSyntaxError` naming the file)."""
        catalog = self.catalog is not None
        limit = MAX_ALGORITHM_BYTES  # read at call time: tests lower it
        if not catalog and (size is None or size > limit or self.path == "-"):
            return None
        with open_input(self.path) as (f, _size):
            raw = f.read(limit + 1)
        if len(raw) > limit:
            if not catalog:
                return None
            # Its contexts are inlined from the catalog in memory: a document of any size
            # would be held whole (several times over, by the JSON parser), so it is refused.
            raise RDFSyntaxError(
                self.source,
                f"a JSON-LD document read with --catalog (catalog=) is held in memory and may "
                f"be at most {limit:,} bytes; this one is larger (inline its contexts, or "
                "convert it to N-Quads first)")
        dotted_base = base is not None and _DOT_SEGMENT.search(base.encode("utf-8")) is not None
        if catalog:
            chunks = self._catalog_chunks(raw, base, dotted_base) if b'"@context"' in raw \
                else None
            return chunks if chunks is not None else self._stream_bytes(raw, base)
        if not dotted_base and _DEVIATES.search(raw) is None and raw.count(b'"@context"') < 2:
            return None
        return self._algorithm_chunks(raw, base)

    def _loader(self) -> Any:
        from ..jsonld import URNDocumentLoader

        if isinstance(self.catalog, URNDocumentLoader):
            return self.catalog
        return URNDocumentLoader(self.catalog if self.catalog is not None else {})

    def _catalog_chunks(self, raw: bytes, base: str | None,
                        dotted_base: bool) -> Iterator[bytes] | None:
        """A document read with a catalog: its contexts inlined from the catalog, streamed
        through pyoxigraph (or made by the algorithm where pyoxigraph deviates or the contexts
        cannot be inlined); None when it names no context (it streams as it is)."""
        import json

        from ..jsonld import inline_contexts, oxigraph_deviates

        m = _CONTEXT_KEY.search(raw)
        if m is not None and raw.count(b'"@context"') == 1 and not dotted_base:
            # One context (the usual document): only its value is read and replaced, the rest
            # of the bytes go to pyoxigraph as they are.
            try:
                text = raw[m.end():].decode("utf-8")
                value, end = json.JSONDecoder().raw_decode(text)
            except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as e:
                raise RDFSyntaxError(self.source, f"cannot parse as json-ld: {e}") from None
            inlined = inline_contexts({"@context": value}, self._loader(), base)
            if inlined is not None and not oxigraph_deviates(inlined, None, base) \
                    and _DEVIATES.search(raw) is None:
                if inlined["@context"] == value:
                    return None
                tail = text[end:].encode("utf-8")
                return self._stream_bytes(
                    raw[:m.end()] + json.dumps(inlined["@context"]).encode("utf-8") + tail, base)
        try:
            doc = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as e:
            raise RDFSyntaxError(self.source, f"cannot parse as json-ld: {e}") from None
        inlined = inline_contexts(doc, self._loader(), base)
        if inlined is None or oxigraph_deviates(inlined, None, base):
            return self._algorithm_chunks(raw, base, doc)
        if inlined == doc:
            return None
        return self._stream_bytes(json.dumps(inlined).encode("utf-8"), base)

    def _stream_bytes(self, data: bytes, base: str | None) -> Iterator[bytes]:
        """Stage A over the document *data*, held in memory."""
        import io

        sniffer = _Sniffer(io.BytesIO(data), self.syntax, self.source)
        return self._positions(_convert(sniffer, self.syntax, base, self.source, self.state),
                               sniffer)

    def _algorithm_chunks(self, raw: bytes, base: str | None,
                          doc: Any = None) -> Iterator[bytes]:
        import json

        from ..jsonld import JsonLdProcessingError, to_rdf

        if doc is None:
            try:
                doc = json.loads(raw.decode("utf-8"))
            except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as e:
                raise RDFSyntaxError(self.source, f"cannot parse as json-ld: {e}") from None
        try:
            # hazards: the guard judges them (as for the streamed documents).
            text = to_rdf(doc, loader=self._loader(), base=base, canonicalize=False,
                          hazards="ignore", format="nquads")
        except JsonLdProcessingError as e:
            raise RDFSyntaxError(self.source, f"cannot parse as json-ld: {e}") from None
        data = str(text).encode("utf-8")
        # As the sniffer tells it of a streamed document: the guard then reads it again (with
        # a catalog always: a URN @base or a term "urn" may be in one of its contexts).
        self.state.urn_base = (self.catalog is not None
                               or _URN_BASE["json-ld"].search(raw.lower()) is not None)
        self.state.statements = data.count(b"\n")
        self.position = len(raw)
        start, n = 0, len(data)
        while start < n:  # chunks of whole lines, about a megabyte each
            end = data.find(b"\n", min(start + (1 << 20), n) - 1)
            end = n if end < 0 else end + 1
            yield data[start:end]
            start = end

    def _positions(self, chunks: Iterator[bytes], sniffer: _Sniffer) -> Iterator[bytes]:
        for chunk in chunks:
            self.position = sniffer.position
            yield chunk

    def _checked(self, chunks: Iterator[bytes]) -> Iterator[bytes]:
        """*chunks*, the guard run before the first chunk read after a URN base was seen (or
        before the first one, for a URN base given): no statement made under a URN base is
        passed on before the document's references against it are known to be fine."""
        self.guard(given_only=True)
        jsonld = self.syntax == "json-ld"
        base = _default_base(self.path, self.syntax, self.base)
        local = jsonld and base is not None and base.startswith("file:")
        under_file = 0  # IRIs under file: (references resolved against the file's location)
        try:
            for chunk in chunks:
                self.guard()
                if not jsonld:
                    yield chunk
                    continue
                fixed = _drop_directions(chunk)
                if local:
                    under_file += fixed.count(b"<file:")
                yield fixed
        except RDFSyntaxError as e:
            if self.catalog is not None and e.reason.startswith("JSON-LD context "):
                # The contexts of a catalog are loaded by the JSON-LD processor only.
                raise RDFSyntaxError(e.source, e.reason.split(" is not in", 1)[0] + " is not "
                                     "loaded: the streaming path loads catalog contexts into "
                                     f"documents of up to {MAX_ALGORITHM_BYTES >> 20} MiB; "
                                     "read the document with urnld.read (or urnld check "
                                     "--catalog)", statement=e.statement) from None
            raise _explained(e, self.path) from None
        self.guard()
        if under_file:
            import warnings

            from ..errors import URNContextWarning

            # As the reader says it: the IRIs name a local path, not where the document is
            # published.
            warnings.warn(
                f"{self.source}: {under_file:,} IRI{'s' if under_file != 1 else ''} resolved "
                f"against the file's location <{base}> (relative references with no @base): "
                "give --base (base=) for the IRIs the document is published under",
                URNContextWarning, stacklevel=2)

    def guard(self, *, given_only: bool = False) -> None:
        """Run the reader's guard over the whole document, once, when a URN base is given or
        (unless *given_only*) was seen in the input."""
        if self._guarded or self.syntax in LINE_SYNTAXES:
            return
        given = self.base is not None and self.base[:4].lower() == "urn:"
        if not (given or (self.state.urn_base and not given_only)):
            return
        self._guarded = True
        with open_input(self.path) as (f, _size):
            raw = f.read()
        guard_document(raw, self.syntax, base=_default_base(self.path, self.syntax, self.base),
                       source=self.source, hazards=self.hazards, catalog=self.catalog)


def _pass_chunks(
    chunks: Iterable[bytes], report: CanonicalizeReport | CheckReport, inp: _Input, *,
    options: CanonOptions,
) -> Generator[bytes, None, None]:
    """Stage B over *chunks*, in this process or on :attr:`_Input.workers` processes (the
    line pass's own workers; the report is the same); for a converted syntax a bad statement
    is an :class:`RDFSyntaxError` by statement number (the report has it under that number)."""
    source = inp.source
    try:
        if inp.workers > 1 and isinstance(report, CheckReport):
            check_chunks(chunks, jobs=inp.workers, report=report, source=source,
                         on_error="raise", policy=options.policy)
        elif inp.workers > 1:
            assert isinstance(report, CanonicalizeReport)
            yield from canonicalize_chunks(
                chunks, jobs=inp.workers, report=report, source=source, on_error="raise",
                options=options,
            )
        else:
            state: CanonPass | CheckPass = (
                CheckPass(report, options.policy) if isinstance(report, CheckReport)
                else CanonPass(report, options))
            yield from state.run(chunks, source, 1, "raise")
    except NTriplesSyntaxError as e:
        if inp.syntax in LINE_SYNTAXES:
            raise
        # The pass recorded the error under the line number: the statement's number.
        raise _statement_error(e, source) from None


def _write(
    chunks: Iterable[bytes], fout: IO[bytes], syntax: str, prefixes: Mapping[str, str],
    *, from_syntax: str, source: str, child: bool,
) -> None:
    """Stage C: the N-Quads *chunks* written to *fout* in *syntax* (in a child process of
    its own when *child*: see :mod:`urnld.stream._stage_c`)."""
    if syntax == "nquads" or (syntax == "nt" and from_syntax not in _DATASETS):
        for chunk in chunks:
            fout.write(chunk)
        return
    write_quads(chunks, fout, syntax, prefixes, source=source, child=child)


def canonicalize_stream(
    fin: IO[bytes] | str,
    fout: IO[bytes],
    *,
    input_format: str,
    output_format: str,
    report: CanonicalizeReport,
    source: str | None = None,
    base: str | None = None,
    catalog: Any = None,
    hazards: HazardMode = "error",
    jobs: int | None = None,
    options: CanonOptions = DEFAULT_OPTIONS,
    on_progress: Callable[[int, int], None] | None = None,
) -> None:
    """Canonicalize the URNs of *fin* (a path, ``-``, or a binary stream) into *fout*, with
    *options* (:class:`~urnld.stream.CanonOptions`).

    Syntax names are urnld's (:data:`SYNTAXES`). Counts go to *report*. ``on_progress(position,
    statements)`` is told the input position (compressed bytes for ``.gz``) and the statements
    done after each chunk. Raises :class:`RDFSyntaxError` for input that cannot be read; what
    was written to *fout* is then incomplete (callers write to a temporary file).
    """
    in_fmt, out_fmt = normalize_syntax(input_format), normalize_syntax(output_format)
    report.ignore_components = options.ignore_components
    report.literals = options.literals
    with _opened(fin, source=source, syntax=in_fmt, base=base, catalog=catalog, hazards=hazards,
                 jobs=jobs) as inp:
        chunks = inp.chunks()
        if in_fmt not in LINE_SYNTAXES:
            # The parser's invented blank-node labels are random: numbered in order instead,
            # so that the same input gives the same bytes on every run.
            chunks = relabel_chunks(chunks)
        if out_fmt not in LINE_SYNTAXES:
            chunks = _primed(chunks)  # the first chunk read: the prefixes are known
        passed = _pass_chunks(chunks, report, inp, options=options)
        out: Iterator[bytes] = passed
        if on_progress is not None:
            out = _progress(out, inp, report, on_progress)
        prefixes = inp.state.prefixes
        if options.links:
            out = itertools.chain(out, _extras(report, options.links, inp.source))
            # The vocabularies of the added statements, under their usual prefixes where the
            # input did not take those names.
            prefixes = {**_LINK_PREFIXES, **prefixes}
        try:
            _write(out, fout, out_fmt, prefixes, from_syntax=in_fmt, source=inp.source,
                   child=inp.child)
        finally:
            # On an error, stop stage A (its child process) now, not when the traceback goes.
            passed.close()
        inp.guard()


def check_stream(
    fin: IO[bytes] | str,
    *,
    input_format: str,
    report: CheckReport,
    source: str | None = None,
    base: str | None = None,
    catalog: Any = None,
    hazards: HazardMode = "error",
    jobs: int | None = None,
    policy: Policy = DEFAULT_POLICY,
    on_progress: Callable[[int, int], None] | None = None,
) -> None:
    """Check the URNs of *fin* (a path, ``-``, or a binary stream) into *report*; see
    :func:`canonicalize_stream`.

    >>> import io
    >>> r = CheckReport()
    >>> check_stream(io.BytesIO(b'{"@id": "urn:HotelRoom", "http://e/p": "x"}'),
    ...              input_format="json-ld", report=r)
    >>> r.statements_in, sorted(r.invalid)
    (1, ['urn:HotelRoom'])
    """
    in_fmt = normalize_syntax(input_format)
    with _opened(fin, source=source, syntax=in_fmt, base=base, catalog=catalog, hazards=hazards,
                 jobs=jobs) as inp:
        inp.checking = True
        out: Iterator[bytes] = _pass_chunks(inp.chunks(), report, inp,
                                            options=DEFAULT_OPTIONS.replace(policy=policy))
        if on_progress is not None:
            out = _progress(out, inp, report, on_progress)
        for _ in out:
            pass
        inp.guard()


@contextlib.contextmanager
def _opened(
    fin: IO[bytes] | str, *, source: str | None, syntax: str, base: str | None, catalog: Any,
    hazards: HazardMode, jobs: int | None,
) -> Iterator[_Input]:
    """*fin* as an :class:`_Input`. A stream, and stdin in a syntax other than N-Triples, is
    copied to a temporary file first: the guard may need to read the document twice."""
    if hazards not in ("error", "warn", "ignore"):
        raise URNError(f"hazards must be 'error', 'warn' or 'ignore', not {hazards!r}")
    if isinstance(fin, str) and (fin != "-" or syntax in LINE_SYNTAXES):
        name = source or ("<stdin>" if fin == "-" else fin)
        with _Input(fin, syntax, source=name, base=base, catalog=catalog, hazards=hazards,
                    jobs=jobs) as inp:
            yield inp
        return
    stream: IO[bytes] = sys.stdin.buffer if isinstance(fin, str) else fin
    with tempfile.NamedTemporaryFile(prefix=".urnld-", suffix=".in") as tmp:
        shutil.copyfileobj(stream, tmp, _BLOCK)
        tmp.flush()
        name = source or ("<stdin>" if isinstance(fin, str) else "<stream>")
        with _Input(tmp.name, syntax, source=name, base=base, catalog=catalog,
                    hazards=hazards, jobs=jobs) as inp:
            yield inp


def _primed(chunks: Iterator[bytes]) -> Iterator[bytes]:
    """*chunks*, with the first one read already (stage A has then learnt the prefixes)."""
    first = list(itertools.islice(chunks, 1))
    return itertools.chain(first, chunks)


def _progress(
    out: Iterator[bytes], inp: _Input, report: CanonicalizeReport | CheckReport,
    on_progress: Callable[[int, int], None],
) -> Generator[bytes, None, None]:
    for chunk in out:
        # With worker processes the report is filled at the end: stage A's count meanwhile.
        on_progress(inp.position, max(report.statements_in, inp.state.statements))
        yield chunk


def _extras(report: CanonicalizeReport, options: LinkOptions, source: str) -> Iterator[bytes]:
    """The added statements (``--link`` …), computed once the pass is done."""
    yield ntriples(extras_of_report(report, options, source))
