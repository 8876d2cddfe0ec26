"""Inputs that are not cut into line partitions: each is one task, on one worker.

Turtle, TriG, RDF/XML, JSON-LD, N3, TriX and HexTuples cannot be split at line boundaries (a
statement can span lines, prefixes and bases hold for the rest of the document, a JSON-LD
context for the whole object). So one worker runs on such a document what ``urnld canonicalize``
/ ``check`` run locally, on the engine the one route (:func:`urnld._kernel.canonicalize_route`)
picks: streamed through N-Quads (:mod:`urnld.stream`, in bounded memory) where the local command
streams it, else read whole by :func:`urnld.read.read` (offline JSON-LD catalog, URN base guard,
the same one-line errors) into a graph that the worker holds, as the local command does. The
driver holds none of it. An N-Triples/N-Quads input goes the same way when the output syntax or
``iris="rfc3986"`` needs the in-memory pass, as locally.

Hazard warnings (``hazards="warn"``) are recorded on the worker and raised again in the driver,
so a caller (the command line) sees them as if it had read the document itself.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from .._kernel import canonicalize_route
from ..errors import URNContextWarning, URNError
from ..read import Catalog, HazardMode, ReadError

__all__ = ["Reading", "check_hazards", "partitions", "reading_catalog", "recorded", "relay"]

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Reading:
    """How a worker reads one document: its syntax (the reader's name) and the reader's options.

    ``catalog`` is an absolute directory path (workers may run in another directory), a mapping,
    or a document loader; it travels to the worker with the task.
    """

    format: str
    catalog: Catalog
    base: str | None
    hazards: HazardMode

    def options(self) -> dict[str, Any]:
        """The keyword arguments of :func:`urnld.read.read`."""
        return {"format": self.format, "catalog": self.catalog, "base": self.base,
                "hazards": self.hazards}


def reading_catalog(catalog: Catalog) -> Catalog:
    """*catalog* as workers must see it: a path made absolute (relative to this process).

    >>> reading_catalog("cat") == os.path.abspath("cat")
    True
    """
    if isinstance(catalog, (str, os.PathLike)):
        return os.path.abspath(catalog)
    return catalog


def check_hazards(hazards: object) -> HazardMode:
    """Refuse a bad ``hazards`` before any cluster starts."""
    if hazards not in ("error", "warn", "ignore"):
        raise ReadError(f"hazards must be 'error', 'warn' or 'ignore', not {hazards!r}")
    return hazards


def partitions(in_fmt: str, output_format: str | None, iris: str) -> bool:
    """Is an input of syntax *in_fmt* cut into line partitions? When the one route says the
    line pass alone does the job (:attr:`urnld._kernel.Route.partitions`), as the local
    command and :func:`urnld.stream.canonicalize_file` ask it.

    >>> partitions("nt", None, "as-is"), partitions("nquads", "nt", "as-is")
    (True, False)
    >>> partitions("turtle", "nt", "as-is"), partitions("nt", "turtle", "as-is")
    (False, False)
    """
    try:
        return canonicalize_route(in_fmt, output_format or in_fmt, iris=iris).partitions
    except URNError:
        return False  # a serializer of a plugin urnld does not know: written from a graph


def recorded(func: Callable[[], T]) -> tuple[T, list[str]]:
    """Run *func*; return its result and the URN hazard warnings it raised (their messages)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", URNContextWarning)
        result = func()
    return result, [str(w.message) for w in caught if issubclass(w.category, URNContextWarning)]


def relay(messages: list[str]) -> None:
    """Raise again, in this process, the hazard warnings a worker recorded."""
    for message in messages:
        warnings.warn(message, URNContextWarning, stacklevel=3)
