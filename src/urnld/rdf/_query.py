"""``canonical_query`` for :mod:`urnld.rdf`: rewrite a query's URN constants to canonical form.

The rewriter itself reads only text; it lives outside this rdflib package so that
:mod:`urnld.oxigraph` serves it without loading rdflib.

>>> canonical_query('ASK { <URN:ISBN:0-395-36341-1> ?p ?o }')
'ASK { <urn:isbn:0395363411> ?p ?o }'
"""

from __future__ import annotations

from .._kernel import canonical_query

__all__ = ["canonical_query"]
