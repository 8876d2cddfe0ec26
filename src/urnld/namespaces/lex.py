"""``urn:lex``: sources of law, RFC 9676 (2025).

Structure (RFC 9676 §2.1)::

    NSS          = jurisdiction ":" local-name
    jurisdiction = jurisdiction-code *( ";" jurisdiction-unit )
    local-name   = authority ":" measure ":" details [ annex ]
                   ; FRBR levels: "@" expression, "$" manifestation

Checked here (leniently, as NAMESPACES.md §3.14 advises; §8's full ABNF was not read): the
jurisdiction is letters, digits, ``.`` and ``-`` joined by ``;``; at least one non-empty
``:``-separated part follows; ``/`` is not allowed (§3.2: write ``-``). Fewer than the three
parts authority, measure and details is a warning, an error with ``strict=True``.

Equivalence (RFC 9676 §3.3): case-insensitive, so the canonical NSS is lower case with ``%XX``
kept upper-case, for every ``lex`` NSS. Earlier drafts said the opposite ("case-sensitive");
**choice**: the published RFC wins (NAMESPACES.md §6). "Spelling variants are equivalent"
(§3.3) cannot be decided lexically and is not implemented.

>>> from urnld import canonical, check
>>> canonical("URN:LEX:EU:Commission:Directive:2010-03-09;2010-19-EU")
'urn:lex:eu:commission:directive:2010-03-09;2010-19-eu'
>>> check("urn:lex:it:ministero.salute:decreto:2010-01-01/1")[0].message
"'/' at NSS position 38 is not allowed in a LEX name; write '-' (RFC 9676 §3.2)"
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from .._core import CheckOptions, NamespaceRule, lower_except_pct, native_copy
from ..findings import Finding, Severity
from ._util import segments, visible_span
from .views import LexName

__all__ = ["RULE", "LexRule"]

_JURISDICTION = re.compile(r"[A-Za-z0-9.\-]+(?:;[A-Za-z0-9.\-]+)*")


class LexRule(NamespaceRule):
    """RFC 9676 LEX URNs."""

    nid = "lex"
    title = "Sources of law (LEX)"
    reference = "RFC 9676 §2-3"

    @native_copy("lower_except_pct")  # C copy: _speedups/rules.h canonical_lower_except_pct
    def canonical_nss(self, nss: str) -> str:
        return lower_except_pct(nss)

    def typed_nss(self, nss: str) -> LexName:
        return LexName.parse(nss)

    def check_nss(self, nss: str, options: CheckOptions) -> Iterator[Finding]:
        slash = nss.find("/")
        if slash >= 0:
            yield self.finding(
                "nss-invalid",
                f"'/' at NSS position {slash} is not allowed in a LEX name; write '-' "
                "(RFC 9676 §3.2)",
                slash,
                slash + 1,
            )
            return
        spans = segments(nss)
        start, end = spans[0]
        if not _JURISDICTION.fullmatch(nss, start, end):
            yield self.finding(
                "nss-invalid",
                f"jurisdiction {nss[start:end]!r} must be letters, digits, '.' and '-', units "
                "joined by ';' (RFC 9676 §2.1)",
                *visible_span(start, end, len(nss)),
            )
            return
        if len(spans) == 1:
            yield self.finding(
                "nss-invalid",
                "a LEX name is jurisdiction ':' local-name; there is no local name "
                "(RFC 9676 §2.1)",
                0,
                len(nss),
            )
            return
        for s, e in spans[1:]:
            if s == e:
                yield self.finding(
                    "nss-invalid",
                    f"empty part at NSS position {s} (RFC 9676 §2.1)",
                    *visible_span(s, e, len(nss)),
                )
                return
        if len(spans) < 4:
            yield self.finding(
                "nss-invalid",
                f"the local name has {len(spans) - 1} part(s); RFC 9676 §2.1 has authority, "
                "measure and details",
                spans[1][0],
                len(nss),
                Severity.ERROR if options.strict else Severity.WARNING,
            )


RULE = LexRule()
