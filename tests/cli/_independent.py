"""An independent count of the URN spellings of an N-Triples/N-Quads file: the tokens read
with regular expressions (``grep -o``), de-duplicated (``sort | uniq``), and each judged by
the URN core alone (:func:`urnld.check`, :func:`urnld.canonical`), with no report, stream pass
or spilling involved."""

from __future__ import annotations

import gzip
import re
from collections.abc import Iterable
from pathlib import Path

from urnld import canonical, check

_IRI = re.compile(r"<([^>]*)>")
_LITERAL = re.compile(r'"((?:[^"\\]|\\.)*)"(\^\^<([^>]*)>|@[A-Za-z0-9-]+)?')
_XSD = "http://www.w3.org/2001/XMLSchema#"
_DATATYPES = {None, _XSD + "string", _XSD + "anyURI"}


def _spellings(lines: Iterable[str]) -> set[str]:
    out: set[str] = set()
    for line in lines:
        # literals first, then the IRIs outside them
        rest = line
        for m in _LITERAL.finditer(line):
            value, suffix, datatype = m.group(1), m.group(2), m.group(3)
            if ((suffix is None or datatype is not None) and datatype in _DATATYPES
                    and value[:4].lower() == "urn:" and "\\" not in value):
                out.add(value)
            rest = rest.replace(m.group(0), " ", 1)
        for m in _IRI.finditer(rest):
            if m.group(1)[:4].lower() == "urn:":
                out.add(m.group(1))
    return out


def independent_counts(paths: Iterable[Path]) -> dict[str, object]:
    """``invalid`` / ``non_canonical``: sets of spellings; ``several``: canonical form →
    spellings, for the URNs spelled several ways."""
    spellings: set[str] = set()
    for path in paths:
        opener = gzip.open if path.suffix == ".gz" else open
        with opener(path, "rt", encoding="utf-8") as f:
            spellings |= _spellings(f)
    invalid = {s for s in spellings if any(str(f.severity) == "error" for f in check(s))}
    groups: dict[str, set[str]] = {}
    for s in spellings - invalid:
        groups.setdefault(canonical(s), set()).add(s)
    return {
        "invalid": invalid,
        "non_canonical": {s for c, g in groups.items() for s in g if s != c},
        "several": {c: g for c, g in groups.items() if len(g) > 1},
    }
