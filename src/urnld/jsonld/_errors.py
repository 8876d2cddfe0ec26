"""Errors and warnings of :mod:`urnld.jsonld`.

::

    ValueError
    └── URNError                          (urnld.errors)
        ├── URNContextError               a URN hazard in a JSON-LD document or context
        │   ├── URNBaseError              relative IRIs resolved against a URN @base
        │   └── CatalogError              a catalog or a document from it is unusable
        └── JsonLdProcessingError         pyld rejected the input (also a pyld JsonLdError)

    UserWarning
    └── URNContextWarning                 a hazard reported with ``hazards="warn"``
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pyld.jsonld import JsonLdError

from ..errors import URNContextWarning, URNError

__all__ = [
    "CatalogError",
    "Hazard",
    "JsonLdProcessingError",
    "URNBaseError",
    "URNContextError",
    "URNContextWarning",
]


class Hazard:
    """One URN hazard found in a JSON-LD document: a stable ``code`` and a one-line message.

    Codes: ``urn-base`` (relative IRI resolved against a URN ``@base``), ``scheme-term`` (a term
    named like a URI scheme the document uses), ``prefix-not-usable`` (a URN namespace term
    JSON-LD will not use as a prefix), ``invalid-urn`` (a ``urn:`` IRI that is not a valid URN).

    ``fatal`` marks the hazards that make the output wrong whatever the processor (relative
    references against a URN base, a term named ``urn``): by default they stop the run; the
    others are findings about valid JSON-LD, reported while the output stays the algorithm's.

    >>> Hazard("invalid-urn", "'urn:bar' is not a valid URN")
    Hazard('invalid-urn', "'urn:bar' is not a valid URN")
    >>> Hazard("urn-base", "relative reference <c> against the URN base <urn:a:b>").fatal
    True
    """

    __slots__ = ("code", "fatal", "message")

    def __init__(self, code: str, message: str, *, fatal: bool | None = None) -> None:
        self.code = code
        self.message = message
        self.fatal = code == "urn-base" if fatal is None else fatal

    def __repr__(self) -> str:
        return f"Hazard({self.code!r}, {self.message!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Hazard):
            return NotImplemented
        return (self.code, self.message) == (other.code, other.message)

    def __hash__(self) -> int:
        return hash((self.code, self.message))


class URNContextError(URNError):
    """A JSON-LD document or context uses URNs in a way that silently produces wrong IRIs.

    ``hazards`` holds every :class:`Hazard` found (the message shows the first one).
    """

    hazards: tuple[Hazard, ...]

    def __init__(self, message: str, hazards: Sequence[Hazard] = ()) -> None:
        super().__init__(message)
        self.hazards = tuple(hazards)


class URNBaseError(URNContextError):
    """Relative IRI references were resolved against a URN ``@base`` (RFC 8141 §4.3)."""


class CatalogError(URNContextError):
    """A URN catalog is malformed, refers outside its directory, or lacks a requested URN."""


def _root_code(err: BaseException | None) -> str | None:
    # pyld wraps errors in code-less "Could not expand input…" errors; the JSON-LD error code is
    # the first one set down the cause chain (what pyld's own test runner reports).
    while err is not None:
        if isinstance(err, JsonLdError) and err.code:
            return str(err.code)
        err = err.__cause__
    return None


def _root_message(err: BaseException) -> str:
    last = err
    while last.__cause__ is not None:
        last = last.__cause__
    if isinstance(last, JsonLdError):
        return str(last.args[0]) if last.args else last.type
    return str(last).splitlines()[0] if str(last) else type(last).__name__


class JsonLdProcessingError(URNError, JsonLdError):  # type: ignore[misc]
    """pyld rejected the input; ``code`` is the JSON-LD error code (e.g. ``invalid IRI mapping``).

    It is also a ``pyld.jsonld.JsonLdError``, so code written for pyld keeps catching it. The
    message is one line: what pyld said, the code, and the innermost cause.
    """

    code: str | None
    type: str
    details: Any

    def __init__(self, cause: JsonLdError) -> None:
        code = _root_code(cause)
        head = str(cause.args[0]) if cause.args else "JSON-LD processing failed"
        root = _root_message(cause)
        message = head if root == head else f"{head} {root}"
        if code:
            message = f"{message} [{code}]"
        JsonLdError.__init__(self, message, cause.type, cause.details, code)

    def __str__(self) -> str:
        return str(self.args[0])

    def __reduce__(self) -> tuple[Any, tuple[str, str, Any, str | None]]:
        return (_restore_processing_error, (str(self), self.type, self.details, self.code))


def _restore_processing_error(
    message: str, type_: str, details: Any, code: str | None
) -> JsonLdProcessingError:
    """Unpickle a :class:`JsonLdProcessingError` (built from its fields, not from a cause)."""
    err = JsonLdProcessingError.__new__(JsonLdProcessingError)
    JsonLdError.__init__(err, message, type_, details, code)
    return err


def _unwrap_urn_error(err: BaseException) -> URNError | None:
    """The urnld error inside a pyld error chain (pyld wraps whatever a loader raises)."""
    seen: BaseException | None = err
    while seen is not None:
        if isinstance(seen, URNContextError):
            return seen
        seen = seen.__cause__
    return None
