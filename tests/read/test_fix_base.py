"""The "URN base used as a prefix" idiom: reported with a hint, and fixed by fix-base."""

from __future__ import annotations

import json

import pytest

from urnld.cli import main
from urnld.jsonld import URNBaseError
from urnld.read import ReadError, fix_base, read

# RFC 4122 §appendix B's example UUID, as the users who write "@base <urn:uuid:>" use them.
UUID = "f81d4fae-7dec-11d0-a765-00a0c91e6bf6"
TTL = f'@base <urn:uuid:> .\n<{UUID}> <http://schema.org/name> "x" .\n'
JSONLD = json.dumps({"@context": {"@base": "urn:uuid:"}, "@id": UUID,
                     "http://schema.org/knows": {"@id": UUID}})


@pytest.mark.parametrize(("doc", "fmt"), [(TTL, "turtle"), (TTL, "trig"), (TTL, "n3"),
                                          (JSONLD, "json-ld")])
def test_the_idiom_is_reported_with_the_way_out(doc, fmt):
    with pytest.raises(URNBaseError) as e:
        read(data=doc, format=fmt)
    assert (f"the base ends in ':' like a prefix: for <urn:uuid:{UUID}> write it in full "
            "(urnld fix-base does it)") in str(e.value)


@pytest.mark.parametrize(("doc", "fmt"), [(TTL, "turtle"), (TTL, "trig"), (TTL, "n3"),
                                          (JSONLD, "json-ld")])
def test_fix_base_writes_what_was_meant(doc, fmt):
    fixed, rewrites = fix_base(doc, fmt, source="doc")
    g = read(data=fixed, format=fmt)
    triples = g.quads() if hasattr(g, "quads") else g  # a Dataset for TriG and JSON-LD
    assert {str(t[0]) for t in triples} == {f"urn:uuid:{UUID}"}
    assert {(r.reference, r.iri) for r in rewrites} == {(UUID, f"urn:uuid:{UUID}")}
    assert rewrites[0].where == ("doc: JSON-LD /@id" if fmt == "json-ld" else "doc:2:1")


def test_fix_base_leaves_other_references_alone_and_says_so():
    doc = "@base <urn:example:doc> .\n<c> <http://e.org/p> 1 .\n<#f> <http://e.org/p> 2 .\n"
    left: list = []
    assert fix_base(doc, "turtle", left=left) == (doc, [])
    # <c> has no agreed meaning under a document-like URN base; <#f> has one (urn:example:doc#f)
    assert [(r.where, r.reference, r.iri) for r in left] == [("<data>:2:1", "c", "")]
    with pytest.raises(ReadError, match="fix-base rewrites Turtle, TriG, N3, JSON-LD and RDF/XML"):
        fix_base("{}", "trix")


# JSON-LD 1.1 §4.3 (aliasing keywords: "id": "@id") and §4.2.2 (type coercion, "@type": "@id"):
# the shapes Thing Descriptions and Verifiable Credentials use.
ALIASED = {
    "@context": [{"@base": "urn:uuid:", "id": "@id", "knows": {"@id": "http://schema.org/knows",
                                                                "@type": "@id"}}],
    "id": UUID,
    "knows": [UUID, {"id": UUID}],
}


def test_jsonld_aliases_of_id_and_terms_typed_id_are_written_out():
    fixed, rewrites = fix_base(json.dumps(ALIASED), "json-ld", source="doc")
    doc = json.loads(fixed)
    iri = f"urn:uuid:{UUID}"
    assert doc["id"] == iri and doc["knows"] == [iri, {"id": iri}]
    assert sorted(r.where for r in rewrites) == [
        "doc: JSON-LD /id", "doc: JSON-LD /knows/0", "doc: JSON-LD /knows/1/id"]
    g = read(data=fixed, format="json-ld")  # no hazard left
    assert {str(o) for _s, _p, o, _g in g.quads()} == {iri}


def test_jsonld_contexts_named_by_iri_come_from_the_catalog(tmp_path):
    context = {"@context": ALIASED["@context"][0]}
    (tmp_path / "ctx.jsonld").write_text(json.dumps(context))
    (tmp_path / "catalog.json").write_text(json.dumps({"urn:example:ctx": "ctx.jsonld"}))
    doc = json.dumps({**ALIASED, "@context": "urn:example:ctx"})
    with pytest.raises(ReadError, match="--catalog"):
        fix_base(doc, "json-ld")
    fixed, rewrites = fix_base(doc, "json-ld", catalog=str(tmp_path))
    assert len(rewrites) == 3 and json.loads(fixed)["id"] == f"urn:uuid:{UUID}"


RDFXML = f"""<?xml version="1.0"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:s="http://schema.org/"
         xml:base="urn:uuid:">
  <rdf:Description rdf:about="{UUID}">
    <s:knows rdf:resource='{UUID}'/>
  </rdf:Description>
  <rdf:Description rdf:about="#frag" xml:base="urn:example:doc"><s:knows rdf:resource="c"/>
  </rdf:Description>
</rdf:RDF>
"""


def test_rdfxml_references_under_a_prefix_like_xml_base_are_written_out():
    left: list = []
    fixed, rewrites = fix_base(RDFXML, "xml", source="g.rdf", left=left)
    assert [(r.where, r.iri) for r in rewrites] == [
        ("g.rdf:4:3", f"urn:uuid:{UUID}"), ("g.rdf:5:5", f"urn:uuid:{UUID}")]
    assert [(r.where, r.reference) for r in left] == [("g.rdf:7:65", "c")]
    # everything else is kept byte for byte: only the two values changed
    assert fixed.replace(f"urn:uuid:{UUID}", UUID) == RDFXML
    with pytest.raises(ReadError, match="entity"):
        fix_base('<!DOCTYPE r [<!ENTITY e "x">]><r/>', "xml")


def test_cli_exits_1_when_a_reference_is_left(tmp_path, capsys):
    src = tmp_path / "doc.ttl"
    src.write_text("@base <urn:example:doc> .\n<c> <http://e.org/p> 1 .\n")
    assert main(["fix-base", str(src), "-o", str(tmp_path / "out.ttl")]) == 1
    err = capsys.readouterr().err
    assert f"{src}:2:1: <c> left as written" in err
    assert err.endswith("urnld fix-base: 0 references written in full; 1 left as written\n")
    assert main(["fix-base", str(src), "-o", str(tmp_path / "out.ttl"), "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out == {"rewritten": [], "left": [{"where": f"{src}:2:1", "reference": "c"}]}


def test_cli(tmp_path, capsys):
    src = tmp_path / "ids.ttl"
    src.write_text(TTL)
    out = tmp_path / "fixed.ttl"
    assert main(["fix-base", str(src), "-o", str(out)]) == 0
    err = capsys.readouterr().err
    assert err == (f"{src}:2:1: <{UUID}> -> <urn:uuid:{UUID}>\n"
                   "urnld fix-base: 1 reference written in full\n")
    assert src.read_text() == TTL  # the input is never modified
    assert main(["check", str(out)]) == 0
    capsys.readouterr()
    assert main(["fix-base", str(src), "-o", str(src)]) == 2
    assert "is the input file" in capsys.readouterr().err
