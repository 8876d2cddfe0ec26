"""N-Triples / N-Quads line grammar over bytes: the statement regexes, unescaping, line errors.

Only the shapes urnld needs to touch are taken apart: a statement line is matched whole by one
compiled regex (the W3C N-Triples / N-Quads 1.1 grammar, unrolled so that runs of ordinary
characters are one regex step), which yields the subject, predicate, object and optional graph
tokens as raw bytes. Tokens that do not change are written back byte for byte, so IRIs and
literals that are not URNs keep every escape exactly as written.

Grammar notes (https://www.w3.org/TR/n-triples/ §7, https://www.w3.org/TR/n-quads/ §5):

* ``IRIREF ::= '<' ([^#x00-#x20<>"{}|^`\\] | UCHAR)* '>'`` — ``\\u``/``\\U`` escapes are legal
  in IRIs, so ``<\\u0055RN:ISBN:1>`` *is* the IRI ``URN:ISBN:1`` and is canonicalized.
* ``STRING_LITERAL_QUOTE ::= '"' ([^#x22#x5C#xA#xD] | ECHAR | UCHAR)* '"'``, then either
  ``^^IRIREF`` or ``LANGTAG ::= '@' [a-zA-Z]+ ('-' [a-zA-Z0-9]+)*`` (RDF 1.2 adds an optional
  ``--ltr``/``--rtl`` direction, accepted here).
* ``BLANK_NODE_LABEL ::= '_:' (PN_CHARS_U | [0-9]) ((PN_CHARS | '.')* PN_CHARS)?`` — non-ASCII
  label characters are accepted as any byte >= 0x80 (we never rewrite labels).
* A line may be empty, whitespace, or a ``#`` comment; a statement may end with a comment.
* RDF-star quoted triples (``<< … >>``) are not N-Triples 1.1 and are reported as malformed.
"""

from __future__ import annotations

import re
from typing import Any, Final

from .._kernel import URN_LITERAL_DATATYPES
from ..errors import URNError

__all__ = [
    "FAST_LINE",
    "LINE",
    "NOT_URN",
    "NTriplesSyntaxError",
    "describe",
    "is_blank_or_comment",
    "literal_parts",
    "unescape_iri",
    "unescape_literal",
]

# -- grammar pieces (bytes, unanchored; names follow the N-Triples grammar) -------------------
_UCHAR = rb"\\(?:u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8})"
_IRI_CHAR = rb'[^\x00-\x20<>"{}|^`\\]'
# IRIREF, unrolled: a run of plain characters, then (escape, run)*. Possessive quantifiers:
# a run cannot end early (its class excludes what follows it), and without them re keeps
# backtracking state for every escape (~290 bytes each: 3 GB for a 20 MB line of escapes).
IRIREF = rb"<" + _IRI_CHAR + rb"*+(?:" + _UCHAR + _IRI_CHAR + rb"*+)*+>"
_ECHAR = rb"\\[tbnrf\"'\\]"
_LIT_CHAR = rb'[^"\\\n\r]'
STRING_LITERAL_QUOTE = (
    rb'"' + _LIT_CHAR + rb"*+(?:(?:" + _ECHAR + rb"|" + _UCHAR + rb")" + _LIT_CHAR + rb'*+)*+"'
)
LANGTAG = rb"@[a-zA-Z]+(?:-[a-zA-Z0-9]+)*(?:--(?:ltr|rtl))?"
LITERAL = STRING_LITERAL_QUOTE + rb"(?:\^\^" + IRIREF + rb"|" + LANGTAG + rb")?"
_PN_START = rb"[A-Za-z0-9_\x80-\xff]"
_PN_CHAR = rb"[A-Za-z0-9_\-\x80-\xff]"
BLANK_NODE_LABEL = rb"_:" + _PN_START + rb"(?:[A-Za-z0-9_\-.\x80-\xff]*" + _PN_CHAR + rb")?"
_WS = rb"[ \t]*"
_COMMENT = rb"(?:#[^\r\n]*)?"

#: One statement line: groups subject, predicate, object, graph (graph is None for triples).
LINE: Final = re.compile(
    _WS
    + rb"("
    + IRIREF
    + rb"|"
    + BLANK_NODE_LABEL
    + rb")"
    + _WS
    + rb"("
    + IRIREF
    + rb")"
    + _WS
    + rb"("
    + IRIREF
    + rb"|"
    + BLANK_NODE_LABEL
    + rb"|"
    + LITERAL
    + rb")"
    + _WS
    + rb"(?:("
    + IRIREF
    + rb"|"
    + BLANK_NODE_LABEL
    + rb")"
    + _WS
    + rb")?\."
    + _WS
    + _COMMENT
    + rb"\r?\n?"
)

#: The same statement in the layout most dumps use (single spaces, nothing after the dot): a
#: strict subset of LINE with the same groups, tried first because it is ~20% cheaper to match.
FAST_LINE: Final = re.compile(
    rb"("
    + IRIREF
    + rb"|"
    + BLANK_NODE_LABEL
    + rb") ("
    + IRIREF
    + rb") ("
    + IRIREF
    + rb"|"
    + BLANK_NODE_LABEL
    + rb"|"
    + LITERAL
    + rb")(?: ("
    + IRIREF
    + rb"|"
    + BLANK_NODE_LABEL
    + rb"))? \.\n"
)

_BLANK: Final = re.compile(_WS + _COMMENT + rb"\r?\n?")


def is_blank_or_comment(line: bytes) -> bool:
    """True for an empty, whitespace-only or comment-only line.

    >>> is_blank_or_comment(b"  # hello\\n"), is_blank_or_comment(b"<a> <b> <c> .\\n")
    (True, False)
    """
    return _BLANK.fullmatch(line) is not None


_UCHAR_RE: Final = re.compile(r"\\u([0-9A-Fa-f]{4})|\\U([0-9A-Fa-f]{8})")
_ESCAPE_RE: Final = re.compile(r"\\(?:u([0-9A-Fa-f]{4})|U([0-9A-Fa-f]{8})|([tbnrf\"'\\]))")
_ECHARS: Final = {"t": "\t", "b": "\b", "n": "\n", "r": "\r", "f": "\f", '"': '"', "'": "'",
                  "\\": "\\"}


def _uchar(m: re.Match[str]) -> str:
    code = int(m.group(1) or m.group(2), 16)
    if code > 0x10FFFF or 0xD800 <= code <= 0xDFFF:
        # Not a Unicode scalar value; keep the escape so the term is left as it was.
        return m.group(0)
    return chr(code)


def unescape_iri(token: bytes) -> str:
    r"""The IRI of an ``IRIREF`` token (``<`` … ``>``), ``\u``/``\U`` escapes decoded.

    >>> unescape_iri(rb"<\u0055RN:ISBN:1>")
    'URN:ISBN:1'
    """
    # "replace": a byte that is not UTF-8 becomes U+FFFD, which no URN contains (so the term
    # is reported invalid and left as it was) and which JSON reports can still encode.
    text = token[1:-1].decode("utf-8", "replace")
    if "\\" in text:
        text = _UCHAR_RE.sub(_uchar, text)
    return text


def _escape_sub(m: re.Match[str]) -> str:
    if m.group(3) is not None:
        return _ECHARS[m.group(3)]
    return _uchar(m)


def unescape_literal(body: bytes) -> str:
    r"""The lexical form of a quoted literal body (without the quotes), escapes decoded.

    >>> unescape_literal(rb"urn:a\u003Ab\tc")
    'urn:a:b\tc'
    """
    text = body.decode("utf-8", "replace")
    if "\\" in text:
        text = _ESCAPE_RE.sub(_escape_sub, text)
    return text



#: Marker in the token cache: "this token is not a URN, write it back unchanged".
NOT_URN: Final = b""

# Literal suffixes after the closing quote of literals that may hold a URN: plain, and the
# term rule's URN literal datatypes.
_URN_LITERAL_SUFFIXES: Final = (b"", *(b"^^<" + d.encode() + b">" for d in URN_LITERAL_DATATYPES))
# Malformed lines are shown with at most this many bytes.
_EXCERPT = 80


class NTriplesSyntaxError(URNError):
    """A line of N-Triples / N-Quads input is malformed.

    >>> e = NTriplesSyntaxError("data.nt", 7, "not an N-Triples statement", b"<a> <b> .")
    >>> str(e)
    "data.nt:7: not an N-Triples statement: '<a> <b> .'"
    """

    def __init__(self, source: str, line: int, reason: str, text: bytes = b"") -> None:
        self.source = source
        self.line = line
        self.reason = reason
        self.text = text
        shown = text[:_EXCERPT].decode("utf-8", "replace").rstrip("\r\n")
        if len(text) > _EXCERPT:
            shown += "…"
        super().__init__(f"{source}:{line}: {reason}: {shown!r}")

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.source, self.line, self.reason, self.text))


def describe(line: bytes) -> str:
    """Say briefly why a line is not a statement (the regex only knows that it is not).

    >>> describe(b"<a> <b> <c>")
    "statement does not end with '.'"
    """
    stripped = line.strip()
    if stripped.startswith(b"<<"):
        return "RDF-star quoted triples are not N-Triples 1.1"
    if not stripped.endswith(b".") and b"#" not in stripped:
        return "statement does not end with '.'"
    return "not an N-Triples/N-Quads statement"


def literal_parts(token: bytes) -> tuple[bytes, bytes] | None:
    """Split a literal token into (quoted body, suffix) when it may hold a URN.

    Only plain, ``xsd:string`` and ``xsd:anyURI`` literals qualify (not language-tagged ones).

    >>> literal_parts(b'"urn:a:b"^^<http://www.w3.org/2001/XMLSchema#anyURI>')
    (b'urn:a:b', b'^^<http://www.w3.org/2001/XMLSchema#anyURI>')
    >>> literal_parts(b'"urn:a:b"@en') is None
    True
    """
    end = token.rfind(b'"')
    suffix = token[end + 1:]
    if suffix not in _URN_LITERAL_SUFFIXES:
        return None
    return token[1:end], suffix
