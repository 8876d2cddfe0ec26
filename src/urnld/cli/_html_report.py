"""``--html FILE``: the report documents of ``check``, ``canonicalize``, ``validate`` and ``xmlns``.

Each builder takes the same data the command prints with ``--json`` and arranges it for
:func:`urnld.html.render`: the verdict, key figures, charts (findings by NID and severity,
clusters of equivalent spellings by size, the worst files), sortable tables of every invalid
URN and cluster with where they occur, and the command and library versions.

Positions: reports count occurrences exactly but do not store where each one is, so for the
HTML page the inputs are read once more and the first few places of each listed spelling are
noted as ``file:line`` (text inputs; stdin cannot be read twice).
"""

from __future__ import annotations

import datetime
import shlex
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

__all__ = [
    "canonicalize_document",
    "check_document",
    "find_positions",
    "shown_spellings",
    "validate_document",
    "write_html",
    "xmlns_document",
]

#: Places shown per spelling (the count column is exact; these are the first ones met).
POSITIONS_PER_SPELLING = 5
#: Rows per table of a page: the most frequent first, so that a page of a large dump stays
#: small and opens fast (about half a megabyte per full table); the totals on top stay exact, and
#: ``--findings`` lists everything.
HTML_ROWS = 1_000
_TOP = 15  # bars per chart


def _versions() -> dict[str, str]:
    from importlib import metadata

    out = {}
    for name in ("urnld", "rdflib", "pyshacl", "pyld", "pyoxigraph"):
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    import platform

    out["Python"] = platform.python_version()
    return out


def _meta(argv: Sequence[str]) -> dict[str, Any]:
    now = datetime.datetime.now(datetime.UTC).replace(microsecond=0)
    return {
        "command": "urnld " + shlex.join(argv),
        "versions": _versions(),
        "generated": now.isoformat().replace("+00:00", "Z"),
    }


def write_html(path: str, doc: Mapping[str, Any]) -> None:
    """Render *doc* and write it to *path* (temporary file + rename)."""
    from .._kernel import atomic_output
    from ..html import render

    with atomic_output(path, text=True) as f:
        f.write(render(doc))


def find_positions(
    paths: Iterable[str], spellings: Iterable[str], per_spelling: int = POSITIONS_PER_SPELLING
) -> dict[str, list[str]]:
    """spelling → up to *per_spelling* ``"file:line"`` places where it is written.

    >>> import pathlib, tempfile
    >>> f = pathlib.Path(tempfile.mkdtemp()) / "x.nt"
    >>> _ = f.write_text('<a> <b> <urn:isbn:12345> .\\n<urn:isbn:12345> <b> "c" .\\n')
    >>> find_positions([str(f)], ["urn:isbn:12345"])["urn:isbn:12345"] == [f"{f}:1", f"{f}:2"]
    True
    """
    from .._kernel import open_input
    from ._findings import URN_TOKEN  # the one token rule of both position finders

    wanted = {s.encode("utf-8"): s for s in spellings}
    out: dict[str, list[str]] = {}
    if not wanted:
        return out
    full = 0
    for path in paths:
        if path == "-":
            continue
        try:
            with open_input(path) as (f, _size):
                for number, line in enumerate(f, 1):
                    if b":" not in line:
                        continue
                    for m in URN_TOKEN.finditer(line):
                        spelling = wanted.get(m.group(1))
                        if spelling is None:
                            continue
                        places = out.setdefault(spelling, [])
                        if len(places) < per_spelling:
                            places.append(f"{path}:{number}")
                            full += len(places) == per_spelling
                            if full == len(wanted):
                                return out
        except OSError:
            continue  # the command itself has reported what it could not read
    return out


def _where(positions: Mapping[str, list[str]], *spellings: str) -> str:
    places = [p for s in spellings for p in positions.get(s, [])]
    return ", ".join(places[:POSITIONS_PER_SPELLING])


def _nid(spelling: str) -> str:
    parts = spelling.split(":", 2)
    return parts[1].lower() if len(parts) > 2 else "?"



def _cluster_table(
    title: str,
    groups: Mapping[str, Mapping[str, int]],
    positions: Mapping[str, list[str]],
    *,
    sort_column: int,
    truncated: bool,
) -> dict[str, Any]:
    """The table of clusters (canonical form, its spellings with counts and first places)."""
    return {
        "id": "clusters", "title": title,
        "columns": [{"name": "canonical"}, {"name": "spellings", "type": "num"},
                    {"name": "occurrences", "type": "num"}, {"name": "as written"},
                    {"name": "where (first places)"}],
        "rows": [[c, len(sp), sum(sp.values()),
                  ", ".join(f"{s} ×{n}" for s, n in sorted(sp.items())),
                  _where(positions, *sorted(s for s in sp if s != c))]
                 for c, sp in groups.items()],
        "sort": [sort_column, "desc"],
        "note": _capped(truncated, "canonical forms"),
    }

def _capped(truncated: bool, what: str) -> str:
    return (
        f"The report keeps the first 10,000 {what} (code-point order) with exact counts; "
        "the totals above are exact." if truncated else ""
    )


def _top(items: Mapping[str, Any], count: Any, n: int | None = None) -> dict[str, Any]:
    """The *n* (default :data:`HTML_ROWS`) items with the largest ``count(value)`` (ties by
    key), as a dict."""
    n = HTML_ROWS if n is None else n
    if len(items) <= n:
        return dict(items)
    return dict(sorted(items.items(), key=lambda kv: (-count(kv[1]), kv[0]))[:n])


def _shown(shown: int, total: int, what: str) -> str:
    """The note of a table that shows *shown* of *total* rows."""
    if total <= shown:
        return ""
    return (
        f"Showing {shown:,} of {total:,} {what}: the most frequent, with exact counts (the "
        "totals above are exact). --findings FILE lists every one."
    )


def shown_spellings(d: Mapping[str, Any]) -> list[str]:
    """The spellings the page of a ``check`` or ``canonicalize`` report dict shows (the places
    of these only are looked up)."""
    invalid = _top(d["invalid"]["urns"], lambda v: v["count"])
    if d.get("kind") == "canonicalize":
        clusters = _top(d["clusters"], lambda sp: sum(sp.values()))
        return [*(s for sp in clusters.values() for s in sp), *invalid]
    nonc = _top(d["non_canonical"]["spellings"], lambda v: v["count"])
    return [*invalid, *nonc]


def check_document(
    d: Mapping[str, Any],
    *,
    argv: Sequence[str],
    files: Sequence[Mapping[str, Any]],
    summary: Sequence[str],
    positions: Mapping[str, list[str]],
) -> dict[str, Any]:
    """The page of ``urnld check`` from its ``--json`` dict and the per-file summaries."""
    from .. import CODES

    all_invalid = d["invalid"]["urns"]
    all_nonc = d["non_canonical"]["spellings"]
    invalid = _top(all_invalid, lambda v: v["count"])
    nonc = _top(all_nonc, lambda v: v["count"])
    groups = _top(d["clusters"]["groups"], len)
    n_invalid, n_nonc = d["invalid"]["distinct"], d["non_canonical"]["distinct"]
    n_groups = d["clusters"]["count"]
    unreadable = [f for f in files if f.get("error")]
    status = "fail" if (not d["ok"] or unreadable or d["errors"]["count"]) else "pass"
    headline = summary[0].split(":", 1)[1].split(";")[0].strip() if summary else ""
    headline = ("No invalid URNs" if d["ok"] else headline[:1].upper() + headline[1:])
    if unreadable:
        headline += f"; {len(unreadable)} input{'s' if len(unreadable) != 1 else ''} unreadable"

    # NID chart: exact valid counts per NID; the invalid / non-canonical split comes from the
    # example lists (exact unless capped, which the note says).
    per_nid: dict[str, Counter[str]] = {}
    for nid, n in d["nids"].items():
        per_nid.setdefault(nid, Counter())["canonical"] += n
    for spelling, v in all_nonc.items():
        c = per_nid.setdefault(_nid(spelling), Counter())
        c["canonical"] -= v["count"]
        c["non-canonical"] += v["count"]
    for spelling, v in all_invalid.items():
        per_nid.setdefault(_nid(spelling), Counter())["invalid"] += v["count"]
    nid_bars = sorted(per_nid.items(), key=lambda kv: (-sum(kv[1].values()), kv[0]))[:_TOP]
    # exact: spellings per URN spelled several ways -> how many such URNs
    sizes = {int(k): n for k, n in d["clusters"]["sizes"].items()}
    worst = sorted(
        (f for f in files if not f.get("error")),
        key=lambda f: (-f["invalid"], -f["non_canonical"], f["source"]),
    )[:_TOP]
    charts = [
        {
            "id": "nids", "title": "URN occurrences by NID and verdict",
            "bars": [
                {"label": nid, "segments": [
                    {"name": k, "value": max(c[k], 0)}
                    for k in ("invalid", "non-canonical", "canonical")
                ]}
                for nid, c in nid_bars
            ],
            "note": _capped(d["invalid"]["truncated"] or d["non_canonical"]["truncated"],
                            "spellings per list; the split per NID is from those lists"),
        },
        {
            "id": "findings", "title": "Findings by code and severity (occurrences)",
            "bars": [
                {"label": code, "segments": [
                    {"name": str(CODES[code][0]) if code in CODES else "info", "value": n}
                ]}
                for code, n in sorted(d["findings"].items(), key=lambda kv: (-kv[1], kv[0]))
            ],
        },
        {
            "id": "clusters", "title": "URNs spelled several ways, by number of spellings",
            "bars": [
                {"label": f"{size} spellings", "segments": [{"name": "URNs", "value": n}]}
                for size, n in sorted(sizes.items())
            ],
        },
        {
            "id": "files", "title": "Files with the most invalid URN occurrences",
            "bars": [
                {"label": f["source"], "segments": [
                    {"name": "invalid", "value": f["invalid"]},
                    {"name": "non-canonical", "value": f["non_canonical"]},
                ]}
                for f in worst
            ],
        },
    ]
    tables = [
        {
            "id": "invalid", "title": "Invalid URNs",
            "columns": [{"name": "URN as written"}, {"name": "NID"},
                        {"name": "occurrences", "type": "num"}, {"name": "first error"},
                        {"name": "where (first places)"}],
            "rows": [[s, _nid(s), v["count"], v["finding"], _where(positions, s)]
                     for s, v in invalid.items()],
            "sort": [2, "desc"],
            "total": n_invalid,
            "note": _shown(len(invalid), n_invalid, "invalid URNs"),
        },
        {
            **_cluster_table("Equivalent spellings that are separate nodes", groups, positions,
                             sort_column=1, truncated=False),
            "total": n_groups,
            "note": _shown(len(groups), n_groups, "URNs spelled several ways"),
        },
        {
            "id": "noncanonical", "title": "Non-canonical spellings of valid URNs",
            "columns": [{"name": "as written"}, {"name": "canonical"},
                        {"name": "occurrences", "type": "num"}, {"name": "where (first places)"}],
            "rows": [[s, v["canonical"], v["count"], _where(positions, s)]
                     for s, v in nonc.items()],
            "sort": [2, "desc"],
            "total": n_nonc,
            "note": _shown(len(nonc), n_nonc, "spellings"),
        },
        {
            "id": "findingcodes", "title": "Findings",
            "columns": [{"name": "code"}, {"name": "severity", "type": "severity"},
                        {"name": "occurrences", "type": "num"}, {"name": "rule"}],
            "rows": [[code, str(CODES[code][0]) if code in CODES else "",
                      n, CODES[code][1] if code in CODES else ""]
                     for code, n in d["findings"].items()],
            "sort": [2, "desc"],
            "note": "Occurrences of valid and invalid URNs; one URN can have several findings.",
        },
        {
            "id": "inputs", "title": "Inputs",
            "columns": [{"name": "file"}, {"name": "statements", "type": "num"},
                        {"name": "URN occurrences", "type": "num"},
                        {"name": "invalid", "type": "num"},
                        {"name": "non-canonical", "type": "num"}, {"name": "error"}],
            "rows": [[f["source"], f.get("statements", 0), f.get("urns", 0), f.get("invalid", 0),
                      f.get("non_canonical", 0), f.get("error") or ""] for f in files],
            "sort": [3, "desc"],
            "note": "" if files else "The Dask engine reports all inputs together.",
        },
    ]
    if "locators" in d:
        tables.append({
            "id": "locators", "title": "Locators of URNs (--locators)",
            "columns": [{"name": "locator IRI"}, {"name": "URN"},
                        {"name": "occurrences", "type": "num"}],
            "rows": [[iri, v["urn"], v["count"]] for iri, v in d["locators"]["iris"].items()],
            "sort": [2, "desc"],
            "note": _capped(d["locators"]["truncated"], "locators"),
        })
    if d["errors"]["count"]:
        tables.append({
            "id": "malformed", "title": "Malformed lines",
            "columns": [{"name": "file"}, {"name": "line", "type": "num"}, {"name": "error"}],
            "rows": [[e["source"], e["line"], e["message"]]
                     for e in d["errors"]["lines"][:HTML_ROWS]],
            "total": d["errors"]["count"],
            "note": _shown(min(len(d["errors"]["lines"]), HTML_ROWS), d["errors"]["count"],
                           "malformed lines"),
        })
    urns = d["urns"]
    return {
        "title": "urnld check",
        "verdict": {"status": status, "headline": headline, "details": list(summary)},
        "figures": [
            ("statements", d["statements"]),
            ("URN occurrences", urns["iris"] + urns["literals"]),
            ("invalid URNs", n_invalid),
            ("invalid occurrences", d["invalid"]["occurrences"]),
            ("non-canonical spellings", n_nonc),
            ("non-canonical occurrences", d["non_canonical"]["occurrences"]),
            ("URNs spelled several ways", n_groups),
        ],
        "charts": charts,
        "tables": tables,
        "meta": _meta(argv),
    }


def canonicalize_document(
    d: Mapping[str, Any], *, argv: Sequence[str], summary: str,
    positions: Mapping[str, list[str]], rule_invalid: Mapping[str, int] | None = None,
) -> dict[str, Any]:
    """The page of ``urnld canonicalize`` from its ``--report`` dict.

    ``rule_invalid``: NID -> occurrences of rewritten URNs that break their namespace's rules
    (:meth:`urnld.report.CanonicalizeReport.rule_invalid_nids`); they are coloured invalid, as
    ``urnld check`` lists them.
    """
    rule_invalid = rule_invalid or {}
    all_invalid = d["invalid"]["urns"]
    invalid = _top(all_invalid, lambda v: v["count"])
    clusters = _top(d["clusters"], lambda sp: sum(sp.values()))
    merged = d["merged"]
    # exact: spellings per canonical URN merged into -> how many (one spelling: rewritten)
    sizes = {int(k): n for k, n in merged["sizes"].items()}
    single = merged["canonical"] - sum(sizes.values())
    if single:
        sizes[1] = single
    nids = sorted(d["nids"].items(), key=lambda kv: (-kv[1], kv[0]))[:_TOP]
    inv_nids: Counter[str] = Counter()
    for s, v in all_invalid.items():
        inv_nids[_nid(s)] += v["count"]
    inv_nids.update(rule_invalid)
    n_invalid = d["invalid"]["distinct"]
    status = "warn" if n_invalid or rule_invalid else "pass"
    headline = (f"Merged {merged['spellings']:,} spellings into {merged['canonical']:,} "
                "canonical URNs")
    if n_invalid:
        headline += f"; {n_invalid:,} invalid URNs left as written"
    return {
        "title": "urnld canonicalize",
        "verdict": {"status": status, "headline": headline, "details": [summary]},
        "figures": [
            ("statements in", d["statements"]["in"]),
            ("statements out", d["statements"]["out"]),
            ("duplicates merged", d["statements"]["duplicates_merged"]
             if d["statements"]["duplicates_merged"] is not None
             else "not looked for (streamed)"),
            ("URN occurrences", d["urns"]["occurrences"]),
            ("rewritten", d["urns"]["rewritten"]),
            ("spellings merged", merged["spellings"]),
            ("canonical URNs merged into", merged["canonical"]),
            ("invalid URNs", n_invalid),
            ("invalid occurrences", d["urns"]["invalid"]),
            *((label, n) for label, n in (
                ("other IRIs rewritten (RFC 3986)", d["iris"]["rewritten"]),
                ("IRI spellings merged", d["iris"]["spellings"]),
            ) if n),
            # The opt-in modes' statements, shown only when a run added some.
            *((label, n) for label, n in (
                ("owl:sameAs added", d["added"]["same_as"]),
                ("urnld:spelling added", d["added"]["spellings"]),
                ("rdfs:seeAlso added", d["added"]["see_also"]),
                ("repaired", sum(d.get("repairs", {}).values())),
                ("locators met", d.get("locators", {}).get("occurrences", 0)),
                ("locators merged", d.get("locators", {}).get("merged", 0)),
            ) if n),
        ],
        "charts": [
            {"id": "nids", "title": "URN occurrences by NID",
             "bars": [{"label": nid, "segments": [{"name": "valid",
                                                   "value": n - rule_invalid.get(nid, 0)},
                                                  {"name": "invalid", "value": inv_nids[nid]}]}
                      for nid, n in nids]
             + [{"label": nid, "segments": [{"name": "invalid", "value": n}]}
                for nid, n in inv_nids.most_common(_TOP) if nid not in d["nids"]],
             "note": _capped(d["nids_truncated"], "NIDs")},
            {"id": "clusters", "title": "Canonical URNs by number of merged spellings",
             "bars": [{"label": f"{size} spelling{'s' if size != 1 else ''}",
                       "segments": [{"name": "URNs", "value": n}]}
                      for size, n in sorted(sizes.items())]},
        ],
        "tables": [
            {**_cluster_table("What was merged", clusters, positions,
                              sort_column=2, truncated=False),
             "total": merged["canonical"],
             "note": _shown(len(clusters), merged["canonical"], "canonical URNs merged into")},
            {"id": "invalid", "title": "Invalid URNs left as written",
             "columns": [{"name": "URN as written"}, {"name": "NID"},
                         {"name": "occurrences", "type": "num"}, {"name": "why"},
                         {"name": "where (first places)"}],
             "rows": [[s, _nid(s), v["count"], v["finding"], _where(positions, s)]
                      for s, v in invalid.items()],
             "sort": [2, "desc"],
             "total": n_invalid,
             "note": _shown(len(invalid), n_invalid, "invalid URNs")},
            *_spelling_tables(d),
        ],
        "meta": _meta(argv),
    }


def _spelling_tables(d: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The spelling modes' tables (repairs per code, locators met), when a run had any."""
    from ..namespaces import REPAIRS

    sources = {r.code: r.source for r in REPAIRS}
    out: list[dict[str, Any]] = []
    if "repairs" in d:
        out.append({
            "id": "repairs", "title": "Repairs applied (--repair)",
            "columns": [{"name": "code"}, {"name": "occurrences", "type": "num"},
                        {"name": "why it is safe"}],
            "rows": [[code, n, sources.get(code, "")] for code, n in d["repairs"].items()],
            "sort": [1, "desc"],
            "note": "Each repaired spelling is listed under its canonical URN in "
            "'What was merged'.",
        })
    if "locators" in d:
        loc = d["locators"]
        out.append({
            "id": "locators", "title": "Locators of URNs (--link-locators, --merge-locators)",
            "columns": [{"name": "locator IRI"}, {"name": "URN"},
                        {"name": "occurrences", "type": "num"}],
            "rows": [[locator, urn, n] for urn, locs in loc["pairs"].items()
                     for locator, n in locs.items()],
            "sort": [2, "desc"],
            "note": f"{loc['merged']:,} occurrences merged into their URN. "
            + _capped(loc["truncated"], "locators"),
        })
    return out


def validate_document(out: Mapping[str, Any], *, argv: Sequence[str]) -> dict[str, Any]:
    """The page of ``urnld validate`` from its JSON output (``--format json``).

    ``out["results"]`` is read once, as it comes (it may be an iterator over a report on
    disk): the page counts every result and lists the first :data:`HTML_ROWS` of them.
    """
    summary = out["summary"]
    by_component: dict[str, Counter[str]] = {}
    by_focus: Counter[str] = Counter()
    rows: list[list[str]] = []
    total = 0
    for r in out["results"]:
        total += 1
        component = r["component"].rsplit("#", 1)[-1].removesuffix("ConstraintComponent")
        by_component.setdefault(component, Counter())[r["severity"].lower()] += 1
        by_focus[r["focus_node"]] += 1
        if len(rows) < HTML_ROWS:
            rows.append([r["severity"], r["focus_node"] or "", r["path"] or "",
                         r["value"] or "", component, r["message"] or ""])
    counts = ", ".join(f"{n:,} {sev.lower()}{'s' if n != 1 else ''}"
                       for sev, n in summary.items())
    status = "pass" if out["conforms"] else (
        "fail" if summary.get("Violation") else "warn")
    headline = "Conforms" if out["conforms"] else f"Does not conform: {counts}"
    return {
        "title": "urnld validate (SHACL)",
        "verdict": {"status": status, "headline": headline,
                    "details": [f"{total:,} results on {len(by_focus):,} focus nodes"]},
        "figures": [(sev, n) for sev, n in summary.items()] or [("results", 0)],
        "charts": [
            {"id": "components", "title": "Results by constraint and severity",
             "bars": [{"label": comp, "segments": [{"name": k, "value": v}
                                                   for k, v in sorted(c.items())]}
                      for comp, c in sorted(by_component.items(),
                                            key=lambda kv: (-sum(kv[1].values()), kv[0]))]},
            {"id": "focus", "title": "Focus nodes with the most results",
             "bars": [{"label": f, "segments": [{"name": "results", "value": n}]}
                      for f, n in by_focus.most_common(_TOP)]},
        ],
        "tables": [
            {"id": "results", "title": "Validation results",
             "columns": [{"name": "severity", "type": "severity"}, {"name": "focus node"},
                         {"name": "path"}, {"name": "value"}, {"name": "constraint"},
                         {"name": "message"}],
             "rows": rows,
             "total": total,
             "note": "" if total <= len(rows) else (
                 f"Showing the first {len(rows):,} of {total:,} results, in report order "
                 "(the totals above are exact). --findings FILE lists every one."),
             "sort": [0, "desc"]},
        ],
        "meta": _meta(argv),
    }


def xmlns_document(out: Mapping[str, Any], *, argv: Sequence[str]) -> dict[str, Any]:
    """The page of ``urnld xmlns`` from its ``--json`` output."""
    files = out["files"]
    rows_ns = [
        [ns["uri"], ", ".join(p or "(default)" for p in ns["prefixes"]),
         "yes" if ns["valid"] else "no", ns["canonical"] or "", ns["reason"] or "",
         f"{f['source']}:{ns['line']}"]
        for f in files for ns in f["urn_namespaces"]
    ]
    rows_problems = [
        *(["spelled several ways", ", ".join(group), f["source"]]
          for f in files for group in f["equivalent_spellings"]),
        *(["concatenation", c["reason"], f"{f['source']}:{c['line']}"]
          for f in files for c in f["concatenations"]),
        *(["spelled differently across files", ", ".join(group), ""]
          for group in out["equivalent_spellings_across_files"]),
    ]
    bars = []
    for f in files:
        invalid = sum(1 for ns in f["urn_namespaces"] if not ns["valid"])
        bars.append({"label": f["source"], "segments": [
            {"name": "invalid", "value": invalid},
            {"name": "valid", "value": len(f["urn_namespaces"]) - invalid},
        ]})
    ok = all(f["ok"] for f in files) and not out["equivalent_spellings_across_files"]
    headline = "No problems" if ok else f"{len(rows_problems):,} problems"
    invalid_total = sum(1 for r in rows_ns if r[2] == "no")
    if invalid_total:
        headline += f", {invalid_total:,} invalid namespace names"
    return {
        "title": "urnld xmlns",
        "verdict": {"status": "pass" if ok else "fail", "headline": headline,
                    "details": [f"{len(files):,} documents, {len(rows_ns):,} URN namespaces"]},
        "figures": [("documents", len(files)), ("URN namespaces", len(rows_ns)),
                    ("invalid", invalid_total), ("problems", len(rows_problems))],
        "charts": [{"id": "files", "title": "URN namespaces per document", "bars": bars}],
        "tables": [
            {"id": "namespaces", "title": "URN namespace names",
             "columns": [{"name": "namespace"}, {"name": "prefixes"}, {"name": "valid"},
                         {"name": "canonical"}, {"name": "reason"}, {"name": "where"}],
             "rows": rows_ns, "sort": [2, "asc"]},
            {"id": "problems", "title": "Problems",
             "columns": [{"name": "kind"}, {"name": "what"}, {"name": "where"}],
             "rows": rows_problems},
        ],
        "meta": _meta(argv),
    }
