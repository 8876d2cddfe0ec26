"""The check's route table, run three ways: per row (input syntax, ``--iris``), the library
(``urnld.files.check``), the command line (``urnld check --json``) and the Dask engine
(``urnld.dask.check_files``) give the same report for the same file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import urnld.files as files
from urnld._kernel import Engine, check_route, get_syntax
from urnld.cli import main

from .test_floor import DATA

ALL = {
    **DATA,
    "trix": b'<?xml version="1.0"?><TriX xmlns="http://www.w3.org/2004/03/trix/trix-1/">'
            b"<graph><triple><uri>URN:ISBN:0-395-36341-1</uri><uri>http://e/p</uri>"
            b"<uri>urn:HotelRoom</uri></triple><triple><uri>http://e/s</uri>"
            b"<uri>http://e/q</uri><plainLiteral>urn:example:a</plainLiteral></triple>"
            b"</graph></TriX>\n",
    "hext": b'["URN:ISBN:0-395-36341-1", "http://e/p", "urn:HotelRoom", "globalId", "", ""]\n'
            b'["http://e/s", "http://e/q", "urn:example:a", '
            b'"http://www.w3.org/2001/XMLSchema#string", "", ""]\n',
}

# (input syntax, iris, engine): every engine of the check's route
TABLE = [
    ("nt", "as-is", Engine.LINES),
    ("nquads", "as-is", Engine.LINES),
    ("turtle", "as-is", Engine.SYNTAX),
    ("trig", "as-is", Engine.SYNTAX),
    ("xml", "as-is", Engine.SYNTAX),
    ("json-ld", "as-is", Engine.SYNTAX),
    ("trix", "as-is", Engine.DOCUMENT),
    ("hext", "as-is", Engine.DOCUMENT),
    ("nt", "rfc3986", Engine.DOCUMENT),
    ("turtle", "rfc3986", Engine.DOCUMENT),
]


def _comparable(d: dict[str, Any]) -> dict[str, Any]:
    """A report as the callers give it: the command adds its run's fields."""
    d = json.loads(json.dumps(d))
    for key in ("ok", "inputs", "unreadable", "policy"):
        d.pop(key, None)
    return d


def _input(tmp_path: Path, syntax: str) -> Path:
    path = tmp_path / f"in{get_syntax(syntax).extensions[0]}"
    path.write_bytes(ALL[syntax])
    return path


@pytest.mark.parametrize(("syntax", "iris", "engine"), TABLE)
def test_library_and_command_check_alike(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                         syntax: str, iris: str, engine: Engine) -> None:
    src = _input(tmp_path, syntax)
    assert check_route(syntax, iris=iris) is engine
    assert files.check_plan(src, iris=iris) is engine  # type: ignore[arg-type]
    report = files.check(src, iris=iris)  # type: ignore[arg-type]
    assert report.iri_occurrences + report.literal_occurrences >= 2  # the URNs were read
    argv = ["check", str(src), "--json", "--no-config", *(["--iris", iris] if iris != "as-is"
                                                         else [])]
    assert main(argv) == (0 if report.ok else 1)
    assert _comparable(json.loads(capsys.readouterr().out)) == _comparable(report.to_dict())


@pytest.mark.slow
@pytest.mark.parametrize(("syntax", "iris", "engine"), [r for r in TABLE if r[1] == "as-is"])
def test_dask_checks_as_the_library(tmp_path: Path, syntax: str, iris: str,
                                    engine: Engine) -> None:
    pytest.importorskip("dask.distributed")
    from urnld.dask import check_files

    src = _input(tmp_path, syntax)
    report = files.check(src)
    assert _comparable(check_files([src], workers=1).to_dict()) == \
        _comparable(report.to_dict())
