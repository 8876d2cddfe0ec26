"""The IANA URN namespace registry, as shipped with urnld (``data/urn-namespaces.csv``).

Formal NIDs (RFC 8141 §5.1) and informal ones (``urn-N``, §5.2) in one table. The snapshot is
refreshed from IANA's CSV files with ``python scripts/refresh_registry.py``.

>>> registry_entry("ISBN").reference
'[International ISBN Agency]'
>>> is_registered("sha1")
False
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping

__all__ = ["RegistryEntry", "is_registered", "registry", "registry_entry"]


@dataclasses.dataclass(frozen=True, slots=True)
class RegistryEntry:
    """One registered NID.

    Attributes:
        nid: lower case.
        kind: ``"formal"`` or ``"informal"``.
        reference: IANA's reference column, e.g. ``"[RFC3187]"``.
        registered_date: as IANA gives it (may be empty).
        template: the registration template's name, when IANA lists one.
        notes: notes of the snapshot's compiler (where a fact came from).
    """

    nid: str
    kind: str
    reference: str
    registered_date: str
    template: str
    notes: str


@functools.cache
def registry() -> Mapping[str, RegistryEntry]:
    """Every registered NID (lower case) and its entry, read once from the shipped CSV.

    >>> len(registry()) > 100
    True
    """
    # Imported here: the registry is read on first use, and importlib.resources (zipfile,
    # bz2, lzma) would otherwise be paid by every `import urnld`.
    import csv
    import io
    from importlib import resources

    text = resources.files("urnld").joinpath("data/urn-namespaces.csv").read_text("utf-8")
    entries = {}
    for row in csv.DictReader(io.StringIO(text)):
        nid = row["nid"].strip().lower()
        entries[nid] = RegistryEntry(
            nid=nid,
            kind=row.get("kind", "").strip(),
            reference=row.get("reference", "").strip(),
            registered_date=row.get("registered_date", "").strip(),
            template=row.get("template", "").strip(),
            notes=row.get("notes", "").strip(),
        )
    return entries


def registry_entry(nid: str) -> RegistryEntry | None:
    """The entry for *nid* (any case), or None when it is not registered."""
    return registry().get(nid.lower())


def is_registered(nid: str) -> bool:
    """True when *nid* (any case) is in the IANA registry snapshot."""
    return nid.lower() in registry()
