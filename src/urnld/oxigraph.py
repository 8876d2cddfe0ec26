"""URN-aware SPARQL on pyoxigraph: the ``urnfn:`` functions and canonical queries, no rdflib.

pyoxigraph (Oxigraph's Python binding) runs SPARQL in Rust and takes extension functions per
call (``Store.query(q, custom_functions={NamedNode(iri): callable})``). This module gives it
urnld's functions and a query helper; it loads neither rdflib nor pyshacl.

=============================  ===============================================================
:data:`FUNCTIONS`              every ``urnfn:`` function (``isValid``, ``canonical``,
                               ``equivalent``, ``nid``, ``nss``, ``findings``, ``resolve``) as
                               pyoxigraph ``custom_functions``: the same answers as the rdflib
                               ones (:mod:`urnld.rdf`), computed by the same code.
:func:`query`, :func:`update`  ``store.query`` / ``store.update`` with the URN constants of the
                               text rewritten to canonical form (:func:`canonical_query`) and
                               the ``urnfn:`` functions available.
:func:`canonical_query`        the rewriting alone, for any engine.
=============================  ===============================================================

A store that urnld canonicalized (``urnld canonicalize``) holds each URN in its canonical
spelling, so a query written with another spelling needs its constants rewritten to find it:

>>> from pyoxigraph import Literal, NamedNode, Quad, Store
>>> store = Store()
>>> store.add(Quad(NamedNode("urn:isbn:0395363411"),
...                NamedNode("http://purl.org/dc/terms/title"), Literal("The Hobbit")))
>>> rows = query(store, '''PREFIX dct: <http://purl.org/dc/terms/>
...     SELECT ?t WHERE { <URN:ISBN:0-395-36341-1> dct:title ?t }''')
>>> [row["t"].value for row in rows]
['The Hobbit']
>>> [row["n"].value for row in store.query(
...     'SELECT ?n WHERE { BIND(<https://w3id.org/urnld/fn#nid>("URN:ISBN:x") AS ?n) }',
...     custom_functions=FUNCTIONS)]
['isbn']
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

from pyoxigraph import BaseDirection, BlankNode, Literal, NamedNode, Store, Triple

from ._kernel import URNFN_FUNCTIONS as _TABLE
from ._kernel import URNFN_NAMESPACE as NAMESPACE
from ._kernel import FunctionError, canonical_query
from ._kernel import UrnfnArg as Arg
from ._kernel import UrnfnFunction as Function
from ._kernel import UrnfnResult as Result
from .errors import URNError

__all__ = ["FUNCTIONS", "NAMESPACE", "canonical_query", "query", "update"]

_Term = NamedNode | BlankNode | Literal | Triple
CustomFunction = Callable[..., "_Term | None"]

_XSD_BOOLEAN: Final = NamedNode("http://www.w3.org/2001/XMLSchema#boolean")


def _arg(term: object) -> Arg:
    """What a function reads from a term: the lexical form of an IRI or literal, else None."""
    if isinstance(term, Literal):
        return Arg(term.value, literal=True)
    if isinstance(term, NamedNode):
        return Arg(term.value, literal=False)
    return Arg(None, literal=False)  # blank nodes, quoted triples


def _term(result: Result, first: object) -> _Term:
    if result.kind == "boolean":
        return Literal(result.text, datatype=_XSD_BOOLEAN)
    if result.kind == "string":
        return Literal(result.text)
    if result.kind == "same" and isinstance(first, Literal):
        # canonical of a literal: a literal again, with the same datatype or language tag
        if first.language is not None:
            direction: BaseDirection | None = first.direction
            return Literal(result.text, language=first.language, direction=direction)
        return Literal(result.text, datatype=first.datatype)
    return NamedNode(result.text)


def _adapter(function: Function) -> CustomFunction:
    def call(*args: object) -> _Term | None:
        try:
            result = function.call([_arg(a) for a in args])
        except FunctionError:
            return None  # pyoxigraph's expression error: BIND leaves the variable unbound
        return _term(result, args[0])

    call.__name__ = call.__qualname__ = function.name
    call.__doc__ = f"``urnfn:{function.name}`` for pyoxigraph's SPARQL engine."
    return call


#: Every ``urnfn:`` function, keyed by its IRI, ready for ``custom_functions=``.
FUNCTIONS: Final[Mapping[NamedNode, CustomFunction]] = {
    NamedNode(NAMESPACE + name): _adapter(function) for name, function in _TABLE.items()
}


def _functions(extra: Mapping[NamedNode, CustomFunction] | None) -> dict[NamedNode, Any]:
    # The caller's own functions come on top: an explicit choice wins over urnld's.
    return {**FUNCTIONS, **(extra or {})}


def _rewrite(
    text: str, prefixes: Mapping[str, str] | None, *, literals: bool, ignore_components: bool
) -> str:
    """canonical_query, with the ``prefixes=`` argument's names expanded as the engine will."""
    if not isinstance(text, str):
        raise TypeError(f"a SPARQL query must be a str, not {type(text).__name__}")
    # Declared in front, the caller's prefixes are read by the rewriter like the query's own
    # (a later PREFIX in the query still wins); it copies declarations as written, so the
    # header comes back unchanged and is cut off again.
    header = "".join(f"PREFIX {name}: <{ns}>\n" for name, ns in (prefixes or {}).items())
    out = canonical_query(header + text, literals=literals, ignore_components=ignore_components)
    if not out.startswith(header):
        raise URNError(f"the prefixes {dict(prefixes or {})!r} are not SPARQL prefix declarations")
    return out[len(header):]


def query(
    store: Store,
    sparql: str,
    *,
    literals: bool = False,
    ignore_components: bool = False,
    prefixes: Mapping[str, str] | None = None,
    custom_functions: Mapping[NamedNode, CustomFunction] | None = None,
    **options: Any,
) -> Any:
    """``store.query(sparql)`` with its URN constants in canonical form and ``urnfn:`` functions.

    Args:
        store: a :class:`pyoxigraph.Store`, best one whose URNs urnld canonicalized: then every
            spelling of a URN in the query finds the data.
        sparql: the query. IRIs and prefixed names that are URNs are rewritten as
            :func:`canonical_query` says; strings, comments and relative IRIs are left alone.
        literals: also rewrite plain, ``xsd:string`` and ``xsd:anyURI`` literals whose whole
            value is a URN (for data canonicalized with ``literals=True``).
        ignore_components: drop r-, q- and f-components of the URN constants.
        prefixes: default prefixes, as pyoxigraph takes them; names declared here are expanded
            when the rewriter reads the query, too.
        custom_functions: more extension functions; one with a ``urnfn:`` IRI replaces urnld's.
        options: passed on to :meth:`pyoxigraph.Store.query` (``base_iri``,
            ``use_default_graph_as_union``, ``default_graph``, ``named_graphs``,
            ``substitutions``, ``custom_aggregate_functions``).

    Returns:
        what :meth:`pyoxigraph.Store.query` returns: solutions, a boolean, or triples.

    Raises:
        urnld.URNError: an unterminated string in the query.
        SyntaxError: pyoxigraph's, for a query that is not SPARQL.

    >>> from pyoxigraph import Store
    >>> bool(query(Store(), 'ASK { FILTER(<https://w3id.org/urnld/fn#equivalent>('
    ...                     '<URN:ISBN:0-395-36341-1>, "urn:isbn:0395363411")) }'))
    True
    """
    text = _rewrite(sparql, prefixes, literals=literals, ignore_components=ignore_components)
    return store.query(
        text,
        prefixes=None if prefixes is None else dict(prefixes),
        custom_functions=_functions(custom_functions),
        **options,
    )


def update(
    store: Store,
    sparql: str,
    *,
    literals: bool = False,
    ignore_components: bool = False,
    prefixes: Mapping[str, str] | None = None,
    custom_functions: Mapping[NamedNode, CustomFunction] | None = None,
    base_iri: str | None = None,
) -> None:
    """``store.update(sparql)`` with its URN constants in canonical form and ``urnfn:`` functions.

    The same rewriting as :func:`query`: an ``INSERT DATA`` writes a URN in its canonical
    spelling, a ``DELETE`` finds it by any spelling, so a canonical store stays canonical.

    >>> from pyoxigraph import Store
    >>> store = Store()
    >>> update(store, 'INSERT DATA { <URN:UUID:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6> '
    ...               '<http://www.w3.org/2000/01/rdf-schema#label> "x" }')
    >>> [q.subject.value for q in store]
    ['urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6']
    """
    text = _rewrite(sparql, prefixes, literals=literals, ignore_components=ignore_components)
    store.update(
        text,
        base_iri=base_iri,
        prefixes=None if prefixes is None else dict(prefixes),
        custom_functions=_functions(custom_functions),
    )
