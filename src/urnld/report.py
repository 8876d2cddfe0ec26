"""What a canonicalization or a check met: mergeable, bounded-memory reports.

Both the in-memory graph pass (:func:`urnld.rdf.canonicalize`) and the streaming pass
(:mod:`urnld.stream`) fill these reports; the Dask engine fills one per partition and combines
them with :meth:`~CanonicalizeReport.merge`.

Guarantees
----------
* **Exact counts.** Every integer total (statements, URN occurrences, per-NID and per-finding
  counts, number of malformed lines…) is exact however large the input.
* **Bounded memory.** The *examples* (clusters of spellings, invalid URNs, non-canonical
  spellings, malformed lines, dropped components, NIDs) are kept in maps capped at
  ``max_examples`` keys each (default :data:`DEFAULT_MAX_EXAMPLES` = 10,000). A capped map keeps
  the *smallest* keys in code-point order, and the count stored for every kept key is exact:
  a key is only ever dropped when ``max_examples`` smaller keys are already kept, and those
  never leave, so a dropped key can never come back with a partial count. ``to_dict()`` says
  ``"truncated": true`` for a map that hit its cap.
* **Merge is associative and order-independent.** ``a.merge(b)`` returns a new report equal to
  the report of the concatenated input, whatever the partitioning and the merge order (the
  smallest-keys rule makes even the truncated maps independent of grouping).
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

from ._kernel import DEFAULT_MAX_EXAMPLES, CanonicalizeReport, CheckReport, LineError

__all__ = [
    "DEFAULT_MAX_EXAMPLES",
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
