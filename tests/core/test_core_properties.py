"""Hypothesis properties of the core, checked against oracles written independently of it.

* the parser accepts exactly what the hand-written RFC 8141 regex (core_strategies.ORACLE_8141)
  accepts, with the same five parts — on grammar-generated URNs, near misses and any text;
  likewise RFC 2141 mode against ORACLE_2141;
* round trip, canonical idempotence, equivalence is an equivalence relation, ``==`` ⇒ equal
  hashes, total ordering consistent with ``==``, pickle/copy/repr keep type and value.
"""

from __future__ import annotations

import copy
import pickle
import unicodedata

from core_strategies import (
    ORACLE_2141,
    any_text,
    assemble,
    f_components,
    generic_key,
    near_misses,
    normalized_components,
    oracle_parts,
    q_components,
    r_components,
    rfc2141_candidates,
    upper_hex,
    urn_parts,
    valid_urns,
)
from hypothesis import example, given, settings
from hypothesis import strategies as st

import urnld
from urnld import URN, URNSyntaxError, equivalent, is_valid, parse
from urnld._core import legacy_escaped
from urnld.namespaces import known_nids

# NIDs whose namespace rules may add equivalences (the oracle knows only RFC 8141 §3).
RULED_NIDS = set(known_nids())

# --- the parser against the independent oracle ---------------------------------------------------


def _agrees_with_oracle(text: str) -> None:
    expected = oracle_parts(text)
    assert is_valid(text) == (expected is not None), text
    try:
        u = parse(text)
    except URNSyntaxError:
        assert expected is None, text
    else:
        assert expected is not None, text
        assert u.parts == expected
        assert str(u) == text


@given(valid_urns)
def test_oracle_generated_urns(text: str) -> None:
    assert oracle_parts(text) is not None, text  # the generator itself is right
    _agrees_with_oracle(text)


@given(near_misses())
@example("urn:ex:a?+b?=")
@example("urn:ex:a?+b?=c?+d")
@example("urn:ex:a?+b??=c")
@example("urn:ex:a#?+?=#")
@example("urn:ex:a%2")
@example("urn:" + "a" * 32 + ":b")
@example("urn:" + "a" * 33 + ":b")
@example("urn:a-b:c")
@example("urn:ex:a/?+/")
def test_oracle_near_misses(text: str) -> None:
    _agrees_with_oracle(text)


@given(any_text)
def test_oracle_any_text(text: str) -> None:
    _agrees_with_oracle(text)


# Completions that turn any viable prefix of a URN into a valid one (after "%", "%X", "?", in
# the NID, after a delimiter, ...); the scheme is completed separately.
_COMPLETIONS = ["", "a", "0", "00", ":a", "a:a", "aa:a", "+a", "=a"]


def viable(prefix: str) -> bool:
    """True when *prefix* can be extended into a valid URN (per the independent oracle)."""
    candidates = list(_COMPLETIONS)
    if "urn:".startswith(prefix.lower()):
        candidates.append("urn:aa:a"[len(prefix) :])
    return any(oracle_parts(prefix + c) is not None for c in candidates)


@given(st.one_of(near_misses(), any_text, st.builds(
    lambda nid, tail: "urn:" + nid + tail,
    st.text(alphabet="ab-", max_size=40), st.text(alphabet=":_ a", max_size=3),
)))
@example("urn:" + "a" * 36 + "_:x")
def test_error_position_is_the_first_offence(text: str) -> None:
    # Everything before the reported position is a valid beginning of a URN: the error is
    # never reported after the first character that made the text impossible.
    try:
        parse(text)
    except URNSyntaxError as e:
        # the diagnostic scanner found a concrete fault (its fallback would mean that it and
        # the regex disagree about the grammar)
        assert e.reason != "not a valid URN", text
        ok = viable(text[: e.position])
        if not ok and e.reason == "NID is longer than 32 characters":
            # pointing at the 33rd NID character is fine even when the 32nd was a "-"
            ok = viable(text[: e.position - 1])
        assert ok, (text, e.position, e.reason)


def test_near_misses_exercise_both_sides() -> None:
    # The property above is only meaningful if near misses are often valid AND often not.
    seen: dict[bool, int] = {True: 0, False: 0}

    @given(near_misses())
    def count(text: str) -> None:
        seen[oracle_parts(text) is not None] += 1

    count()
    assert seen[True] >= 5 and seen[False] >= 5, seen


@given(st.one_of(rfc2141_candidates(), near_misses(), any_text))
@example("urn:ab-:c")
@example("urn:ab-:%00")
@example("urn:ab:a%0")
@example("urn:a:%00")
@example("urn:a:%000")
@example("urn:" + "a" * 33 + ":b")
def test_rfc2141_oracle(text: str) -> None:
    m = ORACLE_2141.fullmatch(text)
    assert is_valid(text, mode="rfc2141") == (m is not None), text
    try:
        u = parse(text, mode="rfc2141")
    except URNSyntaxError as e:
        assert m is None
        assert e.reason != "not a valid URN", text  # the scanner agrees with the regex
        assert 0 <= e.position <= len(text)
    else:
        assert m is not None
        assert (u.nid, u.nss) == (m["nid"], m["nss"])


# --- value properties ----------------------------------------------------------------------------


@given(valid_urns)
def test_round_trip_and_is_valid(text: str) -> None:
    u = parse(text)
    assert str(u) == text
    assert is_valid(text)
    assert str(URN(str(u))) == text


@given(valid_urns)
def test_canonical_is_idempotent_and_equal(text: str) -> None:
    u = parse(text)
    c = urnld.canonical(text)
    assert urnld.canonical(c) == c
    assert parse(c).is_canonical
    assert u.canonical() == u and hash(u.canonical()) == hash(u)
    assert u.normalized() == u
    assert u.normalized().canonical_str == c
    assert str(u.normalized().normalized()) == str(u.normalized())
    assert parse(c).equivalent(u)
    # canonical form shape: "urn:" + lower-case NID; components kept (normalized)
    assert c.startswith("urn:" + u.nid.lower() + ":")
    assert (parse(c).r_component, parse(c).q_component, parse(c).f_component) == (
        normalized_components(text)
    )
    if u.nid.lower() not in RULED_NIDS:
        assert parse(c).assigned_name == generic_key(text)


@st.composite
def spelling_of(draw: st.DrawFn, base: tuple[str, str, str, str | None, str | None, str | None]) -> str:
    """Another spelling of the same assigned-name: cases of scheme, NID and hex digits flip;
    components are dropped, kept or replaced."""
    _, nid, nss, r, q, f = base

    def flip(s: str) -> str:
        return "".join(c.swapcase() if draw(st.booleans()) else c for c in s)

    out = []
    i = 0
    while i < len(nss):
        if nss[i] == "%":
            out.append("%" + flip(nss[i + 1 : i + 3]))
            i += 3
        else:
            out.append(nss[i])
            i += 1
    r2 = draw(st.sampled_from([r, None]) | r_components())
    q2 = draw(st.sampled_from([q, None]) | q_components())
    f2 = draw(st.sampled_from([f, None]) | f_components())
    return assemble(flip("urn"), flip(nid), "".join(out), r2, q2, f2)


@st.composite
def related_triples(draw: st.DrawFn) -> tuple[str, str, str]:
    """Three URNs, often spellings of one name, sometimes of two or three different names."""
    bases = [draw(urn_parts()) for _ in range(draw(st.integers(1, 3)))]
    return tuple(draw(spelling_of(draw(st.sampled_from(bases)))) for _ in range(3))  # type: ignore[return-value]


# The triple strategy is the costliest here; 100 examples per run keep tests/core < 60 s on CI.
@settings(max_examples=100)
@given(related_triples())
def test_equivalence_relation(triple: tuple[str, str, str]) -> None:
    a, b, c = triple
    ua, ub = parse(a), parse(b)
    assert parse(c).equivalent(c)
    # reflexive
    assert ua.equivalent(ua) and equivalent(a, a)
    # symmetric
    assert equivalent(a, b) == equivalent(b, a)
    # transitive
    if equivalent(a, b) and equivalent(b, c):
        assert equivalent(a, c)
    # RFC 8141 §3 equivalence implies ours (namespace rules only add equivalences)
    if generic_key(a) == generic_key(b):
        assert equivalent(a, b)
    elif ua.nid.lower() not in RULED_NIDS:
        assert not equivalent(a, b)
    # equivalence is components-blind; == is not
    assert ua.equivalent(ub) == (ua.assigned_key == ub.assigned_key)
    assert (ua == ub) == (ua.equivalent(ub) and normalized_components(a) == normalized_components(b))


@settings(max_examples=100)
@given(related_triples())
def test_eq_hash_and_total_order(triple: tuple[str, str, str]) -> None:
    us = [parse(t) for t in triple]
    for x in us:
        for y in us:
            if x == y:
                assert hash(x) == hash(y)
                assert urnld.canonical(str(x)) == urnld.canonical(str(y))
            assert [x < y, x == y, x > y].count(True) == 1
            assert (x <= y) == (not x > y)
            assert (x >= y) == (not x < y)
            assert (x != y) == (not x == y)  # noqa: SIM201  # __ne__ is its own method
    # sorting is deterministic whatever the input order
    backwards = list(us)
    backwards.reverse()
    assert [u.canonical_str for u in sorted(us)] == [u.canonical_str for u in sorted(backwards)]
    x, y, z = us
    if x <= y and y <= z:
        assert x <= z


@given(valid_urns)
def test_pickle_copy_repr(text: str) -> None:
    u = parse(text)
    for v in (pickle.loads(pickle.dumps(u)), copy.copy(u), copy.deepcopy(u),
              eval(repr(u), {"URN": URN})):
        assert type(v) is URN
        assert v == u and hash(v) == hash(u)
        assert str(v) == text


@given(valid_urns)
def test_from_parts_rebuilds_and_replace_validates(text: str) -> None:
    u = parse(text)
    v = URN.from_parts(*u.parts)
    assert v.parts == u.parts
    assert v == u
    assert str(v) == "urn" + text[3:]


@given(valid_urns, st.sampled_from(["?+", "?=", "#", ":"]), st.data())
def test_from_parts_rejects_delimiters_in_the_nss(text: str, delim: str, data: st.DataObject) -> None:
    u = parse(text)
    # Put a delimiter inside the NSS; the URN must not silently become another one.
    i = data.draw(st.integers(1, len(u.nss)))
    nss = u.nss[:i] + delim + u.nss[i:]
    try:
        v = URN.from_parts(u.nid, nss)
    except URNSyntaxError:
        return
    assert v.nss == nss  # accepted only when the delimiter is NSS data (":" or "#"-free)
    assert delim == ":"


@given(valid_urns)
def test_display_only_decodes_visible_non_ascii(text: str) -> None:
    shown = parse(text).display()
    # ASCII escapes (%00-%7F) are never decoded ...
    assert _ascii_escapes(text) == _ascii_escapes(shown)
    # ... and what is decoded is visible: no controls, format characters or odd spaces.
    for c in shown:
        if ord(c) >= 0x80:
            assert unicodedata.category(c) not in _HIDDEN, (text, c)
    # Re-encoding the decoded characters gives the original back (up to hex case).
    reencoded = "".join(
        c if ord(c) < 0x80 else "".join(f"%{b:02X}" for b in c.encode("utf-8")) for c in shown
    )
    assert upper_hex(reencoded) == upper_hex(text)


_HIDDEN = {"Cc", "Cf", "Co", "Cn", "Cs", "Zs", "Zl", "Zp"}


def _ascii_escapes(s: str) -> list[str]:
    out = []
    i = 0
    while i < len(s):
        if s[i] == "%" and i + 3 <= len(s) and s[i + 1] in "01234567":
            out.append(s[i : i + 3].upper())
            i += 3
        else:
            i += 1
    return out


@given(st.lists(st.sampled_from(["%C3%A9", "%E2%80%8B", "%D0%B0", "%41", "%e2%82%ac", "%C3", "%28",
                                 "%F0%9F%98%80", "%C2%A0", "%EF%BB%BF", "a", "/"]), min_size=1))
def test_display_of_escape_mixtures(pieces: list[str]) -> None:
    text = "urn:example:x" + "".join(pieces)
    test_display_only_decodes_visible_non_ascii.hypothesis.inner_test(text)  # type: ignore[attr-defined]


@given(rfc2141_candidates())
@example("urn:a0:/")
@example("urn:foo:a?b#c")
def test_rfc2141_values(text: str) -> None:
    try:
        u = parse(text, mode="rfc2141")
    except URNSyntaxError:
        return
    assert str(u) == text and u.mode == "rfc2141"
    c = u.canonical()
    assert c.mode == "rfc2141"
    assert str(c.canonical()) == str(c)
    assert c == u and hash(c) == hash(u) and c.equivalent(u)
    v = pickle.loads(pickle.dumps(u))
    assert v.mode == "rfc2141" and v == u
    assert eval(repr(u), {"URN": URN}).mode == "rfc2141"
    if u.nid.lower() not in RULED_NIDS:
        # RFC 2141 §2.3.2's reserved "/", "?", "#" escaped where RFC 8141 reads them otherwise.
        assert c.assigned_key == u.assigned_key == legacy_escaped(
            f"urn:{u.nid.lower()}:{upper_hex(u.nss)}")
