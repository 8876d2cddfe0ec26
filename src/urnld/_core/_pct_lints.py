"""The percent-encoding lints of check(): lower-case hex, escaped unreserved characters, NUL,
escapes that are not UTF-8 (URN.md §3, RFC 8141 §2.1 and RFC 3986 §2.1, §2.3).

>>> [code for code, *_ in pct_lints("a%2c%41", 0, "NSS")]
['pct-lowercase', 'pct-unreserved']
"""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import Final

from ._abnf import UNRESERVED_CHARS

__all__ = ["MAX_PER_CODE", "PCT_CODES", "Lint", "pct_lints"]

PCT_CODES: Final = frozenset({"pct-lowercase", "pct-unreserved", "pct-nul", "pct-not-utf8"})
# The escapes each percent-encoding lint is about. An escape is "%" and two hex digits, and no
# two overlap, so each of these finds a subset of the same escapes.
_PCT_LOWER = re.compile(r"%(?:[a-f][0-9A-Fa-f]|[0-9A-F][a-f])")
_PCT_NUL = re.compile(r"%00")
_PCT_HIGH_RUN = re.compile(r"%[89A-Fa-f][0-9A-Fa-f](?:%[89A-Fa-f][0-9A-Fa-f])*")
_UNRESERVED = frozenset(UNRESERVED_CHARS)


def _unreserved_escapes() -> str:
    """A regex of the escapes of unreserved characters ("%41" for "A"), hex in either case,
    one alternative per first digit, so that the engine can look for the leading "%"."""
    seconds: dict[str, set[str]] = {}
    for c in sorted(_UNRESERVED):
        code = f"{ord(c):02X}"
        seconds.setdefault(code[0], set()).update({code[1], code[1].lower()})
    return "%(?:" + "|".join(f"{d}[{''.join(sorted(s))}]" for d, s in seconds.items()) + ")"


_PCT_UNRESERVED = re.compile(_unreserved_escapes())
# One finding per code and part is enough to act on; a 1 MB string of "%2a" must not produce
# a million findings.
MAX_PER_CODE = 3


#: A finding as plain values: (code, message, start, end), its severity the code's usual one.
Lint = tuple[str, str, int, int]


def pct_lints(
    part: str, offset: int, what: str, codes: Collection[str] = PCT_CODES
) -> list[Lint]:
    """The percent-encoding lints of one part as ``(code, message, start, end)``, spans shifted
    by *offset*, at most ``MAX_PER_CODE`` per code (no Finding made: the fast lane writes them).

    Every ``%`` followed by two hex digits is an escape, so each lint's escapes are found by
    a regex of its own (one scan in C each) and only escapes with something to say are visited.
    The lints come by code, each code's in text order; callers sort them with the rest. Only
    the lints of *codes* are looked for (a caller may know that the others find nothing).

    >>> pct_lints("a%2c%41%00%C3", 0, "NSS")  # doctest: +NORMALIZE_WHITESPACE
    [('pct-lowercase', "escape '%2c' in the NSS should be written '%2C'", 1, 4),
     ('pct-unreserved', "'%41' in the NSS encodes 'A', which needs no encoding", 4, 7),
     ('pct-nul', '%00 (NUL) in the NSS', 7, 10),
     ('pct-not-utf8', "escapes '%C3' in the NSS are not UTF-8", 10, 13)]
    """
    out: list[Lint] = []
    if "pct-lowercase" in codes:
        _lowercase_lints(part, offset, what, out)
    if "pct-unreserved" in codes:
        _unreserved_lints(part, offset, what, out)
    if "pct-nul" in codes:
        for i, m in enumerate(_PCT_NUL.finditer(part)):
            if i == MAX_PER_CODE:
                break
            out.append(
                ("pct-nul", f"%00 (NUL) in the {what}", offset + m.start(), offset + m.end())
            )
    if "pct-not-utf8" in codes:
        _utf8_lints(part, offset, what, out)
    return out


def _lowercase_lints(part: str, offset: int, what: str, out: list[Lint]) -> None:
    for i, m in enumerate(_PCT_LOWER.finditer(part)):
        if i == MAX_PER_CODE:
            break
        start, end = m.span()
        out.append((
            "pct-lowercase",
            f"escape {m[0]!r} in the {what} should be written {m[0].upper()!r}",
            offset + start,
            offset + end,
        ))


def _unreserved_lints(part: str, offset: int, what: str, out: list[Lint]) -> None:
    for i, m in enumerate(_PCT_UNRESERVED.finditer(part)):
        if i == MAX_PER_CODE:
            break
        start, end = m.span()
        out.append((
            "pct-unreserved",
            f"{m[0]!r} in the {what} encodes {chr(int(m[0][1:], 16))!r}, which needs no encoding",
            offset + start,
            offset + end,
        ))


def _utf8_lints(part: str, offset: int, what: str, out: list[Lint]) -> None:
    # A run of adjacent escapes of bytes >= 0x80 must decode as UTF-8 (RFC 3629 via RFC 3986).
    bad = 0
    for m in _PCT_HIGH_RUN.finditer(part):
        run = m[0]
        try:
            bytes.fromhex(run.replace("%", "")).decode("utf-8")
        except UnicodeDecodeError:
            start, end = m.span()
            out.append((
                "pct-not-utf8",
                f"escapes {run!r} in the {what} are not UTF-8",
                offset + start,
                offset + end,
            ))
            bad += 1
            if bad == MAX_PER_CODE:
                break
