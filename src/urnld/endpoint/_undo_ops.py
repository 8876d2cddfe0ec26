"""The undo of an in-place run: per canonical statement, what to delete and what to insert
back, blank nodes told apart by their other statements."""

from __future__ import annotations

from ._client import Endpoint, EndpointError
from ._profile import StoreProfile
from ._sparql import (
    _XSD_STRING,
    _Change,
    _constant,
    _data_op,
    _is_string,
    _not_spelling,
    _plain,
    _Quad,
    _Scope,
    _Term,
    _typed,
)

__all__ = ["_undo_ops"]

# -- undo ------------------------------------------------------------------------------------------
_TERM_COLUMNS = " ".join(
    f"({fn}(?{v}) AS ?{v}_{tag})"
    for v in "spog"
    for fn, tag in (("DATATYPE", "dt"), ("LANG", "lang"), ("isBlank", "b"), ("isLiteral", "l"))
)

# Virtuoso keeps "v" and "v"^^xsd:string apart; a plain one equals its STR(), a typed one does
# not. The undo puts each back in the form the store held it in.
_PLAIN_COLUMN = (f"((isLiteral(?o) && DATATYPE(?o) = <{_XSD_STRING}> && ?o = STR(?o)) "
                 "AS ?o_plain)")

# SPARQL CSV writes booleans as true/false; Virtuoso writes 1/0.
_TRUE = ("true", "1")


def _read_term(row: dict[str, str], var: str) -> _Term | None:
    value = row.get(var, "")
    if row.get(f"{var}_b") in _TRUE:
        return _Term("bnode", value)
    if row.get(f"{var}_l") in _TRUE:
        # asked, not guessed from DATATYPE: Virtuoso gives IRIs one too (xsd:anyURI)
        datatype = row.get(f"{var}_dt", "")
        if datatype == _XSD_STRING and row.get(f"{var}_plain") in _TRUE:
            datatype = ""  # Virtuoso holds it plain, apart from "v"^^xsd:string: undo so
        return _Term("literal", value, datatype, row.get(f"{var}_lang", ""))
    if not value:
        return None  # unbound: the default graph
    return _Term("iri", value)


def _undo_ops(
    endpoint: Endpoint, scope: _Scope, changes: list[_Change], *, keep_spellings: bool = False
) -> str:
    """The update that reverts this batch, read from the store just before the batch runs.

    Grouped per statement the batch will write (its *canonical statement*): every statement
    holding an old term is read with its graph, and the store says in the same query whether
    the statement it becomes is already there. The undo deletes a canonical statement only if
    it was not there before, and inserts back every original spelling that was there; a
    statement that was canonical already is neither read nor touched. Several spellings that
    merge into one statement (sharing a blank node too) come back together, from one
    operation.

    Blank nodes: on Virtuoso they have names that later requests can use (``nodeID://…``),
    so the undo is ground. Elsewhere the standard gives none, and a statement with a blank
    node is reverted by pattern (its blank nodes as variables).
    """
    mapping = {c.old: c.new for c in changes}
    groups: dict[_Quad, tuple[bool, list[_Quad]]] = {}
    # Virtuoso compiles a query to SQL of at most 10,000 lines: there the statements are
    # looked for a slice of the batch's terms at a time (each still mapped with all of them,
    # so a statement holding terms of two slices is read as the batch will write it).
    step = max(1, scope.profile.find_terms or len(changes))
    for i in range(0, len(changes), step):
        _find(endpoint, scope, (changes[i:i + step], changes), mapping, groups,
              keep_spellings=keep_spellings)
    if scope.profile.find_terms is not None:
        there = _existing(endpoint, list(groups), scope.profile.find_terms)
        groups = {new: (new in there, olds) for new, (_e, olds) in groups.items()}
    olds = " ".join(k for c in changes for k in scope.constants(c.old))
    stars: dict[str, list[_Quad]] = {}
    if not scope.profile.named_bnodes:
        blank = {t.value for new in groups for t in new if t is not None and t.kind == "bnode"}
        if blank:
            stars = _stars(endpoint, scope, olds, blank, mapping)
    return " ;\n".join(_revert(groups, scope.profile, stars=stars))


def _find(endpoint: Endpoint, scope: _Scope, part: tuple[list[_Change], list[_Change]],
          mapping: dict[_Term, _Term], groups: dict[_Quad, tuple[bool, list[_Quad]]], *,
          keep_spellings: bool) -> None:
    """Add to ``groups`` the statements holding an old term of ``part[0]`` (a slice of the
    batch ``part[1]``), each under the statement the batch makes of it, with whether that one
    is there already (on Virtuoso: False here, asked by :func:`_existing` afterwards)."""
    chunk, changes = part
    olds = " ".join(k for c in chunk for k in scope.constants(c.old))
    iri_olds = " ".join(c.old.sparql() for c in chunk if c.old.kind == "iri")
    iri_rows = " ".join(r for c in changes if c.old.kind == "iri"
                        for r in scope.pairs(c.old, c.new))
    all_rows = " ".join(r for c in changes for r in scope.pairs(c.old, c.new))
    keep = " " + _not_spelling("?f") if keep_spellings else ""
    plain = scope.plain_rows(changes)
    plain_olds = " ".join(_typed(c.old) for c in chunk if _is_string(c.old))
    # A store of bounded query size (the profile's find_terms, Virtuoso): compact queries.
    compact = scope.profile.find_terms is not None
    for t, w in scope.parts():
        named = t is not _plain
        branches = []
        for pos in ("?s", "?p", "?o"):
            pattern = "?s ?p ?o".replace(pos, "?f")
            only = keep if pos == "?o" else ""
            if compact:
                # Each branch its own VALUES, IRIs only in a subject or predicate: given a
                # literal ?f there, Virtuoso may fail the whole query ("SR066: Unsupported
                # case in CONVERT (incomplete RDF box -> IRI_ID)").
                values = olds if pos == "?o" else iri_olds
                if values:
                    branches.append(f"{{ VALUES ?f {{ {values} }} {w(pattern)}{only} "
                                    f"BIND(?f AS {pos}) }}")
                continue
            branches.append(f"{{ {w(pattern)}{only} BIND(?f AS {pos}) }}")
        rename_graphs = named and scope.all_graphs
        if rename_graphs and iri_olds:
            # Its own VALUES of IRIs only: Virtuoso, given a literal ?f here, matched
            # statements of every graph (its schema graph's too).
            branches.append(f"{{ VALUES ?f {{ {iri_olds} }} GRAPH ?f {{ ?s ?p ?o }} "
                            "BIND(?f AS ?g) }")
        if compact:
            found = f"{{ {' UNION '.join(branches)} }}"
        else:
            found = f"{{ VALUES ?f {{ {olds} }} {' UNION '.join(branches)} }}"
        maps = [f"OPTIONAL {{ VALUES (?s ?ms) {{ {iri_rows} }} }}" if iri_rows else "",
                f"OPTIONAL {{ VALUES (?p ?mp) {{ {iri_rows} }} }}" if iri_rows else "",
                f"OPTIONAL {{ VALUES (?o ?mo) {{ {all_rows} }} }}"]
        news = ["BIND(COALESCE(?ms, ?s) AS ?ns)", "BIND(COALESCE(?mp, ?p) AS ?np)",
                "BIND(COALESCE(?mo, ?mq, ?o) AS ?no)"]
        if plain:  # Virtuoso's plain string literals (see _Scope.constants)
            found = (f"{{ {found} UNION {{ VALUES ?fs {{ {plain_olds} }} BIND(STR(?fs) AS ?f) "
                     f"{w('?s ?p ?f')}{keep} BIND(?f AS ?o) }} }}")
            maps.append(f"OPTIONAL {{ VALUES (?qs ?qt) {{ {plain} }} "
                        "BIND(STR(?qs) AS ?o) BIND(STR(?qt) AS ?mq) }")
        if scope.graph is not None:
            graph_bind = f"BIND({_Term('iri', scope.graph).sparql()} AS ?g)"
            there = t("?ns ?np ?no")
        elif named:
            graph_bind = ""
            if rename_graphs and iri_rows:
                maps.append(f"OPTIONAL {{ VALUES (?g ?mg) {{ {iri_rows} }} }}")
            news.append("BIND(COALESCE(?mg, ?g) AS ?ng)")
            there = "GRAPH ?ng { ?ns ?np ?no }"
        else:
            graph_bind = ""
            there = "?ns ?np ?no"
        if compact:
            # The statements only: with the batch's whole mapping in it the query exceeds
            # Virtuoso's 10,000 lines of SQL; the batch's statements are mapped here, and
            # _existing asks which of them the store holds.
            query = (f"SELECT DISTINCT ?s ?p ?o ?g {_TERM_COLUMNS} {_PLAIN_COLUMN} WHERE {{ "
                     f"{found} {graph_bind} }}")
        else:
            query = (
                f"SELECT DISTINCT ?s ?p ?o ?g ?e {_TERM_COLUMNS} WHERE {{ "
                f"{found} {graph_bind} "
                + " ".join(maps) + " " + " ".join(news)
                + f" OPTIONAL {{ {there} BIND(1 AS ?e) }} }}"
            )
        for row in endpoint.select(query):
            s, p, o, g = (_read_term(row, v) for v in "spog")
            if s is None or p is None or o is None:
                raise EndpointError(f"{endpoint.url}: incomplete statement in results: {row!r}")
            old: _Quad = (s, p, o, g)
            new_g = _mapped(mapping, g) if g is not None and rename_graphs else g
            new: _Quad = (_mapped(mapping, s), _mapped(mapping, p), _mapped(mapping, o), new_g)
            groups.setdefault(new, (row.get("e", "") in _TRUE, []))[1].append(old)


def _same_term(t: _Term) -> _Term:
    """``t`` as RDF 1.1 reads it: ``"v"`` and ``"v"^^xsd:string`` one term (Virtuoso answers
    with either), a language-tagged literal by its tag alone."""
    if t.kind != "literal":
        return t
    if t.lang:
        return t._replace(datatype="")
    return t._replace(datatype="") if t.datatype == _XSD_STRING else t


def _mapped(mapping: dict[_Term, _Term], t: _Term) -> _Term:
    found = mapping.get(t) or mapping.get(_same_term(t))
    if found is None and t.kind == "literal" and not t.lang and not t.datatype:
        # Held plain on Virtuoso, listed under the xsd:string its DATATYPE() answers.
        found = mapping.get(t._replace(datatype=_XSD_STRING))
    return found or t


def _existing(endpoint: Endpoint, quads: list[_Quad], step: int) -> set[_Quad]:
    """Which of ``quads`` (ground, each in a named graph: Virtuoso's) the store holds.

    Asked by subject, predicate and graph, the objects compared here as RDF 1.1 terms: a
    literal constant does not always match on Virtuoso (openlink/virtuoso-opensource #633,
    #247), and a blank node is its ``nodeID://`` name, which Virtuoso's queries accept."""
    wanted: dict[tuple[str, str, str], set[_Term]] = {}
    for s, p, o, g in quads:
        if g is not None:
            wanted.setdefault((_constant(s), _constant(p), _constant(g)), set()).add(
                _same_term(o))
    keys = list(wanted)
    held: set[tuple[tuple[str, str, str], _Term]] = set()
    for i in range(0, len(keys), step):
        part = keys[i:i + step]
        rows = " ".join(f"({k} {' '.join(key)})" for k, key in enumerate(part))
        query = (
            "SELECT DISTINCT ?i ?o (DATATYPE(?o) AS ?o_dt) (LANG(?o) AS ?o_lang) "
            "(isBlank(?o) AS ?o_b) (isLiteral(?o) AS ?o_l) WHERE { "
            f"VALUES (?i ?s ?p ?g) {{ {rows} }} GRAPH ?g {{ ?s ?p ?o }} }}"
        )
        for row in endpoint.select(query):
            found = _read_term(row, "o")
            try:
                key = part[int(row.get("i", ""))]
            except (ValueError, IndexError) as e:
                raise EndpointError(f"{endpoint.url}: unexpected results: {row!r}") from e
            if found is not None:
                held.add((key, _same_term(found)))
    return {q for q in quads if q[3] is not None
            and ((_constant(q[0]), _constant(q[1]), _constant(q[3])), _same_term(q[2])) in held}


# A blank node's place in a statement of its neighbourhood (see _stars).
_BLANK = _Term("bnode", "")


def _stars(endpoint: Endpoint, scope: _Scope, olds: str, wanted: set[str],
           mapping: dict[_Term, _Term]) -> dict[str, list[_Quad]]:
    """The other statements of the blank nodes in the batch's statements that the batch does
    not change (so they read the same when its undo runs): ``(node, p, o, g)`` for
    ``node p o`` and ``(o, p, node, g)`` for the reverse, with the node as :data:`_BLANK`.
    Read by blank-node label, which a store keeps from one query to the next (Oxigraph does);
    where it does not, nothing is found and the undo stays a pattern."""
    anchors = [f"{{ {w(pattern)} }}" for w in scope.wrappers()
               for pattern in ("?f ?p ?b", "?b ?f ?o", "?b ?p ?f", "?s ?f ?b")]
    query = (
        "SELECT DISTINCT ?b ?x ?y ?h ?in (isBlank(?b) AS ?b_b) (isBlank(?y) AS ?y_b) "
        "(DATATYPE(?y) AS ?y_dt) (LANG(?y) AS ?y_lang) (isLiteral(?y) AS ?y_l) WHERE { "
        f"{{ VALUES ?f {{ {olds} }} {' UNION '.join(anchors)} }} FILTER(isBlank(?b)) "
        "{ { ?b ?x ?y } UNION { GRAPH ?h { ?b ?x ?y } } BIND(0 AS ?in) } UNION "
        "{ { ?y ?x ?b } UNION { GRAPH ?h { ?y ?x ?b } } BIND(1 AS ?in) } }"
    )
    out: dict[str, list[_Quad]] = {}
    for row in endpoint.select(query):
        b, y = row.get("b", ""), _read_term(row, "y")
        if b not in wanted or y is None or y.kind == "bnode":
            continue  # another blank node: no constant to match it by
        x, h = _Term("iri", row.get("x", "")), _read_term(row, "h")
        if x in mapping or y in mapping or h in mapping:
            continue  # reverted by the same undo block, in an order not known here
        star: _Quad = (_BLANK, x, y, h) if row.get("in") == "0" else (y, x, _BLANK, h)
        out.setdefault(b, []).append(star)
    return out


def _revert(groups: dict[_Quad, tuple[bool, list[_Quad]]], profile: StoreProfile, *,
            stars: dict[str, list[_Quad]] | None = None) -> list[str]:
    named_bnodes = profile.named_bnodes
    deletes: list[_Quad] = []
    inserts: list[_Quad] = []
    patterns: list[str] = []
    for new, (existed, olds) in sorted(groups.items(), key=lambda kv: repr(kv[0])):
        if named_bnodes or not any(t is not None and t.kind == "bnode" for t in new):
            if not existed:
                deletes.append(new)
            inserts.extend(olds)
        else:
            patterns.append(_bnode_undo(new, olds, existed, stars or {}))
    ops = []
    for verb, quads in (("DELETE", deletes), ("INSERT", inserts)):
        if quads:
            unique = sorted(set(quads), key=repr)
            ops.append(_data_op(verb, unique, profile))
    return ops + patterns


def _bnode_undo(new: _Quad, olds: list[_Quad], existed: bool,
                stars: dict[str, list[_Quad]]) -> str:
    labels: dict[str, str] = {}

    def spell(t: _Term) -> str:
        if t.kind != "bnode":
            return t.sparql()
        if t.value not in labels:
            labels[t.value] = f"?b{len(labels)}"
        return labels[t.value]

    def quad(q: _Quad) -> str:
        body = " ".join(spell(t) for t in q[:3] if t is not None) + " ."
        return f"GRAPH {q[3].sparql()} {{ {body} }}" if q[3] is not None else body

    new_body = quad(new)
    old_bodies = " ".join(sorted({quad(o) for o in olds}))
    # The pattern alone would match every blank node in that place: the one meant is told
    # apart by its other statements, and each operation takes one match (LIMIT 1), so
    # spellings that blank nodes with the same statements had come back one per node.
    context = []
    for label, var in list(labels.items()):
        for star in stars.get(label, ()):
            body = " ".join(var if t is _BLANK else t.sparql() for t in star[:3]
                            if t is not None) + " ."
            context.append(f"GRAPH {star[3].sparql()} {{ {body} }}" if star[3] is not None
                           else body)
    new_body_where = " ".join([new_body, *sorted(set(context))])
    blank = " && ".join(f"isBlank({v})" for v in labels.values())
    delete = "" if existed else f"DELETE {{ {new_body} }} "
    names = " ".join(labels.values())
    return (f"{delete}INSERT {{ {old_bodies} }} WHERE {{ {{ SELECT {names} WHERE {{ "
            f"{new_body_where} FILTER({blank}) }} LIMIT 1 }} }}")

