"""Audit the URN namespace names of XML documents (streaming, entity-safe).

XML Namespaces compare namespace names as plain strings, so
``urn:oasis:names:tc:SAML:2.0:assertion`` and ``URN:OASIS:names:tc:SAML:2.0:assertion`` are
two unrelated namespaces to every XML tool, although RFC 8141 says they name the same thing.
RDF/XML forms predicate IRIs by concatenating namespace name and local name, which glues a
local name onto the NSS (``urn:x:ns`` + ``Foo`` → ``urn:x:nsFoo``). :func:`audit` reports
both, plus namespace names that are not valid URNs and ``xml:base`` attributes holding a URN
(RFC 8141 §4.1: URNs are not hierarchical and not appropriate as a base URI). Concatenations
are a hazard of RDF/XML only: they are looked for when the root element is ``rdf:RDF`` (or
when the caller says the document is RDF/XML), never in other XML (SAML, UBL, ISO 20022, ODF,
DASH, …), where no tool forms such IRIs.

Documents are read in 64 KiB chunks with expat; only namespace declarations and element and
attribute names are kept, so file size does not matter. Entity declarations (the vehicle of
XXE and "billion laughs") and external entity references are refused.

>>> import io
>>> xml = b'''<a xmlns="urn:example:ns:" xmlns:b="URN:EXAMPLE:ns:" xmlns:c="urn:example:c">
...   <b:x/><c:Item/></a>'''
>>> result = audit(io.BytesIO(xml))
>>> [group for group in result.equivalent_spellings]
[('URN:EXAMPLE:ns:', 'urn:example:ns:')]
>>> result.is_rdfxml, result.concatenations
(False, [])
>>> result = audit(io.BytesIO(xml), rdfxml=True)
>>> [(c.iri, c.reason) for c in result.concatenations]  # doctest: +NORMALIZE_WHITESPACE
[('urn:example:cItem',
  "local name 'Item' is glued onto the NSS: 'urn:example:c' does not end in a separator")]
"""

from __future__ import annotations

import os
import xml.parsers.expat
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import IO, Any

from . import URN
from ._core import is_urn_like
from .errors import URNError, URNSyntaxError

__all__ = [
    "BaseUse",
    "Concatenation",
    "NamespaceUse",
    "XMLNamespaceAudit",
    "XMLNamespaceError",
    "audit",
    "iter_namespaces",
]

_CHUNK = 64 * 1024
_SEP = " "  # expat's namespace separator: a space never occurs in a namespace URI that parses
# A namespace ending in one of these is meant for concatenation ("urn:x:ns:" + "Foo").
_SEPARATORS = frozenset(":/#?[]@-._")
_RDF_NS = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
_XML_BASE = "http://www.w3.org/XML/1998/namespace" + _SEP + "base"


class XMLNamespaceError(URNError):
    """The XML is malformed or uses entity declarations (refused); says where."""


@dataclass(frozen=True)
class NamespaceUse:
    """One namespace name declared in the document (all prefixes bound to it)."""

    uri: str
    prefixes: tuple[str, ...]
    line: int
    valid: bool
    canonical: str | None
    reason: str | None


@dataclass(frozen=True)
class Concatenation:
    """A namespace + local name pair whose RDF/XML IRI is invalid or surprising."""

    namespace: str
    local_name: str
    iri: str
    line: int
    reason: str


@dataclass(frozen=True)
class BaseUse:
    """An ``xml:base`` attribute whose value is a URN (RFC 8141 §4.1 advises against it)."""

    uri: str
    line: int
    reason: str


@dataclass
class XMLNamespaceAudit:
    """Result of :func:`audit`; :meth:`to_dict` is the ``urnld xmlns --json`` format.

    ``is_rdfxml`` says whether concatenations were looked for (root ``rdf:RDF``, or asked).
    """

    source: str
    namespaces: list[NamespaceUse] = field(default_factory=list)
    equivalent_spellings: list[tuple[str, ...]] = field(default_factory=list)
    concatenations: list[Concatenation] = field(default_factory=list)
    bases: list[BaseUse] = field(default_factory=list)
    is_rdfxml: bool = False

    @property
    def urn_namespaces(self) -> list[NamespaceUse]:
        return [n for n in self.namespaces if is_urn_like(n.uri)]

    @property
    def invalid(self) -> list[NamespaceUse]:
        return [n for n in self.urn_namespaces if not n.valid]

    @property
    def ok(self) -> bool:
        return not (self.invalid or self.equivalent_spellings or self.concatenations
                    or self.bases)

    def to_dict(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "ok": self.ok,
            "rdfxml": self.is_rdfxml,
            "urn_namespaces": [
                {"uri": n.uri, "prefixes": list(n.prefixes), "line": n.line, "valid": n.valid,
                 "canonical": n.canonical, "reason": n.reason}
                for n in self.urn_namespaces
            ],
            "invalid": [n.uri for n in self.invalid],
            "equivalent_spellings": [list(g) for g in self.equivalent_spellings],
            "concatenations": [
                {"namespace": c.namespace, "local_name": c.local_name, "iri": c.iri,
                 "line": c.line, "reason": c.reason}
                for c in self.concatenations
            ],
            "xml_base": [
                {"uri": b.uri, "line": b.line, "reason": b.reason} for b in self.bases
            ],
        }


def _open(source: str | os.PathLike[str] | IO[bytes]) -> tuple[IO[bytes], str, bool]:
    if isinstance(source, (str, os.PathLike)):
        return open(source, "rb"), os.fspath(source), True
    return source, getattr(source, "name", "<stream>"), False


def iter_namespaces(
    source: str | os.PathLike[str] | IO[bytes],
) -> Iterator[tuple[str, str, str, int]]:
    """Stream ``(kind, a, b, line)`` events from an XML document.

    ``("ns", prefix, uri, line)`` for each namespace declaration (prefix ``""`` is the default
    namespace); ``("name", uri, local_name, line)`` for each namespaced element or attribute name;
    ``("root", uri, local_name, line)`` for the root element (before its names);
    ``("base", value, "", line)`` for each ``xml:base`` attribute.

    Raises :class:`XMLNamespaceError` on malformed XML and on any entity declaration.
    """
    stream, name, close = _open(source)
    events: list[tuple[str, str, str, int]] = []
    parser = xml.parsers.expat.ParserCreate(namespace_separator=_SEP)

    def refuse(what: str) -> None:
        raise XMLNamespaceError(
            f"{name}:{parser.CurrentLineNumber}:{parser.CurrentColumnNumber + 1}: {what} are "
            "refused (protection against external entities and entity expansion bombs)"
        )

    def on_ns(prefix: str | None, uri: str | None) -> None:
        events.append(("ns", prefix or "", uri or "", parser.CurrentLineNumber))

    root_seen = False

    def on_start(tag: str, attrs: list[str]) -> None:
        nonlocal root_seen
        line = parser.CurrentLineNumber
        uri, sep, local = tag.rpartition(_SEP)
        if not root_seen:
            root_seen = True
            events.append(("root", uri, local if sep else tag, line))
        if sep:
            events.append(("name", uri, local, line))
        for k in range(0, len(attrs), 2):
            attr = attrs[k]
            if attr == _XML_BASE:
                events.append(("base", attrs[k + 1], "", line))
            uri, sep, local = attr.rpartition(_SEP)
            if sep:
                events.append(("name", uri, local, line))

    def on_entity_decl(*_: Any) -> None:
        refuse("entity declarations")

    def on_external_ref(*_: Any) -> int:
        refuse("external entity references")
        return 0

    parser.StartNamespaceDeclHandler = on_ns
    parser.StartElementHandler = on_start
    parser.ordered_attributes = True
    parser.EntityDeclHandler = on_entity_decl
    parser.UnparsedEntityDeclHandler = on_entity_decl
    parser.ExternalEntityRefHandler = on_external_ref
    # Never read an external DTD or parameter entities.
    parser.SetParamEntityParsing(xml.parsers.expat.XML_PARAM_ENTITY_PARSING_NEVER)
    try:
        while True:
            chunk = stream.read(_CHUNK)
            try:
                parser.Parse(chunk, not chunk)
            except xml.parsers.expat.ExpatError as e:
                raise XMLNamespaceError(
                    f"{name}:{e.lineno}:{e.offset + 1}: not well-formed XML: "
                    f"{xml.parsers.expat.ErrorString(e.code)}"
                ) from None
            yield from events
            events.clear()
            if not chunk:
                break
    finally:
        if close:
            stream.close()


def _validity(uri: str) -> tuple[bool, str | None, str | None]:
    """(valid, canonical, reason) for a urn: namespace name."""
    from . import check

    try:
        canonical = URN(uri).canonical_str
    except URNSyntaxError as e:
        return False, None, e.reason
    errors = [f.message for f in check(uri) if f.severity == "error"]
    return (not errors), canonical, errors[0] if errors else None


def _concatenation_problem(namespace: str, local: str) -> tuple[str, str] | None:
    iri = namespace + local
    try:
        URN(iri)
    except URNSyntaxError as e:
        return iri, f"{iri!r} is not a valid URN: {e.reason}"
    if namespace[-1:] not in _SEPARATORS:
        return iri, (f"local name {local!r} is glued onto the NSS: {namespace!r} does not end in "
                     "a separator")
    return None


def audit(
    source: str | os.PathLike[str] | IO[bytes], *, rdfxml: bool | None = None
) -> XMLNamespaceAudit:
    """Audit the namespace names of one XML document (a path or a binary stream).

    Reports every URN namespace name with its validity and canonical form, the groups of
    URN-equivalent spellings that XML treats as different namespaces, ``xml:base`` attributes
    holding a URN, and, for RDF/XML, the namespace + local name concatenations (as RDF/XML
    forms IRIs) that are not valid URNs or glue the local name onto the namespace's NSS.
    *rdfxml* None (default) decides by the root element (``rdf:RDF``); True or False says so.

    Raises :class:`XMLNamespaceError` for malformed XML or entity declarations, ``OSError`` when
    the file cannot be read.
    """
    name = os.fspath(source) if isinstance(source, (str, os.PathLike)) else getattr(
        source, "name", "<stream>")
    result = XMLNamespaceAudit(source=str(name))
    prefixes: dict[str, list[str]] = {}
    first_line: dict[str, int] = {}
    seen_pairs: set[tuple[str, str]] = set()
    for kind, a, b, line in iter_namespaces(source):
        if kind == "root":
            result.is_rdfxml = (a == _RDF_NS and b == "RDF") if rdfxml is None else rdfxml
        elif kind == "base":
            if a[:4].lower() == "urn:":
                result.bases.append(BaseUse(a, line, (
                    f"xml:base {a!r} is a URN: URNs are not hierarchical and not appropriate "
                    "as a base URI (RFC 8141 §4.1); relative references against it resolve "
                    "to surprising names")))
        elif kind == "ns":
            uri = b
            bucket = prefixes.setdefault(uri, [])
            if a not in bucket:
                bucket.append(a)
            first_line.setdefault(uri, line)
        else:
            uri, local = a, b
            if not result.is_rdfxml or not is_urn_like(uri) or (uri, local) in seen_pairs:
                continue
            seen_pairs.add((uri, local))
            problem = _concatenation_problem(uri, local)
            if problem is not None:
                result.concatenations.append(
                    Concatenation(uri, local, problem[0], line, problem[1]))
    by_key: dict[str, list[str]] = {}
    for uri, bound in prefixes.items():
        if is_urn_like(uri):
            valid, canonical, reason = _validity(uri)
            if canonical is not None:
                by_key.setdefault(URN(uri).assigned_key, []).append(uri)
        else:
            valid, canonical, reason = True, None, None
        result.namespaces.append(NamespaceUse(uri, tuple(bound), first_line[uri], valid,
                                              canonical, reason))
    result.equivalent_spellings = sorted(tuple(sorted(g)) for g in by_key.values() if len(g) > 1)
    return result


def __dir__() -> list[str]:
    return __all__
