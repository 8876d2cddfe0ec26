"""One table of urnfn: calls and URN queries, run on rdflib (urnld.rdf) and pyoxigraph
(urnld.oxigraph): both engines must give the table's answer.

The URN pairs come from RFC 8141 §3.2 (its equivalence examples) and §2.3.1 (components); the
ISBN from RFC 3187 §3 (``URN:ISBN:0-395-36341-1``, The Hobbit); the UUID from RFC 9562 §4
(formerly RFC 4122 §3); the RFC locator from urnld's resolver table for ``urn:ietf:rfc``.
"""

from __future__ import annotations

import string
import subprocess
import sys
from typing import Any

import pyoxigraph as ox
import pytest
import rdflib
from hypothesis import given
from hypothesis import strategies as st

import urnld
import urnld.oxigraph as uox
from urnld._kernel import URNFN_FUNCTIONS as TABLE
from urnld.rdf import canonical_query, register_functions

XSD = "http://www.w3.org/2001/XMLSchema#"
LANG_STRING = "http://www.w3.org/1999/02/22-rdf-syntax-ns#langString"
PREFIX = "PREFIX urnfn: <https://w3id.org/urnld/fn#>\nPREFIX xsd: <http://www.w3.org/2001/XMLSchema#>\n"

# A term written down engine-neutrally: ("iri", text) or ("literal", text, language, datatype).
Term = tuple[str, ...] | None


def iri(text: str) -> Term:
    return ("iri", text)


def lit(text: str, *, lang: str | None = None, datatype: str = XSD + "string") -> Term:
    return ("literal", text, lang or "", LANG_STRING if lang else datatype)


TRUE = lit("true", datatype=XSD + "boolean")
FALSE = lit("false", datatype=XSD + "boolean")


def _findings(text: str) -> Term:
    """``urnfn:findings`` as the core says it: urnld.check's codes, in order, each once."""
    codes = dict.fromkeys(f.code for f in urnld.check(text))
    return lit(" ".join(codes))


# (expression, expected value; None: unbound, SPARQL's expression error)
CALLS: list[tuple[str, Term]] = [
    # canonical: RFC 8141 §3.1 case normalization; an IRI stays an IRI, a literal keeps its kind
    ("urnfn:canonical(<URN:EXAMPLE:a123%2cz456>)", iri("urn:example:a123%2Cz456")),
    ('urnfn:canonical("URN:ISBN:0-395-36341-1")', lit("urn:isbn:0395363411")),
    ('urnfn:canonical("URN:ISBN:0-395-36341-1"@en)', lit("urn:isbn:0395363411", lang="en")),
    ('urnfn:canonical("URN:ISBN:0-395-36341-1"^^xsd:anyURI)',
     lit("urn:isbn:0395363411", datatype=XSD + "anyURI")),
    ('urnfn:canonical("URN:UUID:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6")',
     lit("urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6")),
    ("urnfn:canonical(<urn:example:a123,z456?+abc#x>)", iri("urn:example:a123,z456?+abc#x")),
    ('urnfn:canonical("no urn")', None),
    ('urnfn:canonical("urn:isbn")', None),
    ("urnfn:canonical(BNODE())", None),
    # equivalent: RFC 8141 §3.2's examples
    ("urnfn:equivalent(<urn:example:a123,z456>, <URN:example:a123,z456>)", TRUE),
    ("urnfn:equivalent(<urn:example:a123,z456>, <urn:EXAMPLE:a123,z456>)", TRUE),
    ("urnfn:equivalent(<urn:example:a123,z456>, <urn:example:a123,z456?+abc>)", TRUE),
    ("urnfn:equivalent(<urn:example:a123,z456>, <urn:example:a123,z456?=xyz>)", TRUE),
    ("urnfn:equivalent(<urn:example:a123,z456>, <urn:example:a123,z456#789>)", TRUE),
    ("urnfn:equivalent(<urn:example:a123%2Cz456>, <URN:EXAMPLE:a123%2cz456>)", TRUE),
    ("urnfn:equivalent(<urn:example:a123,z456>, <urn:example:A123,z456>)", FALSE),
    ("urnfn:equivalent(<urn:example:a123,z456>, <urn:example:a123%2Cz456>)", FALSE),
    ("urnfn:equivalent(<urn:example:a123,z456>, <urn:example:a123,z456/foo>)", FALSE),
    ('urnfn:equivalent("URN:ISBN:0-395-36341-1", <urn:isbn:0395363411>)', TRUE),
    ('urnfn:equivalent("hello", <urn:isbn:0395363411>)', FALSE),
    ("urnfn:equivalent(BNODE(), <urn:isbn:0395363411>)", FALSE),
    # isValid: no error finding (a wrong ISBN check digit and an X- NID are errors)
    ("urnfn:isValid(<urn:isbn:0395363411>)", TRUE),
    ('urnfn:isValid("URN:ISBN:0-395-36341-1")', TRUE),
    ("urnfn:isValid(<urn:isbn:0395363412>)", FALSE),
    ('urnfn:isValid("urn:X-foo:bar")', FALSE),
    ('urnfn:isValid("hello")', FALSE),
    ("urnfn:isValid(BNODE())", FALSE),
    # nid / nss of the canonical form
    ("urnfn:nid(<URN:EXAMPLE:x>)", lit("example")),
    ('urnfn:nid("URN:ISBN:0-395-36341-1"@de)', lit("isbn")),
    ("urnfn:nss(<URN:ISBN:0-395-36341-1>)", lit("0395363411")),
    ("urnfn:nss(<urn:example:a123%2cz456>)", lit("a123%2Cz456")),
    ('urnfn:nid("urn:isbn")', None),
    ("urnfn:nss(BNODE())", None),
    # findings: the codes of urnld.check
    ("urnfn:findings(<urn:isbn:0395363412>)", _findings("urn:isbn:0395363412")),
    ('urnfn:findings("URN:ISBN:0-395-36341-2")', _findings("URN:ISBN:0-395-36341-2")),
    ('urnfn:findings("urn:X-foo:bar")', _findings("urn:X-foo:bar")),
    ("urnfn:findings(<urn:isbn:0395363411>)", lit("")),
    ('urnfn:findings("hello")', lit("syntax")),
    ("urnfn:findings(BNODE())", lit("syntax")),
    # resolve: a locator, built and never fetched
    ("urnfn:resolve(<URN:IETF:RFC:2141>)", iri("https://www.rfc-editor.org/rfc/rfc2141")),
    ('urnfn:resolve(<urn:example:a?=x=1>, "https://r.example/{nss}")',
     iri("https://r.example/a?x=1")),
    ("urnfn:resolve(<urn:example:a>, <https://r.example/a>)", None),  # a template is a literal
    ('urnfn:resolve("hello")', None),
    ("urnfn:resolve(<URN:ISBN:0-395-36341-1>)", iri("https://openlibrary.org/isbn/0395363411")),
    # no locator for a name its namespace refuses: a wrong ISBN check digit, an X- NID
    ("urnfn:resolve(<URN:ISBN:0-395-36341-2>)", None),
    ('urnfn:resolve(<urn:X-foo:a>, "https://r.example/{nss}")', None),
    # a wrong number of arguments is an expression error, as for SPARQL's own functions
    ('urnfn:nid("urn:a:b", "x")', None),
    ('urnfn:equivalent("urn:example:a")', None),
    ('urnfn:resolve(<urn:ietf:rfc:2141>, "a", "b")', None),
    # the functions compose with SPARQL's
    ('STR(urnfn:canonical(IRI(CONCAT("URN:ISBN:", "0-395-36341-1"))))',
     lit("urn:isbn:0395363411")),
    ('IF(urnfn:isValid("urn:isbn:0395363412"), "ok", "bad")', lit("bad")),
]


def _rdflib_term(t: Any) -> Term:
    if t is None:
        return None
    if isinstance(t, rdflib.URIRef):
        return iri(str(t))
    assert isinstance(t, rdflib.Literal), t
    datatype = str(t.datatype) if t.datatype else XSD + "string"
    return lit(str(t), lang=t.language, datatype=datatype)


def _ox_term(t: Any) -> Term:
    if t is None:
        return None
    if isinstance(t, ox.NamedNode):
        return iri(t.value)
    assert isinstance(t, ox.Literal), t
    return lit(t.value, lang=t.language, datatype=t.datatype.value)


def _rdflib_call(expr: str) -> Term:
    register_functions()
    # ?one keeps the row: rdflib drops rows whose projected variables are all unbound.
    q = PREFIX + f"SELECT ?r ?one WHERE {{ BIND(1 AS ?one) BIND({expr} AS ?r) }}"
    rows = list(rdflib.Graph().query(q))
    assert len(rows) == 1
    return _rdflib_term(rows[0][0])  # type: ignore[index]


def _ox_call(expr: str) -> Term:
    q = PREFIX + f"SELECT ?r ?one WHERE {{ BIND(1 AS ?one) BIND({expr} AS ?r) }}"
    rows = list(ox.Store().query(q, custom_functions=dict(uox.FUNCTIONS)))
    assert len(rows) == 1
    return _ox_term(rows[0]["r"])


ENGINES = {"rdflib": _rdflib_call, "pyoxigraph": _ox_call}


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(("expr", "expected"), CALLS, ids=[c[0] for c in CALLS])
def test_call(engine: str, expr: str, expected: Term) -> None:
    assert ENGINES[engine](expr) == expected


def test_the_table_calls_every_function() -> None:
    names = {str(iri.value).removeprefix(uox.NAMESPACE) for iri in uox.FUNCTIONS}
    assert names == set(TABLE)
    assert {n for n in names if any(f"urnfn:{n}(" in e for e, _ in CALLS)} == names


# --- queries over data: the same rows from both engines ---------------------------------------

DATA = """
@prefix dct: <http://purl.org/dc/terms/> .
<urn:isbn:0395363411> dct:title "The Hobbit" ; dct:identifier "urn:isbn:0395363411" .
<urn:isbn:0395363412> dct:title "Wrong check digit" .
<urn:X-foo:bar> dct:title "Experimental NID" .
<urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6> dct:title "A dataset" ;
    dct:isPartOf <urn:example:a123,z456#part> ; dct:hasPart <urn:example:a123,z456> .
<http://example.org/page> dct:title "A page" ; dct:references <urn:isbn:0395363411> .
"""

# (query as a user writes it, with any URN spelling; options of the query helper)
QUERIES: list[tuple[str, dict[str, bool]]] = [
    ("SELECT ?t WHERE { <URN:ISBN:0-395-36341-1> dct:title ?t }", {}),
    ("SELECT ?t WHERE { ?s dct:title ?t FILTER(?s IN (<Urn:Isbn:0-395-363411>)) }", {}),
    ("PREFIX isbn: <urn:isbn:> SELECT ?t WHERE { isbn:0-395-36341-1 dct:title ?t }", {}),
    ("SELECT ?t WHERE { <URN:UUID:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6> dct:title ?t }", {}),
    ("SELECT ?s WHERE { ?s dct:isPartOf <URN:EXAMPLE:a123,z456#part> }", {}),
    ("SELECT ?s WHERE { ?s dct:hasPart <URN:EXAMPLE:a123,z456?+r#x> }",
     {"ignore_components": True}),
    ('SELECT ?s WHERE { ?s dct:identifier "urn:isbn:0-395-36341-1" }', {}),
    ('SELECT ?s WHERE { ?s dct:identifier "URN:ISBN:0-395-36341-1" }', {"literals": True}),
    ("SELECT ?s WHERE { ?s dct:title ?t FILTER(!urnfn:isValid(?s)) } ORDER BY ?s", {}),
    ("SELECT ?s ?n WHERE { ?s dct:title ?t BIND(urnfn:nid(?s) AS ?n) } ORDER BY ?s", {}),
    ("SELECT ?s WHERE { ?s ?p ?o FILTER(urnfn:equivalent(?o, <URN:ISBN:0-395-36341-1>)) }"
     " ORDER BY ?s", {}),
    ("SELECT ?c WHERE { ?s dct:identifier ?i BIND(urnfn:canonical(?i) AS ?c) }", {}),
    ("ASK { <URN:ISBN:0-395-36341-1> dct:title \"The Hobbit\" }", {}),
    ("ASK { <urn:isbn:0395363413> dct:title ?t }", {}),
    ("SELECT ?t WHERE { ?s dct:title ?t } ORDER BY ?t # <URN:ISBN:0-395-36341-1> stays",
     {}),
]
HEAD = PREFIX + "PREFIX dct: <http://purl.org/dc/terms/>\n"


def _rows_rdflib(sparql: str, options: dict[str, bool]) -> Any:
    register_functions()
    graph = rdflib.Graph().parse(data=DATA, format="turtle")
    result = graph.query(canonical_query(HEAD + sparql, **options))
    if result.type == "ASK":
        return bool(result.askAnswer)
    return [tuple(_rdflib_term(t) for t in row) for row in result]  # type: ignore[union-attr]


def _rows_ox(sparql: str, options: dict[str, bool]) -> Any:
    store = ox.Store()
    store.load(DATA, format=ox.RdfFormat.TURTLE)
    result = uox.query(store, HEAD + sparql, **options)
    if isinstance(result, ox.QueryBoolean):
        return bool(result)
    names = [v.value for v in result.variables]
    return [tuple(_ox_term(row[n]) for n in names) for row in result]


@pytest.mark.parametrize(("sparql", "options"), QUERIES, ids=[q for q, _ in QUERIES])
def test_query_same_rows_on_both_engines(sparql: str, options: dict[str, bool]) -> None:
    rdflib_rows = _rows_rdflib(sparql, options)
    ox_rows = _rows_ox(sparql, options)
    assert rdflib_rows == ox_rows


def test_query_answers() -> None:
    # a few of the rows spelled out, so that "both engines agree" cannot mean "both are wrong"
    answers = {q: _rows_ox(q, o) for q, o in QUERIES}
    hobbit = [(lit("The Hobbit"),)]
    assert answers[QUERIES[0][0]] == answers[QUERIES[1][0]] == answers[QUERIES[2][0]] == hobbit
    assert answers[QUERIES[3][0]] == [(lit("A dataset"),)]
    uuid = [(iri("urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6"),)]
    assert answers[QUERIES[4][0]] == answers[QUERIES[5][0]] == uuid
    # a literal is rewritten only when asked (literals=True)
    assert answers[QUERIES[6][0]] == []
    assert answers[QUERIES[7][0]] == [(iri("urn:isbn:0395363411"),)]
    assert answers[QUERIES[8][0]] == [(iri("http://example.org/page"),), (iri("urn:X-foo:bar"),),
                                      (iri("urn:isbn:0395363412"),)]
    assert answers[QUERIES[10][0]] == [(iri("http://example.org/page"),),
                                       (iri("urn:isbn:0395363411"),)]
    assert answers[QUERIES[12][0]] is True
    assert answers[QUERIES[13][0]] is False
    assert len(answers[QUERIES[14][0]]) == 5
    # without the rewriting, a non-canonical spelling finds nothing in a canonical store
    store = ox.Store()
    store.load(DATA, format=ox.RdfFormat.TURTLE)
    assert list(store.query(HEAD + QUERIES[0][0], custom_functions=dict(uox.FUNCTIONS))) == []


def test_default_prefixes_are_expanded_for_the_rewriting() -> None:
    store = ox.Store()
    store.load(DATA, format=ox.RdfFormat.TURTLE)
    rows = uox.query(store, "SELECT ?t WHERE { isbn:0-395-36341-1 dct:title ?t }",
                     prefixes={"isbn": "urn:isbn:", "dct": "http://purl.org/dc/terms/"})
    assert [r["t"].value for r in rows] == ["The Hobbit"]


def test_update_writes_canonical_urns() -> None:
    store = ox.Store()
    uox.update(store, 'INSERT DATA { <URN:ISBN:0-395-36341-1> <http://purl.org/dc/terms/title>'
                      ' "The Hobbit" ; <http://purl.org/dc/terms/identifier> "URN:ISBN:x" }')
    assert {(q.subject.value, q.object.value) for q in store} == {
        ("urn:isbn:0395363411", "The Hobbit"), ("urn:isbn:0395363411", "URN:ISBN:x")
    }  # literals pass through as written
    uox.update(store, "DELETE WHERE { <urn:ISBN:0395363411> ?p ?o }")
    assert len(store) == 0


def test_callers_functions_come_on_top() -> None:
    mine = {ox.NamedNode("https://w3id.org/urnld/fn#nid"): lambda x: ox.Literal("mine")}
    rows = uox.query(ox.Store(), PREFIX + 'SELECT ?n WHERE { BIND(urnfn:nid("urn:a:b") AS ?n) }',
                     custom_functions=mine)
    assert [r["n"].value for r in rows] == ["mine"]


def test_bad_input_is_a_urnld_error() -> None:
    with pytest.raises(urnld.URNError, match="unterminated string"):
        uox.query(ox.Store(), 'SELECT * WHERE { ?s ?p "open }')
    with pytest.raises(TypeError, match="must be a str"):
        uox.query(ox.Store(), b"ASK {}")  # type: ignore[arg-type]


def test_the_module_does_not_load_rdflib() -> None:
    code = ("import sys, urnld.oxigraph as o, pyoxigraph as ox\n"
            "bool(o.query(ox.Store(), 'ASK { <URN:ISBN:0-395-36341-1> ?p ?o }'))\n"
            "print(sorted(m for m in ('rdflib', 'pyshacl') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


# --- property: the engines agree on any string ------------------------------------------------

_TEXT = st.one_of(
    st.builds(lambda u, nid, nss: f"{u}:{nid}:{nss}", st.sampled_from(["urn", "URN", "Urn"]),
              st.sampled_from(["example", "EXAMPLE", "isbn", "ISBN", "uuid", "x-y", "a", "urn"]),
              st.text(alphabet=string.ascii_letters + string.digits + "-.%,:=@?#+/",
                       min_size=0, max_size=12)),
    st.text(alphabet=string.printable, max_size=15),
)


def _sparql_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace(
        "\r", "\\r") + '"'


@given(a=_TEXT, b=_TEXT)
def test_property_engines_agree(a: str, b: str) -> None:
    sa, sb = _sparql_string(a), _sparql_string(b)
    for expr in (f"urnfn:isValid({sa})", f"urnfn:canonical({sa})", f"urnfn:nid({sa})",
                 f"urnfn:nss({sa})", f"urnfn:findings({sa})", f"urnfn:equivalent({sa}, {sb})",
                 f"urnfn:resolve({sa})"):
        assert _rdflib_call(expr) == _ox_call(expr), expr
