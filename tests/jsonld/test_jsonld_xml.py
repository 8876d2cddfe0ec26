"""urnld.xmlns.audit, context generation (namespaces, rdflib graph, XML), entity safety."""

from __future__ import annotations

import io
import json
import warnings
from pathlib import Path

import pytest
from rdflib import Graph

from urnld import URNError
from urnld.jsonld import (
    URNContextError,
    URNContextWarning,
    compact,
    context_from_graph,
    context_from_namespaces,
    context_from_xml,
)
from urnld.xmlns import XMLNamespaceError, audit, iter_namespaces

# rdflib's own JSON-LD parser and Dataset API emit DeprecationWarnings (ConjunctiveGraph,
# default_context) that are not ours to fix.
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning:rdflib")

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


def test_streaming_across_chunks(tmp_path):
    # ~3 MB, declarations far beyond the first 64 KiB chunk.
    path = tmp_path / "big.xml"
    with path.open("w", encoding="utf-8") as f:
        f.write('<r xmlns="urn:example:root:">')
        for i in range(20000):
            f.write(f'<e{i % 7} xmlns:p{i % 50}="urn:example:ns{i % 50}:">{"x" * 100}</e{i % 7}>')
        f.write('<q:last xmlns:q="URN:EXAMPLE:root:"/></r>')
    events = list(iter_namespaces(path))
    assert sum(1 for e in events if e[0] == "ns") == 20002
    result = audit(path)
    assert len(result.urn_namespaces) == 52
    assert result.equivalent_spellings == [("URN:EXAMPLE:root:", "urn:example:root:")]
    ctx = context_from_xml(path)["@context"]
    assert ctx["@vocab"] == "urn:example:root:" and ctx["p49"] == "urn:example:ns49:"


@pytest.mark.parametrize("name", ["saml-assertion", "xliff-2.0"])
def test_example_contexts_are_current(name):
    source = next(EXAMPLES.glob(f"{name}.x*"))
    expected = json.loads((EXAMPLES / f"{name}.context.jsonld").read_text(encoding="utf-8"))
    assert context_from_xml(source) == expected


def test_context_from_xml_compacts_the_documents_iris():
    ctx = context_from_xml(EXAMPLES / "saml-assertion.xml")
    doc = {"@id": "urn:example:response:1", SAML + "Issuer": "https://idp.example.org/metadata",
           "URN:OASIS:names:tc:SAML:2.0:assertionSubject": {"@id": "urn:example:subject:1"}}
    out = compact(doc, ctx)
    # Both spellings of the assertion namespace compact (urnld canonicalizes both sides).
    assert set(out) - {"@context", "@id"} == {"a:Issuer", "a:Subject"}


def test_context_from_namespaces():
    ctx = context_from_namespaces({"": "urn:example:vocab:", "yang": "urn:ietf:params:xml:ns:yang:ietf-interfaces",
                                   "isbn": "urn:isbn:", "urn": "urn:example:u:", "ex": "https://example.org/"})
    assert ctx == {"@context": {
        "@version": 1.1,
        "@vocab": "urn:example:vocab:",
        "yang": {"@id": "urn:ietf:params:xml:ns:yang:ietf-interfaces", "@prefix": True},
        "isbn": "urn:isbn:",
        "urn_": "urn:example:u:",  # a term named "urn" would hijack every urn: IRI
        "ex": "https://example.org/",
    }}


def test_invalid_namespace_names_are_reported():
    # a two-letter NID (UN/CEFACT's, declared by every CII invoice) is a warning in check(),
    # so it is not reported here; a '.' in the NID (PEPPOL's urn:cen.eu:…) is no URN at all
    mapping = {"x": "urn:x-foo:ns", "b": "urn:cen.eu:en16931:",
               "u": "urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100"}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ctx = context_from_namespaces(mapping)
    assert ctx["@context"]["x"] == {"@id": "urn:x-foo:ns", "@prefix": True}
    assert [(w.category, str(w.message)) for w in caught] == [
        (URNContextWarning, "namespace 'urn:x-foo:ns' is not a valid URN: 'X-' experimental "
                            "NIDs such as 'x-foo' were removed by RFC 8141 (App. C); this is not "
                            "a valid URN"),
        (URNContextWarning, "namespace 'urn:cen.eu:en16931:' is not a valid URN: character '.' "
                            "is not allowed in a NID (letters, digits and '-' only)"),
    ]
    with pytest.raises(URNContextError, match="namespace 'urn:x-foo:ns' is not a valid URN"):
        context_from_namespaces(mapping, on_invalid="error")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        context_from_namespaces(mapping, on_invalid="ignore")


def test_context_from_graph():
    g = Graph(bind_namespaces="none")
    g.bind("saml", SAML)
    g.bind("dc", "http://purl.org/dc/terms/")
    assert context_from_graph(g) == {"@context": {
        "@version": 1.1, "dc": "http://purl.org/dc/terms/",
        "saml": {"@id": SAML, "@prefix": True}}}


def test_rebound_prefixes_get_numbers():
    ctx = context_from_xml(xml('<p:r xmlns:p="urn:example:one"><p:s xmlns:p="urn:example:two"/></p:r>'))
    assert ctx["@context"]["p"]["@id"] == "urn:example:one"
    assert ctx["@context"]["p2"]["@id"] == "urn:example:two"


def test_undeclared_default_namespace_is_not_a_vocab():
    ctx = context_from_xml(xml('<r xmlns=""><s xmlns="urn:example:ns:"><t xmlns=""/></s></r>'))
    assert ctx == {"@context": {"@version": 1.1, "@vocab": "urn:example:ns:"}}


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
