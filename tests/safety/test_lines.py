"""N-Triples lines: CR line ends, bounded memory per escape, a documented line limit, linear
reading of long lines."""

from __future__ import annotations

import io
import time
import tracemalloc
from pathlib import Path

import pytest

from urnld.cli import main
from urnld.stream import MAX_LINE_BYTES, NTriplesSyntaxError, canonicalize_file, canonicalize_lines

LF = b'<URN:EXAMPLE:a> <http://e/p> "x" .\n<urn:example:b> <http://e/p> <URN:ISBN:0-395-36341-1> .\n'


@pytest.mark.parametrize("eol", [b"\r", b"\r\r\n", b"\r\n", b"\n\n"])
def test_every_legal_line_end_is_read(tmp_path: Path, eol: bytes, capsys) -> None:
    # N-Triples 1.1: EOL ::= [#xD#xA]+ (CR alone, old Mac files; CR CR LF, doubly converted).
    src = tmp_path / "in.nt"
    src.write_bytes(LF.replace(b"\n", eol))
    assert main(["check", str(src)]) == 0
    assert main(["canonicalize", str(src), "-o", str(tmp_path / "out.nt")]) == 0
    capsys.readouterr()
    expected = tmp_path / "lf.nt"
    canonicalize_file(_write(tmp_path / "lf-in.nt", LF), expected)
    got = (tmp_path / "out.nt").read_bytes().replace(b"\r\n", b"\n").replace(b"\n\n", b"\n")
    assert got == expected.read_bytes()


def _write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def test_memory_per_escape_is_bounded() -> None:
    # ~290 bytes of regex backtracking state per escape made a 20 MB line of escapes cost 3 GB.
    literal = b"\\\\" * 500_000  # 1 MB of escapes in one literal
    iri = b"\\u0041" * 100_000
    line = b"<urn:example:a" + iri + b'> <http://e/p> "' + literal + b'" .\n'
    tracemalloc.start()
    try:
        out = b"".join(canonicalize_lines([line]))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert out.endswith(literal + b'" .\n')
    assert peak < 30 * len(line), peak  # a few copies of the line, not 290 bytes per escape


def test_a_line_over_the_limit_is_refused_with_its_number() -> None:
    from urnld.stream._chunks import read_chunks as _read_chunks

    data = b"<urn:a:b> <http://e/p> <urn:a:c> .\n" + b"x" * (3 << 20) + b"\n"
    with pytest.raises(NTriplesSyntaxError, match="longer than 1,048,576 bytes") as info:
        list(_read_chunks(io.BytesIO(data), size=1 << 16, source="big.nt", max_line=1 << 20))
    assert info.value.line == 2 and info.value.source == "big.nt"
    assert MAX_LINE_BYTES == 64 << 20  # the documented limit (docs/security.md)


def test_a_long_line_is_read_in_linear_time() -> None:
    from urnld.stream._chunks import read_chunks as _read_chunks

    # Gathering a 48 MiB line by re-joining everything read so far at each 64 KiB block copied
    # ~18 GB; pieces joined once copy it twice.
    data = b"x" * (48 << 20)
    start = time.process_time()
    (chunk,) = list(_read_chunks(io.BytesIO(data), size=1 << 16))
    elapsed = time.process_time() - start
    assert len(chunk) == len(data)
    # The baseline, measured here: reading the same blocks and joining them once.
    start = time.process_time()
    source = io.BytesIO(data)
    joined = b"".join(iter(lambda: source.read(1 << 16), b""))
    baseline = time.process_time() - start
    assert joined == data
    # Re-joining at every block would be ~400 times the baseline; linear reading is a few.
    assert elapsed <= 25 * baseline + 0.05, (elapsed, baseline)


@pytest.mark.slow
def test_the_command_refuses_a_line_over_the_limit(tmp_path: Path, capsys) -> None:
    src = tmp_path / "huge.nt"
    with open(src, "wb") as f:
        f.write(b'<urn:a:b> <http://e/p> "')
        f.write(b"x" * (MAX_LINE_BYTES + 10))
        f.write(b'" .\n')
    assert main(["canonicalize", str(src), "-o", str(tmp_path / "out.nt")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "huge.nt:1: line longer than" in err, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["huge.nt"]
