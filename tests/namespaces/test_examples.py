"""The 117 rows of tests/data/nid_examples.jsonl behave as recorded.

Validity means: ``check()`` has no error finding. Rows under ``urn:nbn:de`` are checked with the
opt-in DNB profile ``nbn-de`` enabled: the row ``urn:nbn:de:gbv:089-3321752946`` is recorded as
invalid *only* under the DNB national check-digit rule (its note says so), and RFC 8458 itself
has no check digits, so the profile is what makes that verdict reachable.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from urnld import URN, URNSyntaxError, check, equivalent
from urnld.findings import Severity
from urnld.namespaces import GENERIC, get_rule

ROWS: list[dict[str, Any]] = [
    json.loads(line)
    for line in (Path(__file__).resolve().parents[1] / "data" / "nid_examples.jsonl")
    .read_text(encoding="utf-8")
    .splitlines()
    if line.strip()
]
PRE_NAMESPACE_CODES = {"syntax", "nid-experimental", "nid-informal-malformed", "nid-reserved"}


def _profiles(urn: str) -> set[str]:
    return {"nbn-de"} if urn.lower().startswith("urn:nbn:de") else set()


def _errors(urn: str, *, strict: bool = False) -> list[Any]:
    found = check(urn, profiles=_profiles(urn), strict=strict)
    return [f for f in found if f.severity is Severity.ERROR]


def test_table_has_117_rows() -> None:
    assert len(ROWS) == 117


@pytest.mark.parametrize("row", ROWS, ids=[r["urn"] for r in ROWS])
def test_validity(row: dict[str, Any]) -> None:
    errors = _errors(row["urn"])
    assert (not errors) is row["valid"], [(f.code, f.message) for f in errors]
    # Rows whose verdict the strict reading changes (RFC 8141 §5.2 informal NIDs, RFC 5134's
    # numeric SGTIN serials) record it as valid_strict.
    if "valid_strict" in row:
        strict = _errors(row["urn"], strict=True)
        assert (not strict) is row["valid_strict"], [(f.code, f.message) for f in strict]


INVALID = [r for r in ROWS if not r.get("valid_strict", r["valid"])]


@pytest.mark.parametrize("row", INVALID, ids=[r["urn"] for r in INVALID])
def test_invalid_rows_name_the_failed_rule(row: dict[str, Any]) -> None:
    """An invalid example names what failed: RFC 8141 syntax / NID policy, or the NID's rule."""
    errors = _errors(row["urn"], strict=row["valid"])  # valid by default: fails only strict
    assert errors
    if any(f.code in PRE_NAMESPACE_CODES for f in errors):
        # Never reaches the namespace level; the message cites the RFC 8141 rule.
        assert all(f.message for f in errors)
        return
    nid = URN(row["urn"]).nid
    rule = get_rule(nid)
    assert rule is not GENERIC, nid
    namespace_errors = [f for f in errors if f.code in ("nss-invalid", "nss-check-digit")]
    assert namespace_errors, errors
    for f in namespace_errors:
        assert f.rule == rule.rule_name
        assert f.rule.startswith(f"{rule.nid}: ")
        # The span points inside the NSS (offsets are relative to the whole text).
        nss_start = 4 + len(nid) + 1
        assert nss_start <= f.span[0] < f.span[1] <= nss_start + len(URN(row["urn"]).nss)


EQ_PAIRS = [(r["urn"], e) for r in ROWS for e in r.get("equivalent_to", [])]
NEQ_PAIRS = [(r["urn"], e) for r in ROWS for e in r.get("not_equivalent_to", [])]


@pytest.mark.parametrize(("a", "b"), EQ_PAIRS, ids=[f"{a} = {b}" for a, b in EQ_PAIRS])
def test_equivalent(a: str, b: str) -> None:
    assert equivalent(a, b)
    assert equivalent(b, a)
    assert URN(a).assigned_key == URN(b).assigned_key


@pytest.mark.parametrize(("a", "b"), NEQ_PAIRS, ids=[f"{a} != {b}" for a, b in NEQ_PAIRS])
def test_not_equivalent(a: str, b: str) -> None:
    assert not equivalent(a, b)
    assert not equivalent(b, a)


def test_pairs_were_found() -> None:
    # Guard against a silently empty parametrization.
    assert len(EQ_PAIRS) >= 40
    assert len(NEQ_PAIRS) >= 20


@pytest.mark.parametrize("row", ROWS, ids=[r["urn"] for r in ROWS])
def test_canonical_of_every_row_is_stable(row: dict[str, Any]) -> None:
    """Every parseable example has a canonical form that parses, is canonical, and is equivalent."""
    try:
        u = URN(row["urn"])
    except URNSyntaxError:
        assert not row["valid"]
        return
    c = u.canonical_str
    assert URN(c).canonical_str == c
    assert URN(c).is_canonical
    assert equivalent(c, row["urn"])
