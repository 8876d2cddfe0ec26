"""``urnld fix-base FILE -o OUT``: write out references made under a prefix-like URN base.

``@base <urn:uuid:>`` followed by ``<3f2504e0-…>`` (or ``"@base": "urn:uuid:"`` with
``"@id": "3f2504e0-…"``) means ``urn:uuid:3f2504e0-…`` to its author, and something else to
every parser. This command writes each such reference in full (Turtle, TriG, N3, JSON-LD; the
syntax from the extension or ``--input-format``) and reports every rewrite, one a line, on
stderr (``--json``: a JSON list on stdout). The input is never modified. Exit 0: written (also
when nothing needed rewriting); 2: error.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

HELP = "write out references made under a URN base used as a prefix (@base <urn:uuid:>)"
EXIT_CODES = "exit status: 0 written (also when nothing needed rewriting), 2 error or usage error"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.description = HELP
    parser.add_argument("file", metavar="FILE", help="Turtle, TriG, N3 or JSON-LD ('-' = stdin)")
    parser.add_argument("-o", "--output", required=True, metavar="OUT",
                        help="where to write the fixed document ('-' = stdout)")
    parser.add_argument("--input-format", metavar="F",
                        help="input syntax; default: from the file extension (stdin: turtle)")
    parser.add_argument("--json", action="store_true", help="print the rewrites as JSON")


def run(args: argparse.Namespace) -> int:
    from .._kernel import atomic_output, open_input
    from ..errors import URNError
    from ..read import fix_base, format_for_path

    source = "<stdin>" if args.file == "-" else args.file
    if args.file != "-" and args.output != "-" and os.path.exists(args.output) \
            and os.path.samefile(args.file, args.output):
        raise URNError(f"output {args.output!r} is the input file; the input is never modified")
    syntax = format_for_path(args.file, args.input_format, stdin="turtle")
    with open_input(args.file) as (stream, _size):
        raw = stream.read()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise URNError(f"{source}: not UTF-8 (byte {e.start})") from None
    fixed, rewrites = fix_base(text, syntax, source=source)
    with atomic_output(args.output, text=True) as out:
        out.write(fixed)
    if args.json:
        json.dump([r._asdict() for r in rewrites], sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        for r in rewrites:
            print(f"{r.where}: <{r.reference}> -> <{r.iri}>", file=sys.stderr)
        print(f"urnld fix-base: {len(rewrites)} reference{'s' if len(rewrites) != 1 else ''} "
              "written in full", file=sys.stderr)
    return 0
