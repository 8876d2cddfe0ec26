"""Streaming URN canonicalization and checking of N-Triples / N-Quads, in bounded memory.

Lines in, lines out: nothing but the current batch of lines and a bounded cache of the
canonical form of distinct terms is held in memory, so a 4M-triple file needs no more memory
than a 1M-triple one.

>>> from urnld.report import CanonicalizeReport
>>> from urnld.stream import canonicalize_lines
>>> report = CanonicalizeReport()
>>> lines = [b'<URN:ISBN:0-395-36341-1> <http://purl.org/dc/terms/title> "Title" .\\n']
>>> b"".join(canonicalize_lines(lines, source="demo.nt", report=report))
b'<urn:isbn:0395363411> <http://purl.org/dc/terms/title> "Title" .\\n'
>>> report.rewritten
1

Output lines are statements in a normalized layout (``S P O [G] .`` separated by single spaces,
``\\n`` line ends); blank lines and comments are dropped. Terms that are not URNs are written
back byte for byte (escapes included). The stream is not deduplicated: two spellings of the same
URN give two identical output lines, which any RDF store merges on load.

Blank-node labels pass through unchanged: a label's scope is the file, so callers that combine
files (the Dask engine) must keep labels of different files apart themselves.
"""

from __future__ import annotations

import abc
import collections
import contextlib
import io
import itertools
import os
import re
import sys
import time
from collections.abc import Callable, Generator, Iterable, Iterator
from typing import IO, Any, Final, Literal

from . import _accel
from ._check import check
from ._ntriples import (
    _POLICY_OK,
    FAST_LINE,
    LINE,
    NOT_URN,
    TermCanonicalizer,
    is_blank_or_comment,
    literal_parts,
    unescape_iri,
    unescape_literal,
)
from ._urn import URN
from ._workers import (
    _MIN_PARALLEL_BYTES,
    canonicalize_chunks,
    check_chunks,
    default_jobs,
    line_count,
)
from .errors import URNError
from .namespaces import _prefixes
from .report import CanonicalizeReport, CheckReport

__all__ = [
    "NTriplesSyntaxError",
    "canonicalize_file",
    "canonicalize_lines",
    "check_file",
    "check_lines",
]


def __dir__() -> list[str]:
    return __all__


OnError = Literal["raise", "report"]

# C helper behind Counter.update: counts a list of tokens into a dict without a Python loop.
_count_elements: Callable[[dict[bytes, int], list[bytes]], None] = (
    collections._count_elements  # type: ignore[attr-defined]
)
# First byte of a token that may be a URN once unescaped: 'u', 'U' or a '\\' escape.
_URN_START = frozenset(b"uU\\")

# Lines are handled in batches: one Python call per batch keeps per-line overhead low.
_BATCH_LINES = 8192
# Files are read in chunks of whole lines of about this size (one regex call splits a chunk).
_CHUNK_BYTES = 1 << 20
# Distinct terms whose canonical form is cached; past it the cache restarts (bounded memory).
_MAX_CACHE = 50_000
# Malformed lines are shown with at most this many bytes.
_EXCERPT = 80


class NTriplesSyntaxError(URNError):
    """A line of N-Triples / N-Quads input is malformed.

    >>> e = NTriplesSyntaxError("data.nt", 7, "not an N-Triples statement", b"<a> <b> .")
    >>> str(e)
    "data.nt:7: not an N-Triples statement: '<a> <b> .'"
    """

    def __init__(self, source: str, line: int, reason: str, text: bytes = b"") -> None:
        self.source = source
        self.line = line
        self.reason = reason
        self.text = text
        shown = text[:_EXCERPT].decode("utf-8", "replace").rstrip("\r\n")
        if len(text) > _EXCERPT:
            shown += "…"
        super().__init__(f"{source}:{line}: {reason}: {shown!r}")

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.source, self.line, self.reason, self.text))


def _describe(line: bytes) -> str:
    """Say briefly why a line is not a statement (the regex only knows that it is not)."""
    stripped = line.strip()
    if stripped.startswith(b"<<"):
        return "RDF-star quoted triples are not N-Triples 1.1"
    if not stripped.endswith(b".") and b"#" not in stripped:
        return "statement does not end with '.'"
    return "not an N-Triples/N-Quads statement"


def _statements(
    lines: Iterable[bytes],
    lineno: int,
    source: str,
    on_error: OnError,
    report: CanonicalizeReport | CheckReport,
) -> Iterator[tuple[bytes, bytes, bytes, bytes | None]]:
    """``(s, p, o, g)`` of each statement line, the first numbered *lineno*.

    Blank and comment lines are skipped; a malformed line is recorded in *report* and raises
    :class:`NTriplesSyntaxError` with ``on_error="raise"``.
    """
    fullmatch = LINE.fullmatch
    for i, line in enumerate(lines, lineno):
        m = fullmatch(line)
        if m is not None:
            yield m.groups()  # type: ignore[misc]  # LINE has these four groups
        elif not is_blank_or_comment(line):
            reason = _describe(line)
            report.record_error(source, i, reason)
            if on_error == "raise":
                raise NTriplesSyntaxError(source, i, reason, line)


# Statements in the layout most dumps use (FAST_LINE), matched at line starts: findall gives
# (s, p, o, g) tuples for a whole batch in one C call, g b"" for a triple. Every match is one
# whole line (no token holds a newline), so a batch is clean when matches == lines.
_ROWS: Final = re.compile(rb"(?m)^" + FAST_LINE.pattern)
Row = tuple[bytes, bytes, bytes, bytes]


class _Pass(abc.ABC):
    """One streaming pass over N-Triples / N-Quads chunks (canonicalize or check): the line
    loop, the term caches and the occurrence counts; subclasses say what a flush records."""

    report: CanonicalizeReport | CheckReport

    def __init__(self, *, literals: bool, ignore_components: bool = False) -> None:
        self.literals = literals
        self.ignore_components = ignore_components
        self.terms = TermCanonicalizer(ignore_components=ignore_components, max_cache=_MAX_CACHE)
        # raw token -> output token (NOT_URN when the token is not a URN)
        self.tokens: dict[bytes, bytes] = {}
        # raw token -> (spelling, info) for URN tokens, used when counts are flushed
        self.info: dict[bytes, tuple[str, tuple[str | None, ...], bool]] = {}
        # raw URN token -> statements it occurs in (since the last flush)
        self.occ: dict[bytes, int] = {}
        self._c = _accel.speedups

    def iri(self, tok: bytes) -> bytes:
        """Output for an IRI token (cache miss path)."""
        first = tok[1]
        if first not in _URN_START:
            self.tokens[tok] = NOT_URN  # the common case: cannot be a URN
            return NOT_URN
        if first == 92 or b"\\" in tok:  # escapes to decode first
            text = unescape_iri(tok)
            urn = text[:4].lower() == "urn:"
        else:
            urn = tok[2:5].lower() == b"rn:"
            text = tok[1:-1].decode("utf-8", "replace") if urn else ""  # see unescape_iri
        if not urn:
            out = NOT_URN
        else:
            canonical, info = self.terms.compute(text)
            out = tok  # invalid URNs are left exactly as they were, and so are canonical ones
            # Write the canonical bytes also when only N-Triples escapes differ.
            if info[0] == "ok" and (canonical != text or first == 92 or b"\\" in tok):
                new = canonical.encode("ascii")  # a valid URN is ASCII
                if tok[1:-1] != new:
                    out = b"<" + new + b">"
            self.info[tok] = (text, info, False)
        self.tokens[tok] = out
        return out

    def literal(self, tok: bytes) -> bytes:
        """Output for a literal token that may hold a URN (cache miss path)."""
        parts = literal_parts(tok)
        out = NOT_URN
        if parts is not None:
            text = unescape_literal(parts[0])
            if text[:4].lower() == "urn:":
                canonical, info = self.terms.compute(text)
                if info[0] != "ok" or parts[0] == canonical.encode("ascii"):
                    out = tok
                else:
                    # A canonical URN is ASCII without '"' or '\\': no escaping needed.
                    out = b'"' + canonical.encode("ascii") + b'"' + parts[1]
                self.info[tok] = (text, info, True)
        self.tokens[tok] = out
        return out

    def maybe_reset(self) -> bool:
        """Bounded memory: past _MAX_CACHE terms, flush the counts and restart the caches.

        Called between batches only, when no token is pending outside ``occ``. Returns True
        when the caches were restarted (callers drop anything derived from them).
        """
        if len(self.tokens) < _MAX_CACHE:
            return False
        self.flush()
        self.tokens.clear()
        self.info.clear()
        return True

    @abc.abstractmethod
    def flush(self) -> None:
        """Move the counts gathered since the last flush into the report."""

    def _statements(self, n: int) -> None:
        """Count *n* statements read (and written, for a rewriting pass)."""
        self.report.statements_in += n

    def slow_rows(
        self, chunk: bytes, lineno: int, source: str, on_error: OnError
    ) -> tuple[list[Row], NTriplesSyntaxError | None]:
        """The statements of a chunk not all in the fast layout, line by line.

        In "raise" mode the first malformed line stops the chunk and comes back as the error
        to raise once the rows before it are counted.
        """
        rows: list[Row] = []
        lines = io.BytesIO(chunk)  # the lines as readlines cuts them
        try:
            for s, p, o, g in _statements(lines, lineno, source, on_error, self.report):
                rows.append((s, p, o, g or b""))
        except NTriplesSyntaxError as e:
            return rows, e
        return rows, None

    def run_chunk(self, chunk: bytes, lineno: int, source: str, on_error: OnError) -> bytes:
        """The output for *chunk*, whole lines whose first is line *lineno* of *source*.

        Raises :class:`NTriplesSyntaxError` (``on_error="raise"``) after counting the
        statements before the malformed line.
        """
        if self._c is not None:
            # The accelerator rewrites a chunk in the usual layout (None: any other chunk).
            done = self._c.rewrite(
                chunk, self.tokens, self.occ, self.iri, self.literal, self.literals,
                self.info, _prefixes, _POLICY_OK, self.ignore_components,
            )
            if done is not None:
                out: bytes = done[0]
                self._statements(done[1])
                self.maybe_reset()
                return out
        # Most chunks are all statements in the usual layout: one C call splits them.
        rows = _ROWS.findall(chunk)
        error = None
        if len(rows) != chunk.count(b"\n") or not chunk.endswith(b"\n"):
            rows, error = self.slow_rows(chunk, lineno, source, on_error)
        out = self.rewrite(rows)
        if error is not None:
            raise error
        self.maybe_reset()
        return out

    def rewrite(self, rows: list[Row]) -> bytes:
        """The output lines of *rows*, their URNs counted for the report."""
        get = self.tokens.get
        iri = self.iri
        literal = self.literal
        literals = self.literals
        out: list[bytes] = []
        append = out.append
        # URN tokens met, once per statement; counted in C at the end.
        urns: list[bytes] = []
        add_urn = urns.append
        # The subject usually repeats on consecutive lines (N-Triples dumps are grouped by
        # subject): comparing with the previous one is cheaper than hashing it again.
        prev_s: bytes | None = None
        prev_v: bytes = NOT_URN
        for row in rows:
            s, p, o, g = row
            if s != prev_s:
                prev_s = s
                if s[0] == 60:  # '<': an IRI (else a blank node)
                    v = get(s)
                    prev_v = iri(s) if v is None else v
                else:
                    prev_v = NOT_URN
            if prev_v:
                add_urn(s)
                s = prev_v
            v = get(p)
            if v is None:
                v = iri(p)
            if v:
                if p != prev_s:
                    add_urn(p)
                p = v
            c = o[0]
            if c == 60:
                v = get(o)
                if v is None:
                    v = iri(o)
                if v:
                    if o not in (prev_s, row[1]):
                        add_urn(o)
                    o = v
            elif c == 34 and literals and o[1] in _URN_START:
                v = get(o)
                if v is None:
                    v = literal(o)
                if v:
                    add_urn(o)
                    o = v
            if not g:
                append(b"%s %s %s .\n" % (s, p, o))
                continue
            if g[0] == 60:
                v = get(g)
                if v is None:
                    v = iri(g)
                if v:
                    if g not in (prev_s, row[1], row[2]):
                        add_urn(g)
                    g = v
            append(b"%s %s %s %s .\n" % (s, p, o, g))
        _count_elements(self.occ, urns)
        self._statements(len(rows))
        return b"".join(out)

    def run(
        self,
        chunks: Iterable[bytes],
        source: str,
        first_line: int,
        on_error: OnError,
    ) -> Generator[bytes, None, None]:
        """The output of each chunk (whole lines) of the input, in order."""
        lineno = first_line
        try:
            for chunk in chunks:
                yield self.run_chunk(chunk, lineno, source, on_error)
                lineno += line_count(chunk)
        finally:
            self.flush()


class _CanonPass(_Pass):
    report: CanonicalizeReport

    def __init__(
        self, report: CanonicalizeReport, *, literals: bool, ignore_components: bool
    ) -> None:
        super().__init__(literals=literals, ignore_components=ignore_components)
        self.report = report

    def _statements(self, n: int) -> None:
        self.report.statements_in += n
        self.report.statements_out += n

    def flush(self) -> None:
        report = self.report
        info = self.info
        if self._c is not None and self.occ:
            # The same aggregation in one C call (record_invalid's order kept).
            occurrences, rewritten, clusters, nids, dropped, invalid = self._c.canon_counts(
                self.occ, info, report._clusters.limit
            )
            for spelling, reason, n in invalid:
                report.record_invalid(spelling, reason, n)
            report._add_urn_counts(occurrences, rewritten, clusters, nids, dropped)
            self.occ.clear()
            return
        valid: list[tuple[str, str, str, int, str | None]] = []
        for tok, n in self.occ.items():
            spelling, inf, _literal = info[tok]
            if inf[0] == "ok":
                valid.append((spelling, str(inf[1]), str(inf[2]), n, inf[3]))
            else:
                report.record_invalid(spelling, str(inf[1]), n)
        report.record_urns(valid)
        self.occ.clear()


def _line_chunks(lines: Iterable[bytes]) -> Iterator[bytes]:
    """Join lines into chunks of _BATCH_LINES lines (a line without its newline ends one)."""
    it = iter(lines)
    while True:
        batch = list(itertools.islice(it, _BATCH_LINES))
        if not batch:
            return
        # A last line without "\n" (or a caller's odd "line") must not run into the next.
        start = 0
        for i, line in enumerate(batch):
            if not line.endswith(b"\n"):
                yield b"".join(batch[start : i + 1])
                start = i + 1
        if start < len(batch):
            yield b"".join(batch[start:])


def canonicalize_lines(
    lines: Iterable[bytes],
    *,
    source: str = "<stdin>",
    first_line: int = 1,
    ignore_components: bool = False,
    literals: bool = False,
    report: CanonicalizeReport | None = None,
    on_error: OnError = "raise",
) -> Iterator[bytes]:
    r"""Canonicalize the URNs in N-Triples / N-Quads lines; yield the output lines.

    ``lines`` are raw lines (bytes, with or without their ``\n``), numbered from ``first_line``
    for error messages. Counts go to ``report`` (its ``ignore_components``/``literals`` are set
    to the options of this pass); the report is complete once the iterator is exhausted or
    closed. A malformed line is recorded in the report (source and line number) and raises
    :class:`NTriplesSyntaxError`, or with ``on_error="report"`` is skipped.

    >>> from urnld.report import CanonicalizeReport
    >>> r = CanonicalizeReport()
    >>> list(canonicalize_lines([b"<a> <b> <c>\n", b"<urn:EXAMPLE:1> <b> <c> .\n"], report=r,
    ...                         on_error="report"))
    [b'<urn:example:1> <b> <c> .\n']
    >>> [str(e) for e in r.errors]
    ["<stdin>:1: statement does not end with '.'"]
    """
    if report is None:
        report = CanonicalizeReport()
    report.ignore_components = ignore_components
    report.literals = literals
    state = _CanonPass(report, literals=literals, ignore_components=ignore_components)
    for chunk in state.run(_line_chunks(lines), source, first_line, on_error):
        yield from io.BytesIO(chunk)


class _CheckPass(_Pass):
    """The check pass: the canonicalize pass's line loop over URN IRIs and literals (its output
    is not kept), each distinct spelling checked once per cache generation."""

    report: CheckReport

    def __init__(self, report: CheckReport) -> None:
        super().__init__(literals=True)
        self.report = report
        self._findings: dict[str, tuple[list[Any], str | None, str | None]] = {}

    def _analyse(
        self, spelling: str, inf: tuple[str | None, ...]
    ) -> tuple[list[Any], str | None, str | None]:
        hit = self._findings.get(spelling)
        if hit is not None:
            return hit
        findings = check(spelling)
        canonical = nid = None
        if inf[0] == "ok":
            # The term rule's canonical form and NID are the parsed URN's (no second parse).
            canonical, nid = inf[1], inf[2]
        else:
            try:
                urn = URN.parse(spelling)
            except URNError:
                pass
            else:
                canonical, nid = urn.canonical_str, urn.nid.lower()
        res = (findings, canonical, nid)
        if len(self._findings) >= _MAX_CACHE:
            self._findings.clear()
        self._findings[spelling] = res
        return res

    def flush(self) -> None:
        report = self.report
        for tok, n in self.occ.items():
            spelling, inf, is_literal = self.info[tok]
            findings, canonical, nid = self._analyse(spelling, inf)
            report.record_urn(
                spelling, findings, canonical=canonical, nid=nid, literal=is_literal, count=n
            )
        self.occ.clear()


def check_lines(
    lines: Iterable[bytes],
    *,
    source: str = "<stdin>",
    first_line: int = 1,
    report: CheckReport,
    on_error: OnError = "report",
) -> None:
    r"""Scan N-Triples / N-Quads lines for URNs (IRIs and literals) and fill ``report``.

    A literal is scanned when it is plain, ``xsd:string`` or ``xsd:anyURI`` and its whole
    lexical form starts with ``urn:`` (any case). Malformed lines are recorded in the report
    (and raise :class:`NTriplesSyntaxError` with ``on_error="raise"``).

    >>> from urnld.report import CheckReport
    >>> r = CheckReport()
    >>> check_lines([b'<urn:isbn:0-395-36341-2> <p> "urn:x-y:z" .\n'], report=r)
    >>> sorted(r.invalid)
    ['urn:isbn:0-395-36341-2', 'urn:x-y:z']
    """
    for _ in _CheckPass(report).run(_line_chunks(lines), source, first_line, on_error):
        pass


# -- files --------------------------------------------------------------------------------


def _is_gzip(path: str) -> bool:
    return path.endswith(".gz")


@contextlib.contextmanager
def _open_in(path: str | os.PathLike[str]) -> Iterator[tuple[IO[bytes], int | None]]:
    """Open an input for binary reading: ``-`` is stdin, ``.gz`` is decompressed.

    Also yields the size in bytes of the underlying file (for progress), when known.
    """
    p = os.fspath(path)
    if p == "-":
        yield sys.stdin.buffer, None
        return
    raw = open(p, "rb")  # noqa: SIM115  # closed below, also wrapped by gzip
    try:
        size = os.fstat(raw.fileno()).st_size
        if _is_gzip(p):
            import gzip  # here: plain inputs, the common case, do not pay for it

            with gzip.GzipFile(fileobj=raw, mode="rb") as gz:
                yield gz, size  # type: ignore[misc]  # GzipFile is a binary IO
        else:
            yield raw, size
    finally:
        raw.close()


@contextlib.contextmanager
def atomic_output(path: str | os.PathLike[str]) -> Iterator[IO[bytes]]:
    """Write to a temporary file next to ``path``; rename it over ``path`` only on success.

    ``-`` writes to stdout. A ``.gz`` path is gzip-compressed. On any exception the temporary
    file is removed and ``path`` is untouched, so a failure never leaves a truncated output.
    """
    p = os.fspath(path)
    if p == "-":
        yield sys.stdout.buffer
        sys.stdout.buffer.flush()
        return
    directory = os.path.dirname(os.path.abspath(p))
    import tempfile  # here, as gzip: not on the import path of urnld.stream

    fd, tmp = tempfile.mkstemp(prefix=".urnld-", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as raw:
            if _is_gzip(p):
                import gzip

                with gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=6, mtime=0) as gz:
                    yield gz  # type: ignore[misc]  # GzipFile is a binary IO
            else:
                yield raw
        os.replace(tmp, p)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


class _Progress:
    """A one-line progress display on stderr (only when stderr is a terminal)."""

    def __init__(self, total: int | None, label: str, enabled: bool | None) -> None:
        if enabled is None:
            enabled = sys.stderr.isatty()
        self.enabled = enabled
        self.total = total
        self.label = label
        self.start = time.monotonic()
        self.last = 0.0

    def update(self, done: int, statements: int) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self.last < 0.25:
            return
        self.last = now
        rate = statements / max(now - self.start, 1e-9)
        pct = f"{100 * done / self.total:5.1f}% " if self.total else ""
        sys.stderr.write(f"\r{self.label}: {pct}{statements:,} statements ({rate:,.0f}/s)   ")
        sys.stderr.flush()

    def close(self) -> None:
        if self.enabled:
            sys.stderr.write("\r" + " " * 70 + "\r")
            sys.stderr.flush()


def _read_chunks(
    f: IO[bytes], counter: Callable[[int], None] | None = None, size: int | None = None
) -> Iterator[bytes]:
    """The input in chunks of whole lines, about *size* bytes each (a last line may lack
    its newline). Cheaper than lines: the fast path splits a chunk in one regex call."""
    raw: Any = getattr(f, "fileobj", None) or f  # compressed position for .gz
    size = size or _CHUNK_BYTES
    read = getattr(f, "read1", f.read)  # what is there, without waiting for a full block
    carry = b""
    while True:
        block = read(size)
        if not block:
            if carry:
                yield carry
            return
        if counter is not None:
            with contextlib.suppress(OSError, ValueError, AttributeError):
                counter(raw.tell())
        data = carry + block if carry else block
        cut = data.rfind(b"\n") + 1
        if cut == 0:  # a line longer than a block: keep reading
            carry = data
            continue
        carry = data[cut:]
        yield data[:cut] if carry else data


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
            if got >= _MIN_PARALLEL_BYTES:
                break
        size = got if got < _MIN_PARALLEL_BYTES else None
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
    progress: bool | None = None,
    jobs: int | None = None,
) -> CanonicalizeReport:
    """Canonicalize an N-Triples / N-Quads file (``.gz`` in and out supported) into ``out_path``.

    The output is written to a temporary file and renamed, so it appears only complete; the
    input is only read. ``-`` means stdin / stdout. ``progress=None`` shows a progress line on
    stderr when it is a terminal. ``jobs`` worker processes share the work (``None``: one per
    CPU for inputs over 8 MiB, else 1); output and report are the same for any ``jobs``.
    Returns the report.

    >>> import tempfile, os
    >>> d = tempfile.mkdtemp()
    >>> with open(os.path.join(d, "in.nt"), "wb") as f:
    ...     _ = f.write(b"<URN:EXAMPLE:a> <http://e/p> <urn:example:a> .\\n")
    >>> r = canonicalize_file(os.path.join(d, "in.nt"), os.path.join(d, "out.nt"))
    >>> open(os.path.join(d, "out.nt"), "rb").read()
    b'<urn:example:a> <http://e/p> <urn:example:a> .\\n'
    """
    if report is None:
        report = CanonicalizeReport()
    if jobs is not None and jobs < 1:
        raise ValueError(f"jobs must be >= 1, got {jobs!r}")
    source = "<stdin>" if os.fspath(in_path) == "-" else os.fspath(in_path)
    with _open_in(in_path) as (fin, size):
        bar = _Progress(size, "canonicalize", progress)
        report.ignore_components = ignore_components
        report.literals = literals
        pos = [0]

        def counter(p: int) -> None:
            pos[0] = p

        chunks, n_jobs = _jobs_for(_read_chunks(fin, counter), size, jobs)
        outputs: Generator[bytes, None, None]
        if n_jobs > 1:
            # The workers' counts reach the report only at the end: progress comes from them
            # as their chunks complete.
            outputs = canonicalize_chunks(
                chunks, jobs=n_jobs, report=report, source=source, on_error=on_error,
                literals=literals, ignore_components=ignore_components,
                on_progress=lambda n: bar.update(pos[0], n),
            )
        else:
            state = _CanonPass(report, literals=literals, ignore_components=ignore_components)
            outputs = state.run(chunks, source, 1, on_error)
        try:
            with atomic_output(out_path) as fout:
                for chunk in outputs:
                    fout.write(chunk)
                    if n_jobs == 1:
                        bar.update(pos[0], report.statements_in)
        finally:
            # On an error, stop the workers now rather than when the traceback is freed.
            outputs.close()
            bar.close()
    return report


def check_file(
    path: str | os.PathLike[str],
    *,
    report: CheckReport | None = None,
    on_error: OnError = "report",
    jobs: int | None = None,
) -> CheckReport:
    """Check the URNs of an N-Triples / N-Quads file (plain or ``.gz``; ``-`` = stdin).

    ``jobs`` worker processes share the work, as in :func:`canonicalize_file` (``None``: one
    per CPU for inputs over 8 MiB, else 1); the report is the same for any ``jobs``.

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
    with _open_in(path) as (fin, size):
        chunks, n_jobs = _jobs_for(_read_chunks(fin), size, jobs)
        if n_jobs > 1:
            check_chunks(chunks, jobs=n_jobs, report=report, source=source, on_error=on_error)
        else:
            for _ in _CheckPass(report).run(chunks, source, 1, on_error):
                pass
    return report
