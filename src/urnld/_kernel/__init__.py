"""The linked-data kernel: what every RDF path shares, below the integrations.

The term rule (which terms are URNs, their canonical form and verdict: ``_terms``; its check
side, what ``urnld check`` reports: ``_term_check``; its opt-in spelling modes, repairs and
locators: ``_spellings``), the statements the canonicalization modes add (``_links``), URN
bases (``_bases``), deterministic blank-node labels (``_blanks``), the file layer (inputs,
``.gz``, outputs renamed into place: ``_files``), the garbage collector paused for a pass
(``_collector``),
the one table of RDF syntaxes (``_formats``), the rule that picks the engine for a job
(``_route``), the canonicalization options as one value (``_options``) and the reading
options as another (``_reading``), the reports
(``_report*``, public as :mod:`urnld.report`), what the ``urnfn:`` SPARQL functions compute
(``_urnfn``, for rdflib and pyoxigraph alike) and the rewriting of a SPARQL query's URN
constants (``_query``). Standard library and the URN core only: no rdflib, no pyld. Private to
urnld; the integrations import from this face, never from its modules.

>>> from urnld._kernel import TermRule
>>> TermRule().verdict("URN:ISBN:0-395-36341-1").canonical
'urn:isbn:0395363411'
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ._bases import (
        BASE_CODE,
        HAZARD_KINDS,
        MAX_XML_DEPTH,
        RDFLIB_OUTCOME,
        base_message,
        is_hazard,
        is_urn,
        reference_kind,
        resolve,
        turtle_base_hazards,
        turtle_position,
        turtle_references,
        xml_base_hazards,
    )
    from ._blanks import BlankLabels, invented, relabel_chunks, relabel_nquads
    from ._collector import collector_paused
    from ._files import (
        atomic_output,
        defer_to_run,
        open_input,
        open_regular,
        output_transaction,
        outside_transaction,
        owner_gone,
        owner_tag,
        read_regular,
        sweep_temporary,
    )
    from ._formats import (
        FORMATS,
        LINE_FORMATS,
        QUAD_FORMATS,
        SYNTAXES,
        Syntax,
        get_syntax,
        output_syntax,
        syntax_for_path,
        writable_output,
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
    from ._reading import DEFAULT_READING, HAZARD_MODES, HazardMode, ReadingOptions
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
    from ._spellings import (
        NO_SPELLINGS,
        SpellingOptions,
        repair_prefixes,
        spelling_options,
        without_repair_nids,
    )
    from ._spill import handoff_runs, set_spill_directory, spill_directory, spill_settings
    from ._term_check import CheckFields, check_fields, check_term, fields_function
    from ._terms import (
        POLICY_OK_NIDS,
        SPELLING,
        URN_LITERAL_DATATYPES,
        TermCache,
        TermRule,
        TermVerdict,
        is_rdflib_internal,
        is_urn_like,
        repair_code,
        repair_counts,
    )
    from ._urnfn import FUNCTIONS as URNFN_FUNCTIONS
    from ._urnfn import NAMESPACE as URNFN_NAMESPACE
    from ._urnfn import Arg as UrnfnArg
    from ._urnfn import Function as UrnfnFunction
    from ._urnfn import FunctionError
    from ._urnfn import Result as UrnfnResult

# Each name is imported from its module on first use (PEP 562), so a path that needs the term
# rule does not pay for the reports, the SPARQL functions and the syntax table at start-up.
_HOME: dict[str, tuple[str, str]] = {
    "BASE_CODE": ("_bases", "BASE_CODE"),
    "HAZARD_KINDS": ("_bases", "HAZARD_KINDS"),
    "MAX_XML_DEPTH": ("_bases", "MAX_XML_DEPTH"),
    "RDFLIB_OUTCOME": ("_bases", "RDFLIB_OUTCOME"),
    "base_message": ("_bases", "base_message"),
    "is_hazard": ("_bases", "is_hazard"),
    "is_urn": ("_bases", "is_urn"),
    "reference_kind": ("_bases", "reference_kind"),
    "resolve": ("_bases", "resolve"),
    "turtle_position": ("_bases", "turtle_position"),
    "turtle_base_hazards": ("_bases", "turtle_base_hazards"),
    "turtle_references": ("_bases", "turtle_references"),
    "xml_base_hazards": ("_bases", "xml_base_hazards"),
    "BlankLabels": ("_blanks", "BlankLabels"),
    "relabel_chunks": ("_blanks", "relabel_chunks"),
    "invented": ("_blanks", "invented"),
    "relabel_nquads": ("_blanks", "relabel_nquads"),
    "collector_paused": ("_collector", "collector_paused"),
    "atomic_output": ("_files", "atomic_output"),
    "defer_to_run": ("_files", "defer_to_run"),
    "open_input": ("_files", "open_input"),
    "output_transaction": ("_files", "output_transaction"),
    "outside_transaction": ("_files", "outside_transaction"),
    "open_regular": ("_files", "open_regular"),
    "read_regular": ("_files", "read_regular"),
    "owner_gone": ("_files", "owner_gone"),
    "owner_tag": ("_files", "owner_tag"),
    "sweep_temporary": ("_files", "sweep_temporary"),
    "FORMATS": ("_formats", "FORMATS"),
    "LINE_FORMATS": ("_formats", "LINE_FORMATS"),
    "QUAD_FORMATS": ("_formats", "QUAD_FORMATS"),
    "SYNTAXES": ("_formats", "SYNTAXES"),
    "Syntax": ("_formats", "Syntax"),
    "get_syntax": ("_formats", "get_syntax"),
    "output_syntax": ("_formats", "output_syntax"),
    "syntax_for_path": ("_formats", "syntax_for_path"),
    "writable_output": ("_formats", "writable_output"),
    "Extra": ("_links", "Extra"),
    "LinkOptions": ("_links", "LinkOptions"),
    "extra_statements": ("_links", "extra_statements"),
    "extras_of_report": ("_links", "extras_of_report"),
    "ntriples": ("_links", "ntriples"),
    "record_extras": ("_links", "record_extras"),
    "report_extras": ("_links", "report_extras"),
    "DEFAULT_OPTIONS": ("_options", "DEFAULT_OPTIONS"),
    "CanonOptions": ("_options", "CanonOptions"),
    "resolve_options": ("_options", "resolve_options"),
    "canonical_query": ("_query", "canonical_query"),
    "DEFAULT_READING": ("_reading", "DEFAULT_READING"),
    "HAZARD_MODES": ("_reading", "HAZARD_MODES"),
    "HazardMode": ("_reading", "HazardMode"),
    "ReadingOptions": ("_reading", "ReadingOptions"),
    "DEFAULT_MAX_EXAMPLES": ("_report", "DEFAULT_MAX_EXAMPLES"),
    "DEFAULT_MEMORY_BUDGET": ("_report", "DEFAULT_MEMORY_BUDGET"),
    "ClusterStats": ("_report", "ClusterStats"),
    "LineError": ("_report", "LineError"),
    "cluster_stats": ("_report", "cluster_stats"),
    "default_memory_budget": ("_report", "default_memory_budget"),
    "set_default_memory_budget": ("_report", "set_default_memory_budget"),
    "CanonicalizeReport": ("_report_canon", "CanonicalizeReport"),
    "CheckReport": ("_report_check", "CheckReport"),
    "Engine": ("_route", "Engine"),
    "Route": ("_route", "Route"),
    "canonicalize_route": ("_route", "canonicalize_route"),
    "check_route": ("_route", "check_route"),
    "handoff_runs": ("_spill", "handoff_runs"),
    "set_spill_directory": ("_spill", "set_spill_directory"),
    "spill_directory": ("_spill", "spill_directory"),
    "spill_settings": ("_spill", "spill_settings"),
    "NO_SPELLINGS": ("_spellings", "NO_SPELLINGS"),
    "POLICY_OK_NIDS": ("_terms", "POLICY_OK_NIDS"),
    "SPELLING": ("_terms", "SPELLING"),
    "URN_LITERAL_DATATYPES": ("_terms", "URN_LITERAL_DATATYPES"),
    "CheckFields": ("_term_check", "CheckFields"),
    "SpellingOptions": ("_spellings", "SpellingOptions"),
    "TermCache": ("_terms", "TermCache"),
    "TermRule": ("_terms", "TermRule"),
    "TermVerdict": ("_terms", "TermVerdict"),
    "check_fields": ("_term_check", "check_fields"),
    "fields_function": ("_term_check", "fields_function"),
    "check_term": ("_term_check", "check_term"),
    "is_rdflib_internal": ("_terms", "is_rdflib_internal"),
    "is_urn_like": ("_terms", "is_urn_like"),
    "repair_code": ("_terms", "repair_code"),
    "repair_counts": ("_terms", "repair_counts"),
    "repair_prefixes": ("_spellings", "repair_prefixes"),
    "spelling_options": ("_spellings", "spelling_options"),
    "without_repair_nids": ("_spellings", "without_repair_nids"),
    "URNFN_FUNCTIONS": ("_urnfn", "FUNCTIONS"),
    "URNFN_NAMESPACE": ("_urnfn", "NAMESPACE"),
    "UrnfnArg": ("_urnfn", "Arg"),
    "UrnfnFunction": ("_urnfn", "Function"),
    "FunctionError": ("_urnfn", "FunctionError"),
    "UrnfnResult": ("_urnfn", "Result"),
}


def __getattr__(name: str) -> Any:
    """The exported *name*, imported from its module the first time it is asked for."""
    try:
        module, attr = _HOME[name]
    except KeyError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
    value = getattr(import_module(f".{module}", __name__), attr)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)

__all__ = [
    "BASE_CODE",
    "DEFAULT_MAX_EXAMPLES",
    "DEFAULT_MEMORY_BUDGET",
    "DEFAULT_OPTIONS",
    "DEFAULT_READING",
    "FORMATS",
    "HAZARD_KINDS",
    "HAZARD_MODES",
    "LINE_FORMATS",
    "MAX_XML_DEPTH",
    "NO_SPELLINGS",
    "POLICY_OK_NIDS",
    "QUAD_FORMATS",
    "RDFLIB_OUTCOME",
    "SPELLING",
    "SYNTAXES",
    "URNFN_FUNCTIONS",
    "URNFN_NAMESPACE",
    "URN_LITERAL_DATATYPES",
    "BlankLabels",
    "CanonOptions",
    "CanonicalizeReport",
    "CheckFields",
    "CheckReport",
    "ClusterStats",
    "Engine",
    "Extra",
    "FunctionError",
    "HazardMode",
    "LineError",
    "LinkOptions",
    "ReadingOptions",
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
    "collector_paused",
    "default_memory_budget",
    "defer_to_run",
    "extra_statements",
    "extras_of_report",
    "fields_function",
    "get_syntax",
    "handoff_runs",
    "invented",
    "is_hazard",
    "is_rdflib_internal",
    "is_urn",
    "is_urn_like",
    "ntriples",
    "open_input",
    "open_regular",
    "output_syntax",
    "output_transaction",
    "outside_transaction",
    "owner_gone",
    "owner_tag",
    "read_regular",
    "record_extras",
    "reference_kind",
    "relabel_chunks",
    "relabel_nquads",
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
    "turtle_base_hazards",
    "turtle_position",
    "turtle_references",
    "without_repair_nids",
    "writable_output",
    "xml_base_hazards",
]
