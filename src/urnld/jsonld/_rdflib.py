"""Let rdflib's own JSON-LD parser load URN-named contexts through a urnld loader.

rdflib 7.6 fetches a remote context in
``rdflib.plugins.shared.jsonld.context.Context._fetch_context`` by calling
``source_to_json(url)``, a name that module imports from ``…jsonld.util``. For a ``urn:``
URL that ends in ``urllib`` and fails with ``URLError: unknown url type: urn``.
:func:`rdflib_loader` replaces that one module-level name for the duration of a ``with`` block,
so context URLs go to the loader while the parser's main input is read as before.
"""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import Iterator
from typing import Any

from ._loader import DocumentLoader

__all__ = ["rdflib_loader"]

_lock = threading.RLock()


@contextlib.contextmanager
def rdflib_loader(loader: DocumentLoader) -> Iterator[None]:
    """Within the block, rdflib's JSON-LD parser loads remote contexts with *loader*.

    Every context URL goes to *loader*: a :class:`URNDocumentLoader` without a fallback keeps
    rdflib offline. Blocks nest; the previous loader comes back on exit. The hook is
    process-wide (rdflib has no per-parse setting), so other threads parsing JSON-LD inside the
    block use *loader* too.

    >>> from rdflib import Graph
    >>> from urnld.jsonld import URNDocumentLoader
    >>> ctx = {"@context": {"@vocab": "https://schema.org/"}}
    >>> loader = URNDocumentLoader({"urn:example:ctx": ctx})
    >>> data = '{"@context": "URN:EXAMPLE:ctx", "@id": "urn:example:a", "name": "A"}'
    >>> with rdflib_loader(loader):
    ...     g = Graph().parse(data=data, format="json-ld")
    >>> [str(p) for p in g.predicates()]
    ['https://schema.org/name']
    """
    from rdflib.plugins.shared.jsonld import context as rdflib_context

    def source_to_json(source: Any, fragment_id: Any = None,
                       extract_all_scripts: Any = False) -> tuple[Any, Any]:
        if not isinstance(source, str):
            result: tuple[Any, Any] = original(source, fragment_id, extract_all_scripts)
            return result
        remote = loader(source, {})
        document = remote["document"]
        if isinstance(document, (str, bytes)):
            document = json.loads(document)
        return document, None

    # The module imports source_to_json by name from .util; replacing that module attribute is
    # the one place rdflib looks it up at call time.
    with _lock:
        original: Any = getattr(rdflib_context, "source_to_json")  # noqa: B009
        setattr(rdflib_context, "source_to_json", source_to_json)  # noqa: B010
    try:
        yield
    finally:
        with _lock:
            setattr(rdflib_context, "source_to_json", original)  # noqa: B010
