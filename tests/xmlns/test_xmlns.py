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
    result = audit(EXAMPLES / "saml-assertion.xml")
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
    assert set(data) == {"source", "ok", "urn_namespaces", "invalid", "equivalent_spellings",
                         "concatenations"}


def test_audit_invalid_namespaces_and_invalid_concatenations():
    result = audit(xml('<r xmlns:x="urn:x-foo:ns:" xmlns:n="urn:example:ns:">'
                       '<n:café/><n:ok/><x:a/></r>'))
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
