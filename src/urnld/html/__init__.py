"""Self-contained HTML reports: one file, no network, readable from disk or as an attachment.

:func:`render` turns a *report document* (plain JSON-ready dicts, built by the ``urnld``
commands from the same report data as their ``--json`` output) into one HTML page: the verdict
at the top, key figures, bar charts drawn as inline SVG, and tables. The page carries its own
CSS and a small script (sorting by column, filtering, ``#filter=text`` in the address); without
the script everything is still there, unsorted. Nothing is fetched: no fonts, scripts, images
or styles from elsewhere.

>>> page = render({
...     "title": "urnld check", "verdict": {"status": "fail", "headline": "1 invalid URN"},
...     "charts": [{"id": "nids", "title": "URNs by NID",
...                 "bars": [{"label": "isbn", "segments": [{"name": "error", "value": 1}]}]}],
...     "tables": [{"id": "invalid", "title": "Invalid URNs",
...                 "columns": [{"name": "urn"}, {"name": "occurrences", "type": "num"}],
...                 "rows": [["urn:isbn:12345", 1]]}],
...     "meta": {"command": "urnld check x.ttl", "versions": {"urnld": "0.1.0"}}})
>>> page.startswith("<!DOCTYPE html>") and "urn:isbn:12345" in page and "<svg" in page
True
>>> "http://" in page.replace("http://www.w3.org/2000/svg", "")
False
"""

from __future__ import annotations

from ._render import SEVERITY_COLOURS, render

__all__ = ["SEVERITY_COLOURS", "render"]


def __dir__() -> list[str]:
    return __all__
