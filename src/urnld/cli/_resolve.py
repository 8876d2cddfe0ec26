"""``urnld resolve URN… [--template T] [--resolvers FILE] [--all] [--json]``: print locators.

A locator is built from a template (RFC 6570) or urnld's resolver table (extended by
``--resolvers`` TOML files); nothing is fetched. One URN prints its locator(s), one a line;
several print ``URN<TAB>locator``. Exit 0 when every URN got a locator, 1 when some had none,
2 when some input is not a URN (one line each on stderr).

>>> from urnld.cli import main
>>> main(["resolve", "urn:ietf:rfc:2141"])
https://www.rfc-editor.org/rfc/rfc2141
0
"""

from __future__ import annotations

import argparse
import json
import sys

from .. import URN, URNSyntaxError, json_default
from ..resolvers import expand, locators

HELP = "print resolver locators (URLs) for URNs; nothing is fetched"
EXIT_CODES = (
    "exit status: 0 every URN got a locator, 1 some had none, 2 an input is not a URN, "
    "bad template or resolver table, usage error"
)

__all__ = ["EXIT_CODES", "HELP", "configure", "run"]


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("urns", nargs="+", metavar="URN", help="URNs to resolve")
    parser.add_argument("--template", help="an RFC 6570 template instead of the table, e.g. "
                                           "'https://example.org/{nid}/{nss}'")
    parser.add_argument("--resolvers", action="append", default=[], metavar="FILE",
                        help="a TOML resolver table consulted before urnld's (repeatable)")
    parser.add_argument("--all", action="store_true",
                        help="every matching resolver, not only the first")
    parser.add_argument("--json", action="store_true", help="print a JSON list")


def _locate(urn: URN, args: argparse.Namespace) -> list[dict[str, str]]:
    if args.template is not None:
        return [{"locator": expand(urn, args.template), "resolver": "--template"}]
    found = locators(urn, files=args.resolvers)
    if not args.all:
        found = found[:1]
    return [{"locator": loc, "resolver": r.name} for r, loc in found]


def run(args: argparse.Namespace) -> int:
    results: list[dict[str, object]] = []
    bad = missing = 0
    for text in args.urns:
        try:
            urn = URN(text)
        except URNSyntaxError as e:
            # One bad URN must not lose the others' locators; a bad template or table (a
            # ResolverError) concerns all of them and stops the command with one line.
            print(f"urnld resolve: error: {text!r}: {e.reason} (at position {e.position})",
                  file=sys.stderr)
            bad += 1
            continue
        found = _locate(urn, args)
        missing += not found
        results.append({"urn": urn, "locators": found})
    if args.json:
        json.dump(results, sys.stdout, indent=2, ensure_ascii=False, default=json_default)
        print()
    else:
        for r in results:
            locs = r["locators"]
            assert isinstance(locs, list)
            for loc in locs:
                if len(args.urns) == 1:
                    print(loc["locator"])
                else:
                    print(f"{r['urn']}\t{loc['locator']}")
            if not locs:
                print(f"urnld resolve: no resolver is known for {r['urn']}", file=sys.stderr)
    return 2 if bad else 1 if missing else 0

