"""The optional compiled accelerator: :mod:`urnld._core._speedups` when it was built, else None.

urnld's pure-Python code is the reference; the accelerator handles the common cases of a few
hot paths and answers None for anything else, so its callers fall back to the Python code.
``URNLD_PURE_PYTHON=1`` in the environment turns it off (read once, at import).

Callers read :data:`speedups` when they build their per-run state, not at import, so tests can
compare both paths in one process.

>>> speedups is None or hasattr(speedups, "canonical")
True
"""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import os
from types import ModuleType

__all__ = ["speedups"]


def _load() -> ModuleType | None:
    if os.environ.get("URNLD_PURE_PYTHON", "") not in ("", "0"):
        return None
    name = f"{__package__}._speedups"
    try:
        # Only the compiled module: in a source tree without an in-place build, the folder of
        # its C headers (``_speedups/``) would import as an empty namespace package.
        spec = importlib.util.find_spec(name)
        if spec is None or not isinstance(spec.loader, importlib.machinery.ExtensionFileLoader):
            return None
        # A compiled module that may be missing: imported by name, at the core's lowest floor.
        return importlib.import_module(name)
    except ImportError:  # not built (no compiler at install): the pure-Python path
        return None


#: The compiled module, or None (not built, or ``URNLD_PURE_PYTHON=1``).
speedups: ModuleType | None = _load()
