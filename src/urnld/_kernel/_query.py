"""Rewrite the URN constants of a SPARQL query or update to their canonical form.

A store canonicalized by urnld holds each URN in one spelling; a query written with another
spelling (``<URN:ISBN:0-395-36341-1>``) would find nothing. :func:`canonical_query` rewrites the
query's constants with the same rule (``urnld.canonical``), so it finds the data in any vendor's
store without a custom function.

The query is scanned token by token as the SPARQL 1.1 grammar (§19.8) splits it: strings (all four
quote styles), comments, IRI references, variables, blank node labels, language tags and
prefixed names are recognised, so a URN inside a string or a comment is never touched.

The rewriter reads text and needs no RDF library: :mod:`urnld.rdf` (rdflib) and
:mod:`urnld.oxigraph` (pyoxigraph, without rdflib) both serve it as ``canonical_query``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

from ..errors import URNError
from ._terms import TermCache, TermRule, is_urn_like

__all__ = ["canonical_query"]

_Canon = Callable[[str], "str | None"]

_XSD = "http://www.w3.org/2001/XMLSchema#"
_URN_DATATYPES: Final = frozenset({_XSD + "string", _XSD + "anyURI"})

# SPARQL 1.1 §19.8 terminals. PN_CHARS_BASE is approximated by "a Unicode letter"; PN_CHARS adds
# digits, '_', '-' and U+00B7 (\w covers letters, digits and '_').
_BASE = r"[^\W\d_]"
_CHARS = r"[\w\-\u00B7]"
_PLX = r"(?:%[0-9A-Fa-f]{2}|\\[_~.\-!$&'()*+,;=/?#@%])"
_PN_PREFIX = rf"{_BASE}(?:(?:{_CHARS}|\.)*{_CHARS})?"
_PN_LOCAL = (
    rf"(?:[\w:]|{_PLX})(?:(?:{_CHARS}|[.:]|{_PLX})*(?:{_CHARS}|:|{_PLX}))?"
)
_PNAME = re.compile(rf"({_PN_PREFIX})?:({_PN_LOCAL})?")
_IRIREF = re.compile(r'<([^<>"{}|^`\\\x00-\x20]*)>')
_STRING = re.compile(
    r"'''(?:[^'\\]|\\.|'(?!''))*'''"
    r'|"""(?:[^"\\]|\\.|"(?!""))*"""'
    r"|'(?:[^'\\\n\r]|\\.)*'"
    r'|"(?:[^"\\\n\r]|\\.)*"',
    re.DOTALL,
)
_PREFIX_DECL = re.compile(
    rf"(?i:PREFIX)(\s+)({_PN_PREFIX})?:(\s*)<([^<>\"{{}}|^`\\\x00-\x20]*)>"
)
_VARIABLE = re.compile(r"[?$]\w[\w\u00B7]*")
_BNODE = re.compile(r"_:[\w.\-\u00B7]*")
_LANGTAG = re.compile(r"@[A-Za-z]+(?:-[A-Za-z0-9]+)*")
_WORD = re.compile(r"\w+")
_SPACE = re.compile(r"(?:\s|#[^\n\r]*)*")
_LOCAL_ESCAPE = re.compile(r"\\(.)")
_STRING_ESCAPE = re.compile(r"\\(.)", re.DOTALL)


def canonical_query(
    sparql: str, *, ignore_components: bool = False, literals: bool = False
) -> str:
    """Return ``sparql`` with every URN constant in canonical form; the rest is kept as written.

    Rewritten: IRI references (``<URN:ISBN:0-395-36341-1>``) and prefixed names whose expansion
    is a URN (``isbn:0-395-36341-1`` after ``PREFIX isbn: <urn:isbn:>``; written back as a full
    IRI when the canonical form changes). With ``literals=True``, also plain, ``xsd:string`` and
    ``xsd:anyURI`` string literals whose whole value is a URN (as ``canonicalize(literals=True)``
    rewrites them in the data). ``ignore_components=True`` drops r-, q- and f-components, as the
    same option does for data. Invalid URNs, relative IRIs and text inside strings or comments are
    left alone. Raises :class:`urnld.URNError` for an unterminated string.

    >>> canonical_query('SELECT ?t WHERE { <URN:ISBN:0-395-36341-1> ?p ?t } # URN:X:Y')
    'SELECT ?t WHERE { <urn:isbn:0395363411> ?p ?t } # URN:X:Y'
    >>> canonical_query('PREFIX i: <urn:isbn:> ASK { i:0-395-36341-1 ?p "URN:ISBN:1" }')
    'PREFIX i: <urn:isbn:> ASK { <urn:isbn:0395363411> ?p "URN:ISBN:1" }'
    """
    if not isinstance(sparql, str):
        raise TypeError(f"canonical_query() needs a str, not {type(sparql).__name__}")
    rule = TermCache(TermRule(ignore_components=ignore_components))
    prefixes: dict[str, str] = {}
    out: list[str] = []
    pos = 0
    n = len(sparql)

    def canonical(text: str) -> str | None:
        if not is_urn_like(text):
            return None
        verdict = rule.get(text)
        return verdict.output if verdict.ok and verdict.output != text else None

    while pos < n:
        c = sparql[pos]
        m: re.Match[str] | None
        if c == "#":
            m = _SPACE.match(sparql, pos)
            assert m is not None
            out.append(m.group())
            pos = m.end()
        elif c in "\"'":
            m = _STRING.match(sparql, pos)
            if m is None:
                raise URNError(f"unterminated string at position {pos} of the query")
            out.append(_literal(sparql, m, prefixes, canonical) if literals else m.group())
            pos = m.end()
        elif c == "<":
            m = _IRIREF.match(sparql, pos)
            if m is None:  # the '<' operator
                out.append(c)
                pos += 1
                continue
            new = canonical(m.group(1))
            out.append(m.group() if new is None else f"<{new}>")
            pos = m.end()
        elif c in "?$":
            m = _VARIABLE.match(sparql, pos)
            end = m.end() if m else pos + 1
            out.append(sparql[pos:end])
            pos = end
        elif c == "_" and sparql.startswith("_:", pos):
            m = _BNODE.match(sparql, pos)
            assert m is not None
            out.append(m.group())
            pos = m.end()
        elif c == "@":
            m = _LANGTAG.match(sparql, pos)
            end = m.end() if m else pos + 1
            out.append(sparql[pos:end])
            pos = end
        elif c == ":" or c.isalpha():
            m = _PREFIX_DECL.match(sparql, pos) if c in "Pp" else None
            if m is not None and (pos == 0 or not _is_name_char(sparql[pos - 1])):
                prefixes[m.group(2) or ""] = m.group(4)
                out.append(m.group())
                pos = m.end()
                continue
            m = _PNAME.match(sparql, pos)
            if m is not None:
                out.append(_pname(m, prefixes, canonical))
                pos = m.end()
                continue
            w = _WORD.match(sparql, pos)
            end = w.end() if w else pos + 1
            out.append(sparql[pos:end])
            pos = end
        elif _is_name_char(c):
            w = _WORD.match(sparql, pos)
            end = w.end() if w else pos + 1
            out.append(sparql[pos:end])
            pos = end
        else:
            out.append(c)
            pos += 1
    return "".join(out)


def _is_name_char(c: str) -> bool:
    return c.isalnum() or c in "_-"


def _expand(m: re.Match[str], prefixes: dict[str, str]) -> str | None:
    ns = prefixes.get(m.group(1) or "")
    if ns is None:
        return None
    return ns + _LOCAL_ESCAPE.sub(r"\1", m.group(2) or "")


def _pname(m: re.Match[str], prefixes: dict[str, str], canonical: _Canon) -> str:
    iri = _expand(m, prefixes)
    new = canonical(iri) if iri is not None else None
    return m.group() if new is None else f"<{new}>"


def _literal(sparql: str, m: re.Match[str], prefixes: dict[str, str], canonical: _Canon) -> str:
    token = m.group()
    end = m.end()
    if sparql.startswith("@", end):
        return token  # language-tagged: never a URN literal
    if sparql.startswith("^^", end):
        dt = _IRIREF.match(sparql, end + 2)
        iri = dt.group(1) if dt else None
        if dt is None:
            pn = _PNAME.match(sparql, end + 2)
            iri = _expand(pn, prefixes) if pn else None
        if iri not in _URN_DATATYPES:
            return token
    quote = 3 if token[:3] in ('"""', "'''") else 1
    body = token[quote:-quote]
    value = _STRING_ESCAPE.sub(lambda e: e.group(1) if e.group(1) in "\"'\\" else "\x00", body)
    new = canonical(value) if "\x00" not in value else None
    # A canonical URN has no quote or backslash, so it needs no escaping.
    return token if new is None else f"{token[:quote]}{new}{token[-quote:]}"
