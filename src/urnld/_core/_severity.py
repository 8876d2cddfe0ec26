"""Severity overrides: a per-finding-code map, as Apache Jena's ``SeverityMap`` does.

RFC 8141 makes some names errors that real data publishes every day (``urn:x-ogc:…`` in OGC
services, RFC 6241's ``?scheme=`` capabilities). urnld keeps those verdicts and lets a user
move a finding code to another level: ``error``, ``warning``, ``info``, or ``ignore`` (the
finding is dropped). The level of a finding is then its usual one (which ``strict`` may raise)
unless the map names its code.

>>> m = SeverityMap({"nid-experimental": "warning", "not-canonical": "ignore"})
>>> m["nid-experimental"], m["not-canonical"]
(<Severity.WARNING: 'warning'>, None)
>>> SeverityMap.parse(["nid-reserved=error"]) == SeverityMap({"nid-reserved": "error"})
True

Moving ``syntax`` changes reports and exit statuses only: a string that does not parse is
never a URN (it has no canonical form, and :func:`urnld.validate` still raises
:class:`~urnld.URNSyntaxError` for it). That is the way through for identifiers such as PEPPOL's
``urn:cen.eu:en16931:2017#compliant#…``, whose NID holds a ``.``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import TypeAlias, cast

from ..errors import URNError
from ..findings import CODES, Finding, Severity

__all__ = [
    "LEVELS",
    "NO_OVERRIDES",
    "SeverityConfigError",
    "SeverityLike",
    "SeverityMap",
]

#: The level names a map accepts; ``ignore`` drops the finding.
LEVELS = ("error", "warning", "info", "ignore")


class SeverityConfigError(URNError):
    """A severity override names an unknown code or level, or a code that cannot be moved."""


def _level(code: str, level: object) -> Severity | None:
    if not isinstance(code, str):
        raise SeverityConfigError(f"a finding code must be a string, not {code!r}")
    if code not in CODES:
        raise SeverityConfigError(
            f"unknown finding code {code!r}; known codes: {', '.join(sorted(CODES))}"
        )
    if isinstance(level, Severity):
        return level
    if not isinstance(level, str) or level.strip().lower() not in LEVELS:
        raise SeverityConfigError(
            f"level {level!r} for {code!r} must be one of {', '.join(LEVELS)}"
        )
    name = level.strip().lower()
    return None if name == "ignore" else Severity(name)


#: What the ``severity=`` arguments accept: a map, a mapping of code to level name, or None.
SeverityLike: TypeAlias = "SeverityMap | Mapping[str, str | Severity] | None"


class SeverityMap(Mapping[str, "Severity | None"]):
    """An immutable, hashable map from finding code to level (``None`` = ignore).

    Unknown codes and levels raise :class:`SeverityConfigError` at construction, so a typo in
    a configuration file fails loudly instead of silently changing nothing.

    >>> SeverityMap({"nid-experimental": "loud"})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    urnld.SeverityConfigError: level 'loud' for 'nid-experimental' must be one of error, ...
    """

    __slots__ = ("_items", "_map")

    def __init__(self, overrides: Mapping[str, str | Severity] | None = None) -> None:
        resolved = {code: _level(code, level) for code, level in (overrides or {}).items()}
        self._map: dict[str, Severity | None] = resolved
        self._items = frozenset(resolved.items())

    @classmethod
    def of(cls, value: SeverityLike) -> SeverityMap:
        """*value* as a map (itself when it is one already).

        >>> SeverityMap.of(None) == SeverityMap()
        True
        """
        if isinstance(value, SeverityMap):
            return value
        if value is None:
            return NO_OVERRIDES
        if isinstance(value, Mapping):
            # mypy keeps SeverityMap in the union after the isinstance test above.
            return cls(cast("Mapping[str, str | Severity]", value))
        raise SeverityConfigError(
            f"severity overrides are a mapping of code to level, not {type(value).__name__}"
        )

    @classmethod
    def parse(cls, items: Iterable[str]) -> SeverityMap:
        """Build a map from ``CODE=LEVEL`` strings (the CLI's ``--severity``); later wins.

        >>> dict(SeverityMap.parse(["pct-lowercase=error", "pct-lowercase=info"]))
        {'pct-lowercase': <Severity.INFO: 'info'>}
        """
        pairs: dict[str, str] = {}
        for item in items:
            code, sep, level = item.partition("=")
            if not sep:
                raise SeverityConfigError(f"severity override {item!r} is not CODE=LEVEL")
            pairs[code.strip()] = level
        return cls(pairs)

    def merged(self, other: SeverityMap) -> SeverityMap:
        """A map with *other*'s entries over this one's (command line over project file).

        >>> a = SeverityMap({"nid-reserved": "error", "pct-nul": "info"})
        >>> dict(a.merged(SeverityMap({"nid-reserved": "ignore"})))["nid-reserved"] is None
        True
        """
        new = SeverityMap()
        new._map = {**self._map, **other._map}
        new._items = frozenset(new._map.items())
        return new

    def apply(self, findings: Iterable[Finding]) -> list[Finding]:
        """*findings* with the levels this map names; ignored ones dropped, errors first.

        >>> from urnld import check
        >>> m = SeverityMap({"nid-experimental": "warning"})
        >>> [(f.code, str(f.severity)) for f in m.apply(check("urn:x-ogc:def:crs:EPSG:6.11:2192"))]
        [('nid-experimental', 'warning')]
        """
        if not self._map:
            return list(findings)
        out = []
        for f in findings:
            if f.code not in self._map:
                out.append(f)
                continue
            level = self._map[f.code]
            if level is not None:
                out.append(f if level is f.severity else f.with_severity(level))
        out.sort(key=lambda f: f.sort_key)
        return out

    def to_dict(self) -> dict[str, str]:
        """``{code: level name}``, for JSON reports.

        >>> SeverityMap({"pct-nul": "ignore"}).to_dict()
        {'pct-nul': 'ignore'}
        """
        return {c: ("ignore" if s is None else str(s)) for c, s in sorted(self._map.items())}

    def __getitem__(self, code: str) -> Severity | None:
        return self._map[code]

    def __iter__(self) -> Iterator[str]:
        return iter(self._map)

    def __len__(self) -> int:
        return len(self._map)

    def __hash__(self) -> int:
        return hash(self._items)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, SeverityMap):
            return self._items == other._items
        return NotImplemented

    def __repr__(self) -> str:
        return f"SeverityMap({self.to_dict()!r})"


#: The empty map: every finding keeps its usual level.
NO_OVERRIDES = SeverityMap()
