"""The options every command that reads RDF shares, and reading a file with them.

``--input-format`` (the syntax; default: from the extension), ``--catalog DIR`` (where JSON-LD
contexts come from: nothing is fetched), ``--base IRI`` and ``--hazards`` (relative references
against a URN base: stop, warn, or go on silently). Reading goes through :func:`urnld.read.read`.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import warnings
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rdflib import Graph

__all__ = [
    "add_input_options",
    "add_iris_option",
    "read_graph",
    "read_options",
    "refuse_long_lines",
    "warnings_to_stderr",
]


def add_input_options(
    parser: argparse.ArgumentParser, *, stdin: str, input_format: bool = True
) -> None:
    """Add the input options to *parser*; *stdin* names the syntax ``-`` is read as."""
    if input_format:
        parser.add_argument(
            "--input-format", metavar="F",
            help="input syntax (turtle, trig, nt, nquads, xml, json-ld, n3, trix, hext); "
            f"default: from the file extension (stdin: {stdin})",
        )
    parser.add_argument(
        "--catalog", metavar="DIR",
        help="directory whose catalog.json maps URNs/URLs to local JSON-LD contexts; nothing "
        "is fetched from the network",
    )
    parser.add_argument(
        "--base", metavar="IRI",
        help="base IRI for relative references (default: the file's location)",
    )
    parser.add_argument(
        "--hazards", choices=("error", "warn", "ignore"), default="error",
        help="relative references against a URN base: stop (default, exit 2), warn and "
        "resolve them as RFC 3986 does, or resolve them silently",
    )


def add_iris_option(parser: argparse.ArgumentParser) -> None:
    """``--iris as-is|rfc3986``: RFC 3986 §6 normalization of the IRIs that are not URNs."""
    parser.add_argument(
        "--iris", choices=("as-is", "rfc3986"), default="as-is",
        help="IRIs that are not URNs: keep as written (default) or normalize them by RFC 3986 "
        "§6 (case, %%-escapes, dot segments, default ports); loads N-Triples into memory",
    )


def read_options(args: argparse.Namespace) -> dict[str, Any]:
    """The keyword arguments of :func:`urnld.read.read` that the options give."""
    return {
        "catalog": getattr(args, "catalog", None),
        "base": getattr(args, "base", None),
        "hazards": getattr(args, "hazards", "error"),
    }


def read_graph(path: str, fmt: str, args: argparse.Namespace) -> Graph:
    """Read *path* (syntax *fmt*) with the options in *args*."""
    from ..read import read

    return read(path, format=fmt, **read_options(args))


def refuse_long_lines(path: str, limit: int | None = None) -> None:
    r"""Raise :class:`~urnld.URNError` when the regular file *path* has a line longer than
    *limit* bytes (default: the streaming reader's :data:`urnld.stream.MAX_LINE_BYTES`).

    rdflib's parsers take minutes over one giant line; this scan reads the file once, at the
    speed of ``bytes.find``, and stops at the first line over the limit. Standard input and
    FIFOs are not scanned (that would consume them).

    >>> import pathlib, tempfile
    >>> f = pathlib.Path(tempfile.mkdtemp()) / "x.nt"
    >>> _ = f.write_bytes(b"<a> <b> <c> .\n" + b"x" * 100 + b"\n")
    >>> refuse_long_lines(str(f), limit=50)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    urnld.URNError: .../x.nt:2: line longer than 50 bytes (the limit)
    """
    import os
    import stat

    from .._kernel import open_input
    from ..errors import URNError
    from ..stream import MAX_LINE_BYTES

    limit = MAX_LINE_BYTES if limit is None else limit
    try:
        if path == "-" or not stat.S_ISREG(os.stat(path).st_mode):
            return
    except OSError:
        return  # the reader says what is wrong with it
    line, run = 1, 0  # run: bytes since the last newline
    with open_input(path) as (f, _size):
        # Blocks of at most limit + 1 bytes: a line between two newlines of one block is then
        # within the limit, and only the line that spans blocks (ends at `first`) can be over.
        while block := f.read(min(1 << 20, limit + 1)):
            first = block.find(b"\n")
            run += len(block) if first < 0 else first
            if run > limit:
                raise URNError(f"{path}:{line}: line longer than {limit:,} bytes (the limit)")
            if first >= 0:
                line += block.count(b"\n")
                run = len(block) - block.rfind(b"\n") - 1


@contextlib.contextmanager
def warnings_to_stderr(prog: str) -> Iterator[None]:
    """Print URN hazard warnings raised in the block as ``PROG: warning: …`` lines."""
    from ..errors import URNContextWarning

    caught: list[warnings.WarningMessage] = []
    try:
        with warnings.catch_warnings(record=True) as recorded:
            warnings.simplefilter("always", URNContextWarning)
            try:
                yield
            finally:
                caught = list(recorded)
    finally:
        # Outside the recording block: a warning passed on here must not be recorded again.
        for warning in caught:
            if issubclass(warning.category, URNContextWarning):
                print(f"{prog}: warning: {warning.message}", file=sys.stderr)
            else:
                warnings.warn_explicit(warning.message, warning.category,
                                       warning.filename, warning.lineno)
