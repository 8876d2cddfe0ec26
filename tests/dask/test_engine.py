"""The Dask engine on a real local cluster against the single-process streaming run.

Inputs are split into several partitions (``PART`` bytes) so partition boundaries, exact line
numbers and the joining of output pieces are exercised; one cluster serves every test.
"""

from __future__ import annotations

import functools
import gzip
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pyoxigraph as ox
import pytest

import urnld.dask
import urnld.rdf
from urnld.dask import DaskJobError, DaskNotInstalled, canonicalize_files, check_files
from urnld.dask._engine import _FAN_IN, plan, stat_inputs
from urnld.dask._partition import scan_range
from urnld.errors import URNError, URNLDEnvironmentError
from urnld.report import CanonicalizeReport, CheckReport
from urnld.stream import canonicalize_file, check_file

PART = 200_000  # bytes: each ~0.8 MB input of the dump is cut into 4-6 partitions


def _merge(reports):
    return functools.reduce(lambda a, b: a.merge(b), reports)


def _read(path: Path) -> bytes:
    return gzip.decompress(path.read_bytes()) if path.name.endswith(".gz") else path.read_bytes()


def _single_process(inputs: list[Path], out: Path, **opts) -> CanonicalizeReport:
    """urnld.stream.canonicalize_file on each input, into the layout the Dask run promises:
    out/<file name>, or out/<path relative to the common parent> when file names repeat."""
    root = os.path.commonpath([p.parent for p in inputs])
    flat = len({p.name for p in inputs}) == len(inputs)
    reports = []
    for p in inputs:
        target = out / (p.name if flat else p.relative_to(root))
        target.parent.mkdir(parents=True, exist_ok=True)
        reports.append(canonicalize_file(str(p), str(target), **opts))
    return _merge(reports)


def _tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def _leftovers(parent: Path) -> list[str]:
    return sorted(p.name for p in parent.iterdir() if ".urnld-tmp-" in p.name)


@pytest.fixture(scope="module")
def single(dump, tmp_path_factory) -> tuple[Path, CanonicalizeReport]:
    out = tmp_path_factory.mktemp("single")
    return out, _single_process(dump, out)


def test_dump_is_really_partitioned(dump):
    sizes = [p.stat().st_size for p in dump if not p.name.endswith(".gz")]
    assert all(s > 2 * PART for s in sizes[:3])
    # More partitions than one merge task takes: the report reduction has two levels.
    parts = plan(stat_inputs(dump), PART, lambda calls: [scan_range(*c) for c in calls])
    assert len(parts) > _FAN_IN
    assert any(p.name.endswith(".gz") for p in dump)
    assert any(p.name.endswith(".nq") for p in dump)


def test_canonicalize_equals_single_process(dump, single, dask_scheduler, tmp_path):
    ref, ref_report = single
    out = tmp_path / "out"
    report = canonicalize_files(dump, out, scheduler=dask_scheduler, partition_size=PART)
    # Same layout, same bytes per file (so also the same statements after sorting).
    got, want = _tree(out), _tree(ref)
    assert sorted(got) == sorted(want) == [
        "a/part-00000.nt", "a/part-00001.nt", "a/part-00002.nq",
        "b/part-00000.nt", "b/part-00001.nt.gz",
    ]
    for name in want:
        assert got[name] == want[name], name
        assert sorted(_read(out / name).splitlines()) == sorted(_read(ref / name).splitlines())
    # The merged report equals the merge of the single-process reports, and it did real work.
    assert report == ref_report
    assert report.to_dict() == ref_report.to_dict()
    assert report.statements_in == 30_000
    assert report.rewritten > 1000
    assert report.invalid_occurrences > 0
    assert _leftovers(tmp_path) == []


def _union(paths: list[Path], *, scoped_labels: bool = True) -> ox.Dataset:
    """All statements of ``paths`` in one dataset, the blank nodes of file number i relabelled
    _:x -> _:f<i>-x (the per-file scoping scheme documented in docs/dask.md)."""
    def scoped(term, i):
        if scoped_labels and isinstance(term, ox.BlankNode):
            return ox.BlankNode(f"f{i}-{term.value}")
        return term

    ds = ox.Dataset()
    for i, p in enumerate(paths):
        fmt = ox.RdfFormat.N_QUADS if ".nq" in p.name else ox.RdfFormat.N_TRIPLES
        for q in ox.parse(_read(p), format=fmt):
            ds.add(ox.Quad(scoped(q.subject, i), q.predicate, scoped(q.object, i), q.graph_name))
    return ds


def test_rdfc_digest_equals_single_process(dump, single, dask_scheduler, tmp_path):
    ref, _ = single
    out = tmp_path / "out"
    canonicalize_files(dump, out, scheduler=dask_scheduler, partition_size=PART)
    names = sorted(str(p.relative_to(ref)) for p in ref.rglob("*") if p.is_file())
    union = _union([out / n for n in names])
    digest = urnld.rdf.digest(union)
    assert digest == urnld.rdf.digest(_union([ref / n for n in names]))
    # The RDFC digest also ignores URN spelling: it equals the digest of the raw inputs.
    assert digest == urnld.rdf.digest(_union(sorted(dump, key=str)))
    # Per-file scoping matters: the same blank-node labels occur in every file, and sharing
    # them across files would make another graph with another digest.
    two = [out / n for n in names[:2]]
    labels = [{str(q.subject) for q in _union([p]) if isinstance(q.subject, ox.BlankNode)}
              for p in two]
    assert labels[0] & labels[1]
    assert urnld.rdf.digest(_union(two, scoped_labels=False)) != urnld.rdf.digest(_union(two))


def test_digest_files_per_file_equals_single_process(dump, single, dask_scheduler, tmp_path):
    ref, _ = single
    digests = urnld.dask.digest_files(dump, scheduler=dask_scheduler)
    assert list(digests) == [str(p) for p in dump]
    root = os.path.commonpath([p.parent for p in dump])
    for p in dump:
        # Same digest as one process over the raw file and over its canonical output.
        assert digests[str(p)] == urnld.rdf.digest(_read(p))
        assert digests[str(p)] == urnld.rdf.digest(_read(ref / p.relative_to(root)))  # a/, b/
    assert len(set(digests.values())) == len(dump)
    bad = _with_bad_lines(dump[3], tmp_path / "bad.nt", [7])
    with pytest.raises(URNError, match=r"bad\.nt: <input>:7: "):
        urnld.dask.digest_files([bad], scheduler=dask_scheduler)


def test_canonicalize_options_are_passed(dump, dask_scheduler, tmp_path):
    opts = {"ignore_components": True, "literals": True}
    report = canonicalize_files(
        dump[:2], tmp_path / "out", scheduler=dask_scheduler, partition_size=PART, **opts
    )
    ref_report = _single_process(dump[:2], tmp_path / "ref", **opts)
    assert report == ref_report
    assert report.dropped_components
    assert _tree(tmp_path / "out") == _tree(tmp_path / "ref")


def test_check_equals_single_process(dump, dask_scheduler):
    report = check_files(dump, scheduler=dask_scheduler, partition_size=PART)
    assert isinstance(report, CheckReport)
    assert report == _merge([check_file(str(p)) for p in dump])
    assert report.statements_in == 30_000
    assert not report.ok  # the dump has URNs with wrong check digits


def test_check_spilled_partitions_equal_an_independent_count(dump, dask_scheduler):
    # Partition reports past a memory budget of a few keys: each spills sorted runs, which
    # travel pickled with it from the worker; the merged figures stay exact.
    sys.path.insert(0, str(Path(__file__).parents[1] / "cli"))
    from _independent import independent_counts

    report = check_files(dump, scheduler=dask_scheduler, partition_size=PART, memory_budget=0)
    assert report._clusters.runs or report._invalid.runs  # something really spilled
    assert report == check_files(dump, scheduler=dask_scheduler, partition_size=PART)
    want = independent_counts(dump)
    d = report.to_dict()
    assert d["invalid"]["distinct"] == len(want["invalid"])
    assert d["non_canonical"]["distinct"] == len(want["non_canonical"])
    assert d["clusters"]["count"] == len(want["several"])
    assert {s for s, _ in report.iter_non_canonical()} == want["non_canonical"]


def test_local_cluster_from_workers(dump):
    # workers=N starts (and stops) a LocalCluster of its own.
    small = [p for p in dump if p.name.endswith(".gz")]
    assert check_files(small, workers=1) == check_file(str(small[0]))


# -- failures ---------------------------------------------------------------------------------


def _with_bad_lines(src: Path, dst: Path, bad_at: list[int]) -> Path:
    """Copy src to dst replacing the given 1-based lines by malformed ones."""
    lines = src.read_bytes().splitlines(keepends=True)
    for n in bad_at:
        lines[n - 1] = b"<urn:isbn:0395363411> <http://purl.org/dc/terms/title> broken .\n"
    dst.parent.mkdir(parents=True, exist_ok=True)
    dst.write_bytes(b"".join(lines))
    return dst


def test_malformed_lines_fail_the_job_with_exact_lines_and_no_output(dump, dask_scheduler, tmp_path):
    # Bad lines in the first, a middle and the last partition of one file, and in another file.
    bad1 = _with_bad_lines(dump[0], tmp_path / "in" / "x.nt", [1, 4000, 7999])
    bad2 = _with_bad_lines(dump[3], tmp_path / "in" / "y.nt", [2500])
    good = tmp_path / "in" / "z.nt"
    shutil.copyfile(dump[1], good)
    inputs = [bad1, good, bad2]
    out = tmp_path / "out"
    with pytest.raises(DaskJobError, match=r"4 malformed line\(s\), no output written") as err:
        canonicalize_files(inputs, out, scheduler=dask_scheduler, partition_size=PART)
    report = err.value.report
    assert [(e.source, e.line) for e in report.errors] == [
        (str(bad1), 1), (str(bad1), 4000), (str(bad1), 7999), (str(bad2), 2500),
    ]
    assert str(report.errors[0]) in str(err.value)
    # The line numbers are the ones the single-process run reports.
    ref = _merge([check_file(str(p)) for p in inputs])
    assert report.errors == ref.errors
    # The other partitions all ran: every well-formed statement was read.
    assert report.statements_in == 8000 + 8000 + 3000 - 4
    # No output directory, nothing half-written left next to it.
    assert not out.exists()
    assert _leftovers(tmp_path) == []

    # A rerun gives the same result; after the input is fixed it succeeds as if nothing happened.
    with pytest.raises(DaskJobError) as again:
        canonicalize_files(inputs, out, scheduler=dask_scheduler, partition_size=PART)
    assert again.value.report == report
    shutil.copyfile(dump[0], bad1)
    shutil.copyfile(dump[3], bad2)
    fixed = canonicalize_files(inputs, out, scheduler=dask_scheduler, partition_size=PART)
    assert fixed == _single_process(inputs, tmp_path / "ref")
    assert _tree(out) == _tree(tmp_path / "ref")


def test_check_reports_malformed_lines_like_single_process(dump, dask_scheduler, tmp_path):
    bad = _with_bad_lines(dump[2], tmp_path / "x.nq", [3, 7000])
    report = check_files([bad, dump[0]], scheduler=dask_scheduler, partition_size=PART)
    assert [(e.source, e.line) for e in report.errors] == [(str(bad), 3), (str(bad), 7000)]
    assert report == check_file(str(bad)).merge(check_file(str(dump[0])))


def test_corrupt_gzip_fails_cleanly(dump, dask_scheduler, tmp_path):
    gz = next(p for p in dump if p.name.endswith(".gz"))
    broken = tmp_path / "broken.nt.gz"
    broken.write_bytes(gz.read_bytes()[: gz.stat().st_size // 2])
    out = tmp_path / "out"
    with pytest.raises((OSError, URNError), match=r"broken\.nt\.gz"):
        canonicalize_files([dump[0], broken], out, scheduler=dask_scheduler, partition_size=PART)
    assert not out.exists()
    assert _leftovers(tmp_path) == []


def test_non_empty_outdir_is_refused_before_any_work(dump, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "keep.txt").write_text("mine")
    # No scheduler at this address: the refusal must come before any connection attempt.
    with pytest.raises(URNError, match="not empty"):
        canonicalize_files(dump, out, scheduler="tcp://127.0.0.1:1")
    assert _tree(out) == {"keep.txt": b"mine"}


def test_bad_arguments(dump, tmp_path):
    with pytest.raises(URNError, match="not both"):
        check_files(dump, workers=2, scheduler="tcp://127.0.0.1:1")
    with pytest.raises(URNError, match="workers must be a positive integer"):
        check_files(dump, workers=0)
    out = tmp_path / "out"
    with pytest.raises(URNError, match="partition_size"):
        canonicalize_files(dump, out, workers=1, partition_size=0)
    with pytest.raises(URNError, match="not both"):
        canonicalize_files(dump, out, workers=1, scheduler="tcp://127.0.0.1:1")
    assert list(tmp_path.iterdir()) == []  # refused before anything was created
    with pytest.raises(FileNotFoundError):
        check_files([tmp_path / "missing.nt"], workers=1)


def test_missing_dask_says_how_to_install(dump, tmp_path, monkeypatch):
    # A None entry in sys.modules makes "import distributed" raise ImportError.
    monkeypatch.setitem(sys.modules, "distributed", None)
    out = tmp_path / "out"
    with pytest.raises(DaskNotInstalled, match=r"pip install 'urnld\[dask\]'") as err:
        canonicalize_files(dump, out, workers=1)
    # A missing dependency is the environment's failure, not bad input.
    assert isinstance(err.value, URNLDEnvironmentError)
    assert not isinstance(err.value, ValueError)
    assert not out.exists()
    assert list(tmp_path.iterdir()) == []
    with pytest.raises(DaskNotInstalled):
        check_files(dump)
    assert urnld.dask.DaskNotInstalled is DaskNotInstalled


# -- the command line -------------------------------------------------------------------------


def _urnld(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "urnld", *args], capture_output=True, text=True, check=False
    )


def test_cli_dask_equals_cli_local(dump, dask_scheduler, tmp_path):
    inputs = [str(p) for p in (dump[0], dump[2], dump[4])]  # .nt, .nq, .nt.gz; distinct names
    local, dist = tmp_path / "local", tmp_path / "dask"
    local.mkdir()
    r = _urnld("canonicalize", *inputs, "-o", str(local), "--report", str(tmp_path / "l.json"))
    assert r.returncode == 0, r.stderr
    r = _urnld("canonicalize", "--engine", "dask", "--scheduler", dask_scheduler, *inputs,
               "-o", str(dist), "--report", str(tmp_path / "d.json"))
    assert r.returncode == 0, r.stderr
    assert _tree(dist) == _tree(local)
    assert sorted(_tree(dist)) == ["part-00000.nt", "part-00001.nt.gz", "part-00002.nq"]
    assert (tmp_path / "d.json").read_text() == (tmp_path / "l.json").read_text()

    r_local = _urnld("check", "--json", *inputs)
    r_dask = _urnld("check", "--json", "--engine", "dask", "--scheduler", dask_scheduler, *inputs)
    assert r_dask.returncode == r_local.returncode == 1  # invalid URNs in the dump
    assert r_dask.stdout == r_local.stdout


def test_cli_dask_errors_are_one_line(dump, tmp_path):
    bad = _with_bad_lines(dump[3], tmp_path / "bad.nt", [10])
    out = tmp_path / "out"
    r = _urnld("canonicalize", "--engine", "dask", "--workers", "1", str(bad), "-o", str(out))
    assert r.returncode == 2
    assert r.stderr.splitlines() == [
        f"urnld canonicalize: error: 1 malformed line(s), no output written; first: {bad}:10: "
        "not an N-Triples/N-Quads statement"
    ]
    assert not out.exists()


def test_unreachable_scheduler_is_a_clear_error(dump, tmp_path, monkeypatch):
    import urnld.dask._cluster as cluster_module

    monkeypatch.setattr(cluster_module, "_CONNECT_TIMEOUT_S", 1)
    out = tmp_path / "out"
    with pytest.raises(DaskJobError, match=r"cannot connect to the Dask scheduler at 'tcp://127\.0\.0\.1:1'"):
        canonicalize_files(dump, out, scheduler="tcp://127.0.0.1:1")
    assert list(tmp_path.iterdir()) == []


def test_odd_files_equal_single_process(dump, dask_scheduler, tmp_path):
    # An empty file, CRLF line ends, comments and blank lines, no newline at the end, and a
    # partition size far below the line length of some lines.
    src = tmp_path / "in"
    src.mkdir()
    (src / "empty.nt").write_bytes(b"")
    lines = dump[0].read_bytes().splitlines()[:300]
    odd = b"# a comment\r\n\r\n" + b"\r\n".join(lines[:150]) + b"\n\n   \n" + b"\n".join(lines[150:])
    (src / "odd.nt").write_bytes(odd)
    inputs = [src / "empty.nt", src / "odd.nt"]
    report = canonicalize_files(inputs, tmp_path / "out", scheduler=dask_scheduler,
                                partition_size=500)
    assert report == _single_process(inputs, tmp_path / "ref")
    assert _tree(tmp_path / "out") == _tree(tmp_path / "ref")
    assert (tmp_path / "out" / "empty.nt").read_bytes() == b""
    assert report.statements_in == 300
    assert check_files(inputs, scheduler=dask_scheduler, partition_size=500) == _merge(
        [check_file(str(p)) for p in inputs]
    )


def test_more_distinct_urns_than_the_stream_term_cache(dask_scheduler, tmp_path):
    # A catalog's subjects come in runs of statements; with more distinct URNs than the
    # streaming pass keeps cached (tens of thousands), its cache restarts mid-file, between two
    # statements of one subject. Partitions and the single-process run must still agree.
    src = tmp_path / "big.nt"
    with src.open("w") as f:
        for g in range(20_000):
            for k in range(7):
                f.write(f"<URN:example:s{g}> <http://e/p> <urn:EXAMPLE:o{g}-{k}> .\n")
    ref_report = _single_process([src], tmp_path / "ref")
    report = canonicalize_files([src], tmp_path / "out", scheduler=dask_scheduler,
                                partition_size=2_000_000)
    assert report == ref_report
    assert report.rewritten == 2 * 140_000
    assert _tree(tmp_path / "out") == _tree(tmp_path / "ref")


def test_cli_without_dask_says_how_to_install(dump, tmp_path):
    # Hide the optional dependency from a fresh interpreter, then run the command.
    code = (
        "import sys; sys.modules['distributed'] = None; sys.modules['dask'] = None\n"
        "from urnld.cli import main\n"
        f"sys.exit(main(['canonicalize', '--engine', 'dask', {str(dump[0])!r}, "
        f"'-o', {str(tmp_path / 'out')!r}]))\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert r.returncode == 2
    assert "pip install 'urnld[dask]'" in r.stderr
    assert len(r.stderr.splitlines()) == 1
    assert not (tmp_path / "out").exists()


def test_lost_worker_is_retried_with_the_same_result(gen_dump, tmp_path):
    # A worker process dies in the middle of a partition; Dask reruns its tasks elsewhere and,
    # because tasks rewrite their own piece from scratch, the result is unchanged.
    import logging
    import threading
    import time

    from distributed import Client, LocalCluster

    (src,) = gen_dump.generate(tmp_path / "in", triples=60_000, files=1, seed=3)
    ref_report = _single_process([src], tmp_path / "ref")
    killed: list[str] = []

    def kill_a_busy_worker(client):
        while not killed:
            for worker, keys in client.processing().items():
                if any("canonicalize_partition" in str(k) for k in keys):
                    killed.append(worker)
                    client.run(os._exit, 1, workers=[worker], on_error="ignore")
                    return
            time.sleep(0.01)

    with (
        LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0",
                     silence_logs=logging.CRITICAL) as cluster,
        Client(cluster) as client,
    ):
        killer = threading.Thread(target=kill_a_busy_worker, args=(client,), daemon=True)
        killer.start()
        report = canonicalize_files([src], tmp_path / "out", scheduler=cluster.scheduler_address,
                                    partition_size=1_500_000)
        killer.join(timeout=10)
        log = client.run_on_scheduler(
            lambda dask_scheduler: [(str(t[0]), t[1], t[2], t[4]) for t in dask_scheduler.transition_log]
        )
    assert killed
    # The kill really lost a partition's work: the scheduler released it because its worker was
    # gone, from "processing" (killed mid-task) or from "memory" (the worker finished it but
    # died holding the result, which happens when the machine is busy and the killer is late),
    # and ran it again: the report and output are complete.
    interrupted = [k for k, a, b, why in log if "canonicalize_partition" in k
                   and (a, b) in {("processing", "released"), ("memory", "released")}
                   and "worker-cleanup" in why]
    assert interrupted
    assert report == ref_report
    assert _tree(tmp_path / "out") == _tree(tmp_path / "ref")


def test_added_statements_equal_single_process(dump, dask_scheduler, tmp_path):
    # link / keep_spellings / link_resolvers: per file, the same statements at the end of each
    # output as the local run adds, for split files (an extra piece) and whole ones (.gz).
    opts = {"link": True, "keep_spellings": True, "link_resolvers": True}
    inputs = [dump[0], dump[-1]]  # a split plain file and a gzipped one
    report = canonicalize_files(
        inputs, tmp_path / "out", scheduler=dask_scheduler, partition_size=PART, **opts
    )
    ref_report = _single_process(inputs, tmp_path / "ref", **opts)
    assert _tree(tmp_path / "out") == _tree(tmp_path / "ref")
    assert report == ref_report
    assert report.spellings_added > 0 and report.see_also_added > 0
    assert report.statements_out == report.statements_in + report.added


def test_added_statements_past_the_cap_fail_the_job_naming_the_file(dask_scheduler, tmp_path):
    from urnld.errors import SpellingLimitError
    from urnld.report import DEFAULT_MAX_EXAMPLES

    src = tmp_path / "many.nt"
    src.write_text("".join(
        f"<URN:EXAMPLE:{i}> <http://e/p> <http://e/o> .\n" for i in range(DEFAULT_MAX_EXAMPLES + 1)
    ))
    out = tmp_path / "out"
    with pytest.raises(SpellingLimitError, match=r"many\.nt: more than 10,000 distinct"):
        canonicalize_files([src], out, scheduler=dask_scheduler, partition_size=PART,
                           keep_spellings=True)
    assert not out.exists() and _leftovers(tmp_path) == []
