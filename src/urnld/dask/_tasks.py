"""The functions Dask runs on workers.

They are plain module-level functions (pickled by reference, so workers import this module rather
than receiving code) that read their input straight from the file system and, for
``canonicalize``, write their output piece straight to the job's temporary directory. Only small
values travel through Dask: a :class:`Partition` in, a report out.

Malformed lines do not raise here: the streaming functions record them in the report (with file
and exact line number) and go on, so one bad line never stops the other partitions; the driver
decides from the merged report that the job failed.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any, TypeVar

from .._kernel import CanonOptions, atomic_output
from ..errors import URNError
from ..report import CanonicalizeReport, CheckReport
from ..stream import canonicalize_lines, check_lines
from ._output import concat
from ._partition import FileInfo, Partition, iter_lines

if TYPE_CHECKING:
    # The reader (rdflib, pyld) is imported by the document tasks only: a worker that streams
    # line partitions never loads it.
    from ._documents import Reading

__all__ = [
    "canonicalize_document_task",
    "canonicalize_partition",
    "check_document_task",
    "check_partition",
    "concat_pieces",
    "digest_file",
    "merge_reports",
]

Report = TypeVar("Report", CanonicalizeReport, CheckReport)

def canonicalize_partition(
    part: Partition, out_path: str, options: CanonOptions
) -> CanonicalizeReport:
    """Canonicalize the lines of ``part`` into ``out_path``; return the partition's report.

    ``options`` add statements (``link``…) only for a partition that is a whole file: the
    added statements depend on every spelling of the file.
    """
    report = CanonicalizeReport(
        ignore_components=options.ignore_components, literals=options.literals
    )
    # Written like ``urnld canonicalize`` writes (the file layer; gzip like the input), so
    # outputs are byte-identical to the single-process ones; fsynced, so a committed
    # directory is durable.
    with atomic_output(out_path, fsync=True, compress=part.file.compressed) as out:
        out.writelines(
            canonicalize_lines(
                iter_lines(part),
                source=part.file.source,
                first_line=part.first_line,
                report=report,
                on_error="report",
                options=options,
            )
        )
    return report


def check_partition(part: Partition, memory_budget: int | None = None) -> CheckReport:
    """Check the lines of ``part``; return the partition's report (its maps spill past
    ``memory_budget`` bytes, and the pickled result carries the spilled runs)."""
    report = CheckReport(memory_budget=memory_budget)
    check_lines(
        iter_lines(part), source=part.file.source, first_line=part.first_line, report=report
    )
    return report


def canonicalize_document_task(
    file: FileInfo, out_path: str, reading: Reading, settings: dict[str, Any]
) -> tuple[CanonicalizeReport, list[str]]:
    """Read ``file`` whole, canonicalize it in memory and write it to ``out_path``, as
    ``urnld canonicalize`` does locally; return the report and the hazard warnings raised
    while reading. ``settings``: :func:`urnld.rdf.canonicalize_document`'s other keywords
    (``output_format``, ``iris``, ``options``)."""
    from .. import files
    from .._kernel import DEFAULT_OPTIONS, ReadingOptions
    from ._documents import recorded

    file.verify()
    out_fmt = settings.get("output_format") or reading.format
    # The library's file job: the same route, engine and bytes as the local command (jobs=1:
    # a Dask worker has no children of its own).
    return recorded(lambda: files.canonicalize(
        file.path, out_path, options=settings.get("options") or DEFAULT_OPTIONS,
        reading=ReadingOptions(format=reading.format, base=reading.base,
                               catalog=reading.catalog, hazards=reading.hazards),
        output_format=out_fmt, iris=settings.get("iris", "as-is"), jobs=1, name=file.source,
    ))


def check_document_task(file: FileInfo, reading: Reading) -> tuple[CheckReport, list[str]]:
    """Read ``file`` whole and check its URNs, as ``urnld check`` does locally; return the
    report and the hazard warnings raised while reading."""
    from .. import files
    from .._kernel import ReadingOptions
    from ._documents import recorded

    file.verify()
    # The library's file job: the same route and report as the local command.
    return recorded(lambda: files.check(
        file.path, reading=ReadingOptions(format=reading.format, base=reading.base,
                                          catalog=reading.catalog, hazards=reading.hazards),
        jobs=1, name=file.source,
    ))


def concat_pieces(pieces: list[str], target: str) -> None:
    """Join a split file's output pieces, in partition order, into its output file."""
    concat(pieces, target)


def merge_reports(*reports: Report) -> Report:
    """Merge partition reports (in the order given)."""
    return functools.reduce(lambda a, b: a.merge(b), reports)


def digest_file(file: FileInfo, ignore_components: bool, literals: bool) -> str:
    """RDFC-1.0 digest (after URN canonicalization) of one whole file, read into memory."""
    from ..rdf import digest

    data = b"".join(iter_lines(Partition(file, 0, 0, file.size, 1)))
    try:
        return digest(data, ignore_components=ignore_components, literals=literals)
    except URNError as e:
        # urnld.rdf names the input "<input>": say which file it was.
        raise URNError(f"{file.source}: {e}") from e
