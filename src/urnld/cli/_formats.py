"""What the commands know about RDF formats and inputs: which stream, which hold quads."""

from __future__ import annotations

import contextlib
import io
import sys
from collections.abc import Iterator
from typing import IO, Final

from .._kernel import open_input
from ..errors import URNError

__all__ = ["QUAD_FORMATS", "STREAMABLE", "first_line", "format_of", "rdflib_source", "source_name"]

#: rdflib format names that the streaming pass reads, and the line syntax each one is.
STREAMABLE: Final = {"nt": "nt", "ntriples": "nt", "nt11": "nt", "nquads": "nq", "nq": "nq"}
#: rdflib format names whose documents hold named graphs (read into a Dataset).
QUAD_FORMATS: Final = frozenset({"nquads", "nq", "trig", "trix", "json-ld", "jsonld", "hext"})


def format_of(path: str, given: str | None, default: str) -> str:
    """The rdflib format: *given*, else guessed from the extension (``.gz`` looked through),
    else *default* for stdin."""
    if given:
        return given
    if path == "-":
        return default
    from rdflib.util import guess_format

    name = path[:-3] if path.endswith(".gz") else path
    fmt = guess_format(name)
    if fmt is None:
        raise URNError(
            f"cannot tell the RDF format of {path!r} from its extension; use --input-format"
        )
    return fmt


@contextlib.contextmanager
def rdflib_source(path: str) -> Iterator[IO[bytes]]:
    """An input for rdflib's parser. stdin is read into memory first: rdflib would otherwise
    take its name, ``<stdin>``, as a base IRI and warn about it."""
    if path == "-":
        yield io.BytesIO(sys.stdin.buffer.read())
        return
    with open_input(path) as (f, _size):
        yield f


def source_name(path: str) -> str:
    """How messages name an input."""
    return "<stdin>" if path == "-" else path


def first_line(e: BaseException) -> str:
    """What a parser disliked, in one line, with its position (see
    :func:`urnld.errors.parser_reason`: rdflib's first line alone is ``at line 4 of <>:``)."""
    from ..errors import parser_reason

    return parser_reason(e)
