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


def test_fix_base_leaves_other_references_alone():
    doc = "@base <urn:example:doc> .\n<c> <http://e.org/p> 1 .\n"
    assert fix_base(doc, "turtle") == (doc, [])
    with pytest.raises(ReadError, match="fix-base rewrites Turtle, TriG, N3 and JSON-LD"):
        fix_base("<rdf:RDF/>", "xml")


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
