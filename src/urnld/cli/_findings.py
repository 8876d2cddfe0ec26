"""Every finding of a run, streamed: ``--findings`` (JSON Lines or CSV), ``--sarif`` (SARIF
2.1.0) and GitHub Actions annotations.

The report holds every spelling with exact counts (past its memory budget, in sorted runs on
disk), so these lists are complete whatever the caps of the printed report. Where an invalid
URN is written is found by a second read of the inputs, looking for the invalid spellings a
slice at a time (bounded memory); a line-based syntax gives the statement's line, other
syntaxes the line the spelling is written on. An input that cannot be read again (stdin, an
endpoint) gives records without a place, with the spelling's occurrence count.

Records (JSON Lines; CSV has the same fields as columns, ``spellings`` as ``spelling=count``
joined by spaces):

* ``{"kind": "invalid-urn", "urn", "code", "message", "source", "line"}``: one per occurrence
  (``source``/``line`` null and ``occurrences`` set when it cannot be placed);
* ``{"kind": "non-canonical", "urn", "canonical", "count"}``: one per spelling;
* ``{"kind": "cluster", "canonical", "spellings": {spelling: count}, "count"}``: one per URN
  spelled several ways (``canonicalize``: one per canonical URN it merged into);
* ``{"kind": "iri", "canonical", "spellings", "count"}``: IRIs merged (or, by ``check``, not in
  normal form) under ``--iris rfc3986``;
* ``{"kind": "malformed-line", "source", "line", "message"}``;
* ``{"kind": "jsonld", "source", "where", "code", "message", "count"}``: what reading a
  JSON-LD document dropped or warned about (:func:`urnld.jsonld.reading_notes`), ``where`` the
  JSON pointer of the key or value as written (``""``: the document);
* ``urnld xmlns``: ``invalid-urn``, ``cluster``, ``xml-base`` and ``concatenation`` records
  with file and line; ``urnld validate``: one ``shacl-result`` record per SHACL result
  (``urn``: the value, ``code``: the constraint component, ``source``: the focus node).
"""

from __future__ import annotations

import contextlib
import csv
import json
import os
import re
import sys
from collections.abc import Iterable, Iterator
from typing import IO, Any

__all__ = [
    "CSV_FIELDS",
    "FindingsWriter",
    "annotate",
    "canonicalize_records",
    "check_records",
    "invalid_places",
    "note_records",
    "validate_records",
    "write_sarif",
    "xmlns_records",
]

#: A URN written as an IRI or a quoted value (N-Triples, Turtle, RDF/XML attributes,
#: JSON-LD): what the position finders (findings, the HTML report) search the inputs for.
#: The closing delimiter is looked at, not consumed, so a token right after it is found too.
URN_TOKEN = re.compile(rb"""[<"']([Uu][Rr][Nn]:[^<>"'\s]+)(?=[>"'])""")

#: Invalid spellings looked for per read of the inputs (a slice of the report's sorted list).
SLICE = 200_000

CSV_FIELDS = ["kind", "urn", "canonical", "code", "message", "source", "line", "count",
              "spellings", "severity", "path", "source_shape", "where"]


class FindingsWriter:
    """Writes records to ``path`` as JSON Lines, or CSV when the name ends in ``.csv``.

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "f.csv"
    >>> with FindingsWriter(str(p)) as w:
    ...     w.write({"kind": "cluster", "canonical": "urn:a:b", "spellings": {"URN:A:b": 1}})
    >>> p.read_text().splitlines()[1]
    'cluster,,urn:a:b,,,,,,URN:A:b=1,,,,'
    """

    def __init__(self, path: str) -> None:
        from .._kernel import atomic_output

        self.path = path
        self.csv = path.lower().endswith(".csv")
        # Written as every output is: complete or not at all (a full disk leaves nothing).
        self._output = contextlib.ExitStack()
        self._file: IO[str] = (
            sys.stdout if path == "-"
            else self._output.enter_context(atomic_output(path, text=True))
        )
        self._csv_writer: Any = None
        if self.csv:
            self._csv_writer = csv.DictWriter(self._file, CSV_FIELDS, extrasaction="ignore")
            self._csv_writer.writeheader()
        self.records = 0

    def write(self, record: dict[str, Any]) -> None:
        self.records += 1
        if self._csv_writer is not None:
            row = dict(record)
            if isinstance(row.get("spellings"), dict):
                row["spellings"] = " ".join(f"{s}={n}" for s, n in row["spellings"].items())
            if "occurrences" in row and "count" not in row:
                row["count"] = row["occurrences"]
            self._csv_writer.writerow({k: ("" if v is None else v) for k, v in row.items()})
        else:
            self._file.write(json.dumps(record, ensure_ascii=False, sort_keys=True))
            self._file.write("\n")

    def write_all(self, records: Iterable[dict[str, Any]]) -> None:
        for record in records:
            self.write(record)

    def close(self) -> None:
        """Finish the file: renamed into place (or, within a run, when the run commits)."""
        if self._file is sys.stdout:
            self._file.flush()
        self._output.close()

    def __enter__(self) -> FindingsWriter:
        return self

    def __exit__(self, *exc: Any) -> None:
        if exc[0] is None:
            self.close()
        else:  # an error on the way: the partial file is removed, nothing is replaced
            self._output.__exit__(*exc)


def _slices(
    items: Iterator[tuple[str, tuple[int, str]]], size: int
) -> Iterator[dict[str, tuple[int, str]]]:
    chunk: dict[str, tuple[int, str]] = {}
    for spelling, value in items:
        chunk[spelling] = value
        if len(chunk) >= size:
            yield chunk
            chunk = {}
    if chunk:
        yield chunk


def invalid_places(
    paths: Iterable[str], invalid: Iterator[tuple[str, tuple[int, str]]], *,
    slice_size: int = SLICE,
) -> Iterator[tuple[str, str, str | None, int | None, int]]:
    """``(spelling, first error, source, line, 1)`` for every occurrence of an invalid
    spelling in *paths* (sorted ``(spelling, (count, error))`` items), input order within each
    slice of *invalid*; a spelling found nowhere comes once with source and line None and its
    count.

    An occurrence is one URN in one statement: a URN written once for several statements
    (Turtle's ``;`` and ``,`` lists) has one place per statement, each at the line it is
    written on (its place as a subject when it is one, the subject being what a ``;`` list
    repeats). A spelling written in more places than it has occurrences (a comment, a literal
    not read as a URN) gives no more places than occurrences.

    >>> import pathlib, tempfile
    >>> f = pathlib.Path(tempfile.mkdtemp()) / "x.ttl"
    >>> _ = f.write_text('<urn:x-a:1> <p> "o" ;\\n  <q> "r" .\\n<s> <p> <urn:x-a:1> .\\n')
    >>> invalid = iter([("urn:x-a:1", (3, "e")), ("urn:x-b:2", (1, "e"))])
    >>> [p[2:] for p in invalid_places([str(f)], invalid)]
    [(..., 1, 1), (..., 3, 1), (..., 1, 1), (None, None, 1)]
    """
    from .._kernel import open_input

    paths = [p for p in paths if p != "-"]
    for chunk in _slices(invalid, slice_size):
        wanted = {s.encode("utf-8"): s for s in chunk}
        placed: dict[str, int] = {}
        # Where the occurrences not written out again are: the spelling's place as a subject
        # (first token of its line), else its last place.
        extra_at: dict[str, tuple[str, int, bool]] = {}
        for path in paths:
            try:
                with open_input(path) as (f, _size):
                    for number, line in enumerate(f, 1):
                        if b":" not in line:
                            continue
                        met: dict[str, bool] = {}
                        start = len(line) - len(line.lstrip())
                        for m in URN_TOKEN.finditer(line):
                            spelling = wanted.get(m.group(1))
                            if spelling is not None:
                                met[spelling] = met.get(spelling, False) or m.start() == start
                        for spelling, subject in met.items():
                            n = placed.get(spelling, 0)
                            if n >= chunk[spelling][0]:
                                continue
                            placed[spelling] = n + 1
                            if not extra_at.get(spelling, ("", 0, False))[2]:
                                extra_at[spelling] = (path, number, subject)
                            yield spelling, chunk[spelling][1], path, number, 1
            except OSError:
                continue  # the command has said what it could not read
        for spelling, (count, error) in chunk.items():
            n = placed.get(spelling, 0)
            if n == 0:
                yield spelling, error, None, None, count
                continue
            path, number, _subject = extra_at[spelling]
            for _ in range(count - n):
                yield spelling, error, path, number, 1


def _code(error: str) -> tuple[str, str]:
    code, _, message = error.partition(": ")
    return code, message


def _invalid_records(
    paths: Iterable[str], invalid: Iterator[tuple[str, tuple[int, str]]]
) -> Iterator[dict[str, Any]]:
    for spelling, error, source, line, count in invalid_places(paths, invalid):
        code, message = _code(error)
        record: dict[str, Any] = {"kind": "invalid-urn", "urn": spelling, "code": code,
                                  "message": message, "source": source, "line": line}
        if source is None:
            record["occurrences"] = count
        yield record


def _error_records(report: Any) -> Iterator[dict[str, Any]]:
    for source, line, message in report.iter_errors():
        yield {"kind": "malformed-line", "source": source, "line": line, "message": message}


def check_records(report: Any, paths: Iterable[str]) -> Iterator[dict[str, Any]]:
    """Every finding of a :class:`~urnld.report.CheckReport` over the inputs *paths*."""
    yield from _invalid_records(list(paths), report.iter_invalid())
    for spelling, (count, canonical) in report.iter_non_canonical():
        yield {"kind": "non-canonical", "urn": spelling, "canonical": canonical, "count": count}
    for canonical, spellings in report.iter_clusters():
        yield {"kind": "cluster", "canonical": canonical, "spellings": spellings,
               "count": sum(spellings.values())}
    for canonical, spellings in report.iter_iris():  # check --iris rfc3986
        yield {"kind": "iri", "canonical": canonical, "spellings": spellings,
               "count": sum(spellings.values())}
    yield from _error_records(report)
    yield from note_records(report)


def note_records(report: Any) -> Iterator[dict[str, Any]]:
    """One ``jsonld`` record per note of a check report (what reading dropped or warned
    about), in (source, where, code) order."""
    for source, where, code, message, count in report.iter_notes():
        yield {"kind": "jsonld", "source": source, "where": where, "code": code,
               "message": message, "count": count}


def canonicalize_records(report: Any, paths: Iterable[str]) -> Iterator[dict[str, Any]]:
    """Every finding of a :class:`~urnld.report.CanonicalizeReport` over the inputs."""
    yield from _invalid_records(list(paths), report.iter_invalid())
    for canonical, spellings in report.iter_clusters():
        for spelling, count in spellings.items():
            if spelling != canonical:
                yield {"kind": "non-canonical", "urn": spelling, "canonical": canonical,
                       "count": count}
        yield {"kind": "cluster", "canonical": canonical, "spellings": spellings,
               "count": sum(spellings.values())}
    for canonical, spellings in report.iter_iris():
        yield {"kind": "iri", "canonical": canonical, "spellings": spellings,
               "count": sum(spellings.values())}
    yield from _error_records(report)


# -- SARIF and annotations -----------------------------------------------------------------

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


def _uri(path: str) -> str:
    from pathlib import Path
    from urllib.parse import quote

    if os.path.isabs(path):
        return Path(path).as_uri()
    return quote(Path(path).as_posix())


_RFC = re.compile(r"RFC (\d+) (?:§([\d.]+)|App\. ([A-Z]))")


def _help_uri(text: str) -> str | None:
    """The RFC section a rule's text names, as a link (the first one named).

    >>> _help_uri("RFC 8141 §2 syntax"), _help_uri("RFC 8141 App. C: removed")
    ('https://www.rfc-editor.org/rfc/rfc8141#section-2', 'https://www.rfc-editor.org/rfc/rfc8141#appendix-C')
    """
    m = _RFC.search(text)
    if m is None:
        return None
    number, section, appendix = m.groups()
    anchor = f"section-{section}" if section else f"appendix-{appendix}"
    return f"https://www.rfc-editor.org/rfc/rfc{number}#{anchor}"


def _rules() -> list[dict[str, Any]]:
    """One SARIF rule per finding code (:data:`urnld.findings.CODES`): its severity, the rule
    it comes from (the RFC section) as help text, and a link to that section."""
    from ..findings import CODES

    rules = []
    for code, (severity, text) in CODES.items():
        level = {"error": "error", "warning": "warning"}.get(str(severity), "note")
        rule: dict[str, Any] = {
            "id": code,
            "name": "".join(part.capitalize() for part in code.split("-")),
            "shortDescription": {"text": text.split(";")[0]},
            "fullDescription": {"text": text},
            "help": {
                "text": f"{code}: {text}. 'urnld parse URN' shows every finding of a URN and "
                "its canonical form.",
            },
            "defaultConfiguration": {"level": level},
        }
        uri = _help_uri(text)
        if uri:
            rule["helpUri"] = uri
        rules.append(rule)
    for code, text in NOTE_CODES.items():
        rules.append({
            "id": code,
            "name": "".join(part.capitalize() for part in code.split("-")),
            "shortDescription": {"text": text},
            "fullDescription": {"text": text},
            "help": {"text": f"{code}: {text} (JSON-LD 1.1 Processing Algorithms and API)."},
            "defaultConfiguration": {"level": "warning"},
            "helpUri": "https://www.w3.org/TR/json-ld11-api/",
        })
    return rules


#: The codes of what reading a JSON-LD document drops or warns about (check reports' notes).
NOTE_CODES = {
    "jsonld-dropped-key": "a key that expands to no absolute IRI (or to a blank node) is "
                          "dropped with its values",
    "jsonld-dropped-iri": "a node or value whose IRI is not well-formed is dropped",
    "jsonld-file-base": "relative references were resolved against the file's location",
    "jsonld-warning": "the JSON-LD processor warned while reading the document",
    "jsonld-scheme-term": "a term is named like a URI scheme the document uses",
    "jsonld-prefix-not-usable": "a term maps to a URN namespace JSON-LD will not use as a "
                                "prefix (no gen-delim at its end, no \"@prefix\": true)",
    "jsonld-not-analysed": "the document could not be looked at for what reading drops (too "
                           "large, or the JSON-LD processor failed)",
}


def _sarif_frame(version: str, information_uri: str, rules: list[dict[str, Any]], *,
                 columns: bool) -> tuple[str, str]:
    """A SARIF 2.1.0 log's text before and after its results, with the tool's *rules*."""
    run: dict[str, Any] = {
        "tool": {"driver": {"name": "urnld", "version": version,
                            "informationUri": information_uri, "rules": rules}},
    }
    if columns:
        run["columnKind"] = "unicodeCodePoints"
    run["results"] = ["@RESULTS@"]
    text = json.dumps({"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [run]}, indent=1,
                      ensure_ascii=False)
    before, after = text.split('"@RESULTS@"')
    return before, after


def write_sarif(
    path: str, places: Iterable[tuple[str, str, str | None, int | None, int]], *,
    version: str, notes: Iterable[tuple[str, str, str, str, int]] = (),
) -> int:
    """Write a SARIF 2.1.0 log with one result per placed invalid URN occurrence (one per
    spelling that could not be placed, without a region), then one warning per *note* (what
    reading a JSON-LD document dropped: source, JSON pointer, code, message, times, the
    pointer as the result's logical location); return the number of results.

    The results are streamed into the file, not held in memory.
    """
    rules = _rules()
    before, after = _sarif_frame(version, "https://datatracker.ietf.org/doc/html/rfc8141",
                                 rules, columns=True)
    rule_index = {r["id"]: i for i, r in enumerate(rules)}
    from .._kernel import atomic_output

    n = 0
    with atomic_output(path, text=True) as f:
        f.write(before)
        for spelling, error, source, line, count in places:
            code, message = _code(error)
            result: dict[str, Any] = {
                "ruleId": code, "level": "error",
                "message": {"text": f"invalid URN {spelling}: {message}"},
            }
            if code in rule_index:
                result["ruleIndex"] = rule_index[code]
            if source is not None:
                location: dict[str, Any] = {"physicalLocation": {
                    "artifactLocation": {"uri": _uri(source)},
                }}
                if line is not None:
                    location["physicalLocation"]["region"] = {"startLine": line}
                result["locations"] = [location]
            else:
                result["occurrenceCount"] = count
            f.write(("\n" if n == 0 else ",\n") + json.dumps(result, ensure_ascii=False))
            n += 1
        for source, where, code, message, count in notes:
            note: dict[str, Any] = {
                "ruleId": code, "level": "warning",
                "message": {"text": f"{message} (at {where or 'the document'})"},
                "locations": [{
                    "physicalLocation": {"artifactLocation": {"uri": _uri(source)}},
                }],
            }
            if where:  # "": the whole document, no narrower place
                note["locations"][0]["logicalLocations"] = [{"fullyQualifiedName": where}]
            if code in rule_index:
                note["ruleIndex"] = rule_index[code]
            if count > 1:
                note["occurrenceCount"] = count
            f.write(("\n" if n == 0 else ",\n") + json.dumps(note, ensure_ascii=False))
            n += 1
        f.write(after)
        f.write("\n")
    return n


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def annotate(
    places: Iterable[tuple[str, str, str | None, int | None, int]], out: IO[str]
) -> int:
    """Print a GitHub Actions ``::error`` workflow command per placed invalid URN occurrence;
    return how many.

    >>> import io
    >>> buf = io.StringIO()
    >>> annotate([("urn:x-a:1", "nid-experimental: X- NIDs", "a.nt", 3, 1)], buf)
    1
    >>> buf.getvalue()
    '::error file=a.nt,line=3,title=nid-experimental::invalid URN urn:x-a:1: X- NIDs\\n'
    """
    n = 0
    for spelling, error, source, line, _count in places:
        code, message = _code(error)
        where = []
        if source is not None:
            where.append(f"file={_escape_property(source)}")
            if line is not None:
                where.append(f"line={line}")
        where.append(f"title={_escape_property(code)}")
        text = _escape_data(f"invalid URN {spelling}: {message}")
        out.write(f"::error {','.join(where)}::{text}\n")
        n += 1
    return n


def xmlns_records(audits: Iterable[Any], across: Iterable[list[str]]) -> Iterator[dict[str, Any]]:
    """Every finding of ``urnld xmlns``: invalid URN namespace names, spellings of one
    namespace, ``xml:base`` URNs and RDF/XML concatenations, each with file and line."""
    for a in audits:
        for ns in a.urn_namespaces:
            if not ns.valid:
                yield {"kind": "invalid-urn", "urn": ns.uri, "message": ns.reason,
                       "source": a.source, "line": ns.line}
        for group in a.equivalent_spellings:
            yield {"kind": "cluster", "spellings": dict.fromkeys(group, 1), "source": a.source}
        for base in a.bases:
            yield {"kind": "xml-base", "urn": base.uri, "message": base.reason,
                   "source": a.source, "line": base.line}
        for c in a.concatenations:
            yield {"kind": "concatenation", "urn": c.iri, "message": c.reason,
                   "source": a.source, "line": c.line}
    for group in across:
        yield {"kind": "cluster", "spellings": dict.fromkeys(group, 1), "source": None}


def validate_records(results: Iterable[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Every SHACL result of ``urnld validate`` (its JSON form) as a record."""
    for r in results:
        yield {"kind": "shacl-result", "urn": r.get("value"), "code": r.get("component"),
               "message": r.get("message"), "source": r.get("focus_node"),
               "severity": r.get("severity"), "path": r.get("path"),
               "source_shape": r.get("source_shape")}


def write_shacl_sarif(path: str, results: Iterable[dict[str, Any]]) -> int:
    """Write ``urnld validate``'s results (their JSON form) as a SARIF 2.1.0 log: one rule per
    constraint component, one result per SHACL result (the focus node, path and value named in
    the message and the logical location); return the number of results."""
    import shutil
    import tempfile

    from .. import __version__
    from .._kernel import atomic_output

    levels = {"Violation": "error", "Warning": "warning", "Info": "note"}
    rules: dict[str, int] = {}
    count = 0
    # The rules come before the results in the log and are known only once every result was
    # seen: the results wait as text in an anonymous temporary file (a catalog can have
    # millions of them), then are copied after the rules.
    with tempfile.TemporaryFile("w+", encoding="utf-8", prefix="urnld-sarif-") as body:
        for r in results:
            component = str(r.get("component") or "")
            where = " ".join(x for x in (r.get("focus_node"), r.get("path")) if x)
            message = f"{where}: {r.get('message') or component}"
            if r.get("value") is not None:
                message += f" (value {r['value']})"
            if count:
                body.write(",\n")
            body.write(json.dumps({
                "ruleId": component, "ruleIndex": rules.setdefault(component, len(rules)),
                "level": levels.get(str(r.get("severity")), "error"),
                "message": {"text": message},
                "locations": [{"logicalLocations": [{
                    "name": r.get("focus_node"), "kind": "resource",
                    "fullyQualifiedName": str(r.get("source_shape")),
                }]}],
            }, ensure_ascii=False))
            count += 1
        rule_list = [{"id": c, "name": c.rsplit(":", 1)[-1].rsplit("#", 1)[-1],
                      "shortDescription": {"text": f"SHACL constraint component {c}"}}
                     for c in rules]
        before, after = _sarif_frame(__version__, "https://www.w3.org/TR/shacl/", rule_list,
                                     columns=False)
        body.seek(0)
        with atomic_output(path, text=True) as f:
            f.write(before)
            shutil.copyfileobj(body, f)
            f.write(after)
            f.write("\n")
    return count
