"""JSON-LD through pyoxigraph, its contexts inlined from the catalog (nothing is fetched).

The reader runs pyld first (the processor behind :mod:`urnld.jsonld`: every hazard check and
error, the catalog), then gives pyoxigraph the document with each context reference replaced
by the context the catalog holds for it: pyoxigraph keeps literals as written. pyoxigraph 0.5
deviates from the JSON-LD 1.1 toRdf algorithm in three places, which the reader routes around
(the W3C test ids in brackets):

* it keeps dot segments when it resolves a relative IRI against a base that has some, or a
  network-path reference (``http://foo.bar/./baz/example/relative-iri``: e091, e062, 0122,
  0123): a document with a dot segment in any string keeps pyld's result;
* a type-scoped context reaches into the nodes of a map it indexes (c013): a document with a
  scoped context keeps pyld's result;
* ``@direction`` becomes an RDF 1.2 directional literal ``"x"@en--ltr`` (di02–di06), where
  JSON-LD 1.1 with the default ``rdfDirection`` (null) drops the direction: :func:`drop_directions`
  does; with ``rdfDirection`` set, pyld's result is kept.

A document whose contexts cannot all be inlined (a relative reference without a base, a
cycle) keeps pyld's result too.

>>> from urnld.jsonld import URNDocumentLoader
>>> loader = URNDocumentLoader({"urn:example:ctx": {"@context": {"@vocab": "http://e.org/",
...                                                               "@base": "urn:x:"}}})
>>> inline_contexts({"@context": "urn:example:ctx", "name": "x"}, loader, None)
{'@context': {'@vocab': 'http://e.org/'}, 'name': 'x'}
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from .._kernel import reference_kind, resolve

__all__ = ["CannotInline", "drop_directions", "inline_contexts", "oxigraph_deviates",
           "oxigraph_quads"]

# A dot segment ("." or "..") as a whole path segment of a reference: RFC 3986 §5.2.4 removes
# them when it resolves the reference, pyoxigraph 0.5 does not always.
_DOT_SEGMENT = re.compile(r"(?:^|/)\.\.?(?:$|[/?#])")


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


def oxigraph_quads(doc: Any, loader: Loader, base: str | None,
                   rdf_direction: str | None = None) -> list[Any] | None:
    """pyoxigraph's statements of the JSON-LD *doc*, contexts inlined, directional literals
    made JSON-LD 1.1's; None when the contexts cannot be inlined, when pyoxigraph would deviate
    from the toRdf algorithm (:func:`oxigraph_deviates`), or when pyoxigraph refuses what pyld
    read (pyld's result then stands)."""
    import json

    import pyoxigraph as ox

    try:
        inlined = inline_contexts(doc, loader, base)
    except (CannotInline, ValueError, RecursionError):  # ValueError: the catalog's errors
        return None
    if oxigraph_deviates(inlined, rdf_direction, base):
        return None
    try:
        return list(drop_directions(ox.parse(
            json.dumps(inlined).encode("utf-8"), ox.RdfFormat.JSON_LD, base_iri=base,
            rename_blank_nodes=True)))
    except (SyntaxError, ValueError, MemoryError):
        return None


def oxigraph_deviates(doc: Any, rdf_direction: str | None = None,
                      base: str | None = None) -> bool:
    """Whether pyoxigraph 0.5 may give other statements than the JSON-LD 1.1 toRdf algorithm
    for *doc* (its contexts inlined) read against *base*: a dot segment in a base (*base*,
    ``@base``) or in a network-path reference (``//host/../x``), a scoped context, or
    ``@direction`` with an *rdf_direction* (see the module's docstring). Dot segments
    elsewhere are kept by the algorithm too (a ``@vocab`` is concatenated, not resolved).

    >>> oxigraph_deviates({"@context": {"@base": "http://a/./b/"}, "@id": "c"})
    True
    >>> oxigraph_deviates({"@context": {"@vocab": "http://a/./b#"}, "../x": "./y"})
    False
    """
    if base is not None and "." in base and _DOT_SEGMENT.search(base):
        return True
    stack = [doc]
    while stack:
        value = stack.pop()
        if isinstance(value, str):
            if value[:2] == "//" and "." in value and _DOT_SEGMENT.search(value):
                return True
        elif isinstance(value, list):
            stack.extend(value)
        elif isinstance(value, dict):
            for key, item in value.items():
                if key == "@context" and isinstance(item, (dict, list)) and _scoped(item):
                    return True
                if key == "@direction" and rdf_direction is not None:
                    return True
                if (key == "@base" and isinstance(item, str) and "." in item
                        and _DOT_SEGMENT.search(item)):
                    return True
                if key[:2] == "//" and "." in key and _DOT_SEGMENT.search(key):
                    return True
                stack.append(item)
    return False


def _scoped(ctx: Any) -> bool:
    """Whether the context value *ctx* defines a term with a context of its own."""
    items = ctx if isinstance(ctx, list) else [ctx]
    return any(isinstance(c, dict) and any(
        isinstance(d, dict) and "@context" in d for k, d in c.items() if k[:1] != "@")
        for c in items)


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
