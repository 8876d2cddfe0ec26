"""``fix_base``: rewrite the "URN base used as a prefix" idiom into full IRIs.

Authors write ``@base <urn:uuid:>`` / ``"@base": "urn:uuid:"`` and then ``<3f2504e0-…>`` or
``"@id": "3f2504e0-…"``, expecting ``urn:uuid:3f2504e0-…``. RFC 3986 gives ``urn:3f2504e0-…``
(Jena, Oxigraph), rdflib refuses or makes something else, and urnld reports a ``urn-base``
hazard. When the base ends with ``:`` its author meant a prefix: this module writes each such
reference out in full (base + reference), in Turtle, TriG, N3 and JSON-LD, and returns a
report of every rewrite.
"""

from __future__ import annotations

import json
from typing import Any, NamedTuple

from .._kernel import is_urn, reference_kind
from ._errors import ReadError
from ._guard import prefix_like_rewrites

__all__ = ["Rewrite", "fix_base"]


class Rewrite(NamedTuple):
    """One reference written out: where, as written, and the IRI it became."""

    where: str
    reference: str
    iri: str


def is_prefix_like(base: str) -> bool:
    """A URN base that ends in ``:`` reads as a namespace prefix, not as a document.

    >>> is_prefix_like("urn:uuid:"), is_prefix_like("urn:example:doc")
    (True, False)
    """
    return is_urn(base) and base.endswith(":")


def fix_base(text: str, syntax: str, *, source: str = "<data>") -> tuple[str, list[Rewrite]]:
    """Rewrite references made under a prefix-like URN base in *text*; return the new text and
    the rewrites. *syntax* is ``turtle``, ``trig``, ``n3`` or ``json-ld``.

    >>> out, done = fix_base("@base <urn:uuid:> . <f81d4fae-7dec-11d0-a765-00a0c91e6bf6> "
    ...                      "<http://schema.org/name> 'x' .", "turtle")
    >>> out.split(" . ")[1].split()[0]
    '<urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6>'
    >>> done[0].where, done[0].iri
    ('<data>:1:21', 'urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6')
    """
    if syntax in ("turtle", "trig", "n3"):
        new, found = prefix_like_rewrites(text, source=source)
        return new, [Rewrite(*r) for r in found]
    if syntax == "json-ld":
        return _fix_jsonld(text, source)
    raise ReadError(
        f"{source}: fix-base rewrites Turtle, TriG, N3 and JSON-LD documents, not {syntax}"
    )


def _fix_jsonld(text: str, source: str) -> tuple[str, list[Rewrite]]:
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        raise ReadError(f"{source}: not JSON: {e.msg} (line {e.lineno})") from None
    done: list[Rewrite] = []

    def base_of(ctx: Any, inherited: str | None) -> str | None:
        for item in ctx if isinstance(ctx, list) else [ctx]:
            if isinstance(item, dict) and "@base" in item:
                value = item["@base"]
                inherited = value if isinstance(value, str) else None
        return inherited

    def walk(node: Any, base: str | None, path: str) -> None:
        if isinstance(node, list):
            for i, item in enumerate(node):
                walk(item, base, f"{path}/{i}")
            return
        if not isinstance(node, dict):
            return
        if "@context" in node:
            base = base_of(node["@context"], base)
        for key, value in node.items():
            here = f"{path}/{key.replace('~', '~0').replace('/', '~1')}"
            if key == "@context":
                continue
            if (key == "@id" and isinstance(value, str) and base is not None
                    and is_prefix_like(base) and reference_kind(value) == "relative-path"):
                node[key] = base + value
                done.append(Rewrite(f"{source}: JSON-LD {here}", value, base + value))
            else:
                walk(value, base, here)

    walk(doc, None, "")
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n", done
