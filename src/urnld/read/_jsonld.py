"""JSON-LD through pyoxigraph, its contexts inlined from the catalog (nothing is fetched).

The reader runs pyld first (the processor behind :mod:`urnld.jsonld`: every hazard check and
error, the catalog), then gives pyoxigraph the document with its contexts inlined
(:func:`urnld.jsonld.inline_contexts`): pyoxigraph keeps literals as written. Where pyoxigraph
0.5 reads otherwise than the JSON-LD 1.1 toRdf algorithm (:func:`urnld.jsonld.oxigraph_deviates`),
and where the contexts cannot be inlined, pyld's result is kept; the directional literals
pyoxigraph makes of ``@direction`` become what JSON-LD 1.1 gives (:func:`drop_directions`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from ..jsonld import inline_contexts, oxigraph_deviates

__all__ = ["drop_directions", "oxigraph_quads"]

Loader = Callable[..., Any]


def oxigraph_quads(doc: Any, loader: Loader, base: str | None,
                   rdf_direction: str | None = None) -> list[Any] | None:
    """pyoxigraph's statements of the JSON-LD *doc*, contexts inlined, directional literals
    made JSON-LD 1.1's; None when the contexts cannot be inlined, when pyoxigraph would deviate
    from the toRdf algorithm (:func:`oxigraph_deviates`), or when pyoxigraph refuses what pyld
    read (pyld's result then stands)."""
    import json

    import pyoxigraph as ox

    from ._oxigraph import reading_kept

    inlined = inline_contexts(doc, loader, base)
    if inlined is None:
        return None
    if oxigraph_deviates(inlined, rdf_direction, base):
        return None
    try:
        return list(drop_directions(ox.parse(
            json.dumps(inlined).encode("utf-8"), ox.RdfFormat.JSON_LD, base_iri=base,
            rename_blank_nodes=not reading_kept())))
    except (SyntaxError, ValueError, MemoryError):
        return None


def drop_directions(quads: Iterable[Any]) -> Iterator[Any]:
    """*quads* with every directional literal ``"x"@en--ltr`` made ``"x"@en``: JSON-LD 1.1's
    toRdf with the default ``rdfDirection`` (null) keeps the language and drops the direction.

    >>> import pyoxigraph as ox
    >>> q = ox.Quad(ox.NamedNode("http://a/s"), ox.NamedNode("http://a/p"),
    ...             ox.Literal("x", language="en", direction=ox.BaseDirection.LTR))
    >>> [str(q.object) for q in drop_directions([q])]
    ['"x"@en']
    """
    import pyoxigraph as ox

    literal = ox.Literal
    for q in quads:
        o = q.object
        if type(o) is literal and o.direction is not None:
            yield ox.Quad(q.subject, q.predicate, literal(o.value, language=o.language),
                          q.graph_name)
        else:
            yield q
