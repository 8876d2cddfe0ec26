"""The names of the streaming path that every caller needs and that cost nothing to import:
the syntaxes it reads and writes, the error that says where a document went wrong, the hazard
modes. The sniffing reader itself (:mod:`._sniff`) loads only when a syntax other than
N-Triples or N-Quads is read.

>>> sorted(LINE_SYNTAXES)
['nquads', 'nt']
"""

from __future__ import annotations

from typing import Final

from .._kernel import SYNTAXES as SYNTAX_TABLE
from .._kernel import (
    HazardMode,  # the one definition (re-exported here)
    get_syntax,
)
from ..errors import URNError

__all__ = ["LINE_SYNTAXES", "SYNTAXES", "HazardMode", "RDFSyntaxError", "normalize_syntax"]


#: Every syntax the streaming path reads and writes, by urnld's names (the kernel's syntax
#: table): those pyoxigraph has a reader and a writer for.
SYNTAXES: Final = frozenset(name for name, s in SYNTAX_TABLE.items() if s.oxigraph is not None)
#: One statement a line: read by the line pass itself (no stage A).
LINE_SYNTAXES: Final = frozenset(name for name in SYNTAXES if SYNTAX_TABLE[name].lines)


class RDFSyntaxError(URNError):
    """An RDF input the streaming path cannot read: a syntax error, a refused construct.

    ``line`` and ``column`` are the parser's (1-based) when it gives them, else None;
    ``statement`` is the number of statements read before the error.

    >>> str(RDFSyntaxError("x.ttl", "cannot parse as turtle: Unexpected end of file", 3, 7))
    'x.ttl:3:7: cannot parse as turtle: Unexpected end of file'
    >>> str(RDFSyntaxError("x.rdf", "cannot parse as xml: bad tag", statement=12))
    'x.rdf: after statement 12: cannot parse as xml: bad tag'
    """

    def __init__(
        self, source: str, reason: str, line: int | None = None, column: int | None = None,
        *, statement: int | None = None,
    ) -> None:
        self.source, self.reason, self.line, self.column = source, reason, line, column
        self.statement = statement
        if line is not None:
            where = f"{source}:{line}" + (f":{column}" if column is not None else "")
        elif statement:
            where = f"{source}: after statement {statement}"
        else:
            where = source
        super().__init__(f"{where}: {reason}")


def normalize_syntax(name: str) -> str:
    """urnld's name of the syntax *name*, or :class:`RDFSyntaxError` when it is not streamed.

    >>> normalize_syntax("TTL"), normalize_syntax("application/ld+json"), normalize_syntax("nq")
    ('turtle', 'json-ld', 'nquads')
    """
    try:
        fmt = get_syntax(name).name
    except URNError:
        fmt = name
    if fmt not in SYNTAXES:
        raise RDFSyntaxError(
            name, f"not a syntax the streaming path reads (one of {', '.join(sorted(SYNTAXES))})"
        )
    return fmt
