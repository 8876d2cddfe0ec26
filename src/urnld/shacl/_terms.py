"""How terms are written into the plan's SPARQL, and read back from a store's answers.

pyoxigraph's ``Store`` keeps literals of the XSD value types by *value*: ``"01"^^xsd:int`` is
stored as ``"1"^^xsd:integer``, ``"100"^^xsd:byte`` loses its datatype, ``"x"@EN`` becomes
``"x"@en``, and two statements that differ only there become one. SHACL judges terms as
written (``sh:datatype xsd:byte``, ``sh:maxCount``, ``sh:in``), and urnld changes nothing but
URNs, so the local store holds such literals in a lossless form, a literal whose datatype says
what it was:

* ``"01"^^xsd:int`` as ``"01"^^<urn:x-urnld-lit:http://www.w3.org/2001/XMLSchema#int>``;
* ``"x"@EN`` as ``"x"^^<urn:x-urnld-lang:EN>``;

and the compiled queries read them through :class:`Encoded`'s accessors (the datatype, the
language tag, the value for a comparison), which give what the literal as written gives. A
remote store is queried as it is (:class:`Plain`): it keeps literals in its own way, and the
same query text without the accessors is what runs there.

>>> enc = Encoded()
>>> from rdflib import Literal, XSD
>>> enc.const(Literal("01", datatype=XSD.int, normalize=False))
'"01"^^<urn:x-urnld-lit:http://www.w3.org/2001/XMLSchema#int>'
>>> Plain().const(Literal("01", datatype=XSD.int, normalize=False))
'"01"^^<http://www.w3.org/2001/XMLSchema#int>'
"""

from __future__ import annotations

from typing import Any

from rdflib import Literal, URIRef
from rdflib.term import Node

__all__ = ["LANG_PREFIX", "LIT_PREFIX", "XSD_STRING", "Encoded", "NotCompiled", "Plain",
           "sparql_string"]

LIT_PREFIX = "urn:x-urnld-lit:"
LANG_PREFIX = "urn:x-urnld-lang:"
_XSD = "http://www.w3.org/2001/XMLSchema#"
XSD_STRING = _XSD + "string"
_RDF_LANGSTRING = "http://www.w3.org/1999/02/22-rdf-syntax-ns#langString"


class NotCompiled(Exception):  # internal control flow: "run this shape elsewhere"
    """A shape uses something the plan does not compile; it runs on pyshacl instead."""


def sparql_string(text: str) -> str:
    """A SPARQL string literal holding *text* exactly.

    >>> sparql_string('a"b\\\\c')
    '"a\\\\"b\\\\\\\\c"'
    """
    out = (text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
           .replace("\r", "\\r").replace("\t", "\\t"))
    return f'"{out}"'


def _iri(value: str) -> str:
    if any(c in value for c in '<>"{}|^`\\ \n\r\t'):
        raise NotCompiled(f"the IRI {value!r} cannot be written in SPARQL")
    return f"<{value}>"


def needs_encoding(datatype: str | None, language: str | None) -> bool:
    """Does a literal with this datatype / language tag need the lossless form in the store?

    >>> needs_encoding("http://www.w3.org/2001/XMLSchema#integer", None)
    True
    >>> needs_encoding("http://www.w3.org/2001/XMLSchema#string", None), needs_encoding(None, "en")
    (False, False)
    """
    if language is not None:
        return language != language.lower()
    if datatype is None:
        return False
    return (datatype.startswith(_XSD) and datatype != XSD_STRING) or datatype.startswith(
        "urn:x-urnld-"
    )


class Plain:
    """Terms as they are: for a store that keeps literals its own way (a remote endpoint)."""

    encoded = False

    def const(self, term: Node) -> str:
        """*term* (an rdflib IRI or literal of the shapes graph) in SPARQL syntax."""
        if isinstance(term, URIRef):
            return _iri(str(term))
        if isinstance(term, Literal):
            return self._literal(str(term), term.datatype, term.language)
        raise NotCompiled(f"a blank node ({term!r}) cannot be named in a query")

    def _literal(self, lexical: str, datatype: Any, language: str | None) -> str:
        if language is not None:
            return f"{sparql_string(lexical)}@{language}"
        if datatype is None or str(datatype) == XSD_STRING:
            return sparql_string(lexical)
        return f"{sparql_string(lexical)}^^{_iri(str(datatype))}"

    def datatype(self, e: str) -> str:
        return f"DATATYPE({e})"

    def lang(self, e: str) -> str:
        return f"LANG({e})"

    def value(self, e: str) -> str:
        return e


class Encoded(Plain):
    """Terms in the lossless form the local store holds (see the module's text)."""

    encoded = True

    def _literal(self, lexical: str, datatype: Any, language: str | None) -> str:
        dt = None if datatype is None else str(datatype)
        if needs_encoding(dt, language):
            tag = (LANG_PREFIX + str(language)) if language is not None else LIT_PREFIX + str(dt)
            return f"{sparql_string(lexical)}^^{_iri(tag)}"
        return super()._literal(lexical, datatype, language)

    def datatype(self, e: str) -> str:
        d = f"STR(DATATYPE({e}))"
        return (f'IF(STRSTARTS({d}, "{LIT_PREFIX}"), IRI(SUBSTR({d}, {len(LIT_PREFIX) + 1})), '
                f'IF(STRSTARTS({d}, "{LANG_PREFIX}"), <{_RDF_LANGSTRING}>, DATATYPE({e})))')

    def lang(self, e: str) -> str:
        d = f"STR(DATATYPE({e}))"
        return (f'IF(STRSTARTS({d}, "{LANG_PREFIX}"), SUBSTR({d}, {len(LANG_PREFIX) + 1}), '
                f"LANG({e}))")

    def value(self, e: str) -> str:
        d = f"STR(DATATYPE({e}))"
        return (f'IF(isLiteral({e}) && STRSTARTS({d}, "{LIT_PREFIX}"), '
                f"STRDT(STR({e}), IRI(SUBSTR({d}, {len(LIT_PREFIX) + 1}))), {e})")


def decode_literal(lexical: str, datatype: str | None, language: str | None) -> Literal:
    """The literal as written, from its form in the store (:class:`Encoded`).

    >>> decode_literal("01", LIT_PREFIX + _XSD + "int", None).datatype
    rdflib.term.URIRef('http://www.w3.org/2001/XMLSchema#int')
    >>> decode_literal("x", LANG_PREFIX + "EN", None).language
    'EN'
    """
    if language is not None:
        return Literal(lexical, lang=language)
    if datatype is None or datatype == XSD_STRING:
        return Literal(lexical)
    if datatype.startswith(LIT_PREFIX):
        datatype = datatype[len(LIT_PREFIX):]
    elif datatype.startswith(LANG_PREFIX):
        # rdflib lower-cases tags; str.__new__-free: the tag is kept as Literal gives it.
        return Literal(lexical, lang=datatype[len(LANG_PREFIX):])
    return Literal(lexical, datatype=URIRef(datatype), normalize=False)
