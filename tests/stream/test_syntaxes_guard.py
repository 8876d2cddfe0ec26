"""The guards of the whole-document reader, kept by the streaming path: relative references
against a URN base (the ``urn-base`` finding, with its position, before any output), RDF/XML
entity declarations, remote JSON-LD contexts, deep JSON."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pyoxigraph as ox
import pytest

from urnld.jsonld import URNBaseError, URNContextError, URNContextWarning
from urnld.read import read
from urnld.stream import RDFSyntaxError, canonicalize_file, check_file

# The reader's own hazard documents (tests/read/test_reader_cli.py): <c> against
# <urn:example:a:b> is <urn:c> by RFC 3986, which no author of such a document means.
HAZARD_DOCS = {
    "turtle": ("doc.ttl", "@base <urn:example:a:b> .\n<c> <http://example.org/p> \"v\" .\n",
               "doc.ttl:2:1"),
    "trig": ("doc.trig", "BASE <urn:example:a:b>\n<c> <http://example.org/p> \"v\" .\n",
             "doc.trig:2:1"),
    "n3": ("doc.n3", "@base <urn:example:a:b> .\n<c> <http://example.org/p> \"v\" .\n",
           "doc.n3:2:1"),
    "xml": ("doc.rdf", '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" '
            'xml:base="urn:example:a:b">\n<rdf:Description rdf:about="c">'
            '<p xmlns="http://example.org/">v</p></rdf:Description></rdf:RDF>', "doc.rdf:2:"),
    "json-ld": ("doc.jsonld", '{"@context": {"@base": "urn:example:a:b"}, "@id": "c", '
                '"http://example.org/p": "v"}', "JSON-LD /@id"),
}


@pytest.mark.parametrize("syntax", list(HAZARD_DOCS))
def test_urn_base_hazard_is_the_readers_finding(tmp_path: Path, syntax: str) -> None:
    name, text, where = HAZARD_DOCS[syntax]
    src = tmp_path / name
    src.write_text(text)
    with pytest.raises(URNBaseError) as streamed:
        canonicalize_file(src, tmp_path / "out.nq", input_format=syntax, output_format="nquads")
    assert not (tmp_path / "out.nq").exists()
    with pytest.raises(URNBaseError) as checked:
        check_file(src, input_format=syntax)
    with pytest.raises(URNBaseError) as whole:
        read(src, format=syntax)
    for e in (streamed.value, checked.value):
        assert str(e).startswith(str(src)) and where in str(e)
        assert "relative reference <c> against the URN base <urn:example:a:b>" in str(e)
        assert str(e).endswith("[urn-base]")
        assert [h.code for h in e.hazards] == ["urn-base"]
    assert str(streamed.value) == str(checked.value)
    if syntax in ("turtle", "trig", "n3"):  # the same words as the reader's, position too
        assert str(streamed.value) == str(whole.value)


@pytest.mark.parametrize("syntax", list(HAZARD_DOCS))
def test_urn_base_warn_goes_on_the_rfc_3986_way(tmp_path: Path, syntax: str) -> None:
    name, text, _where = HAZARD_DOCS[syntax]
    src = tmp_path / name
    src.write_text(text)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        report = canonicalize_file(src, tmp_path / "out.nq", input_format=syntax,
                                   output_format="nquads", hazards="warn")
    told = [str(w.message) for w in caught if issubclass(w.category, URNContextWarning)]
    assert len(told) == 1 and "continuing with <urn:c>" in told[0], told
    assert report.statements_out == 1
    got = list(ox.parse((tmp_path / "out.nq").read_bytes(), ox.RdfFormat.N_QUADS))
    assert got[0].subject == ox.NamedNode("urn:c")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        canonicalize_file(src, tmp_path / "out.nq", input_format=syntax,
                          output_format="nquads", hazards="ignore")
    assert not [w for w in caught if issubclass(w.category, URNContextWarning)]


def test_references_a_urn_base_allows_pass(tmp_path: Path) -> None:
    src = tmp_path / "ok.ttl"
    src.write_text('@base <urn:example:doc> .\n<#s> <http://e/p> <?q> , <> .\n')
    canonicalize_file(src, tmp_path / "o.nt", input_format="turtle", output_format="nt")
    assert set(ox.parse((tmp_path / "o.nt").read_bytes(), ox.RdfFormat.N_TRIPLES)) == {
        ox.Quad(ox.NamedNode("urn:example:doc#s"), ox.NamedNode("http://e/p"), o)
        for o in (ox.NamedNode("urn:example:doc?q"), ox.NamedNode("urn:example:doc"))
    }


def test_a_urn_base_given_by_the_caller(tmp_path: Path) -> None:
    src = tmp_path / "rel.ttl"
    src.write_text('<c> <http://e/p> "v" .\n')
    with pytest.raises(URNBaseError, match=r"rel\.ttl:1:1: relative reference <c>"):
        check_file(src, input_format="turtle", base="urn:example:a:b")


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_urn_base_far_into_the_document(tmp_path: Path, jobs: int) -> None:
    # The declaration comes after several MiB: the blocks before it were passed on already,
    # and the error still leaves no output.
    head = b"".join(b'<urn:ex:s%d> <http://e/p> "v" .\n' % i for i in range(200_000))
    src = tmp_path / "late.ttl"
    src.write_bytes(head + b'@base <urn:example:a:b> .\n<c> <http://e/p> "v" .\n')
    with pytest.raises(URNBaseError, match=r"late.ttl:200002:1: relative reference <c>"):
        canonicalize_file(src, tmp_path / "o.ttl", input_format="turtle", jobs=jobs)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["late.ttl"]


def test_base_in_a_literal_is_no_base(tmp_path: Path) -> None:
    src = tmp_path / "lit.ttl"
    src.write_text('<urn:ex:a> <http://e/p> "the base <urn:x> is" .\n')
    assert check_file(src, input_format="turtle").statements_in == 1


@pytest.mark.parametrize("jobs", [1, 2])
def test_entity_declarations_refused(tmp_path: Path, jobs: int) -> None:
    src = tmp_path / "e.rdf"
    src.write_text('<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "xyz">]>'
                   '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
                   '<rdf:Description rdf:about="urn:a&a;"/></rdf:RDF>')
    with pytest.raises(RDFSyntaxError, match="entity declarations are refused in RDF/XML"):
        canonicalize_file(src, tmp_path / "o.nt", input_format="xml", output_format="nt",
                          jobs=jobs)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["e.rdf"]


def test_a_doctype_without_declarations_is_read(tmp_path: Path) -> None:
    src = tmp_path / "d.rdf"
    src.write_text('<?xml version="1.0"?><!DOCTYPE rdf:RDF>'
                   '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
                   '<rdf:Description rdf:about="URN:ISBN:0-395-36341-1"><rdf:value>x</rdf:value>'
                   "</rdf:Description></rdf:RDF>")
    assert canonicalize_file(src, tmp_path / "o.nt", input_format="xml",
                             output_format="nt").rewritten == 1


@pytest.mark.parametrize("context", [
    '"https://schema.org/"', '["https://schema.org/", {"ex": "http://ex/"}]',
    '"urn:example:vc:context:v1"',
])
def test_remote_context_is_named_never_fetched(tmp_path: Path, context: str) -> None:
    src = tmp_path / "c.jsonld"
    src.write_text('{"@context": ' + context + ', "@id": "urn:example:a", "name": "x"}')
    name = json.loads(context)
    name = name[0] if isinstance(name, list) else name
    with pytest.raises(RDFSyntaxError, match=f"JSON-LD context '{name}' is not in the catalog"):
        check_file(src, input_format="json-ld")


def test_catalog_contexts_stream(tmp_path: Path) -> None:
    # The bundled VC example names its context by URN (URN:Example:vc:context:v1): with the
    # catalog, the streaming path inlines it and gives the reader's statements.
    from pyld import jsonld as pyld

    from urnld.read import read
    from urnld.stream import canonicalize_file

    root = Path(__file__).resolve().parents[2] / "examples" / "jsonld"
    out = tmp_path / "out.nq"
    canonicalize_file(root / "vc-credential.jsonld", out, input_format="json-ld",
                      output_format="nquads", catalog=root / "catalog")
    graph = read(root / "vc-credential.jsonld", catalog=root / "catalog")

    def canonical(nquads: str) -> str:
        return str(pyld.normalize(nquads, {"algorithm": "URDNA2015", "format":
                                           "application/n-quads",
                                           "inputFormat": "application/n-quads"}))

    read_nt = tmp_path / "read.nt"
    read_nt.write_text(graph.serialize(format="nt"), encoding="utf-8")
    read_out = tmp_path / "read-out.nt"
    canonicalize_file(read_nt, read_out)  # the same URN canonicalization as the stream's
    streamed = out.read_text(encoding="utf-8")
    assert streamed.count("\n") == len(graph) > 0
    assert canonical(streamed) == canonical(read_out.read_text(encoding="utf-8"))


def test_a_term_named_urn_is_the_readers_hazard(tmp_path: Path) -> None:
    # w3c/json-ld-api#104: a term "urn" turns "urn:isbn:…" into a compact IRI.
    src = tmp_path / "t.jsonld"
    src.write_text('{"@context": {"urn": "http://evil.example/"}, "@id": "urn:isbn:0395363411",'
                   ' "http://e/p": "x"}')
    with pytest.raises(URNContextError, match="scheme"):
        check_file(src, input_format="json-ld")


def test_deep_json_refused_before_pyoxigraph(tmp_path: Path) -> None:
    # pyoxigraph's JSON-LD reader overflows the stack (the process dies) a few thousand deep.
    src = tmp_path / "deep.jsonld"
    src.write_bytes(b'{"http://e/p":' * 50_000 + b"1" + b"}" * 50_000)
    with pytest.raises(RDFSyntaxError, match="nested too deeply"):
        check_file(src, input_format="json-ld")
    ok = tmp_path / "ok.jsonld"
    ok.write_bytes(b'{"@id": "urn:example:a", "http://e/p": ' + b'{"http://e/p": ' * 900
                   + b'"[{\\"]}"' + b"}" * 901)
    assert check_file(ok, input_format="json-ld").statements_in == 901
