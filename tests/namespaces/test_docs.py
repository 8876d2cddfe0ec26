"""docs/namespaces.md: its tables say what the rules do (its examples run in tests/docs/)."""

from __future__ import annotations

import re
from pathlib import Path

from urnld._core._builtin import BUILTIN
from urnld.namespaces import get_rule

DOC = Path(__file__).resolve().parents[2] / "docs" / "namespaces.md"


def test_table_has_one_row_per_builtin_nid_with_its_reference() -> None:
    rows = {
        m.group(1): m.group(2)
        for m in re.finditer(r"^\| `([a-z]+)` \| ([^|]+) \|", DOC.read_text(), re.MULTILINE)
    }
    assert set(rows) == set(BUILTIN)
    for nid, reference in rows.items():
        assert get_rule(nid).reference.split(";")[0].split(" (")[0] in reference, nid


def test_real_world_table_states_the_verdicts() -> None:
    """Each row of "Known real-world exceptions" says what check() does, default and strict."""
    from urnld import check
    from urnld.findings import Severity

    text = DOC.read_text().split("## Known real-world exceptions", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `([^`]+)` \| [^|]+ \| ([^|]+) \| ([^|]+) \|", text, re.MULTILINE)
    assert len(rows) >= 14

    def verdict(urn: str, strict: bool) -> str:
        found = [f for f in check(urn, strict=strict) if f.severity is not Severity.INFO]
        errors = [f.code for f in found if f.severity is Severity.ERROR]
        if errors:
            return f"error `{errors[0]}`"
        warnings = [f.code for f in found]
        return f"valid (warning `{warnings[0]}`)" if warnings else "valid"

    for written, default, strict in rows:
        urn = written.replace("…", "x")
        assert default.strip().startswith(verdict(urn, False)), (urn, default)
        assert strict.strip().startswith(verdict(urn, True)), (urn, strict)
