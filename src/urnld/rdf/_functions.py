"""SPARQL extension functions for URNs, in the namespace ``https://w3id.org/urnld/fn#``.

After :func:`register_functions` (which importing :mod:`urnld.rdf` calls), every rdflib SPARQL
query — including the SPARQL-based constraints pyshacl runs — can call:

=========================  ==================================================================
``urnfn:isValid(?x)``      ``xsd:boolean``: ``true`` iff ``urnld.check`` has no error finding.
``urnfn:canonical(?x)``    the canonical URN; an IRI for an IRI argument, a literal (same
                           datatype / language tag) for a literal argument.
``urnfn:equivalent(?a,?b)`` ``xsd:boolean``: RFC 8141 equivalence (+ namespace rules,
                           components ignored); ``false`` when either side is not a URN.
``urnfn:nid(?x)``          the NID of the canonical form (lower case), as a plain literal.
``urnfn:nss(?x)``          the NSS of the canonical form, as a plain literal.
``urnfn:findings(?x)``     the finding codes of ``urnld.check``, space-separated, in the order
                           ``check`` reports them, each once; ``""`` when there are none.
``urnfn:resolve(?x [,t])`` the locator IRI of the URN: from the RFC 6570 template literal
                           *t*, else the first entry of urnld's resolver table
                           (:mod:`urnld.resolvers`); an error when none serves it.
=========================  ==================================================================

Arguments may be IRIs or literals of any kind (plain, ``xsd:string``, ``xsd:anyURI``,
language-tagged…): the lexical form is what is read. For an argument that is not a URN at all
(or a blank node), ``isValid`` is ``false``, ``equivalent`` is ``false``, ``findings`` is
``"syntax"``, and ``canonical``/``nid``/``nss`` raise a SPARQL error — standard SPARQL error
semantics: a ``BIND`` leaves the variable unbound and a ``FILTER`` drops the row.

Results are cached per distinct lexical form, because SHACL validation calls these once per
focus node and catalog data repeats the same URNs many times. What each function computes lives
in one rdflib-free table (``urnld._kernel``) that :mod:`urnld.oxigraph` serves to pyoxigraph too;
this module only turns rdflib terms into its arguments and its results into rdflib terms.

>>> from rdflib import Graph
>>> from urnld.rdf import register_functions
>>> register_functions()
>>> q = '''PREFIX urnfn: <https://w3id.org/urnld/fn#>
... SELECT ?c ?n WHERE { BIND(urnfn:canonical(<URN:EXAMPLE:a%2cb>) AS ?c)
...                      BIND(urnfn:nid("URN:EXAMPLE:x") AS ?n) }'''
>>> [(str(c), str(n)) for c, n in Graph().query(q)]
[('urn:example:a%2Cb', 'example')]
"""

from __future__ import annotations

from collections.abc import Callable

from rdflib import Literal, Namespace, URIRef
from rdflib.plugins.sparql.operators import register_custom_function
from rdflib.plugins.sparql.sparql import SPARQLError
from rdflib.term import Node

from .._kernel import (
    URNFN_FUNCTIONS,
    URNFN_NAMESPACE,
    FunctionError,
    UrnfnArg,
    UrnfnFunction,
    UrnfnResult,
)

__all__ = ["URNFN", "register_functions"]

#: The namespace of urnld's SPARQL functions (prefix ``urnfn:``).
URNFN = Namespace(URNFN_NAMESPACE)


def _arg(term: Node) -> UrnfnArg:
    """What a function reads from a term: the lexical form of an IRI or literal, else None."""
    if isinstance(term, Literal):
        return UrnfnArg(str(term), literal=True)
    if isinstance(term, URIRef):
        return UrnfnArg(str(term), literal=False)
    return UrnfnArg(None, literal=False)


def _term(result: UrnfnResult, first: Node) -> Node:
    if result.kind == "boolean":
        return Literal(result.text == "true")
    if result.kind == "string":
        return Literal(result.text)
    if result.kind == "same" and isinstance(first, Literal):
        # canonical of a literal: a literal again, with the same datatype or language tag
        return Literal(result.text, lang=first.language, datatype=first.datatype)
    return URIRef(result.text)


def _adapter(function: UrnfnFunction) -> Callable[..., Node]:
    def call(*args: Node) -> Node:
        try:
            result = function.call([_arg(a) for a in args])
        except FunctionError as e:
            # SPARQLError is the evaluator's "expression error": BIND leaves the variable unbound.
            raise SPARQLError(str(e)) from None
        return _term(result, args[0])

    call.__name__ = call.__qualname__ = function.name
    call.__doc__ = f"``urnfn:{function.name}`` for rdflib's SPARQL engine."
    return call


# Made once: registering the same function objects again is a no-op (register_functions).
_ADAPTERS: dict[str, Callable[..., Node]] = {
    name: _adapter(function) for name, function in URNFN_FUNCTIONS.items()
}

# The rdflib callables by their Python names (what rdflib's registry holds).
is_valid = _ADAPTERS["isValid"]
canonical = _ADAPTERS["canonical"]
equivalent = _ADAPTERS["equivalent"]
nid = _ADAPTERS["nid"]
nss = _ADAPTERS["nss"]
findings = _ADAPTERS["findings"]
resolve = _ADAPTERS["resolve"]


def register_functions() -> None:
    """Register the ``urnfn:`` functions with rdflib's SPARQL engine. Safe to call repeatedly.

    rdflib refuses a second registration of an IRI unless ``override=True``; overriding with the
    same function object is a no-op, which makes this idempotent.

    >>> register_functions(); register_functions()
    >>> from rdflib import Graph
    >>> q = ('PREFIX urnfn: <https://w3id.org/urnld/fn#> SELECT ?l WHERE { '
    ...      'BIND(urnfn:resolve(<URN:IETF:RFC:2141>) AS ?l) }')
    >>> [str(row.l) for row in Graph().query(q)]
    ['https://www.rfc-editor.org/rfc/rfc2141']
    """
    for name, func in _ADAPTERS.items():
        register_custom_function(URNFN[name], func, override=True)
