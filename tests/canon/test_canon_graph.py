"""The graph pass: the done-when of issue 4 (canonicalize half) on the example catalog."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rdflib import BNode, Dataset, Graph, Literal, URIRef
from rdflib.compare import isomorphic
from rdflib.namespace import XSD

import urnld
from urnld.rdf import canonicalize, digest

CATALOG = Path(__file__).resolve().parents[2] / "examples" / "catalog" / "catalog.ttl"


def _rand_case(rnd: random.Random, text: str) -> str:
    return "".join(c.upper() if rnd.random() < 0.5 else c.lower() for c in text)


def respell(canonical: str, rnd: random.Random) -> str:
    """A random spelling of a canonical URN that is equivalent to it.

    RFC 8141 §3: case of "urn" and of the NID, hex case of %XX; namespace rules: ISBN hyphens,
    ISSN hyphen and check-character case, UUID hex case, NBN country-code case.
    """
    _, nid, nss = canonical.split(":", 2)
    if nid == "isbn":
        digits = list(nss)
        nss = digits[0] + "".join(("-" if rnd.random() < 0.3 else "") + d for d in digits[1:])
    elif nid == "issn":
        nss = (nss if rnd.random() < 0.5 else nss.replace("-", ""))
        nss = nss[:-1] + _rand_case(rnd, nss[-1])
    elif nid == "uuid":
        nss = _rand_case(rnd, nss)
    elif nid == "nbn":
        nss = _rand_case(rnd, nss[:2]) + nss[2:]
    nss = re.sub(r"%[0-9A-F]{2}", lambda m: _rand_case(rnd, m.group()), nss)
    spelled = f"{_rand_case(rnd, 'urn')}:{_rand_case(rnd, nid)}:{nss}"
    assert urnld.canonical(spelled) == canonical, (spelled, canonical)
    return spelled


def _load_catalog() -> Graph:
    return Graph().parse(CATALOG, format="turtle")


@pytest.fixture(scope="module")
def base() -> Graph:
    """The catalog with every valid URN in canonical form (IRIs and literals)."""
    return canonicalize(_load_catalog(), literals=True).graph


def _is_valid_urn(text: str) -> bool:
    return text[:4].lower() == "urn:" and not any(
        str(f.severity) == "error" and f.code.startswith(("syntax", "nid-"))
        for f in urnld.check(text)
    )


def _fully_valid(text: str) -> bool:
    return text[:4].lower() == "urn:" and urnld.check(text) == []


def variant(graph: Graph, seed: int, *, literals: bool = True) -> Graph:
    """Re-spell every fully valid URN at random (per occurrence); relabel blank nodes.

    URNs with any error finding are kept as written (the namespace may not canonicalize
    re-spellings of an invalid identifier, e.g. hyphens in a 5-digit "ISBN").
    """
    rnd = random.Random(seed)
    bnodes: dict[BNode, BNode] = {}

    def term(t):
        if isinstance(t, URIRef) and _fully_valid(str(t)):
            return URIRef(respell(str(t), rnd))
        if literals and isinstance(t, Literal) and t.datatype == XSD.anyURI and _fully_valid(
            str(t)
        ):
            return Literal(respell(str(t), rnd), datatype=XSD.anyURI)
        if isinstance(t, BNode):
            return bnodes.setdefault(t, BNode())
        return t

    triples = [(term(s), term(p), term(o)) for s, p, o in graph]
    rnd.shuffle(triples)
    out = Graph()
    for t in triples:
        out.add(t)
    return out


def test_catalog_variants_are_messy(base):
    """Sanity: the variants really differ from each other before canonicalization."""
    a, b = variant(base, 1), variant(base, 2)
    assert not isomorphic(a, b)
    assert len(a) >= len(base)  # re-spelling splits nodes, never merges


@settings(max_examples=15, deadline=None)
@given(seeds=st.tuples(st.integers(0, 2**32), st.integers(0, 2**32)))
def test_spelling_variants_are_isomorphic_after_canonicalize_with_same_digest(base, seeds):
    a, b = (variant(base, s) for s in seeds)
    ca = canonicalize(a, literals=True).graph
    cb = canonicalize(b, literals=True).graph
    assert isomorphic(ca, cb)
    assert isomorphic(ca, base)
    assert digest(a, literals=True) == digest(b, literals=True) == digest(base)


def test_original_catalog_canonicalizes_to_base(base):
    messy = _load_catalog()
    assert not isomorphic(messy, base)
    assert isomorphic(canonicalize(messy, literals=True).graph, base)
    assert digest(messy, literals=True) == digest(base)


def _map(t, ignore_components=False, literals=False):
    def canon(text):
        c = urnld.canonical(text)
        return urnld.parse(c).assigned_key if ignore_components else c

    if isinstance(t, URIRef) and _is_valid_urn(str(t)):
        return URIRef(canon(str(t)))
    if (literals and isinstance(t, Literal) and t.language is None
            and t.datatype in (None, XSD.string, XSD.anyURI) and _is_valid_urn(str(t))):
        return Literal(canon(str(t)), datatype=t.datatype)
    return t


@pytest.mark.parametrize("literals", [False, True])
def test_no_statement_lost_and_counts_reconcile(literals):
    g = _load_catalog()
    result = canonicalize(g, literals=literals)
    out, report = result.graph, result.report
    mapped = {(_map(s, literals=literals), _map(p), _map(o, literals=literals)) for s, p, o in g}
    assert set(out) == mapped  # every input statement has its image, nothing else appears
    assert report.statements_in == len(g)
    assert report.statements_out == len(out)
    assert report.duplicates_merged == len(g) - len(out) > 0
    cluster_total = sum(n for sp in report.clusters.values() for n in sp.values())
    invalid_total = sum(n for n, _ in report.invalid.values())
    assert cluster_total + invalid_total == report.urn_occurrences
    assert sum(report.nids.values()) == cluster_total
    # Invalid URNs are listed and left as they were.
    assert set(report.invalid) == {"urn:X-LOCAL:shelf-42", "urn:x-inspire:specification:gmlas:BaseTypes:3.2"}
    assert (URIRef("https://catalog.example.org/paper-3"), None,
            URIRef("urn:X-LOCAL:shelf-42")) in out
    # Bad check digits do not stop canonicalization (the class is still well defined).
    assert "urn:isbn:9780141439519" in report.clusters


def test_idempotent():
    once = canonicalize(_load_catalog(), literals=True)
    twice = canonicalize(once.graph, literals=True)
    assert set(twice.graph) == set(once.graph)
    assert twice.report.rewritten == 0
    assert twice.report.duplicates_merged == 0


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_order_independent(seed):
    g = _load_catalog()
    triples = list(g)
    random.Random(seed).shuffle(triples)
    h = Graph()
    for t in triples:
        h.add(t)
    a, b = canonicalize(g), canonicalize(h)
    assert set(a.graph) == set(b.graph)  # same blank-node objects: plain set equality
    assert a.report == b.report


def test_input_not_modified():
    g = _load_catalog()
    before = set(g)
    canonicalize(g, literals=True, ignore_components=True)
    assert set(g) == before


def test_blank_nodes_and_other_iris_untouched():
    b = BNode("x")
    g = Graph()
    g.add((b, URIRef("HTTP://Example.COM/P"), URIRef("URN:EXAMPLE:a")))
    out = canonicalize(g).graph
    assert set(out) == {(b, URIRef("HTTP://Example.COM/P"), URIRef("urn:example:a"))}


def test_dataset_graph_names_and_kind():
    ds = Dataset()
    ds.add((URIRef("URN:EXAMPLE:s"), URIRef("http://e/p"), Literal("in default")))
    ds.graph(URIRef("URN:EXAMPLE:g")).add(
        (URIRef("urn:example:s"), URIRef("http://e/p"), Literal("x")))
    ds.graph(URIRef("urn:Example:g")).add(
        (URIRef("URN:example:s"), URIRef("http://e/p"), Literal("x")))
    ds.graph(URIRef("URN:EXAMPLE:empty"))
    r = canonicalize(ds)
    assert isinstance(r.graph, Dataset)
    quads = {(str(s), str(g)) for s, _p, _o, g in r.graph.quads((None, None, None, None))}
    assert quads == {("urn:example:s", "urn:x-rdflib:default"), ("urn:example:s", "urn:example:g")}
    names = {str(g.identifier) for g in r.graph.graphs()}
    assert "urn:example:empty" in names
    assert r.report.statements_in == 3
    assert r.report.statements_out == 2
    assert r.report.duplicates_merged == 1
    # The rdflib default-graph name is not a URN of the data: not reported as invalid.
    assert r.report.invalid == {}


def test_ignore_components():
    g = Graph()
    g.add((URIRef("urn:example:book#ch1"), URIRef("http://e/p"), Literal("1")))
    g.add((URIRef("urn:example:book"), URIRef("http://e/p"), Literal("1")))
    kept = canonicalize(g)
    assert len(kept.graph) == 2  # term identity keeps components (spec §3 decision)
    merged = canonicalize(g, ignore_components=True)
    assert set(merged.graph) == {(URIRef("urn:example:book"), URIRef("http://e/p"), Literal("1"))}
    assert merged.report.dropped_components == {"urn:example:book": {"#ch1": 1}}
    assert merged.report.duplicates_merged == 1


def test_rejects_non_graph():
    with pytest.raises(TypeError, match="rdflib Graph or Dataset"):
        canonicalize("not a graph")  # type: ignore[type-var]
