"""``urn:publicid``: SGML/XML formal public identifiers as URNs, RFC 3151 §2.

Transcription (RFC 3151 §2; :func:`from_public_id`): normalize whitespace first (runs of space,
tab, CR and LF become one space; leading and trailing whitespace is dropped), then, left to
right::

    space → "+"    "//" → ":"    "::" → ";"
    "+" → %2B   ":" → %3A   "/" → %2F   ";" → %3B   "'" → %27   "?" → %3F   "#" → %23   "%" → %25

Every other public-identifier character (``PubidChar`` of XML 1.0: letters, digits and
``-()., =!*@$_``) is copied. The inverse (:func:`to_public_id`) is not in RFC 3151 (the OASIS XML
Catalogs "unwrapping" does it); this module implements it so that every RFC example
round-trips.

Validity: an NSS is valid when it is exactly what the transcription produces for some public
identifier, i.e. ``from_public_id(to_public_id(nss)) == nss``: only the characters above, only
the eight escapes, no ``+`` at either end or doubled (whitespace was normalized), and the
left-to-right reading respected (``%2F:`` cannot occur: ``///`` transcribes to ``:%2F``).

Equivalence (RFC 3151 §2): lexical identity, since normalization happened before the URN
existed; RFC 8141 still folds ``%XX`` hex case. The canonical NSS is the NSS itself.

>>> from_public_id("-//OASIS//DTD DocBook XML V4.1.2//EN")
'urn:publicid:-:OASIS:DTD+DocBook+XML+V4.1.2:EN'
>>> to_public_id("urn:publicid:ISO%2FIEC+10179%3A1996:DTD+DSSSL+Architecture:EN")
'ISO/IEC 10179:1996//DTD DSSSL Architecture//EN'
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterator

from .._core import CheckOptions, NamespaceRule, native_copy, upper_pct
from ..errors import URNError
from ..findings import Finding

__all__ = ["RULE", "PublicIdError", "PublicIdRule", "from_public_id", "to_public_id"]


class PublicIdError(URNError):
    """A public identifier or ``urn:publicid`` NSS that has no RFC 3151 transcription.

    Attributes:
        text: the input.
        position: index of the offending character in *text*.
    """

    def __init__(self, text: str, position: int, reason: str) -> None:
        self.text = text
        self.position = position
        self.reason = reason
        super().__init__(f"{reason} (at position {position} of {text!r})")

    def __reduce__(self) -> tuple[type[PublicIdError], tuple[str, int, str]]:
        return (type(self), (self.text, self.position, self.reason))


# XML 1.0 [13] PubidChar, less the whitespace (normalized first) and the transcribed ones.
_COPIED = frozenset(string.ascii_letters + string.digits + "-().,=!*@$_")
_ESCAPE = {"+": "%2B", ":": "%3A", "/": "%2F", ";": "%3B", "'": "%27", "?": "%3F", "#": "%23",
           "%": "%25"}  # fmt: skip
_UNESCAPE = {v: k for k, v in _ESCAPE.items()}
#: The wording of an escape that is not one of the eight: a str.format template, which the compiled
#: accelerator formats too (scripts/gen_speedups.py copies it into the C).
MSG_NOT_AN_ESCAPE = (
    "{!r} is not one of RFC 3151's eight escapes (%2B %3A %2F %3B %27 %3F %23 %25)"
)
_WHITESPACE = " \t\r\n"
_WS_RUN = re.compile(r"[ \t\r\n]+")


def _transcribe(public_id: str, original: str) -> str:
    out: list[str] = []
    i = 0
    n = len(public_id)
    while i < n:
        c = public_id[i]
        nxt = public_id[i + 1] if i + 1 < n else ""
        if c == " ":
            out.append("+")
        elif c == "/" and nxt == "/":
            out.append(":")
            i += 1
        elif c == ":" and nxt == ":":
            out.append(";")
            i += 1
        elif c in _ESCAPE:
            out.append(_ESCAPE[c])
        elif c in _COPIED:
            out.append(c)
        else:
            raise PublicIdError(
                original,
                original.find(c),
                f"{c!r} is not a public identifier character (XML 1.0 PubidChar)",
            )
        i += 1
    return "".join(out)


def from_public_id(public_id: str) -> str:
    """The ``urn:publicid`` URN of a formal public identifier (RFC 3151 §2).

    Raises :class:`PublicIdError` for characters outside XML's PubidChar (``&``, ``"``,
    ``<``, non-ASCII…) and for an identifier that is empty after whitespace normalization.

    >>> from_public_id("ISO/IEC 10179:1996//DTD DSSSL Architecture//EN")
    'urn:publicid:ISO%2FIEC+10179%3A1996:DTD+DSSSL+Architecture:EN'
    >>> from_public_id("  3+3=6  ")
    'urn:publicid:3%2B3=6'
    >>> from_public_id("R&D")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    urnld.namespaces.publicid.PublicIdError: '&' is not a public identifier character ...
    """
    if not isinstance(public_id, str):
        raise TypeError(f"from_public_id() takes str, not {type(public_id).__name__}")
    normalized = _WS_RUN.sub(" ", public_id).strip(" ")
    if not normalized:
        raise PublicIdError(public_id, 0, "the public identifier is empty")
    return "urn:publicid:" + _transcribe(normalized, public_id)


# One piece of a transcribed NSS: a run of copied characters, an escape (or what starts like
# one), or any other single character. A run is one step, not one per character.
_PIECE = re.compile(r"[A-Za-z0-9\-().,=!*@$_]+|%.{0,2}|.", re.DOTALL)


def _untranscribe(nss: str) -> str:
    out: list[str] = []
    for m in _PIECE.finditer(nss):
        piece = m[0]
        c = piece[0]
        if c in _COPIED:
            out.append(piece)
        elif c == "+":
            out.append(" ")
        elif c == ":":
            out.append("//")
        elif c == ";":
            out.append("::")
        elif c == "%":
            escape = piece.upper()
            if escape not in _UNESCAPE:
                raise PublicIdError(
                    nss, m.start(), MSG_NOT_AN_ESCAPE.format(piece)
                )
            out.append(_UNESCAPE[escape])
        elif c in _ESCAPE:
            raise PublicIdError(
                nss, m.start(), f"a literal {c!r} is transcribed as {_ESCAPE[c]} (RFC 3151 §2)"
            )
        else:
            raise PublicIdError(
                nss, m.start(),
                f"{c!r} never appears in a transcribed public identifier (RFC 3151 §2)",
            )
    return "".join(out)


def _nss_problem(nss: str) -> PublicIdError | None:
    """Why *nss* is not RFC 3151 output, or None."""
    try:
        public_id = _untranscribe(nss)
    except PublicIdError as e:
        return e
    if nss.startswith("+") or nss.endswith("+"):
        pos = 0 if nss.startswith("+") else len(nss) - 1
        return PublicIdError(nss, pos, "'+' (a space) at either end: whitespace is trimmed first")
    doubled = nss.find("++")
    if doubled >= 0:
        return PublicIdError(
            nss, doubled, "'++' (two spaces): whitespace runs are normalized to one space first"
        )
    again = _transcribe(public_id, public_id)
    written = upper_pct(nss)  # RFC 8141 folds escape case; the transcription writes upper
    if again != written:
        pos = next(
            (i for i, (a, b) in enumerate(zip(again, written, strict=False)) if a != b),
            min(len(again), len(written)),
        )
        return PublicIdError(
            nss,
            min(pos, len(nss) - 1),
            f"not the left-to-right transcription of {public_id!r}, which is {again!r}",
        )
    return None


def to_public_id(urn: object) -> str:
    """The formal public identifier a ``urn:publicid`` URN transcribes (RFC 3151 §2, inverted).

    *urn* is a URN string or :class:`~urnld.URN`; components are ignored. Raises
    :class:`PublicIdError` when the NSS is not a transcription (see the module docstring),
    :class:`~urnld.URNError` when *urn* is not a ``urn:publicid`` URN.

    >>> to_public_id("urn:publicid:-:ArborText;prod:DTD+Help+Document;19970708:EN")
    '-//ArborText::prod//DTD Help Document::19970708//EN'
    >>> to_public_id("urn:publicid:3%2b3=6")
    '3+3=6'
    """
    from .._core import URN

    if isinstance(urn, str):
        urn = URN(urn)
    if not isinstance(urn, URN):
        raise TypeError(f"to_public_id() takes str or URN, not {type(urn).__name__}")
    if urn.nid.lower() != "publicid":
        raise URNError(f"{str(urn)!r} is not a urn:publicid URN")
    problem = _nss_problem(urn.nss)
    if problem is not None:
        raise problem
    return _untranscribe(urn.nss)


class PublicIdRule(NamespaceRule):
    """RFC 3151 public identifier URNs."""

    nid = "publicid"
    title = "SGML/XML formal public identifiers"
    reference = "RFC 3151 §2"

    def repair(self, text: str) -> tuple[str, str, str] | None:
        """The documented repairs of this namespace (:data:`urnld.namespaces.REPAIRS`)."""
        from ._repairs import repair

        fixed = repair(text)
        return None if fixed is None else (fixed.code, fixed.repaired, fixed.source)

    @native_copy("publicid")  # with the default options: _speedups/rules_check.h check_publicid
    def check_nss(self, nss: str, options: CheckOptions) -> Iterator[Finding]:
        problem = _nss_problem(nss)
        if problem is not None:
            start = problem.position
            width = 3 if nss[start] == "%" else 2 if nss[start : start + 2] == "++" else 1
            yield self.finding("nss-invalid", problem.reason, start, start + width)


RULE = PublicIdRule()
