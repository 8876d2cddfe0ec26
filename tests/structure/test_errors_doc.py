"""docs/errors.md: its tree names every error class (its example runs in tests/docs/)."""

from __future__ import annotations

from pathlib import Path

from .test_errors import SAMPLES

DOC = Path(__file__).resolve().parents[2] / "docs" / "errors.md"


def test_docs_errors_tree_names_every_class() -> None:
    text = DOC.read_text(encoding="utf-8")
    missing = [name for name in SAMPLES if name not in text]
    assert missing == []
