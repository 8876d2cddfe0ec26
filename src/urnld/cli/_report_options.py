"""The report options the commands that fill a report share.

``--memory-budget SIZE`` (what a report's maps hold in memory before they spill sorted runs to
disk: in the output's directory, else the temp dir; counts stay exact), ``--findings FILE``
(every finding, JSON Lines or CSV by extension), ``--sarif FILE`` (SARIF 2.1.0) and
``--annotations github`` (GitHub Actions workflow commands, the default when
``GITHUB_ACTIONS`` is set).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
from collections.abc import Iterator
from typing import Any

from ..errors import URNError

__all__ = [
    "add_memory_option",
    "add_report_options",
    "annotations_wanted",
    "emit_findings",
    "memory_options",
    "parse_size",
]

_SIZE = re.compile(r"\s*(\d+(?:\.\d+)?)\s*([kmgt]?)i?b?\s*", re.IGNORECASE)
_UNITS = {"": 1, "k": 2**10, "m": 2**20, "g": 2**30, "t": 2**40}


def parse_size(text: str) -> int:
    """A size in bytes from ``"64M"``, ``"1.5G"``, ``"512k"``, ``"1000"`` (binary units).

    >>> parse_size("64M"), parse_size("1k"), parse_size("0")
    (67108864, 1024, 0)
    >>> parse_size("lots")
    Traceback (most recent call last):
    ...
    urnld.URNError: --memory-budget: 'lots' is not a size (e.g. 64M, 1G, 500000)
    """
    m = _SIZE.fullmatch(text)
    if m is None:
        raise URNError(f"--memory-budget: {text!r} is not a size (e.g. 64M, 1G, 500000)")
    return int(float(m.group(1)) * _UNITS[m.group(2).lower()])


def add_memory_option(parser: argparse.ArgumentParser) -> None:
    """``--memory-budget SIZE``."""
    parser.add_argument(
        "--memory-budget", metavar="SIZE",
        help="memory the report's sets of spellings may hold before they spill sorted runs "
        "to disk (the output's directory, else the temp dir; removed when done); counts stay "
        "exact at any size (default 32M; e.g. 256M, 1G)",
    )


def add_report_options(
    parser: argparse.ArgumentParser, *, sarif: bool = True, memory: bool = True
) -> None:
    """``--findings``, and ``--sarif``/``--annotations`` (*sarif*), ``--memory-budget``
    (*memory*)."""
    parser.add_argument(
        "--findings", metavar="FILE",
        help="write every finding to FILE, complete whatever the report's caps: JSON Lines "
        "(.jsonl, .json) or CSV (.csv)",
    )
    if sarif:
        parser.add_argument(
            "--sarif", metavar="FILE",
            help="write every invalid URN occurrence as a SARIF 2.1.0 log (code scanning)",
        )
        parser.add_argument(
            "--annotations", choices=("github", "none"),
            help="print each invalid URN occurrence as a CI annotation (github: "
            "'::error file=…,line=…::'; default: github when GITHUB_ACTIONS is set)",
        )
    if memory:
        add_memory_option(parser)


def annotations_wanted(args: argparse.Namespace) -> bool:
    """True when GitHub Actions annotations are asked for, or implied by ``GITHUB_ACTIONS``."""
    choice = getattr(args, "annotations", None)
    if choice is None:
        return os.environ.get("GITHUB_ACTIONS") == "true"
    return bool(choice == "github")


def _spill_directory_for(output: str | None) -> str | None:
    """The directory of *output* when runs can be made there, else None (the temp dir)."""
    if not output or output == "-":
        return None
    path = os.path.abspath(output)
    directory = path if os.path.isdir(path) else os.path.dirname(path)
    return directory if os.path.isdir(directory) and os.access(directory, os.W_OK) else None


@contextlib.contextmanager
def memory_options(args: argparse.Namespace, output: str | None = None) -> Iterator[None]:
    """Within the block, the reports of this run (and of the processes it starts) use
    ``--memory-budget`` and spill next to *output* (a file or directory the command writes);
    the settings before it are restored after it (a command run in-process leaves nothing
    behind)."""
    from .._kernel import spill_settings

    text = getattr(args, "memory_budget", None)
    budget = parse_size(text) if text is not None else None
    with spill_settings(budget, _spill_directory_for(output)):
        yield


def emit_findings(
    args: argparse.Namespace, report: Any, paths: list[str], *, kind: str,
    version: str | None = None,
) -> None:
    """Write what ``--findings``, ``--sarif`` and ``--annotations`` ask for, from *report*
    (a check or canonicalize report) over the inputs *paths*."""
    from . import _findings

    findings = getattr(args, "findings", None)
    if findings:
        records = (
            _findings.check_records(report, paths) if kind == "check"
            else _findings.canonicalize_records(report, paths)
        )
        with _findings.FindingsWriter(findings) as writer:
            writer.write_all(records)
    sarif = getattr(args, "sarif", None)
    annotate = annotations_wanted(args)
    if not (sarif or annotate):
        return
    places: Iterator[Any] = _findings.invalid_places(paths, report.iter_invalid())
    if annotate:
        places = _annotating(places)
    if sarif:
        if version is None:
            from .. import __version__ as version
        notes = report.iter_notes() if hasattr(report, "iter_notes") else ()
        _findings.write_sarif(sarif, places, version=version or "", notes=notes)
    else:
        for _ in places:
            pass


def _annotating(places: Iterator[Any]) -> Iterator[Any]:
    import sys

    from ._findings import annotate

    for place in places:
        annotate([place], sys.stderr)
        yield place
