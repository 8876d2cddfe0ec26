"""Exceptions raised by urnld.

Every error urnld raises on bad input is a :class:`URNError`, which is a :class:`ValueError`, so
``except ValueError`` keeps working for callers who do not know urnld. A failure of the
environment rather than of the input (an optional dependency missing, a broken plugin, a worker
process that died) is a :class:`URNLDEnvironmentError`, which is a :class:`RuntimeError`: no
change to the input would fix it. The whole tree is drawn in ``docs/errors.md``::

    ValueError
    └── URNError                      base of everything urnld raises on bad input
        ├── URNSyntaxError            the text is not a URN (with .text, .position, .reason)
        ├── URNConversionError        a valid URN has no form in the requested target
        └── ReadError                 an RDF input cannot be read (syntax, file, parser)
    RuntimeError
    └── URNLDEnvironmentError         base of every failure of the environment
        └── WorkerError               a worker process died or failed

Other modules add their own subclasses next to the code that raises them (for example
``urnld.jsonld.URNContextError``); each derives from one of these two bases.

>>> from urnld import parse
>>> try:
...     parse("urn:isbn-:123")
... except URNSyntaxError as e:
...     print(e)
NID may not end with '-' (at position 8)
  urn:isbn-:123
          ^
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .findings import Finding

__all__ = [
    "ReadError",
    "SpellingLimitError",
    "URNContextWarning",
    "URNConversionError",
    "URNError",
    "URNLDEnvironmentError",
    "URNSyntaxError",
    "URNValidationError",
    "UnsafeXMLError",
    "WorkerError",
    "parser_reason",
]

# Inputs can be huge (a 1 MB line of "%"); the caret excerpt shows at most this many characters
# either side of the fault so messages stay one screen long.
_EXCERPT_RADIUS = 40


class URNError(ValueError):
    """Base class of every error urnld raises on bad input.

    Every subclass pickles with its attributes (a worker process or a ``multiprocessing.Pool``
    sends errors back to its parent this way), whatever its constructor takes:

    >>> import pickle
    >>> e = pickle.loads(pickle.dumps(URNError("bad")))
    >>> type(e).__name__, str(e)
    ('URNError', 'bad')
    """

    def __reduce__(self) -> tuple[Any, ...]:
        # BaseException's own reduce calls ``cls(*self.args)``, which fails for subclasses
        # whose constructor takes other arguments than the message; rebuild without calling it.
        return (_rebuild, (type(self), self.args, self.__dict__))


def _rebuild(cls: type[BaseException], args: tuple[Any, ...], state: dict[str, Any]) -> Any:
    """Unpickle an error: a bare instance, its ``args`` and its attributes."""
    error = cls.__new__(cls, *args)
    error.args = args
    error.__dict__.update(state)
    return error


class URNSyntaxError(URNError):
    """The text does not match the URN grammar.

    Attributes:
        text: the input, exactly as given.
        position: 0-based index of the first offending character (``len(text)`` when the input
            ends too early).
        reason: one sentence saying what is wrong, without the position.

    >>> e = URNSyntaxError("urn:a:b c", 7, "space is not allowed in a URN")
    >>> (e.position, e.reason)
    (7, 'space is not allowed in a URN')
    """

    text: str

    def __init__(self, text: str, position: int, reason: str) -> None:
        self.text = text
        self._position: int | None = position
        self._reason: str | None = reason
        self._explain: Callable[[], tuple[int, str]] | None = None
        # The caret excerpt is rendered only when shown: callers that catch and move on (a
        # graph pass meeting many invalid IRIs) should not pay for it.
        super().__init__(text)

    @classmethod
    def _deferred(cls, text: str, explain: Callable[[], tuple[int, str]]) -> URNSyntaxError:
        """An error whose position and reason are worked out by *explain* on first use.

        The parser's fast path only knows that the regex failed; finding the first fault takes
        a second scan, which callers that just catch the error never need.
        """
        error = cls.__new__(cls)
        URNError.__init__(error, text)
        error.text = text
        error._position = error._reason = None
        error._explain = explain
        return error

    def _resolve(self) -> None:
        if self._explain is not None:
            self._position, self._reason = self._explain()
            self._explain = None

    @property
    def position(self) -> int:
        """0-based index of the first offending character."""
        self._resolve()
        assert self._position is not None
        return self._position

    @property
    def reason(self) -> str:
        """What is wrong, in one sentence, without the position."""
        self._resolve()
        assert self._reason is not None
        return self._reason

    def __str__(self) -> str:
        start = max(0, self.position - _EXCERPT_RADIUS)
        end = min(len(self.text), self.position + _EXCERPT_RADIUS)
        excerpt = self.text[start:end]
        prefix = "…" if start > 0 else ""
        suffix = "…" if end < len(self.text) else ""
        # Control characters would break the caret alignment; show them as "?".
        shown = "".join(c if c.isprintable() else "?" for c in excerpt)
        caret = " " * (len(prefix) + self.position - start) + "^"
        return f"{self.reason} (at position {self.position})\n  {prefix}{shown}{suffix}\n  {caret}"

    def __reduce__(self) -> tuple[type[URNSyntaxError], tuple[str, int, str]]:
        return (type(self), (self.text, self.position, self.reason))


class ReadError(URNError):
    """An RDF input cannot be read: unknown syntax, unreadable file, a parser's complaint.

    Also importable as :class:`urnld.read.ReadError`, its documented home.
    """


class UnsafeXMLError(ReadError):
    """RDF/XML that declares entities or refers to external ones: refused, never expanded.

    Documented as :class:`urnld.read.UnsafeXMLError`; defined here because the one RDF/XML scan
    (the reader's and the streaming path's) raises it.
    """


class URNConversionError(URNError):
    """A valid URN cannot be expressed in the requested form (e.g. RFC 2141 syntax)."""


class URNValidationError(URNError):
    """The text parses, but a later level of validation (NID policy, namespace) failed.

    Raised by :func:`urnld.validate` and by the URN methods that need a valid NSS.

    Attributes:
        text: the input.
        findings: the error-level findings.
    """

    def __init__(self, text: str, findings: list[Finding]) -> None:
        self.text = text
        self.findings = findings
        detail = "; ".join(f"{f.message} [{f.code}]" for f in findings)
        super().__init__(f"{text!r} is not a valid URN: {detail}")

    def __reduce__(self) -> tuple[type[URNValidationError], tuple[str, list[Finding]]]:
        return (type(self), (self.text, self.findings))


class SpellingLimitError(URNError):
    """More distinct URN spellings than a streamed or in-place (endpoint) canonicalization keeps
    (its report's ``max_examples``): the statements ``link`` / ``keep_spellings`` /
    ``link_resolvers`` add would be incomplete, so none are written (no output file appears; a
    store is not changed)."""


class URNContextWarning(UserWarning):
    """A URN hazard (a URN base used as a prefix, a term named like a scheme…), reported as a
    warning because the caller passed ``hazards="warn"``; documented as
    :class:`urnld.jsonld.URNContextWarning`, and raised by every reader of urnld."""


class URNLDEnvironmentError(RuntimeError):
    """Base class of every failure of the environment, not of the input: an optional
    dependency missing, a namespace plugin that cannot be loaded, a worker process that died.

    >>> issubclass(URNLDEnvironmentError, ValueError)
    False
    """


class WorkerError(URNLDEnvironmentError):
    """A worker process died or failed (a bug or a resource limit, not bad input)."""


def parser_reason(e: BaseException) -> str:
    r"""One line saying what an RDF parser disliked, with its line number where it gave one.

    rdflib's Turtle errors read ``at line 4 of <>:`` / ``Bad syntax (…) at ^ in:`` / the quoted
    input; the first line alone says nothing. Keep the position and the complaint, drop the
    quoted input.

    >>> rdflib_says = "at line 4 of <>:\nBad syntax (newline in string) at ^ in:\n'x'"
    >>> parser_reason(SyntaxError(rdflib_says))
    'at line 4: Bad syntax (newline in string)'
    >>> parser_reason(ValueError("Expecting value: line 1 column 1 (char 0)"))
    'Expecting value: line 1 column 1 (char 0)'
    >>> parser_reason(KeyError())
    'KeyError'
    """
    lines = [ln.strip() for ln in str(e).splitlines() if ln.strip()]
    if not lines or lines == ["None"]:
        return type(e).__name__
    first = lines[0]
    if first.startswith("at line") and len(first) < 40 and len(lines) > 1:
        where = first.removesuffix(":").removesuffix(" of <>").strip()
        return f"{where}: {lines[1].split(' at ^')[0].strip()}"
    return first
