"""All six paths that canonicalize URN terms follow the one term rule (urnld._kernel._terms).

The stream (``urnld.stream``), the in-memory pass (``urnld.rdf.canonicalize``), the URN store
(and ``URNRef``, which SPARQL queries on it use), JSON-LD and the Dask engine must give each
term of the table the same output, and must agree on which terms are not usable URNs (left
exactly as written and reported).
"""

from __future__ import annotations

import pytest
from rdflib import Graph, Literal, URIRef

from urnld._kernel._terms import TermCache, TermRule
from urnld.jsonld._canon import Canonicalizer
from urnld.rdf import NotAURNError, URNRef, canonicalize
from urnld.report import CanonicalizeReport
from urnld.stream import canonicalize_lines

P = "http://example.org/p"

# (term, output, usable). Sources: RFC 8141 §3.2 (the a123,z456 examples), RFC 3187 (ISBN),
# RFC 8141 App. C (X- NIDs are not URNs), §5.1 (two-letter NIDs are reserved for registration:
# a warning, so such a name is a usable URN; the strict reading makes it none).
TABLE = [
    ("URN:ISBN:0-395-36341-1", "urn:isbn:0395363411", True),
    ("urn:isbn:0-395-36341-2", "urn:isbn:0395363412", True),  # wrong check digit: still a class
    ("URN:EXAMPLE:a123%2cz456", "urn:example:a123%2Cz456", True),
    ("urn:example:a123,z456?+abc?=xyz#789", "urn:example:a123,z456?+abc?=xyz#789", True),
    ("urn:EXAMPLE:a?+R?=Q#F%2f", "urn:example:a?+R?=Q#F%2F", True),  # components kept, %XX up
    ("urn:X-foo:Bar", "urn:X-foo:Bar", False),  # left as written (docs/canonicalize.md)
    ("URN:EX:s0", "urn:ex:s0", True),  # reserved two-letter NID: a warning only
    ("urn:example:", "urn:example:", False),  # empty NSS
    ("urn:example:a%zz", "urn:example:a%zz", False),  # bad percent-escape in the NSS
    ("urn:", "urn:", False),
    ("http://example.org/x", "http://example.org/x", None),  # not URN-like: untouched
]
URN_LIKE = [row for row in TABLE if row[2] is not None]


def _stream(term: str) -> tuple[str, bool]:
    report = CanonicalizeReport()
    line = f"<{term}> <{P}> \"x\" .\n".encode()
    (out,) = canonicalize_lines([line], report=report)
    return out.decode().split(" ")[0][1:-1], term in report.invalid


def _in_memory(term: str) -> tuple[str, bool]:
    g = Graph()
    g.add((URIRef(term), URIRef(P), Literal("x")))
    result = canonicalize(g)
    (s,) = result.graph.subjects()
    return str(s), term in result.report.invalid


def _store(term: str) -> tuple[str, bool]:
    g = Graph(store="URN")
    g.add((URIRef(term), URIRef(P), Literal("x")))
    (s,) = g.subjects()
    # A SPARQL constant goes through the same rule: the query finds the node by any spelling.
    found = {str(row[0]) for row in g.query(f"SELECT ?o WHERE {{ <{term}> <{P}> ?o }}")}
    assert found == {"x"}
    return str(s), term in g.store.invalid_urns


def _urnref(term: str) -> tuple[str, bool]:
    try:
        return str(URNRef(term)), False
    except NotAURNError:
        return term, True


def _jsonld(term: str) -> tuple[str, bool]:
    c = Canonicalizer()
    out = c.iri(term)
    # JSON-LD also refuses URNs with namespace errors (it canonicalizes them all the same, with
    # the namespace's message): here only the term rule's refusals count.
    return out, term in c.invalid and c.invalid[term] == TermCache().get(term).message


@pytest.mark.parametrize(("term", "output", "usable"), TABLE)
@pytest.mark.parametrize("path", [_stream, _in_memory, _store, _urnref, _jsonld])
def test_paths_agree(path, term, output, usable):
    got, invalid = path(term)
    assert got == output
    if usable is not None:
        assert invalid is (not usable)


def test_jsonld_reports_the_rules_reason():
    c = Canonicalizer()
    assert c.iri("urn:X-foo:Bar") == "urn:X-foo:Bar"
    assert c.invalid["urn:X-foo:Bar"] == TermCache().get("urn:X-foo:Bar").message


def test_dask_agrees(tmp_path):
    pytest.importorskip("distributed")
    from urnld.dask import canonicalize_files

    lines = "".join(f"<{t}> <{P}> \"{t}\" .\n" for t, _o, _u in TABLE)
    src = tmp_path / "in.nt"
    src.write_text(lines)
    report = canonicalize_files([src], tmp_path / "out", workers=1, literals=True)
    out = (tmp_path / "out" / "in.nt").read_text().splitlines()
    stream_report = CanonicalizeReport()
    stream_out = b"".join(
        canonicalize_lines([lines.encode()], literals=True, report=stream_report)
    ).decode().splitlines()
    assert out == stream_out
    for (term, output, usable), line in zip(TABLE, out, strict=True):
        assert line == f'<{output}> <{P}> "{output if usable else term}" .'
        if usable is not None:
            assert (term in report.invalid) is (not usable)
    assert report.invalid == stream_report.invalid


@pytest.mark.parametrize(("term", "output", "usable"), URN_LIKE)
def test_literals_and_ignored_components_follow_the_rule(term, output, usable):
    # Literals (stream and in-memory, literals=True) and ignore_components: the same verdict.
    rule = TermRule(ignore_components=True)
    verdict = rule.verdict(term)
    report = CanonicalizeReport()
    line = f'<http://e/s> <{P}> "{term}" .\n'.encode()
    (out,) = canonicalize_lines([line], literals=True, report=report)
    assert out.decode().split(" ", 2)[2] == f'"{output}" .\n'
    g = Graph()
    g.add((URIRef("http://e/s"), URIRef(P), Literal(term)))
    (o,) = canonicalize(g, literals=True).graph.objects()
    assert str(o) == output
    report = CanonicalizeReport()
    (out,) = canonicalize_lines([f"<{term}> <{P}> \"x\" .\n".encode()], ignore_components=True,
                                report=report)
    assert out.decode().split(" ")[0][1:-1] == verdict.output
    g = Graph()
    g.add((URIRef(term), URIRef(P), Literal("x")))
    (s,) = canonicalize(g, ignore_components=True).graph.subjects()
    assert str(s) == verdict.output
    if usable:
        assert verdict.output == output.split("?")[0].split("#")[0]
