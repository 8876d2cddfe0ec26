"""Progress on stderr for commands that can run for more than a second (terminal only).

:class:`Progress` shows how far the input has been read, with the rate and an ETA, from the
bytes a :class:`CountingReader` hands to a parser. Where the amount of work is unknown (pyshacl
gives no progress while it runs the shapes), :meth:`Progress.ticking` shows the phase and the
time elapsed instead. Nothing is written unless stderr is a terminal, and the line is erased at
the end, so logs and pipes never see it.
"""

from __future__ import annotations

import contextlib
import sys
import threading
import time
from collections.abc import Iterator
from typing import IO, Any

__all__ = ["CountingReader", "Progress", "eta_text"]

_EVERY = 0.25  # seconds between redraws


def _size(n: float) -> str:
    for unit in ("B", "kB", "MB", "GB"):
        if n < 1000 or unit == "GB":
            return f"{n:,.0f} {unit}" if unit == "B" else f"{n:,.1f} {unit}"
        n /= 1000
    return f"{n:,.1f} GB"


def eta_text(done: int, total: int | None, elapsed: float) -> str:
    """``"42.0% of 12.0 MB, 1.5 MB/s, ETA 5 s"`` (no ETA before 1% or without a total).

    >>> eta_text(500_000, 1_000_000, 2.0)
    '50.0% of 1.0 MB, 250.0 kB/s, ETA 2 s'
    >>> eta_text(500_000, None, 2.0)
    '500.0 kB read, 250.0 kB/s'
    """
    rate = done / elapsed if elapsed > 0 else 0.0
    if not total:
        return f"{_size(done)} read, {_size(rate)}/s"
    text = f"{100 * done / total:.1f}% of {_size(total)}, {_size(rate)}/s"
    if rate > 0 and done >= total / 100:
        text += f", ETA {max(total - done, 0) / rate:,.0f} s"
    return text


class Progress:
    """One self-erasing line on stderr: ``label: 42.0% of 12.0 MB, 1.5 MB/s, ETA 5 s``."""

    def __init__(
        self, label: str, total: int | None = None, *, enabled: bool | None = None,
        stream: IO[str] | None = None,
    ) -> None:
        self.stream = sys.stderr if stream is None else stream
        if enabled is None:
            enabled = _is_tty(self.stream)
        self.enabled = enabled
        self.label = label
        self.total = total
        self.start = time.monotonic()
        self._last = 0.0
        self._width = 0

    def _draw(self, text: str) -> None:
        line = f"{self.label}: {text}"
        pad = max(self._width - len(line), 0)
        self._width = len(line)
        self.stream.write("\r" + line + " " * pad)
        self.stream.flush()

    def update(self, done: int) -> None:
        """Show that *done* bytes of ``total`` have been read (throttled)."""
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self._last < _EVERY:
            return
        self._last = now
        self._draw(eta_text(done, self.total, now - self.start))

    def close(self) -> None:
        if self.enabled and self._width:
            self.stream.write("\r" + " " * self._width + "\r")
            self.stream.flush()
            self._width = 0

    @contextlib.contextmanager
    def ticking(self, phase: str) -> Iterator[None]:
        """While the body runs, show *phase* and the seconds elapsed (no ETA: unknown work)."""
        if not self.enabled:
            yield
            return
        stop = threading.Event()
        began = time.monotonic()

        def tick() -> None:
            while not stop.wait(_EVERY):
                self._draw(f"{phase}, {time.monotonic() - began:,.0f} s")

        thread = threading.Thread(target=tick, name="urnld-progress", daemon=True)
        thread.start()
        try:
            yield
        finally:
            stop.set()
            thread.join()
            self.close()


def _is_tty(stream: IO[str]) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


class CountingReader:
    """A binary file that reports how many bytes were read so far to a :class:`Progress`.

    >>> import io
    >>> seen = []
    >>> class P:
    ...     def update(self, n): seen.append(n)
    >>> r = CountingReader(io.BytesIO(b"abcdef"), P())
    >>> r.read(4), r.read(), seen
    (b'abcd', b'ef', [4, 6])
    """

    def __init__(self, raw: IO[bytes], progress: Any) -> None:
        self._raw = raw
        self._progress = progress
        self.count = 0

    def _seen(self, data: bytes) -> bytes:
        self.count += len(data)
        self._progress.update(self.count)
        return data

    def read(self, n: int = -1) -> bytes:
        return self._seen(self._raw.read(n))

    def read1(self, n: int = -1) -> bytes:
        read1 = getattr(self._raw, "read1", self._raw.read)
        return self._seen(read1(n))

    def readline(self, limit: int = -1) -> bytes:
        return self._seen(self._raw.readline(limit))

    def __iter__(self) -> Iterator[bytes]:
        return iter(self.readline, b"")

    def __getattr__(self, name: str) -> Any:
        return getattr(self._raw, name)
