"""The core-SHACL layer: urnsh:URN's sh:pattern is RFC 8141 §2, in portable regex syntax."""

from __future__ import annotations

import re

import pyoxigraph as ox
import pyshacl
import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from rdflib import Graph, Literal, Namespace, URIRef
from rdflib.namespace import SH

import urnld
from urnld.shacl import URN_PATTERN, shapes_path
from urnld.shacl._pattern import URN_PATTERN_BODY, xpath_class

URNSH = Namespace("https://w3id.org/urnld/shacl#")
BODY = re.compile(URN_PATTERN_BODY)

# Characters that matter to the grammar, plus ones it refuses (space, newline, non-ASCII, "[").
_ALPHABET = [
    *"uUrRnN:aZz09-%?+=#/.~!$&'()*,;@_",
    *["%2c", "%4A", "%D0%B0", "?+", "?=", "\n", " ", "é", "[", "%g", "x-", "-"],
]
_PREFIXES = ["urn:", "URN:", "urn:ab:", "urn:isbn:", "urn:example:", "urn:x-y:", "urn:", ""]

# An arbitrary string near the grammar: a prefix and 0-14 tokens from the alphabet.
near_urns = st.builds(
    lambda p, parts: p + "".join(parts),
    st.sampled_from(_PREFIXES),
    st.lists(st.sampled_from(_ALPHABET), max_size=14),
)
# Strings the pattern itself generates (all should be valid URNs).
pattern_urns = st.from_regex(BODY, fullmatch=True)


def test_the_shapes_file_carries_exactly_the_derived_pattern() -> None:
    g = Graph().parse(shapes_path("urn.ttl"))
    assert str(g.value(URNSH.URN, SH.pattern)) == URN_PATTERN


def _constructs(pattern: str) -> set[str]:
    """The regex constructs used outside character classes (escapes count as literals)."""
    found: set[str] = set()
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if c == "\\":
            found.add("escape:" + pattern[i + 1])
            i += 2
            continue
        if c == "[":
            j = i + 1
            while pattern[j] != "]":
                j += 2 if pattern[j] == "\\" else 1
            found.add("class")
            i = j + 1
            continue
        if c == "(":
            found.add("(?" if pattern[i + 1] == "?" else "(")
        elif c in "*+?" and i + 1 < len(pattern) and pattern[i + 1] in "+?":
            found.add("lazy-or-possessive")
        elif c == "{":
            found.add("{m,n}")
        elif c in "*+?|)^$":
            found.add(c)
        else:
            found.add("literal")
        i += 1
    return found


def test_pattern_uses_only_xpath_regex_syntax() -> None:
    # XPath F&O §7.6 (what sh:pattern and SPARQL REGEX mean): no (?…) groups or inline flags,
    # no possessive/lazy quantifiers, no \A \Z \d-style Python shorthands beyond the listed ones.
    allowed = {"class", "(", ")", "|", "*", "+", "?", "{m,n}", "^", "$", "literal",
               "escape:?", "escape:+", "escape:-"}
    assert _constructs(URN_PATTERN) <= allowed


def test_xpath_class_escapes_what_xsd_requires() -> None:
    assert xpath_class("-^[]\\") == "[\\-\\[\\\\\\]\\^]"
    assert xpath_class("abcde") == "[a-e]"
    assert xpath_class("&'()") == "[&'()]"  # punctuation is never folded into a range


@given(near_urns)
@example("urn:a:b")
@example("urn:ab:c?+r?=q#f")
@example("urn:ab:c?+r??=q")
@example("urn:ab:c?+r?")
@example("urn:ab:c?+?=q")
@example("urn:ab:c?=q?+r?=s#")
@example("urn:ab:c#")
@example("urn:ab:c?x")
@example("urn:" + "a" * 32 + ":x")
@example("urn:" + "a" * 33 + ":x")
@example("urn:-ab:x")
@example("urn:ab-:x")
def test_pattern_agrees_with_is_valid(text: str) -> None:
    assert (BODY.fullmatch(text) is not None) == urnld.is_valid(text)


@given(pattern_urns)
def test_every_string_the_pattern_generates_is_a_valid_urn(text: str) -> None:
    assert urnld.is_valid(text)


def test_pattern_agrees_with_is_valid_on_the_nid_example_table(nid_examples) -> None:
    texts = {row["urn"] for row in nid_examples}
    for row in nid_examples:
        texts.update(row.get("equivalent_to", []))
        texts.update(row.get("not_equivalent_to", []))
    for text in texts:
        assert (BODY.fullmatch(text) is not None) == urnld.is_valid(text), text


def _ox_regex(store: ox.Store, texts: list[str]) -> list[bool]:
    values = " ".join(str(ox.Literal(t)) for t in texts)
    q = (f"SELECT ?s (REGEX(?s, {ox.Literal(URN_PATTERN)}) AS ?m) "
         f"WHERE {{ VALUES ?s {{ {values} }} }}")
    got = {row["s"].value: row["m"].value == "true" for row in store.query(q)}
    return [got[t] for t in texts]


@given(st.lists(st.one_of(near_urns, pattern_urns), min_size=1, max_size=30, unique=True))
@example(["urn:a:b\n", "urn:ab:c\n", "urn:ab:c?+r??=q"])
def test_an_xpath_engine_reads_the_pattern_the_same_way(texts: list[str]) -> None:
    # pyoxigraph's SPARQL REGEX is an independent (Rust) regex engine: if the pattern relied on
    # anything Python-specific, the two would disagree. Its "$" is the true end of the string.
    assert _ox_regex(ox.Store(), texts) == [urnld.is_valid(t) for t in texts]


# pyshacl's sh:pattern uses Python's re.search, where "$" also matches before a final "\n";
# urnsh:URN adds sh:not [ sh:pattern "\n" ] so the *shape* still agrees with is_valid.
_SHAPE_CASES = [
    Literal("urn:isbn:0395363411"),
    Literal("URN:ISBN:0-395-36341-1", lang="en"),
    Literal("urn:example:a?+r?=q#f", datatype=URIRef("http://www.w3.org/2001/XMLSchema#anyURI")),
    URIRef("urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6"),
    URIRef("urn:example:a#"),
    Literal("urn:isbn:0395363411\n"),
    Literal("urn:isbn:0395363411\n\n"),
    Literal("urn:ab:c?x"),
    Literal("urn:a:b"),
    Literal(" urn:isbn:0395363411"),
    Literal("urn:example:é"),
    URIRef("http://example.org/not-a-urn"),
    Literal(42),
]


@pytest.mark.parametrize("value", _SHAPE_CASES, ids=repr)
def test_urn_node_shape_in_pyshacl_agrees_with_is_valid(value) -> None:
    shapes = Graph().parse(shapes_path("urn.ttl"))
    ex = Namespace("http://example.org/")
    shapes.add((ex.S, SH.targetObjectsOf, ex.id))
    shapes.add((ex.S, SH.node, URNSH.URN))
    data = Graph()
    data.add((ex.r, ex.id, value))
    conforms, _, _ = pyshacl.validate(data, shacl_graph=shapes)
    assert conforms == urnld.is_valid(str(value))
