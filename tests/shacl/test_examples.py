"""The example catalog: every planted defect is reported, nothing else; all engines agree."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rdflib import RDF, BNode, Graph, Literal, Namespace, URIRef
from rdflib.compare import isomorphic
from rdflib.namespace import SH
from shacl_helpers import EX, PREFIXES

from urnld.shacl import Report, shapes_path, validate

CAT = Namespace("http://example.org/catalog/")
DCT = Namespace("http://purl.org/dc/terms/")
URNSH = Namespace("https://w3id.org/urnld/shacl#")
ANY_URI = URIRef("http://www.w3.org/2001/XMLSchema#anyURI")

# The DEFECT comments of examples/shacl/catalog.ttl, as (record, path, value, component, severity).
EXPECTED = {
    ("book-cosmos", DCT.identifier, Literal("urn:isbn:9780553380164"),
     URNSH.NamespaceValidConstraintComponent, "Violation"),
    ("book-annual", DCT.identifier, Literal("urn:issn:2049-3630"),
     URNSH.NIDConstraintComponent, "Violation"),
    ("book-springer", DCT.identifier, Literal("URN:ISBN:978-3-540-63466-9"),
     URNSH.CanonicalConstraintComponent, "Warning"),
    ("book-kosmos-1", DCT.identifier, Literal("urn:isbn:9783866801929"),
     URNSH.UniqueByEquivalenceConstraintComponent, "Violation"),
    ("book-kosmos-2", DCT.identifier, URIRef("urn:isbn:9783866801929"),
     URNSH.UniqueByEquivalenceConstraintComponent, "Violation"),
    ("book-chapter", DCT.identifier, Literal("urn:isbn:9780140449136#p211"),
     URNSH.NoComponentsConstraintComponent, "Violation"),
    ("book-plain", DCT.identifier, Literal("ISBN 978-0-19-953556-9"),
     SH.NodeConstraintComponent, "Violation"),
    ("serial-phys-today", DCT.identifier, Literal("urn:issn:0031-9105"),
     URNSH.NamespaceValidConstraintComponent, "Violation"),
    ("serial-jcp", DCT.identifier, Literal("urn:ISSN:1549-8417"),
     URNSH.CanonicalConstraintComponent, "Warning"),
    ("thesis-goettingen", DCT.identifier, Literal("URN:NBN:de:gbv:089-3321752945"),
     URNSH.CanonicalConstraintComponent, "Warning"),
    ("thesis-local", DCT.identifier, Literal("urn:thesis:ku-2019-044"),
     URNSH.NIDConstraintComponent, "Violation"),
    ("thesis-local", DCT.identifier, Literal("urn:thesis:ku-2019-044"),
     URNSH.RegisteredConstraintComponent, "Warning"),
    ("dataset-sensors", DCT.identifier, Literal("urn:uuid:7D444840-9DC0-11D1-B245-5FFDCE74FAD2"),
     URNSH.CanonicalConstraintComponent, "Warning"),
    ("dataset-truncated", DCT.identifier, Literal("urn:uuid:f81d4fae-7dec-11d0-a765"),
     URNSH.NamespaceValidConstraintComponent, "Violation"),
    ("dataset-versioned", DCT.identifier,
     Literal("urn:uuid:0f8fad5b-d9cb-469f-a165-70867728950f?+version=2"),
     URNSH.NoComponentsConstraintComponent, "Violation"),
    ("dataset-structured", DCT.identifier, "a blank node",
     SH.NodeConstraintComponent, "Violation"),
    ("article-2", DCT.isPartOf, Literal("urn:issn:1476-4687"),
     SH.OrConstraintComponent, "Violation"),
    ("article-3", DCT.isPartOf, URIRef("urn:issn:2049-3631"),
     URNSH.NamespaceValidConstraintComponent, "Violation"),
    ("urn:X-newsdesk:2024-117", None, URIRef("urn:X-newsdesk:2024-117"),
     URNSH.RegisteredConstraintComponent, "Violation"),
}


@pytest.fixture(scope="module")
def catalog(repo_root: Path) -> Graph:
    return Graph().parse(repo_root / "examples" / "shacl" / "catalog.ttl")


def _found(report: Report) -> set[tuple[object, ...]]:
    return {
        (
            str(r.focus_node).removeprefix(str(CAT)),
            r.path,
            "a blank node" if isinstance(r.value, BNode) else r.value,
            r.component,
            r.severity,
        )
        for r in report.results
    }


def test_every_planted_defect_and_nothing_else(catalog: Graph) -> None:
    report = validate(catalog)
    assert not report.conforms
    assert len(report.results) == len(EXPECTED)
    assert _found(report) == EXPECTED


def test_every_message_names_value_rule_and_finding(catalog: Graph) -> None:
    for r in validate(catalog).results:
        assert re.search(r"\brules? ", r.message) and "finding " in r.message, r.message
        if str(r.component).startswith(str(URNSH)):
            assert r.message.startswith(f"{r.value}: "), r.message


def test_the_fixed_catalog_conforms(catalog: Graph) -> None:
    fixed = Graph()
    defective = {CAT[rec] for rec, *_ in EXPECTED}
    cited = {URIRef(rec) for rec, *_ in EXPECTED if rec.lower().startswith("urn:")}
    for s, p, o in catalog:
        # (a URN that is itself the focus node goes with the statements that cite it; an
        # article's ordinary http link to its serial stays, and must pass)
        if s not in defective and o not in cited and not isinstance(s, BNode):
            fixed.add((s, p, o))
    report = validate(fixed)
    assert report.conforms, report.results


def test_sparql_engine_gives_the_same_report(catalog: Graph) -> None:
    fast = validate(catalog, evaluator="pyshacl")
    slow = validate(catalog, evaluator="sparql")
    assert isomorphic(fast.graph, slow.graph)
    assert [r.to_dict() for r in fast.results if not isinstance(r.source_shape, BNode)] == [
        r.to_dict() for r in slow.results if not isinstance(r.source_shape, BNode)
    ]


def _without_messages(graph: Graph) -> Graph:
    g = Graph()
    for t in graph:
        if t[1] != SH.resultMessage:
            g.add(t)
    return g


def test_untouched_pyshacl_agrees_except_for_repeated_messages(catalog: Graph) -> None:
    fast = validate(catalog, evaluator="pyshacl")
    plain = validate(catalog, evaluator="plain-pyshacl")
    assert isomorphic(_without_messages(fast.graph), _without_messages(plain.graph))
    by_key = {(r.focus_node, r.value, r.component): r.message for r in plain.results}
    for r in fast.results:
        # pyshacl's messages for one result: its own, plus (its shared-list bug) messages of
        # earlier results of the same component and shape.
        assert r.message in by_key[(r.focus_node, r.value, r.component)].split(" | ")


# Random small catalogs: the two engines must build isomorphic report graphs.
_SPELLINGS = [
    "urn:isbn:9780199535569", "URN:ISBN:978-0-19-953556-9", "urn:isbn:9780199535560",
    "urn:issn:0028-0836", "urn:ISSN:0028-0836", "urn:issn:0028-0837",
    "urn:uuid:0f8fad5b-d9cb-469f-a165-70867728950e", "urn:uuid:0F8FAD5B-D9CB-469F-A165-70867728950E",
    "urn:example:a%2cb", "urn:example:a%2Cb#f", "urn:foo:bar?+r", "urn:X-foo:bar", "urn:ab:c",
    "not a urn", "urn:isbn:12345", "urn:nbn:de:1111-2004033116",
]
_values = st.builds(
    lambda text, kind: {
        "plain": Literal(text),
        "lang": Literal(text, lang="en"),
        "anyURI": Literal(text, datatype=ANY_URI),
        "iri": URIRef(text.replace(" ", "%20")),
    }[kind],
    st.sampled_from(_SPELLINGS),
    st.sampled_from(["plain", "lang", "anyURI", "iri"]),
)
_SHAPES = PREFIXES + """
ex:P a sh:NodeShape ; sh:targetClass ex:R ;
    sh:property [ sh:path ex:id ; urnsh:nid "isbn issn" ; urnsh:registered true ;
                  urnsh:namespaceValid true ; urnsh:canonical true ; urnsh:noComponents true ;
                  urnsh:uniqueByEquivalence true ] .
ex:N a sh:NodeShape ; sh:targetObjectsOf ex:id ;
    urnsh:nid "isbn uuid" ; urnsh:registered true ; urnsh:namespaceValid true ;
    urnsh:canonical true ; urnsh:noComponents true .
"""


@settings(max_examples=4, deadline=None)
@given(st.lists(st.lists(_values, min_size=1, max_size=2), min_size=2, max_size=3))
def test_engines_agree_on_random_catalogs(records: list[list[Literal | URIRef]]) -> None:
    data = Graph()
    for i, values in enumerate(records):
        data.add((EX[f"r{i}"], RDF.type, EX.R))
        for v in values:
            data.add((EX[f"r{i}"], EX.id, v))
    shapes = Graph().parse(shapes_path("urn.ttl")).parse(data=_SHAPES, format="turtle")
    fast = validate(data, shapes, evaluator="pyshacl")
    slow = validate(data, shapes, evaluator="sparql")
    assert isomorphic(fast.graph, slow.graph)
    assert fast.conforms == slow.conforms


def test_the_walkthrough_script_runs(repo_root: Path, capsys) -> None:
    import runpy

    runpy.run_path(str(repo_root / "examples" / "shacl" / "walkthrough.py"), run_name="__main__")
    out = capsys.readouterr().out
    assert "conforms: False; 19 results: {'Violation': 14, 'Warning': 5}" in out
    assert "dataset: dataset-sensors: CanonicalConstraintComponent" in out
    assert out.rstrip().endswith("same results: True")


def test_the_default_shapes_fail_the_bundled_catalog_example(repo_root: Path) -> None:
    # examples/catalog/catalog.ttl is written with schema.org classes and dcterms:references
    # links; the shapes once covered only bibo:* + dcterms:identifier and said "conforms". The
    # four URNs `urnld check` calls invalid must each be reported, on the node that holds them.
    report = validate(str(repo_root / "examples/catalog/catalog.ttl"))
    assert not report.conforms
    flagged = {(str(r.value), r.component.split("#")[1]) for r in report.results}
    assert ("urn:isbn:9780141439519", "NamespaceValidConstraintComponent") in flagged
    assert ("urn:isbn:12345", "NamespaceValidConstraintComponent") in flagged
    assert ("urn:X-LOCAL:shelf-42", "RegisteredConstraintComponent") in flagged
    assert ("urn:x-inspire:specification:gmlas:BaseTypes:3.2", "RegisteredConstraintComponent") in flagged
    # http IRIs and literals that are not URNs are not judged by the any-URN shapes
    assert not any(str(r.value).startswith("http") for r in report.results)
    # ... and nothing else: the catalog shapes report exactly these eight results.
    assert sorted(flagged) == sorted([
        ("urn:isbn:9780141439519", "NamespaceValidConstraintComponent"),
        ("urn:isbn:12345", "NamespaceValidConstraintComponent"),
        ("urn:X-LOCAL:shelf-42", "RegisteredConstraintComponent"),
        ("urn:x-inspire:specification:gmlas:BaseTypes:3.2", "RegisteredConstraintComponent"),
        ("URN:ISBN:978-0-14-143951-8", "CanonicalConstraintComponent"),
        ("URN:ISBN:978-0-14-143951-8", "UniqueByEquivalenceConstraintComponent"),
        ("urn:isbn:9780141439518", "UniqueByEquivalenceConstraintComponent"),
        ("urn:ISBN:0-14-044913-2", "CanonicalConstraintComponent"),
    ])


_MIXED = """
@prefix dct: <http://purl.org/dc/terms/> .
@prefix schema: <http://schema.org/> .
<http://example.org/b1> a schema:Book ;
    dct:identifier "urn:isbn:9780199535569", "ISBN 978-0-19-953556-9" ;
    schema:isbn "978-0-19-953556-9" ;
    schema:sameAs <https://www.wikidata.org/wiki/Q170583>, <http://example.org/b1?x#y>, "" ;
    dct:references <urn:isbn:9780199535569>, "doi:10.1000/182", "urn:isbn", <URN:ISSN:1234> .
"""


@pytest.mark.parametrize("engine", ["plan", "pyshacl", "sparql", "plain-pyshacl"])
def test_catalog_shapes_judge_only_values_meant_as_urns(engine: str) -> None:
    # Identifier and link properties hold http IRIs, DOIs and plain strings next to URNs: the
    # any-URN shapes (urnsh:onlyURNs true) leave those alone, and report what starts with "urn:"
    # but is no URN. A record identifier that is not a URN is one result (the syntax check's).
    data = Graph().parse(data=_MIXED, format="turtle")
    report = validate(data, evaluator=engine)
    found = sorted((str(r.value), str(r.source_shape).split("#")[-1], r.component.split("#")[1])
                   for r in report.results)
    assert found == [
        ("ISBN 978-0-19-953556-9", "RecordIdentifierSyntax", "NodeConstraintComponent"),
        ("URN:ISSN:1234", "AnyURN", "NamespaceValidConstraintComponent"),
        ("urn:isbn", "AnyURN", "NamespaceValidConstraintComponent"),
        # (the registry check runs at two severities, violation for X- NIDs and warning for
        # the rest, so a value that is no URN at all is reported by both)
        ("urn:isbn", "AnyURN", "RegisteredConstraintComponent"),
        ("urn:isbn", "AnyURNNID", "RegisteredConstraintComponent"),
    ]
