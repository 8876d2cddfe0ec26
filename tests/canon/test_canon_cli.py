"""``urnld canonicalize`` and ``urnld check``: exit codes, one-line errors, atomic output."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from rdflib import Dataset, Graph
from rdflib.compare import isomorphic

from urnld.cli import main
from urnld.rdf import canonicalize, digest

CATALOG = Path(__file__).resolve().parents[2] / "examples" / "catalog" / "catalog.ttl"
P = "<http://e/p>"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def nt(tmp_path: Path) -> Path:
    f = tmp_path / "data.nt"
    f.write_text(
        f"<URN:ISBN:0-395-36341-1> {P} <urn:isbn:0395363411> .\n"
        f'<urn:ISBN:0395363411> {P} "URN:ISBN:0395363411" .\n'
    )
    return f


# -- check ------------------------------------------------------------------------------------


def test_check_exit_0_when_clean(capsys, tmp_path):
    f = tmp_path / "ok.nt"
    f.write_text(f"<urn:isbn:0395363411> {P} <URN:ISBN:0-395-36341-1> .\n")
    code, out, err = run(capsys, "check", str(f))
    assert code == 0
    assert out.startswith("OK: 0 invalid URNs (0 occurrences); 1 valid URN spelling not")
    assert "scanned 1 statement: 2 URN occurrences" in out
    assert "1 URN spelled several ways" in out
    assert err == ""


def test_check_exit_1_on_invalid_urns_and_json_shape(capsys):
    code, out, _ = run(capsys, "check", "--json", str(CATALOG))
    assert code == 1
    d = json.loads(out)
    assert d["kind"] == "check"
    assert d["ok"] is False
    assert d["inputs"] == [str(CATALOG)]
    assert d["unreadable"] == []
    assert set(d["invalid"]["urns"]) == {
        "urn:isbn:9780141439519", "urn:X-LOCAL:shelf-42", "urn:isbn:12345",
        "urn:x-inspire:specification:gmlas:BaseTypes:3.2"}
    assert d["invalid"]["urns"]["urn:isbn:9780141439519"]["finding"].startswith(
        "nss-check-digit")
    groups = d["clusters"]["groups"]
    assert set(groups["urn:isbn:9780141439518"]) == {
        "urn:isbn:9780141439518", "URN:ISBN:978-0-14-143951-8", "urn:ISBN:978-0-14-143951-8"}
    assert d["nids"]["isbn"] > 0
    assert d["findings"]["not-canonical"] > 0
    assert d["urns"]["literals"] == 3
    # the JSON is stable: same run, same bytes
    assert run(capsys, "check", "--json", str(CATALOG))[1] == out


def test_check_exit_2_on_unreadable_input_one_line(capsys, tmp_path):
    code, _out, err = run(capsys, "check", str(tmp_path / "missing.nt"))
    assert code == 2
    assert err.count("\n") == 1
    assert "missing.nt" in err
    assert "Traceback" not in err
    bad = tmp_path / "bad.ttl"
    bad.write_text("this is not turtle <")
    code, _, err = run(capsys, "check", str(bad))
    assert code == 2
    assert err.startswith("urnld check: error: ") and err.count("\n") == 1


def test_check_malformed_nt_line_is_exit_2_with_file_and_line(capsys, tmp_path, nt):
    f = tmp_path / "broken.nt"
    f.write_text(nt.read_text() + "not a statement\n")
    code, out, err = run(capsys, "check", str(nt), str(f))
    assert code == 2
    assert f"{f}:3: " in err
    assert "incomplete" in out.lower()


# -- canonicalize -----------------------------------------------------------------------------


def test_canonicalize_nt_streamed_with_report(capsys, tmp_path, nt):
    out = tmp_path / "out.nt"
    rep = tmp_path / "r.json"
    before = nt.read_bytes()
    code, stdout, err = run(capsys, "canonicalize", str(nt), "-o", str(out), "--report", str(rep))
    assert code == 0
    assert stdout == ""
    assert err.startswith("urnld canonicalize: 2 statements in, 2 written (duplicates not merged "
                          "in streaming mode)") and err.count("\n") == 1
    assert out.read_text() == (
        f"<urn:isbn:0395363411> {P} <urn:isbn:0395363411> .\n"
        f'<urn:isbn:0395363411> {P} "URN:ISBN:0395363411" .\n'
    )
    assert nt.read_bytes() == before
    d = json.loads(rep.read_text())
    # streamed: duplicates are not looked for, so their number is unknown (null), not 0
    assert d["statements"] == {"in": 2, "out": 2, "duplicates_merged": None}
    assert d["clusters"]["urn:isbn:0395363411"] == {
        "URN:ISBN:0-395-36341-1": 1, "urn:ISBN:0395363411": 1, "urn:isbn:0395363411": 1}


def test_canonicalize_literals_and_stdout(capsys, nt):
    code, stdout, _ = run(capsys, "canonicalize", str(nt), "--literals")
    assert code == 0
    assert '"urn:isbn:0395363411"' in stdout


def test_canonicalize_turtle_catalog_any_format(capsys, tmp_path):
    out = tmp_path / "catalog.canon.ttl"
    code, _, _ = run(capsys, "canonicalize", str(CATALOG), "-o", str(out), "--literals")
    assert code == 0
    got = Graph().parse(out, format="turtle")
    expected = canonicalize(Graph().parse(CATALOG), literals=True).graph
    assert isomorphic(got, expected)
    # other output formats
    for fmt, ext in [("xml", "rdf"), ("json-ld", "jsonld"), ("nt", "nt")]:
        target = tmp_path / f"c.{ext}"
        assert run(capsys, "canonicalize", str(CATALOG), "--literals", "--format", fmt,
                   "-o", str(target))[0] == 0
        assert isomorphic(Graph().parse(target, format=fmt), expected)


def test_canonicalize_rdfc_output_is_the_digest_input(capsys, tmp_path, nt):
    for src in (nt, CATALOG):
        out = tmp_path / (src.stem + ".nq")
        assert run(capsys, "canonicalize", str(src), "--rdfc", "-o", str(out))[0] == 0
        g = Graph().parse(src)
        import hashlib

        assert hashlib.sha256(out.read_bytes()).hexdigest() == digest(g)


def test_canonicalize_nquads_gz(capsys, tmp_path):
    src = tmp_path / "in.nq.gz"
    src.write_bytes(gzip.compress(f"<URN:EXAMPLE:a> {P} <http://e/o> <URN:EXAMPLE:g> .\n".encode()))
    out = tmp_path / "out.nq.gz"
    assert run(capsys, "canonicalize", str(src), "-o", str(out))[0] == 0
    assert gzip.decompress(out.read_bytes()) == (
        f"<urn:example:a> {P} <http://e/o> <urn:example:g> .\n").encode()
    trig = tmp_path / "out.trig"
    assert run(capsys, "canonicalize", str(src), "--format", "trig", "-o", str(trig))[0] == 0
    ds = Dataset()
    ds.parse(trig, format="trig")
    assert {str(g.identifier) for g in ds.graphs()} >= {"urn:example:g"}


def test_failure_leaves_no_output(capsys, tmp_path, nt):
    bad = tmp_path / "bad.nt"
    bad.write_text(nt.read_text() * 5000 + "garbage\n")
    out = tmp_path / "out.nt"
    code, _stdout, err = run(capsys, "canonicalize", str(bad), "-o", str(out))
    assert code == 2
    assert err.startswith(f"urnld canonicalize: error: {bad}:10001: ")
    assert err.count("\n") == 1
    assert not out.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.nt", "data.nt"]
    out.write_text("old\n")
    assert run(capsys, "canonicalize", str(bad), "-o", str(out))[0] == 2
    assert out.read_text() == "old\n"


def test_refuses_to_overwrite_input(capsys, nt):
    code, _, err = run(capsys, "canonicalize", str(nt), "-o", str(nt))
    assert code == 2
    assert "input" in err


def test_several_inputs_into_a_directory(capsys, tmp_path, nt):
    other = tmp_path / "sub"
    other.mkdir()
    second = other / "second.nt"
    second.write_text(f"<URN:EXAMPLE:a> {P} <http://e/o> .\n")
    outdir = tmp_path / "out"
    outdir.mkdir()
    rep = tmp_path / "r.json"
    code, _, _ = run(capsys, "canonicalize", str(nt), str(second), "-o", str(outdir),
                     "--report", str(rep))
    assert code == 0
    assert sorted(p.name for p in outdir.iterdir()) == ["data.nt", "second.nt"]
    assert json.loads(rep.read_text())["statements"]["in"] == 3
    code, _, err = run(capsys, "canonicalize", str(nt), str(second))
    assert code == 2
    assert "OUTDIR" in err


def test_usage_errors_are_one_line(capsys, nt, tmp_path):
    for argv in (
        ["canonicalize", str(nt), "--rdfc", "--format", "turtle"],
        ["canonicalize", str(nt), "--workers", "2"],
        ["canonicalize", str(nt), "--engine", "dask", "--rdfc", "-o", str(tmp_path / "o")],
        ["canonicalize", str(nt), "--engine", "dask"],
        ["canonicalize", str(tmp_path / "x.unknown-ext")],
    ):
        code, _, err = run(capsys, *argv)
        assert code == 2, argv
        assert err.count("\n") == 1, (argv, err)
        assert "Traceback" not in err


def test_stdin_to_stdout_through_the_installed_command(tmp_path):
    exe = Path(sys.executable).parent / "urnld"
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "urnld"]
    proc = subprocess.run(
        [*cmd, "canonicalize", "-", "-o", "-"],
        input=f"<URN:EXAMPLE:a> {P} <http://e/o> .\n".encode(),
        capture_output=True,
        check=False,
        env={**os.environ, "PYTHONWARNINGS": "ignore"},
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == f"<urn:example:a> {P} <http://e/o> .\n".encode()
    proc = subprocess.run([*cmd, "check", "-"], input=b"<urn:x-a:b> <http://e/p> <http://e/o> .\n",
                          capture_output=True, check=False)
    assert proc.returncode == 1
    assert b"urn:x-a:b" in proc.stdout


def test_engine_dask_without_dask_says_how_to_install(capsys, monkeypatch, tmp_path, nt):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed -> ImportError
    code, _, err = run(capsys, "canonicalize", "--engine", "dask", str(nt), "-o",
                       str(tmp_path / "out"))
    assert code == 2
    assert "pip install 'urnld[dask]'" in err
    assert err.count("\n") == 1
    code, _, err = run(capsys, "check", "--engine", "dask", str(nt))
    assert code == 2
    assert "pip install 'urnld[dask]'" in err


@pytest.mark.slow
def test_engine_dask_matches_local(capsys, tmp_path, nt):
    """The CLI hands N-Triples files to urnld.dask; outputs equal the local command's."""
    second = tmp_path / "second.nt"
    second.write_text(f"<urn:Example:a> {P} <URN:ISBN:0-395-36341-1> .\n")
    outdir = tmp_path / "dask-out"
    rep = tmp_path / "r.json"
    code, _, err = run(capsys, "canonicalize", "--engine", "dask", "--workers", "1", str(nt),
                       str(second), "-o", str(outdir), "--report", str(rep))
    assert code == 0, err
    for src in (nt, second):
        local = tmp_path / f"local-{src.name}"
        assert run(capsys, "canonicalize", str(src), "-o", str(local))[0] == 0
        assert (outdir / src.name).read_bytes() == local.read_bytes()
    assert json.loads(rep.read_text())["statements"]["in"] == 3


def test_bytes_that_are_not_utf8_are_reported_not_crashing(capsys, tmp_path):
    f = tmp_path / "latin1.nt"
    f.write_bytes(b"<urn:example:caf\xe9> <http://e/p> <URN:EXAMPLE:b> .\n")
    out = tmp_path / "out.nt"
    rep = tmp_path / "r.json"
    code, _, err = run(capsys, "canonicalize", str(f), "-o", str(out), "--report", str(rep))
    assert code == 0, err
    # the invalid URN is left byte for byte, the valid one is canonicalized
    assert out.read_bytes() == b"<urn:example:caf\xe9> <http://e/p> <urn:example:b> .\n"
    assert list(json.loads(rep.read_text(encoding="utf-8"))["invalid"]["urns"]) == [
        "urn:example:caf\ufffd"]
    code, stdout, _ = run(capsys, "check", "--json", str(f))
    assert code == 1
    assert json.loads(stdout)["invalid"]["urns"]["urn:example:caf\ufffd"]["count"] == 1


def test_canonicalize_jobs_option(capsys, tmp_path, nt):
    outs = []
    for jobs in ("1", "2"):
        out = tmp_path / f"out{jobs}.nt"
        code, _, err = run(capsys, "canonicalize", "-q", str(nt), "-o", str(out), "--jobs", jobs,
                           "--report", str(tmp_path / f"r{jobs}.json"))
        assert (code, err) == (0, "")
        outs.append((out.read_bytes(), (tmp_path / f"r{jobs}.json").read_text()))
    assert outs[0] == outs[1]
    assert outs[0][0] == (f"<urn:isbn:0395363411> {P} <urn:isbn:0395363411> .\n"
                          f'<urn:isbn:0395363411> {P} "URN:ISBN:0395363411" .\n').encode()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["-j", "0"], "--jobs must be a positive integer, got 0"),
        (["--engine", "dask", "-o", "outdir", "-j", "2"],
         "--jobs is for the local engine; --engine dask takes --workers"),
    ],
)
def test_canonicalize_jobs_errors(capsys, tmp_path, nt, argv, message):
    code, out, err = run(capsys, "canonicalize", str(nt), *argv)
    assert code == 2
    assert out == ""
    assert err == f"urnld canonicalize: error: {message}\n"
