"""``urnld jsonld expand|compact|flatten|frame|context FILE [--catalog DIR] [--context CTX]``.

``expand``, ``compact``, ``flatten`` and ``frame`` (with ``--frame FRAME``) run urnld's JSON-LD
wrappers over FILE (``-`` = stdin):
URN IRIs come out canonical, contexts named by URNs are loaded from ``--catalog`` (a directory
with a ``catalog.json``), nothing is fetched from the network. The hazards that make IRIs wrong
(a relative reference against a URN base, a term named ``urn``) stop the run (``--hazards warn``
reports them and continues); the others (invalid URNs, other scheme-named terms, unusable
prefixes) are findings: listed on stderr, the output written, exit 1. Relative references
resolve against ``--base`` or the document's ``@base``; without either they stay relative
(no base is invented). ``compact`` needs ``--context``; CTX is a JSON file or a URL/URN the
catalog knows.

``context`` writes a JSON-LD 1.1 context built from FILE's namespace declarations: the
``xmlns`` declarations of an XML document (streamed, any size), or the prefixes of an RDF file
(Turtle, RDF/XML, …, by extension). Namespace names that are invalid URNs are reported on stderr.

Output is JSON on stdout, or written atomically to ``-o FILE``. Exit 0 on success, 1 when
findings were listed, 2 on errors.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import warnings
from pathlib import Path
from typing import Any

HELP = "JSON-LD expand/compact/flatten/frame/context with URN-aware contexts"
EXIT_CODES = ("exit status: 0 done, 1 done with findings (invalid URNs, scheme-named terms), "
              "2 error (bad input, unsafe document, usage)")

_XML_SUFFIXES = {".xml", ".xsd", ".xlf", ".xliff", ".fodt", ".fods", ".fodp", ".svg", ".saml",
                 ".xhtml", ".rdf", ".owl"}


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("action", choices=["expand", "compact", "flatten", "frame", "context"],
                        help="what to do with FILE")
    parser.add_argument("file", metavar="FILE", help="JSON-LD input ('-' = stdin); for "
                        "'context', an XML or RDF document")
    parser.add_argument("--catalog", metavar="DIR",
                        help="directory whose catalog.json maps URNs to local JSON-LD files")
    parser.add_argument("--context", metavar="CTX",
                        help="context to compact/flatten with: a JSON file, or a URN/URL in "
                        "the catalog")
    parser.add_argument("--frame", metavar="FRAME",
                        help="frame for 'frame': a JSON file, or a URN/URL in the catalog")
    parser.add_argument("--base", metavar="IRI",
                        help="base IRI of relative references (default: the document's @base; "
                        "without one they stay relative)")
    parser.add_argument("--hazards", choices=["error", "warn", "ignore"], default="error",
                        help="what to do about the URN hazards that make IRIs wrong (default: "
                        "error; the others are findings)")
    parser.add_argument("--no-canonicalize", action="store_true",
                        help="plain pyld behaviour (no canonical URNs, no hazard checks)")
    parser.add_argument("-o", "--output", default="-", metavar="OUT",
                        help="write here (atomically) instead of stdout")


#: The largest JSON document read (pyld holds several copies of it in memory).
MAX_JSON_BYTES = 256 << 20


def _read_json(path: str) -> Any:
    from .._kernel import open_input
    from ..errors import URNError

    with open_input(path) as (f, _size):
        data = f.read(MAX_JSON_BYTES + 1)
    if len(data) > MAX_JSON_BYTES:
        raise URNError(f"{path}: over {MAX_JSON_BYTES:,} bytes, the limit for a JSON document")
    try:
        return json.loads(data.decode("utf-8"))
    except UnicodeDecodeError as e:
        raise URNError(f"{path}: not UTF-8 (byte {e.start})") from None
    except json.JSONDecodeError as e:
        raise URNError(f"{path}: not JSON: {e.msg} (line {e.lineno}, column {e.colno})") from None
    except RecursionError:
        raise URNError(f"{path}: JSON nested too deeply to read") from None


def _context_arg(value: str) -> Any:
    if Path(value).is_file():
        return _read_json(value)
    return value


def _generate_context(path: str, catalog: str | None) -> dict[str, Any]:
    from .._kernel import open_input
    from ..jsonld import context_from_graph, context_from_xml

    if path == "-" or Path(path).suffix.lower() in _XML_SUFFIXES or _looks_like_xml(path):
        with open_input(path) as (stream, _size):
            return context_from_xml(stream)
    from rdflib import Graph

    from ..read import read

    # Only the document's own prefixes: rdflib's "core" bindings are not the document's.
    graph = read(path, graph=Graph(bind_namespaces="none"), catalog=catalog)
    return context_from_graph(graph)


def _looks_like_xml(path: str) -> bool:
    import stat

    # A FIFO (`<(zcat doc.xml.gz)`) can be read once: peeking would lose what is read, and the
    # second open would wait forever for a writer that has gone.
    if not stat.S_ISREG(os.stat(path).st_mode):
        return False
    with open(path, "rb") as f:
        head = f.read(256).lstrip(b"\xef\xbb\xbf \t\r\n")
    return head.startswith(b"<")


def run(args: argparse.Namespace) -> int:
    from .._kernel import atomic_output
    from ..errors import URNError
    from ..jsonld import (
        Hazard,
        URNContextWarning,
        URNDocumentLoader,
        compact,
        expand,
        flatten,
        frame,
    )

    found: list[Hazard] = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", URNContextWarning)
        if args.action == "context":
            result: Any = _generate_context(args.file, args.catalog)
        else:
            loader = URNDocumentLoader(args.catalog if args.catalog else {})
            doc = _read_json(args.file)
            common: dict[str, Any] = {"loader": loader, "canonicalize": not args.no_canonicalize,
                                      "base": args.base}
            if not args.no_canonicalize:
                common["hazards"] = args.hazards
                common["findings"] = found
            context = _context_arg(args.context) if args.context else None
            if args.action == "expand":
                result = expand(doc, **common)
            elif args.action == "compact":
                if context is None:
                    raise URNError("compact needs --context CTX")
                result = compact(doc, context, **common)
            elif args.action == "frame":
                if not args.frame:
                    raise URNError("frame needs --frame FRAME")
                result = frame(doc, _context_arg(args.frame), **common)
            else:
                result = flatten(doc, context, **common)
    for warning in caught:
        if issubclass(warning.category, URNContextWarning):
            print(f"urnld jsonld: warning: {warning.message}", file=sys.stderr)
    for hazard in found:
        print(f"urnld jsonld: finding: {args.file}: {hazard.message} [{hazard.code}]",
              file=sys.stderr)
    with atomic_output(args.output, text=True, fsync=True) as out:
        json.dump(result, out, indent=2, ensure_ascii=False)
        out.write("\n")
    return 1 if found else 0
