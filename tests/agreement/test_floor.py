"""The library does what the command does: per row of the route table, ``urnld.files``, the
command line and the Dask engine write the same bytes and the same report for the same files.

Each input holds URNs to rewrite, an invalid one, blank nodes the input named and ones it did
not (``[ ]``), so the outputs also show that the blank-node labels agree.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import urnld.files as files
from urnld._kernel import get_syntax
from urnld.cli import main

from .test_route import TABLE

_TTL = (b'@prefix e: <http://e/> .\n<URN:ISBN:0-395-36341-1> e:p [ e:q <urn:example:a> ] ;'
        b' e:r _:named, <urn:HotelRoom> .\n_:named e:s "01"^^<http://www.w3.org/2001/XMLSchema#integer> .\n')
_LINES = (b'<URN:ISBN:0-395-36341-1> <http://e/p> _:x .\n_:x <http://e/q> <urn:example:a> .\n'
          b'<http://e/s> <http://e/r> <urn:HotelRoom> .\n')
DATA = {
    "nt": _LINES,
    "nquads": _LINES,
    "turtle": _TTL,
    "trig": _TTL,
    "xml": b'<?xml version="1.0"?><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"'
           b' xmlns:e="http://e/"><rdf:Description rdf:about="URN:ISBN:0-395-36341-1">'
           b'<e:p><rdf:Description><e:q rdf:resource="urn:example:a"/></rdf:Description></e:p>'
           b'<e:r rdf:nodeID="named"/></rdf:Description></rdf:RDF>\n',
    "json-ld": b'{"@id": "URN:ISBN:0-395-36341-1", "http://e/p": {"http://e/q": '
               b'{"@id": "urn:example:a"}}}',
}


def _comparable(d: dict[str, Any]) -> dict[str, Any]:
    """A report as the three callers give it: the command adds ``ok`` and writes a stream's
    ``duplicates_merged`` as null (nobody counted)."""
    d = json.loads(json.dumps(d))
    d.pop("ok", None)
    d["statements"].pop("duplicates_merged", None)
    return d


def _paths(tmp_path: Path, src: str, dst: str) -> tuple[Path, str]:
    inp = tmp_path / f"in{get_syntax(src).extensions[0]}"
    inp.write_bytes(DATA[src])
    return inp, get_syntax(dst).extensions[0]


@pytest.mark.parametrize(("src", "dst", "rdfc", "iris", "engine"), TABLE)
def test_library_and_command_agree(tmp_path: Path, src: str, dst: str, rdfc: bool, iris: str,
                                   engine: Any) -> None:
    inp, ext = _paths(tmp_path, src, dst)
    lib_out, cli_out = tmp_path / f"lib{ext}", tmp_path / f"cli{ext}"
    job = files.RDFC() if rdfc else None
    assert files.plan(inp, lib_out, rdfc=job, iris=iris).engine is engine  # type: ignore[arg-type]
    report = files.canonicalize(inp, lib_out, rdfc=job, iris=iris)  # type: ignore[arg-type]
    argv = ["canonicalize", str(inp), "-o", str(cli_out), "-q", "--no-config",
            "--report", str(tmp_path / "r.json")]
    argv += ["--rdfc"] if rdfc else []
    argv += ["--iris", iris] if iris != "as-is" else []
    assert main(argv) == 0
    assert lib_out.read_bytes() == cli_out.read_bytes()
    assert b"urn:isbn:0395363411" in lib_out.read_bytes()
    cli_report = json.loads((tmp_path / "r.json").read_text())
    assert _comparable(report.to_dict()) == _comparable(cli_report)


# Dask cannot run RDFC-1.0 (it needs the whole dataset): the other rows.
@pytest.mark.slow
@pytest.mark.parametrize(("src", "dst", "rdfc", "iris", "engine"),
                         [row for row in TABLE if not row[2]])
def test_dask_agrees_with_the_library(tmp_path: Path, src: str, dst: str, rdfc: bool, iris: str,
                                      engine: Any) -> None:
    pytest.importorskip("dask.distributed")
    from urnld.dask import canonicalize_files

    inp, ext = _paths(tmp_path, src, dst)
    lib_out = tmp_path / f"lib{ext}"
    report = files.canonicalize(inp, lib_out, iris=iris)  # type: ignore[arg-type]
    outdir = tmp_path / "dask"
    dask_report = canonicalize_files([inp], outdir, workers=1, output_format=dst,
                                     iris=iris)  # type: ignore[arg-type]
    assert (outdir / inp.name).read_bytes() == lib_out.read_bytes()
    assert _comparable(dask_report.to_dict()) == _comparable(report.to_dict())


# The -o extension table, through the library: the syntax the extension names, or the
# command's refusal with the list of known extensions.
@pytest.mark.parametrize(("ext", "parse_as"), [
    (".ntriples", "nt"), (".nt", "nt"), (".turtle", "turtle"), (".ttl", "turtle"),
    (".hext", "hext"), (".rdfs", "xml"), (".rdf", "xml"), (".nq", "nquads"),
    (".trig", "trig"), (".jsonld", "json-ld"), (".n3", "n3"), (".trix", "trix"),
    (".nt.gz", "nt"),
])
def test_library_writes_the_syntax_the_extension_names(tmp_path: Path, ext: str,
                                                       parse_as: str) -> None:
    import gzip

    from rdflib import Dataset

    src = tmp_path / "a.ttl"
    src.write_bytes(_TTL)
    out = tmp_path / f"b{ext}"
    files.canonicalize(src, out)
    data = out.read_bytes()
    if ext.endswith(".gz"):
        data = gzip.decompress(data)
    ds = Dataset()
    ds.parse(data=data.decode(), format=parse_as)  # fails unless it is in that syntax
    assert "urn:isbn:0395363411" in {str(q[0]) for q in ds.quads((None, None, None, None))}


@pytest.mark.parametrize("call", ["files", "rdf", "stream", "cli"])
def test_an_unknown_extension_is_refused_everywhere_with_one_message(tmp_path: Path,
                                                                     call: str) -> None:
    import urnld.rdf
    import urnld.stream
    from urnld.errors import URNError

    src = tmp_path / "a.ttl"
    src.write_bytes(_TTL)
    out = tmp_path / "b.txt"
    if call == "cli":
        import contextlib
        import io

        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            assert main(["canonicalize", str(src), "-o", str(out), "--no-config"]) == 2
        message = err.getvalue()
    else:
        fn = {"files": files.canonicalize, "rdf": urnld.rdf.canonicalize_document,
              "stream": urnld.stream.canonicalize_file}[call]
        with pytest.raises(URNError) as e:
            fn(src, out)  # type: ignore[operator]
        message = str(e.value)
    assert "cannot tell the output syntax from the extension '.txt'" in message
    assert ".ttl" in message and ".nq" in message
    assert not out.exists()
    # …unless the output format is given.
    files.canonicalize(src, out, output_format="nt")
    assert out.read_bytes().startswith(b"<urn:isbn:0395363411>") or b"_:" in out.read_bytes()
