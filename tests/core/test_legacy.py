"""Legacy (RFC 2141) names written for RFC 8141: URN.to_rfc8141() and where it is used."""

from __future__ import annotations

import json
from unittest import mock

import pytest
from core_strategies import valid_urns
from hypothesis import example, given
from hypothesis import strategies as st

import urnld
import urnld.namespaces
from urnld import URN, URNConversionError, URNSyntaxError, canonical, check
from urnld._core import _urn


@pytest.mark.parametrize(
    ("legacy", "rfc8141"),
    [
        ("urn:foo:a?b#c", "urn:foo:a%3Fb%23c"),  # RFC 2141 §2.3.2: reserved, data here
        ("URN:FOO:/a/b", "URN:FOO:%2Fa/b"),  # RFC 8141's NSS cannot start with '/'
        ("urn:foo:a?+b", "urn:foo:a%3F+b"),  # would read as an r-component
        ("urn:foo:plain", "urn:foo:plain"),
    ],
)
def test_to_rfc8141(legacy: str, rfc8141: str) -> None:
    written = URN(legacy, mode="rfc2141").to_rfc8141()
    assert written == rfc8141
    # read back under RFC 8141: one NSS, no components, the same characters once decoded
    u = URN(written)
    assert not u.has_components
    assert u.nss.replace("%3F", "?").replace("%23", "#").replace("%2F", "/") == URN(
        legacy, mode="rfc2141"
    ).nss


@pytest.mark.parametrize("legacy", ["urn:a:b", "urn:ab-:x"])  # NIDs RFC 8141 does not allow
def test_to_rfc8141_impossible(legacy: str) -> None:
    with pytest.raises(URNConversionError, match="cannot be written in RFC 8141 syntax"):
        URN(legacy, mode="rfc2141").to_rfc8141()


@given(valid_urns)
def test_rfc8141_urns_come_back_as_written(urn: str) -> None:
    assert URN(urn).to_rfc8141() == urn


def test_check_names_the_rfc8141_spelling() -> None:
    (f,) = [f for f in check("URN:FOO:a?b", mode="rfc2141") if f.code == "not-canonical"]
    assert f.message == "canonical form is 'urn:foo:a%3Fb'"


@pytest.mark.parametrize(
    ("legacy", "canonical_form"),
    [
        ("urn:foo:a#c", "urn:foo:a%23c"),
        ("URN:FOO:a?b#c", "urn:foo:a%3Fb%23c"),
        ("urn:foo:/a/b", "urn:foo:%2Fa/b"),
        ("urn:foo:a%2fb", "urn:foo:a%2Fb"),
        ("urn:a:b#c", "urn:a:b#c"),  # RFC 8141 has no form for a one-letter NID: kept as is
    ],
)
def test_legacy_canonical_forms_read_the_same_under_rfc8141(
    legacy: str, canonical_form: str
) -> None:
    # The canonical form of a legacy URN escapes what RFC 2141 §2.3.2 reserves, so RFC 8141
    # reads it as one NSS without components: the same name, in every public way to it.
    u = URN(legacy, mode="rfc2141")
    assert canonical(legacy, mode="rfc2141") == canonical_form
    assert str(u.canonical()) == u.canonical_str == canonical_form
    assert str(u.normalized()).lower() == canonical_form.lower()
    if canonical_form != legacy:
        assert not u.is_canonical
    if ":a:" not in legacy:
        read_back = URN(canonical_form)  # RFC 8141
        assert read_back.has_components is False and read_back == u


@given(st.from_regex(r"urn:[a-z][a-z0-9]{1,8}:[a-z/?#]{1,12}", fullmatch=True))
def test_legacy_canonical_is_idempotent_and_rfc8141(legacy: str) -> None:
    try:
        u = URN(legacy, mode="rfc2141")
    except URNSyntaxError:
        return  # not a legacy URN either (e.g. nothing after the NID's colon)
    canon = u.canonical_str
    assert canonical(canon, mode="rfc2141") == canon
    assert URN(canon).canonical_str == canon  # RFC 8141 reads it and finds it canonical


# NSSs made of what RFC 2141 allows, with its reserved '?', '#' and '/' among them, under the
# NIDs whose rules change the NSS (MPEG, NBN, UCI lower-case a part; ISBN, UUID rewrite it).
_RULED_2141 = st.builds(
    lambda scheme, nid, nss: f"{scheme}:{nid}:{nss}",
    st.sampled_from(["urn", "URN"]),
    st.sampled_from(sorted(urnld.namespaces.known_nids())).flatmap(
        lambda nid: st.sampled_from([nid, nid.upper()])
    ),
    st.text(alphabet="aAbBzZ09-.:()+,=@;$_!*'/?#%3f", min_size=1, max_size=16),
)


@given(_RULED_2141)
@example("urn:mpeg:A:b?x")  # issue 38: came back as urn:mpeg:A:b%3Fx, itself not canonical
@example("urn:nbn:DE:a?b")
@example("urn:uci:I000-x?y")
def test_legacy_canonical_is_idempotent_on_both_paths(legacy: str) -> None:
    # The namespace's rule reads the escaped NSS, so the canonical form is its own canonical
    # form and names the same resource, with the accelerator and without it.
    try:
        URN(legacy, mode="rfc2141")
    except URNSyntaxError:
        return
    answers = []
    for c_canonical in (_urn._c_canonical, None):  # the accelerator (when built), then Python
        with mock.patch.object(_urn, "_c_canonical", c_canonical):
            canon = canonical(legacy, mode="rfc2141")
            assert canonical(canon, mode="rfc2141") == canon, legacy
            assert urnld.equivalent(legacy, canon, mode="rfc2141"), legacy
            if URN(canon, mode="rfc2141").to_rfc8141() == canon:
                assert canonical(canon) == canon, legacy  # RFC 8141 finds it canonical too
            answers.append(canon)
    assert answers[0] == answers[1], legacy


def test_parse_cli_writes_legacy_forms_for_rfc8141(capsys: pytest.CaptureFixture[str]) -> None:
    from urnld.cli import main

    main(["parse", "--mode", "rfc2141", "--json", "URN:FOO:a?b#c"])
    (d,) = json.loads(capsys.readouterr().out)
    assert d["canonical"] == "urn:foo:a%3Fb%23c"
    assert d["normalized"] == "urn:foo:a%3Fb%23c"
    assert d["parts"]["nss"] == "a?b#c"


def test_the_parse_error_names_a_draft_era_query_and_its_rfc8141_spelling():
    # RFC 6241 §8.8.3 writes NETCONF capabilities with a bare ?query (drafts of RFC 8141 allowed
    # it); URN.parse and `urnld parse` used to give only the generic '?' rule.
    text = "urn:ietf:params:netconf:capability:url:1.0?scheme=http,ftp,file"
    with pytest.raises(URNSyntaxError) as info:
        URN.parse(text)
    assert info.value.position == text.index("?")
    assert "draft-era query" in info.value.reason
    assert "'urn:ietf:params:netconf:capability:url:1.0?=scheme=http,ftp,file'" in info.value.reason
    # the same message as check()'s finding
    (finding,) = [f for f in urnld.check(text) if f.code == "syntax"]
    assert finding.message == info.value.reason
    # a '?' that no '=' repairs keeps the plain reason
    with pytest.raises(URNSyntaxError) as info:
        URN.parse("urn:example:a?")
    assert "draft-era" not in info.value.reason
