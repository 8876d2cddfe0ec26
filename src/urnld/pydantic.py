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

from ._core import RFC8141_PATTERN, URN, json_schema, urn_schema

__all__ = [
    "RFC8141_PATTERN",
    "CanonicalURNStr",
    "URNField",
    "URNStr",
    "json_schema",
    "urn_schema",
]


class URNField:
    """The annotation behind :data:`URNStr` and :data:`CanonicalURNStr`, for other choices:
    ``Annotated[URN, URNField(canonical=True, check=False)]`` is a canonical field that takes
    any well-formed URN (lenient construction, for data being repaired).

    >>> from pydantic import BaseModel
    >>> class Record(BaseModel):
    ...     id: Annotated[URN, URNField(canonical=True, check=False)]
    >>> Record(id="URN:ISBN:0-395-36341-2").id
    URN('urn:isbn:0395363412')
    """

    def __init__(self, *, canonical: bool = False, check: bool | None = None) -> None:
        self.canonical = canonical
        self.check = check

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        schema: core_schema.CoreSchema = urn_schema(
            URN, canonical=self.canonical, check=self.check
        )
        return schema

    def __get_pydantic_json_schema__(
        self, schema: core_schema.CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        return json_schema()


#: A URN field: validated against RFC 8141, kept as written.
URNStr = Annotated[URN, URNField(canonical=False)]
#: A URN field replaced by its canonical form (RFC 8141 §3 plus the namespace's rules), which
#: must pass every level of :func:`urnld.check` (namespace grammar, check digits, NID policy).
CanonicalURNStr = Annotated[URN, URNField(canonical=True)]
