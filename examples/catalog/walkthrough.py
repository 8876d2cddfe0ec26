"""Walkthrough: check → canonicalize → query a small library catalog with messy URNs.

Run from anywhere:

    python examples/catalog/walkthrough.py

The same steps on the command line:

    urnld check examples/catalog/catalog.ttl                 # exit 1: there are invalid URNs
    urnld canonicalize examples/catalog/catalog.ttl --literals -o catalog.canonical.ttl \\
          --report report.json
    urnld canonicalize examples/catalog/catalog.ttl --rdfc -o catalog.nq   # RDFC-1.0 N-Quads
"""

from __future__ import annotations

from pathlib import Path

from rdflib import Graph

from urnld.rdf import canonicalize, digest
from urnld.report import CheckReport
from urnld.stream import check_lines

HERE = Path(__file__).resolve().parent
CATALOG = HERE / "catalog.ttl"

TITLE_QUERY = """
PREFIX dct: <http://purl.org/dc/terms/>
SELECT ?title ?p ?o WHERE {
    <%s> dct:title ?title ; ?p ?o .
} ORDER BY ?p ?o
"""

CITED_QUERY = """
PREFIX dct: <http://purl.org/dc/terms/>
SELECT ?paper WHERE { ?paper dct:references <%s> } ORDER BY ?paper
"""


def main() -> None:
    # bind_namespaces="core": keep the file's own prefixes (schema:, not rdflib's schema1:).
    messy = Graph(bind_namespaces="core").parse(CATALOG, format="turtle")
    print(f"1. Loaded {CATALOG.name}: {len(messy)} statements.\n")

    # -- 1. check: what is wrong with the identifiers? ------------------------------------------
    report = CheckReport()
    check_lines(messy.serialize(format="nt", encoding="utf-8").splitlines(keepends=True),
                source=CATALOG.name, report=report)
    print("2. Check")
    print(f"   invalid URNs: {len(report.invalid)}")
    for spelling, (count, finding) in report.invalid.items():
        print(f"     {spelling:28} {finding.split(':', 1)[0]} ({count} statement(s))")
    print(f"   URNs written several ways (separate nodes today): {len(report.clusters)}")
    for canonical, spellings in list(report.clusters.items())[:3]:
        print(f"     {canonical}: {', '.join(sorted(spellings))}")
    print()

    # -- 2. the problem: RDF compares IRIs as strings -------------------------------------------
    spelling = "URN:ISBN:978-0-14-143951-8"
    rows = list(messy.query(TITLE_QUERY % spelling))
    print(f"3. Before: properties of <{spelling}>: {len(rows)} rows "
          "(the statements made with other spellings are missed)")
    cited = [str(r[0]) for r in messy.query(CITED_QUERY % "urn:isbn:9780141439518")]
    print(f"   papers citing <urn:isbn:9780141439518>: {cited}\n")

    # -- 3. canonicalize ------------------------------------------------------------------------
    result = canonicalize(messy, literals=True)
    canon = result.graph
    r = result.report
    print("4. Canonicalize")
    print(f"   statements: {r.statements_in} in, {r.statements_out} out "
          f"({r.duplicates_merged} duplicates merged)")
    print(f"   URN occurrences rewritten: {r.rewritten} of {r.urn_occurrences}; "
          f"invalid left as they were: {sorted(r.invalid)}\n")

    # -- 4. query the canonical graph -----------------------------------------------------------
    rows = list(canon.query(TITLE_QUERY % "urn:isbn:9780141439518"))
    print(f"5. After: properties of <urn:isbn:9780141439518>: {len(rows)} rows")
    for title, p, o in rows:
        print(f"     {title}  {p.n3(canon.namespace_manager)}  {o.n3(canon.namespace_manager)}")
    cited = [str(r[0]) for r in canon.query(CITED_QUERY % "urn:isbn:9780141439518")]
    print(f"   papers citing it: {cited}\n")

    # -- 5. the URN-aware store: any spelling finds the book, no rewrite needed -----------------
    try:
        store_graph = Graph(store="URN").parse(CATALOG, format="turtle")
    except Exception as e:  # the store plugin is a separate part of urnld (rdflib entry point)
        print(f"6. Graph(store='URN') not available here: {e}\n")
    else:
        rows = list(store_graph.query(TITLE_QUERY % spelling))
        print(f"6. Graph(store='URN'): <{spelling}> finds {len(rows)} rows directly "
              "(the store canonicalizes IRIs; the two dct:identifier literals stay two)\n")

    # -- 6. a digest that ignores URN spelling and blank-node labels ----------------------------
    print("7. RDFC-1.0 digest (same for the messy and the canonical catalog):")
    print(f"   messy:     {digest(messy, literals=True)}")
    print(f"   canonical: {digest(canon)}")


if __name__ == "__main__":
    main()
