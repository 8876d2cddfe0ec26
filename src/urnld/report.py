"""What a canonicalization or a check met: mergeable, bounded-memory reports.

Both the in-memory graph pass (:func:`urnld.rdf.canonicalize`) and the streaming pass
(:mod:`urnld.stream`) fill these reports; the Dask engine fills one per partition and combines
them with :meth:`~CanonicalizeReport.merge`.

Guarantees
----------
* **Exact counts.** Every integer total (statements, URN occurrences, per-NID and per-finding
  counts, number of malformed lines…) and every number of distinct things (invalid URNs,
  non-canonical spellings, URNs spelled several ways and their sizes, spellings merged) is
  exact however large the input.
* **Bounded memory.** Every key a report meets is kept with its exact count: in memory up to
  the map's share of ``memory_budget`` bytes (default :data:`DEFAULT_MEMORY_BUDGET` = 32 MiB),
  then in sorted runs on disk (unnamed temporary files, gone when the report is, or the
  process); reading a map merges its runs. ``to_dict()`` *shows* at most ``max_examples`` keys
  per map (default :data:`DEFAULT_MAX_EXAMPLES` = 10,000): the *smallest* in code-point order,
  with ``"truncated": true`` when there are more; the ``iter_*`` methods give them all.
* **Merge is associative and order-independent.** ``a.merge(b)`` returns a new report equal to
  the report of the concatenated input, whatever the partitioning and the merge order. Merged
  reports share their runs (never written again); a pickled report carries its runs' contents
  (to a Dask worker or from one), or, within :func:`urnld._kernel.handoff_runs`, their names
  for a process of the same machine.
* ``to_dict()`` is JSON-ready and deterministic (sorted keys, sorted lists); ``==`` compares
  reports by content.

Counting unit: a spelling's count is the number of *statements* it occurs in (a statement that
uses the same spelling as subject and object counts once).

>>> from urnld.report import CanonicalizeReport
>>> a = CanonicalizeReport()
>>> a.record_urn("URN:ISBN:0-395-36341-1", "urn:isbn:0395363411", "isbn", count=2)
>>> b = CanonicalizeReport()
>>> b.record_urn("urn:isbn:0395363411", "urn:isbn:0395363411", "isbn")
>>> a.merge(b).to_dict()["clusters"]
{'urn:isbn:0395363411': {'URN:ISBN:0-395-36341-1': 2, 'urn:isbn:0395363411': 1}}
>>> a.merge(b) == b.merge(a)
True
"""

from __future__ import annotations

from ._kernel import (
    DEFAULT_MAX_EXAMPLES,
    DEFAULT_MEMORY_BUDGET,
    CanonicalizeReport,
    CheckReport,
    LineError,
)

__all__ = [
    "DEFAULT_MAX_EXAMPLES",
    "DEFAULT_MEMORY_BUDGET",
    "CanonicalizeReport",
    "CheckReport",
    "LineError",
]

# The classes report this module as their home: pickles (worker processes, Dask) and reprs
# name the public path, which stays stable however the kernel is laid out inside.
for _cls in (CanonicalizeReport, CheckReport, LineError):
    _cls.__module__ = __name__
del _cls


def __dir__() -> list[str]:
    return __all__
