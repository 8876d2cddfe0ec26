"""The CLI takes the same -o for both engines, and a failed Dask job still writes --report."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from urnld.cli import main


def test_local_multi_input_creates_a_missing_outdir(dump: list[Path], tmp_path: Path) -> None:
    plain = [p for p in dump if not p.name.endswith(".gz")][:2]
    out = tmp_path / "new" / "out"
    assert main(["canonicalize", *map(str, plain), "-o", str(out)]) == 0
    assert sorted(p.name for p in out.iterdir()) == sorted(p.name for p in plain)


def test_failed_dask_job_writes_nothing(
    dump: list[Path], dask_scheduler: str, tmp_path: Path, capsys
) -> None:
    src = tmp_path / "in" / "bad.nt"
    src.parent.mkdir()
    lines = dump[0].read_bytes().splitlines(keepends=True)
    lines[1] = b"<urn:example:a> this is not N-Triples .\n"
    lines[5] = b"<urn:example:b> <urn:example:p> .\n"
    src.write_bytes(b"".join(lines))
    good = tmp_path / "in" / "good.nt"
    shutil.copyfile(dump[1], good)
    report = tmp_path / "report.json"
    code = main([
        "canonicalize", "--engine", "dask", "--scheduler", dask_scheduler,
        str(src), str(good), "-o", str(tmp_path / "out"), "--report", str(report),
    ])
    assert code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "bad.nt:2" in err
    # docs/security.md: a run that exits 2 creates and replaces no output, --report included
    # (the one exception is --endpoint's report, which says what the store already holds)
    assert not report.exists()
    assert not (tmp_path / "out").exists()


def test_added_statements_same_on_both_engines(
    dump: list[Path], dask_scheduler: str, tmp_path: Path, capsys
) -> None:
    inputs = [str(p) for p in dump if not p.name.endswith(".gz")][:2]
    flags = ["--link", "--keep-spellings", "--link-resolvers", "-q"]
    local, dask = tmp_path / "local", tmp_path / "dask"
    assert main(["canonicalize", *inputs, "-o", str(local), "--report",
                 str(tmp_path / "l.json"), *flags]) == 0
    assert main(["canonicalize", "--engine", "dask", "--scheduler", dask_scheduler, *inputs,
                 "-o", str(dask), "--report", str(tmp_path / "d.json"), *flags]) == 0
    for name in (Path(p).name for p in inputs):
        assert (local / name).read_bytes() == (dask / name).read_bytes()
    reports = [json.loads((tmp_path / n).read_text()) for n in ("l.json", "d.json")]
    assert reports[0] == reports[1]
    assert reports[0]["added"]["spellings"] > 0


@pytest.mark.parametrize("option", ["--report", "--html"])
@pytest.mark.parametrize("old", ["empty", "missing"])
def test_a_failing_later_output_leaves_the_old_outdir(
    dump: list[Path], dask_scheduler: str, tmp_path: Path, option: str, old: str, capsys
) -> None:
    # The Dask engine renamed OUTDIR into place itself, outside the run's transaction: a
    # --report or --html that could not be written then left OUTDIR replaced after exit 2.
    inputs = [str(p) for p in dump if not p.name.endswith(".gz")][:2]
    work = tmp_path / "work"
    work.mkdir()
    out = work / "out"
    if old == "empty":
        out.mkdir()
        before = os.stat(out).st_ino
    code = main(["canonicalize", "--engine", "dask", "--scheduler", dask_scheduler, *inputs,
                 "-o", str(out), option, str(tmp_path / "no" / "such" / "x"), "-q"])
    assert code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no/such" in err, err
    if old == "empty":
        assert os.stat(out).st_ino == before and list(out.iterdir()) == []
        assert [p.name for p in work.iterdir()] == ["out"]  # no hidden staging left
    else:
        assert list(work.iterdir()) == []
    # The same run with a writable output commits everything together.
    good = tmp_path / "r"
    assert main(["canonicalize", "--engine", "dask", "--scheduler", dask_scheduler, *inputs,
                 "-o", str(out), option, str(good), "-q"]) == 0
    assert good.exists()
    assert sorted(p.name for p in out.iterdir()) == sorted(Path(p).name for p in inputs)
    assert [p.name for p in work.iterdir()] == ["out"]


def test_jsonld_notes_same_on_both_engines(
    dask_scheduler: str, tmp_path: Path, capsys, monkeypatch
) -> None:
    # What reading JSON-LD drops (issue 36) is in the Dask engine's check report too: its
    # document task runs the library's file job, notes included.
    monkeypatch.chdir(tmp_path)
    (tmp_path / "d.jsonld").write_text(json.dumps({
        "@context": {"name": "https://schema.org/name"}, "@id": "urn:example:a",
        "name": "Ada", "nickname": "dropped", "https://schema.org/knows": {"@id": "not an iri"},
    }))
    (tmp_path / "b.nt").write_text("<urn:example:b> <http://e/p> <urn:example:c> .\n")
    outs = []
    for engine in (["--engine", "local"], ["--engine", "dask", "--scheduler", dask_scheduler]):
        assert main(["check", "d.jsonld", "b.nt", "--json", *engine]) == 0
        outs.append(json.loads(capsys.readouterr().out))
    assert outs[0]["notes"] == outs[1]["notes"]
    assert outs[0]["notes"]["codes"] == {"jsonld-dropped-iri": 1, "jsonld-dropped-key": 1}
