"""``urnld xmlns FILE… [--json]``: audit the URN namespace names used in XML documents.

For each file: the URN namespace names declared, the invalid ones, groups of URN-equivalent
spellings that XML treats as different namespaces, and namespace + local name concatenations
that give invalid or surprising IRIs when the XML is read as RDF/XML. With several files, the
spellings are also compared across files.

``--json`` prints one object (stable)::

    {"files": [<urnld.xmlns.XMLNamespaceAudit.to_dict()>, …],
     "equivalent_spellings_across_files": [[spelling, …], …]}

Exit 0 when nothing was found, 1 when any finding was reported, 2 on errors (malformed XML,
entity declarations, unreadable files).
"""

from __future__ import annotations

import argparse
import json

HELP = "audit URN namespace names in XML documents"
EXIT_CODES = (
    "exit status: 0 nothing found, 1 problems found, 2 unreadable or malformed XML, "
    "usage error"
)


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE", help="XML documents ('-' = stdin)")
    parser.add_argument("-o", "--output", metavar="FILE",
                        help="write what is printed (text or --json) to FILE instead of stdout")
    parser.add_argument("--json", action="store_true", help="print JSON (documented, stable)")
    parser.add_argument("--html", metavar="FILE",
                        help="also write the audit as one self-contained HTML page")
    parser.add_argument("-q", "--quiet", action="store_true",
                        help="one line per document (counts), no details")


def run(args: argparse.Namespace) -> int:
    from ._common import stdout_to

    with stdout_to(args.output):
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    from .. import URN
    from .._files import open_input
    from ..xmlns import audit

    audits = []
    for name in args.files:
        with open_input(name) as (stream, _size):
            result = audit(stream)
        result.source = name
        audits.append(result)
    # key -> spelling -> files using it; a group is "across files" when no single file
    # already shows all its spellings (that case is in the file's own report).
    by_key: dict[str, dict[str, set[str]]] = {}
    for result in audits:
        for ns in result.urn_namespaces:
            if ns.canonical is not None:
                spellings = by_key.setdefault(URN(ns.uri).assigned_key, {})
                spellings.setdefault(ns.uri, set()).add(result.source)
    across = sorted(
        sorted(spellings) for spellings in by_key.values()
        if len(spellings) > 1 and not set.intersection(*spellings.values())
    )
    out = {"files": [a.to_dict() for a in audits], "equivalent_spellings_across_files": across}
    if args.html:
        from ._html_report import write_html, xmlns_document

        write_html(args.html, xmlns_document(out, argv=args.argv))
    if args.json:
        print(json.dumps(out, indent=2, ensure_ascii=False))
    else:
        for result in audits:
            _print_audit(result, quiet=args.quiet)
        if len(audits) > 1:
            for group in across:
                print("across files, one namespace spelled differently: "
                      + ", ".join(repr(s) for s in group))
    clean = all(a.ok for a in audits) and not across
    return 0 if clean else 1


def _print_audit(result: object, *, quiet: bool = False) -> None:
    from ..xmlns import XMLNamespaceAudit

    assert isinstance(result, XMLNamespaceAudit)
    urns = result.urn_namespaces
    print(f"{result.source}: {len(urns)} URN namespace{'s' if len(urns) != 1 else ''}, "
          f"{len(result.invalid)} invalid, {len(result.equivalent_spellings)} spelled more than "
          f"one way, {len(result.concatenations)} problem concatenation"
          f"{'s' if len(result.concatenations) != 1 else ''}")
    if quiet:
        return
    for ns in urns:
        status = "ok" if ns.valid else f"INVALID: {ns.reason}"
        prefixes = ", ".join(p or "(default)" for p in ns.prefixes)
        print(f"  {ns.uri}  [{prefixes}] line {ns.line}: {status}")
    for group in result.equivalent_spellings:
        print("  same namespace, different spellings (XML sees "
              f"{len(group)} namespaces): " + ", ".join(repr(s) for s in group))
    # One line per namespace for the "glued" case (every local name has it), one per name for
    # concatenations that are not URNs at all.
    glued: dict[str, list[str]] = {}
    for c in result.concatenations:
        if "is glued onto the NSS" in c.reason:
            glued.setdefault(c.namespace, []).append(c.local_name)
        else:
            print(f"  line {c.line}: {c.reason}")
    for namespace, names in glued.items():
        print(f"  {namespace!r} does not end in a separator: RDF/XML glues local names onto its "
              f"NSS ({namespace + names[0]!r}; {len(names)} local name"
              f"{'s' if len(names) != 1 else ''})")
