"""JSON-LD through pyoxigraph, its contexts inlined from the catalog (nothing is fetched).

pyld (the processor behind :mod:`urnld.jsonld`, with the URN hazard checks and the catalog)
drops statements that the JSON-LD 1.1 algorithms produce (property-based ``@index`` maps, as
of pyld 3.3); pyoxigraph produces them, but loads no context. So the reader runs pyld first
(every hazard check and error as before), then gives pyoxigraph the document with each context
reference replaced by the context the catalog holds for it. A document whose contexts cannot
all be inlined that way (a relative reference without a base, a cycle) keeps pyld's result.

>>> from urnld.jsonld import URNDocumentLoader
>>> loader = URNDocumentLoader({"urn:example:ctx": {"@context": {"@vocab": "http://e.org/",
...                                                               "@base": "urn:x:"}}})
>>> inline_contexts({"@context": "urn:example:ctx", "name": "x"}, loader, None)
{'@context': {'@vocab': 'http://e.org/'}, 'name': 'x'}
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .._kernel import reference_kind, resolve

__all__ = ["CannotInline", "inline_contexts", "oxigraph_quads"]


class CannotInline(Exception):  # internal control flow, never raised to callers
    """The document's contexts cannot all be inlined: pyld's result is kept."""


Loader = Callable[..., Any]


def _absolute(ref: str, base: str | None) -> str:
    if reference_kind(ref) == "absolute":
        return ref
    if base is None:
        raise CannotInline(ref)
    return resolve(ref, base)


def _remote(url: str, loader: Loader, seen: frozenset[str]) -> Any:
    if url in seen:
        raise CannotInline(url)
    remote = loader(url, {})
    document = remote.get("document") if isinstance(remote, dict) else None
    if not isinstance(document, dict) or "@context" not in document:
        raise CannotInline(url)
    context = document["@context"]
    if isinstance(context, dict):
        # JSON-LD 1.1, Context Processing 5.2.5: "@base" of a remote context is ignored.
        context = {k: v for k, v in context.items() if k != "@base"}
    return _context(context, loader, url, seen | {url})


def _context(ctx: Any, loader: Loader, base: str | None, seen: frozenset[str]) -> Any:
    """*ctx* (a context value) with every context reference replaced by its document's."""
    if isinstance(ctx, str):
        return _remote(_absolute(ctx, base), loader, seen)
    if isinstance(ctx, list):
        out: list[Any] = []
        for item in ctx:
            value = _context(item, loader, base, seen)
            out.extend(value if isinstance(value, list) else [value])
        return out
    if not isinstance(ctx, dict):
        return ctx
    result: dict[str, Any] = {}
    imported = ctx.get("@import")
    if imported is not None:
        if not isinstance(imported, str):
            raise CannotInline("@import")
        value = _remote(_absolute(imported, base), loader, seen)
        if not isinstance(value, dict) or "@import" in value:
            raise CannotInline(imported)
        result.update(value)  # the importing context's own terms win (JSON-LD 1.1 4.1.10)
    for key, value in ctx.items():
        if key == "@import":
            continue
        if isinstance(value, dict) and "@context" in value:  # a scoped context
            result[key] = {**value, "@context": _context(value["@context"], loader, base, seen)}
        else:
            result[key] = value
    return result


def inline_contexts(doc: Any, loader: Loader, base: str | None) -> Any:
    """*doc* with every ``@context`` reference (and ``@import``) replaced by the context the
    *loader* gives for it; raises :class:`CannotInline` when one cannot be."""
    if isinstance(doc, list):
        return [inline_contexts(item, loader, base) for item in doc]
    if not isinstance(doc, dict):
        return doc
    out: dict[str, Any] = {}
    for key, value in doc.items():
        if key == "@context":
            out[key] = _context(value, loader, base, frozenset())
        else:
            out[key] = inline_contexts(value, loader, base)
    return out


def oxigraph_quads(doc: Any, loader: Loader, base: str | None) -> list[Any] | None:
    """pyoxigraph's statements of the JSON-LD *doc*, contexts inlined; None when they cannot
    be, or when pyoxigraph refuses what pyld read (pyld's result then stands)."""
    import json

    import pyoxigraph as ox

    from ._oxigraph import reading_kept

    try:
        inlined = inline_contexts(doc, loader, base)
    except (CannotInline, ValueError, RecursionError):  # ValueError: the catalog's errors
        return None
    try:
        return list(ox.parse(json.dumps(inlined).encode("utf-8"), ox.RdfFormat.JSON_LD,
                             base_iri=base, rename_blank_nodes=not reading_kept()))
    except (SyntaxError, ValueError, MemoryError):
        return None
