"""What reading a JSON-LD document as RDF drops or warns about, with where it is written.

JSON-LD 1.1 reads some valid JSON without a word: a key that expands to no absolute IRI is
dropped by Expansion (its values with it), a node or value whose IRI is not well-formed is
dropped by Deserialize JSON-LD to RDF, a property that is a blank node makes no RDF statement,
and a relative reference in a file with no ``@base`` is resolved against the file's location
(a local path, not where the document is published). :func:`reading_notes` runs the Expansion
algorithm (pyld's, on the document with its contexts from the same loader the readers use) and
says each of these, with the JSON pointer (RFC 6901) of the key or value as written; pyld's own
warnings (an invalid language tag, a term that looks like a keyword) come with the document's
pointer ``""``, and so do the URN hazards of its contexts that are not errors (a term named like
a URI scheme the document uses, a URN namespace term JSON-LD will not use as a prefix), placed
at the value they name when it is written in the document.

These are findings, not errors: the statements the readers give are the algorithm's.
"""

from __future__ import annotations

import re
import warnings
from typing import Any, NamedTuple

from pyld import jsonld as _pyld

from ._api import _Resolver
from ._canon import Canonicalizer
from ._hazards import _pointer, context_hazards

__all__ = ["ReadingNote", "reading_notes"]

#: An absolute IRI as RDF takes it: a scheme, then no character an IRI cannot hold (spaces,
#: controls, ``<>"{}|^`\\``), the characters N-Quads' IRIREF excludes.
_WELL_FORMED = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:[^\x00-\x20<>\"{}|^`\\]*\Z")
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:")


class ReadingNote(NamedTuple):
    """One thing reading a document dropped or warned about.

    ``where``: the JSON pointer of the key or value as written (``""``: the document);
    ``code``: ``jsonld-dropped-key``, ``jsonld-dropped-iri``, ``jsonld-file-base``,
    ``jsonld-warning``, or ``jsonld-`` and the code of a URN hazard of the contexts
    (:class:`urnld.jsonld.Hazard`: ``jsonld-scheme-term``, ``jsonld-prefix-not-usable``);
    ``message``: what happened, in words.
    """

    where: str
    code: str
    message: str


def _token(key: object) -> str:
    return str(key).replace("~", "~0").replace("/", "~1")


class _Processor(_pyld.JsonLdProcessor):  # type: ignore[misc]
    """pyld's processor, told where in the document it is (a stack of the objects being
    expanded, each with its pointer) so that what it drops can be placed."""

    def __init__(self, file_base: str | None) -> None:
        super().__init__(on_property_dropped=self._dropped)
        self.notes: dict[ReadingNote, None] = {}  # in the order met, each once
        self._pointers: dict[int, str] = {}
        self._stack: list[tuple[str, Any]] = []
        self._indexed = False
        self._key: str | None = None  # the key pyld expanded last (then drops, or not)
        self._file_base = file_base
        self.resolved_under_file = 0
        self._well_formed: dict[str, bool] = {}

    def _index(self, value: Any, pointer: str) -> None:
        # The ids of the document's (pyld's copy's) objects: alive for the whole expansion,
        # so an id names one of them and nothing else.
        if isinstance(value, dict):
            self._pointers[id(value)] = pointer
            for k, v in value.items():
                self._index(v, f"{pointer}/{_token(k)}")
        elif isinstance(value, list):
            self._pointers[id(value)] = pointer
            for i, v in enumerate(value):
                self._index(v, f"{pointer}/{i}")

    def _expand(self, active_ctx: Any, active_property: Any, element: Any, options: Any,
                *args: Any, **kwargs: Any) -> Any:
        if not self._indexed:  # the first call is with the whole document
            self._indexed = True
            self._index(element, "")
        if not isinstance(element, dict):
            return super()._expand(active_ctx, active_property, element, options, *args,
                                   **kwargs)
        # An object's keys are expanded here already (looking for @context, @type): its own.
        where = self._pointers.get(id(element), self._stack[-1][0] if self._stack else "")
        self._stack.append((where, element))
        try:
            return super()._expand(active_ctx, active_property, element, options, *args,
                                   **kwargs)
        finally:
            self._stack.pop()

    def _expand_object(self, active_ctx: Any, active_property: Any,
                       expanded_active_property: Any, element: Any, *args: Any,
                       **kwargs: Any) -> Any:
        where = self._pointers.get(id(element), self._stack[-1][0] if self._stack else "")
        self._stack.append((where, element))
        try:
            return super()._expand_object(active_ctx, active_property,
                                          expanded_active_property, element, *args, **kwargs)
        finally:
            self._stack.pop()

    def _where(self, key: str | None) -> str:
        pointer, element = self._stack[-1] if self._stack else ("", None)
        if key is None or not isinstance(element, dict) or key not in element:
            return pointer
        return f"{pointer}/{_token(key)}"

    def _value_where(self, value: str) -> str:
        """The pointer of *value* in the object being expanded: under the key being expanded,
        else the first key (in pyld's order) that holds it."""
        pointer, element = self._stack[-1] if self._stack else ("", None)
        if not isinstance(element, dict):
            return pointer
        keys = sorted(element)
        if self._key in element:
            keys.insert(0, self._key)
        for k in keys:
            held = element[k]
            if held == value:
                return f"{pointer}/{_token(k)}"
            if isinstance(held, list) and value in held:
                return f"{pointer}/{_token(k)}/{held.index(value)}"
        return pointer

    def _note(self, where: str, code: str, message: str) -> None:
        self.notes.setdefault(ReadingNote(where, code, message), None)

    def _dropped(self, expanded: str | None) -> None:
        key = self._key
        if expanded is None:
            why = "is mapped to null by its context"
        else:
            why = f"expands to {expanded!r}, not an absolute IRI, a compact IRI or a keyword"
        self._note(self._where(key), "jsonld-dropped-key",
                   f"key {key!r} {why}: the key and its values are dropped")

    def _expand_iri(  # noqa: PLR0917  # pyld's signature, called positionally by pyld
        self, active_ctx: Any, value: Any, base: Any = None, vocab: bool = False,
        local_ctx: Any = None, defined: Any = None,
    ) -> Any:
        # Called for every key and IRI of the document: the plain call, few tests after it.
        result = _EXPAND_IRI(self, active_ctx, value, base, vocab, local_ctx, defined)
        if local_ctx is not None or not self._stack or type(value) is not str:
            return result  # a context being processed: its own errors are pyld's
        if base is None:
            # A key (or pyld looking at a key or a type before expanding it): values are
            # always expanded with a base argument.
            if vocab and value in self._stack[-1][1]:
                self._key = value  # dropped or kept: on_property_dropped says
                if type(result) is str and result[:2] == "_:":
                    self._note(self._where(value), "jsonld-dropped-key",
                               f"key {value!r} expands to the blank node {result!r}: RDF has "
                               "no blank-node properties, its statements are dropped")
            return result
        if type(result) is not str or result[:1] == "@" or result[:2] == "_:":
            return result
        well_formed = self._well_formed.get(result)
        if well_formed is None:
            well_formed = self._well_formed[result] = _WELL_FORMED.match(result) is not None
        if not well_formed:
            self._note(self._value_where(value), "jsonld-dropped-iri",
                       f"{value!r} expands to {result!r}, not a well-formed absolute IRI: "
                       "the statements it is part of are dropped")
        elif (self._file_base is not None and result[:5] == "file:"
              and not _SCHEME.match(value)):
            self.resolved_under_file += 1
        return result


_EXPAND_IRI = _pyld.JsonLdProcessor._expand_iri


def _iris(expanded: Any) -> set[str]:
    """The IRIs of an expanded document: node ids, types and properties."""
    found: set[str] = set()
    stack = [expanded]
    while stack:
        value = stack.pop()
        if isinstance(value, list):
            stack.extend(value)
        elif isinstance(value, dict):
            for key, held in value.items():
                if key in ("@id", "@type"):
                    found.update(v for v in (held if isinstance(held, list) else [held])
                                 if isinstance(v, str))
                elif key[:1] != "@":
                    found.add(key)
                if key != "@value":
                    stack.append(held)
    return found


def reading_notes(document: Any, *, loader: Any = None,
                  base: str | None = None) -> list[ReadingNote]:
    """What reading *document* (parsed JSON) as RDF against *base* drops or warns about; its
    contexts come from *loader* (a pyld document loader: a :class:`URNDocumentLoader`, which
    fetches nothing). A document the algorithm refuses gives no notes (the readers refuse it
    with its error).

    >>> doc = {"@context": {"name": "http://schema.org/name"}, "@id": "urn:example:a",
    ...        "name": "Ada", "nickname": "dropped", "http://e/p": {"@id": "not an iri"}}
    >>> for note in reading_notes(doc, base="http://example.org/"):
    ...     print(note.where, note.code)
    /http:~1~1e~1p/@id jsonld-dropped-iri
    /nickname jsonld-dropped-key
    """
    from ._loader import URNDocumentLoader

    if loader is None:
        loader = URNDocumentLoader({})
    file_base = base if base is not None and base[:5].lower() == "file:" else None
    processor = _Processor(file_base)
    # A private cache (pyld's shared one is keyed by URL, whatever the loader) that remembers
    # the contexts it resolves, as written: the URN hazards of the contexts are judged on them.
    resolver = _Resolver(loader, Canonicalizer(), None, rewrite=False)
    options: dict[str, Any] = {"documentLoader": loader, "contextResolver": resolver}
    if base is not None:
        options["base"] = base
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            expanded = processor.expand(document, options)
            # Invalid URNs are the check report's findings already: not judged again here.
            hazards = context_hazards(resolver.contexts, _iris(expanded), {})
        except (_pyld.JsonLdError, RecursionError):
            return []
    for hazard in hazards:
        named = re.match(r"'([^']+)'", hazard.message)
        where = _pointer(document, named[1]) if named else None
        processor._note(where or "", f"jsonld-{hazard.code}", hazard.message)
    for w in caught:
        if issubclass(w.category, (SyntaxWarning, UserWarning)):
            processor._note("", "jsonld-warning", str(w.message))
    if processor.resolved_under_file:
        n = processor.resolved_under_file
        processor._note(
            "", "jsonld-file-base",
            f"{n:,} IRI{'s' if n != 1 else ''} resolved against the file's location <{base}> "
            "(relative references with no @base): give --base (base=) for the IRIs the "
            "document is published under")
    return sorted(processor.notes)
