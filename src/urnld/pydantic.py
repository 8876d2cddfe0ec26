"""pydantic v2 types for URNs: ``URNStr`` and ``CanonicalURNStr`` (pydantic is an optional extra).

``pip install 'urnld[pydantic]'``. Importing :mod:`urnld` never imports pydantic; this module
does. A field annotated with :class:`~urnld.URN` works too: ``URN`` finds this module through
``__get_pydantic_core_schema__`` when pydantic asks.

>>> from pydantic import BaseModel
>>> class Book(BaseModel):
...     id: URNStr
...     key: CanonicalURNStr
>>> b = Book(id="URN:ISBN:0-395-36341-1", key="URN:ISBN:0-395-36341-1")
>>> b.id, b.key
(URN('URN:ISBN:0-395-36341-1'), URN('urn:isbn:0395363411'))
>>> b.model_dump(mode="json")
{'id': 'URN:ISBN:0-395-36341-1', 'key': 'urn:isbn:0395363411'}
>>> from pydantic import ValidationError
>>> try:
...     Book(id="urn:x", key="urn:isbn:0395363411")
... except ValidationError as e:
...     print(e.errors()[0]["loc"], e.errors()[0]["msg"].splitlines()[0])
('id',) Value error, ':' and a namespace-specific string must follow the NID (at position 5)
>>> Book.model_json_schema()["properties"]["id"]["format"]
'urn'
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import GetCoreSchemaHandler, GetJsonSchemaHandler
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import core_schema

from ._urn import URN
from .errors import URNError

__all__ = ["RFC8141_PATTERN", "CanonicalURNStr", "URNStr", "urn_schema"]

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


def _parse(value: Any) -> URN:
    if isinstance(value, URN):
        return value
    if not isinstance(value, str):
        # A ValueError, so that pydantic reports it as a validation error of the field.
        raise URNError(f"a URN is given as str, not {type(value).__name__}")
    return URN(value)  # URNSyntaxError is a ValueError: pydantic reports it as value_error


def _canonical(value: Any) -> URN:
    return _parse(value).canonical()


def urn_schema(*, canonical: bool = False) -> core_schema.CoreSchema:
    """The pydantic core schema of a URN field: str in, :class:`~urnld.URN` out, str in JSON.

    With *canonical*, the value is replaced by its canonical form.
    """
    validate = _canonical if canonical else _parse
    return core_schema.no_info_plain_validator_function(
        validate,
        serialization=core_schema.plain_serializer_function_ser_schema(str, when_used="always"),
    )


class _URNAnnotation:
    def __init__(self, *, canonical: bool) -> None:
        self.canonical = canonical

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        return urn_schema(canonical=self.canonical)

    def __get_pydantic_json_schema__(
        self, schema: core_schema.CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        return json_schema()


def json_schema() -> dict[str, Any]:
    """The JSON Schema of a URN field.

    >>> json_schema()["format"]
    'urn'
    """
    return {
        "type": "string",
        "format": "urn",
        "pattern": RFC8141_PATTERN,
        "description": "A Uniform Resource Name (RFC 8141)",
    }


#: A URN field: validated against RFC 8141, kept as written.
URNStr = Annotated[URN, _URNAnnotation(canonical=False)]
#: A URN field replaced by its canonical form (RFC 8141 §3 plus the namespace's rules).
CanonicalURNStr = Annotated[URN, _URNAnnotation(canonical=True)]
