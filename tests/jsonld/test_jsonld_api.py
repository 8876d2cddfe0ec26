"""urnld.jsonld.expand/compact/flatten/to_rdf: canonical URNs, spelling invariance, the
canonicalize=False escape hatch, and every hazard with the message a user sees."""

from __future__ import annotations

import copy
import json
import warnings
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pyld import jsonld as pyld
from rdflib import Dataset, Literal, URIRef
from rdflib.graph import DATASET_DEFAULT_GRAPH_ID

from urnld import URNError
from urnld.jsonld import (
    JsonLdProcessingError,
    URNBaseError,
    URNContextError,
    URNContextWarning,
    URNDocumentLoader,
    compact,
    expand,
    flatten,
    to_rdf,
)

# rdflib's own JSON-LD parser and Dataset API emit DeprecationWarnings (ConjunctiveGraph,
# default_context) that are not ours to fix.
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning:rdflib")

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "jsonld"
S = "https://schema.org/"
CTX = {"@version": 1.1, "uuid": "urn:uuid:", "isbn": "urn:isbn:", "@vocab": S,
       "author": {"@id": f"{S}author", "@type": "@id"},
       "knows": {"@id": f"{S}knows", "@type": "@id"}}
CATALOG = {"urn:example:ctx:books": {"@context": CTX}}

# (canonical URN, spellings that RFC 8141 + namespace rules make equivalent to it)
URNS = {
    "book": ("urn:isbn:0395363411", ["urn:isbn:0-395-36341-1", "URN:ISBN:0-395-36341-1",
                                      "urn:ISBN:0395363411", "uRn:IsBn:0-395-36341-1"]),
    "ada": ("urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6",
            ["urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6",
             "URN:UUID:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6",
             "urn:UUID:F81d4fae-7DEC-11d0-A765-00a0c91e6bf6"]),
    "alan": ("urn:example:person:alan%2Cturing",
             ["urn:example:person:alan%2Cturing", "URN:EXAMPLE:person:alan%2cturing",
              "urn:Example:person:alan%2cturing"]),
    "ctx": ("urn:example:ctx:books", ["urn:example:ctx:books", "URN:EXAMPLE:ctx:books",
                                      "urn:eXaMpLe:ctx:books"]),
}


def make_doc(pick):
    """A document using one spelling per occurrence; *pick(name, occurrence)* chooses it."""
    return {
        "@context": pick("ctx", 0),
        "@id": pick("book", 0),
        "@type": "Book",
        "name": "A Book (title mentions URN:ISBN:0-395-36341-1 as plain text)",
        "author": pick("ada", 0),
        "https://schema.org/about": {"@id": pick("book", 1)},
        "@reverse": {"https://schema.org/owns": {"@id": pick("alan", 0), "knows": pick("ada", 1)}},
        "https://schema.org/citation": {"@list": [{"@id": pick("book", 2)}, {"@id": pick("alan", 1)}]},
    }


def canonical_pick(name, _):
    return URNS[name][0]


def loader():
    return URNDocumentLoader(CATALOG)


spellings = st.fixed_dictionaries(
    {name: st.lists(st.sampled_from(variants), min_size=3, max_size=3)
     for name, (_, variants) in URNS.items()})


@given(spellings)
def test_spelling_variants_expand_compact_flatten_and_convert_identically(chosen):
    doc = make_doc(lambda name, i: chosen[name][i])
    reference = make_doc(canonical_pick)
    assert expand(doc, loader=loader()) == expand(reference, loader=loader())
    assert compact(doc, "urn:example:ctx:books", loader=loader()) == compact(
        reference, "urn:example:ctx:books", loader=loader())
    assert flatten(doc, loader=loader()) == flatten(reference, loader=loader())
    assert to_rdf(doc, loader=loader(), format="nquads") == to_rdf(
        reference, loader=loader(), format="nquads")


def test_compaction_uses_the_prefix_for_every_spelling_and_keeps_literals():
    doc = make_doc(lambda name, i: URNS[name][1][-1])
    out = compact(doc, "urn:example:ctx:books", loader=loader())
    assert out["@id"] == "isbn:0395363411"
    assert out["author"] == "uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6"
    assert out["about"] == {"@id": "isbn:0395363411"}
    # A string value is a literal, not an identifier: never rewritten.
    assert out["name"] == "A Book (title mentions URN:ISBN:0-395-36341-1 as plain text)"


def test_plain_pyld_compacts_only_the_exact_spelling():
    doc = {"@id": "URN:ISBN:0-395-36341-1", "https://schema.org/name": "x"}
    assert pyld.compact(doc, {"isbn": "urn:isbn:"})["@id"] == "URN:ISBN:0-395-36341-1"
    assert compact(doc, {"isbn": "urn:isbn:"})["@id"] == "isbn:0395363411"
    # The context's own spelling does not matter either.
    assert compact(doc, {"isbn": "URN:ISBN:"})["@id"] == "isbn:0395363411"


def test_two_spellings_of_a_node_or_property_merge():
    doc = [{"@id": "urn:example:a", "URN:EXAMPLE:p": "1"},
           {"@id": "URN:EXAMPLE:a", "urn:example:p": "2"}]
    assert flatten(doc) == [{"@id": "urn:example:a",
                             "urn:example:p": [{"@value": "1"}, {"@value": "2"}]}]
    assert expand({"@id": "urn:example:a", "URN:EXAMPLE:p": "1", "urn:example:p": "2"}) == [
        {"@id": "urn:example:a", "urn:example:p": [{"@value": "2"}, {"@value": "1"}]}]


def test_components_are_kept_and_normalized():
    out = expand({"@id": "URN:EXAMPLE:book#Ch%2a", "urn:example:p": {"@id": "urn:example:book"}})
    assert out == [{"@id": "urn:example:book#Ch%2A",
                    "urn:example:p": [{"@id": "urn:example:book"}]}]


def test_datatypes_and_types_are_canonicalized_values_are_not():
    out = expand({"@id": "_:b", "@type": "URN:EXAMPLE:Type",
                  "urn:example:p": {"@value": "URN:EXAMPLE:x", "@type": "URN:EXAMPLE:dt"},
                  "urn:example:j": {"@value": {"k": "URN:EXAMPLE:x"}, "@type": "@json"}})
    assert out == [{"@id": "_:b", "@type": ["urn:example:Type"],
                    "urn:example:p": [{"@value": "URN:EXAMPLE:x", "@type": "urn:example:dt"}],
                    "urn:example:j": [{"@value": {"k": "URN:EXAMPLE:x"}, "@type": "@json"}]}]


def test_canonicalize_false_is_plain_pyld():
    doc = make_doc(lambda name, i: URNS[name][1][1])
    opts = {"documentLoader": loader()}
    assert expand(doc, loader=loader(), canonicalize=False) == pyld.expand(doc, dict(opts))
    assert compact(doc, CTX, loader=loader(), canonicalize=False) == pyld.compact(doc, CTX, dict(opts))
    assert flatten(doc, CTX, loader=loader(), canonicalize=False) == pyld.flatten(doc, CTX, dict(opts))
    assert to_rdf(doc, loader=loader(), canonicalize=False, format="nquads") == pyld.to_rdf(
        doc, {**opts, "format": "application/n-quads"})
    # ...including pyld's errors, unwrapped.
    with pytest.raises(pyld.JsonLdError) as e:
        expand({"@context": {"@version": 1.2}}, canonicalize=False)
    assert type(e.value) is pyld.JsonLdError


def test_input_is_not_modified():
    doc = make_doc(lambda name, i: URNS[name][1][1])
    before = copy.deepcopy(doc)
    compact(doc, CTX, loader=loader())
    to_rdf(doc, loader=loader())
    assert doc == before


def test_to_rdf_dataset():
    doc = {"@context": {"@vocab": S}, "@id": "URN:EXAMPLE:a", "name": [{"@value": "A", "@language": "en"}, "B"],
           "age": 3, "@graph": [{"@id": "urn:example:b", "name": "in graph"}]}
    ds = to_rdf(doc)
    assert isinstance(ds, Dataset)
    quads = set(ds.quads())
    a = URIRef("urn:example:a")
    assert (URIRef("urn:example:b"), URIRef(f"{S}name"), Literal("in graph"), a) in quads
    expected = Dataset()
    expected.parse(data=to_rdf(doc, format="nquads"), format="nquads")
    # No blank nodes here, so the same quads means the same dataset.
    assert quads == set(expected.quads())
    assert (a, URIRef(f"{S}name"), Literal("A", lang="en"), DATASET_DEFAULT_GRAPH_ID) in quads
    assert len(quads) == 4
    assert set(to_rdf(doc, format="pyld")) == {"@default", "urn:example:a"}
    with pytest.raises(URNError, match="format must be 'dataset', 'nquads' or 'pyld'"):
        to_rdf(doc, format="turtle")


def test_vc_example_from_the_catalog_directory():
    doc = json.loads((EXAMPLES / "vc-credential.jsonld").read_text(encoding="utf-8"))
    cat = URNDocumentLoader(EXAMPLES / "catalog")
    flat = flatten(doc, "urn:example:vc:context:v1", loader=cat)
    # Two spellings of the subject's id are one node; the context came via @import from the
    # catalog under yet another spelling.
    assert [n["id"] for n in flat["@graph"]] == ["uuid:3f2504e0-4f89-11d3-9a0c-0305e82c3301",
                                                  "uuid:9c5b94b1-35ad-49bb-b118-8e8fc24abf80"]
    with pytest.raises(pyld.JsonLdError):
        pyld.expand(doc, {"documentLoader": pyld.dummy_document_loader()})


def test_pyld_errors_become_one_line_urnld_errors():
    with pytest.raises(JsonLdProcessingError) as e:
        compact({"@id": "urn:example:a"}, {"@version": 1.2})
    err = e.value
    assert isinstance(err, URNError) and isinstance(err, pyld.JsonLdError)
    assert err.code == "invalid @version value"
    assert str(err) == ("Could not process context before compaction. Unsupported JSON-LD "
                        "version: 1.2 [invalid @version value]")


# -- hazards -------------------------------------------------------------------------------

BASE_DOC = {"@context": {"@base": "urn:example:a:b"}, "@id": "c",
            "https://schema.org/p": {"@id": "../d"}}
BASE_MSG_D = ("JSON-LD /https:~1~1schema.org~1p/@id: relative reference <../d> against the URN "
              "base <urn:example:a:b>: URNs have no hierarchy, so the reference has no agreed "
              "meaning (RFC 3986 §5.2, Jena, Oxigraph: <urn:d>; pyld: <urn:../d>; rdflib: "
              "<urn:example:a:bd>); write the full IRI or declare a prefix [urn-base]")
BASE_MSG_C = ("JSON-LD /@id: relative reference <c> against the URN base <urn:example:a:b>: URNs "
              "have no hierarchy, so the reference has no agreed meaning (RFC 3986 §5.2, Jena, "
              "Oxigraph: <urn:c>; pyld: <urn:c>; rdflib: <urn:example:a:b/c>); write the full "
              "IRI or declare a prefix [urn-base]")


@pytest.mark.parametrize("op", [expand, flatten, to_rdf, lambda d: compact(d, {})])
def test_hazard_urn_base(op):
    with pytest.raises(URNBaseError) as e:
        op(BASE_DOC)
    assert str(e.value) == BASE_MSG_D + " (and 1 more hazard)"
    assert [h.message for h in e.value.hazards] == [BASE_MSG_D, BASE_MSG_C]
    assert {h.code for h in e.value.hazards} == {"urn-base"}


BASE_MSG_DOC_START = "JSON-LD /@id: relative reference <c> against the URN base <urn:example:doc>: "


def test_hazard_urn_base_from_the_base_option():
    with pytest.raises(URNBaseError) as e:
        expand({"@id": "c", "https://schema.org/p": "x"}, base="urn:example:doc")
    assert str(e.value).startswith(BASE_MSG_DOC_START)


def test_hazard_urn_base_of_a_document_loaded_by_urn():
    loader = URNDocumentLoader({"urn:example:doc": {"@id": "c", "https://schema.org/p": "x"}})
    with pytest.raises(URNBaseError) as e:
        expand("URN:EXAMPLE:doc", loader=loader)
    assert str(e.value).startswith(
        "JSON-LD document <URN:EXAMPLE:doc>: relative reference <c> against the URN base "
        "<urn:example:doc>: ")
    assert expand("URN:EXAMPLE:doc", loader=loader, hazards="ignore")[0]["@id"] == "urn:c"


def test_hazard_urn_base_without_relative_references_is_fine():
    doc = {"@context": {"@base": "urn:example:a:b"}, "@id": "urn:example:x",
           "https://schema.org/p": "x"}
    assert expand(doc)[0]["@id"] == "urn:example:x"


def test_hazards_as_warnings_and_ignored():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = expand(BASE_DOC, hazards="warn")
    assert out == [{"@id": "urn:c", "https://schema.org/p": [{"@id": "urn:../d"}]}]
    assert [(w.category, str(w.message)) for w in caught] == [
        (URNContextWarning, BASE_MSG_D.replace(" [urn-base]", "; continuing with <urn:../d> [urn-base]")),
        (URNContextWarning, BASE_MSG_C.replace(" [urn-base]", "; continuing with <urn:c> [urn-base]"))]
    assert caught[0].filename == __file__  # points at the caller, not at urnld
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert expand(BASE_DOC, hazards="ignore") == out


def test_hazard_term_named_like_a_scheme_expanding():
    doc = {"@context": {"urn": "http://example.org/urn#"}, "@id": "urn:isbn:0-395-36341-1",
           "https://schema.org/p": "x"}
    with pytest.raises(URNContextError) as e:
        expand(doc)
    assert str(e.value) == (
        "term 'urn' has the name of the URI scheme 'urn:', so JSON-LD reads 'urn:isbn:0-395-36341-1' "
        "as a compact IRI and expands it to 'http://example.org/urn#isbn:0-395-36341-1' "
        "(w3c/json-ld-api#104); rename the term")
    assert e.value.hazards[0].code == "scheme-term"


def test_hazard_term_named_like_a_scheme_compacting():
    with pytest.raises(URNContextError) as e:
        compact({"@id": "urn:isbn:0-395-36341-1", "https://schema.org/p": "x"},
                {"urn": "http://example.org/urn#"})
    assert str(e.value) == (
        "term 'urn' has the name of the URI scheme 'urn:' used by 'urn:isbn:0395363411'; JSON-LD "
        "cannot compact such IRIs or read them back (they look like compact IRIs); rename the term")
    # Plain pyld refuses too, but only with a generic error.
    with pytest.raises(pyld.JsonLdError, match="Absolute IRI confused with prefix"):
        pyld.compact({"@id": "urn:isbn:1", "https://schema.org/p": "x"},
                     {"urn": "http://example.org/urn#"})


def test_hazard_any_scheme_named_term_in_a_compaction_context():
    # W3C compact e002: valid JSON-LD that a processor must refuse with "IRI confused with
    # prefix"; urnld lets pyld give that error (the suite's) and names term and IRI as a
    # finding first.
    doc = [{"tag:champin.net,2019:prop": {"@value": "hello world"}}]
    ctx = {"tag": "http://example.org/ns/tag/"}
    found: list = []
    with pytest.raises(JsonLdProcessingError, match=r"\[IRI confused with prefix\]"):
        compact(doc, ctx, findings=found)
    assert [(h.code, h.message, h.fatal) for h in found] == [(
        "scheme-term",
        "term 'tag' has the name of the URI scheme 'tag:' used by 'tag:champin.net,2019:prop'; "
        "JSON-LD cannot compact such IRIs or read them back (they look like compact IRIs); "
        "rename the term", False)]
    doc = [{"@id": "foo:bar", "https://schema.org/p": 1}]
    with pytest.warns(URNContextWarning, match="term 'foo' has the name of the URI scheme 'foo:'"), \
            pytest.raises(JsonLdProcessingError, match=r"\[IRI confused with prefix\]"):
        compact(doc, {"foo": "http://example.org/foo#"})
    with pytest.raises(JsonLdProcessingError, match=r"\[IRI confused with prefix\]"):
        compact(doc, {"foo": "http://example.org/foo#"}, hazards="ignore")


def test_scheme_named_term_is_a_finding_and_the_output_is_the_algorithms():
    # W3C compact 0007: a term "ex" beside IRIs "ex:authored" is valid JSON-LD; the result is
    # pyld's (the suite's expected output) and the hazard a finding.
    suite = Path(__file__).resolve().parents[1] / "data" / "w3c" / "json-ld-api" / "tests"
    doc = json.loads((suite / "compact" / "0007-in.jsonld").read_text(encoding="utf-8"))
    ctx = json.loads((suite / "compact" / "0007-context.jsonld").read_text(encoding="utf-8"))
    found: list = []
    out = compact(doc, ctx, findings=found)
    assert out == pyld.compact(doc, ctx)
    assert [h.code for h in found] == ["scheme-term"]


YANG = {"yang": "urn:ietf:params:xml:ns:yang:ietf-interfaces"}


def test_hazard_prefix_without_gen_delim_expanding():
    doc = {"@context": YANG, "@id": "yang:eth0", "https://schema.org/p": 1}
    found: list = []
    assert expand(doc, findings=found) == pyld.expand(doc)
    assert [(h.code, h.message) for h in found] == [("prefix-not-usable", (
        "'yang:eth0' was not expanded: term 'yang' maps to the URN namespace "
        "'urn:ietf:params:xml:ns:yang:ietf-interfaces', which does not end in a gen-delim "
        '(: / ? # [ ] @), and JSON-LD 1.1 uses such a term as a prefix only with "@prefix": true'
    ))]


def test_hazard_prefix_without_gen_delim_compacting():
    doc = {"@id": "urn:ietf:params:xml:ns:yang:ietf-interfacesEth0", "https://schema.org/p": 1}
    with pytest.warns(URNContextWarning) as caught:
        out = compact(doc, YANG)
    assert out["@id"] == doc["@id"]
    assert [str(w.message) for w in caught] == [
        "term 'yang' cannot compact 'urn:ietf:params:xml:ns:yang:ietf-interfacesEth0': its URN "
        "namespace 'urn:ietf:params:xml:ns:yang:ietf-interfaces' does not end in a gen-delim "
        '(: / ? # [ ] @); add "@prefix": true to the term definition']
    fixed = {"yang": {"@id": YANG["yang"], "@prefix": True}}
    assert compact(doc, fixed)["@id"] == "yang:Eth0"


@pytest.mark.parametrize(("iri", "reason"), [
    ("urn:isbn:0-395-36341-2", "ISBN check digit '2' is wrong"),
    ("urn:x-foo:bar", "'X-' experimental NIDs such as 'x-foo' were removed by RFC 8141 "
                      "(App. C); this is not a valid URN"),
    ("urn:bar", "':' and a namespace-specific string must follow the NID"),
])
def test_hazard_invalid_urn(iri, reason):
    # A finding, not a refusal: the document is valid JSON-LD and its output pyld's.
    found: list = []
    out = expand({"@id": iri, "https://schema.org/p": 1}, canonicalize=False, hazards="error",
                 findings=found)
    assert out == [{"@id": iri, "https://schema.org/p": [{"@value": 1}]}]
    assert [(h.code, h.message) for h in found] == [
        ("invalid-urn", f"{iri!r} is not a valid URN: {reason}")]
    with pytest.warns(URNContextWarning, match="is not a valid URN"):
        expand({"@id": iri, "https://schema.org/p": 1})


def test_hazard_invalid_urns_are_grouped_by_reason():
    doc = [{"@id": f"urn:x-ex:s{i}", "https://schema.org/p": i} for i in range(5)]
    found: list = []
    expand(doc, findings=found)
    assert [h.message for h in found] == [
        "'urn:x-ex:s0' (and 4 more IRIs like it) is not a valid URN: 'X-' experimental NIDs "
        "such as 'x-ex' were removed by RFC 8141 (App. C); this is not a valid URN"]
    # a two-letter NID (UN/CEFACT's urn:un:…) is reserved for registration: a warning only
    cii = "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100"
    found = []
    assert expand([{"@id": cii, "https://schema.org/p": 1}], findings=found)[0]["@id"] == cii
    assert found == []


def test_only_the_hazards_that_break_urns_refuse():
    # A term named "urn" and a relative reference against a URN base stop the run; the
    # findings found with them are on the error too.
    doc = {"@context": {"urn": "http://example.org/urn#"}, "@id": "urn:isbn:0-395-36341-1",
           "https://schema.org/p": {"@id": "urn:bar"}}
    with pytest.raises(URNContextError) as e:
        expand(doc, findings=[])
    assert (e.value.hazards[0].code, e.value.hazards[0].fatal) == ("scheme-term", True)
    with pytest.raises(URNBaseError):
        expand({"@id": "c", "https://schema.org/p": "x"}, base="urn:example:doc", findings=[])


def test_property_based_index_maps_are_kept_without_a_base():
    # JSON-LD 1.1 Expansion 13.8.3.7.2: the index key of a property-based index map expands
    # as a vocabulary IRI. pyld 3.3 does so only when a base is given, and without one drops
    # every index value from the RDF (the "name" of each affordance of a W3C Thing
    # Description: "properties": {"@container": "@index", "@index": "name"}).
    doc = {"@context": {"@vocab": "https://www.w3.org/2019/wot/td#",
                        "properties": {"@id": "hasPropertyAffordance", "@container": "@index",
                                       "@index": "name"}},
           "@id": "urn:uuid:0804d572-cce8-422a-bb7c-4412fcd56f06",
           "properties": {"status": {"@id": "urn:example:status", "title": "Status"}}}
    (node,) = expand(doc)
    affordance = node["https://www.w3.org/2019/wot/td#hasPropertyAffordance"][0]
    assert affordance["https://www.w3.org/2019/wot/td#name"] == [{"@value": "status"}]
    assert "name" in pyld.expand(doc)[0]["https://www.w3.org/2019/wot/td#hasPropertyAffordance"][0]
    statements = to_rdf(doc, format="nquads")
    assert ('<urn:example:status> <https://www.w3.org/2019/wot/td#name> "status" .'
            in statements.splitlines())


def test_hazard_arguments_are_checked():
    with pytest.raises(URNError, match="hazards must be 'error', 'warn' or 'ignore', not 'x'"):
        expand({}, hazards="x")
    # canonicalize=False with hazards: the checks run, the spellings are kept as written.
    doc = {"@context": {"@base": "urn:example:a:b"}, "@id": "URN:EXAMPLE:a:b#x",
           "https://schema.org/p": {"@id": "c"}}
    with pytest.raises(URNBaseError, match=r"<c> against the URN base"):
        expand(doc, canonicalize=False, hazards="error")
    doc["https://schema.org/p"] = {"@id": "#y"}
    out = expand(doc, canonicalize=False, hazards="error")
    assert out[0]["@id"] == "URN:EXAMPLE:a:b#x"
    assert out[0]["https://schema.org/p"] == [{"@id": "urn:example:a:b#y"}]
    assert issubclass(URNContextError, URNError) and issubclass(URNBaseError, URNContextError)


def test_pyld_crashes_become_urnld_errors():
    # W3C toRdf e122 makes pyld 3.3 raise TypeError; urnld reports it as a documented error.
    suite = Path(__file__).resolve().parents[1] / "data" / "w3c" / "json-ld-api" / "tests"
    doc = json.loads((suite / "toRdf" / "e122-in.jsonld").read_text(encoding="utf-8"))
    with pytest.raises(TypeError):
        pyld.to_rdf(doc, {"base": "https://w3c.github.io/json-ld-api/tests/toRdf/e122-in.jsonld"})
    with pytest.raises(JsonLdProcessingError) as e:
        to_rdf(doc, base="https://w3c.github.io/json-ld-api/tests/toRdf/e122-in.jsonld")
    assert str(e.value).startswith("pyld failed on this input (TypeError: ")
    assert isinstance(e.value.__cause__, TypeError)


def test_epcis_sgtin_with_alphanumeric_serial_expands():
    # GS1 EPCIS 2.0's own example EPC: an SGTIN serial of letters (GS1 Tag Data Standard);
    # RFC 5134's numeric grammar alone refused the whole document
    doc = {"@context": {"epcList": {"@id": "https://ref.gs1.org/epcis/epcList", "@type": "@id",
                                    "@container": "@list"}},
           "@id": "urn:uuid:6d8a1c3e-0c38-4d8a-9f4e-0e2b6f1a7c55",
           "epcList": ["urn:epc:id:sgtin:4012345.033333.AGHFG"]}
    (node,) = expand(doc)
    assert node["https://ref.gs1.org/epcis/epcList"] == [
        {"@list": [{"@id": "urn:epc:id:sgtin:4012345.033333.AGHFG"}]}]


def test_a_context_loaded_through_one_catalog_is_not_handed_to_later_calls():
    # pyld caches resolved contexts process-wide by IRI; urnld's calls keep a cache of their
    # own, so a context one caller's catalog served is not reused by a call that names another
    # loader (or none): nothing is read outside what each call names.
    doc = {"@context": "urn:example:vc:context:v1", "@id": "urn:example:a",
           "https://schema.org/name": "x"}
    cat = URNDocumentLoader(EXAMPLES / "catalog")
    expand(doc, loader=cat, canonicalize=False, hazards="ignore")
    with pytest.raises((URNError, pyld.JsonLdError), match="urn:example:vc:context:v1"):
        expand(doc, loader=URNDocumentLoader({}), canonicalize=False, hazards="ignore")
    with pytest.raises(pyld.JsonLdError):
        pyld.expand(doc, {"documentLoader": pyld.dummy_document_loader()})
