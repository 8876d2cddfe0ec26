"""Contexts inlined from a catalog, and what pyoxigraph 0.5 reads otherwise than JSON-LD 1.1.

pyoxigraph reads JSON-LD fast and keeps literals as written, but loads no context: given a
document with each context reference replaced by the context the catalog holds for it
(:func:`inline_contexts`), it reads what pyld reads. It deviates from the JSON-LD 1.1 toRdf
algorithm in three places (the W3C test ids in brackets), which :func:`oxigraph_deviates`
tells from the inlined document:

* it keeps dot segments when it resolves a relative IRI against a base that has some, or a
  network-path reference (``http://foo.bar/./baz/example/relative-iri``: e091, e062, 0122,
  0123); dot segments elsewhere are kept by the algorithm too (a ``@vocab`` is concatenated,
  not resolved: e111, e112);
* a type-scoped context reaches into the nodes of a map it indexes (c013): any scoped context
  counts;
* ``@direction`` becomes an RDF 1.2 directional literal ``"x"@en--ltr`` (di02–di06), where
  JSON-LD 1.1 with the default ``rdfDirection`` (null) drops the direction (which a reader
  can do on pyoxigraph's statements); with an ``rdfDirection`` it counts.

>>> from urnld.jsonld import URNDocumentLoader
>>> loader = URNDocumentLoader({"urn:example:ctx": {"@context": {"@vocab": "http://e.org/",
...                                                               "@base": "urn:x:"}}})
>>> inline_contexts({"@context": "urn:example:ctx", "name": "x"}, loader, None)
{'@context': {'@vocab': 'http://e.org/'}, 'name': 'x'}
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from .._kernel import reference_kind, resolve

__all__ = ["inline_contexts", "oxigraph_deviates"]

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


def _inline(doc: Any, loader: Loader, base: str | None) -> Any:
    if isinstance(doc, list):
        return [_inline(item, loader, base) for item in doc]
    if not isinstance(doc, dict):
        return doc
    out: dict[str, Any] = {}
    for key, value in doc.items():
        if key == "@context":
            out[key] = _context(value, loader, base, frozenset())
        else:
            out[key] = _inline(value, loader, base)
    return out


def inline_contexts(doc: Any, loader: Loader, base: str | None) -> Any:
    """*doc* with every ``@context`` reference (and ``@import``) replaced by the context the
    *loader* (a catalog's) gives for it, ``@base`` of remote contexts dropped (JSON-LD 1.1,
    Context Processing 5.2.5); None when one cannot be (a relative reference without a base,
    a cycle, a document the loader does not have or that holds no context).

    >>> from urnld.jsonld import URNDocumentLoader
    >>> inline_contexts({"@context": "urn:example:none"}, URNDocumentLoader({}), None) is None
    True
    """
    try:
        return _inline(doc, loader, base)
    except (CannotInline, RecursionError):
        return None
    except Exception:  # whatever the loader raises: pyld's pass then says it
        # (a "@context" inside a JSON literal is data, not a context: W3C toRdf js21).
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
