"""The undo file of an in-place canonicalization: written batch by batch, applied last first.

``canonicalize_endpoint(…, undo=PATH)`` appends one *block* per batch: the SPARQL Update that
reverts it, read from the store just before the batch is sent. The block is on disk (flushed
and ``fsync``'d) before the batch's request leaves, and its ``# committed`` line follows once
the store has answered, so a run stopped at any point (even by ``SIGKILL``) leaves a file that
reverts every batch the store may have committed:

.. code-block:: text

    # urnld undo: apply with `urnld undo FILE --update-endpoint URL` (last batch first)
    # batch 1
    DELETE DATA { … } ;
    INSERT DATA { … }
    # end of batch 1
    # committed batch 1

A block whose ``# end of batch`` line is missing was cut while being written: its batch was
never sent, and it is skipped. A complete block without its ``# committed`` line may or may
not have been committed; reverting it is harmless either way (it deletes only statements the
batch would have made and inserts statements that were there), so it is applied. Running
canonicalize again with the same file appends further blocks.

:func:`apply_undo` sends the blocks last first, one request each, and records each applied
block in ``PATH.applied``, so a stopped undo is finished by running it again.

>>> blocks_of("# batch 1\\nINSERT DATA { <urn:a:b> <urn:a:p> 1 }\\n# end of batch 1\\n"
...           "# batch 2\\nINSERT DATA {")
[UndoBlock(number=1, text='INSERT DATA { <urn:a:b> <urn:a:p> 1 }', committed=False)]
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import re
from collections.abc import Callable
from typing import IO

from ..errors import URNError
from ._client import DEFAULT_TIMEOUT, Endpoint, EndpointError

__all__ = ["UndoBlock", "UndoProgress", "UndoWriter", "apply_undo", "blocks_of"]

HEADER = "# urnld undo: apply with `urnld undo FILE --update-endpoint URL` (last batch first)\n"
_BATCH = re.compile(r"^# batch (\d+)$")
_END = "# end of batch {}"
_COMMITTED = "# committed batch {}"


@dataclasses.dataclass(frozen=True, slots=True)
class UndoBlock:
    """One batch's revert: its number in the file, its SPARQL Update, whether it committed."""

    number: int
    text: str
    committed: bool


@dataclasses.dataclass(frozen=True, slots=True)
class UndoProgress:
    """Passed to :func:`apply_undo`'s ``progress`` after each block (and once before)."""

    batches_done: int
    batches_total: int
    statements_done: int
    statements_total: int


def _sync(f: IO[str]) -> None:
    f.flush()
    os.fsync(f.fileno())


#: The longest line an undo file may hold (a block's operation is one line); past it the file is
#: refused rather than read into memory without end.
MAX_LINE = 256 << 20


def open_undo(path: str, what: str = "undo file") -> IO[bytes]:
    """Open an undo file for reading: a regular file only (a FIFO or a device such as
    ``/dev/zero`` would be read without end), with one clear error naming it.

    >>> open_undo("/dev/zero")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    urnld.URNError: /dev/zero: the undo file is not a regular file (a character device); give a file
    """
    from .._kernel import open_regular

    return open_regular(path, what)


def _scan(f: IO[bytes], path: str) -> tuple[bool, list[tuple[int, int, int, bool]]]:
    """Read an undo file line by line: whether it starts with :data:`HEADER`, and each complete
    block as ``(number, start, end, committed)`` byte offsets of its text (memory: one line)."""
    first = f.readline(len(HEADER) + 1)
    if not first:
        return True, []
    if first.decode("utf-8", "replace") != HEADER:
        return False, []
    blocks: list[tuple[int, int, int, bool]] = []
    number: int | None = None
    start = body_end = 0
    last_end: int | None = None  # the block just closed: its committed line may follow
    while True:
        line_start = f.tell()
        raw = f.readline(MAX_LINE + 1)
        if not raw:
            break
        if len(raw) > MAX_LINE:
            raise URNError(f"{path}: a line longer than {MAX_LINE >> 20} MiB: not a urnld undo "
                           "file")
        line = raw.rstrip(b"\n").decode("utf-8", "replace")
        if last_end is not None:
            n, s0, e0 = last_end, blocks[-1][1], blocks[-1][2]
            if line == _COMMITTED.format(n):
                blocks[-1] = (n, s0, e0, True)
            last_end = None
        m = _BATCH.match(line)
        if m:
            number, start = int(m.group(1)), f.tell()
            body_end = start
        elif number is not None and line == _END.format(number):
            blocks.append((number, start, max(start, body_end - 1), False))
            last_end, number = number, None
        elif number is not None:
            body_end = line_start + len(raw)
    return True, blocks


def check_undo_file(path: str | os.PathLike[str]) -> None:
    """Refuse an existing *path* that is no undo file to add to (a device, a FIFO, another
    file), with one error naming it; a path that does not exist yet is fine.

    >>> check_undo_file("/nonexistent/new.ru")
    """
    p = os.fspath(path)
    if not os.path.lexists(p):
        return
    with open_undo(p) as f:
        ok, _blocks = _scan(f, p)
    if not ok:
        raise URNError(f"{p} exists and is not a urnld undo file: give a new file, or the "
                       "undo file of an earlier run to add to it")


class UndoWriter:
    """Appends blocks to an undo file, each on disk before its batch is sent.

    A block is written whole or not at all: when the disk is full (or any write fails) the
    file is cut back to its last complete block, and a file this run created that holds no
    complete block is removed; the error names the file. The batch is then not sent.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = os.fspath(path)
        self.created = not os.path.lexists(self.path)
        numbers: list[int] = []
        if not self.created:
            with open_undo(self.path) as f:
                ok, blocks = _scan(f, self.path)
            if not ok:
                raise URNError(f"{self.path} exists and is not a urnld undo file: give a new "
                               "file, or the undo file of an earlier run to add to it")
            numbers = [b[0] for b in blocks]
        self.next = max(numbers, default=0) + 1
        self.complete = len(numbers)
        flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_CLOEXEC", 0)
        try:
            self.fd: int | None = os.open(self.path, flags, 0o666)
        except OSError as e:
            raise OSError(e.errno, f"cannot write undo file {self.path}: {e.strerror}") from None
        if os.fstat(self.fd).st_size == 0:
            self._append(HEADER)
        self.pending: int | None = None

    def _append(self, text: str) -> None:
        """Append *text* and force it to disk, or leave the file as it was and raise."""
        assert self.fd is not None
        data = memoryview(text.encode("utf-8"))
        start = os.lseek(self.fd, 0, os.SEEK_END)
        try:
            while data:
                data = data[os.write(self.fd, data):]
            os.fsync(self.fd)
        except OSError as e:
            with contextlib.suppress(OSError):
                os.ftruncate(self.fd, start)
            if self.created and self.complete == 0:
                # Nothing here reverts anything: a header alone is no undo file to keep.
                os.close(self.fd)
                self.fd = None
                with contextlib.suppress(OSError):
                    os.unlink(self.path)
            raise OSError(e.errno, f"cannot write undo file {self.path}: {e.strerror}") from None

    def begin(self, text: str) -> None:
        """Write one batch's revert (before the batch is sent); empty text writes nothing."""
        self.pending = None
        if not text.strip():
            return
        n = self.next
        self._append(f"# batch {n}\n{text}\n{_END.format(n)}\n")
        self.next += 1
        self.complete += 1
        self.pending = n

    def committed(self) -> None:
        """Mark the block of the batch just sent as committed by the store."""
        if self.pending is not None:
            self._append(_COMMITTED.format(self.pending) + "\n")
            self.pending = None

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


def blocks_of(text: str) -> list[UndoBlock]:
    """The complete blocks of an undo file's text, in file order."""
    blocks: list[UndoBlock] = []
    number: int | None = None
    body: list[str] = []
    lines = text.splitlines()
    for i, line in enumerate(lines):
        m = _BATCH.match(line)
        if m:
            number, body = int(m.group(1)), []
        elif number is not None and line == _END.format(number):
            committed = i + 1 < len(lines) and lines[i + 1] == _COMMITTED.format(number)
            blocks.append(UndoBlock(number, "\n".join(body), committed))
            number = None
        elif number is not None:
            body.append(line)
    return blocks


def apply_undo(
    path: str | os.PathLike[str],
    update_url: str,
    *,
    timeout: float = DEFAULT_TIMEOUT,
    progress: Callable[[UndoProgress], None] | None = None,
) -> int:
    """Revert a canonicalization: send the undo file's blocks last first; return how many.

    Each block is one update request (one transaction on most stores), recorded in
    ``PATH.applied`` once the store has taken it; blocks recorded there are skipped, so a
    stopped undo is finished by running it again, and a finished one changes nothing.

    Raises :class:`EndpointError` when a request fails (the blocks before it are applied),
    ``URNError`` when ``path`` is not a urnld undo file.
    """
    path = os.fspath(path)
    try:
        undo_file = open_undo(path)
    except OSError as e:
        raise URNError(f"cannot read undo file {path}: {e.strerror or e}") from e
    with undo_file:
        ok, index = _scan(undo_file, path)
        if not ok:
            raise URNError(f"{path} is not a urnld undo file")
        done_path = path + ".applied"
        done: set[int] = set()
        if os.path.lexists(done_path):
            with open_undo(done_path, "record of applied undo blocks") as f:
                done = {int(line) for line in f if line.strip().isdigit()}
        todo = [entry for entry in reversed(index) if entry[0] not in done]

        def text_of(entry: tuple[int, int, int, bool]) -> str:
            # One block in memory at a time, read by its offsets.
            undo_file.seek(entry[1])
            return undo_file.read(entry[2] - entry[1]).decode("utf-8", "replace")

        total = len(todo)
        statements_total = sum(_statements(text_of(e)) for e in todo)
        if progress is not None:
            progress(UndoProgress(0, total, 0, statements_total))
        statements = 0
        with Endpoint(update_url, timeout=timeout) as endpoint, \
                open(done_path, "a", encoding="utf-8") as record:
            split = bool(todo) and endpoint.profile.split_updates
            for k, entry in enumerate(todo, 1):
                text = text_of(entry)
                try:
                    for request in _requests(text, split=split):
                        endpoint.update(request)
                except EndpointError as e:
                    raise EndpointError(
                        f"undo batch {entry[0]} failed ({k - 1} of {total} applied; run again "
                        f"to finish): {e}"
                    ) from e
                record.write(f"{entry[0]}\n")
                _sync(record)
                statements += _statements(text)
                if progress is not None:
                    progress(UndoProgress(k, total, statements, statements_total))
    return total


def _requests(text: str, *, split: bool) -> list[str]:
    """The requests that send one block: the block itself, or one per operation on a store
    whose profile says ``split_updates`` (Virtuoso).

    Virtuoso compiles a request into a code vector of at most 32 KiB ("SQ199: Maximum size
    (32767) of a code vector exceeded"), which a block of a thousand terms exceeds. Every
    operation of a block is idempotent (deletes of the statements the batch wrote, inserts of
    the ones it replaced), so a block stopped between its requests is finished by sending it
    again. Operations are separated by `` ;`` and a line end, which no term of a block holds
    (line ends in strings and IRIs are escaped).

    >>> _requests("DELETE DATA { <a:b> <a:c> 1 } ;\\nINSERT DATA { <a:b> <a:c> 2 }", split=True)
    ['DELETE DATA { <a:b> <a:c> 1 }', 'INSERT DATA { <a:b> <a:c> 2 }']
    """
    if not split:
        return [text]
    return [op for op in text.split(" ;\n") if op.strip()]


def _statements(text: str) -> int:
    # A progress measure: the statement terminators of a block's templates and data.
    return max(1, text.count(" . "))
