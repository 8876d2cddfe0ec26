"""RFC 3151: both directions of the public identifier transcription."""

from __future__ import annotations

import json
import string
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from urnld import URN, URNError, check, equivalent
from urnld.namespaces.publicid import PublicIdError, from_public_id, to_public_id

PREFIX = "transcribed from public identifier: "
ROWS = [
    json.loads(line)
    for line in (Path(__file__).resolve().parents[1] / "data" / "nid_examples.jsonl")
    .read_text(encoding="utf-8")
    .splitlines()
    if line.strip()
]
RFC_EXAMPLES = [
    (r["note"][len(PREFIX) :], r["urn"])
    for r in ROWS
    if r["nid"] == "publicid" and r.get("note", "").startswith(PREFIX)
]


def test_all_eight_rfc_examples_found() -> None:
    assert len(RFC_EXAMPLES) == 8


@pytest.mark.parametrize(("public_id", "urn"), RFC_EXAMPLES, ids=[u for _, u in RFC_EXAMPLES])
def test_rfc3151_examples_round_trip(public_id: str, urn: str) -> None:
    assert from_public_id(public_id) == urn
    assert to_public_id(urn) == public_id
    assert to_public_id(URN(urn)) == public_id
    assert check(urn) == []


def test_whitespace_is_normalized_first() -> None:
    assert from_public_id("  -//OASIS//DTD\tDocBook \r\n XML V4.1.2//EN \n") == (
        "urn:publicid:-:OASIS:DTD+DocBook+XML+V4.1.2:EN"
    )


def test_left_to_right_reading() -> None:
    assert from_public_id("a///b") == "urn:publicid:a:%2Fb"
    assert from_public_id("a:::b") == "urn:publicid:a;%3Ab"
    assert from_public_id("a%b'c?d#e;f") == "urn:publicid:a%25b%27c%3Fd%23e%3Bf"
    assert to_public_id("urn:publicid:a:%2Fb") == "a///b"


def test_escape_case_is_folded() -> None:
    assert to_public_id("urn:publicid:3%2b3=6") == "3+3=6"
    assert equivalent("urn:publicid:3%2b3=6", "urn:publicid:3%2B3=6")


@pytest.mark.parametrize(
    ("public_id", "position"),
    [("", 0), ("   ", 0), ("R&D", 1), ('say "hi"', 4), ("caf\u00e9", 3), ("a<b", 1), ("a~b", 1)],
)
def test_impossible_public_ids_raise(public_id: str, position: int) -> None:
    with pytest.raises(PublicIdError) as info:
        from_public_id(public_id)
    assert info.value.position == position
    assert isinstance(info.value, URNError)


@pytest.mark.parametrize(
    "urn",
    [
        "urn:publicid:-:OASIS:DTD++DocBook",
        "urn:publicid:ISO/IEC+10179",
        "urn:publicid:+a",
        "urn:publicid:a+",
        "urn:publicid:a%41",
        "urn:publicid:a%2F:b",
        "urn:publicid:a~b",
    ],
)
def test_non_transcriptions_raise_and_are_invalid(urn: str) -> None:
    with pytest.raises(PublicIdError):
        to_public_id(urn)
    assert [f.code for f in check(urn) if f.severity == "error"] == ["nss-invalid"]


def test_to_public_id_needs_a_publicid_urn() -> None:
    with pytest.raises(URNError, match="not a urn:publicid URN"):
        to_public_id("urn:example:a")
    with pytest.raises(TypeError):
        to_public_id(42)
    with pytest.raises(TypeError):
        from_public_id(None)  # type: ignore[arg-type]


# XML 1.0 PubidChar, plus tab (RFC 3151 normalizes it like the others).
pubid_text = st.text(string.ascii_letters + string.digits + " \t\r\n-'()+,./:=?;!*#@$_%", min_size=1)


@given(pubid_text)
def test_round_trip_property(public_id: str) -> None:
    normalized = " ".join(public_id.split())
    if not normalized:
        with pytest.raises(PublicIdError):
            from_public_id(public_id)
        return
    urn = from_public_id(public_id)
    assert to_public_id(urn) == normalized
    assert from_public_id(normalized) == urn
    assert check(urn) == [], urn
