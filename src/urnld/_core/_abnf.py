"""RFC 8141 and RFC 2141 grammar as unanchored regular-expression pieces.

Each piece is named after its ABNF rule and cites where it comes from; the anchored matchers are
compiled in :mod:`urnld._core._parser`. Character sets are written once, as strings, and both the
regexes and the diagnostic scanner are derived from them, so the two cannot drift apart.

Repetitions are possessive (``*+``, ``++``, Python ≥ 3.11): the grammar is unambiguous, so
backtracking could only waste time, and without it a 1 MB adversarial string fails in linear
time.
"""

from __future__ import annotations

import string

# RFC 3986 §2.3: unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~"
UNRESERVED_CHARS = string.ascii_letters + string.digits + "-._~"
# RFC 3986 §2.2: sub-delims = "!" / "$" / "&" / "'" / "(" / ")" / "*" / "+" / "," / ";" / "="
SUB_DELIMS_CHARS = "!$&'()*+,;="
# RFC 3986 §3.3: pchar = unreserved / pct-encoded / sub-delims / ":" / "@"  (less pct-encoded)
PCHAR_CHARS = UNRESERVED_CHARS + SUB_DELIMS_CHARS + ":@"
HEX_CHARS = string.hexdigits
ALPHANUM_CHARS = string.ascii_letters + string.digits

# RFC 2141 §2.2: <other> = "(" | ")" | "+" | "," | "-" | "." | ":" | "=" | "@" | ";" | "$" |
#                          "_" | "!" | "*" | "'"
RFC2141_TRANS_CHARS = ALPHANUM_CHARS + "()+,-.:=@;$_!*'"
# RFC 2141 §2.3.2: "/", "?" and "#" are reserved: allowed, but SHOULD NOT appear unencoded.
RFC2141_RESERVED_CHARS = "/?#"


def _cls(chars: str) -> str:
    """A regex character class matching exactly *chars*."""
    return "[" + "".join("\\" + c if c in "\\]^-[" else c for c in chars) + "]"


PCT_ENCODED = r"%[0-9A-Fa-f]{2}"  # RFC 3986 §2.1
PCHAR = _cls(PCHAR_CHARS)
PCHAR_SLASH = _cls(PCHAR_CHARS + "/")
PCHAR_SLASH_QUERY = _cls(PCHAR_CHARS + "/?")

# RFC 8141 §2: NID = (alphanum) 0*30(ldh) (alphanum)
NID = r"[A-Za-z0-9][A-Za-z0-9\-]{0,30}[A-Za-z0-9]"
# The repeats below are written "unrolled" (normal* (special normal*)*): a run of plain
# characters is consumed in one step and an escape never first tries (and fails) the run branch,
# which makes escape-heavy names ~15% faster to match than (run|escape)*.
# RFC 8141 §2: NSS = pchar *(pchar / "/")
NSS = rf"(?:{PCHAR}|{PCT_ENCODED}){PCHAR_SLASH}*+(?:{PCT_ENCODED}{PCHAR_SLASH}*+)*+"
# RFC 8141 §2: r-component = pchar *( pchar / "/" / "?" ), ending (§2.3.1 prose) at "?=" or "#"
R_COMPONENT = (
    rf"(?:{PCHAR}|{PCT_ENCODED}){PCHAR_SLASH}*+(?:(?:{PCT_ENCODED}|\?(?!=)){PCHAR_SLASH}*+)*+"
)
# RFC 3986 §3.5: fragment = *( pchar / "/" / "?" )
F_COMPONENT = rf"{PCHAR_SLASH_QUERY}*+(?:{PCT_ENCODED}{PCHAR_SLASH_QUERY}*+)*+"
# RFC 8141 §2: q-component = pchar *( pchar / "/" / "?" ), ending at "#"
Q_COMPONENT = rf"(?:{PCHAR}|{PCT_ENCODED}){F_COMPONENT}"

# RFC 8141 §2: namestring = assigned-name [ rq-components ] [ "#" f-component ]
#   groups: 1 NID, 2 NSS, 3 r-component, 4 q-component, 5 f-component
NAMESTRING = (
    rf"(?i:urn):({NID}):({NSS})"
    rf"(?:\?\+({R_COMPONENT}))?"
    rf"(?:\?=({Q_COMPONENT}))?"
    rf"(?:#({F_COMPONENT}))?"
)

# RFC 2141 §2: <URN> ::= "urn:" <NID> ":" <NSS>;  <NID> ::= <let-num> [ 1,31<let-num-hyp> ]
RFC2141_NID = r"[A-Za-z0-9][A-Za-z0-9\-]{0,31}"
# RFC 2141 §2.4: "the octet 0 (0 hex) should NEVER be used, in either unencoded or %-encoded form"
RFC2141_PCT_ENCODED = r"%(?!00)[0-9A-Fa-f]{2}"
RFC2141_NSS = rf"(?:{_cls(RFC2141_TRANS_CHARS + RFC2141_RESERVED_CHARS)}++|{RFC2141_PCT_ENCODED})++"
RFC2141_NAMESTRING = rf"(?i:urn):({RFC2141_NID}):({RFC2141_NSS})"
