"""``urnld parse URN… [--mode rfc2141] [--json] [--strict] [--profile P]``.

For each URN: its parts, validity, findings and canonical form. ``-`` reads one URN per line
from stdin, in constant memory. Exit 0 when all are valid, 1 when any is not, 2 on usage errors.

JSON output (stable): a list with one object per input; reading from stdin (``-``), JSON Lines
instead, one object a line as each result is known::

    {"input": str, "valid": bool, "mode": "rfc8141"|"rfc2141",
     "parts": {"nid", "nss", "r_component", "q_component", "f_component"} | null,
     "assigned_name": str|null, "normalized": str|null, "canonical": str|null,
     (in rfc2141 mode "normalized" and "canonical" are written in RFC 8141 syntax:
     a '?', '#' or leading '/' of the NSS percent-encoded),
     "registered": bool|null, "rule": str|null,
     "error": {"position": int, "reason": str} | null,
     "findings": [{"code", "severity", "message", "span": [start, end], "rule"}]}
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import textwrap
from collections.abc import Callable

from .. import json_default
from ._parse_io import binary_stdout, chunks
from ._parse_stream import _Describer, _shown, description

HELP = "parse and check URNs, show their parts and canonical form"
EXIT_CODES = "exit status: 0 every URN valid, 1 some invalid, 2 usage error or unknown profile"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "urns", nargs="+", metavar="URN",
        help="URNs to parse; '-' reads one per line from stdin (surrounding spaces ignored, "
        "blank lines skipped)",
    )
    parser.add_argument("--mode", choices=["rfc8141", "rfc2141"], default="rfc8141",
                        help="grammar: RFC 8141 (default) or legacy RFC 2141")
    parser.add_argument("--json", action="store_true", help="print JSON (documented, stable)")
    parser.add_argument("--strict", action="store_true",
                        help="apply namespaces' optional strict checks")
    parser.add_argument("--profile", action="append", default=[], metavar="NAME",
                        help="enable an opt-in namespace profile (e.g. nbn-de); repeatable; "
                        "an unknown name is an error")


def check_profiles(names: list[str]) -> None:
    """Refuse profile names no namespace rule declares (a typo would silently skip a check)."""
    if not names:
        return
    from ..errors import URNError
    from ..namespaces import known_profiles

    known = known_profiles()
    unknown = [n for n in names if n not in known]
    if unknown:
        raise URNError(
            f"unknown profile {unknown[0]!r}; known profiles: {', '.join(known) or 'none'}"
        )


def describe(text: str, mode: str, strict: bool, profiles: list[str]) -> dict[str, object]:
    """The JSON-ready description of one input (see the module docstring).

    The reference: ``urnld parse`` writes what this returns, by quicker means for a stream.

    >>> d = describe("URN:ISBN:0-395-36341-1", "rfc8141", False, [])
    >>> d["canonical"], d["registered"], [f["code"] for f in d["findings"]]
    ('urn:isbn:0395363411', True, ['not-canonical'])
    """
    from .. import URN, URNSyntaxError, check
    from ..namespaces import GENERIC, get_rule
    from ..registry import is_registered

    findings = check(text, mode, strict=strict, profiles=profiles)  # type: ignore[arg-type]
    out = description(text, mode, findings)
    try:
        urn = URN(text, mode)  # type: ignore[arg-type]
    except URNSyntaxError as e:
        out["error"] = {"position": e.position, "reason": e.reason}
        return out
    rule = get_rule(urn.nid)
    # In rfc2141 mode both forms come with the NSS's '?', '#' and leading '/' escaped, as
    # RFC 8141 reads them the same way (else it would read '?', '#' as components).
    normalized, canonical = str(urn.normalized()), urn.canonical_str
    out.update(
        parts={
            "nid": urn.nid,
            "nss": urn.nss,
            "r_component": urn.r_component,
            "q_component": urn.q_component,
            "f_component": urn.f_component,
        },
        assigned_name=urn.assigned_name,
        normalized=normalized,
        canonical=canonical,
        registered=is_registered(urn.nid),
        rule=None if rule is GENERIC else rule.rule_name,
    )
    return out


def _text(d: dict[str, object]) -> str:
    """The text block for one description, lines ending in ``\n``."""
    shown = _shown(d["input"])
    lines = [shown, f"  valid       {'yes' if d['valid'] else 'NO'}"]
    error = d["error"]
    if isinstance(error, dict):
        lines += [
            f"  error       {error['reason']} (at position {error['position']})",
            f"              {shown}",
            f"              {' ' * int(error['position'])}^",
        ]
        return "\n".join(lines) + "\n"
    parts = d["parts"]
    assert isinstance(parts, dict)
    registered = "registered" if d["registered"] else "NOT registered"
    lines.append(f"  nid         {parts['nid']}  ({registered}; rules: {d['rule'] or 'generic'})")
    lines.append(f"  nss         {parts['nss']}")
    for key, label in (("r_component", "r-component"), ("q_component", "q-component"),
                       ("f_component", "f-component")):
        if parts[key] is not None:
            lines.append(f"  {label:<11} {parts[key]}")
    lines.append(f"  canonical   {d['canonical']}")
    findings = d["findings"]
    assert isinstance(findings, list)
    lines += [f"  {f['severity']:<7}     {f['code']}: {_shown(f['message'])}" for f in findings]
    return "\n".join(lines) + "\n"


def _dropped(data: bytes) -> int:
    """Write nothing: the reader has gone."""
    return len(data)


def _nothing() -> None:
    """Flush nothing: the reader has gone."""


def run(args: argparse.Namespace) -> int:
    check_profiles(args.profile)
    describer = _Describer(args.mode, args.strict, args.profile)
    # Reading a list from stdin, --json writes JSON Lines (one object a line, as each result
    # is known); URNs given as arguments make one JSON list.
    write = sys.stdout.write
    if args.json and "-" not in args.urns:
        opened = False
        for text in args.urns:
            d = describer(text)
            describer.valid = describer.valid and bool(d["valid"])
            # The same bytes as json.dump(list, indent=2), one item at a time.
            item = json.dumps(d, indent=2, ensure_ascii=False, default=json_default)
            write(("," if opened else "[") + "\n" + textwrap.indent(item, "  "))
            opened = True
        print("\n]" if opened else "[]")
        return 0 if describer.valid else 1
    render = describer.json_line if args.json else describer.text
    # A list on stdin is read, decoded and written a chunk of lines at a time, each result
    # dropped once written: ``urnld parse -`` on a long list runs in constant memory with one
    # write per chunk.
    # What is loaded by now outlives the stream: the collector need not walk it again at each
    # collection the stream's short-lived objects set off.
    gc.freeze()
    binary = binary_stdout()
    try:
        for value in args.urns:
            if value == "-":
                if binary is None:
                    for chunk in chunks():
                        write(describer.lines(chunk, args.json))
                    continue
                # The same bytes as through the text layer, without a str to encode.
                sys.stdout.flush()
                put: Callable[[bytes], object] = binary.write
                flush: Callable[[], None] = binary.flush
                for chunk in chunks():
                    out = describer.encoded_lines(chunk, args.json)
                    try:
                        put(out)
                        if sys.stdout.line_buffering:
                            flush()
                    except BrokenPipeError:
                        # `urnld parse - | head -1`: the exit status still judges the whole
                        # list, as the text layer's writes do (urnld.cli._PipeSafeText).
                        reader_gone = getattr(sys.stdout, "reader_gone", None)
                        if reader_gone is None:
                            raise
                        reader_gone()
                        put, flush = _dropped, _nothing
            else:
                write(render(value))
    finally:
        gc.unfreeze()
    return 0 if describer.valid else 1
