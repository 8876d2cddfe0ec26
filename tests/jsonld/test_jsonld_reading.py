"""JSON-LD read as RDF: a base for every read, @direction as JSON-LD 1.1 says, and every path
(in memory, Graph(store="URN").parse, streaming) giving the same statements."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest
from rdflib import Dataset, Literal, URIRef

from urnld.errors import URNContextWarning
from urnld.files import ReadingOptions
from urnld.read import read
from urnld.stream import canonicalize_file

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning:rdflib")

PART = {"@context": {"@vocab": "https://schema.org/"}, "@id": "part-1", "name": "Part 1",
        "isPartOf": {"@id": "../assembly"}}


def triples(g):
    return set(g.triples((None, None, None)))


def _write(tmp_path: Path, doc: object) -> Path:
    path = tmp_path / "parts" / "part.jsonld"
    path.parent.mkdir()
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def test_relative_ids_resolve_against_the_files_location_and_are_counted(tmp_path):
    path = _write(tmp_path, PART)
    with pytest.warns(URNContextWarning) as caught:
        g = read(path)
    here = path.resolve().as_uri()
    part = URIRef(here.rsplit("/", 1)[0] + "/part-1")
    assert triples(g) == {
        (part, URIRef("https://schema.org/name"), Literal("Part 1")),
        (part, URIRef("https://schema.org/isPartOf"), URIRef(here.rsplit("/", 2)[0] + "/assembly")),
    }
    assert [str(w.message) for w in caught] == [
        f"{path}: 3 IRIs resolved against the file's location <{here}> (relative references "
        "with no @base): give --base (base=) for the IRIs the document is published under"]


def test_a_given_base_or_at_base_is_used_and_nothing_is_said(tmp_path):
    path = _write(tmp_path, PART)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        g = read(path, base="https://example.com/parts/part.jsonld")
    assert {str(s) for s in g.subjects()} == {"https://example.com/parts/part-1"}
    doc = {**PART, "@context": {**PART["@context"], "@base": "https://example.com/p/"}}
    (tmp_path / "at").mkdir()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        g = read(_write(tmp_path / "at", doc))
    assert {str(s) for s in g.subjects()} == {"https://example.com/p/part-1"}


def test_streaming_gives_the_readers_statements_and_count(tmp_path):
    path = _write(tmp_path, PART)
    out = tmp_path / "out.nq"
    with pytest.warns(URNContextWarning, match="3 IRIs resolved against the file's location"):
        canonicalize_file(path, out, input_format="json-ld", output_format="nquads", jobs=1)
    with pytest.warns(URNContextWarning):
        g = read(path)
    streamed = Dataset().parse(data=out.read_text(encoding="utf-8"), format="nquads")
    assert triples(streamed) == triples(g)


DIRECTION = {"@context": {"@vocab": "https://schema.org/"}, "@id": "https://e.org/b",
             "name": {"@value": "The Queen", "@language": "en", "@direction": "ltr"}}


def test_direction_is_dropped_by_default_on_every_path(tmp_path):
    # JSON-LD 1.1 toRdf, rdfDirection null: "The Queen"@en (W3C toRdf di02-di06); pyoxigraph
    # 0.5 makes an RDF 1.2 directional literal that rdflib cannot hold.
    expected = {(URIRef("https://e.org/b"), URIRef("https://schema.org/name"),
                 Literal("The Queen", lang="en"))}
    assert triples(read(data=json.dumps(DIRECTION), format="json-ld")) == expected
    path = tmp_path / "d.jsonld"
    path.write_text(json.dumps(DIRECTION), encoding="utf-8")
    out = tmp_path / "d.nq"
    canonicalize_file(path, out, input_format="json-ld", output_format="nquads", jobs=1)
    assert out.read_text(encoding="utf-8") == (
        '<https://e.org/b> <https://schema.org/name> "The Queen"@en .\n')
    import urnld.rdf  # noqa: F401  # the URN store

    store = Dataset(store="URN")
    store.parse(data=json.dumps(DIRECTION), format="json-ld")
    assert triples(store) == expected


def test_rdf_direction_options():
    i18n = read(data=json.dumps(DIRECTION), format="json-ld",
                reading=ReadingOptions(rdf_direction="i18n-datatype"))
    assert set(i18n.objects()) == {
        Literal("The Queen", datatype=URIRef("https://www.w3.org/ns/i18n#en_ltr"))}
    compound = read(data=json.dumps(DIRECTION), format="json-ld",
                    reading=ReadingOptions(rdf_direction="compound-literal"))
    rdf = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
    assert {(str(p), str(o)) for s, p, o in triples(compound) if not isinstance(o, URIRef)
            or str(p) != "https://schema.org/name"} >= {
        (f"{rdf}value", "The Queen"), (f"{rdf}language", "en"), (f"{rdf}direction", "ltr")}
    with pytest.raises(ValueError, match="rdf_direction must be one of"):
        read(data="{}", format="json-ld", reading=ReadingOptions(rdf_direction="ltr"))  # type: ignore[arg-type]
