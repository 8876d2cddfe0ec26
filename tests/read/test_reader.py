"""urnld.read: every syntax, every kind of reference against a URN base, offline, safe XML."""

from __future__ import annotations

import doctest
import importlib
import json
import os
import warnings

import pytest
from rdflib import Graph, URIRef

from urnld.jsonld import CatalogError, URNBaseError, URNContextWarning, URNDocumentLoader
from urnld.read import ReadError, UnsafeXMLError, read

BASE = "urn:example:a:b"
# One document per syntax, with the reference under test as the subject; the second line holds
# it, so positions are comparable across the text syntaxes.
DOCS = {
    "turtle": "@base <urn:example:a:b> .\n<{ref}> <http://example.org/p> \"v\" .\n",
    "trig": "BASE <urn:example:a:b>\n{{ <{ref}> <http://example.org/p> \"v\" . }}\n",
    "n3": "@base <urn:example:a:b> .\n<{ref}> <http://example.org/p> \"v\" .\n",
    "xml": ('<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" '
            'xml:base="urn:example:a:b">\n<rdf:Description rdf:about="{ref}">'
            '<p xmlns="http://example.org/">v</p></rdf:Description></rdf:RDF>'),
    "json-ld": ('{{"@context": {{"@base": "urn:example:a:b"}}, "@id": "{ref}", '
                '"http://example.org/p": "v"}}'),
}
# RFC 3986 §5.2 against urn:example:a:b: what Oxigraph 0.5 gives for all of these (measured with
# pyoxigraph in tests/read/test_bases_table.py).
FINE = {"": "urn:example:a:b", "#sec1": "urn:example:a:b#sec1", "?=q": "urn:example:a:b?=q"}
HAZARDS = {"c": "urn:c", "../d": "urn:d", "/c": "urn:/c", "//h/c": "urn://h/c"}


def subjects(g: Graph) -> list[str]:
    return sorted({str(q[0]) for q in g.quads()} if hasattr(g, "quads") else
                  {str(s) for s in g.subjects()})


@pytest.mark.parametrize("fmt", sorted(DOCS))
@pytest.mark.parametrize(("ref", "expected"), sorted(FINE.items()))
def test_well_defined_references_resolve(fmt, ref, expected):
    g = read(data=DOCS[fmt].format(ref=ref), format=fmt)
    assert subjects(g) == [expected]


@pytest.mark.parametrize("fmt", sorted(DOCS))
@pytest.mark.parametrize(("ref", "rfc"), sorted(HAZARDS.items()))
def test_hazards_are_one_finding_in_every_syntax(fmt, ref, rfc):
    with pytest.raises(URNBaseError) as e:
        read(data=DOCS[fmt].format(ref=ref), format=fmt, name="doc")
    message = str(e.value)
    assert [h.code for h in e.value.hazards] == ["urn-base"]
    assert f"relative reference <{ref}> against the URN base <{BASE}>" in message
    assert f"(RFC 3986 §5.2, Jena, Oxigraph: <{rfc}>;" in message
    assert message.endswith("[urn-base]") and "\n" not in message
    if fmt == "json-ld":
        assert message.startswith("doc: JSON-LD /@id: ")
    elif fmt == "xml":
        assert message.startswith("doc:2:")
    else:
        assert message.startswith("doc:2:3: " if fmt == "trig" else "doc:2:1: ")


@pytest.mark.parametrize("fmt", sorted(set(DOCS) - {"json-ld"}))
def test_warn_goes_on_with_the_rfc3986_resolution(fmt):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        g = read(data=DOCS[fmt].format(ref="../d"), format=fmt, hazards="warn")
    assert subjects(g) == ["urn:d"]
    ours = [w for w in caught if w.category is not DeprecationWarning]  # rdflib's own notices
    assert [w.category for w in ours] == [URNContextWarning]
    assert str(ours[0].message).endswith("; continuing with <urn:d> [urn-base]")


def test_warn_in_json_ld_goes_on_with_pyld():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        g = read(data=DOCS["json-ld"].format(ref="../d"), format="json-ld", hazards="warn",
                 name="doc.jsonld")
    assert subjects(g) == ["urn:../d"]
    assert "continuing with <urn:../d>" in str(caught[0].message)
    # Named like the error would be: a command's warning line says which input it is about.
    assert str(caught[0].message).startswith("doc.jsonld: JSON-LD /@id: relative reference")


def test_base_argument_is_guarded_too():
    with pytest.raises(URNBaseError, match=r"<c> against the URN base <urn:example:doc>"):
        read(data="<c> <http://example.org/p> 1 .", base="urn:example:doc")
    g = read(data="<#f> <http://example.org/p> 1 .", base="urn:example:doc")
    assert subjects(g) == ["urn:example:doc#f"]


def test_urn_base_text_inside_strings_and_comments_is_not_syntax():
    doc = ('# @base <urn:example:x> .\n<http://example.org/s> <http://example.org/p> '
           '"@base <urn:example:y>", """BASE <urn:z> <c>""" .\n')
    g = read(data=doc, base="http://example.org/")
    assert len(g) == 2


def test_base_after_a_urn_base_and_back_to_http():
    doc = ("@base <urn:example:a> .\n<#x> <http://example.org/p> 1 .\n"
           "@base <http://example.org/dir/> .\n<c> <http://example.org/p> 2 .\n")
    assert subjects(read(data=doc)) == ["http://example.org/dir/c", "urn:example:a#x"]


def test_nested_relative_xml_base_under_a_urn_base():
    doc = ('<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" '
           'xml:base="urn:example:a"><rdf:Description xml:base="sub" rdf:about="#x">'
           '<p xmlns="http://example.org/">v</p></rdf:Description></rdf:RDF>')
    with pytest.raises(URNBaseError, match="<sub> against the URN base <urn:example:a>"):
        read(data=doc, format="xml")


def test_rdf_xml_entity_declarations_are_refused():
    bomb = ('<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "aaaaaaaaaa">'
            '<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>'
            '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
            '<rdf:Description rdf:about="http://example.org/s">'
            '<p xmlns="http://example.org/">&b;</p></rdf:Description></rdf:RDF>')
    with pytest.raises(UnsafeXMLError, match=r"^bomb.rdf:1:\d+: entity declarations are refused"):
        read(data=bomb, format="xml", name="bomb.rdf")
    external = ('<?xml version="1.0"?><!DOCTYPE r SYSTEM "file:///etc/passwd">'
                '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"/>')
    g = read(data=external, format="xml")  # the external DTD is never read
    assert len(g) == 0


def test_rdf_xml_character_references_are_linear():
    # 200k character references in one literal: quadratic concatenation would take minutes.
    body = "&#65;" * 200_000
    doc = ('<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
           f'<rdf:Description rdf:about="http://example.org/s"><p xmlns="http://example.org/">'
           f'{body}</p></rdf:Description></rdf:RDF>')
    g = read(data=doc, format="xml")
    assert len(str(next(iter(g))[2])) == 200_000


def test_trix_entity_declarations_are_refused():
    doc = ('<?xml version="1.0"?><!DOCTYPE TriX [<!ENTITY a "x">]>'
           '<TriX xmlns="http://www.w3.org/2004/03/trix/trix-1/"/>')
    with pytest.raises(UnsafeXMLError, match="entity declarations are refused"):
        read(data=doc, format="trix")


def test_json_ld_is_read_offline(tmp_path):
    secret = tmp_path / "secret.jsonld"
    secret.write_text('{"@context": {"@vocab": "http://leak.example/"}}')
    for ctx in ("https://schema.org/", secret.as_uri()):
        doc = json.dumps({"@context": ctx, "@id": "urn:example:a", "name": "x"})
        with pytest.raises(CatalogError, match="is not in the catalog"):
            read(data=doc, format="json-ld")
    doc = json.dumps({"@context": str(secret), "@id": "urn:example:a", "name": "x"})
    with pytest.raises(ReadError) as e:  # a relative reference without a base: never opened
        read(data=doc, format="json-ld")
    assert "leak" not in str(e.value)


def test_json_ld_contexts_come_from_the_catalog():
    loader = URNDocumentLoader({"urn:example:ctx": {"@context": {"@vocab": "http://e.org/"}}})
    doc = '{"@context": "URN:EXAMPLE:ctx", "@id": "URN:EXAMPLE:a", "name": "x"}'
    g = read(data=doc, format="json-ld", catalog=loader)
    # The reader keeps spellings as written: check and canonicalize see what the file says.
    assert [(str(s), str(p)) for s, p, _, _ in g.quads()] == [("URN:EXAMPLE:a", "http://e.org/name")]


def test_the_bundled_verifiable_credential_reads_with_its_catalog():
    here = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "jsonld")
    g = read(os.path.join(here, "vc-credential.jsonld"), catalog=os.path.join(here, "catalog"))
    assert len(g) == 8


def test_json_ld_blank_nodes_of_two_documents_stay_apart():
    g = Graph()
    for name in ("a", "b"):
        read(data=json.dumps({"http://example.org/p": name}), format="json-ld", graph=g)
    assert len(set(g.subjects())) == 2


def test_n3_with_formulas():
    g = read(data="@prefix : <http://example.org/> . { :a :b :c } => { :a :d :c } .",
             format="n3")
    assert len(g) == 1


def test_formats_paths_stdin_and_errors(tmp_path, monkeypatch):
    import gzip
    import io
    import sys

    p = tmp_path / "x.ttl.gz"
    p.write_bytes(gzip.compress(b"<http://example.org/s> <http://example.org/p> 1 ."))
    assert len(read(p)) == 1
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b'<urn:example:s> <urn:example:p> "x" .')))
    assert len(read("-", format="nt")) == 1
    bad = tmp_path / "bad.ttl"
    bad.write_text("<http://example.org/s> <http://example.org/p> .\n")
    with pytest.raises(ReadError, match=r"^.*bad\.ttl:1:47: cannot parse as turtle: "):
        read(bad)
    with pytest.raises(ReadError, match="cannot tell the RDF syntax"):
        read(tmp_path / "x.data")
    with pytest.raises(ReadError, match="unknown RDF syntax 'yaml'"):
        read(bad, format="yaml")
    with pytest.raises(ReadError, match="not JSON"):
        read(data="{", format="json-ld", name="j")
    with pytest.raises(ReadError, match="hazards must be"):
        read(data="", hazards="loud")  # type: ignore[arg-type]


def test_catalog_refuses_links_out_and_special_files(tmp_path):
    outside = tmp_path / "outside.json"
    outside.write_text('{"urn:example:secret": "x"}')
    linked = tmp_path / "linked"
    linked.mkdir()
    (linked / "catalog.json").symlink_to(outside)
    with pytest.raises(CatalogError, match="link to a file outside its directory") as e:
        URNDocumentLoader(linked)
    assert "secret" not in str(e.value)
    fifo = tmp_path / "fifo"
    fifo.mkdir()
    os.mkfifo(fifo / "catalog.json")
    with pytest.raises(CatalogError, match="is not a regular file"):
        URNDocumentLoader(fifo)  # returns at once: never waits for a writer
    doc = tmp_path / "doc"
    doc.mkdir()
    (doc / "catalog.json").write_text('{"urn:example:ctx": "ctx.jsonld"}')
    os.mkfifo(doc / "ctx.jsonld")
    with pytest.raises(CatalogError, match="is not a regular file"):
        URNDocumentLoader(doc)("urn:example:ctx")


def test_docstring_examples():
    failed = attempted = 0
    for name in ("urnld.read", "urnld.read._formats", "urnld.read._guard", "urnld._kernel._bases"):
        result = doctest.testmod(importlib.import_module(name))
        failed += result.failed
        attempted += result.attempted
    assert failed == 0 and attempted >= 20


def test_uriref_type():
    g = read(data=DOCS["turtle"].format(ref="#x"))
    assert all(isinstance(s, URIRef) for s in g.subjects())
