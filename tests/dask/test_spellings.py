"""The spelling modes (repair, link/merge locators) on the Dask engine equal the local run:
same output bytes per file, same merged report, whether a file is split into partitions,
sent whole, or read as a document.

The data: tests/data/mixed/mixed.nt (URNs, their resolver addresses, EPC URNs and their GS1
Digital Links from GS1's EPCIS 2.0 and TDS examples, RFC 9562 §4's UUID in its other
formats), the same in Turtle, and a larger N-Triples file that repeats its kinds of terms
with distinct values, so that a locator and its URN, or a repaired UUID and its other
spelling, fall into different partitions.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

import pytest
from rdflib import Graph

from urnld.cli import main
from urnld.dask import canonicalize_files
from urnld.report import CanonicalizeReport
from urnld.stream import canonicalize_file

MIXED = Path(__file__).resolve().parents[1] / "data" / "mixed" / "mixed.nt"
PART = 20_000  # bytes: the large file is cut into about ten partitions
DCT = "http://purl.org/dc/terms/"
LENGTHS = {"4012345": 7, "0614141": 7}


def _large(path: Path) -> Path:
    lines = []
    for k in range(700):
        doi = f"10.1000/{k}"
        h = f"{k:032x}"
        hyphenated = f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"
        lines += [
            f'<https://doi.org/{doi}> <{DCT}title> "Record {k}" .',
            f'<urn:nbn:de:bvb:19-{k}> <{DCT}identifier> "{k}" .',
            f'<urn:uuid:{h.upper()}> <{DCT}title> "Breaker {k}" .',
            f'<http://example.org/item/{k}> <{DCT}relation> <urn:uuid:_{hyphenated}> .',
        ]
    for k in range(700):  # the twins, far from their locators: other partitions
        lines += [
            f'<urn:doi:10.1000/{k}> <{DCT}references> <HTTP://DX.DOI.ORG/10.1000/{k + 1}> .',
            f'<http://nbn-resolving.de/urn:nbn:de:bvb:19-{k}> <{DCT}format> "application/pdf" .',
            f'<urn:uuid:{k:032x}> <{DCT}isReplacedBy> <https://id.gs1.org/00/106141412345678908> .',
        ]
    path.write_text("\n".join(lines) + "\n" + MIXED.read_text(encoding="utf-8"), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    d = tmp_path_factory.mktemp("spellings")
    small = d / "mixed.nt"
    small.write_bytes(MIXED.read_bytes())
    turtle = d / "mixed.ttl"
    turtle.write_text(Graph().parse(MIXED, format="nt").serialize(format="turtle"),
                      encoding="utf-8")
    return [_large(d / "large.nt"), small, turtle]


MODES: list[dict[str, Any]] = [
    {"repair": True, "link_locators": True, "keep_spellings": True},
    {"repair": True, "merge_locators": True, "keep_spellings": True},
    {"link_locators": True, "prefix_lengths": LENGTHS, "link": True},
    {"merge_locators": True, "prefix_lengths": LENGTHS, "literals": True},
]


@pytest.mark.parametrize("opts", MODES, ids=lambda o: "+".join(sorted(o)))
def test_dask_equals_local(
    inputs: list[Path], dask_scheduler: str, tmp_path: Path, opts: dict[str, Any]
) -> None:
    local = tmp_path / "local"
    local.mkdir()
    reports = [
        canonicalize_file(p, local / p.name, jobs=1, **opts,
                          input_format="turtle" if p.suffix == ".ttl" else None)
        for p in inputs
    ]
    expected = functools.reduce(CanonicalizeReport.merge, reports)
    out = tmp_path / "dask"
    report = canonicalize_files(inputs, out, scheduler=dask_scheduler, partition_size=PART,
                                **opts)
    assert report == expected
    assert report.to_dict() == expected.to_dict()
    for p in inputs:
        assert (out / p.name).read_bytes() == (local / p.name).read_bytes(), p.name
    d = report.to_dict()
    assert d["repairs"] if opts.get("repair") else "repairs" not in d
    assert report.locator_occurrences > 0
    if opts.get("merge_locators"):
        assert report.locators_merged > 0
    else:
        assert report.same_as_added > 0


def test_cli_dask_equals_local(inputs: list[Path], dask_scheduler: str, tmp_path: Path,
                               capsys: pytest.CaptureFixture[str]) -> None:
    files = [str(p) for p in inputs]
    for flags in (["--repair", "--link-locators"], ["--repair", "--merge-locators"]):
        local, dask = tmp_path / "local", tmp_path / "dask"
        assert main(["canonicalize", *files, "-o", str(local), "--report",
                     str(tmp_path / "l.json"), "-q", *flags]) == 0
        assert main(["canonicalize", "--engine", "dask", "--scheduler", dask_scheduler,
                     *files, "-o", str(dask), "--report", str(tmp_path / "d.json"), "-q",
                     *flags]) == 0
        for p in inputs:
            assert (local / p.name).read_bytes() == (dask / p.name).read_bytes()
        reports = [json.loads((tmp_path / n).read_text()) for n in ("l.json", "d.json")]
        assert reports[0] == reports[1]
        assert reports[0]["repairs"] and reports[0]["locators"]
        for d in (local, dask):
            for f in d.iterdir():
                f.unlink()
            d.rmdir()
