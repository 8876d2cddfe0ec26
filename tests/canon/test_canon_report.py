"""Reports: exact counts, bounded examples, merge associative and order-independent."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from urnld import check
from urnld.report import DEFAULT_MAX_EXAMPLES, CanonicalizeReport, CheckReport

# A record: (kind, spelling index, count). Few distinct keys so that clusters really form.
SPELLINGS = [
    ("urn:isbn:0395363411", "urn:isbn:0395363411", "isbn"),
    ("URN:ISBN:0-395-36341-1", "urn:isbn:0395363411", "isbn"),
    ("urn:ISBN:0395363411", "urn:isbn:0395363411", "isbn"),
    ("urn:uuid:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6",
     "urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6", "uuid"),
    ("urn:example:a", "urn:example:a", "example"),
    ("urn:example:b", "urn:example:b", "example"),
    ("urn:example:c", "urn:example:c", "example"),
    ("urn:EXAMPLE:c", "urn:example:c", "example"),
]
INVALID = ["urn:x-foo:bar", "urn:ex:1", "urn:isbn:"]

records = st.lists(
    st.one_of(
        st.tuples(st.just("urn"), st.integers(0, len(SPELLINGS) - 1), st.integers(1, 5)),
        st.tuples(st.just("invalid"), st.integers(0, len(INVALID) - 1), st.integers(1, 5)),
        st.tuples(st.just("error"), st.integers(1, 50), st.just(1)),
        st.tuples(st.just("stmt"), st.integers(0, 0), st.integers(1, 9)),
    ),
    max_size=40,
)


def _canon_report(recs: list[tuple[str, int, int]], cap: int) -> CanonicalizeReport:
    r = CanonicalizeReport(max_examples=cap)
    for kind, i, n in recs:
        if kind == "urn":
            spelling, canonical, nid = SPELLINGS[i]
            r.record_urn(spelling, canonical, nid, n, dropped="#f" if i % 3 == 0 else None)
        elif kind == "invalid":
            r.record_invalid(INVALID[i], f"reason for {INVALID[i]}", n)
        elif kind == "error":
            r.record_error("f.nt", i, "malformed")
        else:
            r.statements_in += n
            r.statements_out += n
    return r


def _check_report(recs: list[tuple[str, int, int]], cap: int) -> CheckReport:
    r = CheckReport(max_examples=cap)
    for kind, i, n in recs:
        if kind == "urn":
            spelling, canonical, nid = SPELLINGS[i]
            r.record_urn(spelling, check(spelling), canonical=canonical, nid=nid, count=n,
                         literal=i % 2 == 0)
        elif kind == "invalid":
            r.record_urn(INVALID[i], check(INVALID[i]), canonical=None, nid=None, count=n)
        elif kind == "error":
            r.record_error("f.nt", i, "malformed")
        else:
            r.statements_in += n
    return r


def _split(recs: list[tuple[str, int, int]], cuts: list[int]) -> list[list[tuple[str, int, int]]]:
    points = sorted({min(c, len(recs)) for c in cuts})
    parts, start = [], 0
    for p in [*points, len(recs)]:
        parts.append(recs[start:p])
        start = p
    return parts


@pytest.mark.parametrize("build", [_canon_report, _check_report])
@given(recs=records, cuts=st.lists(st.integers(0, 40), max_size=4), cap=st.integers(1, 4),
       seed=st.integers(0, 2**16))
def test_merge_of_partitions_equals_single_pass(build, recs, cuts, cap, seed):
    """Any partitioning, merged in any order and grouping, equals the report of the whole."""
    whole = build(recs, cap)
    parts = [build(p, cap) for p in _split(recs, cuts)]
    rnd = random.Random(seed)
    rnd.shuffle(parts)
    # left fold
    left = parts[0]
    for p in parts[1:]:
        left = left.merge(p)
    # random tree
    pool = list(parts)
    while len(pool) > 1:
        i = rnd.randrange(len(pool) - 1)
        pool[i : i + 2] = [pool[i].merge(pool[i + 1])]
    assert left == whole
    assert pool[0] == whole
    assert left.to_dict() == whole.to_dict()


@given(recs=records)
def test_counts_are_exact_even_when_examples_are_capped(recs):
    small = _canon_report(recs, 1)
    big = _canon_report(recs, 1000)
    ds, db = small.to_dict(), big.to_dict()
    for key in ("statements", "urns", "options"):
        assert ds[key] == db[key]
    assert ds["errors"]["count"] == db["errors"]["count"]
    # Every kept example carries its exact count (the same as with no cap).
    for canonical, spellings in ds["clusters"].items():
        assert db["clusters"][canonical] == spellings
    for spelling, info in ds["invalid"]["urns"].items():
        assert db["invalid"]["urns"][spelling] == info
    assert len(ds["invalid"]["urns"]) <= 1
    assert len(ds["errors"]["lines"]) <= 1


def test_cap_keeps_smallest_keys_and_says_truncated():
    r = CanonicalizeReport(max_examples=2)
    for i in (5, 1, 4, 2, 3, 1):
        r.record_invalid(f"urn:x-{i}:a", "bad")
    d = r.to_dict()["invalid"]
    assert d["truncated"] is True
    assert d["urns"] == {"urn:x-1:a": {"count": 2, "finding": "bad"},
                         "urn:x-2:a": {"count": 1, "finding": "bad"}}
    assert r.invalid_occurrences == 6
    assert DEFAULT_MAX_EXAMPLES == 10_000


def test_to_dict_is_json_and_deterministic():
    recs = [("urn", i % len(SPELLINGS), 1) for i in range(30)] + [("error", 3, 1)]
    a = _canon_report(recs, 100)
    b = _canon_report(list(reversed(recs)), 100)
    assert json.dumps(a.to_dict(), sort_keys=True) == json.dumps(b.to_dict(), sort_keys=True)
    assert a == b
    c = _check_report(recs, 100)
    json.dumps(c.to_dict())
    assert c.to_dict()["clusters"]["groups"]["urn:isbn:0395363411"] == {
        "URN:ISBN:0-395-36341-1": 4, "urn:ISBN:0395363411": 4, "urn:isbn:0395363411": 4}


def test_clusters_only_show_rewritten_or_multiple_spellings():
    r = CanonicalizeReport()
    r.record_urn("urn:example:a", "urn:example:a", "example")
    r.record_urn("URN:example:b", "urn:example:b", "example")
    assert r.to_dict()["clusters"] == {"urn:example:b": {"URN:example:b": 1}}
    assert r.clusters == {"urn:example:a": {"urn:example:a": 1},
                          "urn:example:b": {"URN:example:b": 1}}
    assert r.rewritten == 1
    assert r.urn_occurrences == 2


def test_check_report_ok_and_error_counts():
    r = CheckReport()
    r.record_urn("urn:isbn:0395363411", check("urn:isbn:0395363411"),
                 canonical="urn:isbn:0395363411", nid="isbn")
    assert r.ok
    r.record_urn("urn:isbn:0395363412", check("urn:isbn:0395363412"),
                 canonical="urn:isbn:0395363412", nid="isbn", count=3)
    assert not r.ok
    assert r.error_occurrences == 3
    assert r.invalid["urn:isbn:0395363412"][1].startswith("nss-check-digit: ")
    assert r.findings["nss-check-digit"] == 3


def test_merge_rejects_mismatches():
    with pytest.raises(ValueError, match="different options"):
        CanonicalizeReport(literals=True).merge(CanonicalizeReport())
    with pytest.raises(TypeError):
        CanonicalizeReport().merge(CheckReport())  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="max_examples"):
        CheckReport(max_examples=0)
