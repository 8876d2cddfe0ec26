"""The default catalog shapes on ordinary library links, and NID findings at urnld check's
severity.

Library data links articles to serials and records to other records by http IRIs (lobid.org,
the hbz union catalogue's linked-data service, names records like
``http://lobid.org/resource/BT000100437``) or by blank nodes that describe the serial: those are
not URNs, and the shapes judge a link only where it is one.
"""

from __future__ import annotations

import pytest
from rdflib import Graph

import urnld
from urnld.shacl import validate

HEAD = """
@prefix bibo: <http://purl.org/ontology/bibo/> .
@prefix dcterms: <http://purl.org/dc/terms/> .
@prefix ex: <http://example.org/> .
"""


def _results(turtle: str) -> list[tuple[str, str, str]]:
    report = validate(Graph().parse(data=HEAD + turtle, format="turtle"))
    return sorted((str(r.value), r.component.split("#")[1], r.severity) for r in report.results)


@pytest.mark.parametrize("link", [
    "<http://lobid.org/resource/BT000100437>",  # the hardening review's example
    "<https://www.nature.com/nphys/>",
    '[ a bibo:Journal ; dcterms:title "Nature Physics" ]',
    "<urn:issn:0028-0836>",
])
def test_an_article_may_link_its_serial_by_any_iri(link: str) -> None:
    assert _results(f"ex:a a bibo:Article ; dcterms:isPartOf {link} .") == []


@pytest.mark.parametrize(("link", "component"), [
    ('"urn:issn:1476-4687"', "OrConstraintComponent"),  # a URN, but as a literal
    ("<URN:issn:0028-0836>", None),  # a URN IRI, valid, not canonical: no rule asks for that
    ("<urn:isbn:0395363411>", "NIDConstraintComponent"),  # a URN, but no ISSN
    ("<urn:issn:0028-0837>", "NamespaceValidConstraintComponent"),  # ISSN check digit
])
def test_an_article_linked_by_a_urn_is_judged(link: str, component: str | None) -> None:
    found = _results(f"ex:a a bibo:Article ; dcterms:isPartOf {link} .")
    assert [c for _, c, _ in found] == ([component] if component else [])
    assert all(severity == "Violation" for *_, severity in found)


_SEVERITY = {"error": "Violation", "warning": "Warning", "info": "Info"}


@pytest.mark.parametrize("urn", [
    "urn:X-foo:bar",  # nid-experimental: RFC 8141 App. C removed X- NIDs
    "urn:x-ogc:def:crs:EPSG:6.11:2192",
    "urn:foo:bar",  # nid-unregistered
    "urn:xy-foo:bar",  # nid-reserved (RFC 8141 §5.1: two letters and a hyphen)
    "urn:urn-01:a",  # nid-informal-malformed (RFC 8141 §5.2: no leading zero)
])
@pytest.mark.parametrize("where", ["a link", "a record's name"])
def test_nid_findings_have_urnld_checks_severity(urn: str, where: str) -> None:
    # One result per URN, at the severity urnld check gives its NID finding.
    turtle = (f"ex:a a bibo:Article ; dcterms:references <{urn}> ." if where == "a link"
              else f"<{urn}> a bibo:Document .")
    nid_findings = [f for f in urnld.check(urn) if f.code.startswith("nid-")]
    assert len(nid_findings) == 1
    severity = _SEVERITY[str(getattr(nid_findings[0].severity, "value", nid_findings[0].severity))]
    found = _results(turtle)
    assert [(v, c, s) for v, c, s in found] == [(urn, "RegisteredConstraintComponent", severity)]


# urnsh:nidFindings: which registry findings urnsh:registered reports; both engines agree.
_NID_VALUES = ["urn:X-foo:bar", "urn:foo:bar", "urn:xy-foo:bar", "urn:urn-01:a", "urn:urn-7:a",
               "urn:isbn:0395363411", "urn:isbn", "hello"]


@pytest.mark.parametrize(("codes", "flagged"), [
    (None, {"urn:X-foo:bar", "urn:foo:bar", "urn:xy-foo:bar", "urn:urn-01:a"}),
    ("nid-experimental", {"urn:X-foo:bar"}),
    ("  NID-Unregistered\tnid-reserved\n", {"urn:foo:bar", "urn:xy-foo:bar"}),
    ("nid-informal-malformed nid-experimental", {"urn:X-foo:bar", "urn:urn-01:a"}),
])
@pytest.mark.parametrize("engine", ["plan", "pyshacl", "sparql"])
def test_nid_findings_parameter(codes: str | None, flagged: set[str], engine: str) -> None:
    from rdflib import Literal
    from shacl_helpers import run_component

    constraint = "urnsh:registered true ; urnsh:onlyURNs true"
    if codes is not None:
        constraint += f" ; urnsh:nidFindings {Literal(codes).n3()}"
    result = run_component(constraint, [Literal(v) for v in _NID_VALUES], engine=engine)
    # "urn:isbn" starts with urn: but is no URN: reported whatever the codes
    assert {str(v) for v in result.by_property} == flagged | {"urn:isbn"}
    assert result.by_node == result.by_property
