"""The compiled rewrite under the spelling modes (repair, link/merge locators) gives the
pure-Python pass's output and report, byte for byte.

The compiled pass sends to Python only the IRIs that start like a locator (the resolver
table's schemes and hosts, ASCII case aside) and the URNs a repair may touch; these tests
draw lines mixing such terms with every other kind, in every case spelling, and compare.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from urnld._core import _accel
from urnld._kernel._spellings import _UNREPAIRED_SHAPES, SpellingOptions
from urnld.namespaces import repair
from urnld.report import CanonicalizeReport, CheckReport
from urnld.stream import canonicalize_lines, check_lines

speedups = pytest.importorskip("urnld._core._speedups", reason="the C accelerator is not built")

XSD = "http://www.w3.org/2001/XMLSchema#"
# Locators of urnld's resolver table (tests/data/mixed/mixed.nt and the DOI Handbook's
# doi:10.1000/182), in the cases and schemes the table reads back, and near misses.
LOCATORS = [
    "https://doi.org/10.1000/182", "HTTP://DOI.ORG/10.1000/182", "http://dx.doi.org/10.1000/182",
    "doi:10.1000/182", "DOI:10.1000/182", "https://doi.org.example/10.1000/182",
    "https://doi.org/no-slash", "https://doi.org/10.1000/%C3%A9", "https://doi.org/10.1000/\\u00e9",
    "http://nbn-resolving.de/urn:nbn:de:bvb:19-146642", "https://NBN-Resolving.org/URN:NBN:DE:bvb:19-146642",
    "https://urn.kb.se/resolve?urn=urn:nbn:se:uu:diva-3475", "https://urn.fi/URN:NBN:fi-fe2021",
    "https://www.rfc-editor.org/rfc/rfc8141", "https://id.gs1.org/01/04012345111118/21/987",
    "http://ID.GS1.ORG/00/106141412345678908", "https://id.gs1.org/414/4012345000016",
    "https://id.gs1.org/01/04012345111118/21/987?x=1", "http://example.org/a", "https://e/x",
    "hxxp://doi.org/10.1/x", "d",
]
# URNs: their locators' twins, the repairs' near misses (RFC 9562 §4 forms, CGMES '_'), and
# a UUID with a digit missing, which no repair reads.
URNS = [
    "urn:doi:10.1000/182", "URN:DOI:10.1000/182", "urn:nbn:de:bvb:19-146642",
    "urn:nbn:se:uu:diva-3475", "urn:ietf:rfc:8141", "urn:epc:id:sgtin:4012345.011111.987",
    "urn:epc:id:sscc:0614141.1234567890", "urn:epc:id:sgln:4012345.00001.0",
    "urn:uuid:F81D4FAE7DEC11D0A76500A0C91E6BF6", "URN:UUID:f81d4fae7dec11d0a76500a0c91e6bf6",
    "urn:uuid:_f81d4fae-7dec-11d0-a765-00a0c91e6bf6", "urn:uuid:%7Bf81d4fae-7dec-11d0-a765-00a0c91e6bf6%7D",
    "urn:uuid:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6", "urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6",
    "urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6?=x", "urn:uuid:F81D4FAE7DEC11D0A76500A0C91E6BF6#f",
    "urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf", "urn:publicid:ISO/IEC+10179",
    "urn:publicid:ISO%2FIEC+10179", "urn:isbn:0395363411", "URN:ISBN:0-395-36341-1",
    "urn:example:a?=b/c", "urn:x-bad:1",
]
TERMS = [*LOCATORS, *URNS]
IRI = st.sampled_from(TERMS).map(lambda s: f"<{s}>")
LITERAL = st.one_of(
    st.sampled_from(URNS).map(lambda s: f'"{s}"'),
    st.sampled_from(URNS).map(lambda s: f'"{s}"^^<{XSD}anyURI>'),
    st.just('"x"@en'),
)
LINE = st.builds(
    lambda s, p, o, g: " ".join([s, p, o, *([g] if g else [])]) + " .\n",
    st.one_of(IRI, st.just("_:b")), st.one_of(IRI, st.just("<http://purl.org/dc/terms/title>")),
    st.one_of(IRI, LITERAL), st.one_of(st.none(), IRI),
)
MODES: list[dict[str, Any]] = [
    {"repair": True},
    {"link_locators": True},
    {"merge_locators": True},
    {"repair": True, "link_locators": True, "keep_spellings": True, "literals": True},
    {"repair": True, "merge_locators": True, "keep_spellings": True, "ignore_components": True},
    {"link_locators": True, "prefix_lengths": {"4012345": 7, "0614141": 7}},
    {"merge_locators": True, "prefix_lengths": {"4012345": 7, "0614141": 7}, "literals": True},
]


def both(fn):
    """fn() with the accelerator off, then on."""
    out = []
    for module in (None, speedups):
        saved = _accel.speedups
        _accel.speedups = module
        try:
            out.append(fn())
        finally:
            _accel.speedups = saved
    return out


def canon(text: bytes, opts: dict[str, Any]) -> tuple[bytes, str]:
    report = CanonicalizeReport()
    out = b"".join(canonicalize_lines(text.splitlines(keepends=True), report=report,
                                      on_error="report", **opts))
    return out, json.dumps(report.to_dict(), sort_keys=True)


@settings(max_examples=150, deadline=None)
@given(st.lists(LINE, max_size=30), st.sampled_from(MODES))
def test_spelling_modes_identical(lines: list[str], opts: dict[str, Any]) -> None:
    text = "".join(lines).encode("utf-8")
    pure, fast = both(lambda: canon(text, opts))
    assert fast == pure


@settings(max_examples=60, deadline=None)
@given(st.lists(LINE, max_size=30))
def test_check_locators_identical(lines: list[str]) -> None:
    text = "".join(lines).encode("utf-8")

    def run() -> str:
        report = CheckReport()
        check_lines(text.splitlines(keepends=True), report=report, locators=True)
        return json.dumps(report.to_dict(), sort_keys=True)

    pure, fast = both(run)
    assert fast == pure


def test_every_locator_starts_with_a_head() -> None:
    # What the compiled rewrite sends to Python must hold every IRI the Python side reads back.
    opts = SpellingOptions(locators="link", gs1=True)
    heads = opts.heads()
    for iri in LOCATORS:
        if opts.locator(iri.replace("\\u00e9", "é")) is not None:
            assert iri.lower().encode().startswith(heads), iri


def test_the_compiled_rewrite_diverts_only_heads() -> None:
    seen: list[bytes] = []

    def miss(tok: bytes) -> bytes:
        seen.append(tok)
        return b""

    chunk = b"<HTTPS://DOI.org/10.1/x> <http://purl.org/p> <https://doi.org.x/1> .\n"
    done = speedups.rewrite(chunk, {}, {}, miss, miss, False, {}, {}, {}, False, None, None,
                            (b"https://doi.org",))
    assert done is not None and done[1] == 1
    assert seen == [b"<HTTPS://DOI.org/10.1/x>", b"<https://doi.org.x/1>"]
    assert speedups.rewrite(chunk, {}, {}, miss, miss, False, {}, {}, {}, False, None, None,
                            ("https://doi.org",)) is None  # heads are bytes


UUID_SHAPE = st.from_regex(
    r"\A[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}\Z")


@settings(max_examples=200)
@given(UUID_SHAPE, st.sampled_from(["", "?=x", "?+r", "#f", "?=_a{b}", "/x", "{", "%7D"]),
       st.sampled_from(["urn:uuid:", "URN:UUID:", "Urn:Uuid:"]))
def test_unrepaired_shape_is_never_repaired(nss: str, tail: str, prefix: str) -> None:
    # The compiled rewrite canonicalizes such a URN without asking the repairs: none applies.
    assert _UNREPAIRED_SHAPES["uuid"](nss)
    assert repair(prefix + nss + tail) is None


# Near misses of RFC 9562 §4's form that the repairs read (no hyphens, braces, CGMES '_'),
# and some they do not (a digit missing, a stray character), with components.
REPAIR_CANDIDATE = st.builds(
    lambda h, shape, tail, prefix: prefix + shape(h) + tail,
    st.from_regex(r"\A[0-9A-Fa-f]{32}\Z"),
    st.sampled_from([
        lambda h: h, lambda h: h[:-1], lambda h: "_" + h,
        lambda h: f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}",
        lambda h: f"_{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}",
        lambda h: f"%7B{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}%7D",
        lambda h: f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:-1]}x",
    ]),
    st.sampled_from(["", "?=x", "#f", "?+r"]),
    st.sampled_from(["urn:uuid:", "URN:UUID:", "urn:publicid:"]),
)  # fmt: skip


@settings(max_examples=300)
@given(REPAIR_CANDIDATE, st.booleans())
def test_accelerated_repair_verdict_is_the_rule_s(text: str, ignore_components: bool) -> None:
    # The accelerated verdict under repairs takes a repaired URN's verdict from the compiled
    # canonicalization: the same as the rule's own (term_verdict of the repaired text).
    from urnld._kernel._terms import TermRule, _accelerated

    rule = TermRule(ignore_components=ignore_components,
                    spellings=SpellingOptions(repair=True))
    assert _accelerated(rule)(text) == rule.verdict(text)
