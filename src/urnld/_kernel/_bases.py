"""Relative references against a URN base: one rule and one finding for every RDF syntax.

RFC 3986 §5.2 resolves any reference against any absolute base, but a URN has no hierarchy
(RFC 8141 §2: the NSS is opaque to generic processors), so only three kinds of reference have an
unambiguous meaning against a URN base: the empty reference (the base itself), a fragment-only
reference (``#sec1`` → ``urn:example:doc#sec1``) and a query-only reference (``?q``). Every
other relative reference (``c``, ``../d``, ``/c``, ``//h/c``) is a *hazard*: parsers disagree on
what it means (see docs/bases.md), and none of their answers is what the author meant.

This module is stdlib-only: the reader (:mod:`urnld.read`), :mod:`urnld.jsonld` and SPARQL in
:mod:`urnld.rdf` all classify and word their findings here, so a hazard has the same code
(``urn-base``) and the same wording whatever the syntax.

>>> reference_kind("#sec1"), reference_kind("c"), reference_kind("//h/c")
('fragment', 'relative-path', 'network-path')
>>> resolve("#sec1", "urn:example:doc")
'urn:example:doc#sec1'
>>> resolve("../d", "urn:example:a:b")
'urn:d'
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any, Final, Literal

__all__ = [
    "BASE_CODE",
    "HAZARD_KINDS",
    "MAX_XML_DEPTH",
    "RDFLIB_OUTCOME",
    "ReferenceKind",
    "base_message",
    "is_hazard",
    "is_urn",
    "reference_kind",
    "resolve",
    "turtle_base_hazards",
    "turtle_position",
    "turtle_references",
    "xml_base_hazards",
]

#: The finding code of every relative-reference-against-a-URN-base hazard.
BASE_CODE: Final = "urn-base"

ReferenceKind = Literal[
    "absolute", "empty", "fragment", "query", "relative-path", "absolute-path", "network-path"
]

#: The kinds of reference whose resolution against a URN base is a hazard.
HAZARD_KINDS: Final = frozenset({"relative-path", "absolute-path", "network-path"})

# RFC 3986 §3.1: scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ), followed by ":".
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:")
# RFC 3986 appendix B, the regular expression that splits any URI reference.
_SPLIT = re.compile(r"(?:([^:/?#]+):)?(?://([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?", re.S)


def is_urn(text: str) -> bool:
    """True when *text* starts with the ``urn:`` scheme, in any case.

    >>> is_urn("URN:x:y"), is_urn("http://x")
    (True, False)
    """
    return text[:4].lower() == "urn:"


def reference_kind(ref: str) -> ReferenceKind:
    """What kind of URI reference *ref* is (RFC 3986 §4.1, §4.2).

    >>> [reference_kind(r) for r in ("urn:x:y", "", "#f", "?q", "c", "../d", "/c", "//h/c")]
    ['absolute', 'empty', 'fragment', 'query', 'relative-path', 'relative-path', \
'absolute-path', 'network-path']
    """
    if _SCHEME.match(ref):
        return "absolute"
    if not ref:
        return "empty"
    if ref[0] == "#":
        return "fragment"
    if ref[0] == "?":
        return "query"
    if ref.startswith("//"):
        return "network-path"
    if ref[0] == "/":
        return "absolute-path"
    return "relative-path"


def is_hazard(ref: str, base: str | None) -> bool:
    """True when *ref* is a relative reference that a URN *base* gives no meaning to.

    >>> is_hazard("c", "urn:example:a"), is_hazard("#c", "urn:example:a")
    (True, False)
    >>> is_hazard("c", "http://example.org/"), is_hazard("c", None)
    (False, False)
    """
    return base is not None and is_urn(base) and reference_kind(ref) in HAZARD_KINDS


def _remove_dot_segments(path: str) -> str:
    # RFC 3986 §5.2.4, written over a list of segments.
    out: list[str] = []
    segments = path.split("/")
    for i, seg in enumerate(segments):
        last = i == len(segments) - 1
        if seg == ".":
            if last:
                out.append("")
        elif seg == "..":
            if len(out) > 1 or (out and out[0] != ""):
                out.pop()
            if last:
                out.append("")
        else:
            out.append(seg)
    result = "/".join(out)
    if path.startswith("/") and not result.startswith("/"):
        result = "/" + result
    return result


def resolve(ref: str, base: str) -> str:
    """RFC 3986 §5.2.2 (strict) resolution of *ref* against the absolute *base*.

    This is what Jena and Oxigraph compute (and what W3C RDF syntaxes specify); against a URN
    base the hazards come out as ``urn:c``, ``urn:/c``, ``urn://h/c``.

    >>> resolve("c", "urn:example:a:b"), resolve("/c", "urn:example:a:b")
    ('urn:c', 'urn:/c')
    >>> resolve("?q", "urn:example:a:b#x"), resolve("", "urn:example:a:b#x")
    ('urn:example:a:b?q', 'urn:example:a:b')
    >>> resolve("../g", "http://a/b/c/d;p?q")
    'http://a/b/g'
    """
    r = _SPLIT.fullmatch(ref)
    b = _SPLIT.fullmatch(base)
    assert r is not None and b is not None  # the expression matches every string
    r_scheme, r_auth, r_path, r_query, r_frag = r.groups()
    b_scheme, b_auth, b_path, b_query, _ = b.groups()
    if r_scheme is not None:
        scheme, auth, path, query = r_scheme, r_auth, _remove_dot_segments(r_path), r_query
    elif r_auth is not None:
        scheme, auth, path, query = b_scheme, r_auth, _remove_dot_segments(r_path), r_query
    elif r_path == "":
        scheme, auth, path = b_scheme, b_auth, b_path
        query = r_query if r_query is not None else b_query
    else:
        scheme, auth, query = b_scheme, b_auth, r_query
        if r_path.startswith("/"):
            path = _remove_dot_segments(r_path)
        else:
            if b_auth is not None and b_path == "":
                merged = "/" + r_path
            else:
                merged = b_path[: b_path.rfind("/") + 1] + r_path
            path = _remove_dot_segments(merged)
    out = f"{scheme}:" if scheme is not None else ""
    if auth is not None:
        out += f"//{auth}"
    out += path
    if query is not None:
        out += f"?{query}"
    if r_frag is not None:
        out += f"#{r_frag}"
    return out


def base_message(
    ref: str,
    base: str,
    *,
    where: str,
    outcomes: Mapping[str, str],
    continuing: str | None = None,
) -> str:
    """The one-line message of a ``urn-base`` finding.

    *where* says where the reference is (``file.ttl:3:5``, a JSON pointer); *outcomes* maps a
    parser family to what it makes of the reference; *continuing* (``hazards="warn"``) is the
    IRI urnld goes on with.

    >>> print(base_message("c", "urn:example:a:b", where="x.ttl:2:1",
    ...                    outcomes={"rdflib": "refuses the document"}))
    x.ttl:2:1: relative reference <c> against the URN base <urn:example:a:b>: URNs have no \
hierarchy, so the reference has no agreed meaning (RFC 3986 §5.2, Jena, Oxigraph: <urn:c>; \
rdflib: refuses the document); write the full IRI or declare a prefix [urn-base]
    """
    told = "; ".join(f"{family}: {outcome}" for family, outcome in outcomes.items())
    rfc = resolve(ref, base)
    text = (
        f"{where}: relative reference <{ref}> against the URN base <{base}>: URNs have no "
        f"hierarchy, so the reference has no agreed meaning (RFC 3986 §5.2, Jena, Oxigraph: "
        f"<{rfc}>" + (f"; {told}" if told else "") + "); write the full IRI or declare a prefix"
    )
    if base.endswith(":") and reference_kind(ref) == "relative-path":
        # "@base <urn:uuid:>": the author meant a prefix; say how to get what was meant.
        text += (f"; the base ends in ':' like a prefix: for <{base}{ref}> write it in full "
                 "(urnld fix-base does it)")
    if continuing is not None:
        text += f"; continuing with <{continuing}>"
    return f"{text} [{BASE_CODE}]"


#: What rdflib 7's parsers make of a hazard, by syntax (measured; see docs/bases.md): every
#: reader of urnld says it in its message, the same finding whichever command reads the file.
RDFLIB_OUTCOME: Final = {
    "turtle": "refuses the document",
    "trig": "refuses the document",
    "n3": "refuses the document",
    "xml": "leaves the reference relative",
    "sparql": "leaves the reference relative",
}

# Turtle, TriG, N3 in document order, one alternation: strings and comments are skipped whole,
# so a "<urn:" or "@base" inside them is never taken for syntax. IRIREF follows Turtle 1.1 [18].
_TOKEN: Final = re.compile(
    r'"""(?:[^"\\]|\\.|"(?!""))*"""'
    r"|'''(?:[^'\\]|\\.|'(?!''))*'''"
    r'|"(?:[^"\\\n\r]|\\.)*"'
    r"|'(?:[^'\\\n\r]|\\.)*'"
    r"|#[^\n\r]*"
    r"|<(?P<iri>(?:[^<>\"{}|^`\\\x00-\x20]|\\u[0-9A-Fa-f]{4}|\\U[0-9A-Fa-f]{8})*)>"
    r"|(?P<base>@base\b|(?<![\w:.\-])(?i:base)(?![\w:\-]))",
    re.S,
)
_UCHAR: Final = re.compile(r"\\u([0-9A-Fa-f]{4})|\\U([0-9A-Fa-f]{8})")


def turtle_position(text: str, offset: int) -> tuple[int, int]:
    """Line and column (both from 1) of *offset* in *text*.

    >>> turtle_position("a\\nbc", 3)
    (2, 2)
    """
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def turtle_references(
    text: str, base: str | None
) -> Iterator[tuple[re.Match[str], str, str, str | None, bool]]:
    """Each IRI reference of Turtle-like *text*: its match, as written, unescaped, the base in
    force where it stands (*base* until a ``@base``/``BASE`` directive), and whether it is the
    IRI of such a directive (the base changes after it, resolved against the one before, as
    rdflib and RFC 3986 §5.2 do).

    >>> [(ref, base) for _m, _raw, ref, base, _d in
    ...  turtle_references("@base <urn:x:> . <a> <http://e/p> '<b>' .", None)]
    [('urn:x:', None), ('a', 'urn:x:'), ('http://e/p', 'urn:x:')]
    """
    current = base
    expect_base = False
    for m in _TOKEN.finditer(text):
        if m.group("base") is not None:
            expect_base = True
            continue
        raw = m.group("iri")
        if raw is None:
            continue
        ref = raw if "\\" not in raw else _UCHAR.sub(
            lambda u: chr(int(u.group(1) or u.group(2), 16)), raw)
        yield m, raw, ref, current, expect_base
        if expect_base:
            current = ref if not current or reference_kind(ref) == "absolute" else resolve(
                ref, current)
            expect_base = False



def turtle_base_hazards(text: str, base: str | None, *, source: str, syntax: str,
                        warn: bool = False) -> list[str]:
    """The ``urn-base`` messages of Turtle-like *text* (Turtle, TriG, N3): each base directive
    followed from *base*, every IRI reference checked against the base in force where it
    stands, its place as ``source:line:column``. With *warn*, each message says what urnld
    continues with.

    >>> [m.split(": relative")[0] for m in turtle_base_hazards(
    ...     '@base <urn:example:doc> . <#s> <p> <c> .', None, source="x.ttl", syntax="turtle")]
    ['x.ttl:1:32', 'x.ttl:1:36']
    """
    found: list[str] = []
    for m, _raw, ref, current, _sets_base in turtle_references(text, base):
        if current is not None and is_urn(current) and reference_kind(ref) in HAZARD_KINDS:
            line, column = turtle_position(text, m.start())
            found.append(base_message(
                ref, current, where=f"{source}:{line}:{column}",
                outcomes={"rdflib": RDFLIB_OUTCOME[syntax]},
                continuing=resolve(ref, current) if warn else None,
            ))
    return found

#: The deepest element nesting read from RDF/XML (real RDF/XML nests a few levels: an element
#: per node and property; pyoxigraph's time grows faster than the square of the depth).
MAX_XML_DEPTH: Final = 1000

_XML_BASE: Final = "http://www.w3.org/XML/1998/namespace base"
_RDF_NS: Final = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
# RDF/XML attributes whose values are IRI references (rdf:ID and rdf:nodeID are not).
_XML_IRI_ATTRS: Final = frozenset(f"{_RDF_NS} {name}" for name in ("about", "resource", "datatype"))


def xml_base_hazards(raw: bytes, base: str | None, *, source: str,
                     warn: bool = False) -> list[str]:
    """The ``urn-base`` messages of the RDF/XML document *raw*: one expat pass (no entity is
    ever expanded, no external DTD read) that follows ``xml:base`` from *base* down the
    elements and checks every IRI reference (``rdf:about``, ``rdf:resource``,
    ``rdf:datatype``, a nested ``xml:base``) made against a URN base. With *warn*, each
    message says what urnld continues with.

    Refuses, as :class:`~urnld.errors.UnsafeXMLError`, entity declarations and external
    entities (the "billion laughs" and its small quadratic cousins; a DOCTYPE without
    declarations is fine) and, as :class:`~urnld.errors.ReadError`, nesting deeper than
    :data:`MAX_XML_DEPTH` and a document that is not well-formed XML.

    >>> xml_base_hazards(b'<r:RDF xmlns:r="http://www.w3.org/1999/02/22-rdf-syntax-ns#" '
    ...     b'xml:base="urn:example:a:b"><r:Description r:about="c"/></r:RDF>',
    ...     None, source="x.rdf")[0].split(": relative")[0]
    'x.rdf:1:89'
    """
    import xml.parsers.expat

    from ..errors import ReadError, UnsafeXMLError

    parser: Any = xml.parsers.expat.ParserCreate(namespace_separator=" ")
    parser.SetParamEntityParsing(xml.parsers.expat.XML_PARAM_ENTITY_PARSING_NEVER)
    found: list[str] = []
    bases: list[str | None] = [base]

    def where() -> str:
        return f"{source}:{parser.CurrentLineNumber}:{parser.CurrentColumnNumber + 1}"

    def refuse(what: str) -> None:
        raise UnsafeXMLError(
            f"{where()}: {what} are refused in RDF/XML (protection against entity expansion "
            "and external entities); expand them in the document first"
        )

    def declaration(*_: Any) -> None:
        refuse("entity declarations")

    def external(*_: Any) -> int:
        refuse("external entity references")
        return 0

    def check(ref: str, against: str | None) -> str:
        kind = reference_kind(ref)
        if against is None or kind == "absolute":
            return ref
        new = resolve(ref, against)
        if kind in HAZARD_KINDS and is_urn(against):
            found.append(base_message(
                ref, against, where=where(), outcomes={"rdflib": RDFLIB_OUTCOME["xml"]},
                continuing=new if warn else None,
            ))
        return new

    def start(_name: str, attrs: dict[str, str]) -> None:
        if len(bases) > MAX_XML_DEPTH:
            raise ReadError(f"{where()}: cannot parse as xml: elements nested more than "
                            f"{MAX_XML_DEPTH:,} levels deep: refused (nested too deeply)")
        current = bases[-1]
        written = attrs.get(_XML_BASE)
        if written is not None:
            current = check(written, current)
        if current is not None and is_urn(current):
            for key, value in attrs.items():
                if key in _XML_IRI_ATTRS:
                    check(value, current)
        bases.append(current)

    def end(_name: str) -> None:
        bases.pop()

    parser.EntityDeclHandler = declaration
    parser.UnparsedEntityDeclHandler = declaration
    parser.ExternalEntityRefHandler = external
    parser.StartElementHandler = start
    parser.EndElementHandler = end
    try:
        parser.Parse(raw, True)
    except xml.parsers.expat.ExpatError as e:
        raise ReadError(f"{source}:{e.lineno}:{e.offset + 1}: cannot parse as xml: "
                        f"{xml.parsers.expat.errors.messages[e.code]}") from None
    return found
