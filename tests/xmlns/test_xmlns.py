"""urnld.xmlns.audit: URN namespaces of XML documents, invalid ones, entity safety."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from urnld import URNError
from urnld.jsonld import context_from_xml
from urnld.xmlns import XMLNamespaceError, audit

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "xml"
SAML = "urn:oasis:names:tc:SAML:2.0:assertion"


def xml(text: str) -> io.BytesIO:
    return io.BytesIO(text.encode("utf-8"))


def test_audit_saml_example():
    # SAML is not RDF/XML: no tool glues its local names onto the namespace, so no
    # concatenation hazards are looked for unless the caller says it is RDF/XML
    plain = audit(EXAMPLES / "saml-assertion.xml")
    assert not plain.is_rdfxml and plain.concatenations == []
    assert not plain.ok  # the two spellings of the assertion namespace remain a finding
    result = audit(EXAMPLES / "saml-assertion.xml", rdfxml=True)
    assert [(n.uri, n.prefixes, n.line, n.valid) for n in result.urn_namespaces] == [
        ("urn:oasis:names:tc:SAML:2.0:protocol", ("samlp",), 5, True),
        (SAML, ("saml",), 5, True),
        ("URN:OASIS:names:tc:SAML:2.0:assertion", ("a",), 19, True),
    ]
    assert result.equivalent_spellings == [("URN:OASIS:names:tc:SAML:2.0:assertion", SAML)]
    glued = {(c.namespace, c.local_name) for c in result.concatenations}
    assert (SAML, "Issuer") in glued and ("urn:oasis:names:tc:SAML:2.0:protocol", "Response") in glued
    issuer = next(c for c in result.concatenations if c.local_name == "Issuer")
    assert (issuer.iri, issuer.line, issuer.reason) == (
        SAML + "Issuer", 9,
        f"local name 'Issuer' is glued onto the NSS: {SAML!r} does not end in a separator")
    assert not result.ok
    data = result.to_dict()
    assert json.loads(json.dumps(data)) == data
    assert set(data) == {"source", "ok", "rdfxml", "urn_namespaces", "invalid",
                         "equivalent_spellings", "concatenations", "xml_base"}


def test_audit_invalid_namespaces_and_invalid_concatenations():
    result = audit(xml('<r xmlns:x="urn:x-foo:ns:" xmlns:n="urn:example:ns:">'
                       '<n:café/><n:ok/><x:a/></r>'), rdfxml=True)
    assert [n.uri for n in result.invalid] == ["urn:x-foo:ns:"]
    assert result.invalid[0].reason == (
        "'X-' experimental NIDs such as 'x-foo' were removed by RFC 8141 (App. C); this is not a "
        "valid URN")
    cafe = [c for c in result.concatenations if c.local_name == "café"]
    assert [c.reason for c in cafe] == [
        "'urn:example:ns:café' is not a valid URN: non-ASCII character 'é' must be "
        "percent-encoded as UTF-8 (%C3%A9) (in the namespace-specific string)"]
    assert [c.local_name for c in result.concatenations if c.namespace == "urn:example:ns:"] == [
        "café"]


def test_a_clean_document():
    result = audit(xml('<r xmlns="urn:example:ns:"><a/></r>'))
    assert result.ok and result.concatenations == [] and result.equivalent_spellings == []


@pytest.mark.parametrize("doc", [
    # XXE: an external entity
    '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><r>&xxe;</r>',
    # billion laughs
    '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "lol"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">'
    '<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;">]><r>&c;</r>',
    # a parameter entity pulling in an external DTD
    '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY % ext SYSTEM "http://example.invalid/x.dtd">'
    '%ext;]><r/>',
])
def test_entity_declarations_are_refused(doc):
    with pytest.raises(XMLNamespaceError) as e:
        audit(xml(doc))
    assert str(e.value).startswith("<stream>:1:")
    assert str(e.value).endswith("entity declarations are refused (protection against external "
                                 "entities and entity expansion bombs)")
    with pytest.raises(XMLNamespaceError):
        context_from_xml(xml(doc))


def test_external_dtd_is_not_fetched():
    # No entity declared: the DOCTYPE's system id is never read (param entities are off).
    result = audit(xml('<!DOCTYPE r SYSTEM "http://example.invalid/r.dtd"><r xmlns="urn:example:a:"/>'))
    assert [n.uri for n in result.urn_namespaces] == ["urn:example:a:"]


def test_malformed_xml_says_where():
    with pytest.raises(XMLNamespaceError) as e:
        audit(xml('<r xmlns:a="urn:example:a">\n  <a:x>\n</r>'))
    assert str(e.value) == "<stream>:3:3: not well-formed XML: mismatched tag"
    assert isinstance(e.value, URNError)


RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"


def test_concatenations_only_for_rdfxml():
    body = '<x:Item/></{root}>'
    rdfxml = audit(xml(f'<rdf:RDF xmlns:rdf="{RDF}" xmlns:x="urn:example:c">' + body.format(
        root="rdf:RDF")))
    assert rdfxml.is_rdfxml and [c.iri for c in rdfxml.concatenations] == ["urn:example:cItem"]
    # a UBL invoice (OASIS UBL 2.1) declares its namespaces without a separator at the end
    ubl = audit(xml('<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" '
                    'xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:'
                    'CommonBasicComponents-2"><cbc:ID>1</cbc:ID></Invoice>'))
    assert not ubl.is_rdfxml and ubl.concatenations == [] and ubl.ok
    assert audit(xml('<r xmlns:x="urn:example:c"><x:Item/></r>'), rdfxml=False).concatenations == []


def test_xml_base_urn_is_reported():
    # RFC 8141 §4.1 names xml:base as a slot where a URN is not appropriate
    result = audit(xml('<r xmlns="urn:example:ns:">\n<a xml:base="urn:example:base:"/>'
                       '<b xml:base="http://example.org/"/></r>'))
    assert [(b.uri, b.line) for b in result.bases] == [("urn:example:base:", 2)]
    assert "RFC 8141 §4.1" in result.bases[0].reason
    assert not result.ok
    assert result.to_dict()["xml_base"][0]["uri"] == "urn:example:base:"
