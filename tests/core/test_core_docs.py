"""Every ``>>>`` snippet of docs/core.md runs and prints what the page says."""

from __future__ import annotations

import doctest
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "core.md"


def test_docs_core_snippets() -> None:
    result = doctest.testfile(
        str(DOC), module_relative=False, optionflags=doctest.ELLIPSIS, raise_on_error=False
    )
    assert result.attempted >= 25
    assert result.failed == 0
