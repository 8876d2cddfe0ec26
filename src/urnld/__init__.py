"""urnld: URNs (RFC 8141) as first-class citizens of linked data.

>>> import urnld
>>> urnld.canonical("URN:ISBN:0-395-36341-1")
'urn:isbn:0395363411'
>>> urnld.equivalent("urn:uuid:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6",
...                  "URN:UUID:f81d4fae-7dec-11d0-a765-00a0c91e6bf6")
True

The core (this module) imports only the standard library. The RDF, JSON-LD, SHACL and Dask
integrations live in :mod:`urnld.rdf`, :mod:`urnld.jsonld`, :mod:`urnld.shacl` and
:mod:`urnld.dask`, imported only when used.
"""

from __future__ import annotations

from ._core import (
    URN,
    ConfigError,
    Mode,
    Params,
    Policy,
    Repair,
    SeverityConfigError,
    SeverityMap,
    URNEncodingError,
    URNValidationError,
    canonical,
    check,
    decode_component,
    decode_nss,
    encode_component,
    encode_nss,
    equivalent,
    find_policy,
    find_urns,
    functionally_equivalent,
    is_valid,
    json_default,
    parse,
    policy_scope,
    repair,
    upgrade_draft_query,
    validate,
)
from .errors import URNConversionError, URNError, URNSyntaxError
from .findings import CODES, CheckOptions, Finding, Severity

__version__ = "0.1.0"

__all__ = [
    "CODES",
    "URN",
    "CheckOptions",
    "ConfigError",
    "Finding",
    "Mode",
    "Params",
    "Policy",
    "Repair",
    "Severity",
    "SeverityConfigError",
    "SeverityMap",
    "URNConversionError",
    "URNEncodingError",
    "URNError",
    "URNSyntaxError",
    "URNValidationError",
    "__version__",
    "canonical",
    "check",
    "decode_component",
    "decode_nss",
    "encode_component",
    "encode_nss",
    "equivalent",
    "find_policy",
    "find_urns",
    "functionally_equivalent",
    "is_valid",
    "json_default",
    "parse",
    "policy_scope",
    "repair",
    "upgrade_draft_query",
    "validate",
]

# Public names report the package as their home (tracebacks, repr of classes, docs).
for _name in ("URN", "URNError", "URNSyntaxError", "URNConversionError", "URNValidationError",
              "URNEncodingError", "Params", "Finding", "Severity", "CheckOptions", "canonical",
              "check", "decode_component", "decode_nss", "encode_component", "encode_nss",
              "equivalent", "find_urns",
              "functionally_equivalent", "is_valid",
              "json_default", "parse", "validate", "SeverityMap", "SeverityConfigError",
              "upgrade_draft_query", "Policy", "ConfigError", "find_policy", "policy_scope"):
    globals()[_name].__module__ = "urnld"
del _name


def __dir__() -> list[str]:
    return __all__
