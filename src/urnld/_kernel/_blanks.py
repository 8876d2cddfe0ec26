"""Deterministic blank-node labels: the same input gives the same output bytes on every run.

Parsers invent a label for every blank node the input did not name (Turtle's ``[ ]`` and
``( … )``, JSON-LD nodes without ``@id``, RDF/XML's nested descriptions), and they invent it at
random: pyoxigraph a 128-bit hexadecimal number, rdflib ``N`` and a UUID. Written back as
they are, two runs of the same command give two different files. :class:`BlankLabels` gives
each invented label the next free ``b<n>`` in order of first appearance and keeps every label
the input wrote; a label the input wrote that is also one it handed out before is renamed to a
free one, so the relabelling stays one-to-one (blank-node identity is what urnld keeps, not
the spelling of a document-scoped label).

>>> labels = BlankLabels()
>>> [labels.label(x) for x in ("d1f3a0c2b4e5f60718293a4b5c6d7e8f", "named", "b0",
...                            "d1f3a0c2b4e5f60718293a4b5c6d7e8f", "N" + "0" * 32)]
['b0', 'named', 'b1', 'b0', 'b2']

(the input's own ``b0`` came after ``b0`` was handed out: it is renamed, consistently).

Output that urnld wrote is read back unchanged (no label in it looks invented), so
canonicalizing a canonical file gives the same bytes.

What it costs: one dictionary entry per invented label (an input's named labels cost nothing,
unless they look like ``b<n>``); the N-Quads between a streamed syntax's parser and the URN
pass are scanned only in the chunks that hold ``_:``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Final

__all__ = ["BlankLabels", "invented", "relabel_chunks", "relabel_nquads"]

# pyoxigraph: a random u128 in lower-case hexadecimal whose first digit is a letter (so that
# RDF/XML takes it); shorter than 24 digits only once in 16**8 runs. rdflib: "N" + uuid4().hex.
_INVENTED: Final = re.compile(r"[a-f][0-9a-f]{23,31}|N[0-9a-f]{32}")
_FRESH: Final = re.compile(r"b(?:0|[1-9][0-9]*)")

# A quote before a "_:" on the same line: the line may hold "_:" inside a literal.
_QUOTED_LABEL: Final = re.compile(rb'"[^\n]*?_:')

# One N-Quads token: an IRI, a string literal (escapes included) or a blank-node label. Only
# labels are rewritten; the first two are matched so that "_:" inside them is left alone.
_TOKEN: Final = re.compile(rb'<[^>\n]*>|"(?:[^"\\\n]|\\.)*"|_:([^\s]+)')


def invented(label: str) -> bool:
    """Did a parser make *label* up (rather than read it in the input)?

    >>> invented("e84f43f490a44573a213815116d1aa4f"), invented("named"), invented("b1")
    (True, False, False)
    """
    return _INVENTED.fullmatch(label) is not None


class BlankLabels:
    """The output label of every blank-node label met, in the order they are met (see the
    module's docstring). One instance per output document."""

    __slots__ = ("_bytes", "_given", "_map", "_next", "_taken")

    def __init__(self) -> None:
        self._map: dict[str, str] = {}
        # Labels of the input that look like ours: a fresh label must avoid them.
        self._taken: set[str] = set()
        # Fresh labels handed out: a label of the input equal to one must be renamed.
        self._given: set[str] = set()
        self._next = 0
        self._bytes: dict[bytes, bytes] = {}  # label() of the byte labels met in relabel()

    def _fresh(self) -> str:
        while True:
            label = f"b{self._next}"
            self._next += 1
            if label not in self._taken:
                self._given.add(label)
                return label

    def label(self, old: str) -> str:
        """The output label of the input label *old*."""
        new = self._map.get(old)
        if new is not None:
            return new
        if invented(old):
            new = self._fresh()
        elif old in self._given:
            new = self._fresh()  # the input wrote a label already handed out: renamed
        else:
            if _FRESH.fullmatch(old):
                self._taken.add(old)
            return old  # kept as written, and nothing to remember
        self._map[old] = new
        return new

    def relabel(self, chunk: bytes) -> bytes:
        """*chunk* (whole N-Triples / N-Quads lines) with its blank-node labels relabelled.

        >>> BlankLabels().relabel(b'_:x <p:q> "_:y" .\\n'
        ...                       b'<p:s> <p:q> _:c4ca4238a0b923820dcc509a6f75849b .\\n')
        b'_:x <p:q> "_:y" .\\n<p:s> <p:q> _:b0 .\\n'
        """
        if b"_:" not in chunk:
            return chunk
        if b'"' in chunk and _QUOTED_LABEL.search(chunk):
            return self._relabel_tokens(chunk)  # a "_:" after a quote: maybe in a literal
        # The common case, at the speed of bytes.split: every "_:" after a space or at a line's
        # start begins a label (inside an IRI one never does), and a label ends at a space.
        pieces = chunk.split(b"_:")
        out = [pieces[0]]
        before = pieces[0][-1:] or b"\n"
        seen, label = self._bytes, self._label_bytes
        for piece in pieces[1:]:
            if before in b" \n":
                end = piece.find(b" ")  # pyoxigraph writes a space after every label
                old = piece if end < 0 else piece[:end]
                if b"\n" in old or b"\t" in old:
                    old = re.split(rb"\s", old, maxsplit=1)[0]
                new = seen.get(old)
                if new is None:
                    new = seen[old] = label(old)
                out.append(new)
                out.append(piece[len(old):])
            else:
                out.append(b"_:")
                out.append(piece)
            before = piece[-1:] or b":"
        return b"".join(out)

    def _label_bytes(self, old: bytes) -> bytes:
        return b"_:" + self.label(old.decode("utf-8")).encode("utf-8")

    def _relabel_tokens(self, chunk: bytes) -> bytes:
        """:meth:`relabel` token by token, literals skipped whole."""
        seen, label = self._bytes, self._label_bytes

        def sub(m: re.Match[bytes]) -> bytes:
            old = m.group(1)
            if old is None:
                return m.group(0)  # a literal
            new = seen.get(old)
            if new is None:
                new = seen[old] = label(old)
            return new

        return _TOKEN.sub(sub, chunk)


def relabel_chunks(chunks: Iterable[bytes]) -> Iterator[bytes]:
    """*chunks* of one N-Quads document, relabelled by one :class:`BlankLabels`."""
    labels = BlankLabels()
    for chunk in chunks:
        yield labels.relabel(chunk)


def relabel_nquads(text: str) -> str:
    """One N-Quads document, relabelled.

    >>> relabel_nquads('_:Nc4ca4238a0b923820dcc509a6f75849b <p:q> _:named .\\n')
    '_:b0 <p:q> _:named .\\n'
    """
    return BlankLabels().relabel(text.encode("utf-8")).decode("utf-8")
