"""Stage A of the streaming path for every syntax: pyoxigraph reads the input and hands the
statements on as N-Quads, in batches, in this process or (for a big file) in a child process
whose errors come back as urnld errors."""

from __future__ import annotations

import contextlib
import io
import itertools
import os
import re
import signal
import traceback
from collections.abc import Callable, Generator, Iterator
from typing import TYPE_CHECKING, Any, Final, NamedTuple

from .._kernel import SYNTAXES as SYNTAX_TABLE
from .._kernel import (
    open_input,
)
from ..errors import URNError, WorkerError
from ._lifeline import watch_parent
from ._names import RDFSyntaxError
from ._sniff import _CONTEXT_REF, _Sniffer

if TYPE_CHECKING:
    import pyoxigraph

__all__ = ["BATCH_STATEMENTS"]


#: Statements per chunk of stage A (about 1 MiB of N-Quads for typical data).
BATCH_STATEMENTS: Final = 8192

# pyoxigraph's position prefix of a parse error message.
_POSITION: Final = re.compile(r"^Parser error (?:at|between) line [^:]*: ")
_REMOTE_CONTEXT = "No LoadDocumentCallback"


def _ox_format(syntax: str) -> pyoxigraph.RdfFormat:
    import pyoxigraph

    return getattr(pyoxigraph.RdfFormat, SYNTAX_TABLE[syntax].oxigraph or "")  # type: ignore[no-any-return]


class _State:
    """What stage A learnt: the prefixes (before the first statement), statements, URN base."""

    def __init__(self) -> None:
        self.prefixes: dict[str, str] = {}
        self.statements = 0
        self.urn_base = False
        self.position = 0


def _convert(
    sniffer: _Sniffer, syntax: str, base_iri: str | None, source: str, state: _State,
) -> Iterator[bytes]:
    """Stage A: the input's statements as N-Quads, in chunks of whole lines."""
    import pyoxigraph

    fmt = _ox_format(syntax)
    nquads = pyoxigraph.RdfFormat.N_QUADS
    try:
        # The sniffer has the read() of a binary file, all pyoxigraph calls.
        parser = pyoxigraph.parse(input=sniffer, format=fmt, base_iri=base_iri)  # type: ignore[arg-type]
        first = True
        while True:
            buf = io.BytesIO()
            pyoxigraph.serialize(itertools.islice(parser, BATCH_STATEMENTS), buf, nquads)
            chunk = buf.getvalue()
            if first:
                state.prefixes = dict(parser.prefixes)
                first = False
            state.position = sniffer.position
            state.urn_base = sniffer.urn_base
            if not chunk:
                break
            state.statements += chunk.count(b"\n")
            yield chunk
        sniffer.drain()
        state.urn_base = sniffer.urn_base
    except SyntaxError as e:
        if sniffer.failure is not None:
            raise sniffer.failure from None
        error = _syntax_error(e, source, syntax, state.statements)
        if _REMOTE_CONTEXT in str(e):
            error = _remote_context_error(source, sniffer, state.statements)
        raise error from None
    except (OSError, ValueError):
        if sniffer.failure is not None:
            raise sniffer.failure from None
        raise
    except MemoryError as e:
        # pyoxigraph's own bound on one token ("Reached the buffer maximal size"): bounded
        # memory, told as the input's fault.
        raise RDFSyntaxError(
            source, f"cannot parse as {syntax}: one token (literal, IRI, string) is too long: "
            f"{e}", statement=state.statements,
        ) from None


def _remote_context_error(source: str, sniffer: _Sniffer, statements: int) -> RDFSyntaxError:
    """The error for a context to be loaded from elsewhere, naming it when it can be found in
    the part of the document read (contexts come first in most documents). Worded as the
    JSON-LD reader words it: nothing is fetched, contexts come from a catalog only."""
    name = "a remote context"
    for text in (sniffer.head, sniffer.current):
        m = _CONTEXT_REF.search(text)
        if m is not None:
            name = repr((m.group(1) or m.group(2)).decode("utf-8", "replace"))
            break
    return RDFSyntaxError(
        source, f"JSON-LD context {name} is not in the catalog (none given); nothing is "
        "fetched: give the context with --catalog DIR, or inline it in the document",
        statement=statements,
    )


def _syntax_error(e: SyntaxError, source: str, syntax: str, statements: int) -> RDFSyntaxError:
    msg = str(e.msg if e.msg else e)
    reason = f"cannot parse as {syntax}: {_POSITION.sub('', msg)}"
    if e.lineno is not None:
        return RDFSyntaxError(source, reason, e.lineno, e.offset, statement=statements)
    return RDFSyntaxError(source, reason, statement=statements)

_UNEXPECTED_END = "Unexpected end of file"


def _explained(e: RDFSyntaxError, path: str) -> RDFSyntaxError:
    """*e*, with what the parser's "Unexpected end of file" after an opening quote means: a
    short string literal that does not end on its line (the line read again to tell)."""
    if e.line is None or e.column is None or not e.reason.endswith(_UNEXPECTED_END):
        return e
    from ._chunks import read_lines

    try:
        with open_input(path) as (f, _size):
            line = next(itertools.islice(read_lines(f, source=e.source), e.line - 1, None),
                        None)
    except (OSError, URNError):
        return e
    if line is None:
        return e
    quote = line[e.column - 1:e.column]
    if quote not in (b'"', b"'") or line[e.column - 1:e.column + 2] == quote * 3:
        return e
    return RDFSyntaxError(
        e.source, e.reason[: -len(_UNEXPECTED_END)] + "the string literal opened here does not "
        "end on its line (a newline in a string literal needs triple quotes or \\n)",
        e.line, e.column, statement=e.statement,
    )


# --- stage A in a child process -------------------------------------------------------------


class _Job(NamedTuple):
    """What stage A reads: the input path, its syntax, its base IRI, its name in messages."""

    path: str
    syntax: str
    base_iri: str | None
    source: str


def _child(conn: Any, job: _Job, parent: int) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_DFL)
    watch_parent(parent)
    state = _State()
    try:
        with open_input(job.path) as (fin, _size):
            sniffer = _Sniffer(fin, job.syntax, job.source)
            told = False
            for chunk in _convert(sniffer, job.syntax, job.base_iri, job.source, state):
                if not told:
                    conn.send(("P", state.prefixes))
                    told = True
                conn.send(("D", chunk, state.position, state.urn_base))
            if not told:
                conn.send(("P", state.prefixes))
        conn.send(("Z", state.urn_base))
    except (URNError, OSError) as e:
        with contextlib.suppress(OSError):
            conn.send(("E", e))
    except BaseException:  # a bug, not bad input: the parent shows the traceback
        with contextlib.suppress(OSError):
            conn.send(("C", traceback.format_exc()))


def _in_child(
    job: _Job, state: _State, on_position: Callable[[int], None] | None
) -> Generator[bytes, None, None]:
    """Stage A in a child process: its N-Quads chunks, in order; its errors raised here."""
    from ._workers import _context

    ctx = _context()
    parent_end, child_end = ctx.Pipe(duplex=False)
    proc = ctx.Process(
        target=_child, args=(child_end, job, os.getpid()),
        daemon=True,
    )
    try:
        proc.start()
    finally:
        child_end.close()
    try:
        def receive() -> Any:
            while not parent_end.poll(1.0):
                if not proc.is_alive():
                    raise WorkerError("the process reading the input died")
            try:
                return parent_end.recv()
            except EOFError:
                raise WorkerError("the process reading the input died") from None

        while True:
            msg = receive()
            kind = msg[0]
            if kind == "P":
                state.prefixes = msg[1]
            elif kind == "D":
                state.statements += msg[1].count(b"\n")
                state.urn_base = msg[3]
                if on_position is not None:
                    on_position(msg[2])
                yield msg[1]
            elif kind == "Z":
                state.urn_base = msg[1]
                return
            elif kind == "E":
                raise msg[1]
            else:
                raise WorkerError(f"the process reading the input failed:\n{msg[1]}")
    finally:
        if proc.is_alive():
            proc.terminate()
        proc.join()
        parent_end.close()
