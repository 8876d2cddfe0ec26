"""The HTML page of a report document (see :mod:`urnld.html`): markup, inline SVG charts, assets.

Everything is rendered on the server side (here), so the page reads the same with scripts
off (a mail client's preview); the inline script only adds sorting, filtering and the row
counts. All text is escaped; the only markup is ours.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

__all__ = ["SEVERITY_COLOURS", "render"]

#: Bar colours per segment name (severity or kind); other names cycle through ``_PALETTE``.
#: Colour-blind-safe (Okabe–Ito), each with a text label next to it, never colour alone.
SEVERITY_COLOURS: dict[str, str] = {
    "error": "#D55E00",
    "violation": "#D55E00",
    "invalid": "#D55E00",
    "warning": "#E69F00",
    "non-canonical": "#E69F00",
    "info": "#56B4E9",
    "canonical": "#009E73",
    "valid": "#009E73",
    "ok": "#009E73",
}
_PALETTE = ("#0072B2", "#CC79A7", "#009E73", "#F0E442", "#56B4E9", "#999999")

_VERDICT = {"pass": ("✔", "pass"), "warn": ("!", "warn"), "fail": ("✘", "fail")}

# Chart geometry (SVG user units; the SVG scales to the page width).
_W, _LABEL_W, _BAR_H, _GAP, _TOP = 560, 170, 20, 6, 28


def _e(value: object) -> str:
    return escape(str(value), quote=True)


def _colour(name: str, index: int) -> str:
    return SEVERITY_COLOURS.get(name.lower(), _PALETTE[index % len(_PALETTE)])


def _fmt(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        return f"{value:,.3g}"
    return str(value)


def _chart(chart: Mapping[str, Any]) -> str:
    """A horizontal stacked bar chart as inline SVG, with a legend and a text alternative."""
    bars: Sequence[Mapping[str, Any]] = chart.get("bars", [])
    names: list[str] = []
    for bar in bars:
        for seg in bar.get("segments", []):
            if seg["name"] not in names:
                names.append(seg["name"])
    colours = {n: _colour(n, i) for i, n in enumerate(names)}
    total_max = max((sum(s["value"] for s in b.get("segments", [])) for b in bars), default=0)
    height = _TOP + len(bars) * (_BAR_H + _GAP) + 8
    scale = (_W - _LABEL_W - 70) / total_max if total_max else 0.0
    parts = [
        f'<svg class="chart" role="img" viewBox="0 0 {_W} {height}" '
        f'xmlns="http://www.w3.org/2000/svg" aria-label="{_e(chart["title"])}">'
    ]
    x_legend = _LABEL_W
    for name in names:
        parts.append(
            f'<rect x="{x_legend}" y="4" width="12" height="12" fill="{colours[name]}"/>'
            f'<text x="{x_legend + 16}" y="14" class="legend">{_e(name)}</text>'
        )
        x_legend += 28 + 8 * len(name)
    for row, bar in enumerate(bars):
        y = _TOP + row * (_BAR_H + _GAP)
        label = str(bar["label"])
        shown = label if len(label) <= 24 else "…" + label[-23:]
        parts.append(
            f'<text x="{_LABEL_W - 8}" y="{y + _BAR_H - 5}" text-anchor="end" class="label">'
            f"<title>{_e(label)}</title>{_e(shown)}</text>"
        )
        x = float(_LABEL_W)
        total = 0
        for seg in bar.get("segments", []):
            width = seg["value"] * scale
            total += seg["value"]
            if width > 0:
                parts.append(
                    f'<rect class="bar" x="{x:.1f}" y="{y}" width="{max(width, 1.0):.1f}" '
                    f'height="{_BAR_H}" fill="{colours[seg["name"]]}">'
                    f"<title>{_e(label)}: {_e(seg['name'])} {_fmt(seg['value'])}</title></rect>"
                )
            x += width
        parts.append(
            f'<text x="{x + 6:.1f}" y="{y + _BAR_H - 5}" class="value">{_fmt(total)}</text>'
        )
    parts.append("</svg>")
    note = f'<p class="note">{_e(chart["note"])}</p>' if chart.get("note") else ""
    if not bars:
        return (f'<section class="card"><h2>{_e(chart["title"])}</h2>'
                f'<p class="empty">nothing to show</p>{note}</section>')
    return f'<section class="card"><h2>{_e(chart["title"])}</h2>{"".join(parts)}{note}</section>'


def _table(table: Mapping[str, Any]) -> str:
    columns: Sequence[Mapping[str, Any]] = table["columns"]
    rows: Sequence[Sequence[Any]] = table.get("rows", [])
    tid = _e(table["id"])
    sort = table.get("sort")  # [column index, "asc"|"desc"]: applied by the script on load
    sort_attr = f' data-sort="{int(sort[0])}:{_e(sort[1])}"' if sort else ""
    head = "".join(
        f'<th scope="col" data-type="{_e(c.get("type", "text"))}" tabindex="0">'
        f'{_e(c["name"])}</th>'
        for c in columns
    )
    body = []
    for row in rows:
        cells = []
        for col, value in zip(columns, row, strict=True):
            kind = col.get("type", "text")
            if kind == "num":
                cells.append(f'<td class="num" data-value="{_e(value)}">{_fmt(value)}</td>')
            elif kind == "severity":
                cells.append(f'<td><span class="sev sev-{_e(str(value).lower())}">'
                             f"{_e(value)}</span></td>")
            else:
                cells.append(f"<td>{_e(_fmt(value))}</td>")
        body.append(f"<tr>{''.join(cells)}</tr>")
    note = f'<p class="note">{_e(table["note"])}</p>' if table.get("note") else ""
    empty = "" if rows else '<p class="empty">none</p>'
    # "total": how many there are in all when the table shows only some of them
    total = int(table.get("total", len(rows)))
    shown = f"{len(rows):,} of {total:,}" if total > len(rows) else f"{len(rows):,}"
    return (
        f'<section class="card" id="section-{tid}"><h2>{_e(table["title"])} '
        f'<span class="count" data-total="{len(rows)}">{shown}</span></h2>'
        f'<input class="filter" type="search" placeholder="filter…" aria-label="filter '
        f'{_e(table["title"])}" data-table="{tid}">'
        f'<div class="scroll"><table id="{tid}"{sort_attr}><thead><tr>{head}</tr></thead>'
        f'<tbody>{"".join(body)}</tbody></table></div>{empty}{note}</section>'
    )


def render(doc: Mapping[str, Any]) -> str:
    """The whole page for *doc* (keys ``title``, ``verdict``, ``figures``, ``charts``,
    ``tables``, ``meta``; see :mod:`urnld.html`)."""
    verdict = doc.get("verdict", {})
    status = verdict.get("status", "pass")
    mark, cls = _VERDICT.get(status, _VERDICT["pass"])
    details = "".join(f"<li>{_e(line)}</li>" for line in verdict.get("details", []))
    figures = "".join(
        f'<div class="figure"><span class="figure-value">{_e(_fmt(value))}</span>'
        f'<span class="figure-label">{_e(label)}</span></div>'
        for label, value in doc.get("figures", [])
    )
    charts = "".join(_chart(c) for c in doc.get("charts", []))
    tables = "".join(_table(t) for t in doc.get("tables", []))
    meta = doc.get("meta", {})
    versions = ", ".join(f"{_e(k)} {_e(v)}" for k, v in meta.get("versions", {}).items())
    generated = f" on {_e(meta['generated'])}" if meta.get("generated") else ""
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="{_CSP}">
<title>{_e(doc.get("title", "urnld report"))}: {_e(verdict.get("headline", ""))}</title>
<style>{_CSS}</style>
</head>
<body>
<header class="verdict verdict-{cls}" id="verdict">
<div class="mark" aria-hidden="true">{mark}</div>
<div><h1>{_e(verdict.get("headline", ""))}</h1>
<p class="title">{_e(doc.get("title", ""))}</p>
<ul class="details">{details}</ul></div>
</header>
<main>
<div class="figures">{figures}</div>
<div class="charts">{charts}</div>
{tables}
</main>
<footer><p>Made by <code>{_e(meta.get("command", ""))}</code>{generated}.</p>
<p>{versions}</p></footer>
<script>{_JS}</script>
</body>
</html>
"""


# The browser refuses every load from elsewhere; only the page's own style and script run.
_CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'"

_CSS = """
:root { color-scheme: light dark; --fg:#1b1f24; --bg:#ffffff; --muted:#57606a; --card:#f6f8fa;
  --line:#d0d7de; }
@media (prefers-color-scheme: dark) { :root { --fg:#e6edf3; --bg:#0d1117; --muted:#8d96a0;
  --card:#161b22; --line:#30363d; } }
* { box-sizing: border-box; }
body { margin:0; font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;
  color:var(--fg); background:var(--bg); }
main, footer { max-width:1200px; margin:0 auto; padding:0 24px; }
.verdict { display:flex; gap:20px; align-items:flex-start; padding:20px 24px; color:#fff; }
.verdict-pass { background:#1a7f37; } .verdict-warn { background:#9a6700; }
.verdict-fail { background:#b42318; }
.verdict h1 { margin:0; font-size:1.6em; }
.verdict .title { margin:2px 0 6px; opacity:.85; }
.verdict .details { margin:0; padding-left:1.1em; }
.mark { font-size:2.6em; line-height:1; font-weight:700; }
.figures { display:flex; flex-wrap:wrap; gap:12px; margin:20px 0; }
.figure { background:var(--card); border:1px solid var(--line); border-radius:8px;
  padding:10px 16px; min-width:150px; }
.figure-value { display:block; font-size:1.5em; font-weight:650; }
.figure-label { color:var(--muted); font-size:.9em; }
.charts { display:grid; grid-template-columns:repeat(auto-fit,minmax(460px,1fr)); gap:16px; }
.card { background:var(--card); border:1px solid var(--line); border-radius:8px;
  padding:12px 16px; margin:16px 0; }
.charts .card { margin:0; }
h2 { font-size:1.1em; margin:0 0 8px; }
.count { color:var(--muted); font-weight:400; font-size:.9em; }
svg.chart { width:100%; height:auto; }
svg text { fill:var(--fg); font:13px system-ui,sans-serif; }
svg text.value, svg text.legend { fill:var(--muted); }
.note { color:var(--muted); font-size:.88em; margin:6px 0 0; }
.empty { color:var(--muted); font-style:italic; }
.filter { width:100%; max-width:420px; padding:5px 8px; margin:0 0 8px;
  border:1px solid var(--line); border-radius:6px; background:var(--bg); color:var(--fg); }
.scroll { max-height:480px; overflow:auto; }
table { border-collapse:collapse; width:100%; font-size:.92em; }
th, td { text-align:left; padding:4px 8px; border-bottom:1px solid var(--line);
  vertical-align:top; }
td { overflow-wrap:anywhere; }
th { position:sticky; top:0; background:var(--card); cursor:pointer; user-select:none;
  white-space:nowrap; }
th[aria-sort=ascending]::after { content:" ▲"; } th[aria-sort=descending]::after { content:" ▼"; }
td.num { text-align:right; font-variant-numeric:tabular-nums; white-space:nowrap; }
tr[hidden] { display:none; }
.sev { padding:1px 6px; border-radius:4px; color:#fff; font-size:.85em; }
.sev-error, .sev-violation { background:#b42318; } .sev-warning { background:#9a6700; }
.sev-info { background:#0969da; }
footer { color:var(--muted); font-size:.85em; padding-bottom:24px; }
code { font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace; }
"""

# Sorting (click or Enter on a header; numbers by data-value), filtering (case-insensitive
# substring over the row's text; "#filter=text" in the address fills every filter box), and
# the "shown/total" count. body[data-ready] tells a test that the script ran.
_JS = """
(function () {
  "use strict";
  function key(cell, type) {
    if (type === "num") { return parseFloat(cell.getAttribute("data-value")) || 0; }
    return cell.textContent.toLowerCase();
  }
  function sortTable(table, index, direction) {
    var th = table.tHead.rows[0].cells[index];
    var type = th.getAttribute("data-type");
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    var sign = direction === "asc" ? 1 : -1;
    rows.sort(function (a, b) {
      var x = key(a.cells[index], type), y = key(b.cells[index], type);
      return x < y ? -sign : x > y ? sign : 0;
    });
    rows.forEach(function (r) { body.appendChild(r); });
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (c) {
      c.removeAttribute("aria-sort");
    });
    th.setAttribute("aria-sort", direction === "asc" ? "ascending" : "descending");
  }
  function filterTable(table, text) {
    var needle = text.trim().toLowerCase(), shown = 0;
    Array.prototype.forEach.call(table.tBodies[0].rows, function (r) {
      var hit = !needle || r.textContent.toLowerCase().indexOf(needle) !== -1;
      r.hidden = !hit;
      if (hit) { shown += 1; }
    });
    var count = document.querySelector("#section-" + table.id + " .count");
    if (count) {
      var total = count.getAttribute("data-total");
      count.textContent = needle ? shown + " of " + total + " shown" : total;
    }
  }
  Array.prototype.forEach.call(document.querySelectorAll("table"), function (table) {
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, i) {
      function click() {
        var now = th.getAttribute("aria-sort");
        sortTable(table, i, now === "descending" ? "asc" : "desc");
      }
      th.addEventListener("click", click);
      th.addEventListener("keydown", function (ev) { if (ev.key === "Enter") { click(); } });
    });
    var initial = table.getAttribute("data-sort");
    if (initial) {
      var parts = initial.split(":");
      sortTable(table, parseInt(parts[0], 10), parts[1]);
    }
  });
  var boxes = document.querySelectorAll("input.filter");
  Array.prototype.forEach.call(boxes, function (box) {
    var table = document.getElementById(box.getAttribute("data-table"));
    box.addEventListener("input", function () { filterTable(table, box.value); });
  });
  var m = /[#&]filter=([^&]*)/.exec(window.location.hash);
  if (m) {
    var text = decodeURIComponent(m[1]);
    Array.prototype.forEach.call(boxes, function (box) {
      box.value = text;
      filterTable(document.getElementById(box.getAttribute("data-table")), text);
    });
  }
  document.body.setAttribute("data-ready", "1");
  // milliseconds from the start of navigation to a ready page (parsed, sorted, filtered)
  document.body.setAttribute("data-ready-ms", performance.now().toFixed(1));
})();
"""
