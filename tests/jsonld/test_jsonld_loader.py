"""URNDocumentLoader: catalog lookup by URN-equivalence, offline default, confinement, size cap,
pyld caching semantics, cycles; and rdflib's JSON-LD parser loading URN-named contexts."""

from __future__ import annotations

import json
import os
import urllib.error
from pathlib import Path

import pytest
from pyld import jsonld as pyld
from rdflib import Graph, Literal, URIRef

from urnld import URNError
from urnld import jsonld as ujsonld
from urnld.jsonld import CatalogError, URNDocumentLoader, rdflib_loader

# rdflib's own JSON-LD parser and Dataset API emit DeprecationWarnings (ConjunctiveGraph,
# default_context) that are not ours to fix.
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning:rdflib")

CTX = {"@context": {"name": "https://schema.org/name", "uuid": "urn:uuid:"}}


def write_catalog(root: Path, entries: dict[str, str], files: dict[str, object]) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "catalog.json").write_text(json.dumps(entries), encoding="utf-8")
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content if isinstance(content, str) else json.dumps(content),
                        encoding="utf-8")
    return root


@pytest.mark.parametrize("spelling", [
    "urn:example:ctx", "URN:EXAMPLE:ctx", "urn:Example:ctx", "Urn:eXample:ctx",
    "urn:example:ctx?=q", "urn:example:ctx#frag",
])
def test_any_equivalent_spelling_finds_the_entry(spelling):
    loader = URNDocumentLoader({"URN:example:ctx": CTX})
    remote = loader(spelling, {})
    assert remote["document"] == CTX
    assert remote["contentType"] == "application/ld+json"
    assert remote["tag"] == "static"
    assert remote["documentUrl"].startswith("urn:example:ctx")
    assert spelling in loader


@pytest.mark.parametrize("spelling", ["urn:example:CTX", "urn:example:ctx2", "urn:example2:ctx"])
def test_non_equivalent_spellings_miss(spelling):
    loader = URNDocumentLoader({"urn:example:ctx": CTX})
    assert spelling not in loader
    with pytest.raises(CatalogError) as e:
        loader(spelling, {})
    assert str(e.value) == (
        f"{spelling!r} is not in the catalog (a mapping of 1 entries), and nothing is fetched "
        "from the network without a fallback loader")


def test_namespace_rules_apply_to_lookup():
    # The uuid namespace rule makes hex digits case-insensitive.
    loader = URNDocumentLoader({"urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6": CTX})
    assert "URN:UUID:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6" in loader


def test_non_urn_keys_match_exactly_and_offline_is_the_default():
    loader = URNDocumentLoader({"https://www.w3.org/ns/credentials/v2": CTX})
    assert loader("https://www.w3.org/ns/credentials/v2", {})["document"] == CTX
    with pytest.raises(CatalogError, match="nothing is fetched from the network"):
        loader("https://www.w3.org/ns/credentials/V2", {})


def test_fallback_is_used_only_outside_the_catalog():
    calls = []

    def fallback(url, options):
        calls.append(url)
        return {"contentType": "application/ld+json", "contextUrl": None, "documentUrl": url,
                "document": {"@context": {}}}

    loader = URNDocumentLoader({"urn:example:ctx": CTX}, fallback=fallback)
    loader("URN:EXAMPLE:ctx", {})
    loader("https://example.org/other", {})
    assert calls == ["https://example.org/other"]


def test_it_is_a_pyld_document_loader():
    import pyld as pyld_package

    assert isinstance(URNDocumentLoader({}), pyld_package.DocumentLoader)


def test_each_load_is_a_fresh_copy():
    loader = URNDocumentLoader({"urn:example:ctx": CTX})
    first = loader("urn:example:ctx", {})["document"]
    first["@context"]["name"] = "mutated"
    assert loader("urn:example:ctx", {})["document"] == CTX


def test_directory_catalog(tmp_path):
    root = write_catalog(tmp_path / "cat", {"urn:example:a": "a.jsonld", "urn:example:b": "sub/b.json"},
                         {"a.jsonld": CTX, "sub/b.json": {"@context": {"b": "urn:example:b#"}}})
    loader = URNDocumentLoader(root)
    assert loader("URN:EXAMPLE:a", {})["document"] == CTX
    assert loader("urn:example:b", {})["document"]["@context"]["b"] == "urn:example:b#"
    assert sorted(loader) == ["urn:example:a", "urn:example:b"]
    # The catalog file itself may be given instead of its directory.
    assert "urn:example:a" in URNDocumentLoader(root / "catalog.json")


@pytest.mark.parametrize("target", ["../secret.jsonld", "sub/../../secret.jsonld"])
def test_catalog_paths_may_not_leave_the_directory(tmp_path, target):
    (tmp_path / "secret.jsonld").write_text("{}", encoding="utf-8")
    root = write_catalog(tmp_path / "cat", {"urn:example:a": target}, {})
    with pytest.raises(CatalogError) as e:
        URNDocumentLoader(root)
    assert str(e.value) == (
        f"{root / 'catalog.json'}: entry 'urn:example:a' refers to {target!r}, outside the "
        f"catalog directory {str(root.resolve())!r}; refused")


def test_absolute_paths_and_escaping_symlinks_are_refused(tmp_path):
    secret = tmp_path / "secret.jsonld"
    secret.write_text("{}", encoding="utf-8")
    root = write_catalog(tmp_path / "cat", {"urn:example:a": str(secret)}, {})
    with pytest.raises(CatalogError, match="outside the catalog directory"):
        URNDocumentLoader(root)
    root2 = write_catalog(tmp_path / "cat2", {"urn:example:a": "link.jsonld"}, {})
    os.symlink(secret, root2 / "link.jsonld")
    with pytest.raises(CatalogError, match="outside the catalog directory"):
        URNDocumentLoader(root2)


def test_document_size_is_capped(tmp_path):
    root = write_catalog(tmp_path / "cat", {"urn:example:big": "big.jsonld"},
                         {"big.jsonld": {"@context": {"x": "y" * 2000}}})
    loader = URNDocumentLoader(root, max_bytes=1000)
    size = (root / "big.jsonld").stat().st_size
    with pytest.raises(CatalogError) as e:
        loader("urn:example:big", {})
    assert str(e.value) == (f"document for 'urn:example:big' {str(root / 'big.jsonld')!r} is "
                            f"{size} bytes, over the 1000-byte limit")


@pytest.mark.parametrize(("catalog", "message"), [
    ({"urn:example:a": "a.jsonld", "URN:EXAMPLE:a": "b.jsonld"},
     "'urn:example:a' and 'URN:EXAMPLE:a' are URN-equivalent but name different documents"),
    ({"urn:example": "a.jsonld"}, "'urn:example' is not a valid URN"),
    ({"urn:example:a": 3}, "entry 'urn:example:a' must name a file, not 3"),
])
def test_malformed_catalogs(tmp_path, catalog, message):
    root = write_catalog(tmp_path / "cat", catalog, {"a.jsonld": CTX, "b.jsonld": CTX})
    with pytest.raises(CatalogError, match=message.replace("(", r"\(")):
        URNDocumentLoader(root)


def test_catalog_errors(tmp_path):
    with pytest.raises(CatalogError, match=r"no catalog: .* does not exist"):
        URNDocumentLoader(tmp_path)
    (tmp_path / "catalog.json").write_text("{nope", encoding="utf-8")
    with pytest.raises(CatalogError, match=r"is not JSON: .* \(line 1, column 2\)"):
        URNDocumentLoader(tmp_path)
    with pytest.raises(CatalogError, match="must be parsed JSON"):
        URNDocumentLoader({"urn:example:a": "a.jsonld"})
    assert issubclass(CatalogError, URNError) and issubclass(CatalogError, ValueError)


def test_pyld_caches_static_documents_per_spelling():
    # pyld 3.3 keeps a context across calls only when the loader tags it 'static', and keys the
    # cache by the URL as written: one load per spelling, none for a repeated spelling.
    calls = []
    inner = URNDocumentLoader({"urn:example:cache-test": CTX})

    def counting(url, options):
        calls.append(url)
        return inner(url, options)

    doc = {"@context": "urn:example:cache-test", "name": "x"}
    for _ in range(2):
        assert pyld.expand(doc, {"documentLoader": counting})
    pyld.expand({**doc, "@context": "URN:EXAMPLE:cache-test"}, {"documentLoader": counting})
    assert calls == ["urn:example:cache-test", "URN:EXAMPLE:cache-test"]


def test_urnld_expands_with_any_spelling_of_a_context_name():
    loader = URNDocumentLoader({"urn:example:ctx": CTX})
    out = [ujsonld.expand({"@context": c, "name": "A"}, loader=loader)
           for c in ("urn:example:ctx", "URN:EXAMPLE:ctx", "urn:eXample:ctx")]
    assert out[0] == out[1] == out[2] == [{"https://schema.org/name": [{"@value": "A"}]}]


def test_import_of_a_static_context_does_not_corrupt_later_runs():
    # pyld 3.3 merges an importing context into the cached imported one; urnld's per-call
    # resolver keeps each run independent, so B alone still means B afterwards.
    catalog = {
        "urn:example:import-a": {"@context": {"@version": 1.1, "@import": "urn:example:import-b",
                                              "a": "https://example.org/a"}},
        "urn:example:import-b": {"@context": {"b": "https://example.org/b"}},
    }
    loader = URNDocumentLoader(catalog)
    first = ujsonld.expand({"@context": "urn:example:import-a", "a": 1, "b": 2}, loader=loader)
    assert first == [{"https://example.org/a": [{"@value": 1}], "https://example.org/b": [{"@value": 2}]}]
    second = ujsonld.expand({"@context": "urn:example:import-b", "a": 1, "b": 2}, loader=loader)
    assert second == [{"https://example.org/b": [{"@value": 2}]}]


@pytest.mark.parametrize("refs", [
    ("urn:example:cycle-b", "urn:example:cycle-a"),
    ("URN:EXAMPLE:cycle-b", "urn:Example:cycle-a"),  # a new spelling at every step
])
def test_contexts_referencing_each_other_fail_without_hanging(refs):
    catalog = {"urn:example:cycle-a": {"@context": [refs[0], {"a": "https://example.org/a"}]},
               "urn:example:cycle-b": {"@context": [refs[1], {"b": "https://example.org/b"}]}}
    loader = URNDocumentLoader(catalog)
    with pytest.raises(ujsonld.JsonLdProcessingError) as e:
        ujsonld.expand({"@context": "urn:example:cycle-a", "a": 1}, loader=loader)
    assert e.value.code in ("recursive context inclusion", "context overflow")
    with pytest.raises(pyld.JsonLdError):
        pyld.expand({"@context": "urn:example:cycle-a", "a": 1}, {"documentLoader": loader})
    with rdflib_loader(loader), pytest.raises(Exception, match="recursive context inclusion"):
        Graph().parse(data=json.dumps({"@context": "urn:example:cycle-a", "a": 1}), format="json-ld")


def test_imports_in_a_cycle_fail():
    catalog = {"urn:example:imp-a": {"@context": {"@version": 1.1, "@import": "urn:example:imp-b"}},
               "urn:example:imp-b": {"@context": {"@version": 1.1, "@import": "urn:example:imp-a"}}}
    with pytest.raises(ujsonld.JsonLdProcessingError) as e:
        ujsonld.expand({"@context": "urn:example:imp-a", "a": 1},
                       loader=URNDocumentLoader(catalog))
    assert e.value.code == "invalid context entry"


DOC = json.dumps({"@context": "URN:EXAMPLE:person", "@id": "urn:example:ada", "name": "Ada"})


def test_rdflib_alone_cannot_load_a_urn_context():
    with pytest.raises(urllib.error.URLError, match="unknown url type: urn"):
        Graph().parse(data=DOC, format="json-ld")


def test_rdflib_loader_makes_rdflib_resolve_urn_contexts():
    loader = URNDocumentLoader({"urn:example:person": {"@context": {"@vocab": "https://schema.org/"}}})
    with rdflib_loader(loader):
        g = Graph().parse(data=DOC, format="json-ld")
    assert set(g) == {(URIRef("urn:example:ada"), URIRef("https://schema.org/name"), Literal("Ada"))}
    # Restored on exit.
    with pytest.raises(urllib.error.URLError):
        Graph().parse(data=DOC, format="json-ld")


def test_rdflib_loader_is_offline():
    with rdflib_loader(URNDocumentLoader({})), pytest.raises(CatalogError,
                                                             match="'URN:EXAMPLE:person' is not in"):
        Graph().parse(data=DOC, format="json-ld")
