"""Repairs as the core sees them: the :class:`Repair` value and the call that asks the NID's
namespace rule for one (:meth:`urnld.namespaces.NamespaceRule.repair`).

The rules themselves, each with its code, source and tests, are namespace-specific and live
with the namespaces (``urnld.namespaces.REPAIRS``); the core only dispatches, as it does for
checks and canonical forms.

>>> r = repair("urn:uuid:F81D4FAE7DEC11D0A76500A0C91E6BF6")
>>> r.code, r.repaired
('uuid-hyphens', 'urn:uuid:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6')
"""

from __future__ import annotations

import dataclasses
import re
from typing import Final

from ._rule import NamespaceRule
from ._rules import get_rule

__all__ = ["Repair", "repair"]

_PREFIX: Final = re.compile(r"urn:([A-Za-z0-9][A-Za-z0-9-]{0,31}):", re.IGNORECASE)


@dataclasses.dataclass(frozen=True, slots=True)
class Repair:
    """One repair: what was written, the URN it gives, and the rule that allows it.

    Attributes:
        code: the rule's stable code (``urnld.namespaces.REPAIRS``).
        original: the text as written.
        repaired: the URN the rule gives (valid; not necessarily canonical: canonicalization
            comes after, as for any URN).
        source: the document that makes the rewrite safe.
    """

    code: str
    original: str
    repaired: str
    source: str


def repair(text: str) -> Repair | None:
    """The repair that turns *text* into a valid URN, or None when no documented rule does.

    *text* may be outside URN syntax (``{`` and ``}`` are not URN characters). The rules are
    the NID's namespace rule's (``urnld.namespaces.REPAIRS`` lists urnld's own); a string that
    is already a valid URN is not repaired, and a near miss that no rule reads with certainty
    (a UUID with a digit missing) gets None.

    >>> repair("urn:uuid:{f81d4fae-7dec-11d0-a765-00a0c91e6bf6}").repaired
    'urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6'
    >>> repair("urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf") is None
    True
    """
    if not isinstance(text, str):
        raise TypeError(f"repair() takes a str, not {type(text).__name__}")
    m = _PREFIX.match(text)
    if m is None:
        return None
    rule = get_rule(m[1])
    if type(rule).repair is NamespaceRule.repair:
        return None
    found = rule.repair(text)
    if found is None:
        return None
    code, repaired, source = found
    return Repair(code, text, repaired, source)
