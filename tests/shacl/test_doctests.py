"""The examples in urnld.shacl's docstrings run and say what they show."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "urnld.shacl",
    "urnld.shacl._pattern",
    "urnld.shacl._rules",
    "urnld.shacl._report",
    "urnld.shacl._load",
    "urnld.shacl._engine",
    "urnld.cli._validate",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    if name in ("urnld.shacl", "urnld.shacl._pattern", "urnld.shacl._rules"):
        assert result.attempted > 0
