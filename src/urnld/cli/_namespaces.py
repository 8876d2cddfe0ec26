"""``urnld namespaces [--json] [--with-rules] [NID…]``.

Lists the IANA URN namespace registry shipped with urnld (``urnld.registry.registry()``) and,
for each NID, whether urnld has a rule for it (built-in, registered at run time, or installed
as a plugin through the ``urnld.namespaces`` entry-point group) and that rule's reference.
NIDs that have a rule but are not in the registry snapshot are listed too
(``registered: false``). NIDs given on the command line that are unknown to both are named on
stderr (they use the generic RFC 8141 rules) after the known ones are listed. Exit 0; 1 when a
NID given is unknown to both; 2 on usage errors.

JSON output (stable): a list, sorted by NID, of::

    {"nid": str, "registered": bool, "kind": "formal"|"informal"|null,
     "iana_reference": str|null, "template": str|null,
     "rule": {"title": str, "reference": str, "provisional": bool, "source": str} | null,
     "rule_error": str|null}

``source`` is ``"builtin"``, ``"registered"`` or ``"plugin"``; ``rule_error`` says why a plugin
failed to load (the listing goes on).

>>> import contextlib, io, json
>>> buf = io.StringIO()
>>> with contextlib.redirect_stdout(buf):
...     code = main_for_doctest(["--json", "isbn"])
>>> [(e["nid"], e["rule"]["reference"]) for e in json.loads(buf.getvalue())]
[('isbn', 'RFC 3187 §5; ISO 2108:2017 (template v2)')]
"""

from __future__ import annotations

import argparse
import json
import sys

HELP = "list the IANA URN namespaces and which have urnld rules"
EXIT_CODES = (
    "exit status: 0 listed, 1 a NID given is neither registered nor has a rule, "
    "2 usage error"
)


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("nids", nargs="*", metavar="NID", help="show only these NIDs")
    parser.add_argument("--json", action="store_true", help="print JSON (documented, stable)")
    parser.add_argument(
        "--with-rules", action="store_true", help="only NIDs for which urnld has a rule"
    )


def entries() -> list[dict[str, object]]:
    """One JSON-ready dict per NID: the registry joined with the namespace rules."""
    from importlib import metadata

    from .._core import BUILTIN
    from ..namespaces import ENTRY_POINT_GROUP, GENERIC, NamespacePluginError, get_rule, known_nids
    from ..registry import registry

    reg = registry()
    with_rules = set(known_nids())
    # nid -> the module its entry point names (to tell plugins from run-time registrations)
    plugins = {
        ep.name.lower(): ep.value.partition(":")[0]
        for ep in metadata.entry_points(group=ENTRY_POINT_GROUP)
    }
    out: list[dict[str, object]] = []
    for nid in sorted(set(reg) | with_rules):
        entry = reg.get(nid)
        rule_info: dict[str, object] | None = None
        error: str | None = None
        if nid in with_rules:
            try:
                rule = get_rule(nid)
            except NamespacePluginError as e:
                error = str(e)
            else:
                if rule is not GENERIC:
                    module = type(rule).__module__
                    if nid in BUILTIN and BUILTIN[nid].partition(":")[0] == module:
                        source = "builtin"
                    elif nid in plugins and module == plugins[nid]:
                        source = "plugin"
                    else:
                        source = "registered"  # register() at run time
                    rule_info = {
                        "title": rule.title,
                        "reference": rule.reference,
                        "provisional": rule.provisional,
                        "source": source,
                    }
        out.append(
            {
                "nid": nid,
                "registered": entry is not None,
                "kind": entry.kind if entry else None,
                "iana_reference": entry.reference if entry else None,
                "template": (entry.template or None) if entry else None,
                "rule": rule_info,
                "rule_error": error,
            }
        )
    return out


def run(args: argparse.Namespace) -> int:
    from ._common import print_table

    rows = entries()
    unknown: list[str] = []
    if args.nids:
        wanted = {n.lower() for n in args.nids}
        unknown = sorted(wanted - {str(e["nid"]) for e in rows})
        rows = [e for e in rows if e["nid"] in wanted]
    code = _report_unknown(unknown)
    if args.with_rules:
        rows = [e for e in rows if e["rule"] is not None]
    if args.json:
        json.dump(rows, sys.stdout, ensure_ascii=False, indent=2)
        sys.stdout.write("\n")
        return code
    table = []
    for e in rows:
        rule = e["rule"]
        if isinstance(rule, dict):
            status = "provisional" if rule["provisional"] else "yes"
            if rule["source"] != "builtin":
                status += f" ({rule['source']})"
            reference = str(rule["reference"])
        else:
            status = "error" if e["rule_error"] else "-"
            reference = str(e["rule_error"] or e["iana_reference"] or "")
        kind = e["kind"] or "unregistered"
        table.append((e["nid"], kind, status, reference))
    print_table(table, ["nid", "kind", "rule", "reference (rule, else IANA)"])
    with_rule = sum(1 for e in rows if e["rule"] is not None)
    print(f"\n{len(rows)} namespaces, {with_rule} with urnld rules")
    return code


def _report_unknown(unknown: list[str]) -> int:
    """Name the NIDs neither in the registry nor with a rule, on stderr; 1 if there are any."""
    if not unknown:
        return 0
    print(
        f"urnld namespaces: not in the registry and no rule: {', '.join(unknown)} "
        "(such NIDs use the generic RFC 8141 rules)",
        file=sys.stderr,
    )
    return 1


def main_for_doctest(argv: list[str]) -> int:
    """Run this subcommand alone (for the docstring example)."""
    parser = argparse.ArgumentParser(prog="urnld namespaces")
    configure(parser)
    return run(parser.parse_args(argv))
