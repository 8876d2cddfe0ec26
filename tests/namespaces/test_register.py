"""A rule registered at run time applies to every spelling, also of NIDs already canonicalized."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import urnld._core._rules as ns
from urnld import URN, canonical
from urnld.namespaces import NamespaceRule, register, upper_except_pct


class Shout(NamespaceRule):
    nid = "urnld-test-shout"
    reference = "tests"

    def canonical_nss(self, nss: str) -> str:
        return upper_except_pct(nss)


class Failing(NamespaceRule):
    nid = "urnld-test-failing"
    reference = "tests"

    def canonical_nss(self, nss: str) -> str:
        raise LookupError(f"no canonical form for {nss!r}")


@pytest.fixture
def cleanup() -> Iterator[None]:
    yield
    for rule in (Shout, Failing):
        ns._registered.pop(rule.nid, None)
    ns._cache.clear()
    ns.PREFIXES.clear()


def test_register_replaces_the_cached_generic_rule(cleanup: None) -> None:
    spellings = ["urn:urnld-test-shout:ab%2fc", "URN:URNLD-Test-Shout:ab%2Fc"]
    # Before: no rule, so only RFC 8141 §3 folding (and the NID spellings get cached).
    assert {canonical(s) for s in spellings} == {"urn:urnld-test-shout:ab%2Fc"}
    register(Shout())
    assert {canonical(s) for s in spellings} == {"urn:urnld-test-shout:AB%2FC"}
    assert {URN(s).canonical_str for s in spellings} == {"urn:urnld-test-shout:AB%2FC"}
    assert URN(spellings[0] + "#x").assigned_key == "urn:urnld-test-shout:AB%2FC"


def test_a_failing_canonical_nss_raises_when_the_canonical_form_is_asked(cleanup: None) -> None:
    # The accelerator computes the canonical form while parsing; a plugin's error must still
    # surface where the pure-Python path raises it, not from the constructor.
    register(Failing())
    for _ in range(2):  # the second time the NID is in the accelerator's table
        urn = URN("urn:urnld-test-failing:abc")
        assert urn.nid == "urnld-test-failing"
        with pytest.raises(LookupError, match="no canonical form for 'abc'"):
            _ = urn.canonical_str
