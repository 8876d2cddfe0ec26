"""The writer of ``urnld parse -``: a list's text blocks or JSON lines, a chunk at a time.

:class:`_Describer` writes what :func:`urnld.cli._parse.describe` describes, the same bytes by
quicker means (a memo per NID, a fast lane for common URNs, the accelerator's compiled writer
of a whole chunk), a chunk of whole lines at a time (read by :mod:`._parse_io`), so a list of
any length runs in constant memory.

>>> _Describer("rfc8141", False, []).lines("urn:example:a\\n", False).splitlines()[:2]
['urn:example:a', '  valid       yes']
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any, Final

from .. import json_default
from .._core import legacy_escaped, normalized_text
from ..findings import CODES, SEVERITY_RANK, Finding

#: One NID as written, for the fast lane: the text block's lines from "  nid" to "  nss ",
#: the JSON between the input and the NSS and between the canonical form and the findings,
#: and the NID's own findings (each code once) as text lines and JSON objects, and again as
#: the accelerator's writer takes them: (code, severity rank, text line, JSON object).
_NidLane = tuple[
    str, str, str, dict[str, str], dict[str, str], tuple[tuple[str, int, str, str], ...]
]
#: What the accelerator's writer takes of a lane: its three strings and its own findings.
_CLane = tuple[str, str, str, tuple[tuple[str, int, str, str], ...]]


def description(text: str, mode: str, findings: Sequence[Finding]) -> dict[str, object]:
    """The JSON description of *text* before its parse is known: every key ``urnld parse
    --json`` writes, in its order, the parts left None.

    >>> description("urn:x", "rfc8141", [])["valid"]
    True
    """
    return {
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


class _Describer:
    """:func:`urnld.cli._parse.describe` for a stream of inputs under one set of options, and
    the text block or JSON line of each, written the same as from its dict.

    What depends only on the NID (IANA registration, the rule's name, the NID's own findings)
    is looked up once per NID, not once per URN; the memo is bounded, since a hostile list can
    invent any number of NIDs. The common cases take a fast lane: a valid ASCII RFC 8141 URN
    without components, whose findings (by the accelerator's check: its NID's, ``not-canonical``,
    percent-encoding lints, its rule's) are made from the NSS alone. Its parts are then slices
    of the text and every string in its JSON but the messages is the text's own characters (no
    URN character needs a JSON escape). The rest goes through one parse and check
    (:func:`urnld._core.check_described`). The accelerator's writer (:meth:`lines`) takes URNs
    with components too: their NSS's findings are those of the assigned name.

    >>> d = _Describer("rfc8141", False, [])
    >>> print(d.text("URN:Example:a%2c"), end="")
    URN:Example:a%2c
      valid       yes
      nid         Example  (registered; rules: example: RFC 6963 §3)
      nss         a%2c
      canonical   urn:example:a%2C
      warning     pct-lowercase: escape '%2c' in the NSS should be written '%2C'
      info        not-canonical: canonical form is 'urn:example:a%2C'
    >>> d.json_line("urn:example:a").startswith('{"input": "urn:example:a", "valid": true')
    True
    """

    _MAX_NIDS = 4096
    _MAX_MEMO = 4096
    _MAX_MEMO_LINE = 1025  # characters of a memo's key: a line of 1024 and the JSON's mark

    def __init__(self, mode: str, strict: bool, profiles: list[str]) -> None:
        from .._core import (
            FAST_CONTEXT,
            GENERIC,
            RFC2141_RE,
            RFC8141_RE,
            accel,
            check_described,
            check_options,
            fast_findings,
            get_rule,
            nid_findings,
            repair,
            syntax_error,
            upper_pct,
        )
        from ..registry import is_registered

        self.mode, self.strict, self.profiles = mode, strict, profiles
        self.valid = True  # every input so far had no error finding
        self._check, self._options = check_described, check_options(strict, profiles)
        self._upper_pct, self._nid_findings = upper_pct, nid_findings
        self._fast_findings = fast_findings
        self._generic, self._get_rule, self._is_registered = GENERIC, get_rule, is_registered
        self._syntax_error, self._repair = syntax_error, repair
        # The syntax finding's JSON up to its message (its severity is the code's own).
        self._syntax_json = (
            '{"code": "syntax", "severity": ' + json.dumps(str(CODES["syntax"][0]))
            + ', "message": '
        )
        self._grammar = (RFC8141_RE if mode == "rfc8141" else RFC2141_RE).fullmatch
        self._nids: dict[str, tuple[bool, str | None]] = {}
        # The accelerator's check answers for the default options only.
        speedups = accel.speedups
        self._fields = (
            speedups.check_fields
            if speedups is not None and mode == "rfc8141" and not strict and not profiles
            else None
        )
        self._context = FAST_CONTEXT
        self._lanes: dict[str, _NidLane | None] = {}
        self._c_lanes: dict[str, _CLane | None] = {}
        self._memo: dict[str, tuple[str, bool]] = {}
        # The accelerator's writer remembers what it wrote for a line (a text block, a JSON
        # line), at most _MAX_MEMO lines of each: lists repeat URNs.
        self._seen: dict[bool, dict[str, str]] = {False: {}, True: {}}
        # The accelerator's writer of a chunk of lines; it takes its fast lane only with the
        # check context (the default options), and gives every other line to this class.
        self._describe_lines = None if speedups is None else speedups.describe_lines
        self._writer_context = (
            FAST_CONTEXT if self._fields is not None else (None, None, None, None, None)
        )
        # The r-component's warning as check() words it (the same for every URN).
        self._r_message = next(
            f.message
            for f in check_described("urn:ex:a?+r", "rfc8141", False, self._options)[0]
            if f.code == "r-component"
        )
        severity = str(CODES["not-canonical"][0])
        self._nc_text = f"  {severity:<7}     not-canonical: canonical form is "
        self._nc_json = (
            '{"code": "not-canonical", "severity": ' + json.dumps(severity)
            + ', "message": '
        )

    def _nid(self, nid: str) -> tuple[bool, str | None]:
        known = self._nids.get(nid)
        if known is None:
            rule = self._get_rule(nid)
            known = (self._is_registered(nid), None if rule is self._generic else rule.rule_name)
            if len(self._nids) < self._MAX_NIDS:
                self._nids[nid] = known
        return known

    def __call__(self, text: str) -> dict[str, object]:
        """:func:`urnld.cli._parse.describe`'s dict, from one parse and check."""
        mode = self.mode
        findings, canonical, parts, error = self._check(
            text, mode, self.strict, self._options  # type: ignore[arg-type]
        )
        out = description(text, mode, findings)
        if parts is None or canonical is None:
            assert error is not None
            out["error"] = {"position": error.position, "reason": error.reason}
            return out
        nid, nss, r, q, f = parts
        normalized, canonical = _written_forms(parts, canonical, mode)
        registered, rule = self._nid(nid)
        out.update(
            parts={"nid": nid, "nss": nss, "r_component": r, "q_component": q,
                   "f_component": f},
            assigned_name=f"{text[:3]}:{nid}:{nss}",
            normalized=normalized,
            canonical=canonical,
            registered=registered,
            rule=rule,
        )
        return out

    def _lane(self, nid: str) -> _NidLane | None:
        """The fast lane's pieces for the NID as written (None: a plugin's rule, whose
        findings could share a code with the NID's, which the accelerator lists once)."""
        if nid in self._lanes:
            return self._lanes[nid]
        rule = self._get_rule(nid)
        lane: _NidLane | None = None
        if type(rule).__module__.startswith("urnld."):
            registered, name = self._nid(nid)
            shown = "registered" if registered else "NOT registered"
            findings = self._nid_findings(nid, "rfc8141", False)
            own = [(f.code, f.to_dict()) for f in findings]
            texts = {code: f"  {f['severity']:<7}     {code}: {_shown(f['message'])}\n"
                     for code, f in own}
            jsons = {code: json.dumps(f, ensure_ascii=False) for code, f in own}
            lane = (
                f"  nid         {nid}  ({shown}; rules: {name or 'generic'})\n  nss         ",
                ', "mode": "rfc8141", "parts": {"nid": "' + nid + '", "nss": "',
                '", "registered": ' + json.dumps(registered) + ', "rule": '
                + json.dumps(name, ensure_ascii=False) + ', "error": null, "findings": [',
                texts,
                jsons,
                tuple((f.code, SEVERITY_RANK[f.severity], texts[f.code], jsons[f.code])
                      for f in findings),
            )
        if len(self._lanes) < self._MAX_NIDS:
            self._lanes[nid] = lane
        return lane

    def _c_lane(self, nid: str) -> _CLane | None:
        """:meth:`_lane` as the accelerator's writer takes it (memoized where it looks)."""
        lane = self._lane(nid)
        c_lane = None if lane is None else (lane[0], lane[1], lane[2], lane[5])
        if len(self._c_lanes) < self._MAX_NIDS:
            self._c_lanes[nid] = c_lane
        return c_lane

    def text(self, text: str) -> str:
        """The text block of *text*, lines ending in ``\n``."""
        out, valid = self._text_valid(text)
        if not valid:
            self.valid = False
        return out

    def _text_valid(self, text: str) -> tuple[str, bool]:
        """The text block of *text*, and whether *text* is valid."""
        out = self._text_lane(text)
        return (out, True) if out is not None else self._text_of(text)

    def _fast_lane(self, text: str) -> tuple[Any, _NidLane] | None:
        """The accelerator's check fields of *text* and its NID's lane, or None: the fast
        lanes' common start (an error may come with check()'s repair hint, which the full path
        writes)."""
        fields = self._fields
        if fields is None:
            return None
        got = fields(text, *self._context)
        if got is None or got[1] is not None:
            return None
        lane = self._lane(text[4 : 4 + len(got[3])])
        return None if lane is None else (got, lane)

    def _text_lane(self, text: str) -> str | None:
        """The text block of *text* from the fast lane (a valid URN), or None."""
        found_lane = self._fast_lane(text)
        if found_lane is not None:
            got, lane = found_lane
            codes, _, canonical, lower = got
            head = (
                f"{text}\n  valid       yes\n"
                f"{lane[0]}{text[5 + len(lower):]}\n  canonical   {canonical}\n"
            )
            if not codes:
                return head
            own = lane[3]
            found = []
            for code in codes:
                line = own.get(code)
                if line is None:
                    if code != "not-canonical":
                        break
                    line = f"{self._nc_text}{canonical!r}\n"
                found.append(line)
            else:
                return head + "".join(found)
            # Percent-encoding lints too: their findings are made from the NSS alone.
            findings = self._fast_findings(text, got)
            if findings is not None:
                # The core's messages are made of an ASCII URN's parts and reprs:
                # nothing to hide; a rule's are shown as the reference shows them.
                return head + "".join(
                    f"  {severity:<7}     {code}: "
                    f"{message if rule is None else _shown(message)}\n"
                    for code, severity, message, _, _, rule in findings
                )
        return None

    def _text_of(self, text: str) -> tuple[str, bool]:
        """:func:`urnld.cli._parse._text` of :meth:`__call__`'s dict, written from one parse
        and check, and whether *text* is valid."""
        if self._grammar(text) is None:
            # The text block of a string that does not parse shows its fault alone (no
            # findings), and the syntax error makes it invalid: the check's findings and its
            # repair hint, which cost more than the scan for the fault, are not needed.
            fault = self._syntax_error(text, self.mode)  # type: ignore[arg-type]
            return _error_block(_shown(text), fault.position, fault.reason), False
        findings, canonical, parts, error = self._check(
            text, self.mode, self.strict, self._options  # type: ignore[arg-type]
        )
        valid = not any(f.severity == "error" for f in findings)
        shown = _shown(text)
        head = f"{shown}\n  valid       {'yes' if valid else 'NO'}\n"
        if parts is None or canonical is None:
            assert error is not None
            return _error_block(shown, error.position, error.reason), valid
        nid, nss, r, q, f = parts
        # A legacy URN's canonical form comes already written in RFC 8141 syntax.
        registered, rule = self._nid(nid)
        lines = [
            f"{head}  nid         {nid}  ({'registered' if registered else 'NOT registered'}; "
            f"rules: {rule or 'generic'})\n  nss         {nss}\n"
        ]
        if r is not None:
            lines.append(f"  r-component {r}\n")
        if q is not None:
            lines.append(f"  q-component {q}\n")
        if f is not None:
            lines.append(f"  f-component {f}\n")
        lines.append(f"  canonical   {canonical}\n")
        lines += [
            f"  {finding.severity!s:<7}     {finding.code}: {_shown(finding.message)}\n"
            for finding in findings
        ]
        return "".join(lines), valid

    def json_line(self, text: str) -> str:
        """The JSON object of *text* on one line, ending in ``\n``."""
        out, valid = self._json_valid(text)
        if not valid:
            self.valid = False
        return out

    def _json_valid(self, text: str) -> tuple[str, bool]:
        """The JSON line of *text*, and whether *text* is valid."""
        out = self._json_lane(text)
        return (out, True) if out is not None else self._json_of(text)

    def _json_lane(self, text: str) -> str | None:
        """The JSON line of *text* from the fast lane (a valid URN), or None."""
        found_lane = self._fast_lane(text)
        if found_lane is not None:
            got, lane = found_lane
            codes, _, canonical, lower = got
            own = lane[4]
            found: list[str] | None = []
            for code in codes:
                item = own.get(code)
                if item is None:
                    if code != "not-canonical":
                        found = None
                        break
                    item = (
                        f"{self._nc_json}{_string(f'canonical form is {canonical!r}')}"
                        f', "span": [0, {len(text)}], "rule": null}}'
                    )
                found.append(item)  # type: ignore[union-attr]  # None breaks out
            if found is None:
                # Percent-encoding lints too: their findings are made from the NSS.
                findings = self._fast_findings(text, got)
                if findings is not None:
                    found = [
                        f'{{"code": "{code}", "severity": "{severity}", "message": '
                        f'{_string(message)}, "span": [{start}, {end}], "rule": '
                        f"{_optional(rule)}}}"
                        for code, severity, message, start, end, rule in findings
                    ]
            if found is not None:
                nss = text[5 + len(lower) :]
                normalized = f"urn:{lower}:{self._upper_pct(nss)}"
                return (
                    f'{{"input": "{text}", "valid": true{lane[1]}{nss}'
                    '", "r_component": null, "q_component": null, "f_component": null},'
                    f' "assigned_name": "{text}", "normalized": "{normalized}", '
                    f'"canonical": "{canonical}{lane[2]}{", ".join(found)}]}}\n'
                )
        return None

    def _json_of(self, text: str) -> tuple[str, bool]:
        """:meth:`__call__`'s dict as one JSON line, written from one parse and check, and
        whether *text* is valid."""
        mode = self.mode
        if self._grammar(text) is None and self._repair(text) is None:
            # A string that does not parse and that no repair fixes has one finding, its
            # syntax error, spanning the faulty character (the check's findings, made as
            # objects and sorted, cost more than the scan for the fault).
            fault = self._syntax_error(text, mode)  # type: ignore[arg-type]
            at, reason = fault.position, _string(fault.reason)
            return (
                f'{{"input": {_string(text)}, "valid": false, "mode": {_string(mode)}, '
                '"parts": null, "assigned_name": null, "normalized": null, "canonical": null, '
                f'"registered": null, "rule": null, "error": {{"position": {at}, "reason": '
                f'{reason}}}, "findings": [{self._syntax_json}{reason}, "span": [{at}, '
                f'{min(at + 1, len(text))}], "rule": null}}]}}\n'
            ), False
        findings, canonical, parts, error = self._check(
            text, mode, self.strict, self._options  # type: ignore[arg-type]
        )
        valid = not any(f.severity == "error" for f in findings)
        found = ", ".join(
            f'{{"code": {_string(f.code)}, "severity": {_string(str(f.severity))}, "message": '
            f'{_string(f.message)}, "span": [{f.span[0]}, {f.span[1]}], "rule": '
            f"{_optional(f.rule)}}}"
            for f in findings
        )
        head = f'{{"input": {_string(text)}, "valid": {"true" if valid else "false"}, "mode": ' + (
            _string(mode)
        )
        if parts is None or canonical is None:
            assert error is not None
            return (
                f'{head}, "parts": null, "assigned_name": null, "normalized": null, '
                '"canonical": null, "registered": null, "rule": null, "error": {"position": '
                f'{error.position}, "reason": {_string(error.reason)}}}, "findings": [{found}]}}\n'
            ), valid
        nid, nss, r, q, f = parts
        normalized, canonical = _written_forms(parts, canonical, mode)
        registered, rule = self._nid(nid)
        return (
            f'{head}, "parts": {{"nid": {_string(nid)}, "nss": {_string(nss)}, "r_component": '
            f'{_optional(r)}, "q_component": {_optional(q)}, "f_component": {_optional(f)}}}, '
            f'"assigned_name": {_string(f"{text[:3]}:{nid}:{nss}")}, "normalized": '
            f'{_string(normalized)}, "canonical": {_string(canonical)}, "registered": '
            f'{"true" if registered else "false"}, "rule": {_optional(rule)}, "error": null, '
            f'"findings": [{found}]}}\n'
        ), valid

    def _text_memo(self, text: str) -> tuple[str, bool]:
        """:meth:`_text_valid`, remembered: what the accelerator leaves to the Python (invalid
        URNs, whose fault and repair hint cost the most; components) repeats in real lists
        (the same typo, the same bad identifier). Without the accelerator every line comes
        here, and only the invalid ones are remembered."""
        known = self._memo.get(text)
        if known is None:
            known = self._text_valid(text)
            if self._describe_lines is not None or not known[1]:
                self._remember(text, known)
        return known

    def _json_memo(self, text: str) -> tuple[str, bool]:
        """:meth:`_json_valid`, remembered as :meth:`_text_memo` does."""
        key = "\n" + text  # no line holds a "\n": the JSON answers apart from the text ones
        known = self._memo.get(key)
        if known is None:
            known = self._json_valid(text)
            if self._describe_lines is not None or not known[1]:
                self._remember(key, known)
        return known

    def _remember(self, key: str, value: tuple[str, bool]) -> None:
        # Bounded: a list of any length runs in constant memory (the older half is dropped;
        # a long line is not kept, as the accelerator's writer keeps none past 1024 characters).
        if len(key) > self._MAX_MEMO_LINE:
            return
        memo = self._memo
        if len(memo) >= self._MAX_MEMO:
            for old in list(memo)[: self._MAX_MEMO // 2]:
                del memo[old]
        memo[key] = value

    def encoded_lines(self, chunk: str, as_json: bool) -> bytes:
        """:meth:`lines` as UTF-8, what a character cannot encode (a lone surrogate: an input
        byte that is not UTF-8) written with backslashes, as ``urnld``'s stdout writes it: the
        accelerator's writer gives its bytes at once (no str made, then encoded).

        >>> bad = "urn:ex:" + chr(0xDCFF)  # the byte 0xFF read with surrogateescape
        >>> _Describer("rfc8141", False, []).encoded_lines(bad, False).splitlines()[0]
        b'urn:ex:\\\\udcff'
        """
        write = self._describe_lines
        if write is None:
            return self.lines(chunk, as_json).encode("utf-8", "backslashreplace")
        out, _, invalid = write(
            chunk, as_json, self._seen[as_json], self._MAX_MEMO, self._c_lanes, self._c_lane,
            self._json_memo if as_json else self._text_memo, *self._writer_context,
            self._r_message, True, self._repair,
        )
        if invalid:
            self.valid = False
        return bytes(out)

    def lines(self, chunk: str, as_json: bool) -> str:
        """What ``urnld parse -`` writes for *chunk*, whole lines of a list (``\n`` ends each,
        the last may lack it): each line stripped, blank ones skipped, written as
        :meth:`json_line` or :meth:`text` writes it. With the accelerator, its writer makes the
        common case (see ``_speedups/describe_lines.h``) and this class the rest.

        >>> d = _Describer("rfc8141", False, [])
        >>> d.lines(" urn:example:a\\n\\nurn:example:b c\\n", True).count("\\n"), d.valid
        (2, False)
        """
        write = self._describe_lines
        if write is not None:
            out, _, invalid = write(
                chunk, as_json, self._seen[as_json], self._MAX_MEMO, self._c_lanes, self._c_lane,
                self._json_memo if as_json else self._text_memo, *self._writer_context,
                self._r_message, False, self._repair,
            )
            if invalid:
                self.valid = False
            return str(out)
        render = self._json_memo if as_json else self._text_memo
        parts = []
        valid = True
        for raw in chunk.split("\n"):
            line = raw.strip()
            if line:
                out, ok = render(line)
                parts.append(out)
                valid = valid and ok
        if not valid:
            self.valid = False
        return "".join(parts)


def _error_block(shown: str, at: int, reason: str) -> str:
    """The text block of an input that does not parse, *shown* as a terminal may show it.

    >>> print(_error_block("urn:a", 5, "NID is missing"), end="")
    urn:a
      valid       NO
      error       NID is missing (at position 5)
                  urn:a
                       ^
    """
    return (
        f"{shown}\n  valid       NO\n  error       {reason} (at position {at})\n"
        f"              {shown}\n              {' ' * at}^\n"
    )


def _written_forms(
    parts: tuple[str, str, str | None, str | None, str | None], canonical: str, mode: str
) -> tuple[str, str]:
    """The normalized and canonical forms as printed: in RFC 8141 syntax, read the same way
    (a legacy NSS's '?', '#' would otherwise be read by RFC 8141 as components).

    The canonical form of a legacy URN comes from the core already escaped; the normalized
    form, made here from the parts, is escaped the same way.

    >>> _written_forms(("foo", "a?b", None, None, None), "urn:foo:a%3Fb", "rfc2141")
    ('urn:foo:a%3Fb', 'urn:foo:a%3Fb')
    """
    normalized = normalized_text(*parts)
    if mode == "rfc2141":
        return legacy_escaped(normalized), canonical
    return normalized, canonical


def _shown(text: object) -> str:
    """*text* safe for a terminal: control characters (ESC, CR, BEL…) become "?".

    Untrusted input must not recolour the terminal or overwrite the report with a carriage
    return. One character for one keeps the caret under the fault.
    """
    return _CONTROL.sub("?", str(text))


# C0 controls, DEL and C1 controls: what a terminal may act on.
_CONTROL: Final = re.compile("[\x00-\x1f\x7f-\x9f]")


def _optional(text: str | None) -> str:
    """*text* as a JSON string, or ``null``."""
    return "null" if text is None else _ENCODER.encode(text)


def _string(text: str) -> str:
    """*text* as a JSON string, as :func:`json.dumps` with ``ensure_ascii=False`` writes it."""
    return _ENCODER.encode(text)


_ENCODER: Final = json.JSONEncoder(ensure_ascii=False, default=json_default)
