#!/usr/bin/env python3
"""Refresh ``src/urnld/data/urn-namespaces.csv`` from IANA's URN namespace registry.

IANA publishes the registry as two CSV files (columns "URN Namespace", "Template",
"Reference"; a date column, if IANA adds one, is used too):

* formal NIDs:   https://www.iana.org/assignments/urn-namespaces/urn-namespaces-1.csv
* informal NIDs: https://www.iana.org/assignments/urn-namespaces/urn-namespaces-2.csv

Usage::

    python scripts/refresh_registry.py                      # fetch both from iana.org
    python scripts/refresh_registry.py --formal f.csv --informal i.csv   # local copies
    python scripts/refresh_registry.py --dry-run            # report, write nothing

Merge rules (:func:`merge`):

* IANA owns ``kind``, ``template`` and ``reference``. A reference of ours that *starts with*
  IANA's text (ours adds a note, e.g. ``[RFC9562] (was [RFC4122] …)``) is kept.
* Our extra columns (``registered_date``, ``date_basis``, ``source``, ``reference_source``,
  ``notes``, and any other) are kept for NIDs we already have; an empty ``registered_date`` is
  filled from IANA's date column when there is one (``date_basis`` ``iana-csv``).
* New NIDs get IANA's columns, with ``source`` and ``reference_source`` naming the file read.
* Our row order is kept; a new NID goes before the first row that sorts after it.
* NIDs we have that the IANA files lack are kept and reported (``--drop-missing`` drops them):
  an older or partial IANA copy must not erase rows.

The output is written to a temporary file beside the target and renamed over it, so a failed
run leaves the old file intact. Exit 0 on success, 2 on any error (one line on stderr).
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import io
import os
import re
import sys
import tempfile
import urllib.request
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

IANA_BASE = "https://www.iana.org/assignments/urn-namespaces/"
FORMAL_URL = IANA_BASE + "urn-namespaces-1.csv"
INFORMAL_URL = IANA_BASE + "urn-namespaces-2.csv"
REPO = Path(__file__).resolve().parent.parent
DEFAULT_CSV = REPO / "src" / "urnld" / "data" / "urn-namespaces.csv"
COLUMNS = [
    "nid", "kind", "reference", "registered_date", "date_basis", "source",
    "reference_source", "template", "notes",
]  # fmt: skip
# RFC 8141 §2: NID = (alphanum) 0*30(ldh) (alphanum)
_NID = re.compile(r"[A-Za-z0-9][A-Za-z0-9-]{0,30}[A-Za-z0-9]")
_INFORMAL = re.compile(r"urn-[1-9][0-9]*")


class RefreshError(Exception):
    """The inputs cannot be used: unreadable, not IANA's CSV, or inconsistent."""


@dataclass(frozen=True)
class IanaRow:
    """One row of an IANA registry CSV."""

    nid: str
    kind: str
    template: str
    reference: str
    date: str
    source: str


@dataclass
class Changes:
    """What a merge did, for the report."""

    added: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        out = [f"added {len(self.added)}: {', '.join(self.added) or '-'}"]
        out += [f"updated {u}" for u in self.updated]
        if self.missing:
            out.append(f"not in IANA input, kept: {', '.join(self.missing)}")
        if self.dropped:
            out.append(f"not in IANA input, dropped: {', '.join(self.dropped)}")
        return out


def _column(headers: list[str], words: Sequence[str], default: int | None) -> int | None:
    for i, h in enumerate(headers):
        if any(w in h.strip().lower() for w in words):
            return i
    return default


def read_iana(text: str, kind: str, source: str) -> list[IanaRow]:
    """Parse one IANA CSV (*kind* ``formal`` or ``informal``); *source* names it in errors.

    >>> [r.nid for r in read_iana("URN Namespace,Template,Reference\\nisbn,[isbn-template],[X]\\n",
    ...                           "formal", "f.csv")]
    ['isbn']
    """
    rows = list(csv.reader(io.StringIO(text.lstrip("\ufeff"))))
    if not rows or not rows[0]:
        raise RefreshError(f"{source}: empty file")
    headers = rows[0]
    nid_col = _column(headers, ("namespace", "value", "nid"), None)
    if nid_col is None:
        raise RefreshError(f"{source}: no 'URN Namespace' column in header {headers!r}")
    template_col = _column(headers, ("template",), None)
    reference_col = _column(headers, ("reference",), None)
    date_col = _column(headers, ("date",), None)

    def cell(row: list[str], col: int | None) -> str:
        return row[col].strip() if col is not None and col < len(row) else ""

    out: list[IanaRow] = []
    seen: set[str] = set()
    for line, row in enumerate(rows[1:], start=2):
        if not any(c.strip() for c in row):
            continue
        nid = cell(row, nid_col).lower()
        if not _NID.fullmatch(nid):
            raise RefreshError(f"{source}:{line}: {nid!r} is not an RFC 8141 NID")
        if (kind == "informal") != bool(_INFORMAL.fullmatch(nid)):
            raise RefreshError(f"{source}:{line}: {nid!r} does not belong in the {kind} list")
        if nid in seen:
            raise RefreshError(f"{source}:{line}: {nid!r} listed twice")
        seen.add(nid)
        out.append(
            IanaRow(nid, kind, cell(row, template_col), cell(row, reference_col),
                    cell(row, date_col), source)
        )
    if not out:
        raise RefreshError(f"{source}: no namespaces listed")
    return out


def _sort_key(row: dict[str, str]) -> tuple[int, int, str]:
    nid = row["nid"]
    if _INFORMAL.fullmatch(nid):
        return (1, int(nid[4:]), nid)
    return (0, 0, nid)


def merge(
    existing: Iterable[dict[str, str]],
    iana: Iterable[IanaRow],
    *,
    drop_missing: bool = False,
) -> tuple[list[dict[str, str]], Changes]:
    """Merge IANA rows into our rows (see the module docstring); return rows and changes.

    >>> ours = [{"nid": "isbn", "kind": "formal", "reference": "[ISBN Agency] v2",
    ...          "template": "", "notes": "ours"}]
    >>> rows, ch = merge(ours, [IanaRow("isbn", "formal", "[isbn-template]", "[ISBN Agency]",
    ...                                 "", "f.csv")])
    >>> rows[0]["reference"], rows[0]["template"], rows[0]["notes"], ch.updated
    ('[ISBN Agency] v2', '[isbn-template]', 'ours', ["isbn: template '' -> '[isbn-template]'"])
    """
    by_nid = {row["nid"].strip().lower(): dict(row) for row in existing}
    changes = Changes()
    seen: set[str] = set()
    for new in iana:
        seen.add(new.nid)
        old = by_nid.get(new.nid)
        if old is None:
            by_nid[new.nid] = {
                "nid": new.nid,
                "kind": new.kind,
                "reference": new.reference,
                "registered_date": new.date,
                "date_basis": "iana-csv" if new.date else "",
                "source": new.source,
                "reference_source": new.source,
                "template": new.template,
                "notes": "",
            }
            changes.added.append(new.nid)
            continue
        updates = {"kind": new.kind, "template": new.template}
        if not old.get("reference", "").startswith(new.reference):
            updates["reference"] = new.reference
        if new.date and not old.get("registered_date"):
            updates["registered_date"] = new.date
            updates["date_basis"] = "iana-csv"
        for key, value in updates.items():
            if old.get(key, "") != value:
                changes.updated.append(f"{new.nid}: {key} {old.get(key, '')!r} -> {value!r}")
                old[key] = value
    for nid in sorted(set(by_nid) - seen):
        if drop_missing:
            del by_nid[nid]
            changes.dropped.append(nid)
        else:
            changes.missing.append(nid)
    # Keep our row order (diffs stay small); put each new NID before the first row that sorts
    # after it (formal by name, then informal by number).
    rows = [row for nid, row in by_nid.items() if nid not in changes.added]
    for nid in sorted(changes.added, key=lambda n: _sort_key(by_nid[n])):
        new_row = by_nid[nid]
        at = next(
            (i for i, r in enumerate(rows) if _sort_key(r) > _sort_key(new_row)), len(rows)
        )
        rows.insert(at, new_row)
    return rows, changes


def load(location: str, timeout: float = 30.0) -> str:
    """Text of a local path or an http(s) URL."""
    if location.startswith(("http://", "https://")):
        request = urllib.request.Request(location, headers={"User-Agent": "urnld-refresh"})
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                data: bytes = response.read()
        except OSError as e:
            raise RefreshError(f"{location}: {e}") from e
    else:
        try:
            data = Path(location).read_bytes()
        except OSError as e:
            raise RefreshError(f"{location}: {e.strerror or e}") from e
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise RefreshError(f"{location}: not UTF-8 text ({e})") from e


def read_existing(path: Path) -> tuple[list[str], list[dict[str, str]]]:
    """Header and rows of our CSV (an absent file is an empty registry)."""
    if not path.exists():
        return list(COLUMNS), []
    with path.open(encoding="utf-8", newline="") as f:
        reader = csv.DictReader(f)
        header = list(reader.fieldnames or COLUMNS)
        return header, list(reader)


def write_atomic(path: Path, header: Sequence[str], rows: Iterable[dict[str, str]]) -> None:
    """Write the CSV to a temporary file beside *path*, then rename it over *path*."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=list(header), extrasaction="ignore")
            writer.writeheader()
            for row in rows:
                writer.writerow({k: row.get(k, "") for k in header})
        os.chmod(tmp, path.stat().st_mode & 0o7777 if path.exists() else 0o644)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--formal", default=FORMAL_URL, help="URL or path of urn-namespaces-1.csv")
    parser.add_argument("--informal", default=INFORMAL_URL,
                        help="URL or path of urn-namespaces-2.csv")
    parser.add_argument("--csv", type=Path, default=DEFAULT_CSV, help="the file to refresh")
    parser.add_argument("--drop-missing", action="store_true",
                        help="drop our NIDs that the IANA files do not list")
    parser.add_argument("--dry-run", action="store_true", help="report only, write nothing")
    args = parser.parse_args(argv)
    try:
        iana = read_iana(load(args.formal), "formal", args.formal)
        iana += read_iana(load(args.informal), "informal", args.informal)
        header, existing = read_existing(args.csv)
        rows, changes = merge(existing, iana, drop_missing=args.drop_missing)
        if not args.dry_run:
            write_atomic(args.csv, header, rows)
    except (RefreshError, OSError) as e:
        print(f"refresh_registry: error: {e}", file=sys.stderr)
        return 2
    for line in changes.lines():
        print(line)
    print(f"{'would write' if args.dry_run else 'wrote'} {len(rows)} namespaces to {args.csv}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
