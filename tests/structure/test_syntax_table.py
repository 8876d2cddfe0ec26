"""The syntax table is complete: adding a syntax is one row, and a row that leaves out a
capability its other columns need fails at import, never as a silent skip later."""

from __future__ import annotations

import dataclasses

import pytest

from urnld._kernel import SYNTAXES
from urnld._kernel._formats import _complete


def test_every_streamed_syntax_has_its_urn_base_scanner() -> None:
    from urnld.stream._sniff import _URN_BASE

    streamed = {n for n, s in SYNTAXES.items() if s.streams and s.lines is None}
    assert streamed == set(_URN_BASE) == {"turtle", "trig", "n3", "xml", "json-ld"}


def test_a_row_without_its_scanner_is_refused_at_import() -> None:
    row = dataclasses.replace(SYNTAXES["turtle"], name="turtle2", urn_base=None)
    with pytest.raises(ImportError, match="turtle2 is streamed but has no urn_base"):
        _complete((row,))
