"""Where the built-in namespace rules live: NID -> ``"module:object"``, imported lazily.

Importing this table costs nothing: a rule module is imported the first time its NID is seen.
``epcglobal`` shares the ``epc`` module (RFC 5134 defines both).
"""

from __future__ import annotations

BUILTIN: dict[str, str] = {
    "doi": "urnld.namespaces.doi:RULE",
    "epc": "urnld.namespaces.epc:RULE",
    "epcglobal": "urnld.namespaces.epc:EPCGLOBAL_RULE",
    "example": "urnld.namespaces.example:RULE",
    "ietf": "urnld.namespaces.ietf:RULE",
    "isan": "urnld.namespaces.isan:RULE",
    "isbn": "urnld.namespaces.isbn:RULE",
    "isni": "urnld.namespaces.isni:RULE",
    "iso": "urnld.namespaces.iso:RULE",
    "issn": "urnld.namespaces.issn:RULE",
    "lei": "urnld.namespaces.lei:RULE",
    "lex": "urnld.namespaces.lex:RULE",
    "mpeg": "urnld.namespaces.mpeg:RULE",
    "nbn": "urnld.namespaces.nbn:RULE",
    "nzl": "urnld.namespaces.nzl:RULE",
    "oasis": "urnld.namespaces.oasis:RULE",
    "ogc": "urnld.namespaces.ogc:RULE",
    "oid": "urnld.namespaces.oid:RULE",
    "publicid": "urnld.namespaces.publicid:RULE",
    "uci": "urnld.namespaces.uci:RULE",
    "uuid": "urnld.namespaces.uuid:RULE",
    "xmpp": "urnld.namespaces.xmpp:RULE",
}
