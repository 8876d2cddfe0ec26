"""``urnld fix-base FILE -o OUT``: write out references made under a prefix-like URN base.

``@base <urn:uuid:>`` followed by ``<3f2504e0-…>`` (or ``"@base": "urn:uuid:"`` with
``"@id": "3f2504e0-…"``) means ``urn:uuid:3f2504e0-…`` to its author, and something else to
every parser. This command writes each such reference in full (Turtle, TriG, N3, JSON-LD,
RDF/XML; the syntax from the extension or ``--input-format``) and reports every rewrite, one a
line, on stderr (``--json``: a JSON object on stdout, ``rewritten`` and ``left``). JSON-LD
contexts named by IRI are read from ``--catalog`` (never fetched), so aliases of ``@id`` and
terms typed ``@id`` are found there too. The input is never modified. Exit 0: written, nothing
left; 1: written, but some relative reference under a URN base could not be written out (the
base names a document, not a prefix: ``urn:example:doc`` with ``<c>``), each listed; 2: error.
"""

from __future__ import annotations

import argparse
import json
import sys

HELP = "write out references made under a URN base used as a prefix (@base <urn:uuid:>)"
EXIT_CODES = ("exit status: 0 written (also when nothing needed rewriting), 1 written but a "
              "reference under a URN base is left as it was (listed), 2 error or usage error")


#: The largest document fix-base reads (its text is held, and a JSON-LD document parsed).
MAX_FIX_BYTES = 256 << 20


def configure(parser: argparse.ArgumentParser) -> None:
    parser.description = HELP
    parser.add_argument("file", metavar="FILE",
                        help="Turtle, TriG, N3, JSON-LD or RDF/XML ('-' = stdin)")
    parser.add_argument("-o", "--output", required=True, metavar="OUT",
                        help="where to write the fixed document ('-' = stdout)")
    parser.add_argument("--input-format", metavar="F",
                        help="input syntax; default: from the file extension (stdin: turtle)")
    parser.add_argument("--catalog", metavar="DIR",
                        help="JSON-LD: a directory of context documents (catalog.json) for the "
                        "contexts the document names; nothing is fetched")
    parser.add_argument("--json", action="store_true", help="print the rewrites as JSON")


def run(args: argparse.Namespace) -> int:
    from .._kernel import atomic_output, open_input
    from ..errors import URNError
    from ..read import Rewrite, fix_base, format_for_path

    source = "<stdin>" if args.file == "-" else args.file
    syntax = format_for_path(args.file, args.input_format, stdin="turtle")
    if syntax != "json-ld":
        from ._input_options import refuse_long_lines

        # The rewrite scans the text: a giant line would take minutes.
        refuse_long_lines(args.file)
    with open_input(args.file) as (stream, _size):
        # The rewrite holds the text (and a JSON-LD document parsed): bounded, as every read.
        raw = stream.read(MAX_FIX_BYTES + 1)
    if len(raw) > MAX_FIX_BYTES:
        raise URNError(f"{source}: over {MAX_FIX_BYTES:,} bytes, the limit for a document "
                       "fix-base rewrites (it holds the text in memory)")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise URNError(f"{source}: not UTF-8 (byte {e.start})") from None
    left: list[Rewrite] = []
    fixed, rewrites = fix_base(text, syntax, source=source, catalog=args.catalog, left=left)
    with atomic_output(args.output, text=True) as out:
        out.write(fixed)
    if args.json:
        json.dump({"rewritten": [r._asdict() for r in rewrites],
                   "left": [{"where": r.where, "reference": r.reference} for r in left]},
                  sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        for r in rewrites:
            print(f"{r.where}: <{r.reference}> -> <{r.iri}>", file=sys.stderr)
        for r in left:
            print(f"{r.where}: <{r.reference}> left as written: its URN base names a document, "
                  "not a prefix, so no IRI is what the author meant; write it in full",
                  file=sys.stderr)
        plural = "s" if len(rewrites) != 1 else ""
        tail = f"; {len(left)} left as written" if left else ""
        print(f"urnld fix-base: {len(rewrites)} reference{plural} written in full{tail}",
              file=sys.stderr)
    return 1 if left else 0
