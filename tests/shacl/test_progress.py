"""validate(progress=...): queries counted as the plan runs, focus-node checks counted as pyshacl
runs the shapes; the same report either way."""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rdflib import RDF, BNode, Graph, Literal, URIRef
from rdflib.compare import isomorphic
from shacl_helpers import EX, PREFIXES

from urnld.shacl import Report, _progress, shapes_path
from urnld.shacl import validate as validate_any

# Most of this module is about pyshacl's focus-node checks.
validate = functools.partial(validate_any, evaluator="pyshacl")

SHAPES = PREFIXES + """
ex:S a sh:NodeShape ; sh:targetClass ex:R ;
    sh:property [ sh:path ex:id ; urnsh:namespaceValid true ] ,
                [ sh:path ex:id ; urnsh:canonical true ] .
ex:V a sh:NodeShape ; sh:targetObjectsOf ex:id ; urnsh:nid "isbn" .
ex:Off a sh:NodeShape ; sh:targetClass ex:R ; sh:deactivated true ; sh:minCount 5 .
"""


def _records(n: int) -> Graph:
    g = Graph()
    for i in range(n):
        g.add((EX[f"r{i}"], RDF.type, EX.R))
        # 1,000 distinct values, every 7th with a wrong check digit, every 11th not canonical
        isbn = f"urn:isbn:97803953634{i % 100:02d}"
        g.add((EX[f"r{i}"], EX.id, Literal(isbn.upper() if i % 11 == 0 else isbn)))
    return g


def _recorder(calls: list[tuple[int, int]]) -> Callable[[int, int], None]:
    return lambda done, total: calls.append((done, total))


def _comparable(report: Report) -> list[dict[str, str | None]]:
    # Blank-node labels differ from run to run (pyshacl's report graph); nothing else may.
    out = []
    for r in report.results:
        d = r.to_dict()
        if isinstance(r.value, BNode):
            d["value"] = "_:blank"
        if isinstance(r.source_shape, BNode):
            d["source_shape"] = "_:blank"
        out.append(d)
    return out


def _same(a: Report, b: Report) -> None:
    assert a.conforms == b.conforms
    assert _comparable(a) == _comparable(b)
    assert isomorphic(a.graph, b.graph)


def test_progress_counts_every_check_in_order() -> None:
    # (The hook is the same whichever engine evaluates the urnsh: components.)
    data = _records(200)
    shapes = Graph().parse(data=SHAPES, format="turtle")
    calls: list[tuple[int, int]] = []
    report = validate(data, shapes, progress=lambda d, t: calls.append((d, t)))
    n = len(set(data.subjects(RDF.type, EX.R)))
    values = len(set(data.objects(None, EX.id)))
    # ex:S: each record is 3 checks (the node shape and its two property shapes); ex:V: each
    # distinct value is one; the deactivated ex:Off counts nothing (nor does urnsh:Functions,
    # which validate() deactivates once it has registered the functions).
    total = 3 * n + values
    assert calls[0] == (0, total)
    assert calls[-1] == (total, total)
    assert all(t == total for _, t in calls)
    done = [d for d, _ in calls]
    assert done == sorted(done) and len(set(done)) == len(done)  # strictly increasing
    assert len(calls) > 3  # told in batches, not only at the end
    _same(report, validate(data, shapes))


@pytest.mark.parametrize("path", ["examples/shacl/catalog.ttl", "examples/catalog/catalog.ttl"])
def test_the_examples_give_the_same_report_with_progress(repo_root: Path, path: str) -> None:
    calls: list[tuple[int, int]] = []
    with_progress = validate(str(repo_root / path), progress=lambda d, t: calls.append((d, t)))
    assert calls[-1][0] == calls[-1][1] > 0
    _same(with_progress, validate(str(repo_root / path)))


_SPELLINGS = ["urn:isbn:9780199535569", "URN:ISBN:978-0-19-953556-9", "urn:isbn:9780199535560",
              "urn:issn:0028-0836", "not a urn", "urn:isbn", "urn:example:a#f", ""]


@settings(max_examples=5, deadline=None)
@given(st.lists(st.lists(st.sampled_from(_SPELLINGS), min_size=1, max_size=3),
                min_size=1, max_size=150))
def test_batches_change_nothing_on_random_catalogs(records: list[list[str]]) -> None:
    # More than one batch (64 focus nodes) per shape once there are more than 64 records.
    data = Graph()
    for i, values in enumerate(records):
        data.add((EX[f"r{i}"], RDF.type, EX.R))
        for j, v in enumerate(values):
            data.add((EX[f"r{i}"], EX.id, Literal(v) if j % 2 else URIRef(v.replace(" ", "_"))))
    shapes = Graph().parse(shapes_path("urn.ttl")).parse(data=PREFIXES + """
        ex:P a sh:NodeShape ; sh:targetClass ex:R ; sh:property [ sh:path ex:id ;
            urnsh:nid "isbn" ; urnsh:canonical true ; urnsh:uniqueByEquivalence true ;
            sh:node urnsh:URN ] .
        ex:N a sh:NodeShape ; sh:targetObjectsOf ex:id ; urnsh:namespaceValid true .""",
        format="turtle")
    seen: list[int] = []
    _same(validate(data, shapes, progress=lambda d, t: seen.append(d)), validate(data, shapes))
    assert seen[0] == 0 and seen == sorted(seen)


def test_no_progress_on_an_unknown_pyshacl_layout(monkeypatch) -> None:
    # A pyshacl that keeps its shapes elsewhere: no hook, no calls, the same report.
    monkeypatch.setattr(_progress, "installable", lambda shapes_graph: False)
    data = _records(20)
    shapes = Graph().parse(data=SHAPES, format="turtle")
    calls: list[tuple[int, int]] = []
    report = validate(data, shapes, progress=lambda d, t: calls.append((d, t)))
    assert calls == []
    _same(report, validate(data, shapes))


def test_batch_sizes() -> None:
    assert _progress.Plan.batch_size(1) == 64
    assert _progress.Plan.batch_size(6_400) == 64
    assert _progress.Plan.batch_size(100_000) == 1_000


def test_progress_counts_on_the_graph_pyshacl_validates(tmp_path: Path) -> None:
    # Focus nodes are found where pyshacl finds them: on the union of the named graphs, and on
    # the graph after inference (the rdfs:domain makes ex:c an ex:R only with "rdfs").
    trig = tmp_path / "data.trig"
    trig.write_text("""@prefix ex: <http://example.org/> .
        @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
        ex:g1 { ex:a a ex:R . ex:b a ex:R . ex:isbn rdfs:domain ex:R . }
        ex:g2 { ex:a ex:id "urn:isbn:0395363412" . ex:b ex:id "URN:ISBN:0395363411" .
                ex:c ex:isbn "urn:isbn" . }""")
    shapes = Graph().parse(data=PREFIXES + """
        ex:S a sh:NodeShape ; sh:targetClass ex:R ; sh:property
            [ sh:path ex:id ; urnsh:namespaceValid true ; urnsh:canonical true ] .
        """, format="turtle")
    for inference, records in (("none", 2), ("rdfs", 3)):
        calls: list[tuple[int, int]] = []
        report = validate(trig, shapes, inference=inference, progress=_recorder(calls))
        total = 2 * records  # the node shape and its property shape
        assert calls[0] == (0, total) and calls[-1] == (total, total), (inference, calls)
        _same(report, validate(trig, shapes, inference=inference))


def test_the_plan_counts_its_queries_in_order() -> None:
    data, shapes = _records(50), Graph().parse(data=SHAPES, format="turtle")
    calls: list[tuple[int, int]] = []
    report = validate_any(data, shapes, progress=_recorder(calls))
    # ex:S: two urnsh: steps, whose property shapes ask the same pairs: one query, read once,
    # counts both; ex:V: one; ex:Off is deactivated
    assert calls == [(0, 3), (2, 3), (3, 3)]
    _same(report, validate_any(data, shapes))
    assert {(r.focus_node, r.value) for r in report} == {
        (r.focus_node, r.value) for r in validate(data, shapes)}
