"""Fixtures for the SHACL tests."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from rdflib.plugins.sparql.operators import _CUSTOM_FUNCTIONS

from urnld.rdf import URNFN, register_functions

# The test modules share helpers in shacl_helpers.py; tests/ has no packages (PLAN.md), and the
# import mode does not put this directory on sys.path by itself.
sys.path.insert(0, str(Path(__file__).parent))


@pytest.fixture
def restore_functions() -> Iterator[None]:
    """Tests that unregister the urnfn: functions leave them registered again."""
    saved = {k: v for k, v in _CUSTOM_FUNCTIONS.items() if str(k).startswith(str(URNFN))}
    yield
    for k in [k for k in _CUSTOM_FUNCTIONS if str(k).startswith(str(URNFN))]:
        del _CUSTOM_FUNCTIONS[k]
    _CUSTOM_FUNCTIONS.update(saved)
    register_functions()
