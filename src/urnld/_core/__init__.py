"""The URN core: the value type, its parser and check, the validation policy, the encoders,
the namespace-rule registry and the loader of the optional compiled accelerator.

Standard library only. Everything here is private to urnld: the public names are re-exported by
:mod:`urnld`, :mod:`urnld.namespaces`, :mod:`urnld.errors` and :mod:`urnld.findings`; the other
floors of the package (the linked-data kernel, the integrations) import from this face, never
from its modules.

>>> from urnld._core import URN
>>> URN("URN:ISBN:0-395-36341-1").canonical_str
'urn:isbn:0395363411'
"""

from __future__ import annotations

from . import _abnf as abnf
from . import _accel as accel
from ._builtin import BUILTIN
from ._check import (
    FAST_CONTEXT,
    Fields,
    URNValidationError,
    check,
    check_described,
    check_options,
    check_parsed,
    fast_check_fields,
    fast_findings,
    nid_findings,
    nid_policy_error,
    validate,
)
from ._config import (
    ConfigError,
    Policy,
    active_policy,
    find_policy,
    find_project_file,
    load_policy,
    policy_scope,
)
from ._encode import URNEncodingError, decode_component, decode_nss, encode_component, encode_nss
from ._extract import find_urns
from ._functional import functionally_equivalent
from ._json import json_default
from ._legacy import legacy_escaped, upgrade_draft_query
from ._normalizers import is_urn_like
from ._params import Params
from ._parser import RFC2141_RE, RFC8141_RE, Mode, syntax_error
from ._regular import open_regular, read_regular
from ._repair import Repair, repair
from ._rule import (
    GENERIC,
    CheckOptions,
    NamespaceRule,
    lower_except_pct,
    native_copy,
    upper_except_pct,
    upper_pct,
)
from ._rules import (
    ENTRY_POINT_GROUP,
    PREFIXES,
    NamespacePluginError,
    get_rule,
    known_nids,
    known_profiles,
    on_register,
    prefix_entry,
    register,
)
from ._schema import RFC8141_PATTERN, json_schema, urn_schema
from ._severity import LEVELS, SeverityConfigError, SeverityMap
from ._urn import (
    URN,
    canonical,
    canonical_of_match,
    equivalent,
    is_valid,
    normalized_text,
    parse,
)
from ._urn import _check_text as check_text

__all__ = [
    "BUILTIN",
    "ENTRY_POINT_GROUP",
    "FAST_CONTEXT",
    "GENERIC",
    "LEVELS",
    "PREFIXES",
    "RFC2141_RE",
    "RFC8141_PATTERN",
    "RFC8141_RE",
    "URN",
    "CheckOptions",
    "ConfigError",
    "Fields",
    "Mode",
    "NamespacePluginError",
    "NamespaceRule",
    "Params",
    "Policy",
    "Repair",
    "SeverityConfigError",
    "SeverityMap",
    "URNEncodingError",
    "URNValidationError",
    "abnf",
    "accel",
    "active_policy",
    "canonical",
    "canonical_of_match",
    "check",
    "check_described",
    "check_options",
    "check_parsed",
    "check_text",
    "decode_component",
    "decode_nss",
    "encode_component",
    "encode_nss",
    "equivalent",
    "fast_check_fields",
    "fast_findings",
    "find_policy",
    "find_project_file",
    "find_urns",
    "functionally_equivalent",
    "get_rule",
    "is_urn_like",
    "is_valid",
    "json_default",
    "json_schema",
    "known_nids",
    "known_profiles",
    "legacy_escaped",
    "load_policy",
    "lower_except_pct",
    "native_copy",
    "nid_findings",
    "nid_policy_error",
    "normalized_text",
    "on_register",
    "open_regular",
    "parse",
    "policy_scope",
    "prefix_entry",
    "read_regular",
    "register",
    "repair",
    "syntax_error",
    "upgrade_draft_query",
    "upper_except_pct",
    "upper_pct",
    "urn_schema",
    "validate",
]
