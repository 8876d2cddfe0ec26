"""The W3C JSON-LD 1.1 API test suite, offline, through urnld's wrappers.

For every applicable test (see w3c_jsonld_harness.py for what is run and what is not):

1. plain pyld must pass exactly when the test is NOT in data/pyld_expected_failures.json; a listed
   test that starts passing fails here too (xfail-strict style): regenerate the list with
   ``python tests/jsonld/w3c_jsonld_harness.py --write-baseline`` after upgrading pyld;
2. urnld with ``canonicalize=False`` must give pyld's exact result (or error code);
3. urnld with ``canonicalize=True`` (the default) must pass exactly the tests pyld passes, with
   exactly pyld's output where pyld passes (the suite's URNs are already canonical).
"""

from __future__ import annotations

import json
import warnings
from importlib.metadata import version

import pytest
from w3c_jsonld_harness import (
    BASELINE_FILE,
    FRAMING_BASELINE_FILE,
    load_tests,
    pyld_engine,
    run_test,
    urnld_engine,
)

TESTS, SKIPPED = load_tests()
FRAMING_TESTS, FRAMING_SKIPPED = load_tests("framing")
BASELINE = json.loads(BASELINE_FILE.read_text(encoding="utf-8"))
FRAMING_BASELINE = json.loads(FRAMING_BASELINE_FILE.read_text(encoding="utf-8"))
EXPECTED_FAILURES: dict[str, str] = {**BASELINE["failures"], **FRAMING_BASELINE["failures"]}
URNLD = urnld_engine(canonicalize=True)
URNLD_AS_PYLD = urnld_engine(canonicalize=False)
REGENERATE = "regenerate with: python tests/jsonld/w3c_jsonld_harness.py --write-baseline"


def test_baseline_is_for_the_installed_pyld():
    assert version("PyLD") == BASELINE["pyld_version"], REGENERATE
    assert version("PyLD") == FRAMING_BASELINE["pyld_version"], REGENERATE


def test_suite_copy_is_complete():
    # 1278 tests in the seven manifests; 26 are json-ld-1.0-only and not applicable.
    assert (len(TESTS), len(SKIPPED)) == (1252, 26)
    assert sum(t.kind == "FromRDFTest" for t in TESTS) == 53
    # Framing: 92 tests, one json-ld-1.0-only.
    assert (len(FRAMING_TESTS), len(FRAMING_SKIPPED)) == (91, 1)
    assert BASELINE["tests_run"] == len(TESTS)
    assert FRAMING_BASELINE["tests_run"] == len(FRAMING_TESTS)
    ids = {t.id for t in TESTS} | {t.id for t in FRAMING_TESTS}
    assert set(EXPECTED_FAILURES) <= ids, set(EXPECTED_FAILURES) - ids
    assert all(t.option.get("specVersion") == "json-ld-1.0" for t in SKIPPED)


@pytest.mark.parametrize(
    "test", TESTS + FRAMING_TESTS,
    ids=lambda t: t.id if t.base_iri.endswith("json-ld-api/tests/") else f"framing-{t.id}")
def test_w3c(test):
    with warnings.catch_warnings():
        # pyld warns (SyntaxWarning) on reserved "@"-terms, which several tests use on purpose.
        warnings.simplefilter("ignore", SyntaxWarning)
        baseline = run_test(test, pyld_engine)
        as_pyld = run_test(test, URNLD_AS_PYLD)
        ours = run_test(test, URNLD)
    listed = test.id in EXPECTED_FAILURES
    if listed:
        assert not baseline.passed, f"plain pyld now passes {test.id}; {REGENERATE}"
    else:
        assert baseline.passed, f"plain pyld fails {test.id}: {baseline.detail}; {REGENERATE}"
    assert (as_pyld.passed, as_pyld.detail, as_pyld.result) == (
        baseline.passed, baseline.detail, baseline.result), "canonicalize=False must be pyld"
    assert ours.passed == baseline.passed, f"urnld: {ours.detail}; pyld: {baseline.detail}"
    if baseline.passed:
        # The suite's URNs are all canonical already, so urnld's output is pyld's, exactly
        # (same key order, same blank node labels), not just equivalent.
        assert ours.result == baseline.result
