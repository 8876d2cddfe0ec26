"""The runnable examples in urnld.jsonld's and urnld.xmlns's docstrings stay correct.

Public objects report ``urnld.jsonld`` as their module, so doctest finds their examples there;
the private modules contribute their module docstrings and private helpers.
"""

from __future__ import annotations

import doctest
import importlib
import warnings

MODULES = ["urnld.jsonld", "urnld.jsonld._api", "urnld.jsonld._canon", "urnld.jsonld._context",
           "urnld.jsonld._errors", "urnld.jsonld._loader", "urnld.jsonld._rdflib", "urnld.xmlns"]


def test_docstring_examples():
    failed = attempted = 0
    for name in MODULES:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)  # rdflib's ConjunctiveGraph notice
            result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
        failed += result.failed
        attempted += result.attempted
    assert failed == 0
    assert attempted >= 40  # the examples were found, not silently skipped
