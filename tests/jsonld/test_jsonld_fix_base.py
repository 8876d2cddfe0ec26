"""fix-base on JSON-LD whose ``id`` alias comes through ``@import`` (the shape of the bundled
VC example: a context that imports a base context holding ``"id": "@id"``)."""

from __future__ import annotations

import json

import pytest

from urnld.read import ReadError, fix_base

UUID = "f81d4fae-7dec-11d0-a765-00a0c91e6bf6"  # RFC 4122's example


def _catalog(tmp_path, base_context):
    (tmp_path / "base.jsonld").write_text(json.dumps({"@context": base_context}))
    (tmp_path / "ctx.jsonld").write_text(json.dumps({"@context": {
        "@import": "urn:example:base", "knows": {"@id": "https://schema.org/knows",
                                                  "@type": "@id"}}}))
    (tmp_path / "catalog.json").write_text(json.dumps(
        {"urn:example:base": "base.jsonld", "urn:example:ctx": "ctx.jsonld"}))
    return str(tmp_path)


def test_an_id_alias_reached_through_import_is_followed(tmp_path):
    # Without following @import, "id" was a plain property: fix-base wrote only /knows and
    # said it had succeeded, the document's own id still relative to the URN base.
    catalog = _catalog(tmp_path, {"id": "@id", "type": "@type"})
    doc = json.dumps({"@context": ["urn:example:ctx", {"@base": "urn:uuid:"}], "id": UUID,
                      "knows": UUID})
    fixed, rewrites = fix_base(doc, "json-ld", catalog=catalog)
    out = json.loads(fixed)
    assert (out["id"], out["knows"]) == (f"urn:uuid:{UUID}", f"urn:uuid:{UUID}")
    assert sorted(r.where for r in rewrites) == ["<data>: JSON-LD /id", "<data>: JSON-LD /knows"]


def test_an_import_that_cannot_be_followed_is_refused_clearly(tmp_path):
    catalog = _catalog(tmp_path, {"id": "@id"})
    (tmp_path / "base.jsonld").write_text(json.dumps({"@context": [{"id": "@id"}]}))
    doc = json.dumps({"@context": ["urn:example:ctx", {"@base": "urn:uuid:"}], "id": UUID})
    with pytest.raises(ReadError, match="imported by @import is not one context object"):
        fix_base(doc, "json-ld", catalog=catalog)
