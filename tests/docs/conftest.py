"""tests/docs: make the page and block finder (doc_examples.py) importable.

``--import-mode=importlib`` does not put this directory on ``sys.path`` by itself.
"""

from __future__ import annotations

import sys
from pathlib import Path

_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)
