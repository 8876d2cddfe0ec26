"""Stage C of the streaming path for every syntax: the rewritten N-Quads written in the output
syntax by pyoxigraph, in this process or (for a big input written to a file) in a child process
of its own, so that reading (stage A), the term rule (stage B) and writing each have a process
and the two cores share three stages rather than two.

The child writes straight to the output's file descriptor (it is forked, so it shares the open
file and its offset): the rewritten statements go one way only, parent to child, and the
written text never comes back through a pipe. Its errors come back as urnld errors.

>>> import io
>>> out = io.BytesIO()
>>> write_quads([b'<urn:example:a> <http://e/p> "x" .\\n'], out, "turtle", {"e": "http://e/"},
...             source="x", child=False)
>>> print(out.getvalue().decode(), end="")
@prefix e: <http://e/> .
<urn:example:a> e:p "x" .
"""

from __future__ import annotations

import contextlib
import io
import itertools
import os
import re
import signal
import traceback
from collections.abc import Iterable, Iterator, Mapping
from typing import IO, Any, Final, NamedTuple

from ..errors import URNError, WorkerError
from ._lifeline import watch_parent
from ._names import RDFSyntaxError
from ._stage_a import _ox_format

__all__ = ["can_write_in_child", "output_prefixes", "write_quads"]

# Bytes the child's writer gathers before one write() to the output.
_WRITE_BUFFER: Final = 1 << 20
# Bytes of rewritten N-Quads the parent gathers before one message to the child (fewer, larger
# messages: each costs a system call or two on both sides).
_SEND_BATCH: Final = 1 << 20

_URN_NAMESPACE = re.compile(r"(?i)urn:([a-z0-9][a-z0-9-]{0,31}):")


def output_prefixes(prefixes: Mapping[str, str]) -> dict[str, str]:
    """The prefixes to write: the input's, a URN namespace with its ``urn:NID:`` in lower case.

    The output's URNs are canonical, and RFC 8141 canonical case of the scheme and NID is lower
    case: a prefix spelled ``URN:ISBN:`` would match none of them. Namespaces that are not
    IRIs pyoxigraph can write (relative ones) are left out.

    >>> output_prefixes({"i": "URN:ISBN:", "ex": "http://ex.org/", "u": "urn:uuid:"})
    {'i': 'urn:isbn:', 'ex': 'http://ex.org/', 'u': 'urn:uuid:'}
    """
    out: dict[str, str] = {}
    for name, namespace in prefixes.items():
        m = _URN_NAMESPACE.match(namespace)
        if m is not None:
            out[name] = "urn:" + m.group(1).lower() + ":" + namespace[m.end():]
        elif ":" in namespace:
            out[name] = namespace
    return out


def _serialize(
    chunks: Iterable[bytes], fout: IO[bytes], syntax: str, prefixes: Mapping[str, str],
    source: str,
) -> None:
    """The N-Quads *chunks* written to *fout* in *syntax* by pyoxigraph."""
    import pyoxigraph

    nquads = pyoxigraph.RdfFormat.N_QUADS

    def parsed(chunk: bytes) -> Any:
        # The pass wrote these lines from valid N-Quads (its rewrites are valid URNs): the
        # IRIs need no second validation.
        return pyoxigraph.parse(chunk, nquads, lenient=True)

    quads = itertools.chain.from_iterable(map(parsed, chunks))
    try:
        pyoxigraph.serialize(quads, fout, _ox_format(syntax),
                             prefixes=output_prefixes(prefixes) or None)
    except ValueError as e:
        if "named graph" not in str(e):
            raise
        raise RDFSyntaxError(
            source, f"holds statements in named graphs, which {syntax} cannot write; write "
            "trig, nquads or json-ld"
        ) from None


def can_write_in_child(fout: IO[bytes]) -> bool:
    """Can a forked child write to *fout* itself: a plain binary file (not a compressing
    wrapper, not an in-memory buffer), forking allowed here."""
    if type(fout) is not io.BufferedWriter and type(fout) is not io.FileIO:
        return False
    try:
        fout.fileno()
    except (OSError, ValueError):
        return False
    from ._workers import _context

    return bool(_context().get_start_method() == "fork")


def write_quads(
    chunks: Iterable[bytes], fout: IO[bytes], syntax: str, prefixes: Mapping[str, str], *,
    source: str, child: bool,
) -> None:
    """Stage C: the N-Quads *chunks* written to *fout* in *syntax*, by a child process when
    *child* (and :func:`can_write_in_child`), else here."""
    if not (child and can_write_in_child(fout)):
        _serialize(chunks, fout, syntax, prefixes, source)
        return
    _in_child(chunks, fout, syntax, dict(prefixes), source)


class _Received:
    """The chunks the parent sends, as an iterator (an empty message ends them)."""

    def __init__(self, conn: Any) -> None:
        self._conn = conn

    def __iter__(self) -> Iterator[bytes]:
        while True:
            chunk: bytes = self._conn.recv_bytes()
            if not chunk:
                return
            yield chunk


class _Job(NamedTuple):
    """What the writer writes: the output's file descriptor, syntax, prefixes, source name."""

    fd: int
    syntax: str
    prefixes: dict[str, str]
    source: str


def _child(data: Any, results: Any, job: _Job, parent: int) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_DFL)
    watch_parent(parent)
    try:
        # The output's file descriptor, shared with the parent (its offset too): closing this
        # object must not close the parent's.
        with open(job.fd, "wb", buffering=_WRITE_BUFFER, closefd=False) as out:
            _serialize(_Received(data), out, job.syntax, job.prefixes, job.source)
        results.send(("Z",))
    except (URNError, OSError) as e:
        with contextlib.suppress(OSError):
            results.send(("E", e))
    except BaseException:  # a bug, not bad input: the parent shows the traceback
        with contextlib.suppress(OSError):
            results.send(("C", traceback.format_exc()))


def _batched(chunks: Iterable[bytes]) -> Iterator[bytes]:
    """*chunks* joined into messages of about :data:`_SEND_BATCH` bytes (whole lines)."""
    parts: list[bytes] = []
    size = 0
    for chunk in chunks:
        parts.append(chunk)
        size += len(chunk)
        if size >= _SEND_BATCH:
            yield b"".join(parts)
            parts, size = [], 0
    if size:
        yield b"".join(parts)


def _in_child(
    chunks: Iterable[bytes], fout: IO[bytes], syntax: str, prefixes: dict[str, str],
    source: str,
) -> None:
    from ._workers import _context

    fout.flush()  # what the parent wrote comes first
    ctx = _context()
    data_in, data_out = ctx.Pipe(duplex=False)
    results_in, results_out = ctx.Pipe(duplex=False)
    proc = ctx.Process(
        target=_child,
        args=(data_in, results_out, _Job(fout.fileno(), syntax, prefixes, source), os.getpid()),
        daemon=True,
    )
    try:
        proc.start()
    finally:
        data_in.close()
        results_out.close()

    def result() -> Any:
        while not results_in.poll(1.0):
            if not proc.is_alive():
                raise WorkerError("the process writing the output died")
        try:
            return results_in.recv()
        except EOFError:
            raise WorkerError("the process writing the output died") from None

    try:
        # The child stopping reading is no error here: its result says why.
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            for batch in _batched(chunks):
                data_out.send_bytes(batch)
            data_out.send_bytes(b"")
        data_out.close()
        msg = result()
        if msg[0] == "E":
            raise msg[1]
        if msg[0] == "C":
            raise WorkerError(f"the process writing the output failed:\n{msg[1]}")
    finally:
        if proc.is_alive():
            proc.terminate()
        proc.join()
        data_out.close()
        results_in.close()
