"""docs/bases.md: its table is what the tools do, measured here again (its examples run in
tests/docs/)."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pyoxigraph as ox
import pytest
import rdflib
from pyld import jsonld as pyld

from urnld.jsonld import URNBaseError
from urnld.read import read

DOC = Path(__file__).resolve().parents[2] / "docs" / "bases.md"
TEXT = DOC.read_text(encoding="utf-8")
BASE = "urn:example:a:b"

TTL = '@base <%s> . <%s> <http://example.org/p> "v" .'
XML = ('<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xml:base="%s">'
       '<rdf:Description rdf:about="%s"><p xmlns="http://example.org/">v</p>'
       '</rdf:Description></rdf:RDF>')
JSONLD = '{"@context": {"@base": "%s"}, "@id": "%s", "http://example.org/p": "v"}'
SPARQL = "BASE <%s> SELECT ?s WHERE { BIND(<%s> AS ?s) }"


def table() -> dict[str, dict[str, str]]:
    rows = [line for line in TEXT.splitlines() if line.startswith("| `") and "urn:" in line]
    header = next(line for line in TEXT.splitlines() if line.startswith("| reference |"))
    names = [c.strip() for c in header.strip("|").split("|")]
    out = {}
    for row in rows:
        cells = [c.strip().strip("`") for c in row.strip("|").split("|")]
        if len(cells) != len(names):
            continue  # another table (the cost table) that mentions a URN
        ref = cells[0].split(" ")[0].strip("`")
        out[ref] = dict(zip(names, cells, strict=True))
    return out


TABLE = table()


def _first_subject(graph: rdflib.Graph) -> str:
    return str(next(iter(graph))[0])


def rdflib_result(fmt: str, ref: str) -> str:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            if fmt == "sparql":
                return str(next(iter(rdflib.Graph().query(SPARQL % (BASE, ref))))[0])
            doc = {"turtle": TTL, "xml": XML, "json-ld": JSONLD}[fmt] % (BASE, ref)
            return _first_subject(rdflib.Graph().parse(data=doc, format=fmt))
        except Exception:  # rdflib refuses: what the table calls "error"
            return "error"


def oxigraph_results(ref: str) -> set[str]:
    out = {next(iter(ox.parse(TTL % (BASE, ref), format=ox.RdfFormat.TURTLE))).subject.value,
           next(iter(ox.parse(XML % (BASE, ref), format=ox.RdfFormat.RDF_XML))).subject.value,
           next(iter(ox.parse(JSONLD % (BASE, ref), format=ox.RdfFormat.JSON_LD))).subject.value}
    solution = next(iter(ox.Store().query(SPARQL % (BASE, ref))))
    out.add(solution[0].value)
    return out


def test_table_covers_every_kind_of_reference():
    assert set(TABLE) == {"", "#sec1", "?=q", "c", "../d", "/c", "//h/c"}


@pytest.mark.parametrize("ref", sorted(TABLE))
def test_table_rows_are_what_the_tools_do(ref):
    row = TABLE[ref]
    assert rdflib_result("turtle", ref) == row["rdflib Turtle/TriG/N3"]
    assert rdflib_result("xml", ref) == row["rdflib RDF/XML"]
    assert rdflib_result("json-ld", ref) == row["rdflib JSON-LD"]
    assert rdflib_result("sparql", ref) == row["rdflib SPARQL"]
    assert pyld.expand(json.loads(JSONLD % (BASE, ref)))[0]["@id"] == row["pyld"]
    assert oxigraph_results(ref) == {row["RFC 3986 §5.2, Oxigraph"]}
    for fmt, doc in (("turtle", TTL), ("trig", TTL), ("n3", TTL), ("xml", XML),
                     ("json-ld", JSONLD)):
        data = doc % (BASE, ref)
        if row["urnld"] == "urn-base":
            with pytest.raises(URNBaseError):
                read(data=data, format=fmt)
        else:
            g = read(data=data, format=fmt)
            if fmt in ("trig", "json-ld"):  # read into a Dataset
                subjects = {str(q[0]) for q in g.quads()}
            else:
                subjects = {str(s) for s in g.subjects()}
            assert subjects == {row["urnld"]}
