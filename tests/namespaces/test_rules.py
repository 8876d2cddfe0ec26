"""Per-namespace rules: the choices made where documents conflict, findings, strict/profile options."""

from __future__ import annotations

import pytest

from urnld import URN, URNError, canonical, check, equivalent
from urnld._core._builtin import BUILTIN
from urnld.findings import Severity
from urnld.namespaces import GENERIC, get_rule


def codes(urn: str, **kw: object) -> list[tuple[str, str]]:
    return [
        (f.code, f.severity.value)
        for f in check(urn, **kw)  # type: ignore[arg-type]
        if f.code.startswith("nss-")
    ]


def errors(urn: str, **kw: object) -> list[str]:
    return [f.message for f in check(urn, **kw) if f.severity is Severity.ERROR]  # type: ignore[arg-type]


# -- the table: every built-in rule loads and describes itself ------------------------------


@pytest.mark.parametrize("nid", sorted(BUILTIN))
def test_builtin_rules_load(nid: str) -> None:
    rule = get_rule(nid.upper())
    assert rule is not GENERIC
    assert rule.nid == nid
    assert rule.title and rule.reference
    assert rule.rule_name == f"{nid}: {rule.reference}"


def test_provisional_rules() -> None:
    assert get_rule("doi").provisional
    assert get_rule("isni").provisional
    assert not get_rule("isbn").provisional


def test_unknown_nid_falls_back_to_generic() -> None:
    assert get_rule("sha1") is GENERIC
    assert canonical("URN:SHA1:ABCdef%2f") == "urn:sha1:ABCdef%2F"
    assert [f.code for f in check("urn:sha1:ABC")] == ["nid-unregistered"]
    assert not equivalent("urn:sha1:abc", "urn:sha1:ABC")


# -- precise findings for invalid NSSs: which part, why, which rule ---------------------------

BAD = [
    ("urn:isbn:0-395-3634a-1", "'a'", "isbn"),
    ("urn:isbn:-0395363411", "hyphen at NSS position 0", "isbn"),
    ("urn:isbn:0395--363411", "hyphen at NSS position 4", "isbn"),
    ("urn:isbn:03953634X1", "'X' is only the ISBN-10 check character", "isbn"),
    ("urn:isbn:039536341", "this one has 9", "isbn"),
    ("urn:isbn:9770395363416", "starts with 978 or 979", "isbn"),
    ("urn:issn:104-68188", "between the 4th and 5th digit", "issn"),
    ("urn:issn:1046-818", "this one has 7", "issn"),
    ("urn:issn:1046-818X9", "'X' is only the ISSN check character", "issn"),
    ("urn:nbn:se:u-u-1", None, None),  # valid: prefix se:u, NBN string u-1
    ("urn:nbn:se::uu-1", "sub-namespace code ''", "nbn"),
    ("urn:nbn:fi-", "empty", "nbn"),
    ("urn:nbn:f1-2", "two-letter ISO 3166-1 country code", "nbn"),
    ("urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bg6", "'g' at NSS position 34", "uuid"),
    ("urn:uuid:f81d4fae-7dec-11d0-a76500a0c91e6bf6", "4 groups", "uuid"),
    ("urn:oid:1..2", "empty arc", "oid"),
    ("urn:oid:.1", "empty arc", "oid"),
    ("urn:ietf:rfc:2141:extra", "exactly one value", "ietf"),
    ("urn:ietf:id:draft_x", "'_'", "ietf"),
    ("urn:ietf:params:xml::ns", "empty name", "ietf"),
    ("urn:ietf:a.b", "letters, digits and '-'", "ietf"),
    ("urn:ietf::rfc", "sub-namespace name is empty", "ietf"),
    ("urn:xmpp:disco::info", "empty segment", "xmpp"),
    ("urn:xmpp:a/b", "'/'", "xmpp"),
    ("urn:mpeg::x", "standard name before ':' is empty", "mpeg"),
    ("urn:mpeg:mpeg7:", "assigned string after ':' is empty", "mpeg"),
    ("urn:mpeg:mp/eg:x", "'/' at NSS position 2", "mpeg"),
    ("urn:oasis:names:foo:x:y:z", "not 'foo'", "oasis"),
    ("urn:oasis:Names:tc:a:b:c", "not 'Names'", "oasis"),
    ("urn:oasis:names:tc:a::c", "empty segment", "oasis"),
    ("urn:publicid:+foo", "either end", "publicid"),
    ("urn:publicid:a%41", "'%41' is not one of RFC 3151's eight escapes", "publicid"),
    ("urn:publicid:a'b", "%27", "publicid"),
    ("urn:publicid:a%2F:b", "left-to-right transcription", "publicid"),
    ("urn:publicid:a%3A;b", "left-to-right transcription", "publicid"),
    ("urn:publicid:a%3A%3Ab", "left-to-right transcription", "publicid"),
    ("urn:publicid:a&b", "'&' never appears", "publicid"),
    ("urn:iso:iso:9999", "starts with 'std:'", "iso"),
    ("urn:iso:std:iso", "ends too early", "iso"),
    ("urn:iso:std:iso:abc", "document number", "iso"),
    ("urn:iso:std:iso:9999:-1:draft:en", "followed by an edition", "iso"),
    ("urn:iso:std:iso:9999:-1:amd:x", "followed by its number", "iso"),
    ("urn:iso:std:iso:9999:-1:ed-1:en:bogus", "unexpected here", "iso"),
    ("urn:lex:it stato", None, None),  # not a URN at all (space): syntax
    ("urn:lex:it", "no local name", "lex"),
    ("urn:lex:i_t:stato:legge:1", "jurisdiction 'i_t'", "lex"),
    ("urn:lex:it:stato::legge", "empty part", "lex"),
    ("urn:isan:0000-0000-2CEA-0000", "not 19 characters", "isan"),
    ("urn:isan:0000-0000-2CEG-0000-1", "expected a hex digit", "isan"),
    ("urn:isan:0000_0000-2CEA-0000-1", "expected '-'", "isan"),
    ("urn:epc:id", "no ':'", "epc"),
    ("urn:epc:id:", "empty", "epc"),
    # GS1 Tag Data Standard grammars (the default reading; RFC 5134's under strict is tested in
    # tests/namespaces/test_real_world.py)
    ("urn:epc:id:sgtin:1.2", "2 of 3 fields", "epc"),
    ("urn:epc:id:sgtin:1.2.x", "GS1 Company Prefix '1' has 1 digit, not 6 to 12", "epc"),
    ("urn:epc:id:sgtin:4012345.033333.", "serial '' is empty", "epc"),
    ("urn:epc:id:sgtin:4012345.03333.1", "must have 13 digits, not 12", "epc"),
    ("urn:epc:a_b:c", "sub-namespace name 'a_b'", "epc"),
    ("urn:uci:I7_00-1", "prefix 'I7_00'", "uci"),
    ("urn:uci:I700-", "instance ''", "uci"),
    ("urn:uci:I700-1:X1", "qualifier 'X1'", "uci"),
    ("urn:nzl:govt::dogs", "empty segment", "nzl"),
    ("urn:ogc:def", "no ':'", "ogc"),
    ("urn:ogc::crs", "resource type before ':' is empty", "ogc"),
    ("urn:ogc:d/ef:crs", "'/'", "ogc"),
    ("urn:ogc:def:", "after ':' is empty", "ogc"),
    ("urn:isni:00000001214643", "has 14", "isni"),
    ("urn:isni:0000000121464X8X", "'X' at NSS position 13", "isni"),
    ("urn:lei:7LTWFZYICNSX8D621K8", "has 19", "lei"),
    ("urn:lei:7LTWFZYICNSX8D621K8-", "'-'", "lei"),
    ("urn:lei:7LTWFZYICNSX8D621KAB", "check digits", "lei"),
    ("urn:doi:10.1000", "no '/'", "doi"),
    ("urn:doi:10.x/abc", "prefix '10.x'", "doi"),
    ("urn:doi:10.1000/", "suffix after '/' is empty", "doi"),
]


@pytest.mark.parametrize(("urn", "needle", "nid"), BAD, ids=[b[0] for b in BAD])
def test_findings_name_part_and_rule(urn: str, needle: str | None, nid: str | None) -> None:
    found = [f for f in check(urn) if f.severity is Severity.ERROR]
    if needle is None:
        assert all(f.code == "syntax" for f in found)
        return
    assert found, urn
    f = found[0]
    assert f.code in ("nss-invalid", "nss-check-digit")
    assert needle in f.message, f.message
    assert f.rule == get_rule(nid).rule_name  # type: ignore[arg-type]
    u = URN(urn)
    nss_start = 4 + len(u.nid) + 1
    assert nss_start <= f.span[0] < f.span[1] <= len(urn), f.span


# -- choices on conflicts, one test each ----------------------------------------------------


def test_ietf_params_case_conflict() -> None:
    """RFC 2648 (all case-insensitive) vs RFC 3553 (params exact): fold only urn/ietf/params."""
    assert equivalent("URN:IETF:PARAMS:dns:rr-type-codes", "urn:ietf:params:dns:rr-type-codes")
    assert not equivalent(
        "urn:ietf:params:dns:rr-type-codes:soa", "urn:ietf:params:dns:rr-type-codes:SOA"
    )
    assert not equivalent("urn:ietf:params:XML:ns:a", "urn:ietf:params:xml:ns:a")
    assert canonical("urn:ietf:Params:xml:ns:A%2f") == "urn:ietf:params:xml:ns:A%2F"
    # Everything else in ietf is case-insensitive (RFC 2648 §2), valid or not.
    assert canonical("URN:IETF:ID:IETF-URN-IETF-06") == "urn:ietf:id:ietf-urn-ietf-06"
    assert equivalent("urn:ietf:wg:oauth:2.0:oob", "URN:IETF:WG:OAUTH:2.0:OOB")


def test_ietf_unknown_subnamespace_is_a_warning_unless_strict() -> None:
    assert codes("urn:ietf:wg:oauth:2.0:oob") == [("nss-invalid", "warning")]
    assert codes("urn:ietf:wg:oauth:2.0:oob", strict=True) == [("nss-invalid", "error")]
    assert codes("urn:ietf:rfc:two") == [("nss-invalid", "error")]


def test_isan_rfc_examples_warn_by_default_and_fail_strict() -> None:
    """RFC 4246's own examples carry wrong MOD 37,36 check characters."""
    one = "URN:ISAN:0123-1230-3210-2310-1"
    two = "URN:ISAN:1881-66C7-3420-6541-9-9F3A-0245-U"
    assert codes(one) == [("nss-check-digit", "warning")]
    assert codes(one, strict=True) == [("nss-check-digit", "error")]
    assert "should be 'J'" in check(one)[0].message
    messages = [f.message for f in check(two) if f.code == "nss-check-digit"]
    assert len(messages) == 2
    assert "should be 'Y'" in messages[0] and "should be 'O'" in messages[1]
    assert codes("urn:isan:0000-0000-2CEA-0000-1-0000-0000-Y", strict=True) == []
    assert codes("urn:isan:0123-1230-3210-2310-J", strict=True) == []


def test_isan_check_characters_agree_with_stdnum() -> None:
    from stdnum import isan

    for number in ("0123123032102310", "000000002CEA0000", "1881-66C7-3420-6541"):
        with_check = isan.format(number, add_check_digits=True)
        assert codes("urn:isan:" + with_check, strict=True) == [], with_check
    assert codes("urn:isan:" + isan.format("1881-66C7-3420-6541-9F3A-0245", add_check_digits=True),
                 strict=True) == []


def test_isan_version_part_matters() -> None:
    assert not equivalent(
        "urn:isan:0000-0000-2CEA-0000-1", "urn:isan:0000-0000-2CEA-0000-1-0000-0000-Y"
    )


def test_nbn_de_profile_is_opt_in() -> None:
    wrong = "urn:nbn:de:gbv:089-3321752946"
    assert errors(wrong) == []
    assert errors(wrong, profiles={"nbn-de"}) == [
        "DNB check digit is '6', expected '5' (profile nbn-de)"
    ]
    assert errors("urn:nbn:de:gbv:089-3321752945", profiles={"nbn-de"}) == []
    assert errors("URN:NBN:DE:BVB:19-146642", profiles={"nbn-de"}) == []
    # The profile touches only urn:nbn:de names.
    assert errors("urn:nbn:fi-fe19981001", profiles={"nbn-de"}) == []
    assert errors("urn:nbn:de:x-abc", profiles={"nbn-de"}) == [
        "a urn:nbn:de name ends in a DNB check digit, not 'c' (profile nbn-de)"
    ]
    assert "not in the DNB check-digit table" in errors("urn:nbn:de:x-a%2F1", profiles={"nbn-de"})[0]


@pytest.mark.parametrize(
    "urn",
    [
        "urn:nbn:de:gbv:089-3321752945",
        "urn:nbn:de:bvb:19-146642",
        "urn:nbn:de:0183-mbi0003721",
        "urn:nbn:de:0074-1000-9",
        "urn:nbn:de:0074-1007-4",
        "urn:nbn:de:bvb:12-bsb00103137-3",
    ],
)
def test_dnb_check_digit_reproduces_published_urns(urn: str) -> None:
    """Examples from dnburnlib's javadoc/tests, idutils and CEUR-WS (all DNB-issued)."""
    from urnld.namespaces.nbn import dnb_check_digit

    assert dnb_check_digit(urn[:-1]) == urn[-1]
    for wrong in set("0123456789") - {urn[-1]}:
        assert errors(urn[:-1] + wrong, profiles={"nbn-de"})


def test_nbn_prefix_pitfall() -> None:
    assert canonical("urn:nbn:SE:UU:DIVA-3475") == "urn:nbn:se:uu:diva-3475"
    assert canonical("urn:nbn:SE-UU:DIVA-3475") == "urn:nbn:se-UU:DIVA-3475"


def test_oid_x660_arcs_only_when_strict() -> None:
    assert codes("urn:oid:3.1") == []
    assert codes("urn:oid:3.1", strict=True) == [("nss-invalid", "error")]
    assert codes("urn:oid:1.40", strict=True) == [("nss-invalid", "error")]
    assert codes("urn:oid:0.39", strict=True) == []
    assert codes("urn:oid:2.999.1", strict=True) == []
    assert codes("urn:oid:1", strict=True) == []


def test_iso_erratum_example_is_invalid_and_says_why() -> None:
    message = errors("urn:iso:std:iso:9999:1:ed-2:en,fr:amd:2:en")[0]
    assert "part number starts with '-'" in message and "erratum" in message
    assert errors("urn:iso:std:iso:9999:-1:ed-2:en,fr:amd:2:en") == []
    assert not equivalent(
        "urn:iso:std:iso:9999:1:ed-2:en,fr:amd:2:en", "urn:iso:std:iso:9999:-1:ed-2:en,fr:amd:2:en"
    )


def test_iso_same_clauses_different_strings() -> None:
    a = "urn:iso:std:iso:105:-c12:ed-1:en:clause:a.1,a.2"
    b = "urn:iso:std:iso:105:-c12:ed-1:en:clause:a.1-a.2"
    assert errors(a) == errors(b) == []
    assert not equivalent(a, b)


def test_oasis_memo_type_accepted_and_short_names_warn() -> None:
    assert codes("urn:oasis:names:technical:memo:9502:1995") == []
    assert codes("urn:oasis:names:tc:SAML:2.0") == [("nss-invalid", "warning")]
    assert codes("urn:oasis:names:tc:SAML:2.0", strict=True) == [("nss-invalid", "error")]
    assert codes("urn:oasis:member:A00024") == [("nss-invalid", "warning")]


def test_epc_case_sensitive_nss_but_rfc8141_folds_nid() -> None:
    """RFC 5134 says the entire URN is case-sensitive; RFC 8141 still folds urn and the NID."""
    assert equivalent("URN:EPC:id:sgtin:1.2.3", "urn:epc:id:sgtin:1.2.3")
    assert not equivalent("urn:epc:ID:sgtin:1.2.3", "urn:epc:id:sgtin:1.2.3")
    assert not equivalent("urn:epcglobal:ale:XSD:1", "urn:epcglobal:ale:xsd:1")
    assert codes("urn:epcglobal:ale:xsd:01") == []  # no SGTIN grammar under epcglobal


def test_uci_follows_the_abnf_not_the_prose() -> None:
    """RFC 4179's prose writes 'urn:uci:{prefix}:', its ABNF 'prefix "-" instance'."""
    assert errors("urn:uci:I700-2987098") == []
    assert errors("urn:uci:I700:2987098")
    assert canonical("urn:uci:I700:G1-Ab") == "urn:uci:i700:g1-Ab"


def test_lex_published_rfc_is_case_insensitive() -> None:
    assert equivalent("urn:lex:EU:commission:DIRECTIVE:2010", "urn:lex:eu:Commission:directive:2010")
    assert canonical("urn:lex:it:M%c3%a9:a:b") == "urn:lex:it:m%C3%A9:a:b"
    assert codes("urn:lex:it:stato") == [("nss-invalid", "warning")]
    assert codes("urn:lex:it:stato", strict=True) == [("nss-invalid", "error")]


def test_mpeg_only_the_standard_name_is_case_insensitive() -> None:
    assert canonical("urn:mpeg:MPEG21:DIDL:A") == "urn:mpeg:mpeg21:DIDL:A"
    assert canonical("urn:mpeg:MPEG7") == "urn:mpeg:MPEG7"  # invalid: generic class


def test_nzl_macron_is_a_different_word() -> None:
    assert not equivalent("urn:nzl:govt:M%C4%81ori", "urn:nzl:govt:Maori")
    assert equivalent("urn:nzl:govt:M%c4%81ori", "URN:NZL:GOVT:m%C4%81ORI")


def test_uuid_variant_check_only_when_strict() -> None:
    ncs = "urn:uuid:f81d4fae-7dec-11d0-0765-00a0c91e6bf6"  # variant 0xx (NCS)
    assert codes(ncs) == []
    assert codes(ncs, strict=True) == [("nss-invalid", "warning")]
    assert codes("urn:uuid:00000000-0000-0000-0000-000000000000", strict=True) == []
    assert codes("urn:uuid:FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF", strict=True) == []
    assert codes("urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6", strict=True) == []


def test_uuid_and_isbn_keep_core_behaviour() -> None:
    assert canonical("URN:UUID:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6") == (
        "urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6"
    )
    assert canonical("urn:isbn:0-8044-2957-x") == "urn:isbn:080442957X"
    assert canonical("urn:isbn:97-8-0-395-36341-6") == "urn:isbn:9780395363416"


def test_issn_canonical_is_hyphenated() -> None:
    assert canonical("urn:ISSN:0259000x") == "urn:issn:0259-000X"
    assert canonical("urn:issn:1046-8188") == "urn:issn:1046-8188"
    assert canonical("urn:issn:1046-81") == "urn:issn:1046-81"  # invalid: generic


def test_lei_isni_doi() -> None:
    assert codes("urn:lei:7LTWFZYICNSX8D621K86") == []
    assert codes("urn:LEI:7ltwfzyicnsx8d621k86") == []
    assert codes("urn:lei:7LTWFZYICNSX8D621K87") == [("nss-check-digit", "error")]
    assert codes("urn:isni:000000012146438X") == []
    assert codes("urn:isni:0000000121464389") == [("nss-check-digit", "error")]
    assert canonical("urn:isni:000000012146438x") == "urn:isni:000000012146438X"
    assert codes("urn:doi:10.1000/182") == []
    assert codes("urn:doi:11/abc") == []  # ISO 26324:2022: '10.' not required
    assert equivalent("urn:doi:10.1000/abc", "URN:DOI:10.1000/ABC")


def test_invalid_nss_is_its_own_generic_class() -> None:
    """Invalid-for-the-namespace NSSs keep only RFC 8141's equivalences (for structure rules)."""
    assert not equivalent("urn:isbn:0-395-3634a-1", "urn:isbn:03953634a1")
    assert not equivalent("urn:uuid:F81D4FAE", "urn:uuid:f81d4fae")
    assert equivalent("urn:isbn:abc%2f", "urn:isbn:abc%2F")


def test_bad_input_never_raises_in_check() -> None:
    for urn in ("urn:isbn:%FF%FE", "urn:publicid:%", "urn:iso:std:iso:9999:-1:ed-1:en:tech:a/b",
                "urn:nbn:de:x-%2F", "urn:ietf:params:%00"):
        check(urn, strict=True, profiles={"nbn-de"})


def test_rfc2141_mode_nss_with_reserved_characters() -> None:
    """Legacy mode lets '?', '#', '/' into the NSS; rules stay total and report them."""
    for nid in sorted(__import__("urnld._core._builtin", fromlist=["BUILTIN"]).BUILTIN):
        u = URN(f"urn:{nid}:a?b#c/d", mode="rfc2141")
        assert u.canonical().canonical_str == u.canonical_str
        check(str(u), mode="rfc2141", strict=True)


def test_urn_error_is_value_error() -> None:
    assert issubclass(URNError, ValueError)
