"""scripts/refresh_registry.py: merge logic on local fixture files (no network)."""

from __future__ import annotations

import csv
import importlib.util
import io
import shutil
import sys
from pathlib import Path
from types import ModuleType

import pytest

REPO = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).resolve().parent / "fixtures"


@pytest.fixture(scope="module")
def script() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "refresh_registry", REPO / "scripts" / "refresh_registry.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["refresh_registry"] = module  # dataclasses look the module up by name
    spec.loader.exec_module(module)
    return module


def rows_of(path: Path) -> dict[str, dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as f:
        return {row["nid"]: row for row in csv.DictReader(f)}


def run(script: ModuleType, tmp_path: Path, *extra: str) -> tuple[int, Path]:
    target = tmp_path / "urn-namespaces.csv"
    shutil.copy(FIXTURES / "ours.csv", target)
    code = script.main([
        "--formal", str(FIXTURES / "iana-formal.csv"),
        "--informal", str(FIXTURES / "iana-informal.csv"),
        "--csv", str(target), *extra,
    ])
    return code, target


def test_merge_keeps_our_columns_and_adds_new_nids(
    script: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, target = run(script, tmp_path)
    assert code == 0
    rows = rows_of(target)
    # Known rows: our extra columns kept; IANA's template filled in.
    assert rows["isbn"]["template"] == "[isbn-template]"
    assert rows["isbn"]["notes"] == "template v2, ISO 2108:2017"
    assert rows["isbn"]["source"] == "src-b" and rows["isbn"]["registered_date"] == "2017-06-12"
    # Our annotated reference starts with IANA's: kept.
    assert rows["uuid"]["reference"].startswith("[RFC9562] (was [RFC4122]")
    # IANA changed the reference: IANA wins, the rest of the row stays.
    assert rows["oid"]["reference"] == "[RFC3061][RFC9999]"
    assert rows["oid"]["date_basis"] == "rfc-template(RFC3061)"
    # New NIDs, formal and informal, name the file they came from.
    assert rows["newnid"]["kind"] == "formal"
    assert rows["newnid"]["source"] == str(FIXTURES / "iana-formal.csv")
    assert rows["urn-9"]["kind"] == "informal" and rows["urn-9"]["template"] == "[urn-9]"
    # A NID the IANA input lacks is kept (an older copy must not erase rows) and reported.
    assert "xmpp" in rows
    out = capsys.readouterr().out
    assert "added 2: newnid, urn-9" in out
    assert "not in IANA input, kept: xmpp" in out
    # Order: formal by name, then informal by number; CRLF like the shipped file.
    assert list(rows) == ["3gpp", "isbn", "newnid", "oid", "uuid", "xmpp", "urn-1", "urn-9"]
    assert target.read_bytes().count(b"\r\n") == len(rows) + 1


def test_drop_missing(script: ModuleType, tmp_path: Path) -> None:
    code, target = run(script, tmp_path, "--drop-missing")
    assert code == 0
    assert "xmpp" not in rows_of(target)


def test_dry_run_writes_nothing(script: ModuleType, tmp_path: Path) -> None:
    code, target = run(script, tmp_path, "--dry-run")
    assert code == 0
    assert target.read_bytes() == (FIXTURES / "ours.csv").read_bytes()


def test_merge_is_idempotent(script: ModuleType, tmp_path: Path) -> None:
    _, target = run(script, tmp_path)
    first = target.read_bytes()
    assert script.main([
        "--formal", str(FIXTURES / "iana-formal.csv"),
        "--informal", str(FIXTURES / "iana-informal.csv"), "--csv", str(target),
    ]) == 0
    assert target.read_bytes() == first


def test_shipped_csv_is_a_fixed_point(script: ModuleType, tmp_path: Path) -> None:
    """IANA files rebuilt from the shipped CSV change nothing in it, byte for byte."""
    shipped = REPO / "src" / "urnld" / "data" / "urn-namespaces.csv"
    for kind in ("formal", "informal"):
        buf = io.StringIO()
        w = csv.writer(buf)
        w.writerow(["URN Namespace", "Template", "Reference"])
        for row in rows_of(shipped).values():
            if row["kind"] == kind:
                w.writerow([row["nid"], row["template"], row["reference"]])
        (tmp_path / f"{kind}.csv").write_text(buf.getvalue(), encoding="utf-8")
    target = tmp_path / "copy.csv"
    shutil.copy(shipped, target)
    assert script.main(["--formal", str(tmp_path / "formal.csv"),
                        "--informal", str(tmp_path / "informal.csv"),
                        "--csv", str(target)]) == 0
    assert target.read_bytes() == shipped.read_bytes()


@pytest.mark.parametrize(
    ("formal_text", "message"),
    [
        ("<html><body>Not Found</body></html>\n", "no 'URN Namespace' column"),
        ("URN Namespace,Template,Reference\n", "no namespaces listed"),
        ("URN Namespace,Template,Reference\nurn-3,,[x]\n", "does not belong in the formal list"),
        ("URN Namespace,Template,Reference\n-bad,,[x]\n", "is not an RFC 8141 NID"),
        ("URN Namespace,Template,Reference\nisbn,,[x]\nISBN,,[y]\n", "listed twice"),
    ],
)
def test_bad_input_leaves_the_file_alone(
    script: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str],
    formal_text: str, message: str,
) -> None:
    formal = tmp_path / "formal.csv"
    formal.write_text(formal_text, encoding="utf-8")
    target = tmp_path / "urn-namespaces.csv"
    shutil.copy(FIXTURES / "ours.csv", target)
    code = script.main(["--formal", str(formal), "--informal", str(FIXTURES / "iana-informal.csv"),
                        "--csv", str(target)])
    assert code == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
    assert target.read_bytes() == (FIXTURES / "ours.csv").read_bytes()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["formal.csv", "urn-namespaces.csv"]


def test_missing_input_file(script: ModuleType, tmp_path: Path,
                            capsys: pytest.CaptureFixture[str]) -> None:
    code = script.main(["--formal", str(tmp_path / "nope.csv"), "--csv", str(tmp_path / "x.csv")])
    assert code == 2
    assert "nope.csv" in capsys.readouterr().err


def test_doctests(script: ModuleType) -> None:
    import doctest

    assert doctest.testmod(script).failed == 0
