"""What a store does where the SPARQL standards leave room, or where it departs from them: one
small profile per product, chosen once per :class:`~._client.Endpoint` from the ``Server``
header of its first answer (or given).

The in-place runs ask the profile, never the product's name, so a third store is one more
profile (and its tests), not a new branch at every place a quirk matters.

>>> profile_for("Virtuoso").default_graph
'union'
>>> profile_for("oxigraph").union_option
'union-default-graph'
>>> profile_for("").name  # an unknown store: the standard, nothing assumed
'standard'
"""

from __future__ import annotations

import dataclasses
from typing import Final, Literal

__all__ = ["OXIGRAPH", "STANDARD", "VIRTUOSO", "StoreProfile", "profile_for"]


@dataclasses.dataclass(frozen=True, slots=True)
class StoreProfile:
    """A store's behaviour where it matters to urnld (the fields say what they change).

    ``default_graph``: ``"own"``, the store has a default graph of its own that queries read
    and updates write (SPARQL 1.1 Update §3.1); ``"union"``, the default graph is the union of
    the named graphs and cannot be written without naming a graph (Virtuoso:
    openlink/virtuoso-opensource #215, ``SP031``). The in-place runs then read and rewrite
    graph by graph (``GRAPH ?g``), and refuse to add statements without a graph.

    ``union_option``: the query-URL parameter that makes the default graph the union of all
    graphs for one request (Oxigraph's ``union-default-graph``), or None.

    ``sort_in_subquery``: ``ORDER BY … LIMIT … OFFSET`` pages are sorted correctly only inside
    a subquery (Virtuoso sorts at most ``MaxSortedTopRows`` rows otherwise, SR353). A store
    that cuts a result at a row cap says so with the ``X-SPARQL-MaxRows`` header, whatever its
    profile (:class:`~._client.ResultCapError`); the runs then read it in pages.

    ``typed_strings``: literal typing as Virtuoso keeps it: ``"v"`` and ``"v"^^xsd:string``
    are two terms there (RDF 1.1 makes them one: openlink/virtuoso-opensource #633, #247), a
    plain string constant in an update may be taken for the IRI of the same text, a literal
    constant in a ``DELETE`` is not always deleted (#379, #335), and ``GROUP BY`` may put terms
    of the same text in one group. Strings are then written typed, deleted through a variable
    read from the store, and grouped by datatype too.

    ``max_terms`` (distinct terms per update request), ``op_quads`` (statements per
    ``INSERT``/``DELETE`` operation) and ``find_terms`` (terms per statement-finding query of
    the undo): the store compiles a request into code of bounded size (Virtuoso: ``SQ199``
    32 KiB code vectors, ``SP031`` 10,000 lines of SQL); None: unbounded. ``split_updates``: a
    multi-operation update is sent one operation per request (the undo's blocks).

    ``named_bnodes``: a blank node read back has a name later requests may use
    (``nodeID://…``), so the undo is ground; elsewhere blank nodes are matched by pattern.

    ``ask``: the store answers ``ASK`` (a store that does not is asked ``SELECT … LIMIT 1``).
    """

    name: str
    default_graph: Literal["own", "union"] = "own"
    union_option: str | None = None
    sort_in_subquery: bool = False
    typed_strings: bool = False
    max_terms: int | None = None
    op_quads: int | None = None
    find_terms: int | None = None
    split_updates: bool = False
    named_bnodes: bool = False
    ask: bool = True

    def __post_init__(self) -> None:
        if self.default_graph not in ("own", "union"):
            raise ValueError(f"default_graph must be 'own' or 'union', not {self.default_graph!r}")
        for field in ("max_terms", "op_quads", "find_terms"):
            value = getattr(self, field)
            if value is not None and value < 1:
                raise ValueError(f"{field} must be a positive number or None, not {value!r}")

    @property
    def union_default(self) -> bool:
        """Is the default graph the union of the named graphs (and not writable)?"""
        return self.default_graph == "union"


#: A store that follows the standards; what urnld assumes of a product it does not know.
STANDARD: Final = StoreProfile("standard")

#: Oxigraph: the standards, and the union default graph on request.
OXIGRAPH: Final = StoreProfile("oxigraph", union_option="union-default-graph")

#: OpenLink Virtuoso (7.2): see the fields of :class:`StoreProfile`. ``max_terms``: about
#: 6,000 VALUES rows in one request exceed its 32 KiB code vector, 2,000 do not, and requests
#: of 100-500 terms rewrote fastest (docs/performance.md, ``bench/endpoint.py --max-terms``);
#: ``op_quads`` and ``find_terms`` keep one operation or query below 10,000 lines of SQL.
VIRTUOSO: Final = StoreProfile(
    "virtuoso", default_graph="union", sort_in_subquery=True, typed_strings=True,
    max_terms=300, op_quads=50, find_terms=100, split_updates=True, named_bnodes=True,
)

_PROFILES: Final = {p.name: p for p in (OXIGRAPH, VIRTUOSO)}


def profile_for(product: str) -> StoreProfile:
    """The profile of the store whose product name (the ``Server`` header's first word) is
    *product*; :data:`STANDARD` for any other."""
    return _PROFILES.get(product.strip().lower(), STANDARD)
