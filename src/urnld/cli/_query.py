"""``urnld query --endpoint URL QUERY|-``: run a SPARQL query with its URNs in canonical form.

The query's URN constants are rewritten by :func:`urnld.rdf.canonical_query` first, so a query
written with any spelling finds the data in a canonicalized store. SELECT results print as a
table (default), CSV (``--csv``) or SPARQL JSON (``--json``); ASK prints ``true``/``false``;
CONSTRUCT and DESCRIBE print N-Triples. Exit 0 on success, 2 on errors.
"""

from __future__ import annotations

import argparse
import csv
import json
import re
import sys

from ..errors import URNError

HELP = "run a SPARQL query on an endpoint, its URNs rewritten to canonical form"
EXIT_CODES = "exit status: 0 answered, 2 endpoint failure, bad query or usage error"

# The query form is the first keyword after the prologue (PREFIX/BASE declarations, comments).
_PROLOGUE = re.compile(
    r"(?:\s|#[^\n\r]*|(?i:BASE)\s*<[^>]*>|(?i:PREFIX)\s+[^\s:]*:\s*<[^>]*>)*"
)
_FORM = re.compile(r"(?i)(SELECT|ASK|CONSTRUCT|DESCRIBE)\b")


def configure(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Run a SPARQL query on a SPARQL 1.1 endpoint after rewriting its URN constants "
        "(<…> IRIs and prefixed names) to canonical form. Credentials come from "
        "URNLD_ENDPOINT_TOKEN, URNLD_ENDPOINT_USER/URNLD_ENDPOINT_PASSWORD (URNLD_ENDPOINT_AUTH="
        "digest for HTTP Digest) or netrc."
    )
    parser.add_argument("query", metavar="QUERY", help="the SPARQL query, or '-' for stdin")
    parser.add_argument("--endpoint", required=True, metavar="URL", help="SPARQL query endpoint")
    style = parser.add_mutually_exclusive_group()
    style.add_argument("--json", action="store_true", help="SPARQL JSON results")
    style.add_argument("--csv", action="store_true", help="SPARQL CSV results (SELECT)")
    parser.add_argument(
        "--literals", action="store_true",
        help="also rewrite string literals that are a whole URN (for stores canonicalized "
        "with --literals)",
    )
    parser.add_argument(
        "--ignore-components", action="store_true",
        help="drop r-, q- and f-components, as canonicalize --ignore-components did",
    )
    parser.add_argument(
        "--as-written", action="store_true", help="send the query unchanged"
    )
    parser.add_argument(
        "--show", action="store_true", help="print the rewritten query on stderr first"
    )
    parser.add_argument(
        "--timeout", type=float, default=None, metavar="S",
        help="seconds to wait for each answer from the server (default 600)",
    )


def run(args: argparse.Namespace) -> int:
    from ..endpoint import DEFAULT_TIMEOUT, Endpoint
    from ..rdf import canonical_query
    from ._common import print_table

    text = sys.stdin.read() if args.query == "-" else args.query
    if args.timeout is not None and not args.timeout > 0:
        raise URNError(f"--timeout must be a positive number of seconds, got {args.timeout}")
    if not args.as_written:
        text = canonical_query(
            text, literals=args.literals, ignore_components=args.ignore_components
        )
    if args.show:
        print(text, file=sys.stderr)
    m = _FORM.match(text, _PROLOGUE.match(text).end())  # type: ignore[union-attr]
    if m is None:
        raise URNError("not a SPARQL query (expected SELECT, ASK, CONSTRUCT or DESCRIBE)")
    form = m.group(1).upper()
    with Endpoint(args.endpoint, timeout=args.timeout or DEFAULT_TIMEOUT) as endpoint:
        if form == "ASK":
            value = endpoint.ask(text)
            if args.json:
                print(json.dumps({"head": {}, "boolean": value}))
            else:
                print("true" if value else "false")
        elif form in ("CONSTRUCT", "DESCRIBE"):
            for chunk in endpoint.raw(text, "application/n-triples"):
                sys.stdout.buffer.write(chunk)
        elif args.json:
            for chunk in endpoint.raw(text, "application/sparql-results+json"):
                sys.stdout.buffer.write(chunk)
        elif args.csv:
            writer = csv.writer(sys.stdout, lineterminator="\n")
            header: list[str] | None = None
            for row in endpoint.select(text):
                if header is None:
                    header = list(row)
                    writer.writerow(header)
                writer.writerow(row.values())
        else:
            rows = list(endpoint.select(text))
            if rows:
                print_table([list(r.values()) for r in rows], list(rows[0]))
            print(f"({len(rows):,} row{'s' if len(rows) != 1 else ''})")
    sys.stdout.flush()
    return 0
