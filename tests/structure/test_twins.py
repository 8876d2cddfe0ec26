"""Every header of the C accelerator has a row in CONTRIBUTING.md's twin table: the Python
module it mirrors and the differential test that keeps the two in step. A new header without a
row, or a row naming a module or a test that does not exist, fails here."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HEADERS = ROOT / "src" / "urnld" / "_core" / "_speedups"
# Shared helpers and the generated data (tests/core/test_speedups_generated.py) mirror no
# module of their own.
NOT_TWINS = {"common.h", "_generated.h"}


def _rows() -> dict[str, tuple[list[str], list[str]]]:
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    start = text.index("| header | Python twin | differential test |")
    rows: dict[str, tuple[list[str], list[str]]] = {}
    for line in text[start:].splitlines()[2:]:
        if not line.startswith("|"):
            break
        headers, twins, tests = (cell.strip() for cell in line.strip("|").split("|"))
        modules = re.findall(r"`(urnld[\w.]*)`", twins)
        for h in re.findall(r"`([\w.]+\.h)`", headers):
            rows[h] = (modules, re.findall(r"`(tests/[\w/.]+\.py)`", tests))
    return rows


def test_every_header_has_a_row() -> None:
    headers = {p.name for p in HEADERS.glob("*.h")} - NOT_TWINS
    rows = _rows()
    assert len(headers) >= 10
    assert sorted(headers - rows.keys()) == []
    assert sorted(rows.keys() - headers) == []  # a row of a header that is gone


def test_every_row_names_modules_and_tests_that_exist() -> None:
    for header, (modules, tests) in _rows().items():
        assert modules, header
        for name in modules:
            importlib.import_module(name)
        assert tests, header
        for t in tests:
            assert (ROOT / t).is_file(), (header, t)


def test_each_header_says_whose_twin_it_is() -> None:
    for path in HEADERS.glob("*.h"):
        if path.name in NOT_TWINS:
            continue
        first = path.read_text(encoding="utf-8").split("*/", 1)[0]
        assert re.search(r"(?i)twin of", first), path.name
