"""The W3C JSON-LD 1.1 toRdf tests through every reader of JSON-LD as RDF (see
w3c_jsonld_readers.py): the in-memory reader, ``Graph(store="URN").parse`` and the streaming
path (which the Dask engine's tasks run) give the toRdf algorithm's statements on every test
that plain pyld or pyoxigraph passes, where pyoxigraph 0.5 deviates (dot segments, a scoped
context, ``@direction``) and where pyld 3.3 does (relative ``@vocab``, a crash) alike.
"""

from __future__ import annotations

import pytest
from w3c_jsonld_readers import READERS, applicable, reader_tests, run_reader

TESTS, OTHER = reader_tests()
CASES = [(t, r) for t in TESTS for r in READERS if applicable(t, r)]

#: The tests a reader fails, with the reason; the same for every reader.
EXPECTED_FAILURES = {
    "toRdf-manifest#tli12": (
        "List with bad @base: the expected output holds <http://invalid/<>/test>, which is not "
        "an IRI; pyoxigraph refuses the @base, and rdflib cannot write what pyld makes of it"),
}


def test_reader_tests_are_the_suites():
    # 456 toRdf tests run (json-ld-1.0 ones are not): 16 syntax-only, 431 evaluation and
    # negative tests whose options a reader takes (base, rdfDirection; useJCS is how JSON
    # literals compare), 9 that need an option no reader has (expandContext,
    # processingMode, produceGeneralizedRdf).
    assert (len(TESTS), len(OTHER)) == (431, 9)
    assert set(EXPECTED_FAILURES) <= {t.id for t in TESTS}


def test_every_reader_runs_every_test_it_can_take():
    # rdfDirection is an option of the in-memory reader only (19 tests).
    runs = {r: sum(1 for _, reader in CASES if reader == r) for r in READERS}
    assert runs == {"read": 431, "store": 427, "stream": 427}


@pytest.mark.parametrize(("test", "reader"), CASES, ids=lambda c: getattr(c, "id", c))
def test_reader_gives_the_algorithms_statements(test, reader):
    passed, why = run_reader(test, reader)
    if test.id in EXPECTED_FAILURES:
        assert not passed, f"{test.id} now passes through {reader}: update EXPECTED_FAILURES"
    else:
        assert passed, f"{reader}: {why}"
