"""The compiled accelerator agrees with the pure-Python core (differential, Hypothesis).

``urnld._core._speedups.canonical`` answers the common case (an ASCII RFC 8141 URN whose NID is in the
core's table) and None for everything else; wherever it answers, its answer must be the pure
Python one, and it must answer for the common case (else the fast path would be dead code).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from core_strategies import any_text, near_misses, valid_urns
from hypothesis import given
from hypothesis import strategies as st

import urnld
from urnld._core import _accel
from urnld._core._parser import RFC8141_RE
from urnld._core._urn import canonical_of_match
from urnld._kernel._terms import POLICY_OK_NIDS, TermCache, TermRule, term_verdict
from urnld.namespaces import PREFIXES, prefix_entry

speedups = pytest.importorskip("urnld._core._speedups", reason="the C accelerator is not built")

DATA = Path(__file__).resolve().parents[2] / "tests" / "data" / "nid_examples.jsonl"


def python_canonical(text: str) -> str | None:
    m = RFC8141_RE.fullmatch(text)
    return None if m is None else canonical_of_match(text, m)


def c_canonical(text: str, policy: object = None) -> str | None:
    got = speedups.canonical(text, PREFIXES, policy)
    if got is None or type(got) is str:
        return got
    prefix, rule, nss, tail = got
    return prefix + rule.canonical_nss(nss) + tail


def check_agrees(text: str) -> None:
    # The syntax test decides every ASCII string as the regex does (and declines the rest).
    assert speedups.is_urn(text) == (
        (RFC8141_RE.fullmatch(text) is not None) if text.isascii() else None), text
    expected = python_canonical(text)
    if len(PREFIXES) > 1000:  # the table stops growing at 1024 NIDs: make room
        PREFIXES.clear()
    if expected is not None:
        prefix_entry(RFC8141_RE.fullmatch(text)[1])  # the NID is in the table from now on
    got = c_canonical(text)
    # canonical_str: the same answer with the namespace rule applied in C.
    assert speedups.canonical_str(text, PREFIXES, None) == got, text
    # URN() takes its canonical form from that call while parsing: the public answer agrees.
    if expected is None:
        with pytest.raises(urnld.URNSyntaxError):
            urnld.URN(text)
    else:
        urn = urnld.URN(text)
        assert (urn.canonical_str, urn.nss) == (expected, RFC8141_RE.fullmatch(text)[2]), text
    if expected is None:
        assert got is None, text
        return
    # An ASCII URN whose NID is in the table is always the accelerator's case.
    assert got == expected, text
    assert text.isascii()


@given(valid_urns)
def test_valid_urns(text):
    check_agrees(text)


@given(near_misses())
def test_near_misses(text):
    check_agrees(text)


@given(any_text)
def test_any_text(text):
    check_agrees(text)


def test_nid_examples_and_their_variants():
    """Every URN of the shared examples table, and its upper/lower-case variants."""
    for line in DATA.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        for text in [row["urn"], *row.get("equivalent_to", []), *row.get("not_equivalent_to", [])]:
            for variant in (text, text.upper(), text.lower(), "URN" + text[3:]):
                check_agrees(variant)


def test_answers_none_for_unknown_nids_and_the_policy_table():
    assert speedups.canonical("urn:zz-not-seen-yet:a", {}, None) is None
    prefix_entry("example")
    assert speedups.canonical("urn:example:a%2c", PREFIXES, {}) is None  # policy unknown
    assert speedups.canonical("urn:example:a%2c", PREFIXES, {"example": None}) == (
        "urn:example:a%2C")
    assert speedups.canonical("urn:example:é", PREFIXES, None) is None  # not ASCII
    assert speedups.canonical(b"urn:example:a", PREFIXES, None) is None  # not a str


TERMS = st.one_of(valid_urns, near_misses(), st.sampled_from([
    "urn:X-foo:Bar", "URN:ISBN:0-395-36341-1", "urn:isbn:0-395-36341-2", "urn:ex:a?+r?=q#f",
    "urn:uuid:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6", "urn:urn-0:x", "urn:aa:x", "urn:example:",
]))


@given(st.lists(TERMS, max_size=20), st.booleans())
def test_term_rule_same_verdicts(monkeypatch_module, texts, ignore):
    """The term rule's verdict (TermVerdict): the same through the accelerator as from
    term_verdict itself (twice: the second time the NIDs are known, which is when the
    accelerator answers)."""
    monkeypatch_module.setattr(_accel, "speedups", speedups)
    fast = TermCache(TermRule(ignore_components=ignore)).verdict
    for _ in range(2):
        for text in texts:
            assert fast(text) == term_verdict(text, ignore), text


@pytest.fixture(scope="module")
def monkeypatch_module():
    mp = pytest.MonkeyPatch()
    yield mp
    mp.undo()


def test_plugin_rules_keep_working(monkeypatch):
    """A rule registered at run time (Python) decides canonical forms on the fast path too."""
    from urnld.namespaces import NamespaceRule, register

    class Shout(NamespaceRule):
        nid = "shout-test"

        def canonical_nss(self, nss: str) -> str:
            return nss.upper()

    before = term_verdict("urn:shout-test:abc").output
    register(Shout(), replace=True)
    try:
        monkeypatch.setattr(_accel, "speedups", speedups)
        verdict = TermCache().verdict
        for _ in range(2):  # the second time through the accelerator
            assert verdict("urn:shout-test:abc").output == "urn:shout-test:ABC"
        assert "shout-test" in POLICY_OK_NIDS
    finally:
        from urnld._core import _rules as namespaces

        namespaces._registered.pop("shout-test", None)
        namespaces._cache.clear()
        namespaces.PREFIXES.clear()
    assert term_verdict("urn:shout-test:abc").output == before


@pytest.mark.parametrize("result", ["\u00e9{}", "{}?x", "int", "raise"])
def test_plugin_rule_results_agree(result):
    """Whatever a Python rule's canonical_nss returns (non-ASCII text, a str subclass, no str
    at all) or raises, canonical_str answers as the Python path does, or leaves it to it."""
    from urnld.namespaces import NamespaceRule, register

    class Odd(NamespaceRule):
        nid = "odd-test"

        def canonical_nss(self, nss: str) -> str:
            if result == "raise":
                raise ValueError(nss)
            if result == "int":
                return 7  # type: ignore[return-value]
            return type("S", (str,), {})(result.format(nss))

    register(Odd(), replace=True)
    try:
        text = "URN:odd-test:a%2fb#F"
        prefix_entry("odd-test")
        try:
            expected: object = python_canonical(text)
        except (ValueError, TypeError) as e:
            expected = type(e)
        try:
            got: object = speedups.canonical_str(text, PREFIXES, None)
        except ValueError as e:
            got = type(e)
        if result == "int":
            assert expected is TypeError and got is None  # the Python path raises it
        else:
            assert got == expected and (got is ValueError or type(got) is str)
    finally:
        from urnld._core import _rules as namespaces

        namespaces._registered.pop("odd-test", None)
        namespaces._cache.clear()
        namespaces.PREFIXES.clear()


def test_public_api_unchanged():
    """The accelerator sits behind private names: public classes and docs are the Python ones."""
    import inspect

    assert inspect.isfunction(urnld.canonical) and inspect.isfunction(urnld.parse)
    assert type(urnld.URN) is type and urnld.URN.__dict__["canonical"].__code__  # Python code
    assert "RFC 8141" in (urnld.URN.__doc__ or "")
    assert all(not name.startswith("_speedups") for name in dir(urnld))


# NSS alphabets near each built-in rule's grammar: hyphens, check characters, hex of both cases,
# and characters the grammar refuses (the rule then returns the NSS as it is).
_NATIVE_NSS = {
    "isbn": st.text(alphabet="0123456789-Xx9786%2A", max_size=20),
    "issn": st.text(alphabet="0123456789-Xx%2Fa", max_size=11),
    "uuid": st.one_of(
        st.uuids().map(str).map(lambda u: "".join(
            c.upper() if i % 3 == 0 else c for i, c in enumerate(u))),
        st.text(alphabet="0123456789abcdefABCDEFgG-", min_size=34, max_size=38),
    ),
}


# Rules whose canonical_nss is upper_except_pct / lower_except_pct of the whole NSS.
_CASE_RULES = {"doi": "upper", "isan": "upper", "lei": "upper", "iso": "lower_except_pct",
               "lex": "lower_except_pct", "nzl": "lower_except_pct"}
# The rules whose canonical_nss has a C copy (its native_copy mark names the rule, or the case
# fold it shares). Every copy pays on some benchmark dump: ISSN and UUID on the multi-file
# catalog of bench/gen_dump.py (4% of a streaming pass), the case folds, ISNI, MPEG and IETF
# on the URN corpus of bench/parse.py.
_COPIED = {"isbn", "nbn", "issn", "uuid", "isni", "mpeg", "ietf", *_CASE_RULES}
_ANY_NSS = st.text(alphabet="aZ09%2cF-._~!$&'()*+,;=:@/eEfA", min_size=1, max_size=16)
_NATIVE_NSS.update(dict.fromkeys(_CASE_RULES, _ANY_NSS))
_DIGITS = st.text(alphabet="0123456789", min_size=15, max_size=15)
_NATIVE_NSS["isni"] = st.one_of(
    st.tuples(_DIGITS, st.sampled_from("09Xx")).map("".join),
    st.text(alphabet="0123456789Xxa", min_size=14, max_size=17),
)
# NBN: ([A-Za-z]{2}(:[A-Za-z0-9]+)*)-(pchar ...); MPEG: (pchar-nc+):(pchar ...). Built by
# their grammars (parts drawn near it), and as free text over their characters.
_TAIL = st.text(alphabet="aZ09-:@%2c/.", min_size=0, max_size=8)
_NBN_BUILT = st.tuples(
    st.sampled_from(["de", "DE", "sE", "d", "dEe", "d1"]),
    st.lists(st.text(alphabet="gBv0", min_size=1, max_size=4), max_size=3),
    st.sampled_from(["-", "-", "-", "--", ":-", ""]),
    st.text(alphabet="aZ09-:@%2c/.", min_size=1, max_size=8),
).map(lambda t: t[0] + "".join(":" + x for x in t[1]) + t[2] + t[3])
_NATIVE_NSS["nbn"] = st.one_of(
    _NBN_BUILT, _NBN_BUILT, st.text(alphabet="dEeF:gb09-/%2cA.@", min_size=1, max_size=16)
)
_NATIVE_NSS["ietf"] = st.one_of(
    st.tuples(st.sampled_from(["params:", "PARAMS:", "Params:", "param:", "params", "rfc:"]),
              _ANY_NSS).map("".join),
    _ANY_NSS,
)
_NATIVE_NSS["mpeg"] = st.one_of(
    st.tuples(st.text(alphabet="mP4-%2f", min_size=0, max_size=6),
              st.sampled_from([":", "::", ":/", ""]), _TAIL).map("".join),
    st.text(alphabet="mP4:/%2fcA-.@", min_size=1, max_size=14),
)


@pytest.mark.parametrize("nid", sorted(_NATIVE_NSS))
@given(data=st.data())
def test_native_rule_copies_agree(nid, data):
    """The accelerator's copies of the built-in rules' canonical_nss (ISBN, NBN, ISNI, MPEG,
    IETF and the case-folding ones), and the Python methods it calls for the others, give the
    Python rule's answer for every NSS (valid, near-valid or not the namespace's at all)."""
    from urnld.namespaces import get_rule

    nss = data.draw(_NATIVE_NSS[nid])
    text = f"urn:{nid.upper()}:{nss}"
    if RFC8141_RE.fullmatch(text) is None:
        return
    prefix_entry(nid.upper())
    rule = get_rule(nid)
    mark = getattr(type(rule).canonical_nss, "_urnld_native", None)
    assert mark == (_CASE_RULES.get(nid, nid) if nid in _COPIED else None)
    expected = python_canonical(text)
    assert speedups.canonical_str(text, PREFIXES, None) == expected, text
    assert expected == f"urn:{nid}:" + rule.canonical_nss(speedups.canonical(
        text, PREFIXES, None)[2]), text


@pytest.mark.parametrize(("nid", "nss"), [
    # RFC 3187 §5's example and near misses (double and edge hyphens, X inside, ISBN-13
    # prefixes other than 978/979)
    *[("isbn", nss) for nss in ("0-395-36341-1", "978-0-395-36341-6", "0-8044-2957-x",
                                "9790-395-36341-6", "0--395363411", "-0395363411",
                                "0395363411-", "039536341X1", "97903953634X")],
    ("issn", "0259-000x"), ("issn", "0259000X"), ("issn", "0259-00X0"),  # RFC 3044 §5 style
    ("uuid", "F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6"),  # RFC 9562 §4 example
    ("isni", "000000012146438x"), ("isni", "00000001214643x8"),
    ("nbn", "DE:Bvb:19-146642"), ("nbn", "SE:uu:diva-3475"), ("nbn", "fi-fe19981001"),  # RFC 8458
    ("nbn", "de:-146642"), ("nbn", "de:bvb:19-/x"),
    ("mpeg", "MPEG7:schema:2001"), ("mpeg", "mpeg%2A:/x"), ("mpeg", ":x"),  # RFC 3614 §2
    ("lex", "BR:Federal:Lei:2008-06-19;11705"), ("iso", "STD:ISO:8601"),
    ("doi", "10.1000/abc%2f"), ("lei", "5493001kjtiigc8y1r12"),
    ("ietf", "RFC:2648"), ("ietf", "Params:XML:NS:a%2f"), ("ietf", "param"),  # RFC 2648
    ("lei", "e"), ("iso", "E"), ("ietf", "P"),  # one character: a new string, not a shared one
])
def test_native_examples(nid, nss):
    """Standards' examples and near misses, through the accelerator's copy and the rule."""
    from urnld.namespaces import get_rule

    text = f"urn:{nid}:{nss}"
    prefix_entry(nid)
    expected = python_canonical(text)
    assert expected == f"urn:{nid}:" + get_rule(nid).canonical_nss(
        speedups.canonical(text, PREFIXES, None)[2])
    assert speedups.canonical_str(text, PREFIXES, None) == expected
    # CPython shares its one-character strings: a copy must never change one in place.
    assert [chr(c) for c in (69, 80, 101, 112)] == ["E", "P", "e", "p"]
    assert "".join(map(chr, (69, 80, 101, 112))) == "EPep"


def test_native_copy_not_used_for_overrides(monkeypatch):
    """A subclass that overrides canonical_nss, or a method replaced at run time, runs its own
    Python code; a subclass that keeps it keeps the native copy's (identical) answers."""
    from urnld.namespaces import register
    from urnld.namespaces.isbn import ISBNRule

    class Upper(ISBNRule):
        nid = "isbn-upper-test"

        def canonical_nss(self, nss: str) -> str:
            return "n" + nss

    class Same(ISBNRule):
        nid = "isbn-same-test"

    try:
        for rule in (Upper(), Same()):
            register(rule, replace=True)
        prefix_entry("isbn-upper-test")
        prefix_entry("isbn-same-test")
        assert speedups.canonical_str("urn:isbn-upper-test:0-395-36341-1", PREFIXES,
                                      None) == "urn:isbn-upper-test:n0-395-36341-1"
        assert speedups.canonical_str("urn:isbn-same-test:0-395-36341-1", PREFIXES,
                                      None) == "urn:isbn-same-test:0395363411"
        monkeypatch.setattr(Same, "canonical_nss", lambda self, nss: nss + "z")
        assert speedups.canonical_str("urn:isbn-same-test:0-395-36341-1", PREFIXES,
                                      None) == "urn:isbn-same-test:0-395-36341-1z"
    finally:
        from urnld._core import _rules as namespaces

        for nid in ("isbn-upper-test", "isbn-same-test"):
            namespaces._registered.pop(nid, None)
        namespaces._cache.clear()
        namespaces.PREFIXES.clear()


def test_native_copy_is_taken(monkeypatch):
    """The accelerator does run its copy for a marked rule (else the tests above would compare
    the Python rule with itself): with the Python rule's grammar broken, only it still answers."""
    import re

    from urnld.namespaces import get_rule, isbn

    prefix_entry("isbn")
    monkeypatch.setattr(isbn, "_ISBN", re.compile("(?!)"))
    assert get_rule("isbn").canonical_nss("0-395-36341-1") == "0-395-36341-1"
    assert speedups.canonical_str("urn:isbn:0-395-36341-1", PREFIXES, None) == \
        "urn:isbn:0395363411"
