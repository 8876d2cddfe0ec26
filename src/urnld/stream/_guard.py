"""The URN-base guard of the streaming path: relative references made against a URN base.

pyoxigraph resolves ``<c>`` against ``@base <urn:example:a:b>`` to ``<urn:c>`` (RFC 3986 §5.2)
without a word; the reader (:mod:`urnld.read`) reports such a reference as the ``urn-base``
finding, and so does the streaming path, with the same message and position. The streaming
path calls :func:`guard_document` only when a base declaration naming a URN was seen in the
input (or one was given): the document is read a second time, here, as text (Turtle, TriG, N3),
with expat (RDF/XML, entities never expanded) or with the JSON-LD processor (JSON-LD). The
references the guard lets pass (``#frag``, ``?q``, empty) resolve the RFC 3986 way, which is
what pyoxigraph wrote: the output needs no change, only the hazards are told (raised with
``hazards="error"``, warned with ``"warn"``).

>>> guard_document(b"@base <urn:example:doc> . <#s> <http://e/p> 1 .", "turtle",
...                base=None, source="x.ttl", hazards="error", catalog=None)
>>> guard_document(b"@base <urn:example:a:b> .\\n<c> <http://e/p> 1 .", "turtle",
...                base=None, source="x.ttl", hazards="error", catalog=None)
Traceback (most recent call last):
...
urnld.jsonld.URNBaseError: x.ttl:2:1: relative reference <c> against the URN base \
<urn:example:a:b>: URNs have no hierarchy, so the reference has no agreed meaning (RFC 3986 \
§5.2, Jena, Oxigraph: <urn:c>; rdflib: refuses the document); write the full IRI or declare a \
prefix [urn-base]
"""

from __future__ import annotations

import json
import warnings
from typing import Any, Literal

from .._kernel import BASE_CODE, turtle_base_hazards, xml_base_hazards
from ..errors import URNError

__all__ = ["guard_document"]

HazardMode = Literal["error", "warn", "ignore"]


def _jsonld(raw: bytes, base: str | None, source: str, mode: HazardMode, catalog: Any) -> None:
    """The JSON-LD processor's own base check (it expands the document a second time with a
    stand-in base). Only the hazards of IRIs made wrong count here: an invalid URN is a finding
    of the report, not a reason to refuse the document."""
    from ..jsonld import URNContextError, URNContextWarning, URNDocumentLoader, to_rdf

    keep = {BASE_CODE, "scheme-term"}
    try:
        doc = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise URNError(f"{source}: cannot parse as json-ld: {e}") from None
    loader = catalog if isinstance(catalog, URNDocumentLoader) else URNDocumentLoader(
        catalog if catalog is not None else {})
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", URNContextWarning)
        try:
            to_rdf(doc, loader=loader, base=base, canonicalize=False, hazards=mode,
                   format="pyld")
        except URNContextError as e:
            hazards = [h for h in e.hazards if h.code in keep]
            if hazards:
                raise type(e)(f"{source}: {hazards[0].message}", hazards) from None
    for w in caught:
        text = str(w.message)
        if issubclass(w.category, URNContextWarning) and (
                f"[{BASE_CODE}]" in text or "URI scheme" in text):
            warnings.warn(f"{source}: {text}", URNContextWarning, stacklevel=4)


def guard_document(
    raw: bytes, syntax: str, *, base: str | None, source: str, hazards: HazardMode,
    catalog: Any,
) -> None:
    """Report the references of the document *raw* made against a URN base, as the reader
    does: :class:`~urnld.jsonld.URNBaseError` (``hazards="error"``), a
    :class:`~urnld.jsonld.URNContextWarning` each (``"warn"``), or nothing (``"ignore"``)."""
    from ..jsonld import Hazard, URNBaseError, URNContextWarning

    if hazards == "ignore":
        return
    if syntax == "json-ld":
        _jsonld(raw, base if base is None or not base.startswith("file:") else None, source,
                hazards, catalog)
        return
    if syntax == "xml":
        found = xml_base_hazards(raw, base, source=source, warn=hazards == "warn")
    else:
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            raise URNError(f"{source}: not UTF-8 (byte {e.start})") from None
        found = turtle_base_hazards(text, base, source=source, syntax=syntax,
                                    warn=hazards == "warn")
    if not found:
        return
    if hazards == "warn":
        for message in found:
            warnings.warn(message, URNContextWarning, stacklevel=3)
        return
    message = found[0]
    if len(found) > 1:
        message += f" (and {len(found) - 1} more hazard{'s' if len(found) > 2 else ''})"
    raise URNBaseError(message, [Hazard(BASE_CODE, m) for m in found])
