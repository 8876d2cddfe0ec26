"""The base guard of the reader: find relative references that meet a URN base, report them.

Turtle, TriG and N3 are scanned as text (only when a URN base can be in play: a ``base=``
argument that is a URN, or ``@base``/``BASE`` followed by ``<urn:`` somewhere in the text, a
test that costs one regular-expression search). The scan follows every base directive and
rewrites each relative IRI reference made under a URN base to its RFC 3986 §5.2 resolution,
which rdflib then reads as an absolute IRI: empty, fragment-only and query-only references come
out right (``urn:example:doc#sec1``), and the hazards (``c``, ``../d``, ``/c``, ``//h/c``) are
reported (``hazards="error"``), or reported and resolved the RFC 3986 way (``"warn"``).
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterable
from contextvars import ContextVar

from .._kernel import (
    BASE_CODE,
    HAZARD_KINDS,
    RDFLIB_OUTCOME,
    HazardMode,  # the one definition (re-exported here)
    base_message,
    is_urn,
    reference_kind,
    resolve,
    turtle_base_hazards,
    turtle_position,
    turtle_references,
)
from ..jsonld import Hazard, URNBaseError, URNContextWarning

__all__ = [
    "IN_READER",
    "HazardMode",
    "Position",
    "guard_text",
    "prefix_like_rewrites",
    "report",
    "rewrite_turtle",
    "turtle_hazards",
    "turtle_may_have_urn_base",
]


#: True while urnld's reader runs one of rdflib's own parsers: the parser plugins urnld
#: registers for graphs on a URN store then hand over to rdflib's (no reading twice).
IN_READER: ContextVar[bool] = ContextVar("urnld_in_reader", default=False)

_MAYBE_URN_BASE = re.compile(rb"(?i)base\s*<\s*urn:")
_MAYBE_URN_BASE_TEXT = re.compile(r"(?i)base\s*<\s*urn:")




class Position:
    """Where a reference is: a source name and, for text syntaxes, line and column (1-based)."""

    __slots__ = ("column", "line", "source")

    def __init__(self, source: str, line: int | None = None, column: int | None = None) -> None:
        self.source, self.line, self.column = source, line, column

    def __str__(self) -> str:
        if self.line is None:
            return self.source
        return f"{self.source}:{self.line}:{self.column}"


def turtle_may_have_urn_base(data: bytes | str) -> bool:
    """The cheap test: could a base directive in *data* name a URN? (False: skip the scan.)

    >>> turtle_may_have_urn_base(b"@base <urn:example:a> ."), turtle_may_have_urn_base(b"<a> .")
    (True, False)
    """
    if isinstance(data, bytes):
        return _MAYBE_URN_BASE.search(data) is not None
    return _MAYBE_URN_BASE_TEXT.search(data) is not None






def rewrite_turtle(
    text: str, base: str | None, *, source: str, syntax: str, mode: HazardMode
) -> tuple[str, list[Hazard]]:
    """Resolve every relative IRI reference of Turtle/TriG/N3 *text* made under a URN base.

    Returns the text with those references written absolute (line numbers unchanged) and the
    hazards found (reported by the caller through :func:`report`).

    >>> out, found = rewrite_turtle('@base <urn:example:doc> . <#s> <p> <c> .', None,
    ...                             source="x.ttl", syntax="turtle", mode="warn")
    >>> out
    '@base <urn:example:doc> . <urn:example:doc#s> <urn:p> <urn:c> .'
    >>> [h.message.split(": relative")[0] for h in found]
    ['x.ttl:1:32', 'x.ttl:1:36']
    """
    pieces: list[str] = []
    last = 0
    found: list[Hazard] = []
    for m, raw, ref, current, _sets_base in turtle_references(text, base):
        if current is None or not is_urn(current):
            continue
        kind = reference_kind(ref)
        if kind == "absolute":
            new = ref
        elif kind == "fragment":  # the common case (<#item1>): RFC 3986 §5.2.2, made short
            new = current.partition("#")[0] + ref
        else:
            new = resolve(ref, current)
        if kind in HAZARD_KINDS:
            line, col = turtle_position(text, m.start())
            found.append(Hazard(BASE_CODE, base_message(
                ref, current, where=str(Position(source, line, col)),
                outcomes={"rdflib": RDFLIB_OUTCOME[syntax]},
                continuing=new if mode == "warn" else None,
            )))
        if new != raw:
            pieces.append(text[last:m.start("iri")])
            pieces.append(new)
            last = m.end("iri")
    if not pieces:
        return text, found
    pieces.append(text[last:])
    return "".join(pieces), found


def turtle_hazards(
    text: str, base: str | None, *, source: str, syntax: str, mode: HazardMode
) -> list[Hazard]:
    """The hazards of Turtle-like *text* (see :func:`rewrite_turtle`), the text left alone:
    for a parser that resolves every reference the RFC 3986 way itself (pyoxigraph).

    >>> [h.message.split(": relative")[0] for h in turtle_hazards(
    ...     '@base <urn:example:doc> . <#s> <p> <c> .', None, source="x.ttl",
    ...     syntax="turtle", mode="error")]
    ['x.ttl:1:32', 'x.ttl:1:36']
    """
    return [Hazard(BASE_CODE, message) for message in turtle_base_hazards(
        text, base, source=source, syntax=syntax, warn=mode == "warn")]


def report(found: Iterable[Hazard], mode: HazardMode, *, stacklevel: int = 3) -> None:
    """Raise :class:`~urnld.jsonld.URNBaseError` (``error``), warn (``warn``), or nothing."""
    hazards = list(found)
    if not hazards or mode == "ignore":
        return
    if mode == "warn":
        for hazard in hazards:
            warnings.warn(hazard.message, URNContextWarning, stacklevel=stacklevel)
        return
    message = hazards[0].message
    if len(hazards) > 1:
        message += f" (and {len(hazards) - 1} more hazard{'s' if len(hazards) > 2 else ''})"
    raise URNBaseError(message, hazards)


def guard_text(
    text: str, base: str | None, *, source: str, syntax: str, hazards: HazardMode = "error"
) -> str:
    """The base guard for Turtle-like text (Turtle, TriG, N3, a SPARQL query or update).

    Returns *text* with every relative reference made under a URN base (a ``BASE``/``@base``
    directive, or *base*) resolved; reports the hazards as :func:`urnld.read.read` does.

    >>> guard_text("BASE <urn:example:doc> SELECT * { <#s> ?p ?o }", None,
    ...            source="query", syntax="sparql")
    'BASE <urn:example:doc> SELECT * { <urn:example:doc#s> ?p ?o }'
    """
    if hazards not in ("error", "warn", "ignore"):
        from ._errors import ReadError

        raise ReadError(f"hazards must be 'error', 'warn' or 'ignore', not {hazards!r}")
    if not ((base is not None and is_urn(base)) or turtle_may_have_urn_base(text)):
        return text
    out, found = rewrite_turtle(text, base, source=source, syntax=syntax, mode=hazards)
    report(found, hazards, stacklevel=4)
    return out


def prefix_like_rewrites(
    text: str, *, source: str, left: list[tuple[str, str, str]] | None = None
) -> tuple[str, list[tuple[str, str, str]]]:
    """Turtle-like *text* with each relative-path reference made under a URN base that ends in
    ``:`` written as base + reference (what "@base <urn:uuid:>" authors mean); and the list of
    ``(where, reference, iri)`` rewrites. Other references are left as they are; those that
    are a hazard under a URN base (see :func:`urnld._kernel.is_hazard`) are appended to
    *left*, when given, as ``(where, reference, "")``."""
    pieces: list[str] = []
    last = 0
    done: list[tuple[str, str, str]] = []
    for m, _raw, ref, current, sets_base in turtle_references(text, None):
        if sets_base or current is None or not is_urn(current):
            continue
        kind = reference_kind(ref)
        if current.endswith(":") and kind == "relative-path":
            new = current + ref
            line, col = turtle_position(text, m.start())
            done.append((str(Position(source, line, col)), ref, new))
            pieces.append(text[last:m.start("iri")])
            pieces.append(new)
            last = m.end("iri")
        elif left is not None and kind in HAZARD_KINDS:
            line, col = turtle_position(text, m.start())
            left.append((str(Position(source, line, col)), ref, ""))
    if not pieces:
        return text, done
    pieces.append(text[last:])
    return "".join(pieces), done
