"""The SPARQL of the in-place runs: terms, scopes (which graphs), and the query and update
text, with each store's quirks where the standard leaves room."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Iterator
from typing import NamedTuple

from .._kernel import SPELLING
from ..errors import URNError
from ._client import Endpoint, EndpointError, ResultCapError
from ._profile import STANDARD, StoreProfile

__all__ = ["DEFAULT_BATCH"]

#: Default statement-occurrences rewritten per SPARQL Update request.
DEFAULT_BATCH = 10_000

_XSD = "http://www.w3.org/2001/XMLSchema#"
_XSD_STRING = _XSD + "string"
_XSD_ANYURI = _XSD + "anyURI"
# Distinct terms judged before their counts go into the report (one aggregation per batch).
_REPORT_BATCH = 10_000


class _Term(NamedTuple):
    """An RDF term as read from CSV results: ``kind`` is ``iri``, ``literal`` or ``bnode``."""

    kind: str
    value: str
    datatype: str = ""
    lang: str = ""

    def sparql(self) -> str:
        if self.kind == "iri":
            return f"<{_escape_iri(self.value)}>"
        if self.kind == "literal":
            body = '"' + _escape_string(self.value) + '"'
            if self.lang:
                return f"{body}@{self.lang}"
            if self.datatype and self.datatype != _XSD_STRING:
                return f"{body}^^<{_escape_iri(self.datatype)}>"
            return body
        raise ValueError("blank nodes have no SPARQL constant")  # callers use variables


def _escape_iri(iri: str) -> str:
    # IRIREF excludes these characters; \u escapes are decoded by SPARQL before parsing.
    return "".join(
        f"\\u{ord(c):04X}" if c in '<>"{}|^`\\' or ord(c) <= 0x20 else c for c in iri
    )


def _escape_string(text: str) -> str:
    return (
        text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\r", "\\r")
    )


# -- scope and query text -----------------------------------------------------------------------
# Virtuoso's own schema graph: part of every Virtuoso store, never data to rewrite or count.
_VIRTRDF = "http://www.openlinksw.com/schemas/virtrdf#"


def _graph_var(body: str) -> str:
    return f"GRAPH ?g {{ {body} }}"


def _plain(body: str) -> str:
    return body


@dataclasses.dataclass(frozen=True, slots=True)
class _Scope:
    """Which graphs a run reads and writes: the default graph, one named graph, or all; and
    the store's :class:`~._profile.StoreProfile` (how it spells them).

    On a store whose default graph is the union of the named graphs (``default_graph ==
    "union"``, Virtuoso: it cannot be written without naming a graph,
    openlink/virtuoso-opensource #215, ``SP031: No plain default graph specified in the
    preamble``) the default graph and all graphs are read and rewritten graph by graph
    (``GRAPH ?g``): each statement keeps its graph, and the union is not counted a second time
    beside the graphs it is made of.
    """

    graph: str | None = None
    all_graphs: bool = False
    profile: StoreProfile = STANDARD

    @property
    def union_default(self) -> bool:
        return self.profile.union_default

    def parts(self) -> list[tuple[Callable[[str], str], Callable[[str], str]]]:
        """Per part of the scope: the template wrapper (``DELETE``/``INSERT``) and the pattern
        wrapper (``WHERE``) of ``?s ?p ?o``."""
        if self.graph is not None:
            g = _Term("iri", self.graph).sparql()

            def one(body: str) -> str:
                return f"GRAPH {g} {{ {body} }}"
            return [(one, one)]
        if self.union_default:
            def where(body: str) -> str:
                return f"GRAPH ?g {{ {body} }} FILTER(?g != <{_VIRTRDF}>)"
            return [(_graph_var, where)]
        if self.all_graphs:
            return [(_plain, _plain), (_graph_var, _graph_var)]
        return [(_plain, _plain)]

    def wrappers(self) -> list[Callable[[str], str]]:
        """One pattern wrapper per part of the scope (``W("?s ?p ?o")`` → a graph pattern)."""
        return [where for _template, where in self.parts()]

    def count_query(self) -> str:
        parts = [f"{{ {w('?s ?p ?o')} }}" for w in self.wrappers()]
        return "SELECT (COUNT(*) AS ?n) WHERE { " + " UNION ".join(parts) + " }"

    def target(self) -> Callable[[str], str]:
        """Where added statements go: the named graph of a one-graph run, else the default
        graph (with ``all_graphs`` too: the file paths add them to the default graph of a
        dataset, where statements about the resources themselves belong)."""
        if self.graph is not None:
            return self.parts()[0][0]
        if self.union_default:
            raise URNError(
                f"this store ({self.profile.name.capitalize()}) has no default graph to add "
                "statements to: give --graph"
            )
        return _plain

    def constants(self, term: _Term) -> list[str]:
        """The SPARQL constants that match ``term`` in the store.

        On Virtuoso a string literal is written typed (``"v"^^xsd:string``): a plain ``"v"`` in
        an update that also holds the IRI ``<v>`` is taken for that IRI (seen on 7.2.5: a
        rewrite turned the literal ``"URN:X"`` into the IRI ``<urn:x>``). The typed constant
        matches only the typed spelling there, since Virtuoso keeps ``"v"`` and
        ``"v"^^xsd:string`` apart although RDF 1.1 makes them one term
        (openlink/virtuoso-opensource #633, #247); :meth:`plain_rows` reaches the other.
        """
        if self.profile.typed_strings and _is_string(term):
            return [_typed(term)]
        return [term.sparql()]

    def pairs(self, old: _Term, new: _Term) -> list[str]:
        """VALUES rows ``(old new)``."""
        return [f"({o} {n})" for o, n in zip(self.constants(old), self.constants(new),
                                            strict=True)]

    def plain_rows(self, changes: Iterable[_Change]) -> str:
        """With typed strings (Virtuoso), VALUES rows ``(?fs ?ts)`` of typed string constants
        whose ``STR()`` is the plain spelling of the old and new literal (``""`` elsewhere,
        or without any)."""
        if not self.profile.typed_strings:
            return ""
        return " ".join(f"({_typed(c.old)} {_typed(c.new)})" for c in changes
                        if _is_string(c.old))


def _is_string(term: _Term) -> bool:
    return term.kind == "literal" and not term.lang and term.datatype in ("", _XSD_STRING)


def _typed_like(term: _Term) -> str:
    """A literal's constant with its datatype written out (xsd:string too)."""
    return _typed(term) if _is_string(term) else term.sparql()


def _typed(term: _Term) -> str:
    return f'"{_escape_string(term.value)}"^^<{_XSD_STRING}>'


def _data_op(verb: str, quads: list[_Quad], profile: StoreProfile) -> str:
    """``INSERT DATA`` / ``DELETE DATA`` of ``quads``, or what a store of typed strings
    (Virtuoso) needs instead, in operations of at most ``profile.op_quads`` statements.

    Typed strings: a plain string literal is inserted as ``STR("v"^^xsd:string)`` (a plain constant
    may be taken for the IRI of the same text, see :meth:`_Scope.constants`), a typed one
    (``datatype`` xsd:string, as the store returned it) typed, since Virtuoso keeps the two
    apart, and a statement
    with a literal object is deleted through a variable read from the store, matched by its
    text, datatype and language: a constant literal in a ``DELETE`` is not always deleted
    (openlink/virtuoso-opensource #379, #633, #247, #335). A blank node is its ``nodeID://``
    name there.
    """
    # Virtuoso compiles each operation to SQL of at most 10,000 lines ("SP031: … The length of
    # generated SQL text has exceeded 10000 lines of code"); one BIND or UNION branch per
    # literal makes a few hundred too many: the statements go in operations of a few dozen.
    step = profile.op_quads
    if step is not None and len(quads) > step:
        return " ;\n".join(_data_op(verb, quads[i:i + step], profile)
                            for i in range(0, len(quads), step))
    if not profile.typed_strings:
        return f"{verb} DATA {{ " + " ".join(_quad_text(q, _constant) for q in quads) + " }"
    if verb == "INSERT":
        binds: dict[str, str] = {}

        def spell(t: _Term) -> str:
            if not _is_string(t):
                return _constant(t)
            if t.datatype == _XSD_STRING:
                return _typed(t)  # held typed (read so from the store): typed, a literal there
            return binds.setdefault(_typed(t), f"?l{len(binds)}")
        body = " ".join(_quad_text(q, spell) for q in quads)
        if not binds:
            return f"INSERT DATA {{ {body} }}"
        where = " ".join(f"BIND(STR({k}) AS {v})" for k, v in binds.items())
        return f"INSERT {{ {body} }} WHERE {{ {where} }}"
    ops = []
    ground = [q for q in quads if q[2].kind != "literal"]
    if ground:
        ops.append("DELETE DATA { " + " ".join(_quad_text(q, _constant) for q in ground) + " }")
    templates, branches = [], []
    for i, q in enumerate(q for q in quads if q[2].kind == "literal"):
        var, o = f"?o{i}", q[2]
        test = [f"isLiteral({var})", f"STR({var}) = STR({_typed(o)})"]
        if o.lang:
            test.append(f'LANG({var}) = "{_escape_string(o.lang)}"')
        else:
            test.append(f"DATATYPE({var}) = <{_escape_iri(o.datatype or _XSD_STRING)}>")
        pattern = _quad_text((q[0], q[1], _Term("var", var), q[3]), _constant)
        templates.append(pattern)
        branches.append(f"{{ {pattern} FILTER({' && '.join(test)}) }}")
    if templates:
        ops.append(f"DELETE {{ {' '.join(templates)} }} WHERE {{ {' UNION '.join(branches)} }}")
    return " ;\n".join(ops)


def _constant(t: _Term) -> str:
    if t.kind == "var":
        return t.value
    # A Virtuoso blank node read back is nodeID://…, a name its DATA operations accept for
    # the same node (its INSERT DATA refuses _:labels: "SP031: Blank node … is not allowed
    # in a constant clause"); elsewhere no blank node reaches a DATA operation.
    return f"<{_escape_iri(t.value)}>" if t.kind == "bnode" else t.sparql()


def _quad_text(q: _Quad, spell: Callable[[_Term], str]) -> str:
    body = " ".join(spell(t) for t in q[:3] if t is not None) + " ."
    return f"GRAPH {spell(q[3])} {{ {body} }}" if q[3] is not None else body


_Quad = tuple["_Term", "_Term", "_Term", "_Term | None"]


def _not_spelling(var: str) -> str:
    """Leave the literal object of a ``urnld:spelling`` statement alone (whenever literals are
    looked at): it records a spelling as the data said it, and rewriting it would make a later
    run change what an earlier ``keep_spellings`` run wrote."""
    return f"FILTER(!isLiteral({var}) || !sameTerm(?p, <{SPELLING}>))"


def _urn_filter(var: str, *, literals: bool, heads: tuple[str, ...] = ()) -> str:
    test = f'STRSTARTS(LCASE(STR({var})), "urn:")'
    if heads:
        # The locator modes: IRIs that start like a resolver's address (lower-case heads of
        # the resolver table, without '"' or '\\') are read too; literals only as URNs.
        iri_test = " || ".join(
            [test, *(f'STRSTARTS(LCASE(STR({var})), "{h}")' for h in heads)]
        )
        if not literals:
            return f"FILTER(isIRI({var}) && ({iri_test}))"
        return (
            f"FILTER((isIRI({var}) && ({iri_test})) || (isLiteral({var}) && "
            f"(DATATYPE({var}) = <{_XSD_STRING}> || DATATYPE({var}) = <{_XSD_ANYURI}>) && "
            f"{test}))"
        )
    if literals:
        kinds = (
            f"(isIRI({var}) || (isLiteral({var}) && (DATATYPE({var}) = <{_XSD_STRING}> "
            f"|| DATATYPE({var}) = <{_XSD_ANYURI}>)))"
        )
    else:
        kinds = f"isIRI({var})"
    return f"FILTER({kinds} && {test})"


def _occurrence_patterns(
    scope: _Scope, *, literals: bool, keep_spellings: bool = False, heads: tuple[str, ...] = ()
) -> str:
    """A pattern binding ``?x`` once per statement it occurs in (in any position).

    Each branch matches one position; the ``sameTerm`` filters drop a statement from the later
    branches when the same term already matched in an earlier position, so ``COUNT(*)`` per
    ``?x`` counts statements, as the file reports do.
    """
    iri = _urn_filter("?x", literals=False, heads=heads)
    any_term = _urn_filter("?x", literals=literals, heads=heads)
    if literals and keep_spellings:
        any_term += " " + _not_spelling("?x")
    branches = []
    for w in scope.wrappers():
        branches += [
            f"{{ {w('?x ?p ?o')} {iri} }}",
            f"{{ {w('?s ?x ?o')} {iri} FILTER(!sameTerm(?s, ?x)) }}",
            f"{{ {w('?s ?p ?x')} {any_term} FILTER(!sameTerm(?s, ?x) && !sameTerm(?p, ?x)) }}",
        ]
    if scope.all_graphs:
        branches.append(
            f"{{ GRAPH ?x {{ ?s ?p ?o }} {iri} "
            "FILTER(!sameTerm(?x, ?s) && !sameTerm(?x, ?p) && !sameTerm(?x, ?o)) }"
        )
    return " UNION ".join(branches)


def term_count_query(
    scope: _Scope, *, literals: bool, keep_spellings: bool = False, heads: tuple[str, ...] = ()
) -> str:
    """The aggregate query listing each URN-looking term with its statement count.

    Virtuoso may put terms of the same text in one group of ``GROUP BY ?x`` (seen on 7.2.5:
    ``<urn:a:b>`` and ``"urn:a:b"``, or ``"urn:a:b"`` and ``"urn:a:b"^^xsd:anyURI``, counted as
    one term), so there the datatype (``""`` for an IRI) is a grouping key too.
    """
    patterns = _occurrence_patterns(scope, literals=literals, keep_spellings=keep_spellings,
                                    heads=heads)
    if scope.profile.typed_strings and literals:
        return (
            "SELECT ?x (COUNT(*) AS ?n) ?dt WHERE { "
            f"{{ {patterns} }} BIND(COALESCE(STR(DATATYPE(?x)), \"\") AS ?dt) }} GROUP BY ?x ?dt"
        )
    return (
        "SELECT ?x (COUNT(*) AS ?n) (DATATYPE(?x) AS ?dt) WHERE { " + patterns + " } GROUP BY ?x"
    )


def occurrence_count_query(scope: _Scope, *, literals: bool) -> str:
    """``SELECT (COUNT(*) …)`` over the same patterns (the benchmark's baseline)."""
    return (
        "SELECT (COUNT(*) AS ?n) WHERE { " + _occurrence_patterns(scope, literals=literals) + " }"
    )


def _terms(
    endpoint: Endpoint, scope: _Scope, *, literals: bool, page_size: int | None,
    keep_spellings: bool = False, heads: tuple[str, ...] = (),
) -> Iterator[tuple[_Term, int]]:
    for x, count, dt in _term_rows(endpoint, scope, literals=literals, page_size=page_size,
                                   keep_spellings=keep_spellings, heads=heads):
        yield (_Term("literal", x, dt) if dt else _Term("iri", x)), count


def _term_rows(
    endpoint: Endpoint, scope: _Scope, *, literals: bool, page_size: int | None,
    keep_spellings: bool = False, heads: tuple[str, ...] = (),
) -> Iterator[tuple[str, int, str]]:
    """Each distinct URN term once: its value, its statement count and its datatype (``""``
    for an IRI), page by page; :func:`_terms` as plain tuples, for the check's million rows.

    A store that cuts a result at its row cap and says so (:class:`ResultCapError`, Virtuoso's
    ``ResultSetMaxRows``) is read again in ordered pages of at most that many rows; the cut
    result is dropped before any of its rows is used.
    """
    query = term_count_query(scope, literals=literals, keep_spellings=keep_spellings,
                             heads=heads)
    if page_size is None:
        try:
            yield from _read_terms(endpoint, query)
            return
        except ResultCapError as e:
            if e.cap < 1:
                raise
            page_size = e.cap
    offset = 0
    while True:  # ends at the first short page: the term list is finite
        if scope.profile.sort_in_subquery:
            # Virtuoso sorts at most MaxSortedTopRows for ORDER BY … OFFSET (SR353), except in
            # a subquery ("scrollable cursor"), which keeps the order for the outer slice.
            page = (f"SELECT * WHERE {{ {{ {query} ORDER BY ?x }} }} "
                    f"LIMIT {page_size} OFFSET {offset}")
        else:
            page = f"{query} ORDER BY ?x LIMIT {page_size} OFFSET {offset}"
        try:
            n = 0
            for row in _read_terms(endpoint, page, limit=page_size):
                n += 1
                yield row
        except ResultCapError as e:
            if n or e.cap < 1 or e.cap >= page_size:
                raise
            page_size = e.cap  # a page larger than the store's cap: smaller pages
            continue
        if n < page_size:
            return
        offset += n


def _read_terms(endpoint: Endpoint, query: str,
                limit: int | None = None) -> Iterator[tuple[str, int, str]]:
    for x, count, dt in endpoint.select_columns(query, ("x", "n", "dt"), limit=limit):
        try:
            yield x, int(count), dt
        except ValueError as e:
            raise EndpointError(
                f"{endpoint.url}: unexpected results (a count of {count!r})"
            ) from e


def _check_scope(endpoint: Endpoint, scope: _Scope) -> int:
    """Count the statements in scope; a named graph that holds none is an error."""
    if scope.graph is not None:
        g = _Term("iri", scope.graph).sparql()
        if not endpoint.holds(f"{{ GRAPH {g} {{ ?s ?p ?o }} }}"):
            raise URNError(f"graph {g} does not exist or is empty at {endpoint.url}")
    return endpoint.count(scope.count_query())


def _for_store(scope: _Scope, endpoint: Endpoint) -> _Scope:
    """The scope as this store needs it spelled (its profile, chosen once per endpoint)."""
    return dataclasses.replace(scope, profile=endpoint.profile)


def _validate_graph(graph: str | None, all_graphs: bool) -> _Scope:
    if graph is not None and all_graphs:
        raise URNError("give a graph IRI or all graphs, not both")
    if graph is not None and (not graph or any(c in graph for c in '<>"{}|^`\\ \n')):
        raise URNError(f"not a usable graph IRI: {graph!r}")
    return _Scope(graph, all_graphs)

class _Change(NamedTuple):
    old: _Term
    new: _Term
    n: int  # statement-occurrences
