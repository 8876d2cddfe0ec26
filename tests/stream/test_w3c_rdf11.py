"""The W3C RDF 1.1 test suites of Turtle, TriG, N-Triples and N-Quads through the streaming
path (``canonicalize_file``), whichever reader is active: libserd (the native quad path), the
pyoxigraph path (``URNLD_SERD=0``) or pure Python (``URNLD_PURE_PYTHON=1``).

* every syntax test gets the verdict the suite expects, which is also pyoxigraph's own (checked
  here too), but for the differences named in ``KNOWN``, from ``canonicalize`` and from
  ``check`` of Turtle and TriG (on the serd path a check reads documents with ``[ ]`` and
  ``( )`` itself, which ``canonicalize`` hands to pyoxigraph for its statement order);
* every document the suite says is valid comes out, in each output syntax the path writes,
  as the statements the suite's result file holds (isomorphic: blank nodes may be renamed).

The suites are vendored under ``tests/data/w3c/rdf11`` (see its README). Each test's base IRI is
the manifest's ``mf:assumedTestBase`` and its file name, as the suite says.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

import pyoxigraph as ox
import pytest

from urnld.errors import URNError
from urnld.stream import canonicalize_file, check_file
from urnld.stream._serd import usable

SUITES = Path(__file__).resolve().parents[1] / "data" / "w3c" / "rdf11"
MF = "http://www.w3.org/2001/sw/DataAccess/tests/test-manifest#"
RDFT = "http://www.w3.org/ns/rdftest#"
RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
FORMATS = {"turtle": ox.RdfFormat.TURTLE, "trig": ox.RdfFormat.TRIG,
           "nt": ox.RdfFormat.N_TRIPLES, "nquads": ox.RdfFormat.N_QUADS}
EXTENSIONS = {"turtle": "ttl", "trig": "trig", "nt": "nt", "nquads": "nq"}
# suite folder -> (syntax, base of the test IRIs, output syntaxes that hold its statements)
SUITE = {
    "rdf-turtle": ("turtle", "https://w3c.github.io/rdf-tests/rdf/rdf11/rdf-turtle/",
                   ("turtle", "trig", "nt", "nquads")),
    "rdf-trig": ("trig", "https://w3c.github.io/rdf-tests/rdf/rdf11/rdf-trig/",
                 ("trig", "nquads")),
    "rdf-n-triples": ("nt", "http://www.w3.org/2013/N-TriplesTests/", ("turtle", "trig")),
    "rdf-n-quads": ("nquads", "http://www.w3.org/2013/N-QuadsTests/", ("trig",)),
}

# Verdicts that differ from the suite's, by reader: (suite, file) -> why. The N-Triples and
# N-Quads line pass (the pyoxigraph path's reader of those syntaxes, which keeps terms byte
# for byte) takes an IRI reference as written, relative ones too; the serd reader, like
# pyoxigraph, refuses them.
LINE_PASS_KNOWN = {
    ("rdf-n-triples", name): "the line pass takes a relative IRI in N-Triples as written"
    for name in ("nt-syntax-bad-uri-06.nt", "nt-syntax-bad-uri-07.nt",
                 "nt-syntax-bad-uri-08.nt", "nt-syntax-bad-uri-09.nt")
} | {
    ("rdf-n-quads", name): "the line pass takes a relative IRI in N-Quads as written"
    for name in ("nq-syntax-bad-uri-01.nq", "nt-syntax-bad-uri-06.nq",
                 "nt-syntax-bad-uri-07.nq", "nt-syntax-bad-uri-08.nq",
                 "nt-syntax-bad-uri-09.nq")
}


class Case(NamedTuple):
    name: str
    kind: str  # rdft type without its namespace: TestTurtleEval, TestNQuadsNegativeSyntax …
    action: Path
    result: Path | None
    base: str

    @property
    def valid(self) -> bool:
        return "Negative" not in self.kind


def cases(suite: str) -> Iterator[Case]:
    folder = SUITES / suite
    _syntax, base, _outs = SUITE[suite]
    subjects: dict[object, dict[str, object]] = {}
    for q in ox.parse(path=str(folder / "manifest.ttl"), format=ox.RdfFormat.TURTLE,
                      base_iri=base + "manifest.ttl"):
        subjects.setdefault(q.subject, {})[q.predicate.value] = q.object
    for props in subjects.values():
        kind = props.get(RDF_TYPE)
        if not isinstance(kind, ox.NamedNode) or not kind.value.startswith(RDFT):
            continue
        action = props[MF + "action"]
        result = props.get(MF + "result")
        assert isinstance(action, ox.NamedNode)
        file = action.value.rsplit("/", 1)[1]
        yield Case(file, kind.value[len(RDFT):], folder / file,
                   folder / result.value.rsplit("/", 1)[1]
                   if isinstance(result, ox.NamedNode) else None, base + file)


def _ox_reads(path: Path, syntax: str, base: str) -> bool:
    try:
        list(ox.parse(path=str(path), format=FORMATS[syntax], base_iri=base))
    except (SyntaxError, ValueError):
        return False
    return True


def _canonical(quads: object) -> set[str]:
    dataset = ox.Dataset(quads)  # type: ignore[arg-type]
    dataset.canonicalize(ox.CanonicalizationAlgorithm.UNSTABLE)
    return {str(q) for q in dataset}


def _known(suite: str, syntax: str, out: str) -> dict[tuple[str, str], str]:
    # The line pass reads N-Triples / N-Quads on its own way only where serd does not.
    return {} if usable(syntax, out) else LINE_PASS_KNOWN


@pytest.mark.parametrize("suite", sorted(SUITE))
def test_syntax_verdicts(tmp_path: Path, suite: str) -> None:
    syntax, _base, outs = SUITE[suite]
    out = outs[0]
    known = _known(suite, syntax, out)
    wrong = []
    count = 0
    for case in cases(suite):
        count += 1
        assert _ox_reads(case.action, syntax, case.base) == case.valid, case.name
        try:
            canonicalize_file(case.action, tmp_path / f"out.{EXTENSIONS[out]}",
                              input_format=syntax, output_format=out, base=case.base, jobs=1)
            read = True
        except URNError:
            read = False
        checked = read
        if syntax in ("turtle", "trig"):  # (N-Triples, N-Quads: the check's own line pass)
            try:
                check_file(case.action, input_format=syntax, base=case.base, jobs=1)
                checked = True
            except URNError:
                checked = False
        if read != case.valid and (suite, case.name) not in known:
            wrong.append(f"{case.name} ({case.kind}): {'read' if read else 'refused'}")
        if checked != read:
            wrong.append(f"{case.name} ({case.kind}): check {'read' if checked else 'refused'}")
        if read == case.valid:
            assert (suite, case.name) not in known, f"{case.name} is no longer a difference"
    assert count > 50
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("suite", sorted(SUITE))
def test_evaluation(tmp_path: Path, suite: str) -> None:
    syntax, _base, outs = SUITE[suite]
    result_syntax = "nquads" if syntax in ("trig", "nquads") else "nt"
    wrong = []
    count = 0
    for case in cases(suite):
        if not case.valid:
            continue
        expected_file, expected_syntax = (
            (case.result, result_syntax) if case.result is not None else (case.action, syntax))
        expected = _canonical(ox.parse(path=str(expected_file), format=FORMATS[expected_syntax],
                                       base_iri=case.base))
        for out in outs:
            count += 1
            dst = tmp_path / f"out.{EXTENSIONS[out]}"
            canonicalize_file(case.action, dst, input_format=syntax, output_format=out,
                              base=case.base, jobs=1)
            got = _canonical(ox.parse(path=str(dst), format=FORMATS[out]))
            if got != expected:
                wrong.append(f"{case.name} as {out}: {sorted(got ^ expected)[:2]}")
    assert count > 50
    assert not wrong, "\n".join(wrong)
