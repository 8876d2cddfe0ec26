"""Where the built-in namespace rules live: NID -> ``"module:object"``, imported lazily."""

from __future__ import annotations

BUILTIN: dict[str, str] = {
    "isbn": "urnld.namespaces.isbn:RULE",
    "uuid": "urnld.namespaces.uuid:RULE",
}
