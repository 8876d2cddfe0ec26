"""Identifiers that real data publishes: no false errors, the RFC verdicts kept under strict.

Each identifier's source is named next to it.
"""

from __future__ import annotations

import pytest

from urnld import SeverityConfigError, SeverityMap, URNValidationError, check, validate
from urnld.findings import Severity
from urnld.namespaces import known_profiles

E, W = Severity.ERROR, Severity.WARNING


def errors(text: str, **kw: object) -> list[str]:
    return [f.code for f in check(text, **kw) if f.severity is E]  # type: ignore[arg-type]


# --- EPC: GS1 Tag Data Standard ------------------------------------------------------------

TDS_VALID = [
    "urn:epc:id:sgtin:4012345.033333.AGHFG",  # GS1 EPCIS 2.0 standard, example events
    "urn:epc:id:sgtin:0614141.107346.2017",  # GS1 EPCIS 2.0 / CBV examples
    "urn:epc:id:sgtin:0355154.094495.40095247428196",  # GS1 US healthcare EPCIS example
    "urn:epc:id:sgln:0614141.07346.1234",  # GS1 EPCIS 2.0 examples (readPoint)
    "urn:epc:id:sgln:4012345.00001.0",  # GS1 EPCIS 2.0 examples (readPoint)
    "urn:epc:id:grai:4012345.55555.987",  # GS1 EPCIS 2.0 AssociationEvent example
    "urn:epc:id:giai:4000001.12345",  # GS1 EPCIS 2.0 AssociationEvent example
    "urn:epc:id:gdti:0614141.00001.1618034",  # GS1 EPCIS 1.2/2.0 bizTransaction examples
    "urn:epc:id:gsrn:0614141.0000010253",  # GS1 EPCIS 1.2/2.0 bizTransaction examples
    "urn:epc:id:sscc:0614141.1234567890",  # GS1 TDS SSCC example
    "urn:epc:class:lgtin:4012345.012345.998877",  # GS1 EPCIS 2.0 childQuantityList example
    "urn:epc:id:gid:95100000.12345.400",  # GS1 TDS GID example
    "urn:epc:id:sgtin:4012345.033333.A%2Fb",  # TDS: '/' is escaped as %2F in GS3A3
    "urn:epc:id:cpi:0614141.5PQ7%2FZ43.12345",  # GS1 TDS CPI example
]


@pytest.mark.parametrize("urn", TDS_VALID)
def test_tds_examples_are_valid(urn: str) -> None:
    assert errors(urn) == []


@pytest.mark.parametrize(
    ("urn", "needle"),
    [
        ("urn:epc:id:sgtin:4012345.033333.ABCDEFGHIJKLMNOPQRSTU", "21 characters, not 1 to 20"),
        ("urn:epc:id:sgtin:4012345.033333.A%23b", "outside GS1 AI encodable"),  # '#': not in set 82
        ("urn:epc:id:sscc:4012345.000000333", "17 digits, not 16"),
        ("urn:epc:id:sgln:0614141.07346", "2 of 3 fields"),
        ("urn:epc:id:gid:95100000.012345.400", "leading zero"),
        ("urn:epc:id:grai:40123.5555555.987", "Company Prefix '40123' has 5 digits"),
    ],
)
def test_tds_violations_name_the_field(urn: str, needle: str) -> None:
    found = [f for f in check(urn) if f.severity is E]
    assert [f.code for f in found] == ["nss-invalid"]
    assert needle in found[0].message and "GS1 TDS" in found[0].message


def test_strict_reads_rfc5134_numeric_sgtin() -> None:
    # GS1's own EPCIS example has an alphanumeric serial: RFC 5134's illustrative grammar
    # (NumericComponent) rejects it, which strict=True keeps available.
    assert errors("urn:epc:id:sgtin:4012345.033333.AGHFG", strict=True) == ["nss-invalid"]
    assert errors("urn:epc:id:sgtin:900100.0003456.01234567", strict=True) == ["nss-invalid"]
    assert errors("urn:epc:id:sgtin:900100.0003456.1234567", strict=True) == []  # RFC 5134 §2


# --- NIDs: reserved and informal ------------------------------------------------------------

REAL_NIDS = [
    # the namespace every ZUGFeRD / Factur-X / XRechnung-CII invoice declares (UN/CEFACT CII)
    ("urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100", "nid-reserved"),
    # US Intelligence Community ISM schema namespace (ODNI XML data encoding specifications)
    ("urn:us:gov:ic:ism:v2", "nid-reserved"),
]


@pytest.mark.parametrize(("urn", "code"), REAL_NIDS)
def test_reserved_nids_are_warnings_errors_under_strict(urn: str, code: str) -> None:
    assert [(f.code, f.severity) for f in check(urn) if f.code == code] == [(code, W)]
    assert errors(urn) == []
    assert errors(urn, strict=True) == [code]
    assert str(validate(urn)) == urn
    with pytest.raises(URNValidationError):
        validate(urn, strict=True)


def test_malformed_informal_nid_is_a_warning() -> None:
    assert errors("urn:urn-0:a123") == []  # RFC 8141 §5.2 example of a malformed informal NID
    assert errors("urn:urn-0:a123", strict=True) == ["nid-informal-malformed"]


def test_experimental_nids_stay_errors() -> None:
    # OGC CRS names (OGC 07-092r1 era) and EU INSPIRE services use them; RFC 8141 App. C
    # says such strings are not valid URNs.
    for urn in ("urn:x-ogc:def:crs:EPSG:6.11:2192", "urn:x-inspire:specification:gmlas:x:3.0"):
        assert errors(urn) == ["nid-experimental"]


def test_doubled_scheme() -> None:
    # NARCIS (Dutch research portal) records carry URN:NBNs with the scheme written twice.
    found = check("URN:urn:nbn:nl:ui:22-123456789")
    assert [(f.code, f.severity) for f in found if f.code.startswith("nid")] == [
        ("nid-doubled-scheme", W)
    ]
    assert "written twice" in found[0].message


# --- ISO ------------------------------------------------------------------------------------


def test_rfc5141_supplement_docversion() -> None:
    assert errors("urn:iso:std:iso:9999:-1:ed-1:v1-amd1.v1:en,fr:amd:2:v2:en") == []  # §2.4.2


@pytest.mark.parametrize(
    "urn",
    [
        "urn:iso:std:iso:11073:10101",  # HL7 FHIR: the code system URI of ISO/IEEE 11073 MDC
        "urn:iso:std:iso:6710:2017",  # HL7 FHIR / ISO OBP usage (ISO 6710:2017)
    ],
)
def test_iso_current_profile(urn: str) -> None:
    assert errors(urn) == ["nss-invalid"]  # RFC 5141 (2008) has neither form
    assert "iso-current" in check(urn)[0].message
    assert errors(urn, profiles={"iso-current"}) == []


def test_profiles_are_listed() -> None:
    assert known_profiles() == {"iso-current": "iso", "nbn-de": "nbn"}


# --- severity overrides ---------------------------------------------------------------------

def test_override_to_warning_and_ignore() -> None:
    urn = "urn:x-ogc:def:crs:EPSG:6.11:2192"
    found = check(urn, severity={"nid-experimental": "warning"})
    assert [(f.code, f.severity) for f in found] == [("nid-experimental", W)]
    assert check(urn, severity={"nid-experimental": "ignore"}) == []
    assert validate(urn, severity={"nid-experimental": "warning"}).nid == "x-ogc"
    # the other way: an unregistered NID becomes an error
    assert errors("urn:sha1:abc", severity={"nid-unregistered": "error"}) == ["nid-unregistered"]
    # overrides win over strict
    assert errors("urn:un:unece:x", strict=True, severity={"nid-reserved": "info"}) == []


def test_bad_overrides_fail_loudly() -> None:
    with pytest.raises(SeverityConfigError, match="unknown finding code"):
        check("urn:a:b", severity={"nid-experimentl": "warning"})
    with pytest.raises(SeverityConfigError, match="must be one of"):
        SeverityMap({"nid-experimental": "fatal"})
    with pytest.raises(SeverityConfigError, match="CODE=LEVEL"):
        SeverityMap.parse(["nid-experimental"])
    with pytest.raises(ValueError):  # SeverityConfigError is a URNError, a ValueError
        check("urn:a:b", severity=["nid-experimental=warning"])  # type: ignore[arg-type]


def test_severity_map_is_hashable_and_merges() -> None:
    a = SeverityMap({"nid-experimental": "warning"})
    assert hash(a) == hash(SeverityMap.parse(["nid-experimental=WARNING"]))
    merged = a.merged(SeverityMap({"nid-experimental": "ignore", "pct-nul": "error"}))
    assert merged.to_dict() == {"nid-experimental": "ignore", "pct-nul": "error"}


# --- draft-era query --------------------------------------------------------------------------


def test_netconf_capability_names_the_draft_form() -> None:
    # RFC 6241 §8.8.3 defines this capability URN with a plain '?query'
    urn = "urn:ietf:params:netconf:capability:url:1.0?scheme=http,ftp"
    (f,) = check(urn)
    assert f.code == "syntax" and f.severity is E and f.span == (42, 43)
    assert "draft-era query" in f.message
    assert "'urn:ietf:params:netconf:capability:url:1.0?=scheme=http,ftp'" in f.message


def test_upgrade_draft_query() -> None:
    from urnld import URNConversionError, upgrade_draft_query

    # draft-ietf-urnbis-rfc2141bis-urn-03 resolution directives '?s=…&c=…'
    assert upgrade_draft_query("urn:example:a?s=1&c=2") == "urn:example:a?=s=1&c=2"
    fixed = upgrade_draft_query("urn:ietf:params:netconf:capability:url:1.0?scheme=http,ftp")
    assert check(fixed) == []
    with pytest.raises(URNConversionError):
        upgrade_draft_query("urn:example:a?")


def test_syntax_override_changes_the_report_not_the_verdict() -> None:
    from urnld import URNSyntaxError

    # PEPPOL BIS Billing 3.0 CustomizationID: '.' in the "NID", so no URN under RFC 8141
    peppol = "urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0"
    assert errors(peppol) == ["syntax"]
    assert check(peppol, severity={"syntax": "ignore"}) == []
    with pytest.raises(URNSyntaxError):
        validate(peppol, severity={"syntax": "warning"})
    # Nokia's device-ID namespace, also with '.' in the NID (seen in DLNA / UPnP descriptions)
    assert errors("urn:nokia.com:device:1") == ["syntax"]
