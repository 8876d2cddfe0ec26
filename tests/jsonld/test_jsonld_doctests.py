"""The runnable examples in urnld.jsonld's and urnld.xmlns's docstrings stay correct."""

from __future__ import annotations

import doctest
import importlib
import warnings

import pytest

MODULES = ["urnld.jsonld", "urnld.jsonld._api", "urnld.jsonld._canon", "urnld.jsonld._context",
           "urnld.jsonld._errors", "urnld.jsonld._loader", "urnld.jsonld._rdflib", "urnld.xmlns"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # rdflib's ConjunctiveGraph notice
        result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert result.attempted > 0 or name in ("urnld.jsonld._errors",)
