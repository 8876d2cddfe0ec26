"""Repairs: each documented rule, its refusals, and the hint check() gives."""

from __future__ import annotations

import uuid

import pytest
from hypothesis import given
from hypothesis import strategies as st

import urnld
from urnld import canonical, check, is_valid, repair
from urnld.namespaces import REPAIRS

UUID = "f81d4fae-7dec-11d0-a765-00a0c91e6bf6"  # RFC 9562 §4 / RFC 4122 §3 example


@pytest.mark.parametrize(
    ("text", "code", "repaired"),
    [
        # /work/shared/data/nid_examples.jsonl (RFC 9562 §4 "other formats").
        (f"urn:uuid:{{{UUID}}}", "uuid-braces", f"urn:uuid:{UUID}"),
        (f"urn:uuid:{UUID.replace('-', '')}", "uuid-hyphens", f"urn:uuid:{UUID}"),
        # Percent-encoded braces: how a braced UUID reaches an RDF store or an IRI.
        (f"urn:uuid:%7B{UUID}%7D", "uuid-braces", f"urn:uuid:{UUID}"),
        (f"urn:uuid:%7b{UUID}%7d", "uuid-braces", f"urn:uuid:{UUID}"),
        # Windows registry form of a compact UUID.
        (f"urn:uuid:{{{UUID.replace('-', '')}}}", "uuid-braces", f"urn:uuid:{UUID}"),
        # CGMES 2.4 rdf:ID ("_" + mRID) written in the CGMES 3 urn:uuid: form.
        ("urn:uuid:_26cb8e5b-aa1c-4dae-b8a2-2dd2d9a2d1b4", "uuid-underscore",
         "urn:uuid:26cb8e5b-aa1c-4dae-b8a2-2dd2d9a2d1b4"),
        ("URN:UUID:_F81D4FAE7DEC11D0A76500A0C91E6BF6", "uuid-underscore",
         "URN:UUID:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6"),
        # nid_examples.jsonl: RFC 3151 §2, a literal '/' must be transcribed as %2F.
        ("urn:publicid:ISO/IEC+10179", "publicid-solidus", "urn:publicid:ISO%2FIEC+10179"),
        # RFC 3151 §3 example: "-//OASIS//DTD DocBook XML V4.1.2//EN" untranscribed apart from
        # its spaces; its URN is urn:publicid:-:OASIS:DTD+DocBook+XML+V4.1.2:EN.
        ("urn:publicid:-//OASIS//DTD+DocBook+XML+V4.1.2//EN", "publicid-solidus",
         "urn:publicid:-:OASIS:DTD+DocBook+XML+V4.1.2:EN"),
    ],
)  # fmt: skip
def test_documented_repairs(text: str, code: str, repaired: str) -> None:
    assert check(text)[0].severity == "error"  # each is invalid as written
    r = repair(text)
    assert r is not None
    assert (r.code, r.original, r.repaired) == (code, text, repaired)
    assert r.source
    assert not [f for f in check(r.repaired) if f.severity == "error"]


@pytest.mark.parametrize(
    "text",
    [
        f"urn:uuid:{UUID[:-1]}",  # nid_examples.jsonl: a digit missing (6hexOctet node)
        f"urn:uuid:{UUID.replace('-', '')[:-1]}",  # 31 hex digits
        f"urn:uuid:{UUID.replace('-', '')}0",  # 33 hex digits
        "urn:uuid:g81d4fae7dec11d0a76500a0c91e6bf6",  # not hex
        f"urn:uuid:{{_{UUID}}}",  # no source writes both
        f"urn:uuid:{{{UUID}",  # one brace
        f"urn:uuid:__{UUID}",
        "urn:uuid:f81d4fae-7dec11d0-a765-00a0c91e6bf6",  # hyphens misplaced: which is right?
        "URN:ISBN:0-395-36341-2",  # a wrong check digit is not a spelling
        "urn:issn:1046 8188",
        "urn:oid:1.3.06.1",
        "urn:example:a/b",  # no rule for the NID
        f"urn:uuid:{UUID}",  # valid already
        "urn:publicid:ISO/IEC 10179",  # still not a URN after the rule (a space)
        "not a urn",
        "",
    ],
)
def test_refused(text: str) -> None:
    assert repair(text) is None


def test_type_error() -> None:
    with pytest.raises(TypeError):
        repair(None)  # type: ignore[arg-type]


def test_check_hint() -> None:
    found = check(f"urn:uuid:{UUID.replace('-', '')}")
    assert [f.code for f in found] == ["nss-invalid", "repairable"]
    hint = found[1]
    assert hint.severity == "info"
    assert "uuid-hyphens" in hint.message and f"urn:uuid:{UUID}" in hint.message
    # No hint where no rule applies, nor for a valid URN.
    assert "repairable" not in [f.code for f in check(f"urn:uuid:{UUID[:-1]}")]
    assert "repairable" not in [f.code for f in check(f"urn:uuid:{UUID}")]
    # Overridable like any code.
    assert [f.code for f in check(f"urn:uuid:%7B{UUID}%7D", severity={"repairable": "ignore"})] == [
        "nss-invalid"
    ]


def test_table_is_documented() -> None:
    codes = [r.code for r in REPAIRS]
    assert len(codes) == len(set(codes))
    for rule in REPAIRS:
        assert rule.code in (urnld.namespaces._repairs.__doc__ or "")
        assert "§" in rule.source or "IEC" in rule.source


@given(st.uuids())
def test_uuid_spellings_property(u: uuid.UUID) -> None:
    # Every rewrite gives the URN of the same 128 bits (RFC 9562 §4).
    want = f"urn:uuid:{u}"
    for text in (
        f"urn:uuid:{u.hex}",
        f"urn:uuid:{{{u}}}",
        f"urn:uuid:%7B{str(u).upper()}%7D",
        f"URN:UUID:_{u}",
        f"urn:uuid:_{u.hex.upper()}",
    ):
        r = repair(text)
        assert r is not None, text
        assert is_valid(r.repaired)
        assert canonical(r.repaired) == want


@given(st.text("0123456789abcdef-", max_size=40))
def test_uuid_repair_never_guesses(nss: str) -> None:
    # A repair only ever regroups 32 hex digits; anything else is refused.
    r = repair(f"urn:uuid:{nss}")
    if r is not None:
        assert len(nss.replace("-", "")) == 32
        assert r.repaired.removeprefix("urn:uuid:").replace("-", "") == nss.replace("-", "")
