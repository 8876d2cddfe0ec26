"""canonicalize(iris="rfc3986"): the RFC 3986 §6 ladder for IRIs that are not URNs, opt-in."""

from __future__ import annotations

import pytest
from rdflib import Graph, Literal, URIRef

from urnld.cli import main
from urnld.rdf import canonicalize
from urnld.rdf._iris import normalize_iri

P = URIRef("http://purl.org/dc/terms/title")


@pytest.mark.parametrize(("spellings", "normal"), [
    # RFC 3986 §6.2.2, the example given there for syntax-based normalization.
    (["example://a/b/c/%7Bfoo%7D", "eXAMPLE://a/./b/../b/%63/%7bfoo%7d"],
     "example://a/b/c/%7Bfoo%7D"),
    # RFC 3986 §6.2.3: the four equivalent http URIs given there.
    (["http://example.com", "http://example.com/", "http://example.com:/",
      "http://example.com:80/"], "http://example.com/"),
    # The pair.
    (["HTTP://Example.ORG:80/a/./b/../c%7e", "http://example.org/a/c~"],
     "http://example.org/a/c~"),
])
def test_equivalent_spellings_become_one(spellings, normal):
    assert {normalize_iri(s) for s in spellings} == {normal}
    g = Graph()
    for s in spellings:
        g.add((URIRef(s), P, Literal("x")))
    out = canonicalize(g, iris="rfc3986").graph
    assert {str(s) for s in out.subjects()} == {normal}
    assert len(canonicalize(g).graph) == len(spellings)  # off by default


@pytest.mark.parametrize("text", [
    "URN:ISBN:0-395-36341-1",  # URNs: RFC 8141 §4.2, opaque to generic processors
    "urn:example:a/./b/../c",
    "http://例え.jp/ä",  # not ASCII: RFC 3987 normalization is not attempted
    "file:///a/./b",  # rfc3986 would drop the empty authority: kept as written
    "mailto:Foo@Example.ORG",  # no authority: case of the path is significant
])
def test_left_as_written(text):
    assert normalize_iri(text) == text


def test_urns_still_get_urnld_rule_not_rfc3986():
    g = Graph()
    g.add((URIRef("URN:ISBN:0-395-36341-1"), P, Literal("x")))
    out = canonicalize(g, iris="rfc3986").graph
    assert [str(s) for s in out.subjects()] == ["urn:isbn:0395363411"]
    with pytest.raises(ValueError, match="iris must be 'as-is' or 'rfc3986'"):
        canonicalize(g, iris="yes")  # type: ignore[arg-type]


def test_cli(tmp_path, capsys):
    src = tmp_path / "x.nt"
    src.write_text('<HTTP://Example.ORG:80/a/./b/../c%7e> <http://e.org/p> "1" .\n'
                   '<http://example.org/a/c~> <http://e.org/p> "1" .\n')
    assert main(["canonicalize", str(src), "--iris", "rfc3986"]) == 0
    assert capsys.readouterr().out == '<http://example.org/a/c~> <http://e.org/p> "1" .\n'
    assert main(["canonicalize", str(src)]) == 0
    assert capsys.readouterr().out.count("\n") == 2


def test_merged_iris_are_counted(tmp_path, capsys):
    # RFC 3986 §6.2.3's four spellings of one http URI, one already normal: three rewritten
    # (in four statements: the same IRI as subject and object counts once), one normal form.
    src = tmp_path / "x.nt"
    src.write_text('<http://example.com> <http://e.org/p> "1" .\n'
                   '<http://example.com:/> <http://e.org/p> <http://example.com:/> .\n'
                   '<http://example.com:80/> <http://e.org/p> "3" .\n'
                   '<http://example.com/> <http://e.org/p> "4" .\n'
                   '<http://example.com:80/> <http://e.org/q> "5" .\n')
    report = tmp_path / "r.json"
    findings = tmp_path / "f.jsonl"
    assert main(["canonicalize", str(src), "--iris", "rfc3986", "-o", str(tmp_path / "o.nt"),
                 "--report", str(report), "--findings", str(findings)]) == 0
    err = capsys.readouterr().err
    assert ("merged 3 spellings of other IRIs into 1 RFC 3986 normal form "
            "(4 occurrences rewritten)") in err
    import json

    d = json.loads(report.read_text(encoding="utf-8"))
    assert d["iris"] == {"rewritten": 4, "spellings": 3, "normal_forms": 1}
    records = [json.loads(line) for line in findings.read_text(encoding="utf-8").splitlines()]
    assert records == [{"kind": "iri", "canonical": "http://example.com/", "count": 4,
                        "spellings": {"http://example.com": 1, "http://example.com:/": 1,
                                      "http://example.com:80/": 2}}]
    # off by default: nothing merged, nothing counted
    assert main(["canonicalize", str(src), "-o", str(tmp_path / "p.nt"),
                 "--report", str(report)]) == 0
    assert json.loads(report.read_text(encoding="utf-8"))["iris"]["rewritten"] == 0
