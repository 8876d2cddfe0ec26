"""The validation policy and the project file (urnld.toml, [tool.urnld] in pyproject.toml)."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from urnld import ConfigError, Policy, SeverityMap, check, find_policy
from urnld._core._config import find_project_file, load_policy
from urnld.cli._policy_options import add_policy_options, policy_from_args


def test_found_upward_urnld_toml_first(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.urnld]\nstrict = true\n')
    sub = tmp_path / "a" / "b"
    sub.mkdir(parents=True)
    assert find_policy(sub) == Policy(strict=True, source=tmp_path / "pyproject.toml")
    (tmp_path / "a" / "urnld.toml").write_text('profiles = ["nbn-de"]\n')
    policy = find_policy(sub)
    assert policy.source == tmp_path / "a" / "urnld.toml"
    assert policy.profiles == frozenset({"nbn-de"}) and not policy.strict


def test_a_directory_that_cannot_be_searched_is_passed_over(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Run from inside a directory this user may not search (a 0700 temporary directory of
    # another user): stat() there fails with EACCES, and the walk goes on upward.
    (tmp_path / "urnld.toml").write_text('profiles = ["nbn-de"]\n')
    locked = tmp_path / "locked" / "inner"
    locked.mkdir(parents=True)
    real = Path.is_file

    def is_file(self: Path) -> bool:
        if str(self).startswith(str(tmp_path / "locked")):
            raise PermissionError(13, "Permission denied", str(self))
        return real(self)

    monkeypatch.setattr(Path, "is_file", is_file)
    assert find_project_file(locked) == tmp_path / "urnld.toml"


def test_pyproject_without_the_table_is_passed_over(tmp_path: Path) -> None:
    (tmp_path / "urnld.toml").write_text('[severity]\nnid-experimental = "warning"\n')
    inner = tmp_path / "pkg"
    inner.mkdir()
    (inner / "pyproject.toml").write_text('[project]\nname = "x"\n')
    assert find_project_file(inner) == tmp_path / "urnld.toml"


def test_pyproject_of_another_tool_is_not_parsed(tmp_path: Path) -> None:
    # Every command walks past the project's pyproject.toml; one that cannot hold a urnld
    # table is skipped unread, even when it is not valid TOML (it is not urnld's file).
    (tmp_path / "pyproject.toml").write_text("[project\nname = 'x'\n", encoding="utf-8")
    assert find_project_file(tmp_path) is None
    assert find_policy(tmp_path) == Policy()


def test_pyproject_naming_urnld_through_an_escape_is_read(tmp_path: Path) -> None:
    # TOML quoted keys may spell "urnld" with \u escapes: such a file is parsed.
    (tmp_path / "pyproject.toml").write_text(
        '[tool."\\u0075rnld"]\nstrict = true\n', encoding="utf-8"
    )
    assert find_policy(tmp_path).strict is True


def test_policy_drives_check(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.urnld]\nprofiles = ["iso-current"]\n'
        '[tool.urnld.severity]\nnid-experimental = "warning"\n'
    )
    policy = find_policy(tmp_path)
    # OGC CRS name (OGC WMS capabilities) and FHIR's MDC code system
    assert not [f for f in check("urn:x-ogc:def:crs:EPSG:6.11:2192", **policy.check_kwargs())
                if f.severity == "error"]
    assert check("urn:iso:std:iso:11073:10101", **policy.check_kwargs()) == []


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("strict = 1\n", "'strict' must be true or false"),
        ("colour = 1\n", "unknown key(s) 'colour'"),
        ('profiles = ["nbn-dee"]\n', "unknown profile(s) 'nbn-dee'"),
        ('[severity]\nnid-experimentl = "warning"\n', "unknown finding code 'nid-experimentl'"),
        ('[severity]\nnid-experimental = "loud"\n', "must be one of error, warning, info, ignore"),
        ("severity = 3\n", "'severity' must be a table"),
        ("strict = \n", "not valid TOML"),
    ],
)
def test_bad_files_name_themselves(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "urnld.toml"
    path.write_text(text)
    with pytest.raises(ConfigError) as e:
        load_policy(path, known_profiles={"nbn-de", "iso-current"})
    assert str(e.value).startswith(str(path)) and message in str(e.value)


def _args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_policy_options(parser)
    return parser.parse_args(argv)


def test_cli_options_add_to_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.urnld.severity]\nnid-experimental = "warning"\npct-nul = "error"\n'
    )
    monkeypatch.chdir(tmp_path)
    policy = policy_from_args(
        _args(["--severity", "nid-experimental=ignore", "--strict", "--profile", "nbn-de"]),
        "urnld check",
    )
    assert policy.strict and policy.profiles == frozenset({"nbn-de"})
    assert policy.severity == SeverityMap({"nid-experimental": "ignore", "pct-nul": "error"})
    assert capsys.readouterr().err == (
        f"urnld check: using policy from {tmp_path / 'pyproject.toml'} [tool.urnld]\n"
    )
    # --no-config: the options alone, and nothing said
    policy = policy_from_args(_args(["--no-config"]), "urnld check")
    assert policy == Policy() and capsys.readouterr().err == ""


def test_cli_rejects_unknown_profiles_and_codes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ConfigError, match="unknown profile"):
        policy_from_args(_args(["--profile", "nbn-dee"]), "urnld check")
    with pytest.raises(ConfigError, match="--severity: unknown finding code"):
        policy_from_args(_args(["--severity", "bogus=warning"]), "urnld check")
    with pytest.raises(ConfigError, match="CODE=LEVEL"):
        policy_from_args(_args(["--severity", "bogus"]), "urnld check")
    with pytest.raises(ConfigError, match="no such file"):
        policy_from_args(_args(["--config", str(tmp_path / "none.toml")]), "urnld check")
