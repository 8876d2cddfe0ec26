"""``urn:oasis``: OASIS names, RFC 3121 §2.

Structure (RFC 3121 §2), two branches::

    names:specification:{spec-id}:{type}[:{subtype}]:{doc-id}
    names:tc:{tc-id}:{type}[:{subtype}]:{doc-id}
    names:technical:{doc-type}:{doc-id}:{amendment-id}
    member:{member-id}:{opaque}

Every segment is non-empty and holds no ``/``. The branch keywords are matched as written
(lower case): the namespace compares names exactly. Document types are *not* enumerated: the
RFC's own example ``names:technical:memo:…`` uses ``memo`` although §2 lists ``memorandum``
(**choice**: accept any type). Fewer segments than the templates above is a warning, an error
with ``strict=True`` (the digest's lenient grammar allows it, RFC 3121's templates do not).

Equivalence (RFC 3121 §2): "lexically equivalent if lexically identical"; RFC 8141 still folds
``urn``, the NID and ``%XX`` hex. The canonical NSS is the NSS itself.

>>> from urnld import check, equivalent
>>> check("urn:oasis:names:tc:SAML:2.0:assertion")
[]
>>> equivalent("urn:oasis:names:tc:docbook:dtd", "urn:oasis:names:tc:DocBook:dtd")
False
>>> check("urn:oasis:other:x")[0].message
"the NSS starts with 'names:' or 'member:', not 'other' (RFC 3121 §2)"
"""

from __future__ import annotations

from collections.abc import Iterator

from .._core import CheckOptions, NamespaceRule, native_copy
from ..findings import Finding, Severity
from ._util import segment_problem, segments, visible_span

__all__ = ["RULE", "OASISRule"]

# branch -> (segments after the branch keyword(s) the RFC template needs, its shape)
_BRANCHES: dict[str, tuple[int, str]] = {
    "names:specification": (3, "names:specification:{spec-id}:{type}[:{subtype}]:{doc-id}"),
    "names:tc": (3, "names:tc:{tc-id}:{type}[:{subtype}]:{doc-id}"),
    "names:technical": (3, "names:technical:{doc-type}:{doc-id}:{amendment-id}"),
    "member": (2, "member:{member-id}:{opaque}"),
}
#: The wording of a branch with too few segments: a str.format template, which the compiled
#: accelerator formats too (scripts/gen_speedups.py copies it into the C).
MSG_TOO_FEW = "{} segment(s) after '{}', the template has at least {}: {} (RFC 3121 §2)"


class OASISRule(NamespaceRule):
    """RFC 3121 OASIS URNs."""

    nid = "oasis"
    title = "Organization for the Advancement of Structured Information Standards"
    reference = "RFC 3121 §2"

    @native_copy("oasis")  # with the default options: _speedups/rules_check.h check_oasis
    def check_nss(self, nss: str, options: CheckOptions) -> Iterator[Finding]:
        spans = segments(nss)
        first = nss[spans[0][0] : spans[0][1]]
        if first == "names":
            if len(spans) < 2:
                yield self.finding(
                    "nss-invalid",
                    "'names' is followed by ':specification', ':tc' or ':technical' "
                    "(RFC 3121 §2)",
                    0,
                    len(nss),
                )
                return
            second = nss[spans[1][0] : spans[1][1]]
            branch = f"names:{second}"
            if branch not in _BRANCHES:
                yield self.finding(
                    "nss-invalid",
                    f"'names:' is followed by 'specification', 'tc' or 'technical', "
                    f"not {second!r} (RFC 3121 §2)",
                    *visible_span(*spans[1], len(nss)),
                )
                return
            used = 2
        elif first == "member":
            branch, used = "member", 1
        else:
            yield self.finding(
                "nss-invalid",
                f"the NSS starts with 'names:' or 'member:', not {first!r} (RFC 3121 §2)",
                *visible_span(*spans[0], len(nss)),
            )
            return
        need, shape = _BRANCHES[branch]
        problem = segment_problem(
            nss, min_segments=used + 1, slash_from=None, what=f"{shape}, RFC 3121 §2"
        )
        if problem is not None:
            yield self.finding("nss-invalid", *problem)
            return
        if len(spans) - used < need:
            yield self.finding(
                "nss-invalid",
                MSG_TOO_FEW.format(len(spans) - used, branch, need, shape),
                0,
                len(nss),
                Severity.ERROR if options.strict else Severity.WARNING,
            )


RULE = OASISRule()
