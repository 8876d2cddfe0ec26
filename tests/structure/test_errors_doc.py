"""docs/errors.md: its example runs, and its tree names every error class."""

from __future__ import annotations

import doctest
from pathlib import Path

from .test_errors import SAMPLES

DOC = Path(__file__).resolve().parents[2] / "docs" / "errors.md"


def test_docs_errors_example_runs() -> None:
    text = DOC.read_text(encoding="utf-8")
    parser = doctest.DocTestParser()
    test = parser.get_doctest(text, {}, "errors.md", str(DOC), 0)
    assert test.examples
    result = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS).run(test)
    assert result.failed == 0


def test_docs_errors_tree_names_every_class() -> None:
    text = DOC.read_text(encoding="utf-8")
    missing = [name for name in SAMPLES if name not in text]
    assert missing == []
