"""``urnld undo FILE --update-endpoint URL``: revert an in-place canonicalization.

Sends the undo file that ``urnld canonicalize --endpoint … --undo FILE`` wrote, last batch
first, one update request per batch, with progress on stderr. Applied batches are recorded
beside the file (``FILE.applied``): a stopped undo is finished by running it again, and running
it after it finished changes nothing. Exit 0 on success, 2 on errors.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from ..errors import URNError

HELP = "revert an in-place canonicalization from its undo file"
EXIT_CODES = ("exit status: 0 reverted (or nothing left to revert), 2 endpoint failure or "
              "usage error")


def configure(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Apply the undo file of 'urnld canonicalize --endpoint … --undo FILE' to the store: "
        "the URN spellings the run rewrote come back and the statements it added go, batch by "
        "batch, last first. Credentials come from URNLD_ENDPOINT_TOKEN, URNLD_ENDPOINT_USER/"
        "URNLD_ENDPOINT_PASSWORD (URNLD_ENDPOINT_AUTH=digest for HTTP Digest) or netrc."
    )
    parser.add_argument("file", metavar="FILE", help="the undo file a canonicalize run wrote")
    parser.add_argument(
        "--update-endpoint", required=True, metavar="URL", help="SPARQL 1.1 update endpoint"
    )
    parser.add_argument(
        "--timeout", type=float, default=None, metavar="S",
        help="seconds to wait for each answer from the server (default 600)",
    )
    progress = parser.add_mutually_exclusive_group()
    progress.add_argument("--progress", action="store_true", default=None,
                          help="show progress on stderr (default: when stderr is a terminal)")
    progress.add_argument("--no-progress", dest="progress", action="store_false",
                          help="no progress display")
    parser.add_argument("-q", "--quiet", action="store_true", help="print nothing on success")


class _Bar:
    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self.start = time.monotonic()
        self.shown = False

    def __call__(self, p: Any) -> None:
        if not self.enabled:
            return
        rate = p.statements_done / max(time.monotonic() - self.start, 1e-9)
        sys.stderr.write(
            f"\rurnld undo: batch {p.batches_done:,}/{p.batches_total:,}, "
            f"{p.statements_done:,}/{p.statements_total:,} statements ({rate:,.0f}/s)  "
        )
        sys.stderr.flush()
        self.shown = True

    def close(self) -> None:
        if self.shown:
            sys.stderr.write("\n")
            sys.stderr.flush()


def run(args: argparse.Namespace) -> int:
    from ..endpoint import DEFAULT_TIMEOUT, apply_undo

    if args.timeout is not None and not args.timeout > 0:
        raise URNError(f"--timeout must be a positive number of seconds, got {args.timeout}")
    shown = sys.stderr.isatty() if args.progress is None else args.progress
    bar = _Bar(shown and not args.quiet)
    try:
        n = apply_undo(args.file, args.update_endpoint,
                       timeout=args.timeout or DEFAULT_TIMEOUT, progress=bar)
    finally:
        bar.close()
    if not args.quiet:
        print(f"urnld undo: {n:,} batch{'es' if n != 1 else ''} reverted"
              if n else "urnld undo: nothing left to revert", file=sys.stderr)
    return 0
