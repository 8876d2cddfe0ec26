"""Streaming URN canonicalization and checking of RDF files, in bounded memory.

N-Triples and N-Quads are read line by line; Turtle and TriG (and N-Triples or N-Quads written
as another syntax) are read by libserd where urnld's accelerator was built with it
(:func:`readers` says which reader each syntax goes through), each statement through the same
pass in C; N3, RDF/XML and JSON-LD, and every syntax without libserd, are turned into N-Quads on
the way by pyoxigraph and written back in the output syntax (see :func:`canonicalize_file`'s
``input_format`` / ``output_format``), so every syntax gets the same pass and the same report.

Lines in, lines out: nothing but the current batch of lines and a bounded cache of the
canonical form of distinct terms is held in memory, so a 4M-triple file needs no more memory
than a 1M-triple one.

>>> from urnld.report import CanonicalizeReport
>>> from urnld.stream import canonicalize_lines
>>> report = CanonicalizeReport()
>>> lines = [b'<URN:ISBN:0-395-36341-1> <http://purl.org/dc/terms/title> "Title" .\\n']
>>> b"".join(canonicalize_lines(lines, source="demo.nt", report=report))
b'<urn:isbn:0395363411> <http://purl.org/dc/terms/title> "Title" .\\n'
>>> report.rewritten
1

Output lines are statements in a normalized layout (``S P O [G] .`` separated by single spaces,
``\\n`` line ends); blank lines and comments are dropped. Terms that are not URNs are written
back byte for byte (escapes included). The stream is not deduplicated: two spellings of the same
URN give two identical output lines, which any RDF store merges on load.

Blank-node labels pass through unchanged: a label's scope is the file, so callers that combine
files (the Dask engine) must keep labels of different files apart themselves.

The package reads downward: ``_grammar`` (the line grammar and its error) and ``_chunks``
(cutting input into whole lines) → ``_passes`` (rewrite and check) → ``_workers`` (the rewrite
on several processes) → ``_syntaxes`` (the other syntaxes through pyoxigraph, their guards) →
``_run`` (files, options, progress). Which terms are URNs and what their
canonical form is comes from the term rule, :mod:`urnld._kernel`; files are opened and written
by :mod:`urnld._kernel`.
"""

from __future__ import annotations

from .._kernel import CanonOptions
from .._kernel import atomic_output as atomic_output
from ._chunks import MAX_LINE_BYTES, read_lines
from ._grammar import NTriplesSyntaxError
from ._names import SYNTAXES, RDFSyntaxError
from ._passes import OnError as OnError
from ._run import (
    Progress,
    ProgressCallback,
    canonicalize_file,
    canonicalize_lines,
    check_file,
    check_lines,
)
from ._serd import reader_names as readers

# Also importable, as before: atomic_output (the file layer's writer) and OnError.
__all__ = [
    "MAX_LINE_BYTES",
    "SYNTAXES",
    "CanonOptions",
    "NTriplesSyntaxError",
    "Progress",
    "ProgressCallback",
    "RDFSyntaxError",
    "canonicalize_file",
    "canonicalize_lines",
    "check_file",
    "check_lines",
    "read_lines",
    "readers",
]


def __dir__() -> list[str]:
    return __all__
