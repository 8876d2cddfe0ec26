"""``urnld xmlns FILE… [--json]``: audit the URN namespace names used in XML documents.

For each file: the URN namespace names declared, the invalid ones, groups of URN-equivalent
spellings that XML treats as different namespaces, ``xml:base`` attributes holding a URN, and,
for RDF/XML documents only (root ``rdf:RDF``, or ``--rdfxml``), namespace + local name
concatenations that give invalid or surprising IRIs. With several files, the spellings are also
compared across files.

``--json`` prints one object (stable)::

    {"files": [<urnld.xmlns.XMLNamespaceAudit.to_dict()>, …],
     "unreadable": [{"source": str, "error": str}, …],
     "equivalent_spellings_across_files": [[spelling, …], …],
     "ok": bool}  # every file read and nothing found (false when any file is unreadable)

A file that cannot be read (missing, malformed XML, entity declarations) is listed as
unreadable and the others are still audited. Exit 0 when every file was read and nothing was
found; 1 when anything was found or some file could not be read (each is listed); 2 when no
file could be read at all.
"""

from __future__ import annotations

import argparse
import json

HELP = "audit URN namespace names in XML documents"
EXIT_CODES = (
    "exit status: 0 every file read and nothing found, 1 problems found or some file "
    "unreadable (listed; the others are still audited), 2 no file could be read, usage error"
)


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE", help="XML documents ('-' = stdin)")
    parser.add_argument("-o", "--output", metavar="FILE",
                        help="write what is printed (text or --json) to FILE instead of stdout")
    parser.add_argument("--json", action="store_true", help="print JSON (documented, stable)")
    parser.add_argument(
        "--rdfxml", action="store_true",
        help="treat every file as RDF/XML (concatenation hazards are otherwise looked for only "
        "when the root element is rdf:RDF)",
    )
    parser.add_argument("--html", metavar="FILE",
                        help="also write the audit as one self-contained HTML page")
    parser.add_argument("-q", "--quiet", action="store_true",
                        help="one line per document (counts), no details")
    from ._report_options import add_report_options

    add_report_options(parser, sarif=False, memory=False)


def run(args: argparse.Namespace) -> int:
    from ._common import stdout_to

    with stdout_to(args.output) as discard:
        code = _run(args)
        if code == 2:
            discard()  # exit 2: no output file is created or replaced
    return code


def _run(args: argparse.Namespace) -> int:
    import sys

    from .. import URN
    from .._kernel import open_input
    from ..errors import URNError
    from ..xmlns import audit

    audits = []
    unreadable: list[dict[str, str]] = []
    for name in args.files:
        try:
            with open_input(name) as (stream, _size):
                result = audit(stream, rdfxml=True if args.rdfxml else None)
        except (OSError, URNError) as e:
            message = (e.strerror if isinstance(e, OSError) and e.strerror else str(e))
            message = message.splitlines()[0] if message else type(e).__name__
            unreadable.append({"source": name, "error": message})
            if not args.json:
                where = "" if message.startswith(name) else f"{name}: "
                print(f"urnld xmlns: error: {where}{message}", file=sys.stderr)
            continue
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
    clean = bool(audits) and all(a.ok for a in audits) and not across and not unreadable
    out = {"files": [a.to_dict() for a in audits], "unreadable": unreadable,
           "equivalent_spellings_across_files": across, "ok": clean}
    if args.findings and audits:  # no file read: exit 2, and no output file
        from ._findings import FindingsWriter, xmlns_records

        with FindingsWriter(args.findings) as writer:
            writer.write_all(xmlns_records(audits, across))
    if args.html and audits:  # no file read: exit 2, and no output file
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
    if not audits:
        return 2
    return 0 if clean else 1


def _print_audit(result: object, *, quiet: bool = False) -> None:
    from ..xmlns import XMLNamespaceAudit

    assert isinstance(result, XMLNamespaceAudit)
    urns = result.urn_namespaces
    concatenations = (
        f", {len(result.concatenations)} problem concatenation"
        f"{'s' if len(result.concatenations) != 1 else ''}"
        if result.is_rdfxml else ""
    )
    bases = f", {len(result.bases)} xml:base URN{'s' if len(result.bases) != 1 else ''}" if (
        result.bases) else ""
    print(f"{result.source}: {len(urns)} URN namespace{'s' if len(urns) != 1 else ''}, "
          f"{len(result.invalid)} invalid, {len(result.equivalent_spellings)} spelled more than "
          f"one way{concatenations}{bases}")
    if quiet:
        return
    for ns in urns:
        status = "ok" if ns.valid else f"INVALID: {ns.reason}"
        prefixes = ", ".join(p or "(default)" for p in ns.prefixes)
        print(f"  {ns.uri}  [{prefixes}] line {ns.line}: {status}")
    for base in result.bases:
        print(f"  line {base.line}: {base.reason}")
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
