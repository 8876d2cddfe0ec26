"""``urnld canonicalize``: merge URN-equivalent nodes in RDF files.

Turtle, TriG, N3, RDF/XML, JSON-LD, N-Triples and N-Quads (plain or ``.gz``) are streamed in
bounded memory (:func:`urnld.stream.canonicalize_file`); TriX, HexTuples, ``--iris rfc3986`` and
JSON-LD with ``--catalog`` are loaded, canonicalized with :func:`urnld.rdf.canonicalize` and
written back. Output goes to a
temporary file renamed into place, so a failure never leaves a truncated file, and the input is
never modified. ``--rdfc`` writes RDFC-1.0 canonical N-Quads instead.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from .._kernel import (
    CanonOptions,
    ReadingOptions,
    syntax_for_path,
    writable_output,
)
from ..errors import URNError
from ._common import ProgressLine, counted, source_name
from ._policy_options import add_policy_options, policy_from_args, require_default_policy

HELP = "merge URN-equivalent nodes in RDF files"
EXIT_CODES = "exit status: 0 written, 2 an input could not be read, bad option or usage error"


def configure(parser: argparse.ArgumentParser) -> None:
    from ._input_options import add_input_options, add_iris_option

    parser.description = (
        "Rewrite every URN term of RDF data to its canonical form, so that equivalent "
        "spellings (URN:ISBN:0-395-36341-1, urn:isbn:0395363411) become one node. "
        "Turtle, TriG, N3, RDF/XML, JSON-LD, N-Triples and N-Quads (optionally .gz) are "
        "streamed, literals and graphs kept as written; TriX, HexTuples, --iris rfc3986 and "
        "JSON-LD with --catalog are loaded with rdflib."
    )
    parser.add_argument("inputs", nargs="*", metavar="IN", help="input file ('-' = stdin)")
    parser.add_argument(
        "-o", "--output", default="-", metavar="OUT",
        help="output file ('-' = stdout, the default); a directory with several inputs "
        "or --engine dask",
    )
    parser.add_argument(
        "--output-format", metavar="F",
        help="output RDF syntax (turtle, nt, nquads, trig, xml, json-ld…); default: from "
        "-o's extension (x.nt, x.ttl.gz…), else the input's format",
    )
    # The old spelling, kept working for scripts that use it.
    parser.add_argument("--format", dest="output_format", help=argparse.SUPPRESS)
    add_input_options(parser, stdin="nt")
    add_iris_option(parser)
    parser.add_argument("--report", metavar="R.json", help="write the JSON report here")
    parser.add_argument(
        "--html", metavar="FILE",
        help="write the report as one self-contained HTML page (what was merged, what is left)",
    )
    parser.add_argument(
        "--ignore-components", action="store_true",
        help="merge by RFC 8141 equivalence alone: drop r-, q- and f-components (reported)",
    )
    parser.add_argument(
        "--literals", action="store_true",
        help="also canonicalize plain/xsd:string/xsd:anyURI literals that are a whole URN",
    )
    parser.add_argument(
        "--link", action="store_true",
        help="add owl:sameAs (both ways) between functionally equivalent URNs of the data "
        "(ISBN-10 and ISBN-13, an ISBN and its ISBN-A DOI)",
    )
    parser.add_argument(
        "--keep-spellings", action="store_true",
        help='add <canonical> urnld:spelling "original" for every rewritten spelling',
    )
    parser.add_argument(
        "--link-resolvers", action="store_true",
        help="add <urn> rdfs:seeAlso <locator> from the resolver table (nothing is fetched)",
    )
    parser.add_argument(
        "--repair", action="store_true",
        help="apply the documented repairs first (a braced, unhyphenated or '_'-prefixed "
        "UUID…: see 'urnld repair'), counted per code in the report",
    )
    locators = parser.add_mutually_exclusive_group()
    locators.add_argument(
        "--link-locators", action="store_true",
        help="add owl:sameAs (both ways) between an IRI that is a resolver's address of a URN "
        "of the data (https://doi.org/10.…, nbn-resolving.org/urn:nbn:…) and the URN, and "
        "between an EPC URN and its GS1 Digital Link when both occur",
    )
    locators.add_argument(
        "--merge-locators", action="store_true",
        help="rewrite such a locator IRI to its URN (changes the data's meaning: the address "
        "node becomes the name node); counted in the report",
    )
    parser.add_argument(
        "--gs1-prefix-lengths", metavar="FILE",
        help="GS1 Company Prefix lengths for reading GS1 Digital Links back to EPC URNs: a "
        "JSON object {\"prefix\": length}, or 'biip' for GS1's table (needs urnld[gs1])",
    )
    parser.add_argument(
        "--rdfc", action="store_true",
        help="write RDFC-1.0 canonical N-Quads (blank nodes relabelled, lines sorted)",
    )
    parser.add_argument(
        "--max-work", type=int, default=None, metavar="N",
        help="with --rdfc: work budget of the blank-node hashing (default: 500000 for the "
        "search, 25000000 for walks counted in advance, whatever the input's size; blank nodes "
        "that share no statement get 20 per statement more)",
    )
    parser.add_argument(
        "--max-time", type=float, default=2.0, metavar="SECONDS",
        help="with --rdfc: wall-clock bound of the blank-node search (default: 2; 0: none)",
    )
    parser.add_argument(
        "--engine", choices=("local", "dask"), default="local",
        help="local (default) or dask (N-Triples/N-Quads are partitioned, other syntaxes read "
        "whole, one worker each; needs urnld[dask])",
    )
    parser.add_argument(
        "-j", "--jobs", type=int, metavar="N",
        help="local: processes sharing a streamed file (default: one per "
        "CPU for inputs over 8 MiB, else 1)",
    )
    parser.add_argument("--workers", type=int, metavar="N", help="dask: local worker processes")
    parser.add_argument("--scheduler", metavar="ADDR", help="dask: address of a running cluster")
    parser.add_argument(
        "--progress", action=argparse.BooleanOptionalAction, default=None,
        help="progress line on stderr (default: when stderr is a terminal)",
    )
    parser.add_argument(
        "-q", "--quiet", action="store_true",
        help="no summary line and no progress on stderr (errors are still printed)",
    )
    parser.add_argument(
        "-v", "--verbose", action="store_true",
        help="after the summary, list each invalid URN left as written, with the reason",
    )
    add_policy_options(parser)
    from ._report_options import add_report_options

    add_report_options(parser, sarif=False)
    from ._endpoint import add_options

    add_options(parser, write=True)





def _output_format(args: argparse.Namespace, in_fmt: str, out: str) -> str:
    """The output syntax: --rdfc, else --output-format, else -o's extension (any extension the
    reader knows), else the input's."""
    if args.rdfc:
        return "nquads"
    target = "-" if out == "-" or os.path.isdir(out) else out
    return writable_output(target, args.output_format, default=in_fmt).name


def _options(args: argparse.Namespace) -> CanonOptions:
    """The canonicalization options the command line asked for, as one value."""
    return CanonOptions(
        ignore_components=args.ignore_components, literals=args.literals, link=args.link,
        keep_spellings=args.keep_spellings, link_resolvers=args.link_resolvers,
        policy=args.policy, **_spelling_opts(args),
    )


def _report_dict(report: Any, *, streamed: bool = False, complete: bool = True) -> Any:
    """The report as ``--report`` writes it: the report's dict, plus ``"ok"`` (false when an
    input could not be read completely) and, for streamed inputs, ``duplicates_merged: null``
    (a stream is not deduplicated: nobody looked, so no count, not even 0)."""
    d = report.to_dict()
    d["ok"] = complete and not d["errors"]["count"]
    if streamed:
        d["statements"]["duplicates_merged"] = None
    return d


def _write_report(
    path: str | None, report: Any, *, streamed: bool = False, complete: bool = True
) -> None:
    if not path:
        return
    from .._kernel import atomic_output

    d = _report_dict(report, streamed=streamed, complete=complete)
    with atomic_output(path, text=True, fsync=True) as f:
        json.dump(d, f, indent=2, sort_keys=True, ensure_ascii=False)
        f.write("\n")


def _write_html(
    args: argparse.Namespace, report: Any, rule_invalid: dict[str, int] | None = None
) -> None:
    if not args.html:
        return
    from ._html_report import (
        canonicalize_document,
        find_positions,
        shown_spellings,
        write_html,
    )

    streamed = getattr(args, "streamed", False)
    d = _report_dict(report, streamed=streamed)
    positions = find_positions(args.inputs, shown_spellings(d))
    if rule_invalid is None:
        rule_invalid = report.rule_invalid_nids(getattr(args, "policy", None))
    write_html(args.html, canonicalize_document(
        d, argv=args.argv, summary=_summary(report, streamed=streamed, rule_invalid=rule_invalid),
        positions=positions, rule_invalid=rule_invalid,
    ))


def _finish(args: argparse.Namespace, report: Any) -> None:
    from ._report_options import emit_findings

    # The URNs that break their namespace's rules: checked once, for the page and the summary.
    rule_invalid = (report.rule_invalid_nids(getattr(args, "policy", None))
                    if args.html or not args.quiet else None)
    _write_html(args, report, rule_invalid)
    emit_findings(args, report, list(args.inputs), kind="canonicalize")
    _print_summary(args, report, rule_invalid)


def _print_summary(
    args: argparse.Namespace, report: Any, rule_invalid: dict[str, int] | None = None
) -> None:
    if args.quiet:
        return
    summary = _summary(report, streamed=getattr(args, "streamed", False),
                       rule_invalid=rule_invalid)
    print(f"urnld canonicalize: {summary}", file=sys.stderr)
    if args.verbose:
        for spelling, (count, reason) in report.invalid.items():
            print(f"  left as written: {spelling} ({count:,}x): {reason}", file=sys.stderr)


def _summary(
    report: Any, *, streamed: bool = False, rule_invalid: dict[str, int] | None = None
) -> str:
    """What was merged and what is left, in words a newcomer reads (exact counts, distinct
    spellings included, at any size).

    *streamed*: some input was streamed, and a stream is not deduplicated: the summary says so
    rather than "0 duplicates merged". What is left as written is exactly what has no canonical
    form: not RFC 8141 syntax, or an NID RFC 8141 (or the policy) rules out. A URN that breaks
    only its namespace's rules (a wrong ISBN check digit) has one, and is rewritten; it is
    counted apart (*rule_invalid*: NID -> occurrences), as ``urnld check`` lists it invalid.
    """
    d = report.to_dict()
    merged = d["merged"]
    invalid = d["invalid"]
    stmts = d["statements"]
    if streamed:
        statements = (f"{counted(stmts['in'], 'statement')} in, {stmts['out']:,} written "
                      "(duplicates not merged in streaming mode)")
    else:
        statements = (f"{counted(stmts['in'], 'statement')} in, {stmts['out']:,} out "
                      f"({counted(stmts['duplicates_merged'], 'duplicate')} merged)")
    text = (
        f"{statements}; "
        f"merged {counted(merged['spellings'], 'spelling')} into "
        f"{counted(merged['canonical'], 'canonical URN')} "
        f"({counted(d['urns']['rewritten'], 'occurrence')} rewritten)"
    )
    iris = d["iris"]
    if iris["rewritten"]:
        text += (
            f"; merged {counted(iris['spellings'], 'spelling')} of other IRIs into "
            f"{counted(iris['normal_forms'], 'RFC 3986 normal form')} "
            f"({counted(iris['rewritten'], 'occurrence')} rewritten)"
        )
    if d["urns"]["invalid"]:
        text += (
            f"; left {counted(invalid['distinct'], 'invalid URN')} as written "
            f"({counted(d['urns']['invalid'], 'occurrence')}): no canonical form exists for them "
            "(not RFC 8141 syntax, or an NID that RFC 8141 rules out; -v gives each reason)"
        )
    rule_occurrences = sum((rule_invalid or {}).values())
    if rule_occurrences:
        text += (
            f"; {counted(rule_occurrences, 'occurrence')} of URNs that break their "
            "namespace's rules (such as a wrong check digit) written in canonical form; "
            "urnld check lists them"
        )
    added = d["added"]
    if any(added.values()):
        text += (
            f"; added {added['same_as']:,} owl:sameAs, {added['spellings']:,} "
            f"urnld:spelling and {added['see_also']:,} rdfs:seeAlso statements"
        )
    if "repairs" in d:
        codes = ", ".join(f"{code} {n:,}" for code, n in d["repairs"].items())
        text += f"; repaired {counted(sum(d['repairs'].values()), 'occurrence')} ({codes})"
    if "locators" in d and d["locators"]["occurrences"]:
        loc = d["locators"]
        text += f"; met {counted(loc['occurrences'], 'locator occurrence')} of URNs"
        if loc["merged"]:
            text += f" ({loc['merged']:,} merged into their URN)"
    return text


def _one(
    args: argparse.Namespace, src: str, out: str, in_fmt: str, out_fmt: str
) -> Any:
    """Canonicalize one input into ``out`` through the library's file job; return the
    report."""
    from .. import files
    from ._input_options import warnings_to_stderr

    reading = _reading(args, in_fmt)
    rdfc = files.RDFC(args.max_work, args.max_time or None) if args.rdfc else None
    route = files.plan(src, out, reading=reading, output_format=out_fmt, rdfc=rdfc,
                       iris=args.iris)
    bar = None
    if not route.counts_duplicates:
        args.streamed = True
        show = args.progress if args.progress is not None else sys.stderr.isatty()
        bar = ProgressLine("urnld canonicalize") if show and not args.quiet else None
    try:
        with warnings_to_stderr("urnld canonicalize"):
            return files.canonicalize(
                src, out, options=_options(args), reading=reading, output_format=out_fmt,
                rdfc=rdfc, iris=args.iris, jobs=args.jobs, progress=bar,
                name=source_name(src),
            )
    finally:
        if bar is not None:
            bar.close()


def _reading(args: argparse.Namespace, in_fmt: str) -> ReadingOptions:
    """How the options say inputs are read, as one value."""
    from ._input_options import read_options

    return ReadingOptions(format=in_fmt, **read_options(args))


def _spelling_opts(args: argparse.Namespace) -> dict[str, Any]:
    """The spelling modes' keyword arguments; none at all when they are off, so every path
    (and the engines that do not take them) sees the call it always saw."""
    out: dict[str, Any] = {}
    if args.repair:
        out["repair"] = True
    if args.link_locators:
        out["link_locators"] = True
    if args.merge_locators:
        out["merge_locators"] = True
    if args.gs1_prefix_lengths:
        out["prefix_lengths"] = args.prefix_lengths
    return out


def prefix_lengths_option(value: str | None) -> Any:
    """--gs1-prefix-lengths: a JSON object of prefix -> length, or GS1's table from biip."""
    if value is None:
        return None
    if value == "biip":
        from ..namespaces import biip_prefix_lengths

        biip_prefix_lengths("0")  # names the missing package now, not at the first IRI
        return biip_prefix_lengths
    from .._kernel import read_regular

    try:
        # A regular file within a limit (GS1's full table is well under 1 MiB).
        table = json.loads(read_regular(value, "prefix-length table", max_bytes=16 << 20))
    except URNError as e:
        raise URNError(f"--gs1-prefix-lengths {value}: {e}") from None
    except (OSError, ValueError) as e:
        raise URNError(f"--gs1-prefix-lengths {value}: cannot read it: {e}") from None
    if not isinstance(table, dict) or not all(
        isinstance(k, str) and k.isdigit() and type(v) is int and 6 <= v <= 12
        for k, v in table.items()
    ):
        raise URNError(
            f"--gs1-prefix-lengths {value}: need a JSON object of digit prefixes to company "
            "prefix lengths (6 to 12), e.g. {\"4012345\": 7}"
        )
    return table


def run(args: argparse.Namespace) -> int:
    from ._report_options import memory_options

    with memory_options(args, args.output):
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    args.policy = policy_from_args(args, "urnld canonicalize")
    if args.gs1_prefix_lengths and not (args.link_locators or args.merge_locators):
        raise URNError("--gs1-prefix-lengths needs --link-locators or --merge-locators")
    args.prefix_lengths = prefix_lengths_option(args.gs1_prefix_lengths)
    if args.endpoint is not None:
        require_default_policy(args.policy, "--endpoint")
        from ._endpoint import run_canonicalize

        return run_canonicalize(args, _summary, _finish)

    inputs: list[str] = args.inputs
    if not inputs:
        raise URNError("give input files to canonicalize, or --endpoint URL")
    if args.engine == "dask":
        require_default_policy(args.policy, "--engine dask")
        if args.jobs is not None:
            raise URNError("--jobs is for the local engine; --engine dask takes --workers")
        return _run_dask(args)
    if args.workers is not None or args.scheduler is not None:
        raise URNError("--workers/--scheduler need --engine dask")
    if args.rdfc and args.output_format and args.output_format not in ("nquads", "nq"):
        raise URNError("--rdfc writes N-Quads; drop --output-format or use nquads")
    if args.max_work is not None and args.max_work < 1:
        raise URNError(f"--max-work must be a positive integer, got {args.max_work}")
    if args.max_time < 0:
        raise URNError(f"--max-time must be 0 (no bound) or a number of seconds, got "
                       f"{args.max_time:g}")
    if args.jobs is not None and args.jobs < 1:
        raise URNError(f"--jobs must be a positive integer, got {args.jobs}")
    report: Any = None
    if len(inputs) == 1 and not (args.output != "-" and os.path.isdir(args.output)):
        src = inputs[0]
        in_fmt = syntax_for_path(src, args.input_format, stdin="nt").name
        out_fmt = _output_format(args, in_fmt, args.output)
        report = _one(args, src, args.output, in_fmt, out_fmt)
    else:
        outdir = args.output
        if outdir == "-" or (os.path.exists(outdir) and not os.path.isdir(outdir)):
            raise URNError("several inputs need -o OUTDIR, a directory")
        # Created when missing, as the Dask engine does, so both engines take the same -o.
        os.makedirs(outdir, exist_ok=True)
        names = [os.path.basename(p) for p in inputs]
        if "-" in inputs or len(set(names)) != len(names):
            raise URNError("several inputs need distinct file names (and no '-')")
        for src, name in zip(inputs, names, strict=True):
            in_fmt = syntax_for_path(src, args.input_format, stdin="nt").name
            out_fmt = _output_format(args, in_fmt, "-")
            r = _one(args, src, os.path.join(outdir, name), in_fmt, out_fmt)
            report = r if report is None else report.merge(r)
    _write_report(args.report, report, streamed=getattr(args, "streamed", False))
    _finish(args, report)
    return 0


def output_paths(args: argparse.Namespace) -> list[str]:
    """The data files ``-o`` stands for (the dispatcher checks them, with ``--report`` and
    ``--html``, against the inputs before anything is written): one file, or one per input in
    the output directory."""
    inputs: list[str] = args.inputs
    out: str = args.output
    if len(inputs) > 1 or args.engine == "dask" or (out != "-" and os.path.isdir(out)):
        return [os.path.join(out, os.path.basename(p)) for p in inputs if p != "-"]
    return [out]


def _run_dask(args: argparse.Namespace) -> int:
    if args.rdfc:
        raise URNError(
            "--rdfc cannot be partitioned (RDFC-1.0 needs the whole dataset): run it locally "
            "on the canonicalized output"
        )
    if args.output == "-":
        raise URNError("--engine dask writes a directory: give -o OUTDIR")
    if "-" in args.inputs:
        raise URNError("--engine dask reads files: '-' (stdin) cannot be partitioned")
    try:
        import urnld.dask as udask
    except ImportError as e:  # the module itself is ours; its dependency may be missing
        raise URNError(
            f"the Dask engine is not available ({e}); install it with: pip install 'urnld[dask]'"
        ) from e
    # Line-based inputs are partitioned and streamed, the other syntaxes the route streams are
    # streamed whole by one worker: not deduplicated either way. The route of each input is
    # the library's (each output is written in the input's syntax or --output-format's).
    from .. import files
    from ._input_options import read_options, warnings_to_stderr

    args.streamed = any(
        not files.plan(p, "-", reading=ReadingOptions(format=args.input_format,
                                                        **read_options(args)),
                       output_format=args.output_format, iris=args.iris).counts_duplicates
        for p in args.inputs
    )
    try:
        with warnings_to_stderr("urnld canonicalize"):
            report = udask.canonicalize_files(
                args.inputs,
                args.output,
                workers=args.workers,
                scheduler=args.scheduler,
                output_format=args.output_format,
                iris=args.iris,
                options=_options(args),
                reading=ReadingOptions(format=args.input_format, **read_options(args)),
            )
    except udask.DaskJobError as e:
        # The one-line error names the first bad line; the report lists all of them.
        if args.report and e.report is not None:
            _write_report(args.report, e.report, complete=False)
        raise
    _write_report(args.report, report, streamed=args.streamed)
    _finish(args, report)
    return 0
