"""``urnld check``: scan RDF files for invalid, non-canonical and duplicate URNs.

Exit status: 0 when no URN has an error-level finding, 1 when some do, 2 when an input could not
be read completely (missing file, RDF syntax error, malformed N-Triples line).

``--json`` prints the merged :meth:`urnld.report.CheckReport.to_dict` plus three keys:
``"inputs"`` (the files, as given), ``"unreadable"`` (``[{"source", "error"}]``) and
``"policy"`` (:meth:`urnld.Policy.to_dict`: ``strict``, ``profiles``, ``severity``, ``source``).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import IO, Any

from ..errors import URNError
from ._common import counted, source_name
from ._policy_options import add_policy_options, policy_from_args, require_default_policy

HELP = "scan RDF files for invalid, non-canonical and duplicate URNs"
EXIT_CODES = (
    "exit status: 0 no invalid URNs, 1 invalid URNs found, "
    "2 an input could not be read completely or usage error"
)


def configure(parser: argparse.ArgumentParser) -> None:
    from ._input_options import add_input_options

    parser.description = (
        "Scan RDF files for URNs (IRIs and literals whose whole value is a URN) and report "
        "invalid ones, non-canonical spellings, and equivalent spellings that are separate "
        "nodes. Exit 0: no errors; 1: invalid URNs; 2: unreadable input."
    )
    parser.add_argument("files", nargs="*", metavar="FILE", help="RDF file ('-' = stdin)")
    parser.add_argument("-o", "--output", metavar="FILE",
                        help="write what is printed (text or --json) to FILE instead of stdout")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument(
        "--html", metavar="FILE",
        help="also write the report as one self-contained HTML page (charts, sortable tables)",
    )
    add_input_options(parser, stdin="nt")
    parser.add_argument(
        "--limit", type=int, default=20, metavar="N",
        help="rows shown per table in the text output (default 20; JSON and HTML show up to "
        "10,000 examples per table, with exact totals; --findings lists everything)",
    )
    from ._report_options import add_report_options

    add_report_options(parser)
    parser.add_argument("-q", "--quiet", action="store_true",
                        help="print only the verdict line (and unreadable inputs on stderr)")
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="show every row of every table (no --limit)")
    parser.add_argument(
        "--progress", action=argparse.BooleanOptionalAction, default=None,
        help="progress line on stderr (default: when stderr is a terminal)",
    )
    parser.add_argument(
        "--iris", choices=("as-is", "rfc3986"), default="as-is",
        help="rfc3986: also count the IRIs other than URNs not in RFC 3986 normal form (what "
        "canonicalize --iris rfc3986 rewrites; the files are read whole); as-is: URNs only "
        "(default)",
    )
    parser.add_argument(
        "--locators", action="store_true",
        help="also count IRIs that are a resolver's address of a URN (https://doi.org/10.…, "
        "nbn-resolving.org/urn:nbn:…): info findings 'locator', with the URN each stands for",
    )
    parser.add_argument(
        "--gs1-prefix-lengths", metavar="FILE",
        help="with --locators: GS1 Company Prefix lengths for GS1 Digital Links (a JSON "
        "object {\"prefix\": length}, or 'biip' for GS1's table)",
    )
    parser.add_argument(
        "--engine", choices=("local", "dask"), default="local",
        help="local (default) or dask (N-Triples/N-Quads are partitioned, other syntaxes read "
        "whole, one worker each; needs urnld[dask])",
    )
    parser.add_argument(
        "-j", "--jobs", type=int, metavar="N",
        help="local: processes sharing a streamed N-Triples/N-Quads file (default: one per "
        "CPU for inputs over 8 MiB, else 1)",
    )
    parser.add_argument("--workers", type=int, metavar="N", help="dask: local worker processes")
    parser.add_argument("--scheduler", metavar="ADDR", help="dask: address of a running cluster")
    add_policy_options(parser)
    from ._endpoint import add_options

    add_options(parser, write=False)


def _check_one(
    path: str, args: argparse.Namespace, report: Any, *, policy: Any, quiet: bool = False
) -> None:
    """Check one input through the library's file job, with a progress line on a terminal."""
    from .. import files
    from .._kernel import CanonOptions, Engine, ReadingOptions
    from ._common import ProgressLine
    from ._input_options import read_options
    from ._progress import Progress

    source = source_name(path)
    reading = ReadingOptions(format=args.input_format, **read_options(args))
    locators = _locator_opts(args)
    options = CanonOptions(policy=policy, link_locators=bool(locators),
                           prefix_lengths=locators.get("prefix_lengths"))
    iris: files.Iris = "rfc3986" if getattr(args, "iris", "as-is") == "rfc3986" else "as-is"
    if files.check_plan(path, reading=reading, iris=iris) is Engine.DOCUMENT:
        wanted = getattr(args, "progress", None)
        bar = Progress(f"urnld check {source}", enabled=False if quiet else wanted)
        try:
            with bar.ticking("reading and checking"):
                files.check(path, options=options, reading=reading, report=report, iris=iris)
        finally:
            bar.close()
        return
    show = getattr(args, "progress", None)
    show = sys.stderr.isatty() if show is None else show
    line = ProgressLine(f"urnld check {source}") if show and not quiet else None
    try:
        files.check(path, options=options, reading=reading, report=report,
                    jobs=getattr(args, "jobs", None), progress=line)
    finally:
        if line is not None:
            line.close()


def run(args: argparse.Namespace) -> int:
    from ._common import stdout_to
    from ._report_options import memory_options

    with memory_options(args, args.output), stdout_to(args.output) as discard:
        code = _run(args)
        if code == 2:
            discard()  # exit 2: no output file is created or replaced
    return code


def _run(args: argparse.Namespace) -> int:
    from ..report import CheckReport
    from ._input_options import warnings_to_stderr

    unreadable: list[dict[str, str]] = []
    files: list[dict[str, Any]] = []  # per input, for the HTML report
    policy = policy_from_args(args, "urnld check")
    inputs = list(args.files)
    if args.gs1_prefix_lengths and not args.locators:
        raise URNError("--gs1-prefix-lengths needs --locators")
    if args.locators and (args.endpoint is not None or args.engine == "dask"):
        raise URNError("--locators runs on local files, not with --endpoint or --engine dask")
    if getattr(args, "iris", "as-is") != "as-is" and (args.endpoint is not None
                                                      or args.engine == "dask"):
        raise URNError("--iris runs on local files, not with --endpoint or --engine dask")
    from ._canonicalize import prefix_lengths_option

    args.prefix_lengths = prefix_lengths_option(args.gs1_prefix_lengths)
    if args.endpoint is not None:
        require_default_policy(policy, "--endpoint")
        from ._endpoint import check_report

        report = check_report(args)
        inputs = [args.endpoint]
        files.append({
            "source": args.endpoint, "statements": report.statements_in,
            "urns": report.iri_occurrences + report.literal_occurrences,
            "invalid": report.error_occurrences,
            "non_canonical": report.non_canonical_occurrences,
        })
    elif not args.files:
        raise URNError("give RDF files to check, or --endpoint URL")
    elif args.engine == "dask":
        require_default_policy(policy, "--engine dask")
        if args.jobs is not None:
            raise URNError("--jobs is for the local engine; --engine dask takes --workers")
        with warnings_to_stderr("urnld check"):
            report = _run_dask(
                args, lambda source, e: _unreadable(source, e, args, unreadable, files)
            )
    else:
        if args.workers is not None or args.scheduler is not None:
            raise URNError("--workers/--scheduler need --engine dask")
        if args.jobs is not None and args.jobs < 1:
            raise URNError(f"--jobs must be a positive integer, got {args.jobs}")
        report = CheckReport()
        for path in args.files:
            part = CheckReport()
            source = "<stdin>" if path == "-" else path
            try:
                with warnings_to_stderr("urnld check"):
                    _check_one(path, args, part, quiet=args.quiet, policy=policy)
            except (OSError, URNError) as e:
                _unreadable(source, e, args, unreadable, files)
            else:
                files.append({
                    "source": source, "statements": part.statements_in,
                    "urns": part.iri_occurrences + part.literal_occurrences,
                    "invalid": part.error_occurrences,
                    "non_canonical": part.non_canonical_occurrences,
                })
            report = report.merge(part)
    if report.errors and not args.json:
        # Even with -q: the reason for exit status 2 is never hidden. One line (a binary file
        # is malformed on every line); -v lists each, --json has them all.
        shown = [str(e) for e in (report.errors if args.verbose else report.errors[:1])]
        more = report.error_count - len(shown)
        if more > 0:
            shown[-1] += (f" (and {more:,} more malformed line{'s' if more != 1 else ''}: "
                          "-v or --json lists them)")
        for line in shown:
            print(f"urnld check: error: {line}", file=sys.stderr)
    if args.json:
        out = report.to_dict()
        # Not ok when some input could not be read completely: nobody knows what it holds.
        out["ok"] = bool(out["ok"]) and not unreadable and not report.error_count
        out["inputs"] = inputs
        out["unreadable"] = unreadable
        out["policy"] = policy.to_dict()
        json.dump(out, sys.stdout, indent=2, sort_keys=True, ensure_ascii=False)
        sys.stdout.write("\n")
    elif args.quiet and (report.statements_in or not unreadable):
        d = report.to_dict()
        print(summary_lines(d, partial=bool(unreadable or report.errors))[0])
    elif not args.quiet and (report.statements_in or not unreadable):
        limit = sys.maxsize if args.verbose else args.limit
        _print_text(report, sys.stdout, limit, partial=bool(unreadable or report.errors))
    if unreadable or report.error_count:
        return 2  # and no --html, --findings, --sarif: a command that exits 2 writes no file
    if args.html:
        _write_html(args, report, files, partial=False)
    from ._report_options import emit_findings

    emit_findings(args, report, list(args.files), kind="check")
    return 0 if report.ok else 1


def _unreadable(
    source: str, e: Exception, args: argparse.Namespace, unreadable: list[dict[str, str]],
    files: list[dict[str, Any]],
) -> None:
    """Record an input that could not be read (the others are still checked) and say so."""
    message = (
        f"{e.strerror}" if isinstance(e, OSError) and e.strerror else str(e)
    ).splitlines()[0]
    unreadable.append({"source": source, "error": message.removeprefix(f"{source}: ")})
    files.append({"source": source, "error": message.removeprefix(f"{source}: ")})
    if not args.json:
        # The reader's messages name the input themselves (with line and column).
        where = "" if message.startswith(source) else f"{source}: "
        print(f"urnld check: error: {where}{message}", file=sys.stderr)


def _write_html(
    args: argparse.Namespace, report: Any, files: list[dict[str, Any]], *, partial: bool
) -> None:
    from ._html_report import check_document, find_positions, shown_spellings, write_html

    d = report.to_dict()
    positions = find_positions(args.files, shown_spellings(d))
    write_html(args.html, check_document(
        d, argv=args.argv, files=files, summary=summary_lines(d, partial=partial),
        positions=positions,
    ))


def _run_dask(args: argparse.Namespace, on_unreadable: Callable[[str, Exception], None]) -> Any:
    if "-" in args.files:
        raise URNError("--engine dask reads files: '-' (stdin) cannot be partitioned")
    try:
        import urnld.dask as udask
    except ImportError as e:
        raise URNError(
            f"the Dask engine is not available ({e}); install it with: pip install 'urnld[dask]'"
        ) from e
    from ._input_options import read_options

    return udask.check_files(
        args.files, workers=args.workers, scheduler=args.scheduler,
        input_format=args.input_format, on_unreadable=on_unreadable, **read_options(args),
    )


def _locator_opts(args: argparse.Namespace) -> dict[str, Any]:
    """``check --locators``'s keyword arguments; none without it."""
    if not getattr(args, "locators", False):
        return {}
    return {"locators": True, "prefix_lengths": args.prefix_lengths}


def _distinct(n: int, truncated: bool) -> str:
    """A number of distinct keys: exact, or a lower bound when the example list was capped."""
    if not truncated:
        return f"{n:,}"
    return f"at least {n:,}" if n else "an unknown number of"


def summary_lines(d: dict[str, Any], *, partial: bool) -> list[str]:
    """The verdict and the counts of a ``check`` report dict, in words (exact counts).

    An *occurrence* is one URN in one statement (a statement that uses the same spelling twice
    counts once); distinct counts are of spellings or canonical forms, exact at any size.

    >>> from urnld.report import CheckReport
    >>> summary_lines(CheckReport().to_dict(), partial=False)[0]  # doctest: +NORMALIZE_WHITESPACE
    'OK: 0 invalid URNs (0 occurrences); 0 valid URN spellings not in canonical form
    (0 occurrences, which canonicalize rewrites); 0 URNs spelled several ways'
    """
    urns = d["urns"]
    invalid, nonc, clusters = d["invalid"], d["non_canonical"], d["clusters"]
    status = "OK" if d["ok"] else "ERRORS"
    if partial:
        # Never "OK" when part of the data was not seen (the exit status is 2).
        status = ("ERRORS (incomplete: some input could not be read)" if not d["ok"]
                  else "INCOMPLETE (some input could not be read)")
    literals = urns["literals"]
    return [
        f"{status}: {counted(invalid['distinct'], 'invalid URN')} "
        f"({counted(invalid['occurrences'], 'occurrence')}); "
        f"{counted(nonc['distinct'], 'valid URN spelling')} not in canonical form "
        f"({counted(nonc['occurrences'], 'occurrence')}, which canonicalize rewrites); "
        f"{counted(clusters['count'], 'URN')} spelled several ways",
        f"scanned {counted(d['statements'], 'statement')}: "
        f"{counted(urns['iris'] + literals, 'URN occurrence')} ({counted(urns['iris'], 'IRI')}, "
        f"{counted(literals, 'literal')}); an occurrence is one URN in one statement",
    ] + ([
        f"met {d['locators']['occurrences']:,} occurrences of "
        f"{_distinct(len(d['locators']['iris']), d['locators']['truncated'])} locator IRIs "
        "that stand for a URN (canonicalize --link-locators joins them to it)"
    ] if "locators" in d else []) + ([
        f"met {d['iris']['occurrences']:,} occurrences of "
        f"{_distinct(d['iris']['distinct'], False)} IRIs other than URNs not in RFC 3986 normal "
        "form (canonicalize --iris rfc3986 rewrites them)"
    ] if "iris" in d else [])


def _print_text(report: Any, out: IO[str], limit: int, *, partial: bool) -> None:
    from ._common import colour, print_table

    d = report.to_dict()
    verdict, *rest = summary_lines(d, partial=partial)
    status, _, tail = verdict.partition(":")
    print(colour(status, "green" if d["ok"] and not partial else "red", out) + ":" + tail,
          file=out)
    for line in rest:
        print(line, file=out)

    def section(
        title: str, rows: list[tuple[Any, ...]], headers: list[str], *, total: int | None,
        what: str,
    ) -> None:
        """A table of at most *limit* rows; *total*: how many there are in all (None: the
        rows are all of them)."""
        if not rows:
            return
        shown = rows[:limit]
        print(f"\n{title}", file=out)
        print_table(shown, headers, file=out)
        total = len(rows) if total is None else total
        if total > len(shown):
            print(
                f"(showing {len(shown):,} of {total:,} {what}, the most frequent among the first "
                f"{len(rows):,} in code-point order; the counts above are exact; "
                "--findings FILE lists them all)" if total > len(rows) else
                f"(showing {len(shown):,} of {total:,} {what}; -v shows all, --findings FILE "
                "lists them all)",
                file=out,
            )

    invalid = sorted(d["invalid"]["urns"].items(), key=lambda kv: (-kv[1]["count"], kv[0]))
    section(
        "Invalid URNs",
        [(s, v["count"], v["finding"]) for s, v in invalid],
        ["urn", "occurrences", "first error"],
        total=d["invalid"]["distinct"], what="invalid URNs",
    )
    groups = sorted(
        d["clusters"]["groups"].items(), key=lambda kv: (-len(kv[1]), -sum(kv[1].values()), kv[0])
    )
    section(
        "Equivalent spellings that are separate nodes",
        [(c, len(sp), ", ".join(sorted(sp))) for c, sp in groups],
        ["canonical", "spellings", "as written"],
        total=d["clusters"]["count"], what="URNs spelled several ways",
    )
    nonc = sorted(
        d["non_canonical"]["spellings"].items(), key=lambda kv: (-kv[1]["count"], kv[0])
    )
    section(
        "Non-canonical spellings of valid URNs",
        [(s, v["canonical"], v["count"]) for s, v in nonc],
        ["as written", "canonical", "occurrences"],
        total=d["non_canonical"]["distinct"], what="spellings",
    )
    nids = sorted(d["nids"].items(), key=lambda kv: (-kv[1], kv[0]))
    section("Valid URN occurrences per NID", nids, ["nid", "occurrences"],
            total=None, what="NIDs")
    findings = sorted(d["findings"].items(), key=lambda kv: (-kv[1], kv[0]))
    section(
        "Findings (occurrences of valid and invalid URNs; one URN can have several findings)",
        findings, ["code", "occurrences"], total=None, what="codes",
    )
    notes = d.get("notes")
    if notes:
        section(
            "What reading dropped or warned about (JSON-LD; not about URNs, not errors)",
            [(i["source"], i["where"] or "(document)", i["code"], i["message"])
             for i in notes["items"]],
            ["file", "where (JSON pointer)", "code", "what"],
            total=notes["count"] if notes["truncated"] else None, what="notes",
        )
