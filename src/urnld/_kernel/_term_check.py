"""The check side of the term rule: everything ``urnld check`` reports about one spelling.

The canonicalization side (:mod:`urnld._kernel._terms`) asks whether a term is a usable URN;
the check side asks what :func:`urnld.check` finds in it under a validation policy, as plain
strings a pass can cache by the hundred thousand (:class:`TermCheck`, :data:`CheckFields`).
The compiled accelerator answers for the default policy; the Python reference for any other.

>>> check_term("URN:ISBN:0-395-36341-1").codes
('not-canonical',)
>>> check_fields("urn:ab:c", Policy(strict=True))[0]
('nid-reserved',)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, NamedTuple

from .._core import FAST_CONTEXT, Fields, Policy, check_options, check_parsed, fast_check_fields
from .._core import accel as _accel
from .._core import check_text as _check_text
from ..findings import Severity

__all__ = ["CheckFields", "TermCheck", "check_fields", "check_term", "fields_function"]


class TermCheck(NamedTuple):
    """Everything ``urnld check`` reports about one spelling, as plain strings: caches hold
    hundreds of thousands of these, and strings and tuples of strings cost the garbage
    collector nothing (a list of :class:`~urnld.Finding` objects would be traversed on every
    full collection).

    Attributes:
        codes: the codes of :func:`urnld.check`'s findings, each once, in its order (errors
            first).
        error: ``"code: message"`` of the first error-level finding, or None for a valid URN.
        canonical: the canonical form when the spelling parses (RFC 8141), else None.
        nid: the NID in lower case when it parses, else None.
    """

    codes: tuple[str, ...]
    error: str | None
    canonical: str | None
    nid: str | None

    @property
    def valid(self) -> bool:
        """True when no finding is an error (:func:`urnld.check`'s definition)."""
        return self.error is None


#: :class:`TermCheck`'s fields as a plain tuple (what :meth:`TermCache.checked` returns).
CheckFields = Fields

_DEFAULT_POLICY: Final = Policy()


def check_term(text: str, policy: Policy = _DEFAULT_POLICY) -> TermCheck:
    """The check verdict for one spelling under *policy* (uncached). Never raises for a ``str``.

    >>> c = check_term("URN:ISBN:0-395-36341-2")
    >>> c.codes, c.canonical
    (('nss-check-digit', 'not-canonical'), 'urn:isbn:0395363412')
    >>> c.error
    "nss-check-digit: ISBN check digit '2' is wrong"
    >>> check_term("urn:ab:c", Policy(strict=True)).codes
    ('nid-reserved',)
    """
    return TermCheck(*_check_fields(text, policy))


def check_fields(text: str, policy: Policy = _DEFAULT_POLICY) -> CheckFields:
    """:func:`check_term`'s fields as a plain tuple (uncached), for passes that meet each
    spelling once, such as an endpoint's ``GROUP BY`` rows.

    >>> check_fields("URN:ISBN:0-395-36341-1")
    (('not-canonical',), None, 'urn:isbn:0395363411', 'isbn')
    """
    return _check_fields(text, policy)


def fields_function(policy: Policy = _DEFAULT_POLICY) -> Callable[[str], CheckFields]:
    """:func:`check_fields` under *policy* as one callable, for passes that judge hundreds of
    thousands of distinct spellings: under the default policy with the accelerator built, its
    ``check_fields`` called directly (the Python reference where it has no answer), without
    the per-call policy test and wrappers.

    >>> fields_function()("URN:ISBN:0-395-36341-1")
    (('not-canonical',), None, 'urn:isbn:0395363411', 'isbn')
    """
    accelerator = _accel.speedups
    if accelerator is None or not _is_plain(policy):
        return lambda text: _check_fields(text, policy)
    fast, context = accelerator.check_fields, FAST_CONTEXT

    def fields(text: str) -> CheckFields:
        if type(text) is str:
            found: CheckFields | None = fast(text, *context)
            if found is not None:
                return found
        return _check_fields(text, policy, True)

    return fields


def _is_plain(policy: Policy) -> bool:
    """Whether *policy* is the default one, the only one the accelerator's check knows."""
    return policy is _DEFAULT_POLICY or not (policy.strict or policy.profiles or policy.severity)


def _check_fields(text: str, policy: Policy, plain: bool | None = None) -> CheckFields:
    """:func:`check_term`'s fields as a plain tuple: the accelerator's answer when it has one
    (*plain*: the policy is the default one, :func:`_is_plain` when None), else the Python
    reference."""
    text = _check_text(text)  # str subclasses (rdflib terms) as plain str: the fast path's
    if _is_plain(policy) if plain is None else plain:
        fast = fast_check_fields(text)
        if fast is not None:
            return fast
    findings, canonical, nid = check_parsed(
        text, "rfc8141", policy.strict, check_options(policy.strict, policy.profiles)
    )
    if policy.severity:
        findings = policy.severity.apply(findings)
    error = None
    if not findings:
        codes: tuple[str, ...] = ()
    else:
        first = findings[0]  # errors first: check() sorts them so
        if first.severity is Severity.ERROR:
            error = f"{first.code}: {first.message}"
        if len(findings) == 1:
            codes = (first.code,)
        else:
            codes = tuple(dict.fromkeys([f.code for f in findings]))
    return codes, error, canonical, None if nid is None else nid.lower()
