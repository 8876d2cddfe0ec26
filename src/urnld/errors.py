"""Exceptions raised by urnld.

Every error urnld raises on bad input is a :class:`URNError`, which is a :class:`ValueError`, so
``except ValueError`` keeps working for callers who do not know urnld::

    ValueError
    └── URNError                      base of everything urnld raises on bad input
        ├── URNSyntaxError            the text is not a URN (with .text, .position, .reason)
        └── URNConversionError        a valid URN has no form in the requested target

Other modules add their own subclasses next to the code that raises them (for example
``urnld.jsonld.URNContextError``); they all derive from :class:`URNError`.

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

__all__ = ["URNConversionError", "URNError", "URNSyntaxError"]

# Inputs can be huge (a 1 MB line of "%"); the caret excerpt shows at most this many characters
# either side of the fault so messages stay one screen long.
_EXCERPT_RADIUS = 40


class URNError(ValueError):
    """Base class of every error urnld raises on bad input."""


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
    position: int
    reason: str

    def __init__(self, text: str, position: int, reason: str) -> None:
        self.text = text
        self.position = position
        self.reason = reason
        super().__init__(self._render())

    def _render(self) -> str:
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


class URNConversionError(URNError):
    """A valid URN cannot be expressed in the requested form (e.g. RFC 2141 syntax)."""
