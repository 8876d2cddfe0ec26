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


class UndoWriter:
    """Appends blocks to an undo file, each on disk before its batch is sent."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = os.fspath(path)
        existing = ""
        if os.path.exists(self.path):
            with open(self.path, encoding="utf-8") as f:
                existing = f.read()
            if existing and not existing.startswith(HEADER):
                raise URNError(f"{self.path} exists and is not a urnld undo file: give a new "
                               "file, or the undo file of an earlier run to add to it")
        numbers = [b.number for b in blocks_of(existing)]
        self.next = max(numbers, default=0) + 1
        self.file: IO[str] = open(self.path, "a", encoding="utf-8")  # noqa: SIM115
        if not existing:
            self.file.write(HEADER)
            _sync(self.file)
        self.pending: int | None = None

    def begin(self, text: str) -> None:
        """Write one batch's revert (before the batch is sent); empty text writes nothing."""
        self.pending = None
        if not text.strip():
            return
        n = self.next
        self.next += 1
        self.file.write(f"# batch {n}\n{text}\n{_END.format(n)}\n")
        _sync(self.file)
        self.pending = n

    def committed(self) -> None:
        """Mark the block of the batch just sent as committed by the store."""
        if self.pending is not None:
            self.file.write(_COMMITTED.format(self.pending) + "\n")
            _sync(self.file)
            self.pending = None

    def close(self) -> None:
        self.file.close()


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
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise URNError(f"cannot read undo file {path}: {e.strerror or e}") from e
    if not text.startswith(HEADER):
        raise URNError(f"{path} is not a urnld undo file")
    done_path = path + ".applied"
    done: set[int] = set()
    if os.path.exists(done_path):
        with open(done_path, encoding="utf-8") as f:
            done = {int(line) for line in f if line.strip().isdigit()}
    todo = [b for b in reversed(blocks_of(text)) if b.number not in done]
    total = len(todo)
    statements_total = sum(_statements(b.text) for b in todo)
    if progress is not None:
        progress(UndoProgress(0, total, 0, statements_total))
    statements = 0
    with Endpoint(update_url, timeout=timeout) as endpoint, \
            open(done_path, "a", encoding="utf-8") as record:
        split = bool(todo) and endpoint.vendor == "virtuoso"
        for k, block in enumerate(todo, 1):
            try:
                for request in _requests(block.text, split=split):
                    endpoint.update(request)
            except EndpointError as e:
                raise EndpointError(
                    f"undo batch {block.number} failed ({k - 1} of {total} applied; run again "
                    f"to finish): {e}"
                ) from e
            record.write(f"{block.number}\n")
            _sync(record)
            statements += _statements(block.text)
            if progress is not None:
                progress(UndoProgress(k, total, statements, statements_total))
    return total


def _requests(text: str, *, split: bool) -> list[str]:
    """The requests that send one block: the block itself, or on Virtuoso one per operation.

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
