"""The RFC 3986 §6 normalization ladder for IRIs that are not URNs (opt-in).

``canonicalize(…, iris="rfc3986")`` merges spellings of one non-URN IRI that every RFC 3986
processor must treat as the same resource: case of the scheme and host, case of percent-escapes,
percent-escaped unreserved characters (§6.2.2), dot segments, and the scheme-based steps for
``http``, ``https``, ``ws``, ``wss`` and ``ftp`` (default port, empty path, §6.2.3). The generic
part is python-hyper's ``rfc3986`` (its ``normalize()``); the two steps it leaves out are here.

Never applied to URNs: RFC 8141 §4.2 makes them opaque to generic processors, and urnld's own
rule (NID- and namespace-aware) canonicalizes them. IRIs with characters outside ASCII are left
as written (``rfc3986`` parses URIs; RFC 3987 IRI normalization is not attempted).

>>> normalize_iri("HTTP://Example.ORG:80/a/./b/../c%7e")
'http://example.org/a/c~'
>>> normalize_iri("https://Example.org"), normalize_iri("URN:ISBN:0-395-36341-1")
('https://example.org/', 'URN:ISBN:0-395-36341-1')
"""

from __future__ import annotations

import re
from functools import lru_cache

__all__ = ["normalize_iri"]

_DEFAULT_PORTS = {"http": "80", "https": "443", "ws": "80", "wss": "443", "ftp": "21"}
_PCT = re.compile(r"%([0-9A-Fa-f]{2})")
_UNRESERVED = frozenset(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
)


def _decode_unreserved(match: re.Match[str]) -> str:
    char = chr(int(match.group(1), 16))
    return char if char in _UNRESERVED else match.group(0).upper()


@lru_cache(maxsize=1 << 16)
def normalize_iri(text: str) -> str:
    """*text* normalized by RFC 3986 §6.2.2 and §6.2.3, or as written when it is a URN, not
    ASCII, not an absolute URI, or not parseable."""
    if text[:4].lower() == "urn:" or not text.isascii():
        return text
    import rfc3986

    try:
        ref = rfc3986.uri_reference(text)
    except (ValueError, rfc3986.exceptions.RFC3986Exception):
        return text
    if not ref.scheme or ref.scheme.lower() == "urn":
        return text
    normal = ref.normalize()
    scheme = normal.scheme
    if scheme in _DEFAULT_PORTS and normal.authority is not None:
        if normal.port in (_DEFAULT_PORTS[scheme], "") or normal.authority.endswith(":"):
            # the default port, or an empty one ("http://example.com:/", §6.2.3)
            normal = normal.copy_with(authority=normal.authority.rsplit(":", 1)[0])
        if not normal.path:
            normal = normal.copy_with(path="/")
    out = _PCT.sub(_decode_unreserved, normal.unsplit())
    # rfc3986 must have kept the authority: a host it could not parse would otherwise vanish.
    if ("://" in text) != ("://" in out) or (
        (ref.authority or "").lower().split("@")[-1].split(":")[0]
        != (normal.authority or "").split("@")[-1].split(":")[0]
    ):
        return text  # e.g. "file:///a" would lose its empty authority: keep it as written
    return out
