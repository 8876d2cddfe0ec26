"""Partitioning without a cluster: byte ranges, line alignment, exact line numbers, gz, layout."""

from __future__ import annotations

import gzip
import io
import os
import threading
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from urnld.dask._engine import plan, stat_inputs
from urnld.dask._output import OutputDir, concat, output_names
from urnld.dask._partition import FileInfo, align, iter_lines, nominal_ranges, scan_range
from urnld.errors import URNError


def _scans(calls):
    return [scan_range(*c) for c in calls]


def _write(tmp_path: Path, name: str, data: bytes) -> Path:
    p = tmp_path / name
    p.write_bytes(gzip.compress(data, mtime=0) if name.endswith(".gz") else data)
    return p


@pytest.mark.parametrize(
    ("size", "step", "expected"),
    [
        (0, 5, [(0, 0)]),
        (5, 5, [(0, 5)]),
        (11, 5, [(0, 5), (5, 10), (10, 11)]),
    ],
)
def test_nominal_ranges(size, step, expected):
    assert nominal_ranges(size, step) == expected


@pytest.mark.parametrize(
    ("offset", "expected"),
    # data = b"ab\ncd\n\nef": line starts are 0, 3, 6, 7
    [(0, 0), (1, 3), (2, 3), (3, 3), (4, 6), (6, 6), (7, 7), (8, 9), (9, 9), (50, 9)],
)
def test_align_moves_to_next_line_start(offset, expected):
    assert align(io.BytesIO(b"ab\ncd\n\nef"), offset, 9) == expected


lines_strategy = st.lists(
    st.binary(max_size=12).map(lambda b: b.replace(b"\n", b"")),
    max_size=30,
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines=lines_strategy, trailing=st.booleans(), step=st.integers(1, 40))
def test_partitions_tile_the_file_with_exact_line_numbers(tmp_path, lines, trailing, step):
    data = b"\n".join(lines) + (b"\n" if trailing and lines else b"")
    path = _write(tmp_path, "in.nt", data)
    parts = plan(stat_inputs([path]), step, _scans)
    # Concatenated in order, the partitions are the file; each starts on a line start.
    assert b"".join(data[p.start : p.end] for p in parts) == data
    assert [p.number for p in parts] == list(range(len(parts)))
    for p in parts:
        assert p.start == 0 or data[p.start - 1 : p.start] == b"\n"
        assert p.first_line == data[: p.start].count(b"\n") + 1
    # Every partition yields the same lines, numbered the same, as reading the whole file.
    numbered = [
        (p.first_line + k, line) for p in parts for k, line in enumerate(iter_lines(p))
    ]
    with open(path, "rb") as f:
        assert numbered == list(enumerate(f, start=1))


def test_long_line_leaves_empty_partitions_out(tmp_path):
    data = b"x" * 50 + b"\nshort\n"
    parts = plan(stat_inputs([_write(tmp_path, "in.nt", data)]), 8, _scans)
    assert [(p.start, p.end, p.first_line) for p in parts] == [(0, 51, 1), (51, 57, 2)]


def test_gz_and_small_files_are_one_partition(tmp_path):
    data = b"a\nb\nc\n" * 100
    gz = _write(tmp_path, "in.nt.gz", data)
    small = _write(tmp_path, "small.nt", b"a\n")
    empty = _write(tmp_path, "empty.nt", b"")
    parts = plan(stat_inputs([gz, small, empty]), 4, _scans)
    assert [(p.file.source, p.number, p.first_line) for p in parts] == [
        (str(gz), 0, 1),
        (str(small), 0, 1),
        (str(empty), 0, 1),
    ]
    assert b"".join(iter_lines(parts[0])) == data
    assert list(iter_lines(parts[2])) == []


def test_changed_input_is_refused(tmp_path):
    path = _write(tmp_path, "in.nt", b"a\nb\n")
    (info,) = stat_inputs([path])
    path.write_bytes(b"a\nb\nc\n")
    with pytest.raises(OSError, match="changed while the job was running"):
        scan_range(info, 0, 2)


def test_bad_inputs(tmp_path):
    with pytest.raises(FileNotFoundError):
        stat_inputs([tmp_path / "missing.nt"])
    with pytest.raises(IsADirectoryError):
        stat_inputs([tmp_path])
    with pytest.raises(URNError, match="not a single path"):
        stat_inputs(str(tmp_path / "x.nt"))  # type: ignore[arg-type]
    with pytest.raises(URNError, match="stdin"):
        stat_inputs(["-"])
    with pytest.raises(URNError, match="no input"):
        stat_inputs([])
    with pytest.raises(URNError, match="partition_size"):
        plan([], 0, _scans)


def test_source_is_the_path_as_given_and_path_is_absolute(tmp_path, monkeypatch):
    _write(tmp_path, "in.nt", b"a\n")
    monkeypatch.chdir(tmp_path)
    (info,) = stat_inputs(["in.nt"])
    assert info.source == "in.nt"
    assert info.path == str(tmp_path / "in.nt")
    assert FileInfo.stat(0, "in.nt") == info


def test_output_names():
    # Distinct file names: flat, like `urnld canonicalize IN... -o OUTDIR`.
    assert output_names(["/d/a/x.nt", "/e/y.nt.gz"]) == ["x.nt", "y.nt.gz"]
    assert output_names(["/d/x.nt"]) == ["x.nt"]
    # A shared file name: the directories relative to the common parent are kept.
    assert output_names(["/d/a/x.nt", "/d/b/x.nt", "/d/a/y.nq.gz"]) == [
        "a/x.nt",
        "b/x.nt",
        "a/y.nq.gz",
    ]
    with pytest.raises(URNError, match="given twice"):
        output_names(["/d/x.nt", "/d/x.nt"])


def test_concat_joins_in_order_and_removes_pieces(tmp_path):
    pieces = []
    for i, chunk in enumerate([b"one\n", b"", b"two\nthree\n"]):
        p = tmp_path / f"{i}"
        p.write_bytes(chunk)
        pieces.append(str(p))
    concat(pieces, str(tmp_path / "out"))
    assert (tmp_path / "out").read_bytes() == b"one\ntwo\nthree\n"
    assert not any(os.path.exists(p) for p in pieces)


def test_output_dir_commit_and_abort(tmp_path):
    final = tmp_path / "out"
    with OutputDir(final) as out:
        # An input named like a piece never collides with the pieces.
        Path(out.path("pieces/0/000001")).write_bytes(b"x\n")
        Path(out.piece(0, 1)).write_bytes(b"piece")
        assert not final.exists()
        out.commit()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]
    assert sorted(str(p.relative_to(final)) for p in final.rglob("*")) == [
        "pieces", "pieces/0", "pieces/0/000001",
    ]
    assert (final / "pieces/0/000001").read_bytes() == b"x\n"
    assert final.stat().st_mode & 0o777 == 0o777 & ~_umask()
    # A non-empty output directory is never touched.
    with pytest.raises(URNError, match="not empty"):
        OutputDir(final)
    # Leaving with an error deletes the temporary directory and creates nothing.
    other = tmp_path / "other"
    with pytest.raises(RuntimeError), OutputDir(other) as out:
        Path(out.path("x.nt")).write_bytes(b"x\n")
        raise RuntimeError
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def test_abort_while_a_task_still_writes_leaves_nothing(tmp_path):
    # After a failure, tasks already running on the workers go on writing (Dask cannot stop a
    # running thread): the abort must not leave the temporary directory behind because a
    # file appeared in it while it was being deleted.
    from urnld._kernel._files import atomic_output

    for _ in range(20):
        out = OutputDir(tmp_path / "out")
        target = out.path("x.nt")
        stop = threading.Event()

        def task(target: str = target, stop: threading.Event = stop) -> None:
            while not stop.is_set():
                try:
                    with atomic_output(target) as f:
                        f.write(b"<urn:x:a> <urn:x:b> <urn:x:c> .\n")
                except OSError:
                    pass  # the directory is gone: what a task sees after the abort

        writer = threading.Thread(target=task)
        writer.start()
        time.sleep(0.002)
        out.cleanup()
        time.sleep(0.002)
        stop.set()
        writer.join()
        assert list(tmp_path.iterdir()) == []


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_output_dir_accepts_an_existing_empty_directory(tmp_path):
    final = tmp_path / "out"
    final.mkdir()
    with OutputDir(final) as out:
        Path(out.path("x.nt")).write_bytes(b"x\n")
        out.commit()
    assert [p.name for p in final.iterdir()] == ["x.nt"]


def test_symlinked_input_keeps_its_own_name(tmp_path):
    real = _write(tmp_path, "real.nt", b"a\n")
    link = tmp_path / "link.nt"
    link.symlink_to(real)
    (info,) = stat_inputs([link])
    assert info.path == str(link)
    assert output_names([info.path]) == ["link.nt"]


@pytest.mark.parametrize("fails_after", [0, 1])
def test_concat_falls_back_when_copy_file_range_fails(tmp_path, monkeypatch, fails_after):
    real = os.copy_file_range
    calls = []

    def flaky(src, dst, count, *args):
        calls.append(count)
        if len(calls) > fails_after:
            raise OSError(18, "Invalid cross-device link")
        return real(src, dst, min(count, 3), *args)  # copy a little, then fail

    monkeypatch.setattr(os, "copy_file_range", flaky)
    pieces = []
    for i, chunk in enumerate([b"first piece\n", b"second piece\n"]):
        p = tmp_path / f"{i}"
        p.write_bytes(chunk)
        pieces.append(str(p))
    concat(pieces, str(tmp_path / "out"))
    assert (tmp_path / "out").read_bytes() == b"first piece\nsecond piece\n"
