"""``urn:nzl``: New Zealand government, RFC 4350 §2.

Structure: ``<nz-specifier>[:<nz-specifier defined string>]+``: at least two non-empty
``:``-separated segments, UTF-8 percent-encoded, none holding ``/``.

Equivalence (RFC 4350 §2): "exact, but not case-sensitive, string match". The canonical NSS is
lower case, with ``%XX`` escapes kept upper-case (RFC 8141 folds hex case anyway): a macron is
a different word (``M%C4%81ori`` ≠ ``Maori``). The rule is stated for the whole namespace, so it
applies to every ``nzl`` NSS, valid or not.

>>> from urnld import canonical
>>> canonical("URN:NZL:Govt:Registering:Dogs:Registration:1-0")
'urn:nzl:govt:registering:dogs:registration:1-0'
"""

from __future__ import annotations

from collections.abc import Iterator

from .._core import CheckOptions, NamespaceRule, lower_except_pct, native_copy
from ..findings import Finding
from ._util import segment_problem

__all__ = ["RULE", "NZLRule"]


class NZLRule(NamespaceRule):
    """RFC 4350 New Zealand government URNs."""

    nid = "nzl"
    title = "New Zealand Government"
    reference = "RFC 4350 §2"

    @native_copy("lower_except_pct")  # C copy: _speedups/rules.h canonical_lower_except_pct
    def canonical_nss(self, nss: str) -> str:
        return lower_except_pct(nss)

    def check_nss(self, nss: str, options: CheckOptions) -> Iterator[Finding]:
        problem = segment_problem(
            nss,
            min_segments=2,
            slash_from=None,
            what="<nz-specifier>:<nz-specifier defined string>, RFC 4350 §2",
        )
        if problem is not None:
            yield self.finding("nss-invalid", *problem)


RULE = NZLRule()
