"""Every ```python block of docs/rdf-store.md runs as written (the README is assembled from it)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "rdf-store.md"
BLOCKS = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)


def test_doc_has_examples() -> None:
    assert len(BLOCKS) >= 4


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_doc_block_runs(index: int) -> None:
    exec(compile(BLOCKS[index], f"{DOC.name}[block {index}]", "exec"), {})
