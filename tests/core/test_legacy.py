"""Legacy (RFC 2141) names written for RFC 8141: URN.to_rfc8141() and where it is used."""

from __future__ import annotations

import json

import pytest
from core_strategies import valid_urns
from hypothesis import given

import urnld
from urnld import URN, URNConversionError, URNSyntaxError, check


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
    assert f.message.endswith("written for RFC 8141 'urn:foo:a%3Fb'")


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
