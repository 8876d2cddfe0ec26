"""docs/namespaces.md: its examples run, and its table covers every built-in NID."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

from urnld.namespaces import get_rule
from urnld.namespaces._builtin import BUILTIN

DOC = Path(__file__).resolve().parents[2] / "docs" / "namespaces.md"


def test_examples_run() -> None:
    result = doctest.testfile(str(DOC), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 15
    assert result.failed == 0


def test_table_has_one_row_per_builtin_nid_with_its_reference() -> None:
    rows = {
        m.group(1): m.group(2)
        for m in re.finditer(r"^\| `([a-z]+)` \| ([^|]+) \|", DOC.read_text(), re.MULTILINE)
    }
    assert set(rows) == set(BUILTIN)
    for nid, reference in rows.items():
        assert get_rule(nid).reference.split(";")[0].split(" (")[0] in reference, nid
