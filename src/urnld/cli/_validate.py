"""``urnld validate DATA… [-s SHAPES]… [--format text|json|turtle]``.

Validates RDF files with SHACL shapes (default: urnld's ``shapes/urn.ttl`` + ``catalog.ttl``;
``-s`` replaces ``catalog.ttl`` with your shapes, ``urn.ttl`` always stays). Several DATA files
are merged into one graph. Exit 0 when the data conforms, 1 when there are results (of any
severity: SHACL's ``sh:conforms``), 2 when an input cannot be read or the shapes cannot be run.
``--fail-on violation`` (or ``warning``) exits 1 only for results of that severity or a higher
one, and 0 when only lower ones are found (the pre-commit hook fails a commit on violations
only); the output still lists every result.

Output: ``text`` is an aligned table on a terminal and tab-separated lines otherwise (one result
a line, a header first); ``json`` is ``{"conforms": bool, "summary": {severity: count},
"results": [{"focus_node", "path", "value", "component", "severity", "message",
"source_shape"}]}`` with terms in Turtle syntax; ``turtle`` is the standard SHACL report graph.

On a terminal (and without ``-q``) stderr shows the seconds spent reading, then the shapes'
focus-node checks done of all, with the rate and an ETA (``validate(progress=...)``).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Iterable
from json.encoder import encode_basestring
from typing import TYPE_CHECKING, Any

from ._policy_options import add_policy_options, policy_from_args

if TYPE_CHECKING:
    from ..shacl import Report

HELP = "validate URN identifiers in RDF data with SHACL shapes"
EXIT_CODES = (
    "exit status: 0 the data conforms (or has only results below --fail-on), 1 validation "
    "results, 2 unreadable input, shapes that cannot run, usage error"
)

# SHACL's severities, lowest first; --fail-on names the lowest one that fails the run.
_LEVELS = ("info", "warning", "violation")


def configure(parser: argparse.ArgumentParser) -> None:
    from ._input_options import add_input_options

    parser.add_argument("data", nargs="*", metavar="DATA",
                        help="RDF files (format from the extension; .gz is decompressed; "
                             "'-' reads Turtle from stdin); or --endpoint URL")
    parser.add_argument("-s", "--shapes", action="append", default=None, metavar="SHAPES",
                        help="SHACL shapes file, repeatable (default: urnld's catalog shapes); "
                             "urnld's urn.ttl is always added")
    parser.add_argument("-o", "--output", metavar="FILE",
                        help="write what is printed (text or --json) to FILE instead of stdout")
    parser.add_argument("--json", action="store_const", const="json", dest="format",
                        help="print the results as JSON (documented, stable)")
    parser.add_argument("--output-format", choices=["turtle", "nt", "xml", "json-ld"],
                        metavar="F", help="print the standard SHACL report graph in this RDF "
                        "syntax (turtle, nt, xml, json-ld) instead of the table")
    parser.add_argument("--html", metavar="FILE",
                        help="also write the results as one self-contained HTML page")
    parser.add_argument("-q", "--quiet", action="store_true",
                        help="print only the verdict line (no table, no progress)")
    parser.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                        help="progress line on stderr (default: when stderr is a terminal)")
    # The old spelling (--format text|json|turtle), kept working for scripts.
    parser.add_argument("--format", choices=["text", "json", "turtle"], default="text",
                        help=argparse.SUPPRESS)
    parser.add_argument("--fail-on", choices=_LEVELS, default="info", metavar="SEVERITY",
                        help="exit 1 only for results of this severity or higher: info (default: "
                             "any result, as sh:conforms), warning, violation")
    parser.add_argument("--inference", choices=["none", "rdfs", "owlrl", "both"], default="none",
                        help="pyshacl pre-validation inference (default: none)")
    add_input_options(parser, stdin="turtle")
    parser.add_argument("--evaluator", choices=["plan", "pyshacl", "sparql"], default="plan",
                        help="how shapes run: plan (default: compiled into set-at-a-time "
                             "queries on a store; shapes it cannot compile run on pyshacl), "
                             "pyshacl (every shape on pyshacl, urnld's components in Python), "
                             "sparql (on pyshacl, urnld's components as their SPARQL "
                             "definitions; slow). Same results")
    parser.add_argument("--store", default="auto", metavar="WHERE",
                        help="where the plan's store of the data lives: auto (default: in "
                             "memory up to 256 MiB of input, else on disk), memory, disk (a "
                             "temporary directory in $TMPDIR, removed afterwards), or a "
                             "directory to make that temporary directory in")
    add_policy_options(parser)
    group = parser.add_argument_group(
        "SPARQL endpoint", "validate the data of a running triplestore, read-only, with the "
        "same compiled queries (credentials as for 'urnld check --endpoint')")
    group.add_argument("--endpoint", metavar="URL",
                       help="SPARQL 1.1 query endpoint (replaces the DATA arguments)")
    scope = group.add_mutually_exclusive_group()
    scope.add_argument("--graph", metavar="IRI", help="only this named graph")
    scope.add_argument("--all-graphs", action="store_true",
                       help="the default graph and every named graph (default: the store's "
                            "default graph)")
    group.add_argument("--timeout", type=float, default=300.0, metavar="S",
                       help="seconds to wait for each answer from the server (default 300)")
    group.add_argument("--page-size", type=int, default=None, metavar="N",
                       help="read each query's result in pages of N rows (ORDER BY/LIMIT/"
                            "OFFSET), for stores that cap result sizes (default: each result "
                            "read whole as it streams in)")
    from ._report_options import add_report_options

    add_report_options(parser, sarif=False, memory=False)
    parser.add_argument("--sarif", metavar="FILE",
                        help="write every result as a SARIF 2.1.0 log (code scanning)")


def _summary(report: Report) -> dict[str, int]:
    found: Counter[str] = Counter()
    for (_, _, severity), n in report.counts().items():
        found[severity] += n
    return dict(sorted(found.items()))


def _short(iri: str) -> str:
    for ns, prefix in (("https://w3id.org/urnld/shacl#", "urnsh:"),
                       ("http://www.w3.org/ns/shacl#", "sh:")):
        if iri.startswith(ns):
            return prefix + iri[len(ns):].removesuffix("ConstraintComponent")
    return iri


def _print_text(report: Report) -> None:
    from rdflib import URIRef

    from ..shacl import TermRenderer
    from ._common import colour, is_terminal, print_table

    # The results one at a time, not .graph: that builds the whole report graph. A record
    # names its component as written, and every component of a result is counted.
    render = TermRenderer(report.namespace_manager)
    short = {render(URIRef(c)): _short(c) for _, c, _ in report.counts()}
    rows = ((d["severity"] or "", d["focus_node"] or "", d["path"] or "", d["value"] or "",
             short.get(d["component"] or "", d["component"] or ""), d["message"] or "")
            for d in report.records())
    headers = ["severity", "focus node", "path", "value", "component", "message"]
    if is_terminal():
        table = list(rows)  # aligned: every row's width first
        if table:
            print_table(table, headers)
        counts = ", ".join(f"{n} {sev.lower()}{'s' if n != 1 else ''}"
                           for sev, n in _summary(report).items())
        verdict = "yes" if report.conforms else "no"
        verdict = colour(verdict, "green" if report.conforms else "red")
        print(f"conforms: {verdict}" + (f" ({counts})" if counts else ""))
    else:
        print("\t".join(headers))
        for row in rows:
            # One result a line: tabs and newlines inside a cell would break that.
            print("\t".join(c.replace("\t", " ").replace("\n", " ") for c in row))


def run(args: argparse.Namespace) -> int:
    from ._common import stdout_to

    with stdout_to(args.output) as discard:
        code = _run(args)
        if code == 2:
            discard()  # exit 2: no output file is created or replaced
    return code


def _run(args: argparse.Namespace) -> int:
    from ..errors import URNError

    try:
        report = _validate(args)
    except (URNError, OSError) as e:
        if args.format == "json":
            # --json always prints JSON: a script reads "ok" rather than parse stderr.
            json.dump({"ok": False, "conforms": None, "error": str(e)}, sys.stdout, indent=2,
                      ensure_ascii=False)
            print()
        raise
    fallback = {shape: how for shape, how in report.engines.items() if how != "plan"}
    if fallback and len(fallback) == len(report.engines) and len(set(fallback.values())) == 1:
        if not args.quiet:
            why = next(iter(fallback.values())).removeprefix("pyshacl: ")
            print(f"urnld validate: every shape ran on pyshacl: {why}", file=sys.stderr)
    elif fallback and not args.quiet:
        shown = "; ".join(f"{shape} ({how.removeprefix('pyshacl: ')})"
                          for shape, how in list(fallback.items())[:3])
        more = f" and {len(fallback) - 3} more" if len(fallback) > 3 else ""
        print(f"urnld validate: {len(fallback)} shape{'s' if len(fallback) != 1 else ''} ran "
              f"on pyshacl: {shown}{more}", file=sys.stderr)
    head: dict[str, Any] = {}
    if args.html or args.format == "json":
        head = {"ok": not failing(report, args.fail_on), "conforms": report.conforms,
                "summary": _summary(report), "counts": _counts(report),
                "engines": dict(report.engines)}
    # Every output reads the results one at a time: a report of millions of results waits
    # on disk, and is never held whole.
    records = report.records

    if args.findings:
        from ._findings import FindingsWriter, validate_records

        with FindingsWriter(args.findings) as writer:
            writer.write_all(validate_records(records()))
    if args.sarif:
        from ._findings import write_shacl_sarif

        write_shacl_sarif(args.sarif, records())
    if args.html:
        from ._html_report import validate_document, write_html

        write_html(args.html, validate_document({**head, "results": records()},
                                                argv=args.argv))
    graph_format = args.output_format or ("turtle" if args.format == "turtle" else None)
    if graph_format:
        sys.stdout.write(report.serialize(graph_format))
    elif args.format == "json":
        write_json(head, records())
    elif args.quiet:
        counts = ", ".join(f"{n} {sev.lower()}{'s' if n != 1 else ''}"
                           for sev, n in _summary(report).items())
        print(f"conforms: {'yes' if report.conforms else 'no'}"
              + (f" ({counts})" if counts else ""))
    else:
        _print_text(report)
    return 1 if failing(report, args.fail_on) else 0


def _validate(args: argparse.Namespace) -> Report:
    from .._kernel import syntax_for_path
    from ..errors import URNError
    from ._input_options import read_options, refuse_long_lines, warnings_to_stderr

    if args.endpoint is not None and args.data:
        raise URNError("give DATA files or --endpoint URL, not both")
    if args.endpoint is None and not args.data:
        raise URNError("give DATA files to validate, or --endpoint URL")
    if args.endpoint is None and (args.graph is not None or args.all_graphs):
        raise URNError("--graph and --all-graphs go with --endpoint")
    # A giant line takes a parser long to refuse: the streaming reader's line limit, first.
    # (JSON-LD is a whole document, often on one line: its own parser's limits apply.)
    for path, fmt in [*((p, args.input_format) for p in args.data),
                      *((p, None) for p in args.shapes or [])]:
        try:
            syntax: str | None = syntax_for_path(path, fmt, stdin="turtle").name
        except URNError:
            syntax = None  # the reader says so, in its words
        if syntax != "json-ld":
            refuse_long_lines(path)
    from ..shacl import ReadOptions, validate, validate_endpoint
    from ._progress import Progress

    policy = policy_from_args(args, "urnld validate")
    bar = Progress("urnld validate",
                   enabled=False if args.quiet else getattr(args, "progress", None))
    unit = "queries" if args.evaluator == "plan" and args.inference == "none" else "checks"
    counter = (bar.counter("running the shapes", unit, then="building the report")
               if bar.enabled else None)
    with warnings_to_stderr("urnld validate"), bar.ticking("reading the data and the shapes"):
        if args.endpoint is not None:
            if args.evaluator != "plan" or args.inference != "none":
                raise URNError("--endpoint runs the compiled plan: no --evaluator other than "
                               "plan, no --inference")
            return validate_endpoint(args.endpoint, args.shapes, graph=args.graph,
                                     all_graphs=args.all_graphs, policy=policy,
                                     progress=counter, timeout=args.timeout,
                                     page_size=args.page_size)
        options = ReadOptions(format=args.input_format, **read_options(args))
        return validate(args.data, args.shapes, inference=args.inference,
                        evaluator=args.evaluator, reading=options, policy=policy,
                        progress=counter, store=args.store)


def write_json(head: dict[str, Any], results: Iterable[dict[str, Any]]) -> None:
    """``json.dump({**head, "results": [...]}, indent=2)`` and a newline, to stdout, written a
    result at a time (the same bytes, in memory the size of one result).

    >>> write_json({"conforms": False}, iter([{"value": "é"}]))
    {
      "conforms": false,
      "results": [
        {
          "value": "é"
        }
      ]
    }
    """
    empty = json.dumps({**head, "results": []}, indent=2, ensure_ascii=False)
    write = sys.stdout.write
    write(empty.removesuffix("[]\n}"))
    first = True
    for item in results:
        write("[\n    " if first else ",\n    ")
        first = False
        write(_indented(item))
    write("[]\n}\n" if first else "\n  ]\n}\n")


def _indented(item: dict[str, Any]) -> str:
    """*item* as ``json.dumps(indent=2)`` writes it inside the results list (four spaces in).

    A result is a flat object of strings and nulls: written here with json's C string
    encoder, as the indenting encoder (pure Python) would write it; anything else by json.
    """
    if item and all(type(k) is str and (v is None or type(v) is str) for k, v in item.items()):
        quoted = encode_basestring  # what json.dumps(ensure_ascii=False) writes a str with
        return "{\n" + ",\n".join(
            f"      {quoted(k)}: {'null' if v is None else quoted(v)}" for k, v in item.items()
        ) + "\n    }"
    # json.dumps escapes a newline inside a string: every "\n" here is between lines
    return json.dumps(item, indent=2, ensure_ascii=False).replace("\n", "\n    ")


def _counts(report: Report) -> list[dict[str, Any]]:
    """Exact counts per source shape, component and severity, largest first."""
    found: Counter[tuple[str, str, str]] = Counter()
    for (shape, component, severity), n in report.counts().items():
        found[(shape, _short(component), severity)] += n
    return [{"source_shape": shape, "component": component, "severity": severity, "count": n}
            for (shape, component, severity), n in sorted(
                found.items(), key=lambda kv: (-kv[1], kv[0]))]


def failing(report: Report, fail_on: str = "info") -> bool:
    """Does the report fail a run that fails on *fail_on* (``info``, ``warning``, ``violation``)?

    A result of a severity SHACL does not define (a shape may use its own IRI) counts as a
    violation: an unknown level is never let through.

    >>> from urnld.shacl import Report
    >>> report = Report(False, (), tally={("ex:S", "ex:C", "Warning"): 1})
    >>> failing(report), failing(report, "warning"), failing(report, "violation")
    (True, True, False)
    """
    if report.conforms:
        return False
    severities = {severity for (_, _, severity), n in report.counts().items() if n}
    if not severities:  # not conforming, and nothing to weigh: fail
        return True
    floor = _LEVELS.index(fail_on)
    return any(
        _LEVELS.index(s.lower()) >= floor if s.lower() in _LEVELS else True for s in severities
    )
