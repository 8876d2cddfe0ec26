"""The linked-data kernel: what every RDF path shares, below the integrations.

The term rule (which terms are URNs, their canonical form and verdict: ``_terms``), the
statements the canonicalization modes add (``_links``), URN bases (``_bases``), the file layer
(inputs, ``.gz``, outputs renamed into place: ``_files``), the one table of RDF syntaxes
(``_formats``), the rule that picks the engine for a job (``_route``), the canonicalization
options as one value (``_options``), the reports (``_report*``, public as
:mod:`urnld.report`), what the ``urnfn:`` SPARQL functions compute (``_urnfn``, for rdflib and
pyoxigraph alike) and the rewriting of a SPARQL query's URN constants (``_query``). Standard
library and the URN core only: no rdflib, no pyld. Private to urnld; the integrations import
from this face, never from its modules.

>>> from urnld._kernel import TermRule
>>> TermRule().verdict("URN:ISBN:0-395-36341-1").canonical
'urn:isbn:0395363411'
"""

from __future__ import annotations

from ._bases import (
    BASE_CODE,
    HAZARD_KINDS,
    RDFLIB_OUTCOME,
    base_message,
    is_hazard,
    is_urn,
    reference_kind,
    resolve,
    turtle_position,
    turtle_references,
)
from ._files import atomic_output, open_input, owner_gone, owner_tag, sweep_temporary
from ._formats import (
    FORMATS,
    LINE_FORMATS,
    QUAD_FORMATS,
    SYNTAXES,
    Syntax,
    get_syntax,
    output_syntax,
    syntax_for_path,
)
from ._links import (
    Extra,
    LinkOptions,
    extra_statements,
    extras_of_report,
    ntriples,
    record_extras,
    report_extras,
)
from ._options import DEFAULT_OPTIONS, CanonOptions, resolve_options
from ._query import canonical_query
from ._report import (
    DEFAULT_MAX_EXAMPLES,
    DEFAULT_MEMORY_BUDGET,
    ClusterStats,
    LineError,
    cluster_stats,
    default_memory_budget,
    set_default_memory_budget,
)
from ._report_canon import CanonicalizeReport
from ._report_check import CheckReport
from ._route import Engine, Route, canonicalize_route, check_route
from ._spill import handoff_runs, set_spill_directory, spill_directory, spill_settings
from ._terms import (
    NO_SPELLINGS,
    POLICY_OK_NIDS,
    SPELLING,
    URN_LITERAL_DATATYPES,
    CheckFields,
    SpellingOptions,
    TermCache,
    TermRule,
    TermVerdict,
    check_fields,
    check_term,
    is_rdflib_internal,
    is_urn_like,
    repair_code,
    repair_counts,
    repair_prefixes,
    spelling_options,
    without_repair_nids,
)
from ._urnfn import FUNCTIONS as URNFN_FUNCTIONS
from ._urnfn import NAMESPACE as URNFN_NAMESPACE
from ._urnfn import Arg as UrnfnArg
from ._urnfn import Function as UrnfnFunction
from ._urnfn import FunctionError
from ._urnfn import Result as UrnfnResult

__all__ = [
    "BASE_CODE",
    "DEFAULT_MAX_EXAMPLES",
    "DEFAULT_MEMORY_BUDGET",
    "DEFAULT_OPTIONS",
    "FORMATS",
    "HAZARD_KINDS",
    "LINE_FORMATS",
    "NO_SPELLINGS",
    "POLICY_OK_NIDS",
    "QUAD_FORMATS",
    "RDFLIB_OUTCOME",
    "SPELLING",
    "SYNTAXES",
    "URNFN_FUNCTIONS",
    "URNFN_NAMESPACE",
    "URN_LITERAL_DATATYPES",
    "CanonOptions",
    "CanonicalizeReport",
    "CheckFields",
    "CheckReport",
    "ClusterStats",
    "Engine",
    "Extra",
    "FunctionError",
    "LineError",
    "LinkOptions",
    "Route",
    "SpellingOptions",
    "Syntax",
    "TermCache",
    "TermRule",
    "TermVerdict",
    "UrnfnArg",
    "UrnfnFunction",
    "UrnfnResult",
    "atomic_output",
    "base_message",
    "canonical_query",
    "canonicalize_route",
    "check_fields",
    "check_route",
    "check_term",
    "cluster_stats",
    "default_memory_budget",
    "extra_statements",
    "extras_of_report",
    "get_syntax",
    "handoff_runs",
    "is_hazard",
    "is_rdflib_internal",
    "is_urn",
    "is_urn_like",
    "ntriples",
    "open_input",
    "output_syntax",
    "owner_gone",
    "owner_tag",
    "record_extras",
    "reference_kind",
    "repair_code",
    "repair_counts",
    "repair_prefixes",
    "report_extras",
    "resolve",
    "resolve_options",
    "set_default_memory_budget",
    "set_spill_directory",
    "spelling_options",
    "spill_directory",
    "spill_settings",
    "sweep_temporary",
    "syntax_for_path",
    "turtle_position",
    "turtle_references",
    "without_repair_nids",
]
