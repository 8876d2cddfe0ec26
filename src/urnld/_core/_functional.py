"""Functional equivalence: two URNs naming one resource by a namespace rule's definition.

URN-equivalence (RFC 8141 §3) is lexical; functional equivalence (draft-ietf-urnbis-rfc2141bis-
urn-03 §6) is what a namespace defines beyond it: an ISBN-10 and its ISBN-13, an ISBN and its
ISBN-A DOI. urnld never merges such names; it can tell that they name one thing.
"""

from __future__ import annotations

from ._urn import URN

__all__ = ["functionally_equivalent"]


def functionally_equivalent(a: URN | str, b: URN | str) -> bool:
    """URN-equivalent, or functionally equivalent by a namespace rule (components ignored).

    >>> functionally_equivalent("urn:isbn:0-395-36341-1", "URN:ISBN:978-0-395-36341-6")
    True
    >>> functionally_equivalent("urn:isbn:9788898392315", "urn:doi:10.978.8898392/315")
    True
    >>> functionally_equivalent("urn:isbn:0395363411", "urn:isbn:080442957X")
    False
    """
    ua = a if isinstance(a, URN) else URN(a)
    ub = b if isinstance(b, URN) else URN(b)
    key = ub.assigned_key
    return ua.assigned_key == key or any(
        other.assigned_key == key for other in ua.functional_equivalents()
    )

