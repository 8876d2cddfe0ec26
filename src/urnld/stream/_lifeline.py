"""Child processes that end when their parent does.

A worker blocked on its pipe would otherwise outlive a parent killed by SIGKILL or the OOM
killer: forked siblings hold copies of each other's pipe ends, so no end-of-file ever arrives,
and the orphan keeps its memory, the input and the caller's stderr open.

* Linux: ``prctl(PR_SET_PDEATHSIG, SIGKILL)``, the kernel ends the child with its parent;
* elsewhere (and as a second line on Linux): a daemon thread that checks every second whether
  the parent process is still the one that started the child, and exits if not.

>>> import os
>>> watch_parent(os.getppid())  # in a child: returns at once, the watch runs in the background
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time

__all__ = ["watch_parent"]

_PR_SET_PDEATHSIG = 1
_POLL_SECONDS = 1.0


def _pdeathsig() -> None:
    if not sys.platform.startswith("linux"):
        return
    # Imported here, in a worker, not at urnld.stream's import: ctypes costs a command's start.
    import ctypes
    import ctypes.util

    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):  # no libc to be had (static builds): the thread remains
        pass


def watch_parent(parent_pid: int) -> None:
    """End this process (exit status 1, no traceback) as soon as ``parent_pid`` is gone."""
    _pdeathsig()
    if os.getppid() != parent_pid:  # the parent died before the watch was set up
        os._exit(1)

    def watch() -> None:
        while True:
            time.sleep(_POLL_SECONDS)
            if os.getppid() != parent_pid:
                os._exit(1)

    threading.Thread(target=watch, name="urnld-parent-watch", daemon=True).start()
