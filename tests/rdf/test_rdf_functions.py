"""The urnfn: SPARQL functions, called the way SHACL shapes call them: through graph.query."""

from __future__ import annotations

import string

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rdflib import BNode, Graph, Literal, URIRef
from rdflib.plugins.sparql.operators import _CUSTOM_FUNCTIONS

import urnld
from urnld._kernel import _urnfn
from urnld.rdf import URNFN, URNRef, _functions, register_functions

XSD_NS = "http://www.w3.org/2001/XMLSchema#"
XSD_STRING = URIRef(XSD_NS + "string")
XSD_ANYURI = URIRef(XSD_NS + "anyURI")
XSD_BOOLEAN = URIRef(XSD_NS + "boolean")

PREFIX = "PREFIX urnfn: <https://w3id.org/urnld/fn#>\n"
NAMES = ["isValid", "canonical", "equivalent", "nid", "nss", "findings"]


def _call(expr: str, graph: Graph | None = None, **bindings: object) -> object:
    """Value of ``expr`` in a one-row SELECT; None when the expression raised (unbound)."""
    g = graph if graph is not None else Graph()
    # ?one keeps the row visible: rdflib drops result rows whose projected variables are all
    # unbound, and an erroring BIND leaves ?r unbound.
    query = f"SELECT ?r ?one WHERE {{ BIND(1 AS ?one) BIND({expr} AS ?r) }}"
    rows = list(g.query(PREFIX + query, initBindings=bindings))
    assert len(rows) == 1
    return rows[0][0]


def _arg_forms(text: str) -> list[object]:
    """The argument kinds the issue names: IRI, plain, xsd:string, xsd:anyURI, lang-tagged."""
    return [
        URIRef(text),
        Literal(text),
        Literal(text, datatype=XSD_STRING),
        Literal(text, datatype=XSD_ANYURI),
        Literal(text, lang="en"),
    ]


def test_namespace() -> None:
    assert str(URNFN) == "https://w3id.org/urnld/fn#"
    assert URNFN.isValid == URIRef("https://w3id.org/urnld/fn#isValid")


def test_registered_on_import_and_idempotent() -> None:
    for name in NAMES:
        assert URNFN[name] in _CUSTOM_FUNCTIONS
    before = {name: _CUSTOM_FUNCTIONS[URNFN[name]] for name in NAMES}
    register_functions()
    register_functions()
    assert {name: _CUSTOM_FUNCTIONS[URNFN[name]] for name in NAMES} == before


def test_register_restores_after_someone_else_overrode() -> None:
    from rdflib.plugins.sparql.operators import register_custom_function

    register_custom_function(URNFN.nid, lambda x: Literal("hijacked"), override=True)
    try:
        assert str(_call('urnfn:nid("urn:isbn:0395363411")')) == "hijacked"
    finally:
        register_functions()
    assert str(_call('urnfn:nid("urn:isbn:0395363411")')) == "isbn"


# --- isValid -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "valid"),
    [
        ("urn:isbn:0395363411", True),
        ("URN:ISBN:0-395-36341-1", True),  # not canonical is still valid
        ("urn:example:a123,z456", True),
        ("urn:foo-bar:x", True),  # unregistered NID: a warning, not an error
        ("urn:isbn:0395363412", False),  # check digit
        ("urn:x-foo:bar", False),  # RFC 8141 App. C
        ("urn:example:a123?z456", False),  # syntax
        ("http://example.org/", False),
        ("", False),
    ],
)
def test_is_valid(text: str, valid: bool) -> None:
    for arg in _arg_forms(text) if text else [Literal("")]:
        result = _call("urnfn:isValid(?x)", x=arg)
        assert result == Literal(valid)
        assert isinstance(result, Literal)
        assert result.datatype == XSD_BOOLEAN


def test_is_valid_blank_node_is_false() -> None:
    assert _call("urnfn:isValid(?x)", x=BNode()) == Literal(False)


# --- canonical -----------------------------------------------------------------------------


def test_canonical_iri_in_iri_out() -> None:
    result = _call("urnfn:canonical(<URN:ISBN:0-395-36341-1>)")
    assert type(result) is URIRef
    assert result == URIRef("urn:isbn:0395363411")
    result = _call("urnfn:canonical(?x)", x=URNRef("urn:EXAMPLE:a%2cb"))
    assert result == URIRef("urn:example:a%2Cb")


@pytest.mark.parametrize(
    "arg",
    [
        Literal("URN:ISBN:0-395-36341-1"),
        Literal("URN:ISBN:0-395-36341-1", datatype=XSD_STRING),
        Literal("URN:ISBN:0-395-36341-1", datatype=XSD_ANYURI),
        Literal("URN:ISBN:0-395-36341-1", lang="en"),
    ],
    ids=["plain", "xsd:string", "xsd:anyURI", "lang"],
)
def test_canonical_literal_in_literal_out_same_datatype(arg: Literal) -> None:
    result = _call("urnfn:canonical(?x)", x=arg)
    assert isinstance(result, Literal)
    assert str(result) == "urn:isbn:0395363411"
    assert result.datatype == arg.datatype
    assert result.language == arg.language


def test_canonical_keeps_components_and_invalid_urns() -> None:
    assert _call('urnfn:canonical("URN:EXAMPLE:x?=Q%2a#F")') == Literal("urn:example:x?=Q%2A#F")
    # an invalid (but well-formed) URN still has a canonical spelling
    assert _call('urnfn:canonical("URN:ISBN:0-395-36341-2")') == Literal("urn:isbn:0395363412")


@pytest.mark.parametrize("fn", ["canonical", "nid", "nss"])
@pytest.mark.parametrize("arg", [URIRef("http://example.org/"), Literal("urn:isbn"), BNode("b0")])
def test_non_urn_is_an_error_so_unbound(fn: str, arg: object) -> None:
    assert _call(f"urnfn:{fn}(?x)", x=arg) is None
    # in a FILTER the error drops the row
    g = Graph()
    query = f"SELECT ?one WHERE {{ BIND(1 AS ?one) FILTER(urnfn:{fn}(?x) != 'none') }}"
    assert list(g.query(PREFIX + query, initBindings={"x": arg})) == []
    # (the same filter keeps the row for a URN: the test can fail)
    assert len(g.query(PREFIX + query, initBindings={"x": URIRef("urn:example:a")})) == 1


# --- nid / nss -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "nid", "nss"),
    [
        ("URN:ISBN:0-395-36341-1", "isbn", "0395363411"),
        ("urn:EXAMPLE:a123%2cz456?+r#f", "example", "a123%2Cz456"),
        (
            "URN:UUID:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6",
            "uuid",
            "f81d4fae-7dec-11d0-a765-00a0c91e6bf6",
        ),
    ],
)
def test_nid_and_nss_of_the_canonical_form(text: str, nid: str, nss: str) -> None:
    for arg in _arg_forms(text):
        assert _call("urnfn:nid(?x)", x=arg) == Literal(nid)
        assert _call("urnfn:nss(?x)", x=arg) == Literal(nss)


# --- equivalent ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ("urn:example:a123,z456", "URN:example:a123,z456", True),  # RFC 8141 §3.2
        ("urn:example:a123,z456", "urn:EXAMPLE:a123,z456", True),
        ("urn:example:a123,z456", "urn:example:a123,z456?+abc", True),  # components ignored
        ("urn:example:a123,z456", "urn:example:a123,z456?=xyz", True),
        ("urn:example:a123,z456", "urn:example:a123,z456#789", True),
        ("urn:example:a123,z456", "urn:example:a123,z456/foo", False),
        ("urn:example:a123,z456", "urn:example:a123%2Cz456", False),
        ("urn:example:a123,z456", "urn:example:A123,z456", False),
        ("urn:example:a123%2Cz456", "URN:EXAMPLE:a123%2cz456", True),
        ("URN:ISBN:0-395-36341-1", "urn:isbn:0395363411", True),  # namespace rule
        ("urn:example:a", "http://example.org/", False),  # non-URN: false, not an error
        ("urn:example:a", "urn:example", False),
    ],
)
def test_equivalent(a: str, b: str, expected: bool) -> None:
    for x, y in [
        (URIRef(a), URIRef(b)),
        (Literal(a), URIRef(b)),
        (URIRef(a), Literal(b, lang="de")),
    ]:
        assert _call("urnfn:equivalent(?a, ?b)", a=x, b=y) == Literal(expected)
        assert _call("urnfn:equivalent(?b, ?a)", a=x, b=y) == Literal(expected)


def test_equivalent_with_blank_node_is_false() -> None:
    assert _call("urnfn:equivalent(?a, ?a)", a=BNode()) == Literal(False)


# --- findings ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "codes"),
    [
        ("urn:isbn:0395363411", ""),
        ("URN:ISBN:0-395-36341-1", "not-canonical"),
        ("URN:ISBN:0-395-36341-2", "nss-check-digit not-canonical"),
        ("urn:x-foo:bar", "nid-experimental"),
        ("urn:example:a?+r", "r-component"),
        ("http://example.org/", "syntax"),
        ("urn:example:", "syntax"),
    ],
)
def test_findings(text: str, codes: str) -> None:
    for arg in _arg_forms(text):
        result = _call("urnfn:findings(?x)", x=arg)
        assert result == Literal(codes)


def test_findings_of_blank_node_is_syntax() -> None:
    assert _call("urnfn:findings(?x)", x=BNode()) == Literal("syntax")


def test_findings_usable_in_filters_over_data() -> None:
    g = Graph(store="URN")
    g.parse(
        format="turtle",
        data="""<urn:isbn:0395363411> <urn:example:p> 1 .
                <urn:isbn:0395363412> <urn:example:p> 2 .
                <urn:x-foo:bar> <urn:example:p> 3 .""",
    )
    q = PREFIX + (
        "SELECT ?s WHERE { ?s ?p ?o "
        'FILTER(CONTAINS(CONCAT(" ", urnfn:findings(?s), " "), " nss-check-digit ")) }'
    )
    assert [str(r[0]) for r in g.query(q)] == ["urn:isbn:0395363412"]
    q = PREFIX + "SELECT ?s WHERE { ?s ?p ?o FILTER(!urnfn:isValid(?s)) } ORDER BY ?s"
    assert [str(r[0]) for r in g.query(q)] == ["urn:isbn:0395363412", "urn:x-foo:bar"]


# --- arity and caching ----------------------------------------------------------------------


def test_wrong_arity_is_an_error_not_a_crash() -> None:
    assert _call('urnfn:nid("urn:a:b", "x")') is None
    assert _call('urnfn:equivalent("urn:example:a")') is None


def test_results_are_cached_per_lexical_form() -> None:
    _urnfn._info_under.cache_clear()
    for _ in range(5):
        _call('urnfn:isValid("urn:example:cached")')
        _call("urnfn:nid(<urn:example:cached>)")
    info = _urnfn._info_under.cache_info()
    assert info.misses == 1
    assert info.hits == 9


# --- properties: the functions agree with the core ------------------------------------------

_NSS = st.text(alphabet=string.ascii_letters + string.digits + "-.%,:=@", min_size=1, max_size=10)
_TEXT = st.one_of(
    st.builds(
        lambda u, nid, nss: f"{u}:{nid}:{nss}",
        st.sampled_from(["urn", "URN"]),
        st.sampled_from(["example", "EXAMPLE", "isbn", "uuid", "x-y", "a"]),
        _NSS,
    ),
    st.text(max_size=15),
)


@given(_TEXT)
def test_property_functions_agree_with_core(text: str) -> None:
    arg = Literal(text)
    findings = urnld.check(text)
    codes = list(dict.fromkeys(f.code for f in findings))
    assert _functions.findings(arg) == Literal(" ".join(codes))
    assert _functions.is_valid(arg) == Literal(
        not any(f.severity == urnld.Severity.ERROR for f in findings)
    )
    if urnld.is_valid(text):
        canon = urnld.canonical(text)
        assert _functions.canonical(arg) == Literal(canon)
        assert _functions.equivalent(arg, Literal(canon)) == Literal(True)
        assert str(_functions.nid(arg)) == canon.split(":")[1]
    else:
        assert codes[:1] == ["syntax"]
