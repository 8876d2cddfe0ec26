"""Third-party namespaces through the ``urnld.namespaces`` entry-point group.

The toy plugin package in ``toy_plugin/`` (its own pyproject.toml and a stdlib-only in-tree
build backend) is really installed with pip into a temporary directory, offline; a subprocess
with that directory on ``PYTHONPATH`` then uses the plugin's rule through the public API.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from urnld import canonical, equivalent
from urnld.namespaces import GENERIC, get_rule

TOY = Path(__file__).resolve().parent / "toy_plugin"


def _run(code: str, path: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(path), env.get("PYTHONPATH", "")])
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True, text=True, env=env, check=False, timeout=120,
    )


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("site")
    proc = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index",
         "--no-build-isolation", "--disable-pip-version-check", "--target", str(target),
         str(TOY)],
        capture_output=True, text=True, check=False, timeout=300,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert (target / "urnld_toy" / "__init__.py").is_file()
    return target


def test_toy_nid_is_generic_when_not_installed() -> None:
    assert get_rule("toy") is GENERIC
    assert canonical("urn:toy:tAbc") == "urn:toy:tAbc"
    assert not equivalent("urn:toy:tabc", "urn:toy:TABC")


def test_installed_plugin_rule_is_used(installed: Path) -> None:
    proc = _run(
        """
        import json, urnld
        from urnld.namespaces import get_rule, known_nids
        rule = get_rule("TOY")
        print(json.dumps({
            "module": type(rule).__module__,
            "canonical": urnld.canonical("URN:TOY:tAbc%2f"),
            "equivalent": urnld.equivalent("urn:toy:tabc", "urn:toy:TABC"),
            "check_bad": [[f.code, f.rule] for f in urnld.check("urn:toy:xyz")],
            "check_good": [f.code for f in urnld.check("urn:toy:TABC")],
            "known": "toy" in known_nids(),
            "isbn_still_builtin": type(get_rule("isbn")).__module__,
        }))
        """,
        installed,
    )
    assert proc.returncode == 0, proc.stderr
    got = json.loads(proc.stdout)
    assert got == {
        "module": "urnld_toy",
        "canonical": "urn:toy:TABC%2F",
        "equivalent": True,
        "check_bad": [
            ["nss-invalid", "toy: urnld tests §toy"],
            ["nid-unregistered", None],
            ["not-canonical", None],  # the plugin upper-cases: "urn:toy:XYZ"
        ],
        "check_good": ["nid-unregistered"],
        "known": True,
        "isbn_still_builtin": "urnld.namespaces.isbn",
    }


def test_cli_lists_the_plugin(installed: Path) -> None:
    proc = _run(
        """
        import sys
        from urnld.cli import main
        sys.exit(main(["namespaces", "--json", "toy", "isbn"]))
        """,
        installed,
    )
    assert proc.returncode == 0, proc.stderr
    rows = {row["nid"]: row for row in json.loads(proc.stdout)}
    assert rows["toy"]["registered"] is False
    assert rows["toy"]["rule"]["source"] == "plugin"
    assert rows["toy"]["rule"]["reference"] == "urnld tests §toy"
    assert rows["isbn"]["rule"]["source"] == "builtin"


def test_broken_plugin_is_reported_not_fatal(tmp_path: Path) -> None:
    """A plugin whose object cannot be imported: NamespacePluginError; the CLI lists the error."""
    info = tmp_path / "broken_plugin-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: broken-plugin\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[urnld.namespaces]\nbroken = no_such_module:RULE\n")
    proc = _run(
        """
        import json, sys
        from urnld.namespaces import NamespacePluginError, get_rule
        try:
            get_rule("broken")
        except NamespacePluginError as e:
            print("error:", e, file=sys.stderr)
        else:
            sys.exit("no error")
        from urnld.cli import main
        sys.exit(main(["namespaces", "--json", "broken"]))
        """,
        tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    assert "no_such_module" in proc.stderr
    (row,) = json.loads(proc.stdout)
    assert row["rule"] is None and "no_such_module" in row["rule_error"]
