"""Repository-wide guarantees: lint and types clean, doctests pass, the core stays stdlib-only."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import urnld

REPO_ROOT = Path(__file__).resolve().parent.parent

HEAVY = ("rdflib", "pyld", "pyshacl", "pyoxigraph", "stdnum", "dask", "distributed")


def _modules() -> list[str]:
    found = pkgutil.walk_packages(urnld.__path__, prefix="urnld.")
    return sorted(["urnld", *(info.name for info in found)])


@pytest.mark.parametrize("name", _modules())
def test_doctests(name: str) -> None:
    """Every docstring example in src/ runs: the one runner for module doctests."""
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} doctest(s) failed in {name}"
    if not any(part.startswith("_") for part in name.split(".")[1:]):
        # a public module shows how it is used; found, not silently skipped
        assert result.attempted > 0, f"{name} has no docstring example"


def test_ruff_clean() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "src", "tests", "bench", "examples", "scripts"],
        cwd=REPO_ROOT, capture_output=True, text=True, check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.slow
def test_mypy_strict() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "mypy"],
        cwd=REPO_ROOT, capture_output=True, text=True, check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_core_imports_only_the_standard_library() -> None:
    """Parsing, checking and canonicalizing with built-in rules pulls in no third-party code."""
    code = (
        "import sys, urnld\n"
        "urnld.check('URN:ISBN:0-395-36341-1'); urnld.canonical('urn:uuid:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6')\n"
        "list(urnld.find_urns('see urn:ietf:rfc:2141'))\n"
        f"bad = sorted(m for m in sys.modules if m.split('.')[0] in {HEAVY!r})\n"
        "print(','.join(bad))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert proc.stdout.strip() == ""


def test_parse_command_does_not_import_rdflib() -> None:
    code = (
        "import sys\nfrom urnld.cli import main\n"
        "main(['parse', '--json', 'urn:example:a'])\n"
        "assert 'rdflib' not in sys.modules, 'urnld parse imported rdflib'\n"
    )
    subprocess.run([sys.executable, "-c", code], capture_output=True, check=True)
