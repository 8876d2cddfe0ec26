"""Reports past their memory budget: exact at any size, the same whatever spilled.

A report's maps spill sorted runs to disk past their share of ``memory_budget``; these tests
give budgets of a few keys so that every path (adding, merging, pickling, reading) meets runs,
and compare with the same report kept in memory and with counts made independently.
"""

from __future__ import annotations

import os
import pickle
from collections import Counter

from hypothesis import example, given, settings
from hypothesis import strategies as st

from urnld import check
from urnld._kernel import handoff_runs
from urnld._kernel._report import _add, _Capped, _count_with_text
from urnld.report import CanonicalizeReport, CheckReport

from .test_canon_report import INVALID, SPELLINGS, _split, records

BIG = 1 << 40  # a budget nothing reaches: the reference, all in memory

keys = st.text(alphabet="abcXYZ:%-", min_size=1, max_size=4)
ops = st.lists(st.tuples(st.sampled_from(["add", "many", "counts"]),
                         st.lists(st.tuples(keys, st.integers(1, 9)), max_size=12)),
               max_size=12)


def _fill(m: _Capped, script: list) -> Counter[str]:
    truth: Counter[str] = Counter()
    for how, items in script:
        for k, v in items:
            truth[k] += v
        if how == "add":
            for k, v in items:
                m.add(k, v)
        elif how == "many":
            m.add_many(items)
        else:
            batch: dict[str, int] = {}
            for k, v in items:
                batch[k] = batch.get(k, 0) + v
            m.add_counts(batch)
    return truth


@settings(max_examples=150, deadline=None)
@given(ops, st.integers(1, 5), st.integers(1, 6))
def test_a_spilling_map_is_exact(script, cap, max_keys) -> None:
    m: _Capped[str, int] = _Capped(cap, _add, max_keys=max_keys)
    truth = _fill(m, script)
    assert list(m.iter_all()) == sorted(truth.items())
    assert m.distinct() == len(truth)
    assert m.items() == sorted(truth.items())[:cap]
    assert m.truncated == (len(truth) > cap)
    # pickled with its runs (bytes, and by name for a process of this machine)
    assert list(pickle.loads(pickle.dumps(m)).iter_all()) == sorted(truth.items())
    with handoff_runs():
        data = pickle.dumps(m)
    assert list(pickle.loads(data).iter_all()) == sorted(truth.items())


@settings(max_examples=100, deadline=None)
@given(ops, ops, ops, st.integers(1, 4))
def test_merging_spilled_maps_is_exact_and_order_free(a, b, c, max_keys) -> None:
    maps = []
    truth: Counter[str] = Counter()
    for script in (a, b, c):
        m: _Capped[str, int] = _Capped(3, _add, max_keys=max_keys)
        truth += _fill(m, script)
        maps.append(m)
    x, y, z = maps
    left = x.merged(y).merged(z)
    right = z.merged(x.merged(y))
    assert list(left.iter_all()) == list(right.iter_all()) == sorted(truth.items())
    # the operands are unchanged (runs are shared, never written again)
    assert dict(x.iter_all()) == dict(maps[0].iter_all())


def test_values_with_text_combine_in_any_order() -> None:
    m: _Capped[str, tuple[int, str]] = _Capped(2, _count_with_text, max_keys=1)
    for k, v in [("b", (1, "z")), ("a", (2, "y")), ("b", (3, "a")), ("a", (1, "x"))]:
        m.add(k, v)
    assert list(m.iter_all()) == [("a", (3, "x")), ("b", (4, "a"))]
    assert len(m.runs) >= 2


def _check_report(recs, budget: int) -> CheckReport:
    r = CheckReport(max_examples=2, memory_budget=budget)
    for kind, i, n in recs:
        if kind == "urn":
            spelling, canonical, nid = SPELLINGS[i]
            r.record_urn(spelling, check(spelling), canonical=canonical, nid=nid, count=n)
        elif kind == "invalid":
            r.record_urn(INVALID[i], check(INVALID[i]), canonical=None, nid=None, count=n)
        elif kind == "error":
            r.record_error("f.nt", i, "malformed")
        else:
            r.statements_in += n
    return r


def _canon_report(recs, budget: int) -> CanonicalizeReport:
    r = CanonicalizeReport(max_examples=2, memory_budget=budget)
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
    return r


def _independent(recs) -> dict[str, object]:
    """The distinct counts, made from the records alone."""
    spellings = {SPELLINGS[i][0] for kind, i, _ in recs if kind == "urn"}
    by_canonical: dict[str, set[str]] = {}
    for s in spellings:
        c = next(c for sp, c, _ in SPELLINGS if sp == s)
        by_canonical.setdefault(c, set()).add(s)
    several = {c: v for c, v in by_canonical.items() if len(v) > 1}
    invalid = {INVALID[i] for kind, i, _ in recs if kind == "invalid"}
    return {
        "invalid": len(invalid),
        "invalid_errors": len({s for s in invalid
                               if any(f.severity == "error" for f in check(s))}),
        "non_canonical": len({s for s in spellings
                              if s != next(c for sp, c, _ in SPELLINGS if sp == s)}),
        "several": len(several),
        "sizes": dict(Counter(str(len(v)) for v in several.values())),
        "merged": sum(len(v) for c, v in by_canonical.items() if len(v) > 1 or c not in v),
    }


@settings(max_examples=150, deadline=None)
@given(records, st.lists(st.integers(0, 40), max_size=3))
def test_a_spilled_report_equals_the_one_in_memory(recs, cuts) -> None:
    for make in (_check_report, _canon_report):
        small, big = make(recs, 0), make(recs, BIG)
        assert small.to_dict() == big.to_dict()
        parts = [make(p, 0) for p in _split(recs, cuts)]
        merged = parts[0]
        for p in parts[1:]:
            merged = merged.merge(p)
        assert merged.to_dict() == big.to_dict()
        back = pickle.loads(pickle.dumps(merged))
        assert back.to_dict() == big.to_dict()
    d = _check_report(recs, 0).to_dict()
    want = _independent(recs)
    assert d["invalid"]["distinct"] == want["invalid_errors"]
    assert d["non_canonical"]["distinct"] == want["non_canonical"]
    assert d["clusters"]["count"] == want["several"]
    assert d["clusters"]["sizes"] == want["sizes"]
    c = _canon_report(recs, 0).to_dict()
    assert c["merged"]["spellings"] == want["merged"]
    assert c["invalid"]["distinct"] == want["invalid"]


def test_thirty_thousand_spellings_are_counted_exactly() -> None:
    # past the 10,000 examples a map shows: the distinct counts stay exact
    r = CheckReport(memory_budget=64 << 10)
    n = 30_000
    r.record_counts({"not-canonical": n}, {"example": n},
                    {(f"urn:example:item-{i}", f"URN:EXAMPLE:item-{i}"): 1 for i in range(n)},
                    iris=n, non_canonical=n)
    assert any(m.runs for m in (r._clusters,))
    d = r.to_dict()
    assert d["non_canonical"]["distinct"] == n
    assert len(d["non_canonical"]["spellings"]) == 10_000 and d["non_canonical"]["truncated"]
    assert d["clusters"]["count"] == 0
    assert sum(1 for _ in r.iter_non_canonical()) == n


def test_runs_leave_no_file_behind(tmp_path) -> None:
    from urnld._kernel import owner_tag, set_spill_directory, spill_directory

    saved = os.environ.get("URNLD_SPILL_DIR")
    set_spill_directory(str(tmp_path))
    try:
        assert spill_directory() == str(tmp_path)
        r = CheckReport(memory_budget=0)
        r.record_counts({}, {"a": 100},
                        {(f"urn:a:{i}", f"URN:A:{i}"): 1 for i in range(100)})
        with handoff_runs():
            data = pickle.dumps(r)
        # named after their owner, so the next run there removes them if this one is killed
        assert any(p.name.startswith(f".urnld-{owner_tag()}-") for p in tmp_path.iterdir())
        back = pickle.loads(data)  # the receiver takes the named runs back
        assert back.to_dict() == r.to_dict()
        assert list(tmp_path.iterdir()) == []  # runs are unnamed files
    finally:
        set_spill_directory(saved)


def test_a_run_handed_off_by_a_killed_process_is_removed_by_the_next_run(tmp_path) -> None:
    # A worker killed after naming a run for its parent leaves the name; it carries the owner,
    # so the next urnld process that spills there removes it.
    import subprocess
    import sys

    from urnld._kernel import set_spill_directory

    child = (
        "import os, pickle, sys\n"
        "from urnld._kernel import handoff_runs, set_spill_directory\n"
        "from urnld.report import CheckReport\n"
        "set_spill_directory(sys.argv[1])\n"
        "r = CheckReport(memory_budget=0)\n"
        "r.record_counts({}, {'a': 100}, {(f'urn:a:{i}', f'URN:A:{i}'): 1 for i in range(100)})\n"
        "with handoff_runs():\n"
        "    pickle.dumps(r)\n"
        "os._exit(0)  # as if killed: the receiver never takes the runs\n"
    )
    subprocess.run([sys.executable, "-c", child, str(tmp_path)], check=True)
    left = list(tmp_path.iterdir())
    assert left and all(p.name.startswith(".urnld-") for p in left)
    saved = os.environ.get("URNLD_SPILL_DIR")
    set_spill_directory(str(tmp_path))
    try:
        r = CheckReport(memory_budget=0)
        r.record_counts({}, {"a": 100}, {(f"urn:a:{i}", f"URN:A:{i}"): 1 for i in range(100)})
        with handoff_runs():
            data = pickle.dumps(r)
        pickle.loads(data)
        assert list(tmp_path.iterdir()) == []
    finally:
        set_spill_directory(saved)


@given(ops, st.integers(1, 5), st.integers(1, 6))
@example([("counts", [("a", 1), ("b", 1)])], 1, 6)  # one key past the cap, none spilled
@example([("counts", [("a", 1), ("b", 1)]), ("counts", [("a", 1)])], 2, 1)  # "a" in two runs
def test_truncated_and_keys_without_the_merge(script, cap, max_keys) -> None:
    # truncated asked first (no summary made yet: the count of keys per run may settle it
    # without a merge) and the keys walked run by run say what the merged map says.
    m: _Capped[str, int] = _Capped(cap, _add, max_keys=max_keys)
    truth = _fill(m, script)
    assert m.truncated == (len(truth) > cap)
    assert set(m.all_keys()) == set(truth)
    assert len(list(m.all_keys())) >= len(truth)


_LOCATOR_ROWS = st.lists(st.tuples(
    st.sampled_from(["https://doi.org/10.1000/", "doi:10.1000/", "https://id.gs1.org/00/"]),
    st.integers(1, 30), st.booleans(), st.integers(1, 3)), max_size=40)  # fmt: skip


@settings(max_examples=60, deadline=None)
@given(_LOCATOR_ROWS, st.sampled_from([0, 1 << 10, BIG]))
def test_locator_links_from_unsorted_keys(rows, budget) -> None:
    # report_extras for link_locators alone reads the canonical URNs and the locator pairs
    # without sorting them: the same statements as from the sorted spellings and pairs.
    from urnld._kernel._links import LinkOptions, extra_statements, report_extras

    r = CanonicalizeReport(max_examples=10**6, memory_budget=budget)
    for start, k, occurs, n in rows:
        urn = f"urn:doi:10.1000/{k}"
        if occurs:  # the URN itself occurs in the data
            r.record_urn(urn.upper(), urn, "doi", n)
        gs1 = start.startswith("https://id.gs1.org/")
        r.record_locators([(f"{start}{k}", "" if gs1 else urn, None if gs1 else "doi", n,
                            False)])
    assert r.canonical_urns() == {c for c, _s in r.spellings()}
    assert r.locator_pair_set() == set(r.locator_pairs())
    opts = LinkOptions(link_locators=True)
    expected = extra_statements(r.spellings(), opts, r.locator_pairs())
    assert report_extras(r, opts) == expected
    # owl:sameAs both ways for each DOI locator whose URN occurs (a GS1 Digital Link gets
    # none without the EPC URN of the data)
    occurring = {k for _s, k, occurs, _n in rows if occurs}
    linked = {(s, k) for s, k, _o, _n in rows if "gs1" not in s and k in occurring}
    assert len(expected) == 2 * len(linked)
