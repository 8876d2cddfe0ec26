"""Generate JSON-LD 1.1 contexts from namespace bindings: a mapping, an rdflib graph, an XML file.

Namespace names that do not end in a gen-delim (typical of XML-namespace URNs such as
``urn:ietf:params:xml:ns:yang:ietf-interfaces``) get ``"@prefix": true``, without which JSON-LD
1.1 will not use them as prefixes; from XML, a warning (``glued-names``) says that names are
then glued onto the namespace (``x:file`` is ``urn:oasis:names:tc:xliff:document:2.0file``, how
RDF/XML reads XML names, not an IRI the XML vocabulary defines). A prefix named after a URI
scheme (``urn``, ``did``, …) would hijack IRIs of that scheme, so it gets a trailing ``_``.
Namespace names starting with ``urn:`` that are not valid URNs are reported (``on_invalid``).
"""

from __future__ import annotations

import os
import re
import warnings
from collections.abc import Iterable, Mapping
from typing import IO, TYPE_CHECKING, Any, Literal

from .. import check
from ._canon import GEN_DELIMS, is_urn_like
from ._errors import Hazard, URNContextError, URNContextWarning
from ._hazards import SCHEME_TERMS

if TYPE_CHECKING:
    from rdflib import Graph

__all__ = ["context_from_graph", "context_from_namespaces", "context_from_xml"]

_NID_PREFIX = re.compile(r"[uU][rR][nN]:[A-Za-z0-9-]+:")
_GEN_DELIMS_TEXT = ": / ? # [ ] @"

OnInvalid = Literal["warn", "error", "ignore"]


def _invalid_reason(uri: str) -> str | None:
    if not is_urn_like(uri):
        return None
    if _NID_PREFIX.fullmatch(uri):
        # "urn:isbn:" names a namespace, not a URN: only its NID can be wrong.
        findings = [f for f in check(uri + "x") if f.code.startswith("nid-") or f.code == "syntax"]
    else:
        findings = check(uri)
    for finding in findings:
        if finding.severity == "error":
            return finding.message
    return None


def _build(
    pairs: Iterable[tuple[str, str]], on_invalid: OnInvalid, *, xml: bool = False,
) -> dict[str, Any]:
    terms: dict[str, Any] = {}
    used: dict[str, str] = {}  # term -> IRI
    problems: list[Hazard] = []
    glued: list[Hazard] = []  # prefixes without a separator: names are glued onto them
    reported: set[str] = set()
    for prefix, uri in pairs:
        if not uri:
            continue  # xmlns="" undeclares the default namespace; nothing to map
        reason = _invalid_reason(uri)
        if reason is not None and uri not in reported:
            reported.add(uri)
            problems.append(Hazard("invalid-urn",
                                   f"namespace {uri!r} is not a valid URN: {reason}"))
        if prefix == "":
            if "@vocab" not in terms:
                terms["@vocab"] = uri
            continue
        if uri in used.values() and used.get(prefix) == uri:
            continue
        name = prefix + "_" if prefix.lower() in SCHEME_TERMS else prefix
        base, n = name, 2
        while name in used and used[name] != uri:
            name, n = f"{base}{n}", n + 1
        if name in used:
            continue
        used[name] = uri
        if uri[-1:] in GEN_DELIMS:
            terms[name] = uri
            continue
        terms[name] = {"@id": uri, "@prefix": True}
        if xml:
            glued.append(Hazard("glued-names", (
                f"namespace {uri!r} does not end in a separator ({_GEN_DELIMS_TEXT}): the term "
                f"{name!r} glues names onto it ('{name}:file' expands to '{uri}file'), which is "
                "how RDF/XML reads XML names, not an IRI the XML vocabulary defines")))
    if problems and on_invalid == "error":
        raise URNContextError(problems[0].message, problems)
    if on_invalid != "ignore":
        for problem in problems + glued if on_invalid == "warn" else glued:
            warnings.warn(problem.message, URNContextWarning, stacklevel=3)
    return {"@context": {"@version": 1.1, **terms}}


def context_from_namespaces(
    mapping: Mapping[str, Any], *, on_invalid: OnInvalid = "warn"
) -> dict[str, Any]:
    """A JSON-LD 1.1 context from ``{prefix: namespace}`` (prefix ``""`` becomes ``@vocab``).

    >>> ctx = context_from_namespaces({"yang": "urn:ietf:params:xml:ns:yang:ietf-interfaces",
    ...                                "isbn": "urn:isbn:"})["@context"]
    >>> ctx["yang"], ctx["isbn"]
    ({'@id': 'urn:ietf:params:xml:ns:yang:ietf-interfaces', '@prefix': True}, 'urn:isbn:')
    """
    return _build(((str(k), str(v)) for k, v in mapping.items()), on_invalid)


def context_from_graph(graph: Graph, *, on_invalid: OnInvalid = "warn") -> dict[str, Any]:
    """A JSON-LD 1.1 context from an rdflib graph's namespace bindings.

    >>> from rdflib import Graph
    >>> g = Graph(bind_namespaces="none")
    >>> g.bind("saml", "urn:oasis:names:tc:SAML:2.0:assertion")
    >>> context_from_graph(g)["@context"]["saml"]
    {'@id': 'urn:oasis:names:tc:SAML:2.0:assertion', '@prefix': True}
    """
    pairs = sorted((str(p), str(ns)) for p, ns in graph.namespaces())
    return _build(pairs, on_invalid)


def context_from_xml(
    source: str | os.PathLike[str] | IO[bytes], *, on_invalid: OnInvalid = "warn"
) -> dict[str, Any]:
    """A JSON-LD 1.1 context from the ``xmlns`` declarations of an XML document.

    The document is streamed (see :func:`urnld.xmlns.iter_namespaces`): any size works, and
    entity declarations are refused. The first binding of a prefix keeps its name; a prefix
    rebound to another namespace later gets a number (``ns2``).

    A namespace without a separator at its end gets ``"@prefix": true``, and a
    :class:`URNContextWarning` (``glued-names``) that names are glued onto it.

    >>> import io, warnings
    >>> xml = io.BytesIO(b'<x:doc xmlns:x="urn:oasis:names:tc:xliff:document:2.0"/>')
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     context_from_xml(xml)["@context"]["x"]
    {'@id': 'urn:oasis:names:tc:xliff:document:2.0', '@prefix': True}
    >>> "'x:file' expands to 'urn:oasis:names:tc:xliff:document:2.0file'" in str(
    ...     caught[0].message)
    True
    """
    from ..xmlns import iter_namespaces

    pairs = ((a, b) for kind, a, b, _ in iter_namespaces(source) if kind == "ns")
    return _build(pairs, on_invalid, xml=True)
