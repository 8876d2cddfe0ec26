"""JSON-LD node identity follows the RFC 8141 example table (tests/data/nid_examples.jsonl):
URN-equivalent spellings become one node, non-equivalent ones stay apart. Components are part of
a term's identity (URN.md §3), so pairs that differ only by components stay apart too."""

from __future__ import annotations

import pytest

from urnld import URN, is_valid
from urnld.jsonld import expand, flatten
from urnld.jsonld._canon import Canonicalizer


def node_ids(spellings: list[str]) -> list[str]:
    doc = [{"@id": s, "https://schema.org/name": str(i)} for i, s in enumerate(spellings)]
    return sorted(n["@id"] for n in flatten(doc, hazards="ignore"))


def pairs(rows, key):
    for row in rows:
        for other in row.get(key, []):
            if is_valid(row["urn"]) and is_valid(other):
                yield row["urn"], other


def test_equivalent_spellings_merge(nid_examples):
    checked = 0
    for a, b in pairs(nid_examples, "equivalent_to"):
        ua, ub = URN(a), URN(b)
        same_term = ua.canonical_str == ub.canonical_str
        assert (len(node_ids([a, b])) == 1) == same_term, (a, b)
        assert ua.equivalent(ub)
        checked += 1
    assert checked >= 20


def test_non_equivalent_spellings_stay_apart(nid_examples):
    checked = 0
    for a, b in pairs(nid_examples, "not_equivalent_to"):
        assert len(node_ids([a, b])) == 2, (a, b)
        checked += 1
    assert checked >= 5


def test_canonical_iri_is_urnld_canonical_and_idempotent(nid_examples):
    canon = Canonicalizer()
    for row in nid_examples:
        text = row["urn"]
        out = canon.iri(text)
        if is_valid(text):
            assert out == URN(text).canonical_str
            assert canon.iri(out) == out
        else:
            assert out == text and text in canon.invalid


@pytest.mark.parametrize("text", ["urn:example:a123,z456", "URN:EXAMPLE:a123%2cz456#Frag"])
def test_expand_outputs_canonical_ids(text):
    assert expand({"@id": text, "https://schema.org/p": 1})[0]["@id"] == URN(text).canonical_str
