"""tests/jsonld: make the suite harness (w3c_jsonld_harness.py) importable.

The project runs pytest with ``--import-mode=importlib``, which does not put test directories on
``sys.path``; the harness is also a script (``--write-baseline``), so it stays a plain module.
"""

from __future__ import annotations

import sys
from pathlib import Path

_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)
