"""How an input is read, as one value: its syntax, base, JSON-LD catalog and URN-base hazards.

Every public entry point that reads files (:mod:`urnld.files`, :mod:`urnld.stream`,
:mod:`urnld.rdf`, :mod:`urnld.dask`, the command line) takes one :class:`ReadingOptions`
instead of four keyword arguments, and :data:`HazardMode` is defined here once.

>>> r = ReadingOptions(format="ttl", hazards="warn")
>>> r.format, r.hazards, r.reader_kwargs()["base"]
('ttl', 'warn', None)
>>> ReadingOptions(hazards="loud")
Traceback (most recent call last):
...
urnld.URNError: hazards must be 'error', 'warn' or 'ignore', not 'loud'
"""

from __future__ import annotations

import dataclasses
from typing import Any, Final, Literal, get_args

from ..errors import URNError

__all__ = ["DEFAULT_READING", "HAZARD_MODES", "HazardMode", "ReadingOptions"]

#: What a relative reference against a URN base does: ``"error"`` refuses the document,
#: ``"warn"`` warns and resolves it the RFC 3986 way, ``"ignore"`` resolves it silently.
HazardMode = Literal["error", "warn", "ignore"]
HAZARD_MODES: Final = get_args(HazardMode)


@dataclasses.dataclass(frozen=True, slots=True)
class ReadingOptions:
    """How to read an input (all optional).

    ``format``: the input syntax (a name or alias of the syntax table; default: from the
    path's extension). ``base``: the base IRI of relative references (default: the file's
    location). ``catalog``: where JSON-LD contexts come from (a directory, a mapping or a
    loader; nothing is fetched). ``hazards``: see :data:`HazardMode`.
    """

    format: str | None = None
    base: str | None = None
    catalog: Any = dataclasses.field(default=None, hash=False, compare=False)
    hazards: HazardMode = "error"
    #: JSON-LD's ``rdfDirection`` (what an ``@direction`` becomes): None (JSON-LD 1.1's
    #: default: dropped), ``"i18n-datatype"`` or ``"compound-literal"``.
    rdf_direction: str | None = None

    def __post_init__(self) -> None:
        if self.hazards not in HAZARD_MODES:
            raise URNError(f"hazards must be 'error', 'warn' or 'ignore', not {self.hazards!r}")

    def reader_kwargs(self) -> dict[str, Any]:
        """The keyword arguments of :func:`urnld.read.read` (``format`` included)."""
        return {"format": self.format, "catalog": self.catalog, "base": self.base,
                "hazards": self.hazards}

    def stream_kwargs(self) -> dict[str, Any]:
        """The keyword arguments of the streaming functions (the syntax goes separately)."""
        return {"catalog": self.catalog, "base": self.base, "hazards": self.hazards}

    def replace(self, **changes: Any) -> ReadingOptions:
        """A copy with *changes*.

        >>> ReadingOptions().replace(format="nt").format
        'nt'
        """
        return dataclasses.replace(self, **changes)


#: Read as the extension says, relative to the file, no catalog, URN-base hazards refused.
DEFAULT_READING: Final = ReadingOptions()
