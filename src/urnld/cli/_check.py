"""``urnld check``: scan RDF files for invalid, non-canonical and duplicate URNs.

Exit status: 0 when no URN has an error-level finding, 1 when some do, 2 when an input could not
be read completely (missing file, RDF syntax error, malformed N-Triples line).

``--json`` prints the merged :meth:`urnld.report.CheckReport.to_dict` plus two keys:
``"inputs"`` (the files, as given) and ``"unreadable"`` (``[{"source", "error"}]``).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import IO, Any

from ..errors import URNError
from ._formats import QUAD_FORMATS, STREAMABLE, first_line, format_of, rdflib_source

HELP = "scan RDF files for invalid, non-canonical and duplicate URNs"



def configure(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Scan RDF files for URNs (IRIs and literals whose whole value is a URN) and report "
        "invalid ones, non-canonical spellings, and equivalent spellings that are separate "
        "nodes. Exit 0: no errors; 1: invalid URNs; 2: unreadable input."
    )
    parser.add_argument("files", nargs="+", metavar="FILE", help="RDF file ('-' = stdin)")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument(
        "--input-format", metavar="F",
        help="input format for all files; default: guessed from the extension (stdin: nt)",
    )
    parser.add_argument(
        "--limit", type=int, default=20, metavar="N",
        help="rows shown per table in the text output (default 20; JSON is not limited)",
    )
    parser.add_argument(
        "--engine", choices=("local", "dask"), default="local",
        help="local (default) or dask (N-Triples/N-Quads only; needs urnld[dask])",
    )
    parser.add_argument("--workers", type=int, metavar="N", help="dask: local worker processes")
    parser.add_argument("--scheduler", metavar="ADDR", help="dask: address of a running cluster")


def _check_one(path: str, fmt: str | None, report: Any) -> None:
    fmt = format_of(path, fmt, "nt")
    if fmt in STREAMABLE:
        from ..stream import check_file

        check_file(path, report=report)
        return
    from rdflib import Dataset, Graph

    from ..rdf import check_graph

    graph: Graph = (
        Dataset() if fmt in QUAD_FORMATS else Graph(bind_namespaces="core")
    )
    try:
        with rdflib_source(path) as f:
            graph.parse(f, format=fmt)
    except OSError:
        raise
    except Exception as e:  # rdflib parsers raise many types (BadSyntax, SAXParseException…)
        raise URNError(f"cannot parse as {fmt}: {first_line(e)}") from e
    check_graph(graph, report)


def run(args: argparse.Namespace) -> int:
    from ..report import CheckReport

    unreadable: list[dict[str, str]] = []
    if args.engine == "dask":
        report = _run_dask(args)
    else:
        if args.workers is not None or args.scheduler is not None:
            raise URNError("--workers/--scheduler need --engine dask")
        report = CheckReport()
        for path in args.files:
            part = CheckReport()
            try:
                _check_one(path, args.input_format, part)
            except (OSError, URNError) as e:
                source = "<stdin>" if path == "-" else path
                message = (
                    f"{e.strerror}" if isinstance(e, OSError) and e.strerror else str(e)
                ).splitlines()[0]
                unreadable.append({"source": source, "error": message})
                if not args.json:
                    print(f"urnld check: error: {source}: {message}", file=sys.stderr)
            report = report.merge(part)
    for err in report.errors:
        if not args.json:
            print(f"urnld check: error: {err}", file=sys.stderr)
    if args.json:
        out = report.to_dict()
        out["inputs"] = list(args.files)
        out["unreadable"] = unreadable
        json.dump(out, sys.stdout, indent=2, sort_keys=True, ensure_ascii=False)
        sys.stdout.write("\n")
    elif report.statements_in or not unreadable:
        _print_text(report, sys.stdout, args.limit, partial=bool(unreadable or report.errors))
    if unreadable or report.error_count:
        return 2
    return 0 if report.ok else 1


def _run_dask(args: argparse.Namespace) -> Any:
    for path in args.files:
        if path == "-" or format_of(path, args.input_format, "nt") not in STREAMABLE:
            raise URNError(f"--engine dask reads N-Triples/N-Quads files only, not {path!r}")
    try:
        import urnld.dask as udask
    except ImportError as e:
        raise URNError(
            f"the Dask engine is not available ({e}); install it with: pip install 'urnld[dask]'"
        ) from e
    return udask.check_files(args.files, workers=args.workers, scheduler=args.scheduler)


def _print_text(report: Any, out: IO[str], limit: int, *, partial: bool) -> None:
    from ._common import print_table

    d = report.to_dict()
    urns = d["urns"]
    status = "OK" if d["ok"] else "ERRORS"
    if partial:
        status += " (incomplete: some input could not be read)"
    non_canonical = sum(v["count"] for v in d["non_canonical"]["spellings"].values())
    print(
        f"{status}: {d['statements']:,} statements with {urns['iris']:,} URN IRIs and "
        f"{urns['literals']:,} URN literals; {urns['with_errors']:,} of them invalid, "
        f"{non_canonical:,} non-canonical; "
        f"{len(d['clusters']['groups']):,} URNs spelled several ways",
        file=out,
    )

    def section(title: str, rows: list[tuple[Any, ...]], headers: list[str], total: int) -> None:
        if not rows:
            return
        print(f"\n{title}", file=out)
        print_table(rows[:limit], headers, file=out)
        if total > min(limit, len(rows)):
            print(f"… {total - min(limit, len(rows)):,} more (see --json)", file=out)

    invalid = sorted(d["invalid"]["urns"].items(), key=lambda kv: (-kv[1]["count"], kv[0]))
    section(
        "Invalid URNs",
        [(s, v["count"], v["finding"]) for s, v in invalid],
        ["urn", "statements", "first error"],
        len(invalid),
    )
    groups = sorted(d["clusters"]["groups"].items())
    section(
        "Equivalent spellings that are separate nodes",
        [(c, len(sp), ", ".join(sorted(sp))) for c, sp in groups],
        ["canonical", "spellings", "as written"],
        len(groups),
    )
    nonc = sorted(
        d["non_canonical"]["spellings"].items(), key=lambda kv: (-kv[1]["count"], kv[0])
    )
    section(
        "Non-canonical spellings",
        [(s, v["canonical"], v["count"]) for s, v in nonc],
        ["as written", "canonical", "statements"],
        len(nonc),
    )
    nids = sorted(d["nids"].items(), key=lambda kv: (-kv[1], kv[0]))
    section("Valid URNs per NID", nids, ["nid", "statements"], len(nids))
    findings = sorted(d["findings"].items(), key=lambda kv: (-kv[1], kv[0]))
    section("Findings", findings, ["code", "statements"], len(findings))
