"""Reading an RDF document safely on the way to pyoxigraph: the reader that looks for URN base
declarations and entity declarations as the bytes go by, and bounds JSON nesting, RDF/XML
nesting and markup-free RDF/XML text."""

from __future__ import annotations

import contextlib
import re
from typing import IO, Any, Final

from .._core import accel as _accel
from .._kernel import MAX_XML_DEPTH, SYNTAXES
from ._names import RDFSyntaxError

__all__ = ["MAX_JSON_DEPTH", "MAX_XML_DEPTH", "MAX_XML_TEXT"]

# Input read per call by the sniffing reader (pyoxigraph asks for 1 KiB at a time).
_BLOCK: Final = 1 << 20
# Bytes of the previous block searched again, so a base declaration cut by a block end is seen.
_OVERLAP: Final = 256

# A base declaration naming a URN, searched in lower-cased blocks: the syntax table's
# scanner of each syntax (a streamed syntax without one is refused by the table at import).
_URN_BASE: Final = {name: re.compile(s.urn_base) for name, s in SYNTAXES.items()
                    if s.urn_base is not None}
#: The longest stretch of RDF/XML without markup (an attribute value, a text node) read:
#: pyoxigraph holds one whole, as it holds a Turtle or JSON token up to the same size.
MAX_XML_TEXT: Final = 16 << 20
# An XML entity declaration (anywhere: a CDATA section that quotes one is refused too).
_ENTITY: Final = re.compile(rb"<!entity")


#: The deepest JSON nesting read: pyoxigraph's JSON-LD reader recurses per level on the
#: thread's stack (a few thousand levels end the process), so deeper documents are refused.
MAX_JSON_DEPTH: Final = 1000
_JSON_STRING: Final = re.compile(rb'"(?:[^"\\]|\\.)*"')
_JSON_STRING_BODY: Final = re.compile(rb'(?:[^"\\]|\\.)*')
_NOT_BRACKETS: Final = bytes(b for b in range(256) if b not in b"[]{}")
_SLICE: Final = 256


class _JsonDepth:
    """The nesting depth of a JSON text read block by block (brackets in strings do not
    count); :meth:`feed` raises past :data:`MAX_JSON_DEPTH`. C-speed work per block: strings cut
    out by one regex, brackets kept by ``translate``, counted in slices (a slice is walked one
    bracket at a time only when it could reach the limit)."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.depth = 0
        self.in_string = False
        self.escaped = False  # in a string, the block ended after a lone backslash

    def feed(self, block: bytes) -> None:
        pos = 0
        if self.in_string:
            pos = 1 if self.escaped else 0
            self.escaped = False
            body = _JSON_STRING_BODY.match(block, pos)
            end = body.end() if body is not None else pos
            if end >= len(block) or block[end] != 34:  # no closing quote in this block
                self.escaped = end == len(block) - 1 and block[end] == 92
                return
            pos = end + 1
            self.in_string = False
        text = _JSON_STRING.sub(b"", block[pos:] if pos else block)
        quote = text.find(b'"')
        if quote >= 0:  # a string that goes on in the next block
            rest = text[quote + 1:]
            self.in_string = True
            self.escaped = (len(rest) - len(rest.rstrip(b"\\"))) % 2 == 1
            text = text[:quote]
        brackets = text.translate(None, _NOT_BRACKETS)
        for i in range(0, len(brackets), _SLICE):
            part = brackets[i:i + _SLICE]
            opens = part.count(b"{") + part.count(b"[")
            if self.depth + opens > MAX_JSON_DEPTH:
                for c in part:
                    self.depth += 1 if c in (91, 123) else -1
                    if self.depth > MAX_JSON_DEPTH:
                        raise RDFSyntaxError(
                            self.source, f"JSON nested more than {MAX_JSON_DEPTH:,} levels "
                            "deep: refused (nested too deeply)"
                        )
            else:
                self.depth += 2 * opens - len(part)


# An RDF/XML token at a "<": an end tag (group 1), a comment, CDATA or processing-instruction
# opener, another declaration, or a start tag whose quoted values may hold ">" and "/" (group 2:
# "/" for an empty-element tag).
_XML_TOKEN: Final = re.compile(
    rb"<(?:(/)[^>]*>|!--|!\[CDATA\[|\?|!|(?:[^>\"'/]|/(?!>)|\"[^\"]*\"|'[^']*')*(/?)>)"
)
# What ends the construct an opener starts.
_XML_CLOSING: Final = {b"<!--": b"-->", b"<![CDATA[": b"]]>", b"<?": b"?>", b"<!": b">"}


class _XmlDepth:
    """The element depth of RDF/XML read block by block; :meth:`feed` raises past
    :data:`MAX_XML_DEPTH`. pyoxigraph's RDF/XML reader takes time that grows faster than the
    square of the depth (8,000 levels: half a second; 100,000 in a 7 MB file: minutes), so a
    deeper document is refused before it is parsed, as :mod:`urnld.read` refuses it.

    The compiled accelerator runs a byte automaton (``xml_depth``, one small int of state);
    this is its Python twin, a token at each ``<`` (a tag, or the opener of a comment, CDATA
    section, processing instruction or declaration, skipped to its end). A token cut by the
    block's end is kept and read again with the next block."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.depth = 0
        self._c = _accel.speedups
        self._state = 0  # the automaton's state (accelerator)
        self._carry = b""  # the unfinished token (Python)
        self._closing: bytes | None = None  # in a comment, CDATA, PI or declaration: its end

    def _refuse(self) -> RDFSyntaxError:
        return RDFSyntaxError(self.source, f"elements nested more than {MAX_XML_DEPTH:,} "
                              "levels deep: refused (nested too deeply)")

    def feed(self, block: bytes) -> None:
        if self._c is not None:
            self._state, depth = self._c.xml_depth(block, self._state, self.depth,
                                                   MAX_XML_DEPTH)
            if depth < 0:
                raise self._refuse()
            self.depth = depth
            return
        data = self._carry + block if self._carry else block
        self._carry = b""
        pos, n = 0, len(data)
        while True:
            if self._closing is not None:
                i = data.find(self._closing, pos)
                if i < 0:  # keep what could be the start of the closing sequence
                    self._carry = data[max(pos, n - len(self._closing) + 1):]
                    return
                pos = i + len(self._closing)
                self._closing = None
            lt = data.find(b"<", pos)
            if lt < 0:
                return
            m = _XML_TOKEN.match(data, lt)
            opener = data[lt:lt + 9]
            if m is None or (m.end() == lt + 2 and n - lt < 9 and (
                    b"<!--".startswith(opener) or b"<![CDATA[".startswith(opener))):
                self._carry = data[lt:]  # cut by the block's end (or a comment opener might be)
                if len(self._carry) > MAX_XML_TEXT:  # a tag that never ends: bounded memory
                    raise RDFSyntaxError(self.source, f"a tag longer than {MAX_XML_TEXT:,} "
                                         "bytes: refused (bounded memory)")
                return
            pos = m.end()
            if m.group(1) is not None:
                self.depth = max(0, self.depth - 1)
            elif m.group(2) is None:
                self._closing = _XML_CLOSING[m.group()]
            else:  # a start tag; an empty-element tag is one level deeper too, as expat counts
                if self.depth + 1 > MAX_XML_DEPTH:
                    raise self._refuse()
                if not m.group(2):
                    self.depth += 1


class _Sniffer:
    """The input as pyoxigraph reads it (``read(n)``), each block searched on the way for a
    URN base declaration (and, in RDF/XML, an entity declaration, which is refused).

    """

    def __init__(self, f: IO[bytes], syntax: str, source: str) -> None:
        self._f = f
        self._read = getattr(f, "read1", f.read)
        self._raw: Any = getattr(f, "fileobj", None) or f  # compressed position for .gz
        self._pattern = _URN_BASE.get(syntax)
        self._xml = syntax == "xml"
        self._json = _JsonDepth(source) if syntax == "json-ld" else None
        self._xml_depth = _XmlDepth(source) if self._xml else None
        self._text_run = 0  # RDF/XML: bytes since the last "<"
        self._source = source
        self._block = b""
        self.head = b""  # the first block: where a JSON-LD document names its contexts
        self._at = 0
        self._tail = b""
        self.urn_base = False
        self.position = 0
        self.failure: BaseException | None = None

    def readable(self) -> bool:
        return True

    def _next_block(self) -> bool:
        try:
            block = self._read(_BLOCK)
        except BaseException as e:  # kept: pyoxigraph would turn it into a bare OSError
            self.failure = e
            raise
        if not block:
            return False
        with contextlib.suppress(OSError, ValueError, AttributeError):
            self.position = self._raw.tell()
        if self._json is not None:
            try:
                self._json.feed(block)
            except RDFSyntaxError as e:
                self.failure = e
                raise
        if self._pattern is not None or self._xml:
            window = self._tail + block.lower()
            self._tail = window[-_OVERLAP:]
            if self._pattern is not None and not self.urn_base:
                self.urn_base = self._pattern.search(window) is not None
            if self._xml_depth is not None:
                self._markup(block)
                try:
                    self._xml_depth.feed(block)
                except RDFSyntaxError as e:
                    self.failure = e
                    raise
            if self._xml and _ENTITY.search(window) is not None:
                self.failure = RDFSyntaxError(
                    self._source,
                    "entity declarations are refused in RDF/XML (protection against entity "
                    "expansion and external entities); expand them in the document first",
                )
                raise self.failure
        if not self.head:
            self.head = block
        self._block = block
        self._at = 0
        return True

    def _markup(self, block: bytes) -> None:
        """Refuse RDF/XML with more than :data:`MAX_XML_TEXT` bytes between two ``<``."""
        first = block.find(b"<")
        if first < 0:
            self._text_run += len(block)
        else:
            self._text_run += first
        if self._text_run > MAX_XML_TEXT:
            self.failure = RDFSyntaxError(
                self._source, f"more than {MAX_XML_TEXT:,} bytes without markup (one attribute "
                "value or text node): refused (bounded memory)"
            )
            raise self.failure
        if first >= 0:
            self._text_run = len(block) - block.rfind(b"<") - 1

    @property
    def current(self) -> bytes:
        """The block being read."""
        return self._block

    def read(self, n: int = -1) -> bytes:
        if self._at >= len(self._block) and not self._next_block():
            return b""
        if n < 0:
            n = len(self._block)
        out = self._block[self._at:self._at + n]
        self._at += len(out)
        return out

    def drain(self) -> None:
        """Read (and search) what the parser left unread: the guard must see every byte."""
        while self._next_block():
            pass

# A context named by IRI: "@context": "…", "@context": [… "…" …], "@import": "…".
_CONTEXT_REF: Final = re.compile(
    rb'"@(?:context|import)"\s*:\s*(?:"((?:[^"\\]|\\.)*)"|\[[^\]]*?"((?:[^"\\]|\\.)*)")'
)
