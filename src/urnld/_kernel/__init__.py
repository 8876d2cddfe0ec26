"""The linked-data kernel: what every RDF path shares, below the integrations.

The term rule (which terms are URNs, their canonical form and verdict: ``_terms``), the
statements the canonicalization modes add (``_links``), URN bases (``_bases``), the file layer
(inputs, ``.gz``, outputs renamed into place: ``_files``) and the reports (``_report*``, public
as :mod:`urnld.report`). Standard library and the URN core only: no rdflib, no pyld. Private to
urnld; the integrations import from this face, never from its modules.

>>> from urnld._kernel import TermRule
>>> TermRule().verdict("URN:ISBN:0-395-36341-1").canonical
'urn:isbn:0395363411'
"""

from __future__ import annotations

from ._bases import (
    BASE_CODE,
    HAZARD_KINDS,
    base_message,
    is_hazard,
    is_urn,
    reference_kind,
    resolve,
)
from ._files import atomic_output, open_input
from ._links import (
    Extra,
    LinkOptions,
    extra_statements,
    extras_of_report,
    ntriples,
    record_extras,
    report_extras,
)
from ._report import DEFAULT_MAX_EXAMPLES, LineError
from ._report_canon import CanonicalizeReport
from ._report_check import CheckReport
from ._terms import (
    POLICY_OK_NIDS,
    SPELLING,
    URN_LITERAL_DATATYPES,
    CheckFields,
    TermCache,
    TermRule,
    TermVerdict,
    check_fields,
    check_term,
    is_rdflib_internal,
    is_urn_like,
)

__all__ = [
    "BASE_CODE",
    "DEFAULT_MAX_EXAMPLES",
    "HAZARD_KINDS",
    "POLICY_OK_NIDS",
    "SPELLING",
    "URN_LITERAL_DATATYPES",
    "CanonicalizeReport",
    "CheckFields",
    "CheckReport",
    "Extra",
    "LineError",
    "LinkOptions",
    "TermCache",
    "TermRule",
    "TermVerdict",
    "atomic_output",
    "base_message",
    "check_fields",
    "check_term",
    "extra_statements",
    "extras_of_report",
    "is_hazard",
    "is_rdflib_internal",
    "is_urn",
    "is_urn_like",
    "ntriples",
    "open_input",
    "record_extras",
    "reference_kind",
    "report_extras",
    "resolve",
]
