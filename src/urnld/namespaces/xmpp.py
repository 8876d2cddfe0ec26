"""``urn:xmpp``: XMPP protocol namespaces, RFC 4854 §2.

Structure: ``{ShortName}[:{SubName}]``, US-ASCII, with deeper sub-trees assigned by the XMPP
Registrar; ``http://jabber.org/protocol/{ShortName}#{SubName}`` maps to
``urn:xmpp:{ShortName}:{SubName}``. Here: one or more non-empty ``:``-separated names
without ``/``.

Equivalence: "no special considerations" beyond RFC 8141, so the NSS is case-sensitive and the
canonical NSS is the NSS itself.

>>> from urnld import equivalent
>>> equivalent("urn:xmpp:disco:info", "URN:XMPP:disco:info")
True
>>> equivalent("urn:xmpp:disco:info", "urn:xmpp:disco:INFO")
False
"""

from __future__ import annotations

from collections.abc import Iterator

from .._core import CheckOptions, NamespaceRule
from ..findings import Finding
from ._util import segment_problem

__all__ = ["RULE", "XMPPRule"]


class XMPPRule(NamespaceRule):
    """RFC 4854 XMPP URNs."""

    nid = "xmpp"
    title = "XMPP protocol namespaces"
    reference = "RFC 4854 §2"

    def check_nss(self, nss: str, options: CheckOptions) -> Iterator[Finding]:
        problem = segment_problem(
            nss, min_segments=1, slash_from=None, what="{ShortName}[:{SubName}], RFC 4854 §2"
        )
        if problem is not None:
            yield self.finding("nss-invalid", *problem)


RULE = XMPPRule()
