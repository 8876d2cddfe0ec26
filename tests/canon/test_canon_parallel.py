"""canonicalize_file with worker processes: same bytes and report as one process, errors in order,
no hang when a worker dies."""

from __future__ import annotations

import gzip
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from urnld.errors import WorkerError
from urnld.report import CanonicalizeReport
from urnld.stream import NTriplesSyntaxError, _chunks, _passes, _run, _workers, canonicalize_file

from .test_canon_stream import QUAD

P = "<http://e/p>"

# Lines that are not statements in the fast layout, so chunks also take the line-by-line path.
ODD = st.sampled_from([
    "\n", "# a comment\n", "  \n", f"<URN:EXAMPLE:odd>  {P}\t<http://e/o> . # c\n",
    f"<urn:EXAMPLE:b> {P} <http://e/o> .\r\n",
])
BAD = st.sampled_from(["oops\n", f"<urn:example:a> {P} .\n", "<a> <b> <<c>> .\n"])


def lines_of(quads, odd, bad):
    lines = [f"{s} {p} {o}{g} .\n" for s, p, o, g in quads]
    for pos, line in odd + bad:
        lines.insert(min(pos, len(lines)), line)
    return lines


def run(tmp_path: Path, text: str, name: str, jobs: int, **opts) -> tuple[bytes, CanonicalizeReport]:
    src = tmp_path / "in.nq"
    src.write_text(text, encoding="utf-8")
    out = tmp_path / name
    report = canonicalize_file(src, out, jobs=jobs, **opts)
    return out.read_bytes(), report


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    quads=st.lists(QUAD, max_size=40),
    odd=st.lists(st.tuples(st.integers(0, 40), ODD), max_size=4),
    bad=st.lists(st.tuples(st.integers(0, 40), BAD), max_size=2),
    chunk=st.integers(1, 300),
    jobs=st.integers(2, 4),
    literals=st.booleans(),
    ignore=st.booleans(),
)
def test_workers_give_the_bytes_and_report_of_one_process(
    tmp_path, monkeypatch, quads, odd, bad, chunk, jobs, literals, ignore
):
    # Tiny chunks: many of them, so order, line numbers and report merging are all exercised.
    monkeypatch.setattr(_chunks, "CHUNK_BYTES", chunk)
    text = "".join(lines_of(quads, odd, bad))
    opts = {"literals": literals, "ignore_components": ignore, "on_error": "report"}
    one, r1 = run(tmp_path, text, "one.nq", 1, **opts)
    many, r2 = run(tmp_path, text, "many.nq", jobs, **opts)
    assert many == one
    assert r2 == r1
    assert r2.to_dict() == r1.to_dict()
    assert r2.statements_in == len(quads) + sum(1 for _, line in odd if "<" in line)
    assert r2.error_count == len(bad)


def test_first_malformed_line_raises_in_input_order(tmp_path, monkeypatch):
    monkeypatch.setattr(_chunks, "CHUNK_BYTES", 200)
    good = f"<URN:EXAMPLE:a> {P} <http://e/o> .\n"
    src = tmp_path / "in.nt"
    src.write_text(good * 500 + "first bad\n" + good * 500 + "second bad\n" + good * 10)
    out = tmp_path / "out.nt"
    out.write_text("previous\n")
    report = CanonicalizeReport()
    with pytest.raises(NTriplesSyntaxError, match=r"in\.nt:501: ") as e:
        canonicalize_file(src, out, jobs=3, report=report)
    assert e.value.line == 501
    assert [err.line for err in report.errors] == [501]
    assert out.read_text() == "previous\n"  # the output appears only complete
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".urnld-")]


def test_gzip_in_and_out_with_workers(tmp_path, monkeypatch):
    monkeypatch.setattr(_chunks, "CHUNK_BYTES", 100)
    text = "".join(f"<URN:ISBN:0-395-36341-1> {P} \"{i}\" .\n" for i in range(300))
    src = tmp_path / "in.nt.gz"
    src.write_bytes(gzip.compress(text.encode()))
    report = canonicalize_file(src, tmp_path / "out.nt.gz", jobs=2)
    out = gzip.decompress((tmp_path / "out.nt.gz").read_bytes()).decode()
    assert out == text.replace("URN:ISBN:0-395-36341-1", "urn:isbn:0395363411")
    assert report.statements_in == report.rewritten == 300


@pytest.fixture
def forked(monkeypatch):
    """Workers forked from this process, so they run the code patched here.

    urnld itself forks only when no other thread runs (another test may have left one, e.g.
    Dask's offload thread); the patched code here is fork-safe either way.
    """
    import multiprocessing

    monkeypatch.setattr(_workers, "_context", lambda: multiprocessing.get_context("fork"))


def test_a_failing_worker_is_reported_not_hung(tmp_path, monkeypatch, forked):
    def broken(self, chunk, lineno, source, on_error):
        raise ZeroDivisionError("boom")

    monkeypatch.setattr(_passes.CanonPass, "run_chunk", broken)
    src = tmp_path / "in.nt"
    src.write_text(f"<URN:EXAMPLE:a> {P} <http://e/o> .\n" * 10)
    with pytest.raises(WorkerError, match="ZeroDivisionError: boom"):
        canonicalize_file(src, tmp_path / "out.nt", jobs=2)
    assert not (tmp_path / "out.nt").exists()


def test_a_dead_worker_is_reported_not_hung(tmp_path, monkeypatch, forked):
    def die(self, chunk, lineno, source, on_error):
        os._exit(3)

    monkeypatch.setattr(_passes.CanonPass, "run_chunk", die)
    monkeypatch.setattr(_workers, "_POLL_SECONDS", 0.05)
    src = tmp_path / "in.nt"
    src.write_text(f"<URN:EXAMPLE:a> {P} <http://e/o> .\n" * 10)
    with pytest.raises(WorkerError, match="worker process died"):
        canonicalize_file(src, tmp_path / "out.nt", jobs=2)
    assert not (tmp_path / "out.nt").exists()


def test_jobs_must_be_positive(tmp_path):
    src = tmp_path / "in.nt"
    src.write_text("")
    with pytest.raises(ValueError, match="jobs must be >= 1"):
        canonicalize_file(src, tmp_path / "out.nt", jobs=0)


def test_default_jobs():
    assert _workers.default_jobs(0) == 1
    assert _workers.default_jobs(1 << 20) == 1
    big = _workers.default_jobs(1 << 30)
    assert 1 <= big <= 8
    assert big == min(8, len(os.sched_getaffinity(0)))


def test_no_thread_is_left_behind(tmp_path):
    import threading

    src = tmp_path / "in.nt"
    src.write_text(f"<URN:EXAMPLE:a> {P} <http://e/o> .\n" * 10)
    before = threading.active_count()
    canonicalize_file(src, tmp_path / "out.nt", jobs=2)
    assert threading.active_count() == before


def test_spawned_workers_give_the_same_result(tmp_path, monkeypatch):
    """Where fork is not used (macOS, Windows, other threads running), workers are spawned."""
    import multiprocessing

    monkeypatch.setattr(_workers, "_context", lambda: multiprocessing.get_context("spawn"))
    monkeypatch.setattr(_chunks, "CHUNK_BYTES", 300)
    text = "".join(f"<URN:ISBN:0-395-36341-1> {P} <urn:EXAMPLE:{i % 7}> .\n" for i in range(200))
    one, r1 = run(tmp_path, text, "one.nq", 1)  # N-Quads in and out: the line pass
    many, r2 = run(tmp_path, text, "many.nq", 2)
    assert many == one
    assert r2 == r1


def test_progress_counts_statements_from_the_workers(tmp_path, monkeypatch):
    monkeypatch.setattr(_chunks, "CHUNK_BYTES", 100)
    seen: list[int] = []
    src = tmp_path / "in.nt"
    src.write_text(f"<URN:EXAMPLE:a> {P} <http://e/o> .\n" * 50)
    canonicalize_file(src, tmp_path / "out.nt", progress=lambda p: seen.append(p.statements),
                      jobs=2)
    assert seen == sorted(seen)  # statements done only grow
    assert seen[0] > 0
    assert seen[-1] == 50


@pytest.mark.parametrize(("lines", "parallel"), [(3, False), (400, True)])
def test_stdin_reads_ahead_to_decide(tmp_path, monkeypatch, lines, parallel):
    import io
    import sys

    monkeypatch.setattr(_run, "MIN_PARALLEL_BYTES", 4000)
    monkeypatch.setattr(_workers, "MIN_PARALLEL_BYTES", 4000)
    monkeypatch.setattr(_chunks, "CHUNK_BYTES", 500)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1, 2, 3}, raising=False)
    used: list[int] = []
    real = _run.canonicalize_chunks

    def spy(chunks, *, jobs, **kw):
        used.append(jobs)
        return real(chunks, jobs=jobs, **kw)

    monkeypatch.setattr(_run, "canonicalize_chunks", spy)
    text = f"<URN:EXAMPLE:a> {P} <http://e/o> .\n" * lines
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode())))
    report = canonicalize_file("-", tmp_path / "out.nt")
    assert (tmp_path / "out.nt").read_text() == text.replace("URN:EXAMPLE", "urn:example")
    assert report.statements_in == lines
    assert used == ([4] if parallel else [])


class _RefusingContext:
    """A multiprocessing context whose processes cannot start (process limits, a sandbox)."""

    def __init__(self) -> None:
        import multiprocessing

        self.Pipe = multiprocessing.get_context("fork").Pipe

    def Process(self, **kwargs):  # multiprocessing's name
        class Refused:
            def start(self):
                raise OSError(11, "Resource temporarily unavailable")

        return Refused()


@pytest.mark.parametrize("why", ["refused", "daemon"])
def test_no_worker_processes_means_one_process_not_an_error(tmp_path, monkeypatch, why):
    if why == "refused":
        monkeypatch.setattr(_workers, "_context", _RefusingContext)
    else:  # e.g. inside a multiprocessing.Pool worker, which may not have children
        class Daemonic:
            daemon = True

        def no_context():
            raise AssertionError("a daemonic process must not try to start workers")

        import multiprocessing  # urnld._workers imports it when it starts workers

        monkeypatch.setattr(multiprocessing, "current_process", Daemonic)
        monkeypatch.setattr(_workers, "_context", no_context)
    monkeypatch.setattr(_chunks, "CHUNK_BYTES", 200)
    text = "".join(f"<URN:ISBN:0-395-36341-1> {P} <urn:EXAMPLE:{i % 7}> .\n" for i in range(100))
    # N-Quads in and out: the line pass (an .nt output would take the route's N-Quads ->
    # N-Triples road, which checks for named graphs, as the command does).
    one, r1 = run(tmp_path, text, "one.nq", 1)
    many, r2 = run(tmp_path, text, "many.nq", 3)
    assert many == one
    assert r2 == r1
    assert r2.statements_in == 100
