"""JSON-LD context generation from XML namespaces, an rdflib graph, or XML documents."""

from __future__ import annotations

import io
import json
import warnings
from pathlib import Path

import pytest
from rdflib import Graph

from urnld.jsonld import (
    URNContextError,
    URNContextWarning,
    compact,
    context_from_graph,
    context_from_namespaces,
    context_from_xml,
)
from urnld.xmlns import audit, iter_namespaces

# rdflib's own JSON-LD parser and Dataset API emit DeprecationWarnings (ConjunctiveGraph,
# default_context) that are not ours to fix.
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning:rdflib")

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "xml"
SAML = "urn:oasis:names:tc:SAML:2.0:assertion"


def xml(text: str) -> io.BytesIO:
    return io.BytesIO(text.encode("utf-8"))




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
    with pytest.warns(URNContextWarning, match="glues names onto it"):
        assert context_from_xml(source) == expected


def test_context_from_xml_compacts_the_documents_iris():
    with pytest.warns(URNContextWarning, match="glues names onto it"):
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
    with pytest.warns(URNContextWarning, match="glues names onto it"):
        ctx = context_from_xml(
            xml('<p:r xmlns:p="urn:example:one"><p:s xmlns:p="urn:example:two"/></p:r>'))
    assert ctx["@context"]["p"]["@id"] == "urn:example:one"
    assert ctx["@context"]["p2"]["@id"] == "urn:example:two"


def test_undeclared_default_namespace_is_not_a_vocab():
    ctx = context_from_xml(xml('<r xmlns=""><s xmlns="urn:example:ns:"><t xmlns=""/></s></r>'))
    assert ctx == {"@context": {"@version": 1.1, "@vocab": "urn:example:ns:"}}


def test_glued_names_are_told_once_per_namespace():
    # XLIFF 2.0's namespace has no separator at its end: "x:file" would be
    # "urn:oasis:names:tc:xliff:document:2.0file", an IRI XLIFF does not define.
    with pytest.warns(URNContextWarning) as caught:
        ctx = context_from_xml(xml('<x:a xmlns:x="urn:oasis:names:tc:xliff:document:2.0">'
                                   '<x:b/><y:c xmlns:y="urn:isbn:"/></x:a>'))
    assert [str(w.message) for w in caught] == [
        "namespace 'urn:oasis:names:tc:xliff:document:2.0' does not end in a separator "
        "(: / ? # [ ] @): the term 'x' glues names onto it ('x:file' expands to "
        "'urn:oasis:names:tc:xliff:document:2.0file'), which is how RDF/XML reads XML names, "
        "not an IRI the XML vocabulary defines"]
    assert ctx["@context"]["y"] == "urn:isbn:"
