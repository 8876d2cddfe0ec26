"""The native quad path: Turtle, TriG, N-Triples and N-Quads read by libserd, each statement
through the line pass's term rule in C, and written again in C (no Python per statement, no
N-Quads text between stages).

Where the compiled accelerator was built with libserd (``pkg-config serd-0`` at install;
``urnld --version`` says so) and ``URNLD_SERD=0`` is not set, :func:`urnld.stream.canonicalize_file`
and :func:`urnld.stream.check_file` take this path for those four syntaxes in and out (other
than N-Triples / N-Quads in and out, which the line pass reads itself); everywhere else, and
for the spelling modes whose misses must all reach Python, the pyoxigraph path of
:mod:`urnld.stream._syntaxes` runs, with the same statements and reports.

What serd reads goes through the pass of :mod:`urnld.stream._passes` unchanged: each URN term
is looked up as the N-Triples token pyoxigraph would have written for it (``<iri>``, or the
literal with its escapes and datatype), with the same caches, verdicts and per-statement
counts, so the report of a Turtle file is the report of its statements as N-Triples, by
construction. The guards are those of the pyoxigraph path (the URN-base search in every block
read, then the reader's guard before any output is kept), and the bounds are enforced before
serd reads a byte: brackets nested past 1,000 levels, a token past 16 MiB (pyoxigraph's own
bound), and blank-node labels of both the ``_:b1`` and the ``_:B1`` style, which serd renames
into one another (such a document goes to pyoxigraph when that is seen in its first MiB, and is
refused otherwise).

>>> usable("turtle", "turtle") == available(), usable("xml", "turtle")
(True, False)
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from typing import IO, Final

from .._core import accel as _accel
from .._kernel import collector_paused
from ._names import RDFSyntaxError
from ._passes import _SPELLING_TOKEN, CanonPass, CheckPass
from ._stage_c import output_prefixes

__all__ = [
    "MAX_DEPTH",
    "MAX_TOKEN",
    "SERD_SYNTAXES",
    "SerdUnfit",
    "available",
    "faithful",
    "reader_names",
    "run",
    "usable",
]

#: serd's numbers for the syntaxes it reads and this path writes.
SERD_SYNTAXES: Final = {"turtle": 1, "nt": 2, "nquads": 3, "trig": 4}
#: The deepest nesting of ``[`` and ``(`` read (serd recurses once per level).
MAX_DEPTH: Final = 1000
#: The longest token read, in bytes (pyoxigraph's bound too).
MAX_TOKEN: Final = 16 << 20
#: Statements per chunk handed back to Python (the report's batch, the progress step).
CHUNK_STATEMENTS: Final = 8192
#: ``URNLD_SERD=0`` (at run time) sends every syntax through pyoxigraph.
SWITCH_ENV: Final = "URNLD_SERD"


class SerdUnfit(Exception):  # a signal, not an error the caller sees
    """The document cannot be read faithfully by serd, and nothing was read or written yet:
    the caller reads it with pyoxigraph instead."""


def available() -> bool:
    """Whether the serd reader is built in and switched on (``URNLD_SERD`` is not ``0``).

    >>> isinstance(available(), bool)
    True
    """
    c = _accel.speedups
    return (c is not None and hasattr(c, "serd_pass")
            and os.environ.get(SWITCH_ENV, "") not in ("0", "no", "false"))


def reader_names() -> dict[str, str]:
    """Which reader each streamed syntax goes through in this process: ``"serd X.Y.Z"``,
    ``"pyoxigraph"`` or ``"line pass"`` (N-Triples and N-Quads read and written as they are).

    >>> sorted(reader_names())[:3]
    ['json-ld', 'n3', 'nquads']
    """
    c = _accel.speedups
    serd = dict(c.readers()).get("serd") if c is not None else None
    on = serd is not None and available()
    names: dict[str, str] = {}
    for name in ("turtle", "trig", "nt", "nquads", "n3", "xml", "json-ld"):
        if name in ("nt", "nquads"):
            names[name] = f"line pass (to other syntaxes: {f'serd {serd}' if on else 'pyoxigraph'})"
        elif on and name in SERD_SYNTAXES:
            names[name] = f"serd {serd}"
        else:
            names[name] = "pyoxigraph"
    return names


def faithful(path: str, *, order: bool = True, turtle: bool = True) -> bool:
    """Whether the serd path reads the Turtle or TriG file *path* exactly as the pyoxigraph
    path does: not both the ``_:b1`` and the ``_:B1`` label style, which serd renames into
    one another; no collections or blank-node property lists nested past :data:`MAX_DEPTH`
    (serd recurses into each level; pyoxigraph reads them); and (with *order*, when output is
    written) no anonymous blank node (``[ ]``) and no collection (``( )``), whose statements
    pyoxigraph gives in an order of its own and under labels it invents. A search for the
    bytes ``[``, ``(`` and ``_:B`` first (most files hold none: one read of the file); where
    one is found, the scanner reads the whole file (no parse: a few milliseconds a MB). In any
    syntax (*turtle* False: N-Triples, N-Quads, only this is looked for), no NUL byte: serd
    takes one for the end of the document.

    Always False where the accelerator was built without libserd (or in pure Python):

    >>> import tempfile, os
    >>> serd = hasattr(_accel.speedups, "serd_probe")
    >>> with tempfile.NamedTemporaryFile("wb", suffix=".ttl", delete=False) as f:
    ...     _ = f.write(b'<a:s> <a:p> "[x]" , _:b1 .')
    >>> faithful(f.name) == serd
    True
    >>> with open(f.name, "wb") as g:
    ...     _ = g.write(b'<a:s> <a:p> [ <a:q> 1 ] .')
    >>> (faithful(f.name), faithful(f.name, order=False)) == (False, serd)
    True
    >>> os.unlink(f.name)
    """
    from .._kernel import open_input

    c = _accel.speedups
    if c is None or not hasattr(c, "serd_probe"):
        return False
    if path == "-":
        return not turtle  # N-Triples on stdin is read once (the pass refuses a NUL byte)
    marks = (b"[", b"(", b"_:B") if turtle else ()
    with open_input(path) as (fin, _size):
        tail = b""
        while block := fin.read(1 << 20):
            if b"\0" in block:
                return False
            # "_:B" may straddle two blocks: the last two bytes go with the next (bytes'
            # own search, a few times faster than one regular expression for all three)
            seam = tail + block[:2]
            if any(m in block or m in seam for m in marks):
                break
            tail = block[-2:]
        else:
            return True
    if not turtle:
        return True
    with open_input(path) as (fin, _size):
        anonymous, both_styles, unfit = c.serd_probe(fin.read)
    return not (both_styles or unfit or (order and anonymous))


def usable(in_fmt: str, out_fmt: str | None) -> bool:
    """Whether the serd path reads *in_fmt* and writes *out_fmt* (None: a check)."""
    return (available() and in_fmt in SERD_SYNTAXES
            and (out_fmt is None or out_fmt in SERD_SYNTAXES))


def _text(data: bytes) -> str:
    return data.decode("utf-8", "replace")


def run(
    fin: IO[bytes] | Callable[[int], bytes],
    syntax: str,
    state: CanonPass | CheckPass,
    *,
    out: IO[bytes] | None = None,
    out_syntax: str | None = None,
    source: str,
    base: str | None,
    on_chunk: Callable[[], None] | None = None,
    directive: Callable[[str, str, str], str | None] | None = None,
    path: str | None = None,
    prefixes: Mapping[str, str] | None = None,
    relabel: Callable[[bytes], bytes] | None = None,
) -> int:
    """Read *fin* (a binary stream or its ``read``) in *syntax* through *state*'s term rule,
    writing the output to *out* in *out_syntax* (None: a check). Returns the statements read.

    *base* is the document's base IRI (None: relative IRIs are an error). ``on_chunk()`` runs
    after each chunk's counts reached the report and before its output is written (the guard,
    progress); ``directive(kind, name, iri)`` says what an ``@prefix`` (``kind="prefix"``) or
    ``@base`` of the input becomes in Turtle or TriG output: the namespace to write, or None
    (default: the input's, a URN namespace in its canonical case). *path*, the input's file
    (when it is one), is read again to tell where a string that does not end began.

    With *prefixes* (Turtle, TriG output), the output starts with those prefixes and uses
    them throughout, and the input's ``@prefix`` and ``@base`` are not written (what the
    pyoxigraph path writes: :func:`header_prefixes`). *relabel* gives the output label of each
    blank-node label of Turtle or TriG input that :class:`urnld._kernel.BlankLabels` may
    rename. Raises
    :class:`RDFSyntaxError` for a document that cannot be read, :class:`SerdUnfit` when the
    pyoxigraph path must read it (nothing was counted or written).
    """
    c = _accel.speedups
    if c is None or not hasattr(c, "serd_pass"):
        raise RuntimeError("the serd reader is not built in")
    ctx = state.serd_context()
    if ctx is None:
        raise SerdUnfit(source)
    read = fin if callable(fin) else getattr(fin, "read1", fin.read)
    writer = out.write if out is not None else None
    statements_done = 0

    def emit(data: bytes | None, n: int) -> None:
        nonlocal statements_done
        statements_done += n
        state._statements(n)
        state.after_chunk()
        if on_chunk is not None:
            on_chunk()
        if data and writer is not None:
            writer(data)

    def told(kind: str, name: bytes, iri: bytes) -> bytes | None:
        text = _text(iri)
        if directive is not None:
            chosen = directive(kind, _text(name), text)
        elif kind == "prefix":
            chosen = output_prefixes({_text(name): text}).get(_text(name))
        else:
            chosen = text
        return None if chosen is None else chosen.encode("utf-8")

    out_code = SERD_SYNTAXES[out_syntax] if out_syntax is not None else 0
    header = None
    if prefixes is not None:
        # pyoxigraph's writer lists them longest namespace first (ties in the given order)
        header = tuple(sorted(((name.encode("utf-8"), ns.encode("utf-8"))
                               for name, ns in output_prefixes(prefixes).items()),
                              key=lambda pair: -len(pair[1])))
    config = (SERD_SYNTAXES[syntax], out_code, base, _SPELLING_TOKEN, CHUNK_STATEMENTS,
              relabel if out_code else None, header if out_code else None)
    # The pass makes hundreds of thousands of cache entries and none of them can be in a
    # reference cycle: the cyclic collector would walk the caches again and again for nothing.
    with collector_paused():
        try:
            statements, error = c.serd_pass(
                read, emit, told if out_code and prefixes is None else None, config, ctx)
        finally:
            state.flush()
    if error is not None:
        kind, message, line, column = error
        raise _error(kind, _text(message), line, column, source=source, syntax=syntax,
                     out_syntax=out_syntax, statements=statements, counted=statements_done,
                     path=path)
    return int(statements)


def _error(
    kind: str, message: str, line: int, column: int, *, source: str, syntax: str,
    out_syntax: str | None, statements: int, counted: int, path: str | None = None,
) -> Exception:
    """The exception for a document the pass stopped on."""
    if kind == "labels" and statements == 0 and counted == 0:
        return SerdUnfit(message)
    if kind == "labels":
        reason = (f"{message}: serd, urnld's reader of {syntax}, renames one into the other, and "
                  "the second style was met after statements were written; set URNLD_SERD=0 to "
                  "read the document with pyoxigraph")
    elif kind == "nul":
        reason = (f"cannot parse as {syntax}: a NUL byte (U+0000), which serd, urnld's reader "
                  f"of {syntax}, takes for the end of the document; set URNLD_SERD=0 to read it "
                  "with pyoxigraph")
    elif kind == "depth":
        reason = (f"cannot parse as {syntax}: collections or blank-node property lists nested "
                  f"more than {MAX_DEPTH:,} levels deep: refused (nested too deeply)")
    elif kind == "token":
        reason = (f"cannot parse as {syntax}: one token (literal, IRI, string) is too long: "
                  f"more than {MAX_TOKEN:,} bytes (bounded memory)")
    elif kind == "graph":
        reason = (f"holds statements in named graphs, which {out_syntax} cannot write; write "
                  "trig, nquads or json-ld")
    else:
        reason = f"cannot parse as {syntax}: {message}"
    if kind == "syntax" and message.endswith(" in short string") and line and path is not None:
        # serd says where the line ended; the quote that opened the string is what to fix
        quote = _open_quote(path, line)
        if quote is not None:
            reason = (f"cannot parse as {syntax}: the string literal opened here does not end "
                      "on its line (a newline in a string literal needs triple quotes or \\n)")
            return RDFSyntaxError(source, reason, line, quote, statement=statements)
    if kind == "syntax" and line:
        return RDFSyntaxError(source, reason, line, column or None, statement=statements)
    return RDFSyntaxError(source, reason, statement=statements)


def _open_quote(path: str, line: int) -> int | None:
    """The 1-based column of the quote that opens the short string left open at the end of
    line *line* of the file *path*, when that line tells (it does not start inside a long
    string)."""
    import itertools

    from .._kernel import open_input
    from ._chunks import read_lines

    try:
        with open_input(path) as (f, _size):
            text = next(itertools.islice(read_lines(f, source=path), line - 1, None), None)
    except (OSError, ValueError):
        return None
    if text is None:
        return None
    return open_quote_column(text)


def open_quote_column(text: bytes) -> int | None:
    """The 1-based column of the quote of a short string literal that *text* (one line of
    Turtle) leaves open, or None.

    >>> open_quote_column(b'<urn:ex:a> <http://e/p> "unterminated .\\n')
    25
    >>> open_quote_column(b'<a> <b> "x" . # "y') is None
    True
    """
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == 35:  # '#': a comment to the line's end
            return None
        if c == 60:  # '<': an IRI
            end = text.find(b">", i + 1)
            if end < 0:
                return None
            i = end + 1
        elif c in (34, 39):  # a quote
            if text[i:i + 3] == bytes([c]) * 3:  # a long string: to its end on this line
                end = text.find(bytes([c]) * 3, i + 3)
                if end < 0:
                    return None
                i = end + 3
                continue
            j = i + 1
            while j < n and text[j] != c and text[j] not in (10, 13):
                j += 2 if text[j] == 92 else 1
            if j >= n or text[j] != c:
                return i + 1
            i = j + 1
        elif c == 92:  # '\\' outside strings: an escaped character of a name
            i += 2
        else:
            i += 1
    return None
