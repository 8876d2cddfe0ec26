"""canonical_query: every URN constant rewritten, nothing else touched."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rdflib import Graph, Literal, URIRef
from rdflib.plugins.sparql import prepareQuery, prepareUpdate

from urnld import URNError
from urnld.cli import main
from urnld.rdf import canonical_query, canonicalize

if TYPE_CHECKING:
    from conftest import Store

# RFC 8141 §3.1 / App. B style spellings of one ISBN (RFC 3187) and a UUID (RFC 9562 §4).
ISBN = "URN:ISBN:0-395-36341-1"
ISBN_C = "urn:isbn:0395363411"
UUID = "URN:UUID:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6"
UUID_C = "urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6"


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        # IRIs in every position, and in VALUES
        (f"SELECT * WHERE {{ <{ISBN}> <{UUID}> ?o }}",
         f"SELECT * WHERE {{ <{ISBN_C}> <{UUID_C}> ?o }}"),
        (f"SELECT * {{ VALUES ?x {{ <{ISBN}> <http://e/A> }} GRAPH <{UUID}> {{ ?x ?p ?o }} }}",
         f"SELECT * {{ VALUES ?x {{ <{ISBN_C}> <http://e/A> }} GRAPH <{UUID_C}> {{ ?x ?p ?o }} }}"),
        # prefixed names: expanded, rewritten as full IRIs only when they change
        ("PREFIX isbn: <urn:isbn:>\nASK { isbn:0-395-36341-1 ?p isbn:0395363411 }",
         f"PREFIX isbn: <urn:isbn:>\nASK {{ <{ISBN_C}> ?p isbn:0395363411 }}"),
        ("prefix : <URN:UUID:> ASK { :F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6 ?p ?o }",
         f"prefix : <URN:UUID:> ASK {{ <{UUID_C}> ?p ?o }}"),
        # a local-name escape (SPARQL §4.1.1.1 PN_LOCAL_ESC) is decoded before the rule runs
        ("PREFIX u: <URN:EXAMPLE:> ASK { u:a\\~b ?p ?o }",
         "PREFIX u: <URN:EXAMPLE:> ASK { <urn:example:a~b> ?p ?o }"),
        # strings, comments, long strings: never touched without literals=True
        (f'SELECT * {{ ?s ?p "{ISBN}" }} # <{ISBN}>\n',
         f'SELECT * {{ ?s ?p "{ISBN}" }} # <{ISBN}>\n'),
        (f"SELECT * {{ ?s ?p '''a\n<{ISBN}>\n''' }}", f"SELECT * {{ ?s ?p '''a\n<{ISBN}>\n''' }}"),
        # '<' as an operator next to an IRI
        (f"SELECT * {{ ?s ?p ?o FILTER(?o<?p || ?s = <{ISBN}>) }}",
         f"SELECT * {{ ?s ?p ?o FILTER(?o<?p || ?s = <{ISBN_C}>) }}"),
        # invalid URNs (RFC 8141 §5.1 removed X- NIDs) and non-URN IRIs stay as written
        ("ASK { <urn:X-foo:Bar> <URN:ISBN> <HTTP://E/A> }",
         "ASK { <urn:X-foo:Bar> <URN:ISBN> <HTTP://E/A> }"),
        # an unknown prefix is not expanded; a blank node label with a colon-like shape neither
        ("ASK { nope:x _:b1 ?o }", "ASK { nope:x _:b1 ?o }"),
        # updates: several operations, each with its own prologue
        (f"INSERT DATA {{ <{ISBN}> <http://e/p> 1 }} ;\nPREFIX u: <urn:uuid:>\n"
         "DELETE WHERE { u:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6 ?p ?o }",
         f"INSERT DATA {{ <{ISBN_C}> <http://e/p> 1 }} ;\nPREFIX u: <urn:uuid:>\n"
         f"DELETE WHERE {{ <{UUID_C}> ?p ?o }}"),
        ("", ""),
    ],
)
def test_rewrites(query: str, expected: str) -> None:
    assert canonical_query(query) == expected


def test_literals_option() -> None:
    q = (f'SELECT * {{ ?s ?p "{ISBN}", "{ISBN}"@en, "{ISBN}"^^xsd:anyURI, '
         f'"{ISBN}"^^<http://e/dt>, """{ISBN}""", "{ISBN}\\n" }}')
    got = canonical_query("PREFIX xsd: <http://www.w3.org/2001/XMLSchema#>\n" + q,
                          literals=True)
    assert got.endswith(
        f'{{ ?s ?p "{ISBN_C}", "{ISBN}"@en, "{ISBN_C}"^^xsd:anyURI, '
        f'"{ISBN}"^^<http://e/dt>, """{ISBN_C}""", "{ISBN}\\n" }}'
    )


def test_ignore_components() -> None:
    q = "ASK { <URN:EXAMPLE:a?=x#frag> ?p ?o }"
    assert canonical_query(q) == "ASK { <urn:example:a?=x#frag> ?p ?o }"
    assert canonical_query(q, ignore_components=True) == "ASK { <urn:example:a> ?p ?o }"


def test_unterminated_string() -> None:
    with pytest.raises(URNError, match="unterminated string at position 17"):
        canonical_query('SELECT * { ?s ?p "abc }')


def test_rewritten_queries_still_parse() -> None:
    """rdflib's SPARQL parser accepts every rewritten query of the table above."""
    prepareQuery(canonical_query(
        "PREFIX isbn: <urn:isbn:>\nSELECT ?o WHERE { isbn:0-395-36341-1 ?p ?o . "
        f"FILTER(?o != <{UUID}>) }}"
    ))
    prepareUpdate(canonical_query(
        f"PREFIX u: <URN:UUID:> INSERT DATA {{ u:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6 <{ISBN}> 1 }}"
    ))


def test_query_finds_canonical_data_in_memory() -> None:
    g = Graph().parse(data=f"<{ISBN_C}> <http://e/title> 'The Hobbit' .", format="turtle")
    q = "PREFIX isbn: <URN:ISBN:> SELECT ?t { isbn:0-395-36341-1 <http://e/title> ?t }"
    assert list(g.query(q)) == []
    assert [str(r[0]) for r in g.query(canonical_query(q))] == ["The Hobbit"]  # type: ignore[index]


_urns = st.sampled_from([ISBN, UUID, "urn:ietf:rfc:2141", "URN:NBN:DE:101:1-201102033592",
                         "urn:X-foo:bar", "urn:example:a%2fb"])


@given(_urns, st.sampled_from(["<{}>", '"{}"', "# {}\n", "'''{}'''"]))
def test_positions_property(urn: str, template: str) -> None:
    q = "SELECT * { ?s ?p " + template.format(urn) + " }"
    out = canonical_query(q)
    if template == "<{}>":
        # the oracle: what the data pass makes of the same IRI (one rule for data and queries)
        g = Graph()
        g.add((URIRef("http://e/s"), URIRef("http://e/p"), URIRef(urn)))
        (expected_iri,) = canonicalize(g).graph.objects()
        assert out == "SELECT * { ?s ?p <" + str(expected_iri) + "> }"
    else:
        assert out == q  # strings and comments are never touched
    assert canonical_query(out) == out  # idempotent


@given(st.text(max_size=60))
def test_any_text(text: str) -> None:
    try:
        out = canonical_query(text)
    except URNError:
        return
    assert canonical_query(out) == out
    if "urn:" not in text.lower():
        assert out == text


def test_cli_query(store: Store, capsys: pytest.CaptureFixture[str]) -> None:
    store.load(Graph().parse(data=f'<{ISBN_C}> <http://e/title> "The Hobbit" .', format="nt"))
    q = "PREFIX isbn: <URN:ISBN:> SELECT ?t WHERE { isbn:0-395-36341-1 <http://e/title> ?t }"
    assert main(["query", "--endpoint", store.query_url, q]) == 0
    assert capsys.readouterr().out == "t\n----------\nThe Hobbit\n(1 row)\n"
    assert main(["query", "--endpoint", store.query_url, "--csv", q]) == 0
    assert capsys.readouterr().out == "t\nThe Hobbit\n"
    assert main(["query", "--endpoint", store.query_url, "--json", q]) == 0
    import json

    result = json.loads(capsys.readouterr().out)
    assert result["results"]["bindings"][0]["t"]["value"] == "The Hobbit"
    assert main(["query", "--endpoint", store.query_url, "--as-written", q]) == 0
    assert capsys.readouterr().out.endswith("(0 rows)\n")
    assert main(["query", "--endpoint", store.query_url, f"ASK {{ <{ISBN}> ?p ?o }}"]) == 0
    assert capsys.readouterr().out == "true\n"
    assert main(["query", "--endpoint", store.query_url,
                 f"CONSTRUCT {{ ?s ?p ?o }} WHERE {{ <{ISBN}> ?p ?o BIND(<{ISBN}> AS ?s) }}"]) == 0
    got = {(s, p, Literal(str(o)) if isinstance(o, Literal) else o)  # RDF 1.1: "v"^^xsd:string
           for s, p, o in Graph().parse(data=capsys.readouterr().out, format="nt")}
    assert got == {(URIRef(ISBN_C), URIRef("http://e/title"), Literal("The Hobbit"))}


def test_cli_query_errors(store: Store, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["query", "--endpoint", store.query_url, "SELEC * {}"]) == 2
    assert "not a SPARQL query" in capsys.readouterr().err
    assert main(["query", "--endpoint", store.query_url, "SELECT * { ?s ?p ?o"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("urnld query: error: ") and "HTTP 400" in err and "\n" not in err
