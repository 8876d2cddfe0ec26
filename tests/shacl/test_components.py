"""Each urnsh: component on conforming and non-conforming values, with every evaluator.

Every test runs three times: ``evaluator="plan"`` (the compiled plan: pairs from a store, each
distinct value judged once), ``"pyshacl"`` (urnld's evaluation inside pyshacl) and ``"sparql"``
(the normative SPARQL of urn.ttl, executed by pyshacl and rdflib with the urnfn: functions), so
each expectation below is also a statement about what the SPARQL definitions mean.
"""

from __future__ import annotations

import pyshacl
import pytest
from rdflib import BNode, Graph, Literal, URIRef
from shacl_helpers import ENGINES, EX, PREFIXES, blank, run_component

from urnld.rdf import register_functions
from urnld.shacl import Report, ShapesError, shapes_path, validate

# (not rdflib's XSD namespace object: pytest's collection pokes module globals, and it warns)
ANY_URI = URIRef("http://www.w3.org/2001/XMLSchema#anyURI")


def lit(text: str, **kw: object) -> Literal:
    return Literal(text, **kw)  # type: ignore[arg-type]


# Values that are not URNs at all: a component constrains URNs, so every component in force
# reports each of them. "urn:isbn" has no NSS (RFC 8141 §2: NSS is 1*pchar); in "urn:ab:c?x" the
# "?" starts no r- or q-component; a trailing space is no URN character; a blank node has no
# lexical form. The first three look like URNs (they start with "urn:"): urnsh:onlyURNs keeps
# judging them; it lets the others pass.
LOOK_LIKE_URNS = [lit("urn:isbn"), lit("URN:ab:c?x", lang="en"), lit("urn:isbn:0395363411 ")]
OTHER_VALUES = [lit("junk"), URIRef("http://example.org/x?y#z"), lit(""), lit(" urn:isbn:0395363411"),
                lit("urn", datatype=ANY_URI)]
NOT_URNS = LOOK_LIKE_URNS + OTHER_VALUES


def _assert_flagged(flagged, expected, *, node_shape=True) -> None:
    assert flagged.by_property == frozenset(expected)
    if node_shape:
        assert flagged.by_node == frozenset(expected)


@pytest.mark.parametrize("engine", ENGINES)
def test_nid(engine: str) -> None:
    ok = [
        lit("urn:isbn:0395363411"),
        lit("URN:ISBN:0-395-36341-1"),  # NID compared case-insensitively (RFC 8141 §3)
        lit("urn:ISSN:0317-8471", lang="en"),
        URIRef("urn:isbn:0395363411"),
        lit("urn:IsBn:0395363411", datatype=ANY_URI),
    ]
    bad = [
        lit("urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6"),
        URIRef("urn:example:x"),
        lit("urn:nbn:de:101:1-2011", lang="de"),
        lit("urn:isbnx:1"),  # not a substring match: "isbnx" is not "isbn"
        lit("urn:is:1"),
        lit("urn:sbn:1", datatype=ANY_URI),
    ]
    flagged = run_component('urnsh:nid "  ISBN\tissn "', ok + bad + NOT_URNS, engine=engine)
    _assert_flagged(flagged, bad + NOT_URNS)
    messages = {r.message for r in flagged.report.results}
    assert ("urn:is:1: the NID is not one of   ISBN\tissn , or the value is not a URN at all "
            "(rule urnsh:nid; finding nid-not-allowed, or syntax for a value that is not an "
            "RFC 8141 URN)"
            ) in messages


@pytest.mark.parametrize("engine", ENGINES)
def test_registered(engine: str) -> None:
    ok = [lit("urn:isbn:0395363411"), lit("urn:urn-7:x"), URIRef("URN:IETF:rfc:2141"),
          lit("urn:example:x", lang="en")]
    bad = [
        lit("urn:foo:bar"),  # nid-unregistered
        URIRef("urn:X-foo:bar"),  # nid-experimental (RFC 8141 App. C)
        lit("urn:ab:c", datatype=ANY_URI),  # nid-reserved
        lit("urn:urn-07:x"),  # nid-informal-malformed
    ]
    flagged = run_component("urnsh:registered true", ok + bad + NOT_URNS, engine=engine)
    _assert_flagged(flagged, bad + NOT_URNS)
    off = run_component("urnsh:registered false", bad + NOT_URNS, engine=engine)
    _assert_flagged(off, [])


@pytest.mark.parametrize("engine", ENGINES)
def test_namespace_valid(engine: str) -> None:
    ok = [
        lit("urn:isbn:0395363411"),
        lit("URN:ISBN:0-395-36341-1"),  # not canonical, but valid in its namespace
        lit("urn:issn:0317-8471", lang="en"),
        URIRef("urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6"),
        lit("urn:foo:anything%20goes"),  # no rule for "foo": nothing to break
    ]
    bad = [
        lit("urn:isbn:0395363412"),  # nss-check-digit
        URIRef("urn:issn:0317-8472"),  # nss-check-digit, as an IRI
        lit("urn:uuid:f81d4fae-7dec", lang="en"),  # nss-invalid
        lit("urn:isbn:12345", datatype=ANY_URI),  # nss-invalid
    ]
    flagged = run_component("urnsh:namespaceValid true", ok + bad + NOT_URNS, engine=engine)
    _assert_flagged(flagged, bad + NOT_URNS)
    messages = {r.message for r in flagged.report.results}
    assert ("urn:isbn:0395363412: the NSS breaks its namespace's grammar or check digit, or the "
            "value is not a URN at all (rule urnsh:namespaceValid; finding nss-invalid or "
            "nss-check-digit, or syntax for a value that is not an RFC 8141 URN)") in messages


@pytest.mark.parametrize("engine", ENGINES)
def test_canonical(engine: str) -> None:
    ok = [
        lit("urn:isbn:0395363411"),
        lit("urn:example:a%2Cb", lang="en"),
        lit("urn:example:A"),  # the NSS is case-sensitive: "A" is already canonical
        URIRef("urn:example:a123,z456?+abc"),
        lit("urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6", datatype=ANY_URI),
    ]
    bad = [
        lit("URN:ISBN:0-395-36341-1"),
        lit("urn:ISBN:0395363411"),
        lit("urn:isbn:0-395-36341-1", lang="en"),
        lit("urn:example:a%2cb"),
        URIRef("URN:EXAMPLE:x"),
        lit("urn:example:x#%2f"),  # hex case in a component
        lit("urn:uuid:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6", datatype=ANY_URI),
    ]
    flagged = run_component("urnsh:canonical true", ok + bad + NOT_URNS, engine=engine)
    _assert_flagged(flagged, bad + NOT_URNS)


@pytest.mark.parametrize("engine", ENGINES)
def test_no_components(engine: str) -> None:
    ok = [lit("urn:example:a"), URIRef("urn:isbn:0395363411"), lit("urn:example:a/b", lang="en")]
    bad = [
        lit("urn:example:a?+r"),
        lit("urn:example:a?=q", lang="en"),
        lit("urn:example:a#f", datatype=ANY_URI),
        lit("urn:example:a#"),  # an empty f-component is still a component
        URIRef("urn:example:a?+r?=q#f"),
    ]
    flagged = run_component("urnsh:noComponents true", ok + bad + NOT_URNS, engine=engine)
    _assert_flagged(flagged, bad + NOT_URNS)


@pytest.mark.parametrize("engine", ENGINES)
def test_unique_by_equivalence(engine: str) -> None:
    values = [
        lit("URN:ISBN:0-395-36341-1"),  # 0 ─┐ the same ISBN, spelled two ways
        lit("urn:isbn:0395363411", lang="en"),  # 1 ─┘
        URIRef("urn:example:a123,z456#789"),  # 2 ─┐ IRI vs literal, components ignored
        lit("urn:EXAMPLE:a123,z456?=xyz", datatype=ANY_URI),  # 3 ─┘
        lit("urn:example:A123,z456"),  # 4: NSS case matters: unique
        lit("urn:example:a123%2Cz456"),  # 5: %2C is not ",": unique
        lit("junk"),  # 6 ─┐ equal strings, but not URNs: each reported as not a URN, once
        lit("junk"),  # 7 ─┘
    ]
    flagged = run_component("urnsh:uniqueByEquivalence true", values, engine=engine,
                            node_shape=False)
    _assert_flagged(flagged, values[:4] + values[6:], node_shape=False)
    by_focus = sorted((r.focus_node, r.value) for r in flagged.report.results)
    assert by_focus == sorted((EX[f"r{i}"], values[i]) for i in (0, 1, 2, 3, 6, 7))
    only = run_component("urnsh:uniqueByEquivalence true ; urnsh:onlyURNs true", values,
                         engine=engine, node_shape=False)
    _assert_flagged(only, values[:4], node_shape=False)


@pytest.mark.parametrize("engine", ENGINES)
def test_unique_ignores_equivalent_values_on_the_same_record(engine: str) -> None:
    shapes = Graph().parse(format="turtle", data=PREFIXES + """
        ex:P a sh:NodeShape ; sh:targetClass ex:R ;
            sh:property [ sh:path ex:id ; urnsh:uniqueByEquivalence true ] .""")
    data = Graph().parse(format="turtle", data=PREFIXES + """
        ex:a a ex:R ; ex:id "URN:ISBN:0-395-36341-1", "urn:isbn:0395363411" .
        ex:b a ex:R ; ex:id "urn:isbn:0395363412" .
        ex:c ex:id "urn:isbn:0395363412" .  # not a target, still another node with the value
        """)
    report = validate(data, shapes, evaluator=engine)
    assert {(r.focus_node, r.value) for r in report.results} == {
        (EX.b, Literal("urn:isbn:0395363412"))
    }


def test_unique_on_the_nid_example_table(nid_examples) -> None:
    # RFC 8141 §3.2's table: every listed pair, on two records.
    pairs = []
    for row in nid_examples:
        pairs += [(row["urn"], other, True) for other in row.get("equivalent_to", [])]
        pairs += [(row["urn"], other, False) for other in row.get("not_equivalent_to", [])]
    assert len(pairs) > 20
    values = []
    for a, b, _ in pairs:
        values += [lit(a), URIRef(b)]
    shapes = Graph().parse(format="turtle", data=PREFIXES + """
        ex:P a sh:NodeShape ; sh:targetClass ex:R ;
            sh:property [ sh:path ex:id ; urnsh:uniqueByEquivalence true ] .""")
    for i, (a, b, equivalent) in enumerate(pairs):
        data = Graph()
        for j, v in enumerate((lit(a), URIRef(b))):
            data.add((EX[f"r{i}_{j}"], EX.id, v))
            data.add((EX[f"r{i}_{j}"], URIRef("http://www.w3.org/1999/02/22-rdf-syntax-ns#type"),
                      EX.R))
        report = validate(data, shapes)
        assert len(report.results) == (2 if equivalent else 0), (a, b)


def test_unique_is_for_property_shapes_only() -> None:
    shapes = Graph().parse(format="turtle", data=PREFIXES + """
        ex:N a sh:NodeShape ; sh:targetObjectsOf ex:id ; urnsh:uniqueByEquivalence true .""")
    data = Graph().parse(format="turtle", data=PREFIXES + 'ex:a ex:id "urn:isbn:0395363411" .')
    with pytest.raises(ShapesError, match="the shapes cannot be run"):
        validate(data, shapes)


@pytest.mark.parametrize(
    ("constraint", "message"),
    [
        ('urnsh:nid ( "isbn" "issn" )', "urnsh:nid must be a string"),
        ("urnsh:nid ex:isbn", "urnsh:nid must be a string"),
        ('urnsh:nid "isbn, issn"', "urnsh:nid must be a string"),
        ('urnsh:nid "isbn\u00a0issn"', "urnsh:nid must be a string"),
        ('urnsh:canonical "yes"', "urnsh:canonical must be true or false"),
        ("urnsh:namespaceValid 1", "urnsh:namespaceValid must be true or false"),
        ('urnsh:canonical true ; urnsh:onlyURNs "true"', "urnsh:onlyURNs must be true or false"),
    ],
)
def test_bad_parameter_values_are_refused_not_ignored(constraint: str, message: str) -> None:
    shapes = Graph().parse(format="turtle", data=PREFIXES + f"""
        ex:P a sh:NodeShape ; sh:targetClass ex:R ; sh:property [ sh:path ex:id ; {constraint} ] .
        """)
    with pytest.raises(ShapesError, match=message):
        validate(Graph(), shapes)


@pytest.mark.parametrize("engine", ENGINES)
def test_results_carry_focus_path_value_component_severity(engine: str) -> None:
    shapes = Graph().parse(format="turtle", data=PREFIXES + """
        ex:P a sh:NodeShape ; sh:targetClass ex:R ;
            sh:property [ sh:path ex:id ; sh:severity sh:Warning ; urnsh:canonical true ] .""")
    data = Graph().parse(format="turtle", data=PREFIXES + """
        ex:a a ex:R ; ex:id "URN:EXAMPLE:x"@en .""")
    report = validate(data, shapes, evaluator=engine)
    assert not report.conforms
    (r,) = report.results
    assert (r.focus_node, r.path, r.value) == (EX.a, EX.id, Literal("URN:EXAMPLE:x", lang="en"))
    assert r.component == URIRef("https://w3id.org/urnld/shacl#CanonicalConstraintComponent")
    assert r.severity == "Warning"
    assert r.message == ("URN:EXAMPLE:x: not in canonical form, or not a URN at all (rule "
                         "urnsh:canonical; finding not-canonical, or syntax for a value that is "
                         "not an RFC 8141 URN)")


# The components, each with a value it accepts: what is left to report is the value's URN-ness.
COMPONENTS = {
    'urnsh:nid "isbn"': "NIDConstraintComponent",
    "urnsh:registered true": "RegisteredConstraintComponent",
    "urnsh:namespaceValid true": "NamespaceValidConstraintComponent",
    "urnsh:canonical true": "CanonicalConstraintComponent",
    "urnsh:noComponents true": "NoComponentsConstraintComponent",
}


@pytest.mark.parametrize("engine", ENGINES)
def test_the_issue_example_is_reported(engine: str) -> None:
    # "urn:isbn" has no NSS: it passed urnsh:nid "isbn" and urnsh:namespaceValid silently.
    shapes = Graph().parse(format="turtle", data=PREFIXES + """
        ex:S a sh:NodeShape ; sh:targetClass ex:R ;
            sh:property [ sh:path ex:id ; urnsh:nid "isbn" ; urnsh:namespaceValid true ] .""")
    data = Graph().parse(format="turtle", data=PREFIXES + 'ex:a a ex:R ; ex:id "urn:isbn" .')
    report = validate(data, shapes, evaluator=engine)
    assert not report.conforms
    assert sorted((r.focus_node, r.value, r.component.split("#")[1]) for r in report.results) == [
        (EX.a, Literal("urn:isbn"), "NIDConstraintComponent"),
        (EX.a, Literal("urn:isbn"), "NamespaceValidConstraintComponent"),
    ]
    for r in report.results:
        assert r.message.startswith("urn:isbn: ") and "not a URN at all" in r.message
    # Plain pyshacl with urnld's functions registered runs the SPARQL of urn.ttl: the same.
    register_functions()
    conforms, graph, _ = pyshacl.validate(
        data, shacl_graph=Graph().parse(shapes_path("urn.ttl")) + shapes)
    plain = Report.from_graph(graph)
    assert not conforms
    assert sorted((r.value, r.component) for r in plain.results) == sorted(
        (r.value, r.component) for r in report.results)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("constraint", sorted(COMPONENTS))
def test_every_component_reports_what_is_not_a_urn(constraint: str, engine: str) -> None:
    ok = [lit("urn:isbn:0395363411"), URIRef("urn:isbn:0395363411")]
    flagged = run_component(constraint, ok + NOT_URNS, engine=engine)
    _assert_flagged(flagged, NOT_URNS)
    for r in flagged.report.results:
        assert r.component.endswith("#" + COMPONENTS[constraint])
        assert "or syntax for a value that is not an RFC 8141 URN" in r.message, r.message
    # A blank node has no lexical form: not a URN either (a fresh node per run, so counted).
    node = blank()
    found = run_component(constraint, [*ok, node], engine=engine).report.results
    assert len(found) == 2 and all(isinstance(r.value, BNode) for r in found)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("constraint", sorted(COMPONENTS))
def test_only_urns_leaves_other_values_alone(constraint: str, engine: str) -> None:
    ok = [lit("urn:isbn:0395363411"), URIRef("URN:ISBN:0395363411")]
    if "canonical" in constraint:
        ok = ok[:1]
    only = run_component(f"{constraint} ; urnsh:onlyURNs true", ok + NOT_URNS + [blank()],
                         engine=engine)
    _assert_flagged(only, LOOK_LIKE_URNS)
    # false, like absent, judges every value.
    off = run_component(f"{constraint} ; urnsh:onlyURNs false", ok + NOT_URNS, engine=engine)
    _assert_flagged(off, NOT_URNS)


@pytest.mark.parametrize("engine", ENGINES)
def test_only_urns_still_applies_the_constraint(engine: str) -> None:
    # Values that start with "urn:" in any case are judged as before.
    bad = [lit("URN:ISSN:0317-8471"), URIRef("uRn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6")]
    flagged = run_component('urnsh:nid "isbn" ; urnsh:onlyURNs true',
                            [lit("urn:isbn:0395363411"), lit("ISSN 0317-8471"), *bad],
                            engine=engine)
    _assert_flagged(flagged, bad)


def test_only_urns_alone_activates_no_component() -> None:
    # An optional parameter: a shape with only urnsh:onlyURNs runs no urnsh: component.
    flagged = run_component("urnsh:onlyURNs true", NOT_URNS, engine="plan")
    assert flagged.report.conforms
