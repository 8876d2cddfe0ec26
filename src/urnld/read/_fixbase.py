"""``fix_base``: rewrite the "URN base used as a prefix" idiom into full IRIs.

Authors write ``@base <urn:uuid:>`` / ``"@base": "urn:uuid:"`` and then ``<3f2504e0-…>`` or
``"@id": "3f2504e0-…"``, expecting ``urn:uuid:3f2504e0-…``. RFC 3986 gives ``urn:3f2504e0-…``
(Jena, Oxigraph), rdflib refuses or makes something else, and urnld reports a ``urn-base``
hazard. When the base ends with ``:`` its author meant a prefix: this module writes each such
reference out in full (base + reference), in Turtle, TriG, N3, JSON-LD and RDF/XML, and returns
a report of every rewrite (and, on request, of the references it cannot write out).
"""

from __future__ import annotations

import json
from typing import Any, NamedTuple

from .._kernel import HAZARD_KINDS, is_urn, reference_kind
from ..errors import URNError
from ._errors import ReadError, UnsafeXMLError
from ._guard import prefix_like_rewrites
from ._reader import Catalog

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


def fix_base(
    text: str,
    syntax: str,
    *,
    source: str = "<data>",
    catalog: Catalog = None,
    left: list[Rewrite] | None = None,
) -> tuple[str, list[Rewrite]]:
    """Rewrite references made under a prefix-like URN base in *text*; return the new text and
    the rewrites. *syntax* is ``turtle``, ``trig``, ``n3``, ``json-ld`` or ``xml`` (RDF/XML).

    JSON-LD: ``@id`` and its aliases (``"id": "@id"``) and the values of terms typed
    ``"@type": "@id"`` are IRIs; contexts named by IRI are read from *catalog* (never fetched).
    A relative reference under a URN base that cannot be written out — the base names a
    document (``urn:example:doc``), not a prefix, or the reference is not a relative path — is
    appended to *left*, when given, with an empty ``iri``.

    >>> out, done = fix_base("@base <urn:uuid:> . <f81d4fae-7dec-11d0-a765-00a0c91e6bf6> "
    ...                      "<http://schema.org/name> 'x' .", "turtle")
    >>> out.split(" . ")[1].split()[0]
    '<urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6>'
    >>> done[0].where, done[0].iri
    ('<data>:1:21', 'urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6')
    """
    if syntax in ("turtle", "trig", "n3"):
        unwritten: list[tuple[str, str, str]] = []
        new, found = prefix_like_rewrites(text, source=source, left=unwritten)
        if left is not None:
            left.extend(Rewrite(*r) for r in unwritten)
        return new, [Rewrite(*r) for r in found]
    if syntax == "json-ld":
        return _JsonLdFixer(source, catalog, left).run(text)
    if syntax == "xml":
        return _fix_rdfxml(text, source, left)
    raise ReadError(
        f"{source}: fix-base rewrites Turtle, TriG, N3, JSON-LD and RDF/XML documents, "
        f"not {syntax}"
    )


class _Scope(NamedTuple):
    """What a JSON-LD context in force says about IRIs: the base, the keys that mean ``@id``
    and the terms whose string values are IRIs (``"@type": "@id"``)."""

    base: str | None
    id_keys: frozenset[str]
    iri_terms: frozenset[str]


_ROOT = _Scope(None, frozenset({"@id"}), frozenset())


class _JsonLdFixer:
    def __init__(self, source: str, catalog: Catalog, left: list[Rewrite] | None) -> None:
        self.source = source
        self.catalog = catalog
        self.left = left
        self.done: list[Rewrite] = []
        self._loader: Any = None

    def run(self, text: str) -> tuple[str, list[Rewrite]]:
        try:
            doc = json.loads(text)
        except json.JSONDecodeError as e:
            raise ReadError(f"{self.source}: not JSON: {e.msg} (line {e.lineno})") from None
        except RecursionError:
            raise ReadError(f"{self.source}: JSON nested too deeply") from None
        self.walk(doc, _ROOT, "")
        return json.dumps(doc, indent=2, ensure_ascii=False) + "\n", self.done

    def _context_document(self, iri: str) -> Any:
        if self._loader is None:
            from ._reader import loader_for

            self._loader = loader_for(self.catalog)
        try:
            document = self._loader.document(iri)
        except URNError as e:
            raise ReadError(
                f"{self.source}: the context {iri!r} is needed to tell which values are IRIs: "
                f"{e} (give it with --catalog)"
            ) from None
        return document.get("@context", {}) if isinstance(document, dict) else {}

    def scope(self, ctx: Any, outer: _Scope, depth: int = 0) -> _Scope:
        if depth > 32:
            raise ReadError(f"{self.source}: contexts that load each other more than 32 deep")
        base, id_keys, iri_terms = outer
        for item in ctx if isinstance(ctx, list) else [ctx]:
            if item is None:
                base, id_keys, iri_terms = _ROOT
            elif isinstance(item, str):
                base, id_keys, iri_terms = self.scope(
                    self._context_document(item), _Scope(base, id_keys, iri_terms), depth + 1)
            elif isinstance(item, dict):
                base, id_keys, iri_terms = self._definitions(
                    self._with_import(item), _Scope(base, id_keys, iri_terms))
        return _Scope(base, id_keys, iri_terms)

    def _with_import(self, item: dict[str, Any]) -> dict[str, Any]:
        """*item* with the context it imports (``@import``) merged in: JSON-LD 1.1 (Context
        Processing 5.6) takes the imported context's terms, then the importing context's own,
        which win (an ``"id": "@id"`` alias may be in either)."""
        imported = item.get("@import")
        if imported is None:
            return item
        if not isinstance(imported, str):
            raise ReadError(f"{self.source}: @import must name one context, not {imported!r}")
        inner = self._context_document(imported)
        if not isinstance(inner, dict) or "@import" in inner:
            raise ReadError(f"{self.source}: the context {imported!r} imported by @import is "
                            "not one context object without @import")
        return {**inner, **{k: v for k, v in item.items() if k != "@import"}}

    @staticmethod
    def _definitions(item: dict[str, Any], outer: _Scope) -> _Scope:
        base, id_keys, iri_terms = outer
        if "@base" in item:
            base = item["@base"] if isinstance(item["@base"], str) else None
        ids, typed = set(id_keys), set(iri_terms)
        for term, definition in item.items():
            if term.startswith("@"):
                continue
            ids.discard(term)
            typed.discard(term)
            if definition == "@id":
                ids.add(term)
            elif isinstance(definition, dict):
                if definition.get("@id") == "@id":
                    ids.add(term)
                elif definition.get("@type") == "@id":
                    typed.add(term)
        return _Scope(base, frozenset(ids), frozenset(typed))

    def fix(self, value: str, scope: _Scope, where: str) -> str:
        base = scope.base
        if base is None or not is_urn(base):
            return value
        kind = reference_kind(value)
        if kind not in HAZARD_KINDS:
            return value  # absolute, or one meaning against any base (#frag, ?query, "")
        if is_prefix_like(base) and kind == "relative-path":
            self.done.append(Rewrite(where, value, base + value))
            return base + value
        if self.left is not None:
            self.left.append(Rewrite(where, value, ""))
        return value

    def walk(self, node: Any, scope: _Scope, path: str) -> None:
        if isinstance(node, list):
            for i, item in enumerate(node):
                self.walk(item, scope, f"{path}/{i}")
            return
        if not isinstance(node, dict):
            return
        if "@context" in node:
            scope = self.scope(node["@context"], scope)
        for key, value in list(node.items()):
            here = f"{path}/{key.replace('~', '~0').replace('/', '~1')}"
            where = f"{self.source}: JSON-LD {here}"
            if key == "@context":
                continue
            if isinstance(value, str) and (key in scope.id_keys or key in scope.iri_terms):
                node[key] = self.fix(value, scope, where)
            elif key in scope.iri_terms and isinstance(value, list):
                node[key] = [
                    self.fix(v, scope, f"{where}/{i}") if isinstance(v, str) else v
                    for i, v in enumerate(value)
                ]
                for i, v in enumerate(value):
                    self.walk(v, scope, f"{here}/{i}")
            else:
                self.walk(value, scope, here)


# -- RDF/XML ------------------------------------------------------------------------------------

_RDF_NS = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
_XML_BASE = "http://www.w3.org/XML/1998/namespace base"
# Attributes whose value is an IRI reference resolved against the base (RDF/XML §5.3).
_IRI_ATTRIBUTES = frozenset(f"{_RDF_NS} {name}" for name in ("about", "resource", "datatype"))


def _fix_rdfxml(text: str, source: str, left: list[Rewrite] | None) -> tuple[str, list[Rewrite]]:
    """RDF/XML with each ``rdf:about``/``rdf:resource``/``rdf:datatype`` relative path under
    an ``xml:base`` that is a prefix-like URN written in full; the text is otherwise kept as
    it is (the values are spliced in place). Entity declarations are refused, as the reader
    refuses them."""
    import xml.parsers.expat

    data = text.encode("utf-8")
    parser = xml.parsers.expat.ParserCreate(namespace_separator=" ")

    def refuse(*_: Any) -> int:
        raise UnsafeXMLError(
            f"{source}:{parser.CurrentLineNumber}:{parser.CurrentColumnNumber + 1}: entity "
            "declarations and external entities are refused in RDF/XML; expand them first"
        )

    parser.SetParamEntityParsing(xml.parsers.expat.XML_PARAM_ENTITY_PARSING_NEVER)
    parser.EntityDeclHandler = refuse
    parser.UnparsedEntityDeclHandler = refuse
    parser.ExternalEntityRefHandler = refuse
    bases: list[str | None] = [None]
    edits: list[tuple[int, int, str]] = []
    done: list[Rewrite] = []

    def start(name: str, attrs: dict[str, str]) -> None:
        base = attrs.get(_XML_BASE, bases[-1])
        bases.append(base)
        if base is None or not is_urn(base):
            return
        tag_start = parser.CurrentByteIndex
        line, col = parser.CurrentLineNumber, parser.CurrentColumnNumber + 1
        for attr, value in attrs.items():
            if attr not in _IRI_ATTRIBUTES:
                continue
            kind = reference_kind(value)
            if kind not in HAZARD_KINDS:
                continue
            where = f"{source}:{line}:{col}"
            if is_prefix_like(base) and kind == "relative-path":
                span = _attribute_value_span(data, tag_start, attr.rpartition(" ")[2])
                if span is not None:
                    edits.append((*span, base + value))
                    done.append(Rewrite(where, value, base + value))
                    continue
            if left is not None:
                left.append(Rewrite(where, value, ""))

    parser.StartElementHandler = start
    parser.EndElementHandler = lambda _name: bases.pop()
    try:
        parser.Parse(data, True)
    except xml.parsers.expat.ExpatError as e:
        raise ReadError(f"{source}: not well-formed XML: {e}") from None
    out = bytearray(data)
    for begin, end, iri in sorted(edits, reverse=True):
        out[begin:end] = _xml_escape(iri).encode("utf-8")
    return out.decode("utf-8"), done


def _attribute_value_span(data: bytes, tag_start: int, local: str) -> tuple[int, int] | None:
    """Where the value of the attribute named ``*:local`` is, in the start tag at *tag_start*."""
    import re

    end = data.find(b">", tag_start)
    pattern = re.compile(rb"""[\s](?:[\w.-]+:)?""" + re.escape(local.encode())
                         + rb"""\s*=\s*(?:"([^"]*)"|'([^']*)')""")
    m = pattern.search(data, tag_start, end if end >= 0 else len(data))
    if m is None:
        return None
    group = 1 if m.group(1) is not None else 2
    return m.start(group), m.end(group)


def _xml_escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace('"', "&quot;")
