"""The streaming passes: rewrite (canonicalize) and check, over chunks of N-Triples lines.

A pass keeps a cache of raw token -> output token (bytes, so repeated terms cost one dict
read), asks the term rule (:mod:`urnld._kernel`) about each distinct URN once, counts URN
occurrences per statement, and moves the counts into its report with the report's own filling
method (:meth:`~urnld.report.CanonicalizeReport.record_verdicts`,
:meth:`~urnld.report.CheckReport.record_check`), as every other path does.
"""

from __future__ import annotations

import abc
import collections
import io
import re
from collections.abc import Callable, Generator, Iterable, Iterator
from typing import ClassVar, Final, Literal, cast

from .._core import Policy
from .._core import accel as _accel
from .._kernel import (
    DEFAULT_OPTIONS,
    NO_SPELLINGS,
    POLICY_OK_NIDS,
    SPELLING,
    CanonOptions,
    SpellingOptions,
    TermCache,
    TermRule,
    TermVerdict,
    is_urn_like,
    repair_code,
    repair_prefixes,
    without_repair_nids,
)
from ..namespaces import PREFIXES
from ..report import CanonicalizeReport, CheckReport
from ._chunks import line_count
from ._grammar import (
    FAST_LINE,
    LINE,
    NOT_URN,
    NTriplesSyntaxError,
    describe,
    is_blank_or_comment,
    literal_parts,
    unescape_iri,
    unescape_literal,
)

__all__ = ["MAX_CACHE", "CanonPass", "CheckPass", "OnError", "statements"]

OnError = Literal["raise", "report"]

# C helper behind Counter.update: counts a list of tokens into a dict without a Python loop.
_count_elements: Callable[[dict[bytes, int], list[bytes]], None] = (
    collections._count_elements  # type: ignore[attr-defined]
)
# First byte of a token that may be a URN once unescaped: 'u', 'U' or a '\\' escape.
_URN_START = frozenset(b"uU\\")

# The predicate of spelling records as N-Triples writes it: their literal is not a URN term.
_SPELLING_TOKEN: Final = b"<" + SPELLING.encode("ascii") + b">"

#: Distinct terms whose output is cached; past it the caches restart (bounded memory).
MAX_CACHE = 50_000


def statements(
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
            reason = describe(line)
            report.record_error(source, i, reason)
            if on_error == "raise":
                raise NTriplesSyntaxError(source, i, reason, line)


# Statements in the layout most dumps use (FAST_LINE), matched at line starts: findall gives
# (s, p, o, g) tuples for a whole batch in one C call, g b"" for a triple. Every match is one
# whole line (no token holds a newline), so a batch is clean when matches == lines.
_ROWS: Final = re.compile(rb"(?m)^" + FAST_LINE.pattern)
Row = tuple[bytes, bytes, bytes, bytes]

#: The default validation policy (RFC 8141's NID rules as warnings and errors, no overrides).
DEFAULT_POLICY: Final = Policy()


class _Pass(abc.ABC):
    """State shared by the canonicalize and check passes: term caches and occurrence counts."""

    report: CanonicalizeReport | CheckReport
    # The verdicts the compiled rewrite makes for the URNs it meets (None: it records their
    # spellings only, and writes every term as it is).
    _verdict_type: ClassVar[type[TermVerdict] | None] = TermVerdict

    def __init__(
        self,
        *,
        literals: bool,
        ignore_components: bool = False,
        policy: Policy = DEFAULT_POLICY,
        spellings: SpellingOptions = NO_SPELLINGS,
    ) -> None:
        self.literals = literals
        self.ignore_components = ignore_components
        rule = TermRule(ignore_components=ignore_components, policy=policy, spellings=spellings)
        self.terms = TermCache(rule, max_size=MAX_CACHE)
        self.spellings = spellings
        # raw token -> (locator, canonical URN or "", NID, merged) for the locator modes' IRIs
        self.locs: dict[bytes, tuple[str, str, str | None, bool]] = {}
        # raw token -> output token (NOT_URN when the token is not a URN)
        self.tokens: dict[bytes, bytes] = {}
        # raw token -> (spelling, verdict, is_literal) for URN tokens, used when counts are
        # flushed (verdict None where the compiled rewrite made none: _verdict_type)
        self.info: dict[bytes, tuple[str, TermVerdict | None, bool]] = {}
        # raw URN token -> statements it occurs in (since the last flush)
        self.occ: dict[bytes, int] = {}
        # The compiled accelerator (None: pure Python), read once per pass. Its fast path knows
        # only the default policy's NID verdicts: any other policy runs the Python path.
        self._c = None if policy.strict or policy.severity else _accel.speedups
        # The locator modes: the compiled rewrite, which skips IRIs that cannot be URNs, sends
        # those that start like a locator (SpellingOptions.heads) to iri() all the same.
        self._divert = spellings.heads() if spellings.looks_at_iris else None
        # The locator modes' reader of an IRI (the resolver table looked up once per pass).
        self._read_locator = spellings.reader() if spellings.looks_at_iris else None
        # raw token -> the code of the repair its verdict came from (repair mode only)
        self.repaired: dict[bytes, str] = {}
        # What the compiled rewrite of the check pass judges a new spelling with at once (see
        # CheckPass); None: it does not.
        self._check_context: tuple[object, ...] | None = None

    def iri(self, tok: bytes) -> bytes:
        """Output for an IRI token (cache miss path)."""
        first = tok[1]
        if first not in _URN_START:
            if self._read_locator is not None:  # the locator modes look at every IRI
                return self._locator(tok)
            self.tokens[tok] = NOT_URN  # the common case: cannot be a URN
            return NOT_URN
        if first == 92 or b"\\" in tok:  # escapes to decode first
            text = unescape_iri(tok)
            urn = is_urn_like(text)
        else:
            urn = tok[2:5].lower() == b"rn:"
            text = tok[1:-1].decode("utf-8", "replace") if urn else ""  # see unescape_iri
        if not urn:
            out = NOT_URN
        elif self._verdict_type is None:
            # The check pass judges each spelling at the flush: a verdict here would be work
            # thrown away (its output is not kept either).
            out = tok
            self.info[tok] = (text, None, False)
        else:
            info = self.terms.verdict(text)
            if self.spellings.repair:
                self._note_repair(tok, text, info)
            out = tok  # invalid URNs are left exactly as they were, and so are canonical ones
            # Write the canonical bytes also when only N-Triples escapes differ.
            if info.nid is not None and (info.output != text or first == 92 or b"\\" in tok):
                new = info.output.encode("ascii")  # a valid URN is ASCII
                if tok[1:-1] != new:
                    out = b"<" + new + b">"
            self.info[tok] = (text, info, False)
        self.tokens[tok] = out
        return out

    def _note_repair(self, tok: bytes, text: str, info: TermVerdict) -> None:
        """Remember that *tok*'s verdict came from a repair (cache miss path, repair mode)."""
        code = repair_code(text, info, self.ignore_components)
        if code is not None:
            self.repaired[tok] = code

    def _locator(self, tok: bytes) -> bytes:
        """Output for an IRI token that is no URN under the locator modes (cache miss path)."""
        text = unescape_iri(tok) if b"\\" in tok else tok[1:-1].decode("utf-8", "replace")
        read = self._read_locator
        urn = read(text) if read is not None else self.spellings.locator(text)
        out = NOT_URN
        if urn is not None:
            merge = self.spellings.locators == "merge"
            if not urn:
                self.locs[tok] = (text, "", None, False)
                out = tok
            else:
                v = self.terms.verdict(urn)
                if v.nid is not None:
                    self.locs[tok] = (text, v.output, v.nid, merge)
                    out = b"<" + v.output.encode("ascii") + b">" if merge else tok
        self.tokens[tok] = out
        return out

    def literal(self, tok: bytes) -> bytes:
        """Output for a literal token that may hold a URN (cache miss path)."""
        parts = literal_parts(tok)
        out = NOT_URN
        if parts is not None:
            text = unescape_literal(parts[0])
            if is_urn_like(text) and self._verdict_type is None:
                out = tok  # the check pass: the spelling only (see iri())
                self.info[tok] = (text, None, True)
            elif is_urn_like(text):
                info = self.terms.verdict(text)
                if self.spellings.repair:
                    self._note_repair(tok, text, info)
                canonical = info.output.encode("ascii") if info.nid is not None else None
                if canonical is None or parts[0] == canonical:
                    out = tok
                else:
                    # A canonical URN is ASCII without '"' or '\\': no escaping needed.
                    out = b'"' + canonical + b'"' + parts[1]
                self.info[tok] = (text, info, True)
        self.tokens[tok] = out
        return out

    def after_chunk(self) -> None:
        """End a batch where it is due. Past MAX_CACHE terms, flush the counts and restart the
        caches (bounded memory); past the report's cap of distinct URN tokens, flush them.

        The second rule is for speed: a capped map of the report takes every key it is offered
        until its first prune, so a batch of many times the cap (a URN-dense file's first
        50,000 tokens) would be built up only to be cut back; batches of about the cap let the
        maps' limits turn most later keys away. The report does not depend on where batches end.

        Called between batches only, when no token is pending outside ``occ``.
        """
        if len(self.tokens) >= MAX_CACHE:
            self.flush()
            self.tokens.clear()
            self.info.clear()
            self.locs.clear()
            self.repaired.clear()
        elif len(self.occ) >= self.report.max_examples:
            self.flush()

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
            for s, p, o, g in statements(lines, lineno, source, on_error, self.report):
                rows.append((s, p, o, g or b""))
        except NTriplesSyntaxError as e:
            return rows, e
        return rows, None

    def serd_context(self) -> tuple[object, ...] | None:
        """What the serd reader's pass (:mod:`urnld.stream._serd`) takes to apply this pass's
        term rule: :meth:`_run_chunk`'s arguments of the compiled rewrite, after the chunk
        (None in the fast-path fields: every cache miss through :meth:`iri` and
        :meth:`literal`). None when it cannot: locator modes with a policy the compiled
        rewrite does not know (their misses must all reach :meth:`iri`)."""
        if self._c is None:
            if self._divert is not None:
                return None
            return (self.tokens, self.occ, self.iri, self.literal, self.literals,
                    None, None, None, None, None, None, None)
        prefixes: object
        if self.spellings.repair:
            ok_nids, prefixes = without_repair_nids(POLICY_OK_NIDS), repair_prefixes()
        else:
            ok_nids, prefixes = POLICY_OK_NIDS, PREFIXES
        return (self.tokens, self.occ, self.iri, self.literal, self.literals, self.info,
                prefixes, ok_nids, self.ignore_components, self._verdict_type, self._divert,
                self._check_context)

    def run_chunk(self, chunk: bytes, lineno: int, source: str, on_error: OnError) -> bytes:
        """The output for *chunk*, whole lines whose first is line *lineno* of *source*.

        Raises :class:`NTriplesSyntaxError` (``on_error="raise"``) after counting the
        statements before the malformed line.
        """
        return self._run_chunk(chunk, lineno, source, on_error)[0]

    def _run_chunk(
        self, chunk: bytes, lineno: int, source: str, on_error: OnError
    ) -> tuple[bytes, int]:
        """:meth:`run_chunk`'s output and the number of lines in *chunk*."""
        if self._c is not None:
            # The accelerator rewrites a chunk in the usual layout (None: any other chunk); the
            # literals of urnld's own spelling records are no URN terms, as in rewrite(). With
            # repairs, it canonicalizes on its own only URNs that no repair touches.
            prefixes: object
            if self.spellings.repair:
                ok_nids, prefixes = without_repair_nids(POLICY_OK_NIDS), repair_prefixes()
            else:
                ok_nids, prefixes = POLICY_OK_NIDS, PREFIXES
            done = self._c.rewrite(
                chunk, self.tokens, self.occ, self.iri, self.literal, self.literals,
                self.info, prefixes, ok_nids, self.ignore_components, self._verdict_type,
                _SPELLING_TOKEN, self._divert, self._check_context,
            )
            if done is not None:
                out: bytes = done[0]
                self._statements(done[1])
                self.after_chunk()
                return out, done[1]  # every line a statement: as many lines as statements
        # Most chunks are all statements in the usual layout: one C call splits them.
        rows = _ROWS.findall(chunk)
        error = None
        lines = chunk.count(b"\n")  # line_count(chunk), from the count this test needs
        if len(rows) != lines or not chunk.endswith(b"\n"):
            rows, error = self.slow_rows(chunk, lineno, source, on_error)
            lines = line_count(chunk)
        out = self.rewrite(rows)
        if error is not None:
            raise error
        self.after_chunk()
        return out, lines

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
            elif c == 34 and literals and o[1] in _URN_START and row[1] != _SPELLING_TOKEN:
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
                out, lines = self._run_chunk(chunk, lineno, source, on_error)
                yield out
                lineno += lines
        finally:
            self.flush()



class CanonPass(_Pass):
    """The rewrite pass: output lines with URNs canonical; counts into a CanonicalizeReport."""

    report: CanonicalizeReport

    def __init__(self, report: CanonicalizeReport, options: CanonOptions = DEFAULT_OPTIONS) -> None:
        super().__init__(
            literals=options.literals, ignore_components=options.ignore_components,
            policy=options.policy, spellings=options.spellings,
        )
        self.report = report

    def _statements(self, n: int) -> None:
        self.report.statements_in += n
        self.report.statements_out += n

    def _flush_spellings(self) -> None:
        """Move the locator tokens out of ``occ`` into the report, and count repairs."""
        report = self.report
        assert isinstance(report, CanonicalizeReport)
        locs = self.locs
        occ = self.occ
        if locs:
            # The locator tokens met since the last flush leave occ as they are recorded: one
            # walk over the smaller of the two (locs lives until the caches restart, occ until
            # the flush).
            pop = occ.pop
            met = locs if len(locs) <= len(occ) else [tok for tok in occ if tok in locs]
            report.record_locators([
                (loc, urn, nid, count, merged)
                for tok in met
                if (count := pop(tok, 0))
                for loc, urn, nid, merged in (locs[tok],)
            ])
        if self.repaired:
            counts: dict[str, int] = {}
            for tok, code in self.repaired.items():
                n = occ.get(tok)
                if n:
                    counts[code] = counts.get(code, 0) + n
            report.record_repairs(counts)

    def flush(self) -> None:
        if self.spellings:
            self._flush_spellings()
        # This pass's rewrite makes a verdict for every URN token (_verdict_type).
        info = cast("dict[bytes, tuple[str, TermVerdict, bool]]", self.info)
        report = self.report
        if self._c is not None and self.occ:
            # record_verdicts' aggregation in one C call (the invalid ones in the same order).
            occurrences, rewritten, clusters, nids, dropped, invalid = self._c.canon_counts(
                self.occ, info, report.cluster_limit
            )
            report.record_counts(occurrences, rewritten, clusters, nids, dropped, invalid=invalid)
        else:
            report.record_verdicts((info[tok][0], info[tok][1], n) for tok, n in self.occ.items())
        self.occ.clear()


class CheckPass(_Pass):
    """The check pass: the rewrite pass's line loop over URN IRIs and literals (its output is
    not kept), every URN spelling with its findings into a CheckReport."""

    report: CheckReport
    # The flush asks the check rule about each spelling: a canonicalization verdict per URN
    # at a cache miss would be work thrown away (neither the compiled rewrite nor iri() and
    # literal() make one).
    _verdict_type = None

    def __init__(
        self,
        report: CheckReport,
        policy: Policy = DEFAULT_POLICY,
        spellings: SpellingOptions = NO_SPELLINGS,
    ) -> None:
        super().__init__(literals=True, policy=policy, spellings=spellings)
        self.report = report
        # Recording spellings only, the compiled rewrite makes no NID verdict, and the flush
        # takes the findings from the token's entry or the term cache: both take any policy.
        self._c = _accel.speedups
        self._flush_c = _accel.speedups
        # The default policy: the compiled rewrite judges each new spelling when it first meets
        # its token (once per distinct token, not per occurrence), and the flush reads the
        # answer from the token's info entry instead of a cache keyed by spelling.
        self._check_context = self.terms.fast_check

    def flush(self) -> None:
        occ = self.occ
        if self.locs:
            met = [(tok, n) for tok, n in occ.items() if tok in self.locs]
            self.report.record_locators(
                (self.locs[tok][0], self.locs[tok][1], n) for tok, n in met if self.locs[tok][1]
            )
            for tok, _n in met:
                del occ[tok]
        if not occ:
            return
        report = self.report
        terms = self.terms
        checked = terms.checked
        info = self.info
        if self._flush_c is not None:
            # record_checks in one C call that adds to the report's maps; the term cache's dict
            # is read first, a miss checked in C where the accelerator knows the policy, else
            # by checked().
            report.add_batch(*self._flush_c.check_counts(
                occ, info, terms.checks, checked, report.batch_maps,
                terms.fast_check, terms.max_size,
            ))
        else:
            items = []
            for tok, n in occ.items():
                spelling, _inf, is_literal = info[tok]
                items.append((spelling, checked(spelling), is_literal, n))
            report.record_checks(items)
        occ.clear()
