"""Compaction against a URN base, frame() and from_rdf(): URN-aware and round-tripping."""

from __future__ import annotations

import json

import pytest
from rdflib import Graph

from urnld.cli import main
from urnld.jsonld import (
    URNBaseError,
    URNDocumentLoader,
    compact,
    expand,
    frame,
    from_rdf,
)


def test_compaction_against_a_urn_base_writes_absolute_urns():
    # The case from the issue: pyld gives "../example:other", which expand then refuses.
    doc = {"@id": "urn:example:other", "https://schema.org/p": {"@id": "urn:example:1234/x"}}
    ctx = {"@context": {"@base": "urn:example:1234/",
                        "p": {"@id": "https://schema.org/p", "@type": "@id"}}}
    out = compact(doc, ctx)
    assert out["@id"] == "urn:example:other"
    assert out["p"] == "urn:example:1234/x"
    assert expand(out) == [{"@id": "urn:example:other",
                            "https://schema.org/p": [{"@id": "urn:example:1234/x"}]}]


def test_compaction_with_a_urn_base_option_round_trips():
    doc = {"@id": "urn:example:doc#sec1", "https://schema.org/name": "x"}
    out = compact(doc, {"@vocab": "https://schema.org/"}, base="urn:example:doc")
    assert out["@id"] == "urn:example:doc#sec1"
    assert expand(out, base="urn:example:doc")[0]["@id"] == "urn:example:doc#sec1"


def test_compaction_still_uses_prefix_terms():
    out = compact({"@id": "URN:ISBN:0-395-36341-1", "https://schema.org/name": "x"},
                  {"@base": "urn:example:1234/", "isbn": "urn:isbn:"})
    assert out["@id"] == "isbn:0395363411"


def test_compaction_against_http_bases_is_unchanged():
    out = compact({"@id": "http://example.org/a/b", "https://schema.org/name": "x"},
                  {"@base": "http://example.org/a/"})
    assert out["@id"] == "b"


def test_frame_matches_every_spelling_and_loads_frames_from_the_catalog():
    doc = [{"@id": "URN:ISBN:0-395-36341-1", "@type": "https://schema.org/Book",
            "https://schema.org/name": "Lord of the Rings"},
           {"@id": "urn:isbn:0-451-45052-3", "@type": "https://schema.org/Book"}]
    loader = URNDocumentLoader({"urn:example:frame:book": {
        "@context": {"@vocab": "https://schema.org/"}, "@id": "URN:ISBN:0395363411"}})
    out = frame(doc, "urn:example:frame:book", loader=loader)
    assert (out["@id"], out["name"]) == ("urn:isbn:0395363411", "Lord of the Rings")


def test_frame_reports_base_hazards():
    doc = {"@context": {"@base": "urn:example:a:b"}, "@id": "c", "https://schema.org/p": "x"}
    with pytest.raises(URNBaseError):
        frame(doc, {})


def test_from_rdf_merges_spellings_and_takes_graphs():
    g = Graph()
    g.parse(data='<URN:ISBN:0-395-36341-1> <https://schema.org/name> "x" .\n'
                 '<urn:isbn:0395363411> <https://schema.org/author> "Tolkien" .\n', format="nt")
    out = from_rdf(g)
    assert [node["@id"] for node in out] == ["urn:isbn:0395363411"]
    assert set(out[0]) == {"@id", "https://schema.org/name", "https://schema.org/author"}
    plain = from_rdf(g.serialize(format="nt"), canonicalize=False)
    assert sorted(node["@id"] for node in plain) == ["URN:ISBN:0-395-36341-1",
                                                     "urn:isbn:0395363411"]
    with pytest.raises(ValueError, match="from_rdf takes N-Quads text"):
        from_rdf(42)


def test_cli_frame(tmp_path, capsys):
    doc = tmp_path / "doc.jsonld"
    doc.write_text(json.dumps([{"@id": "URN:EXAMPLE:a", "@type": "https://schema.org/Thing"}]))
    frm = tmp_path / "frame.json"
    frm.write_text(json.dumps({"@context": {"@vocab": "https://schema.org/"}, "@type": "Thing"}))
    assert main(["jsonld", "frame", str(doc), "--frame", str(frm)]) == 0
    assert json.loads(capsys.readouterr().out)["@id"] == "urn:example:a"
    assert main(["jsonld", "frame", str(doc)]) == 2
    assert capsys.readouterr().err == "urnld jsonld: error: frame needs --frame FRAME\n"
