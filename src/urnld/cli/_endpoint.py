"""``--endpoint URL``: ``urnld check`` and ``urnld canonicalize`` on a running SPARQL store.

The options and the runs live here so that the file-based subcommands only hand over to
:func:`run_check` / :func:`run_canonicalize` when ``--endpoint`` is given.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from typing import Any

from ..errors import URNError

__all__ = ["add_options", "check_report", "run_canonicalize"]

_CREDENTIALS = (
    "credentials come from URNLD_ENDPOINT_TOKEN (bearer), URNLD_ENDPOINT_USER and "
    "URNLD_ENDPOINT_PASSWORD (basic; digest with URNLD_ENDPOINT_AUTH=digest), or the host's "
    "netrc entry, never from the command line"
)


def add_options(parser: argparse.ArgumentParser, *, write: bool) -> None:
    """Add the endpoint options to ``check`` (``write=False``) or ``canonicalize``."""
    group = parser.add_argument_group(
        "SPARQL endpoint", f"work on a running triplestore instead of files; {_CREDENTIALS}"
    )
    group.add_argument(
        "--endpoint", metavar="URL",
        help="SPARQL 1.1 query endpoint (replaces the file arguments)",
    )
    scope = group.add_mutually_exclusive_group()
    scope.add_argument("--graph", metavar="IRI", help="only this named graph")
    scope.add_argument(
        "--all-graphs", action="store_true",
        help="the default graph, every named graph, and the graph names "
        "(default: the default graph only)",
    )
    if not write:
        group.add_argument(
            "--literals", action="store_true",
            help="also count plain/xsd:string/xsd:anyURI literals that are a whole URN",
        )
    group.add_argument(
        "--timeout", type=float, default=None, metavar="S",
        help="seconds to wait for each answer from the server (default 600)",
    )
    group.add_argument(
        "--page-size", type=int, default=None, metavar="N",
        help="read the term list in pages of N (ORDER BY/LIMIT/OFFSET), for endpoints that cap "
        "result sizes (default: one streamed result)",
    )
    if write:
        group.add_argument(
            "--update-endpoint", metavar="URL",
            help="SPARQL 1.1 update endpoint (default: the --endpoint URL)",
        )
        group.add_argument(
            "--dry-run", action="store_true", help="report what would change, change nothing"
        )
        group.add_argument(
            "--batch", type=int, default=None, metavar="N",
            help="URN occurrences rewritten (or statements --link, --keep-spellings, "
            "--link-resolvers add) per update request (default 10000)",
        )
        group.add_argument(
            "--undo", metavar="U.ru",
            help="write here, batch by batch, the updates that restore the original spellings "
            "(and remove the statements the run added); apply with 'urnld undo U.ru'",
        )


def _common(args: argparse.Namespace) -> dict[str, Any]:
    from ..endpoint import DEFAULT_TIMEOUT

    if args.timeout is not None and not args.timeout > 0:
        raise URNError(f"--timeout must be a positive number of seconds, got {args.timeout}")
    return {
        "graph": args.graph,
        "all_graphs": args.all_graphs,
        "literals": args.literals,
        "timeout": args.timeout or DEFAULT_TIMEOUT,
        "page_size": args.page_size,
    }


def check_report(args: argparse.Namespace) -> Any:
    """The :class:`~urnld.report.CheckReport` of ``urnld check --endpoint URL``; ``urnld check``
    prints it (text, ``--json``, ``--html``) as it prints the report of files."""
    from ..rdf import check_endpoint

    if args.files:
        raise URNError("give files or --endpoint, not both")
    if args.engine != "local" or args.workers is not None or args.scheduler is not None:
        raise URNError("--endpoint works with the local engine only")
    return check_endpoint(args.endpoint, **_common(args))


class _Bar:
    """Progress on stderr: batches done, URN occurrences rewritten, and their rate."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self.start = time.monotonic()
        self.last: Any = None

    def __call__(self, p: Any) -> None:
        self.last = p
        if not self.enabled:
            return
        rate = p.statements_done / max(time.monotonic() - self.start, 1e-9)
        width = 24
        filled = width * p.batches_done // max(p.batches_total, 1)
        sys.stderr.write(
            f"\rurnld canonicalize: [{'#' * filled}{'.' * (width - filled)}] "
            f"batch {p.batches_done:,}/{p.batches_total:,}, "
            f"{p.statements_done:,}/{p.statements_total:,} statements ({rate:,.0f}/s)  "
        )
        sys.stderr.flush()

    def close(self) -> None:
        if self.enabled and self.last is not None:
            sys.stderr.write("\n")
            sys.stderr.flush()


def run_canonicalize(
    args: argparse.Namespace,
    summary: Callable[[Any], str],
    finish: Callable[[argparse.Namespace, Any], None],
) -> int:
    """``urnld canonicalize --endpoint URL``: rewrite in place; a failed batch exits 2.

    ``summary(report)`` is the one-line summary of ``urnld canonicalize``, ``finish(args,
    report)`` writes its HTML report and prints its summary, as for files.
    """
    from .._kernel import CanonOptions
    from ..rdf import EndpointBatchError, canonicalize_endpoint

    if args.inputs:
        raise URNError("give input files or --endpoint, not both")
    for flag, given in (
        ("-o", args.output != "-"), ("--output-format", args.output_format),
        ("--input-format", args.input_format), ("--rdfc", args.rdfc),
        ("--engine dask", args.engine != "local"), ("--jobs", args.jobs is not None),
    ):
        if given:
            raise URNError(f"{flag} is for files; --endpoint rewrites the store in place")
    if args.batch is not None and args.batch < 1:
        raise URNError(f"--batch must be a positive integer, got {args.batch}")
    shown = sys.stderr.isatty() if args.progress is None else args.progress
    bar = _Bar(shown and not args.quiet)
    common = _common(args)
    options = CanonOptions(
        ignore_components=args.ignore_components, literals=common.pop("literals"),
        link=args.link, keep_spellings=args.keep_spellings, link_resolvers=args.link_resolvers,
        repair=bool(getattr(args, "repair", False)),
        link_locators=bool(getattr(args, "link_locators", False)),
        merge_locators=bool(getattr(args, "merge_locators", False)),
        prefix_lengths=getattr(args, "prefix_lengths", None),
    )
    run: dict[str, Any] = {"endpoint": args.endpoint, "dry_run": args.dry_run}
    try:
        report = canonicalize_endpoint(
            args.endpoint,
            update_url=args.update_endpoint,
            dry_run=args.dry_run,
            undo=args.undo,
            progress=bar,
            **({"batch": args.batch} if args.batch else {}),
            **common,
            options=options,
        )
    except EndpointBatchError as e:
        bar.close()
        run.update(complete=False, batches={"done": e.batches_done, "total": e.batches_total})
        _write(args.report, e.report, run)
        raise
    bar.close()
    done = bar.last.batches_done if bar.last is not None else 0
    run.update(complete=True, batches={"done": done, "total": done})
    _write(args.report, report, run)
    if args.dry_run:
        if not args.quiet:
            print(f"urnld canonicalize: dry run, the store was not changed; a real run: "
                  f"{summary(report)}", file=sys.stderr)
    else:
        finish(args, report)
    return 0


def _write(path: str | None, report: Any, run: dict[str, Any]) -> None:
    if not path:
        return
    from .._kernel import atomic_output, outside_transaction

    out = report.to_dict()
    out["run"] = run
    # Written even by a run that stops half-way (exit 2): the store has changed, and the
    # report says which batches it committed, so it does not wait for the run's commit.
    with outside_transaction(), atomic_output(path, text=True, fsync=True) as f:
        json.dump(out, f, indent=2, sort_keys=True, ensure_ascii=False)
        f.write("\n")
