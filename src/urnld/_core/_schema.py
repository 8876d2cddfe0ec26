"""The pydantic core schema and JSON Schema of a URN field, for :mod:`urnld.pydantic` and the
``URN.__get_pydantic_core_schema__`` hook (which loads this module, and pydantic, only when
pydantic asks). Given the URN class by the caller, so it does not import the URN module.

>>> json_schema()["format"]
'urn'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..errors import URNError

if TYPE_CHECKING:
    from ._urn import URN

__all__ = ["RFC8141_PATTERN", "json_schema", "urn_schema"]

#: The RFC 8141 grammar as an ECMA-262-compatible pattern for JSON Schema (``pattern``).
RFC8141_PATTERN = (
    r"^[Uu][Rr][Nn]:[A-Za-z0-9][A-Za-z0-9-]{0,30}[A-Za-z0-9]:"
    r"(?:[A-Za-z0-9._~!$&'()*+,;=:@-]|%[0-9A-Fa-f]{2})"
    r"(?:[A-Za-z0-9._~!$&'()*+,;=:@/-]|%[0-9A-Fa-f]{2})*"
    r"(?:\?\+(?:[A-Za-z0-9._~!$&'()*+,;=:@-]|%[0-9A-Fa-f]{2})"
    r"(?:[A-Za-z0-9._~!$&'()*+,;=:@/-]|%[0-9A-Fa-f]{2}|\?(?!=))*)?"
    r"(?:\?=(?:[A-Za-z0-9._~!$&'()*+,;=:@-]|%[0-9A-Fa-f]{2})"
    r"(?:[A-Za-z0-9._~!$&'()*+,;=:@/?-]|%[0-9A-Fa-f]{2})*)?"
    r"(?:#(?:[A-Za-z0-9._~!$&'()*+,;=:@/?-]|%[0-9A-Fa-f]{2})*)?$"
)


def _validator(cls: type[URN], *, canonical: bool, check: bool) -> Callable[[Any], URN]:
    def validate(value: Any) -> URN:
        if isinstance(value, cls):
            urn = value
        elif isinstance(value, str):
            urn = cls(value)  # URNSyntaxError is a ValueError: pydantic reports a value_error
        else:
            # A ValueError, so that pydantic reports it as a validation error of the field.
            raise URNError(f"a URN is given as str, not {type(value).__name__}")
        if check:
            cls._validate_text(str(urn), urn.mode)  # URNValidationError: a ValueError too
        return urn.canonical() if canonical else urn

    return validate


def urn_schema(cls: type[URN], *, canonical: bool = False, check: bool | None = None) -> Any:
    """The pydantic core schema of a URN field: str in, *cls* out, str in JSON.

    With *canonical*, the value is replaced by its canonical form. With *check* (default: as
    *canonical*) the value must also pass every level of :func:`urnld.check` — a canonical form
    is a claim that the URN is valid, so a wrong check digit or an ``X-`` NID is refused.
    """
    from pydantic_core import core_schema

    return core_schema.no_info_plain_validator_function(
        _validator(cls, canonical=canonical, check=canonical if check is None else check),
        serialization=core_schema.plain_serializer_function_ser_schema(str, when_used="always"),
    )


def json_schema() -> dict[str, Any]:
    """The JSON Schema of a URN field: a string with the RFC 8141 ``pattern``."""
    return {
        "type": "string",
        "format": "urn",
        "pattern": RFC8141_PATTERN,
        "description": "A Uniform Resource Name (RFC 8141)",
    }
