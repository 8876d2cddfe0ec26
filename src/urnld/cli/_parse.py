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
import json
import re
import sys
import textwrap
from collections.abc import Iterator
from typing import Final

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
    return _Describer(mode, strict, profiles)(text)


class _Describer:
    """:func:`describe` for a stream of inputs under one set of options: what depends only on
    the NID (IANA registration, the rule's name) is looked up once per NID, not once per URN.
    The per-NID memo is bounded: a hostile list can invent any number of NIDs."""

    _MAX_NIDS = 4096

    def __init__(self, mode: str, strict: bool, profiles: list[str]) -> None:
        from .. import URN, URNSyntaxError, check
        from ..namespaces import GENERIC, get_rule
        from ..registry import is_registered

        self.mode, self.strict, self.profiles = mode, strict, profiles
        self._urn, self._syntax_error, self._check = URN, URNSyntaxError, check
        self._generic, self._get_rule, self._is_registered = GENERIC, get_rule, is_registered
        self._nids: dict[str, tuple[bool, str | None]] = {}

    def _nid(self, nid: str) -> tuple[bool, str | None]:
        known = self._nids.get(nid)
        if known is None:
            rule = self._get_rule(nid)
            known = (self._is_registered(nid), None if rule is self._generic else rule.rule_name)
            if len(self._nids) < self._MAX_NIDS:
                self._nids[nid] = known
        return known

    def __call__(self, text: str) -> dict[str, object]:
        mode = self.mode
        findings = self._check(text, mode, strict=self.strict, profiles=self.profiles)  # type: ignore[arg-type]
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
            urn = self._urn(text, mode)  # type: ignore[arg-type]
        except self._syntax_error as e:
            out["error"] = {"position": e.position, "reason": e.reason}
            return out
        normalized, canonical = str(urn.normalized()), urn.canonical_str
        if urn.mode == "rfc2141":
            # Written out, a legacy NSS's '?', '#' would be read by RFC 8141 as components.
            normalized, canonical = (_as_rfc8141(normalized), _as_rfc8141(canonical))
        nid, nss, r, q, f = urn.parts
        registered, rule = self._nid(nid)
        out.update(
            parts={"nid": nid, "nss": nss, "r_component": r, "q_component": q,
                   "f_component": f},
            assigned_name=urn.assigned_name,
            normalized=normalized,
            canonical=canonical,
            registered=registered,
            rule=rule,
        )
        return out


def _as_rfc8141(legacy: str) -> str:
    """A legacy-mode form as RFC 8141 reads it the same way (as written when impossible)."""
    from .. import URN, URNConversionError

    try:
        return URN(legacy, "rfc2141").to_rfc8141()
    except URNConversionError:
        return legacy


def _shown(text: object) -> str:
    """*text* safe for a terminal: control characters (ESC, CR, BEL…) become "?".

    Untrusted input must not recolour the terminal or overwrite the report with a carriage
    return. One character for one keeps the caret under the fault.
    """
    return _CONTROL.sub("?", str(text))


# C0 controls, DEL and C1 controls: what a terminal may act on.
_CONTROL: Final = re.compile("[\x00-\x1f\x7f-\x9f]")


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


def run(args: argparse.Namespace) -> int:
    check_profiles(args.profile)
    describe_one = _Describer(args.mode, args.strict, args.profile)
    # Reading a list from stdin, --json writes JSON Lines (one object a line, as each result
    # is known); URNs given as arguments make one JSON list.
    lines = args.json and "-" in args.urns
    # Results are written in batches and then dropped, so ``urnld parse -`` on a long list runs
    # in constant memory without a write call per line.
    valid = True
    opened = False
    batch: list[str] = []
    write = sys.stdout.write
    for text in _inputs(args.urns):
        d = describe_one(text)
        valid = valid and bool(d["valid"])
        if lines:
            batch.append(json.dumps(d, ensure_ascii=False, default=json_default) + "\n")
        elif args.json:
            # The same bytes as json.dump(list, indent=2), one item at a time.
            item = json.dumps(d, indent=2, ensure_ascii=False, default=json_default)
            batch.append(("," if opened else "[") + "\n" + textwrap.indent(item, "  "))
            opened = True
        else:
            batch.append(_text(d))
        if len(batch) >= _BATCH:
            write("".join(batch))
            batch.clear()
    write("".join(batch))
    if args.json and not lines:
        print("\n]" if opened else "[]")
    return 0 if valid else 1


#: Results per write.
_BATCH = 512
