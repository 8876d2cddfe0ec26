"""``urnld parse URN… [--mode rfc2141] [--json] [--strict] [--profile P]``.

For each URN: its parts, validity, findings and canonical form. ``-`` reads one URN per line
from stdin. Exit 0 when all are valid, 1 when any is not, 2 on usage errors.

JSON output (stable): a list with one object per input::

    {"input": str, "valid": bool, "mode": "rfc8141"|"rfc2141",
     "parts": {"nid", "nss", "r_component", "q_component", "f_component"} | null,
     "assigned_name": str|null, "normalized": str|null, "canonical": str|null,
     "registered": bool|null, "rule": str|null,
     "error": {"position": int, "reason": str} | null,
     "findings": [{"code", "severity", "message", "span": [start, end], "rule"}]}
"""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from collections.abc import Iterator

from .. import json_default

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


def _inputs(values: list[str]) -> Iterator[str]:
    for value in values:
        if value == "-":
            # Bytes, decoded leniently: an undecodable line is reported as not a URN, not a crash.
            binary = getattr(sys.stdin, "buffer", None)
            lines = (
                (raw.decode("utf-8", "surrogateescape") for raw in binary)
                if binary is not None
                else iter(sys.stdin)  # a text stream given by the caller (tests, embedding)
            )
            for raw_line in lines:
                # One URN per line; spaces around it (pasted lists) are not part of it.
                line = raw_line.strip()
                if line:
                    yield line
        else:
            yield value


def describe(text: str, mode: str, strict: bool, profiles: list[str]) -> dict[str, object]:
    """The JSON-ready description of one input (see the module docstring)."""
    from .. import URN, URNSyntaxError, check
    from ..namespaces import GENERIC, get_rule
    from ..registry import is_registered

    findings = check(text, mode, strict=strict, profiles=profiles)  # type: ignore[arg-type]
    out: dict[str, object] = {
        "input": text,
        "valid": not any(f.severity == "error" for f in findings),
        "mode": mode,
        "parts": None,
        "assigned_name": None,
        "normalized": None,
        "canonical": None,
        "registered": None,
        "rule": None,
        "error": None,
        "findings": [f.to_dict() for f in findings],
    }
    try:
        urn = URN(text, mode)  # type: ignore[arg-type]
    except URNSyntaxError as e:
        out["error"] = {"position": e.position, "reason": e.reason}
        return out
    rule = get_rule(urn.nid)
    out.update(
        parts={
            "nid": urn.nid,
            "nss": urn.nss,
            "r_component": urn.r_component,
            "q_component": urn.q_component,
            "f_component": urn.f_component,
        },
        assigned_name=urn.assigned_name,
        normalized=str(urn.normalized()),
        canonical=urn.canonical_str,
        registered=is_registered(urn.nid),
        rule=None if rule is GENERIC else rule.rule_name,
    )
    return out


def _shown(text: object) -> str:
    """*text* safe for a terminal: control characters (ESC, CR, BEL…) become "?".

    Untrusted input must not recolour the terminal or overwrite the report with a carriage
    return. One character for one keeps the caret under the fault.
    """
    return "".join(
        "?" if (c < " " or c == "\x7f" or "\x80" <= c < "\xa0") else c for c in str(text)
    )


def _print_text(d: dict[str, object]) -> None:
    print(_shown(d["input"]))
    print(f"  valid       {'yes' if d['valid'] else 'NO'}")
    error = d["error"]
    if isinstance(error, dict):
        print(f"  error       {error['reason']} (at position {error['position']})")
        print(f"              {_shown(d['input'])}")
        print(f"              {' ' * int(error['position'])}^")
        return
    parts = d["parts"]
    assert isinstance(parts, dict)
    registered = "registered" if d["registered"] else "NOT registered"
    print(f"  nid         {parts['nid']}  ({registered}; rules: {d['rule'] or 'generic'})")
    print(f"  nss         {parts['nss']}")
    for key, label in (("r_component", "r-component"), ("q_component", "q-component"),
                       ("f_component", "f-component")):
        if parts[key] is not None:
            print(f"  {label:<11} {parts[key]}")
    print(f"  canonical   {d['canonical']}")
    findings = d["findings"]
    assert isinstance(findings, list)
    for f in findings:
        print(f"  {f['severity']:<7}     {f['code']}: {_shown(f['message'])}")


def run(args: argparse.Namespace) -> int:
    check_profiles(args.profile)
    # Each result is printed as soon as it is known and then dropped, so ``urnld parse -`` on
    # a long list runs in constant memory.
    valid = True
    opened = False
    for text in _inputs(args.urns):
        d = describe(text, args.mode, args.strict, args.profile)
        valid = valid and bool(d["valid"])
        if args.json:
            # The same bytes as json.dump(list, indent=2), one item at a time.
            item = json.dumps(d, indent=2, ensure_ascii=False, default=json_default)
            sys.stdout.write(("," if opened else "[") + "\n" + textwrap.indent(item, "  "))
            opened = True
        else:
            _print_text(d)
    if args.json:
        print("\n]" if opened else "[]")
    return 0 if valid else 1
