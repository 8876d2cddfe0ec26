"""Adversarial inputs finish in linear time: parse, is_valid, check, find_urns and canonical.

Each input is built at 1 MB and at 2 MB, and the 2 MB run must take less than about four times
as long as the 1 MB one (twice for linear work, with room for a shared, noisy CI machine;
quadratic work takes four times as long *plus* the noise, cubic eight, and backtracking far
more). No absolute bound: the ratio of two runs measured here holds on any machine.

Times are CPU time of this process (``time.process_time``), not wall-clock time, so other
processes on a shared machine do not make the bound flaky.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable

import pytest

import urnld
from urnld import URNSyntaxError

MB = 1_000_000
# Below this, timings are dominated by noise (a busy machine, the suite's other worker): the
# growth ratio is not judged under it. A quadratic algorithm takes seconds on 2 MB.
NOISE_FLOOR = 0.1


def _parse(s: str) -> object:
    try:
        return urnld.parse(s)
    except URNSyntaxError as e:
        return e.position


def _canonical(s: str) -> object:
    try:
        return urnld.canonical(s)
    except URNSyntaxError as e:
        return e.position


def _display(s: str) -> object:
    try:
        return urnld.URN(s).display()
    except URNSyntaxError as e:
        return e.position


FUNCTIONS: dict[str, Callable[[str], object]] = {
    "display": _display,
    "parse": _parse,
    "is_valid": urnld.is_valid,
    "check": urnld.check,
    "find_urns": lambda s: list(urnld.find_urns(s)),
    "canonical": _canonical,
}


def _repeat(unit: str, n: int, head: str = "", tail: str = "") -> str:
    return head + unit * ((n - len(head) - len(tail)) // len(unit)) + tail


INPUTS: dict[str, Callable[[int], str]] = {
    "percent": lambda n: "%" * n,
    "colon": lambda n: ":" * n,
    "qplus": lambda n: _repeat("?+", n),
    "urn-repeated": lambda n: _repeat("urn:", n),
    "long-nid": lambda n: _repeat("a", n, head="urn:"),
    "long-nss-bad-pct-at-end": lambda n: _repeat("a", n, head="urn:ex:", tail="%"),
    "long-nss-space-at-end": lambda n: _repeat("a/", n, head="urn:example:", tail=" "),
    "long-valid": lambda n: _repeat("a", n, head="urn:example:"),
    "lowercase-escapes": lambda n: _repeat("%2a", n, head="urn:example:"),
    "not-utf8-escapes": lambda n: _repeat("%C3", n, head="urn:example:"),
    # display(): one run of escapes of visible and of invisible non-ASCII characters
    "utf8-escapes": lambda n: _repeat("%C4%81", n, head="urn:example:"),
    "hidden-escapes": lambda n: _repeat("%E2%80%8B", n, head="urn:example:"),
    "r-of-question-marks": lambda n: _repeat("?", n, head="urn:example:a?+"),
    "q-of-q-delims": lambda n: _repeat("?=", n, head="urn:example:a?="),
    "f-of-r-delims": lambda n: _repeat("?+", n, head="urn:example:a#"),
    "hash-then-question": lambda n: _repeat("#?", n, head="urn:example:a"),
    # find_urns: many starts inside one run of URN characters, each failing or cut short
    "starts-in-a-run": lambda n: _repeat("urn:x(", n),
    "cut-short-in-a-run": lambda n: _repeat("urn:ex:a%(", n),
    "closing-parens": lambda n: _repeat(")", n, head="urn:example:a"),
    "trailing-punctuation": lambda n: _repeat(".,;", n, head="urn:example:a"),
    "url-labels": lambda n: _repeat("<URL:", n, tail="urn:example:a"),
    "many-urns": lambda n: _repeat("urn:example:a ", n),
}


def _measure(func: Callable[[str], object], text: str) -> float:
    best = float("inf")
    for _ in range(3):
        # The cyclic collector's passes grow with everything the rest of the test session keeps
        # alive, not with this input: they are switched off while the function under test runs.
        gc.collect()
        gc.disable()
        try:
            start = time.process_time()
            func(text)
            elapsed = time.process_time() - start
        finally:
            gc.enable()
        best = min(best, elapsed)
        if elapsed > 0.2:  # long enough to be a reliable reading
            break
    return best


@pytest.mark.slow
@pytest.mark.parametrize("input_name", list(INPUTS))
@pytest.mark.parametrize("func_name", list(FUNCTIONS))
def test_linear_time(input_name: str, func_name: str) -> None:
    func, make = FUNCTIONS[func_name], INPUTS[input_name]
    one, two = make(MB), make(2 * MB)
    assert MB - 16 <= len(one) <= MB and 2 * MB - 16 <= len(two) <= 2 * MB
    t1 = _measure(func, one)
    t2 = _measure(func, two)
    if t2 > max(4 * t1, NOISE_FLOOR):
        # One retry: another agent's burst on a shared machine is not a quadratic algorithm.
        t1, t2 = min(t1, _measure(func, one)), min(t2, _measure(func, two))
    assert t2 <= max(4 * t1, NOISE_FLOOR), (
        f"{func_name}({input_name}): 1 MB {t1:.3f} s, 2 MB {t2:.3f} s — not linear"
    )


def test_results_on_adversarial_inputs_are_right() -> None:
    # Not only fast: the answers are the expected ones.
    assert _display("urn:example:" + "%C4%81" * 1000) == "urn:example:" + "ā" * 1000
    hidden = "urn:example:" + "%E2%80%8B" * 1000
    assert _display(hidden) == hidden
    assert _parse("%" * MB) == 0
    assert _parse(_repeat("a", MB, head="urn:ex:", tail="%")) == MB - 1
    assert urnld.is_valid(_repeat("a", MB, head="urn:example:"))
    assert not urnld.is_valid(_repeat("a", MB, head="urn:"))
    found = list(urnld.find_urns(_repeat("urn:example:a ", 14 * 1000)))
    assert len(found) == 1000
    assert [str(u) for _, _, u in urnld.find_urns(_repeat(")", 10_000, head="urn:example:a"))] == [
        "urn:example:a"
    ]
    assert list(urnld.find_urns(_repeat("urn:x(", 60_000))) == []


def test_memory_does_not_grow_with_distinct_nids() -> None:
    # A long-running checker (a service, a pass over a huge dump) meets untold NIDs, many
    # invalid or random. Whatever urnld caches per NID must stay bounded: 50,000 distinct
    # unknown NIDs (and 10,000 case variants) may not leave megabytes behind.
    import gc
    import random
    import tracemalloc

    rng = random.Random(8141)
    texts = [f"urn:n{rng.getrandbits(64):x}:a" for _ in range(50_000)]
    variants = ["urn:" + t[4:].upper() for t in texts[:10_000]]
    urnld.canonical("urn:example:a")  # warm the caches that are legitimately per process
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.take_snapshot()
        for t in texts:
            urnld.canonical(t)
        for t in variants:
            urnld.check(t)
        gc.collect()
        after = tracemalloc.take_snapshot()
    finally:
        tracemalloc.stop()
    retained = sum(stat.size_diff for stat in after.compare_to(before, "filename"))
    assert retained < 1_000_000, f"{retained:,} bytes retained after 60,000 distinct NIDs"
