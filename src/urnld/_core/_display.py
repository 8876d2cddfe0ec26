"""A human-readable rendering of URNs: decode UTF-8 escapes of visible non-ASCII characters."""

from __future__ import annotations

import re
import unicodedata

# Runs of escapes of octets >= 0x80: only these can be UTF-8 for non-ASCII characters.
_HIGH_RUN = re.compile(r"(?:%[89A-Fa-f][0-9A-Fa-f])+")
# Invisible or spoofable categories stay escaped: format (bidi, ZWJ), separators, private use,
# unassigned, controls.
_HIDDEN = frozenset({"Cc", "Cf", "Co", "Cn", "Cs", "Zs", "Zl", "Zp"})


def _render(run: re.Match[str]) -> str:
    # One copy of the run, decoded in one call: linear in the run's length (calling
    # run.group() per escape copied the whole run each time, quadratic on long runs).
    escaped = run.group()
    raw = bytes.fromhex(escaped.replace("%", ""))
    try:
        decoded = raw.decode("utf-8")
    except UnicodeDecodeError:
        return escaped
    out = []
    for ch in decoded:
        if unicodedata.category(ch) in _HIDDEN:
            out.append("".join(f"%{b:02X}" for b in ch.encode("utf-8")))
        else:
            out.append(ch)
    return "".join(out)


def display_form(text: str) -> str:
    """Decode UTF-8 percent-escapes of visible non-ASCII characters, for display only.

    >>> display_form("urn:example:%D0%B0123%E2%80%8B%2C")
    'urn:example:а123%E2%80%8B%2C'
    """
    if "%" not in text:
        return text
    return _HIGH_RUN.sub(_render, text)
