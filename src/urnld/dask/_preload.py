"""Run by distributed in each local worker process at start (``LocalCluster(preload=…)``).

Ctrl-C reaches every process of the terminal's process group. The command's own process stops
the cluster and prints one line; a worker would print a traceback, so workers ignore SIGINT.
"""

from __future__ import annotations

import signal
import threading
from typing import Any

__all__ = ["dask_setup"]


def dask_setup(worker: Any) -> None:
    """distributed's preload hook: ignore SIGINT in this worker process."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)
