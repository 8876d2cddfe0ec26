"""``--engine dask`` reads every syntax the reader reads, with the local engine's results.

Small documents in every syntax are written by rdflib from the first statements of the shared
dump (its URNs come in many spellings, invalid ones included, with blank nodes and named graphs).
For each, both engines run ``check`` and ``canonicalize``: the reports must be equal and the
outputs must hold the same statements, in the same syntax. URN-base hazards, the offline JSON-LD
catalog and the clean-up after an error are checked the same way.
"""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from pathlib import Path

import pyoxigraph as ox
import pytest
from rdflib import Dataset, Graph

from urnld.cli import main
from urnld.dask import canonicalize_files, check_files
from urnld.rdf import check_graph
from urnld.read import ReadError, read

LINES = 240  # statements taken from each dump file: a few dozen subjects, every URN kind

# extension -> (the reader's syntax, whether the document holds named graphs)
SYNTAXES = {
    "ttl": ("turtle", False),
    "n3": ("n3", False),
    "rdf": ("xml", False),
    "nt": ("nt", False),
    "ttl.gz": ("turtle", False),  # read through gzip, written gzipped, as locally
    "trig": ("trig", True),
    "nq": ("nquads", True),
    "jsonld": ("json-ld", True),
    "trix": ("trix", True),
    "hext": ("hext", True),
}


@pytest.fixture(scope="module")
def documents(dump: list[Path], tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The same statements in every syntax: triples from an N-Triples part of the dump, quads
    (named graphs and the default graph) from its N-Quads part."""
    root = tmp_path_factory.mktemp("syntaxes")
    nq = next(p for p in dump if p.suffix == ".nq")
    triples = b"".join(dump[0].read_bytes().splitlines(keepends=True)[:LINES])
    quads = b"".join(nq.read_bytes().splitlines(keepends=True)[:LINES])
    assert b"> <urn:" in quads or b"> <Urn:" in quads or b"> <URN:" in quads  # named graphs
    graph = Graph().parse(data=triples, format="nt")
    dataset = Dataset().parse(data=quads, format="nquads")
    out = {}
    for ext, (fmt, has_quads) in SYNTAXES.items():
        path = root / f"doc-{ext.split('.')[0]}.{ext}"
        data = (dataset if has_quads else graph).serialize(format=fmt, encoding="utf-8")
        path.write_bytes(gzip.compress(data, mtime=0) if ext.endswith(".gz") else data)
        out[ext] = path
    return out


def _statements(path: Path, fmt: str) -> set[str]:
    """The statements of *path* as RDFC-1.0 canonical N-Quads lines (blank-node labels do not
    matter; URN spellings do: nothing is canonicalized here)."""
    data = read(path, format=fmt, hazards="ignore")  # the invalid URNs stay in the output
    if not isinstance(data, Dataset):
        data = Dataset().parse(data=data.serialize(format="nt", encoding="utf-8"), format="nt")
    ds = ox.Dataset(ox.parse(data.serialize(format="nquads", encoding="utf-8"),
                             ox.RdfFormat.N_QUADS))
    ds.canonicalize(ox.CanonicalizationAlgorithm.RDFC_1_0)
    return {str(q) for q in ds}


def _dask(scheduler: str) -> list[str]:
    return ["--engine", "dask", "--scheduler", scheduler]


@pytest.mark.parametrize("ext", sorted(SYNTAXES))
def test_every_syntax_same_report_and_statements_as_local(
    ext: str, documents: dict[str, Path], dask_scheduler: str, tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    doc, (fmt, _) = documents[ext], SYNTAXES[ext]
    flags = ["--hazards", "warn"]
    results = {}
    for engine, engine_flags in (("local", []), ("dask", _dask(dask_scheduler))):
        out = tmp_path / engine
        out.mkdir()  # an existing directory: the local engine writes OUT/<name> into it
        report = tmp_path / f"{engine}-canonicalize.json"
        checked = tmp_path / f"{engine}-check.json"
        assert main(["canonicalize", str(doc), "-o", str(out), "--report", str(report), "-q",
                     *flags, *engine_flags]) == 0
        code = main(["check", str(doc), "--json", "-o", str(checked), *flags, *engine_flags])
        results[engine] = (
            code, json.loads(report.read_text()), json.loads(checked.read_text()),
            _statements(out / doc.name, fmt),  # read in the input's syntax: written in it
            capsys.readouterr().err,  # the same warnings, if any
        )
    assert results["dask"] == results["local"]
    code, canonicalized, checked, statements, warnings = results["dask"]
    assert canonicalized["urns"]["rewritten"] > 0 and checked["urns"]["iris"] > 0
    assert code == (1 if checked["invalid"]["occurrences"] else 0)
    assert statements != _statements(doc, fmt)  # something was rewritten
    # Streamed on both engines: an invalid URN as a JSON-LD id is a finding of the report, not a
    # hazard to warn about.
    assert "warning:" not in warnings
    if ext.endswith(".gz"):
        assert (tmp_path / "dask" / doc.name).read_bytes()[:2] == b"\x1f\x8b"


@pytest.mark.parametrize(("ext", "flags", "read_as"), [
    # a line input whose output is written from a graph
    ("nt", ["--output-format", "turtle"], "turtle"),
    # N-Quads to N-Triples: named graphs refused, as locally
    ("nq", ["--output-format", "nt"], "nt"),
    ("trig", ["--output-format", "nquads"], "nquads"),
    # IRIs that are not URNs normalized: in memory, as locally
    ("nt", ["--iris", "rfc3986"], "nt"),
])
def test_output_format_and_iris_as_local(
    ext: str, flags: list[str], read_as: str, documents: dict[str, Path],
    dask_scheduler: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    doc = documents[ext]
    results = []
    for engine, engine_flags in (("local", []), ("dask", _dask(dask_scheduler))):
        out = tmp_path / engine
        out.mkdir()
        report = tmp_path / f"{engine}.json"
        code = main(["canonicalize", str(doc), "-o", str(out), "-q", "--report", str(report),
                     *flags, *engine_flags])
        results.append((
            code, capsys.readouterr().err,
            _statements(out / doc.name, read_as) if code == 0 else None,
            json.loads(report.read_text()) if code == 0 else None,
        ))
    assert results[0] == results[1]
    code, err, statements, _ = results[1]
    if ext == "nq":
        assert code == 2 and "has named graphs, which nt cannot hold" in err
    else:
        assert code == 0 and statements


HAZARDS = {
    # Turtle: <c> against a URN @base has no agreed meaning (docs/bases.md).
    "haz.ttl": "@base <urn:example:doc> .\n<#s> <urn:example:p> <c> .\n",
    # JSON-LD: the same with a context @base (json-ld.org #849).
    "haz.jsonld": '{"@context": {"@base": "urn:example:a:b"}, "@id": "c", '
                  '"urn:example:p": "x"}\n',
}


@pytest.mark.parametrize("name", sorted(HAZARDS))
def test_urn_base_hazard_same_finding_and_exit_status(
    name: str, dask_scheduler: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    doc = tmp_path / name
    doc.write_text(HAZARDS[name])
    seen = []
    for flags in ([], _dask(dask_scheduler)):
        check = main(["check", str(doc), *flags])
        check_err = capsys.readouterr().err
        out = tmp_path / f"out{len(seen)}"
        out.mkdir()
        warn = main(["canonicalize", str(doc), "-o", str(out), "-q", "--hazards", "warn",
                     *flags])
        warn_err = capsys.readouterr().err
        seen.append((check, check_err, warn, warn_err, (out / name).read_bytes()))
    assert seen[0] == seen[1]
    check, check_err, warn, warn_err, _ = seen[1]
    assert check == 2 and check_err.count("\n") == 1 and check_err.endswith("[urn-base]\n")
    assert warn == 0 and "warning:" in warn_err and "continuing with <urn:c>" in warn_err


def test_jsonld_example_with_its_catalog(
    repo_root: Path, dask_scheduler: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A relative --catalog: the workers run in another directory, so it must reach them whole.
    monkeypatch.chdir(repo_root / "examples" / "jsonld")
    results = []
    for flags in ([], _dask(dask_scheduler)):
        out = tmp_path / f"out{len(results)}"
        out.mkdir()
        report = tmp_path / f"r{len(results)}.json"
        checked = tmp_path / f"c{len(results)}.json"
        args = ["vc-credential.jsonld", "--catalog", "catalog", *flags]
        assert main(["canonicalize", *args, "-o", str(out), "--report", str(report), "-q"]) == 0
        assert main(["check", *args, "--json", "-o", str(checked)]) == 0
        results.append((json.loads(report.read_text()), json.loads(checked.read_text()),
                        _statements(out / "vc-credential.jsonld", "json-ld")))
    assert results[0] == results[1]
    # The credential's subject, spelled three ways, is one node (the example's point).
    assert results[1][0]["clusters"]["urn:uuid:9c5b94b1-35ad-49bb-b118-8e8fc24abf80"]


def test_an_unreadable_document_leaves_nothing_behind(
    documents: dict[str, Path], dask_scheduler: str, tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    inputs = tmp_path / "in"
    inputs.mkdir()
    bad = inputs / "haz.ttl"
    bad.write_text(HAZARDS["haz.ttl"])
    # A streamed file and a whole document that succeed next to the one that fails.
    good = [documents["nt"], documents["ttl"]]
    before = sorted(p.name for p in inputs.iterdir())
    work = tmp_path / "work"
    work.mkdir()
    code = main(["canonicalize", *map(str, good), str(bad), "-o", str(work / "out"), "-q",
                 *_dask(dask_scheduler)])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and str(bad) in err and "[urn-base]" in err
    assert list(work.iterdir()) == []  # no output, no hidden temporary directory
    assert sorted(p.name for p in inputs.iterdir()) == before
    # And after a success: the outputs only.
    assert main(["canonicalize", *map(str, good), "-o", str(work / "out"), "-q",
                 *_dask(dask_scheduler)]) == 0
    assert [p.name for p in work.iterdir()] == ["out"]
    assert sorted(p.name for p in (work / "out").iterdir()) == sorted(p.name for p in good)


def test_python_api_reads_documents(documents: dict[str, Path], dask_scheduler: str,
                                    tmp_path: Path) -> None:
    doc = documents["ttl"]
    assert check_files([doc], scheduler=dask_scheduler) == check_graph(read(doc))
    data = tmp_path / "doc.data"  # no extension the reader knows: input_format says
    data.write_bytes(doc.read_bytes())
    report = canonicalize_files([data], tmp_path / "out", scheduler=dask_scheduler,
                                input_format="turtle", output_format="nt")
    assert report.rewritten > 0
    assert _statements(tmp_path / "out" / "doc.data", "nt")


def test_bad_reading_options_fail_before_any_cluster(documents: dict[str, Path],
                                                     tmp_path: Path) -> None:
    # No scheduler is reachable at this address: the errors must come first.
    nowhere = "tcp://127.0.0.1:9"
    with pytest.raises(ReadError, match="cannot tell the RDF syntax"):
        data = tmp_path / "x.data"
        data.write_text("")
        check_files([data], scheduler=nowhere)
    with pytest.raises(ReadError, match="hazards must be"):
        check_files([documents["ttl"]], scheduler=nowhere, hazards="loud")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown output format 'yaml'"):
        canonicalize_files([documents["ttl"]], tmp_path / "o", scheduler=nowhere,
                           output_format="yaml")
    assert not (tmp_path / "o").exists()


def test_check_goes_on_past_unreadable_inputs_as_local(
    documents: dict[str, Path], dask_scheduler: str, tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    bad = tmp_path / "haz.ttl"
    bad.write_text(HAZARDS["haz.ttl"])
    inputs = [str(documents["ttl"]), str(bad), str(tmp_path / "missing.nt"),
              str(documents["nt"])]
    seen = []
    for flags in ([], _dask(dask_scheduler)):
        for out in (["--json"], []):
            code = main(["check", *inputs, *out, *flags])
            seen.append((code, *capsys.readouterr()))
    assert seen[2:] == seen[:2]  # exit status, stdout (JSON, then text) and stderr
    code, stdout, _ = seen[2]
    assert code == 2
    report = json.loads(stdout)
    assert [u["source"] for u in report["unreadable"]] == inputs[1:3]
    # Both readable inputs were checked.
    assert report["statements"] == sum(len(read(documents[e])) for e in ("ttl", "nt"))
    _, text, err = seen[3]
    assert "incomplete" in text.lower() and err.count("\n") == 2 and "[urn-base]" in err


def test_streaming_tasks_do_not_load_the_reader() -> None:
    # A worker imports urnld.dask._tasks to run any task; one that only streams line partitions
    # must not pay for rdflib and pyld (about 0.15 s of CPU and tens of MB per worker).
    code = ("import sys, urnld.dask._tasks, urnld.dask; "
            "print(sorted(m for m in ('rdflib', 'pyld') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == "[]"
