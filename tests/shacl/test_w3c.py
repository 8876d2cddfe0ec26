"""The W3C SHACL 1.0 test suite: pyshacl's own result, with urnld loaded and through the plan.

pyshacl 0.40.1 passes 119 of the 120 tests; the one allowed failure is
``sparql/pre-binding/shapesGraph-001`` ($shapesGraph is not supported). The suite runs three
ways, each asserting that exact set of failures:

* plain ``pyshacl.validate`` in this process, after urnld registered its SPARQL functions;
* ``urnld.shacl.validate``, which adds urn.ttl to the shapes, builds pyshacl's Validator itself
  and hands urnsh: components to Python — none of the suite's components is urnld's, so nothing
  may move (its reader keeps literals as written, so its reports are compared with the expected
  results as the manifests write them);
* a fresh interpreter that never imports urnld, whose report graphs must be isomorphic to the
  in-process ones for every core test, messages aside (pyshacl words some messages from sets,
  e.g. sh:in's list, and repeats messages across SPARQL results, in an order that varies
  between interpreters).
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pyshacl
import pytest
from pyshacl.errors import ReportableRuntimeError, ValidationFailure
from pyshacl.validator_conformance import check_sht_result
from rdflib import Graph, Namespace, URIRef
from rdflib.compare import to_canonical_graph
from rdflib.namespace import SH

import urnld.rdf  # noqa: F401  # registers the urnfn: SPARQL functions: "urnld loaded"
from urnld.read import read
from urnld.shacl import ShapesError, validate

# pyshacl's loader reaches rdflib's deprecated Dataset API ~65,000 times per run, and the suite
# itself has a deliberately odd boolean ("none"): both are the libraries' noise, not findings.
pytestmark = [
    pytest.mark.filterwarnings("ignore::DeprecationWarning:rdflib.*"),
    pytest.mark.filterwarnings("ignore:Parsing weird boolean:UserWarning"),
]

MF = Namespace("http://www.w3.org/2001/sw/DataAccess/tests/test-manifest#")
SHT = Namespace("http://www.w3.org/ns/shacl-test#")
ALLOWED_FAILURES = {"sparql/pre-binding/shapesGraph-001"}


@dataclass(frozen=True)
class SHTTest:
    name: str  # e.g. "core/node/class-001"
    file: Path
    data: Path
    shapes: Path
    sht: Graph
    result: URIRef
    entry: URIRef


def _collect(manifest: Path, root: Path, out: list[SHTTest]) -> None:
    g = Graph().parse(manifest, format="turtle", publicID=manifest.as_uri())
    for include in g.objects(None, MF.include):
        _collect(Path(str(include).removeprefix("file://")), root, out)
    for entries in g.objects(None, MF.entries):
        for entry in g.items(entries):
            action = g.value(entry, MF.action)
            out.append(
                SHTTest(
                    name=str(manifest.relative_to(root).with_suffix("")),
                    file=manifest,
                    data=Path(str(g.value(action, SHT.dataGraph)).removeprefix("file://")),
                    shapes=Path(str(g.value(action, SHT.shapesGraph)).removeprefix("file://")),
                    sht=g,
                    result=g.value(entry, MF.result),  # type: ignore[arg-type]
                    entry=entry,
                )
            )


@pytest.fixture(scope="module")
def suite(w3c_dir: Path) -> list[SHTTest]:
    root = w3c_dir / "shacl" / "data-shapes-test-suite" / "tests"
    tests: list[SHTTest] = []
    _collect(root / "manifest.ttl", root, tests)
    return tests


def _parse(path: Path) -> Graph:
    return Graph().parse(path, format="turtle", publicID=path.as_uri())


# What pyshacl's own harness counts as "could not run": a failed test, unless the test expects
# a validation failure (sht:Failure), which check_sht_result recognises.
_CANNOT_RUN = (ReportableRuntimeError, NotImplementedError)


def _run_pyshacl(t: SHTTest) -> object:
    # File paths, as pyshacl's own harness passes them (its loader reads shapes booleans
    # strictly: only "true" is true; uniqueLang-002 depends on that).
    try:
        _, report, _ = pyshacl.validate(str(t.data), shacl_graph=str(t.shapes))
    except _CANNOT_RUN as e:
        return e
    return report


def _run_urnld(t: SHTTest) -> object:
    # The public API: urn.ttl is added to every shapes graph, urnsh: components are installed.
    try:
        return validate(t.data, t.shapes).graph
    except ShapesError as e:
        assert isinstance(e.__cause__, _CANNOT_RUN)
        return e.__cause__


def _faithful(t: SHTTest) -> tuple[Graph, URIRef]:
    # urnld reads the data as written ("2011-01-01"^^xsd:dateTime stays so; rdflib's parser
    # makes it "2011-01-01T00:00:00"), so its report names the values as written: it is
    # compared with the expected results read the same way, as the manifest writes them.
    g = read(t.file, format="turtle", base=t.file.as_uri())
    return g, g.value(t.entry, MF.result)  # type: ignore[return-value]


def _failures(suite: list[SHTTest], runner, *, faithful: bool = False) -> set[str]:
    failed = set()
    for t in suite:
        report = runner(t)
        sht, result = _faithful(t) if faithful else (t.sht, t.result)
        if (isinstance(report, _CANNOT_RUN) and not isinstance(report, ValidationFailure)) or not check_sht_result(report, sht, result):
            failed.add(t.name)
    return failed


def test_the_suite_is_complete(suite: list[SHTTest]) -> None:
    assert len(suite) == 120


def test_pyshacl_with_urnld_functions_registered(suite: list[SHTTest]) -> None:
    assert _failures(suite, _run_pyshacl) == ALLOWED_FAILURES


def test_urnld_driver(suite: list[SHTTest]) -> None:
    assert _failures(suite, _run_urnld, faithful=True) == ALLOWED_FAILURES


_WITHOUT_URNLD = r"""
import json, sys
from pathlib import Path
import pyshacl
from rdflib import Graph
from rdflib.compare import to_canonical_graph
from rdflib.namespace import SH
out = {}
for name, data, shapes in json.load(sys.stdin):
    d = Graph().parse(data, format="turtle", publicID=Path(data).as_uri())
    s = Graph().parse(shapes, format="turtle", publicID=Path(shapes).as_uri())
    _, report, _ = pyshacl.validate(d, shacl_graph=s)
    report.remove((None, SH.resultMessage, None))
    out[name] = sorted(to_canonical_graph(report).serialize(format="nt").splitlines())
assert not any(m == "urnld" or m.startswith("urnld.") for m in sys.modules)
print(json.dumps(out))
"""


@pytest.mark.slow
def test_core_reports_are_identical_to_pyshacl_without_urnld(suite: list[SHTTest]) -> None:
    core = [t for t in suite if t.name.startswith("core/")]
    job = json.dumps([(t.name, str(t.data), str(t.shapes)) for t in core])
    done = subprocess.run([sys.executable, "-c", _WITHOUT_URNLD], input=job, text=True,
                          capture_output=True, check=True, timeout=600)
    expected = json.loads(done.stdout)
    assert len(expected) == len(core)
    for t in core:
        _, report, _ = pyshacl.validate(_parse(t.data), shacl_graph=_parse(t.shapes))
        report.remove((None, SH.resultMessage, None))
        got = sorted(to_canonical_graph(report).serialize(format="nt").splitlines())
        assert got == expected[t.name], t.name


def test_every_core_test_runs_on_the_compiled_plan(suite: list[SHTTest]) -> None:
    # test_urnld_driver proves the results; this, that the plan (not pyshacl) produced them.
    for t in suite:
        if not t.name.startswith("core/"):
            continue
        engines = validate(t.data, t.shapes).engines
        assert set(engines.values()) <= {"plan"}, (t.name, engines)
