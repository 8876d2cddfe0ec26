"""urnld._kernel._files: atomic outputs with ordinary modes, special files written in place, inputs."""

from __future__ import annotations

import gzip
import os
import stat
import threading

import pytest

from urnld._kernel._files import atomic_output, open_input, umask


def _mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_new_file_gets_the_umask_mode(tmp_path):
    old = os.umask(0o027)
    try:
        assert umask() == 0o027
        with atomic_output(tmp_path / "new.nt") as f:
            f.write(b"x")
    finally:
        os.umask(old)
    assert _mode(tmp_path / "new.nt") == 0o640
    assert (tmp_path / "new.nt").read_bytes() == b"x"


def test_replaced_file_keeps_its_mode(tmp_path):
    target = tmp_path / "out.nt"
    target.write_bytes(b"old")
    target.chmod(0o604)
    with atomic_output(target, text=True) as f:
        f.write("new")
    assert _mode(target) == 0o604
    assert target.read_text() == "new"


def test_failure_leaves_the_old_file_and_no_temporary(tmp_path):
    target = tmp_path / "out.nt"
    target.write_bytes(b"old")
    with pytest.raises(RuntimeError), atomic_output(target) as f:
        f.write(b"partial")
        raise RuntimeError("stop")
    assert target.read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.nt"]


def test_symlink_keeps_the_link(tmp_path):
    real = tmp_path / "real.nt"
    real.write_bytes(b"old")
    link = tmp_path / "link.nt"
    link.symlink_to(real)
    with atomic_output(link) as f:
        f.write(b"new")
    assert link.is_symlink()
    assert real.read_bytes() == b"new"


def test_character_device_is_written_not_replaced():
    with atomic_output("/dev/null") as f:
        f.write(b"discarded")
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_link_to_a_file_descriptor_is_written_not_replaced(tmp_path):
    # /dev/stdout is a link to /proc/self/fd/1; when fd 1 is a regular file, renaming over the
    # link would replace it. Same shape here, on a file of our own.
    sink = tmp_path / "sink"
    with open(sink, "wb") as fd_file:
        link = tmp_path / "stdout"
        link.symlink_to(f"/proc/self/fd/{fd_file.fileno()}")
        with atomic_output(link) as f:
            f.write(b"through the descriptor")
        assert link.is_symlink()
    assert sink.read_bytes() == b"through the descriptor"


def test_fifo_is_written_not_replaced(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    with atomic_output(fifo) as f:
        f.write(b"streamed")
    reader.join(timeout=10)
    assert got == [b"streamed"]
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_gzip_round_trip_and_sizes(tmp_path):
    target = tmp_path / "out.nt.gz"
    with atomic_output(target) as f:
        f.write(b"line\n")
    assert gzip.decompress(target.read_bytes()) == b"line\n"
    with open_input(target) as (f, size):
        assert f.read() == b"line\n"
        assert size == target.stat().st_size
