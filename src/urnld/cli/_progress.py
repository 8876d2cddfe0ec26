"""Progress on stderr for commands that can run for more than a second (terminal only).

:class:`Progress` shows how far the input has been read, with the rate and an ETA, from the
bytes a :class:`CountingReader` hands to a parser; or how many units of other work are done, from
a library's ``progress(done, total)`` callback (:meth:`Progress.count`: the focus-node checks of
:func:`urnld.shacl.validate`). Where the amount of work is unknown (parsing a graph),
:meth:`Progress.ticking` shows the phase and the time elapsed instead, until counting starts.
Nothing is written unless stderr is a terminal, and the line is erased at the end, so logs and
pipes never see it.
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


def eta_text(done: int, total: int | None, elapsed: float, unit: str | None = None) -> str:
    """``"42.0% of 12.0 MB, 1.5 MB/s, ETA 5 s"`` (no ETA before 1% or without a total).

    *unit* names what is counted, instead of bytes.

    >>> eta_text(500_000, 1_000_000, 2.0)
    '50.0% of 1.0 MB, 250.0 kB/s, ETA 2 s'
    >>> eta_text(500_000, None, 2.0)
    '500.0 kB read, 250.0 kB/s'
    >>> eta_text(3_000, 12_000, 1.5, "checks")
    '25.0% of 12,000 checks, 2,000 checks/s, ETA 4 s'
    """
    rate = done / elapsed if elapsed > 0 else 0.0
    if unit is None:
        amount, speed = _size, _size
    else:
        def amount(n: float) -> str:
            return f"{n:,.0f} {unit}"

        speed = amount
    if not total:
        return f"{amount(done)} read, {speed(rate)}/s"
    text = f"{100 * done / total:.1f}% of {amount(total)}, {speed(rate)}/s"
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
        # The ticking thread and count() both draw; once counting has begun the tick is silent.
        self._lock = threading.Lock()
        self._counting: tuple[str, str, float] | None = None  # (phase, unit, start)
        self._phase: tuple[str, float] | None = None  # what ticking() shows, and since when

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

    def counter(self, phase: str, unit: str, then: str | None = None) -> Any:
        """A ``progress(done, total)`` callback that shows *phase*: ``done`` of ``total`` *unit*.

        The rate and the ETA are measured from the first call (the work before it, such as
        reading the input, does not count); the first and the last call are always drawn.
        When ``done`` reaches ``total``, a surrounding :meth:`ticking` goes on with the phase
        *then* (what still has to happen, of unknown length), if given.

        >>> import io
        >>> out = io.StringIO()
        >>> bar = Progress("urnld validate", enabled=True, stream=out)
        >>> count = bar.counter("running the shapes", "checks")
        >>> count(0, 200); count(200, 200)
        >>> "urnld validate: running the shapes: 100.0% of 200 checks" in out.getvalue()
        True
        """

        def count(done: int, total: int) -> None:
            if not self.enabled:
                return
            now = time.monotonic()
            with self._lock:
                if self._counting is None:
                    self._counting = (phase, unit, now)
                elif now - self._last < _EVERY and done < total:
                    return
                self._last = now
                _, _, began = self._counting
                self._draw(f"{phase}: {eta_text(done, total, now - began, unit)}")
                if done >= total and then is not None:
                    self._counting = None
                    self._phase = (then, now)

        return count

    def close(self) -> None:
        with self._lock:
            if self.enabled and self._width:
                self.stream.write("\r" + " " * self._width + "\r")
                self.stream.flush()
                self._width = 0

    @contextlib.contextmanager
    def ticking(self, phase: str) -> Iterator[None]:
        """While the body runs, show *phase* and the seconds elapsed (no ETA: unknown work).

        The tick stops drawing once a :meth:`counter` of this line has been called.
        """
        if not self.enabled:
            yield
            return
        stop = threading.Event()
        self._phase = (phase, time.monotonic())

        def tick() -> None:
            while not stop.wait(_EVERY):
                with self._lock:
                    if self._counting is None and self._phase is not None:
                        text, since = self._phase
                        self._draw(f"{text}, {time.monotonic() - since:,.0f} s")

        thread = threading.Thread(target=tick, name="urnld-progress", daemon=True)
        thread.start()
        try:
            yield
        finally:
            stop.set()
            thread.join()
            self._phase = None
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
