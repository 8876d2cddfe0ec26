"""tests/core: make the shared oracles and strategies (core_strategies.py) importable.

tests/ has no packages (PLAN.md) and ``--import-mode=importlib`` does not put this directory on
``sys.path`` by itself.
"""

from __future__ import annotations

import sys
from pathlib import Path

_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)
