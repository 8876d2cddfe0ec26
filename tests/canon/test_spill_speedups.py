"""The compiled encoder of a report map's spill makes the bytes of its Python twin (differential).

``urnld._kernel._spill._encode_counts`` is the reference: a counting map's items sorted by key
and written as column records, or None when the map does not fit them (other values or keys,
a separator or a lone surrogate in a key, a count past 64 bits). The accelerator's
``encode_counts`` must give the same answer, byte for byte, on any map; and whatever either
writes, the map reads back every item exact and in Python's order.
"""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from urnld._kernel._clusters import _cluster_batch, _cluster_loop, _ClusterColumns, new_state
from urnld._kernel._report import _add, _Capped
from urnld._kernel._spill import PAIR, STR, Run, _encode_counts, _merge_columns, merge_counts

speedups = pytest.importorskip("urnld._core._speedups", reason="the C accelerator is not built")

# Text that meets every branch: ASCII, Latin-1, BMP and astral characters (UTF-8 of 1 to 4
# bytes, whose byte order must stay code-point order), the separators (line feed, NUL), a
# lone surrogate (what an N-Triples \uD800 escape decodes to), and shared prefixes longer
# than the compiled sort's 16-byte heads.
ALPHABET = "aAz:%-\n\x00é\u20ac\U0001f600\ud800"
texts = st.text(alphabet=ALPHABET, max_size=6).map(lambda t: t[:3] and "urn:example:long" + t)
short = st.text(alphabet=ALPHABET, max_size=4)
words = st.one_of(short, texts)
counts = st.one_of(st.integers(-5, 50), st.integers(-(1 << 64), 1 << 64), st.booleans())
str_maps = st.dictionaries(words, counts, max_size=40)
pair_maps = st.dictionaries(st.tuples(words, words), counts, max_size=40)
odd_maps = st.dictionaries(st.one_of(words, st.tuples(words, words), st.tuples(words),
                                     st.tuples(words, st.integers(0, 3))),
                           st.one_of(counts, st.tuples(st.integers(0, 3), words)), max_size=8)


@settings(max_examples=400, deadline=None)
@given(st.one_of(str_maps, pair_maps, odd_maps), st.integers(1, 9))
@example({("urn:a:b", "URN:A:b"): 1, ("urn:a:b", "urn:a:b"): 2}, 1)
@example({"a\n": 1}, 3)
@example({("a", "b\x00"): 1}, 3)
@example({"a\x00": 1, "a": 2}, 1)
@example({"\ud800": 1}, 1)
@example({"a": 1 << 63}, 1)
@example({"a": -(1 << 63)}, 1)
@example({"a": True}, 1)
@example({}, 1)
def test_compiled_encoder_makes_the_twins_bytes(data, per_record) -> None:
    assert speedups.encode_counts(data, per_record) == _encode_counts(data, per_record)


@settings(max_examples=200, deadline=None)
@given(st.one_of(str_maps, pair_maps), st.integers(1, 5))
def test_column_records_read_back_every_item_in_order(data, per_record) -> None:
    records = _encode_counts(data, per_record)
    fits = all(type(v) is int and -(1 << 63) <= v < 1 << 63 for v in data.values())
    if records is None:
        # only what a column record cannot hold falls back to marshal
        keys = [k if isinstance(k, str) else k[0] + k[1] for k in data]
        assert not data or not fits or any(
            "\n" in k or "\ud800" in k for k in keys
        ) or any(isinstance(k, tuple) and "\x00" in k[0] + k[1] for k in data)
        return
    run = Run.of_records(records)
    assert run.kind in (STR, PAIR) and len(run) == len(data)
    assert list(run) == sorted(data.items())


@settings(max_examples=150, deadline=None)
@given(st.lists(st.dictionaries(st.tuples(short, short), st.integers(1, 9), max_size=12),
                max_size=6), st.integers(1, 4))
def test_merging_columns_adds_equal_keys(batches, max_keys) -> None:
    # A counting map spills column runs; its merge (iter_all, the fan-in, the summary) equals
    # counts made independently, whatever the record and batch boundaries.
    truth: dict[tuple[str, str], int] = {}
    m: _Capped[tuple[str, str], int] = _Capped(3, _add, max_keys=max_keys)
    for batch in batches:
        for k, v in batch.items():
            truth[k] = truth.get(k, 0) + v
        m.add_counts(batch)
    expected = sorted(truth.items())
    assert list(m.iter_all()) == expected
    assert m.distinct() == len(truth) and m.items() == expected[:3]
    sources = [[(["a", "c"], [1, 1]), (["d"], [4])], [(["a", "b"], [2, 5])], [([], [])]]
    assert [(k, v) for keys, values in merge_counts(sources) for k, v in zip(keys, values, strict=True)] \
        == [("a", 3), ("b", 5), ("c", 1), ("d", 4)]


pair_counts = st.dictionaries(
    st.tuples(st.sampled_from(["urn:a:b", "urn:a:c", "urn:b:x", "urn:c:1"]),
              st.sampled_from(["urn:a:b", "URN:A:b", "urn:A:b", "urn:a:c", "URN:a:c", "urn:b:x",
                               "URN:B:x", "urn:c:1", "Urn:c:1", "z"])),
    st.integers(1, 9), max_size=30)


@settings(max_examples=300, deadline=None)
@given(pair_counts, st.integers(1, 4), st.lists(st.integers(1, 6), min_size=1, max_size=8))
@example({("urn:a:b", "URN:A:b"): 1, ("urn:b:x", "urn:b:x"): 1}, 1, [1])
def test_the_bulk_cluster_pass_equals_the_item_loop(data, cap, cuts) -> None:
    # The cluster pass over column batches (spilled maps) must give the figures, examples and
    # rewritten spellings of the pass item by item, wherever the batches cut a group.
    items = sorted(data.items())
    keys = ["\0".join(k) for k, _ in items]
    values = [v for _, v in items]
    batches, i, k = [], 0, 0
    while i < len(keys):
        step = cuts[k % len(cuts)]
        batches.append((keys[i:i + step], values[i:i + step]))
        i, k = i + step, k + 1
    assert _ClusterColumns(cap).run(batches) == _cluster_loop(items, cap)


sorted_parts = st.lists(
    st.dictionaries(words, st.one_of(st.integers(-5, 50), st.integers(1 << 62, 1 << 70)),
                    max_size=12).map(lambda d: (sorted(d), [d[k] for k in sorted(d)])),
    max_size=6)


@settings(max_examples=300, deadline=None)
@given(sorted_parts)
@example([(["a", "b"], [1, 2]), (["b", "c"], [1 << 63, 1])])
@example([(["z", "é"], [1, 1]), (["\U0001f600"], [2]), (["a", "é"], [3, 4])])
def test_compiled_merge_gives_the_twins_columns(parts) -> None:
    assert speedups.merge_columns(parts) == _merge_columns(parts)
    merged = {}
    for keys, values in parts:
        for k, v in zip(keys, values, strict=True):
            merged[k] = merged.get(k, 0) + v
    assert _merge_columns(parts) == (sorted(merged), [merged[k] for k in sorted(merged)])


def test_the_compiled_merge_leaves_other_columns_to_the_twin() -> None:
    assert speedups.merge_columns([(["a"], [1.5])]) is None
    assert speedups.merge_columns([([("a", "b")], [1])]) is None
    assert speedups.merge_columns([(["a", "b"], [1])]) is None


# canonical forms and spellings of 1, 2 and 4 bytes a character, equal or not, so that the
# compiled pass compares across string kinds
forms = st.sampled_from(["urn:a:b", "urn:a:é", "urn:a:\u20ac", "urn:a:\U0001f600", "urn:a:c"])
spells = st.sampled_from(["urn:a:b", "URN:A:b", "urn:a:é", "URN:a:é", "urn:a:\u20ac",
                          "urn:a:\U0001f600", "Urn:a:\U0001f600", "urn:a:c", "z", ""])


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.tuples(forms, spells), st.integers(1, 9), max_size=25),
       st.lists(st.integers(1, 6), min_size=1, max_size=6),
       st.lists(st.one_of(st.none(), spells), min_size=1, max_size=4))
def test_compiled_cluster_batch_gives_the_twins_state(data, cuts, worsts) -> None:
    items = sorted(data.items())
    keys = ["\0".join(k) for k, _ in items]
    values = [v for _, v in items]
    c_state, py_state = new_state(), new_state()
    i = k = 0
    while i <= len(keys):  # an empty batch too, at the end
        step = cuts[k % len(cuts)]
        worst = worsts[k % len(worsts)]
        batch = (keys[i:i + step], values[i:i + step])
        assert speedups.cluster_batch(*batch, c_state, worst) \
            == _cluster_batch(*batch, py_state, worst)
        assert c_state == py_state
        i, k = i + step, k + 1


def test_the_compiled_cluster_batch_leaves_other_keys_to_the_twin() -> None:
    state = new_state()
    assert speedups.cluster_batch(["no separator"], [1], state, None) is None
    assert speedups.cluster_batch([("a", "b")], [1], state, None) is None
    assert state == new_state()
