"""Python's cyclic garbage collector paused for a pass that makes many objects and no cycles.

A streaming pass or a validation run makes hundreds of thousands of cache entries, verdicts
and result rows, none of them in a reference cycle; every collection their allocations set off
walked all of them again (measured: a sixth of the serd pass on URN-dense data; 1.3 to 2 s of
the 13 to 16 s of loading and running a validation plan at a million statements).

>>> import gc
>>> with collector_paused():
...     gc.isenabled()
False
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator

__all__ = ["collector_paused"]


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """The collector off inside the block, and as it was after it (also when it raises).
    What the block leaves in cycles is freed when the collector runs next."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()
