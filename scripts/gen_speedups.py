#!/usr/bin/env python3
"""Generate ``src/urnld/_core/_speedups/_generated.h``: the data the compiled accelerator shares
with the pure-Python reference, read from the Python itself.

The accelerator's C copies of urnld's hot paths once held their own hand-made copies of this
data, which could drift from the Python without any test noticing until a differential test
happened to hit the difference. Everything here is taken from the module that owns it:

* character classes: RFC 3986/8141's (``urnld._core._abnf``) and N-Triples'
  (``urnld.stream._grammar``), as 256-entry byte tables;
* finding codes, in :data:`urnld.findings.CODES`'s order, and the severity ranks
  (:data:`urnld.findings.SEVERITY_RANK`);
* the field order of :class:`urnld._kernel.TermVerdict` and of the check fields
  (:class:`urnld._kernel.TermCheck`), and the URN literal datatypes;
* the ``native_copy`` kinds the built-in namespace rules carry (every ``canonical_nss`` and
  ``check_nss`` mark, as X-macro lists: a kind without its C copy does not compile);
* the GS1 TDS table of ``urn:epc`` (:data:`urnld.namespaces._tds.SCHEMES`);
* the message templates of the copied ``check_nss`` methods (``str.format`` templates, which
  the C copy formats with ``str.format`` too).

Usage::

    python scripts/gen_speedups.py            # rewrite the header in place
    python scripts/gen_speedups.py --out DIR  # write DIR/_generated.h instead
    python scripts/gen_speedups.py --check    # exit 1 when the committed header is stale

tests/core/test_speedups_generated.py regenerates into a temporary directory and compares.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import re
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Final

ROOT = Path(__file__).resolve().parents[1]
HEADER = ROOT / "src" / "urnld" / "_core" / "_speedups" / "_generated.h"

if str(ROOT / "src") not in sys.path:  # run from a checkout without an install
    sys.path.insert(0, str(ROOT / "src"))


def _c_string(text: str) -> str:
    """A C string literal holding *text* in UTF-8 (non-ASCII bytes and quotes escaped)."""
    out = []
    for b in text.encode("utf-8"):
        ch = chr(b)
        if ch in '"\\':
            out.append("\\" + ch)
        elif 0x20 <= b < 0x7F and ch != "?":  # '?' escaped: no trigraphs
            out.append(ch)
        else:
            out.append(f"\\{b:03o}")
    return '"' + "".join(out) + '"'


def _ident(name: str) -> str:
    """An upper-case C identifier for a code or field name ("pct-lowercase" -> PCT_LOWERCASE)."""
    ident = re.sub(r"[^A-Za-z0-9]", "_", name).upper()
    if not re.fullmatch(r"[A-Z_][A-Z0-9_]*", ident):
        raise ValueError(f"no C identifier for {name!r}")
    return ident


def _table(name: str, member: Callable[[int], bool], what: str) -> list[str]:
    """A 256-entry byte table: 1 where *member*(byte)."""
    bits = [1 if member(c) else 0 for c in range(256)]
    rows = [", ".join(str(b) for b in bits[i : i + 32]) for i in range(0, 256, 32)]
    return [
        f"/* {what} */",
        f"static const unsigned char {name}[256] = {{",
        *(f"    {row}," for row in rows),
        "};",
    ]


def _char_classes() -> list[str]:
    from urnld._core import _abnf
    from urnld.stream import _grammar

    def chars(s: str) -> Callable[[int], bool]:
        return lambda c: chr(c) in s

    def regex(pattern: bytes) -> Callable[[int], bool]:
        compiled = re.compile(pattern)
        return lambda c: compiled.fullmatch(bytes([c])) is not None

    iri_char = regex(_grammar._IRI_CHAR)
    pn_char = regex(_grammar._PN_CHAR)
    return [
        "/* ---- character classes ---- */",
        *_table("PCHAR", chars(_abnf.PCHAR_CHARS),
                "RFC 3986 pchar less pct-encoded: urnld._core._abnf.PCHAR_CHARS"),
        *_table("HEX", chars(_abnf.HEX_CHARS), "urnld._core._abnf.HEX_CHARS"),
        *_table("ALNUM", chars(_abnf.ALPHANUM_CHARS), "urnld._core._abnf.ALPHANUM_CHARS"),
        *_table("LDH", chars(_abnf.ALPHANUM_CHARS + "-"),
                "RFC 8141 ldh (the NID's inner characters): ALPHANUM_CHARS + '-'"),
        *_table("IRI_BAD", lambda c: not iri_char(c),
                "bytes that end or break an N-Triples IRIREF: not urnld.stream._grammar._IRI_CHAR"),
        *_table("PN_START", regex(_grammar._PN_START),
                "a blank-node label's first byte: urnld.stream._grammar._PN_START"),
        *_table("PN", lambda c: pn_char(c) or c == ord("."),
                "a blank-node label's later bytes: urnld.stream._grammar._PN_CHAR and '.'"),
    ]


def _codes() -> list[str]:
    from urnld.findings import CODES, SEVERITY_RANK, Severity

    lines = [
        "/* ---- finding codes, in urnld.findings.CODES's order ---- */",
        "enum code {",
        *(f"    CODE_{_ident(code)}," for code in CODES),
        "    CODE_COUNT",
        "};",
        "static const char *const CODE_NAMES[CODE_COUNT] = {",
        *(f"    {_c_string(code)}," for code in CODES),
        "};",
        "/* urnld.findings.SEVERITY_RANK */",
    ]
    lines += [f"#define RANK_{_ident(s.name)} {SEVERITY_RANK[s]}" for s in Severity]
    return lines


def _fields() -> list[str]:
    from urnld._kernel import URN_LITERAL_DATATYPES, TermVerdict
    from urnld._kernel._term_check import TermCheck

    def enum(prefix: str, names: Iterable[str], count: str, what: str) -> list[str]:
        return [f"/* {what} */", "enum {", *(f"    {prefix}_{_ident(n)}," for n in names),
                f"    {count}", "};"]

    suffixes = [_c_string(f"^^<{iri}>") for iri in URN_LITERAL_DATATYPES]
    return [
        "/* ---- tuples shared with the Python ---- */",
        *enum("VERDICT", TermVerdict._fields, "VERDICT_FIELDS",
              "urnld._kernel.TermVerdict's fields, in order"),
        *enum("FIELDS", TermCheck._fields, "FIELDS_COUNT",
              "the check fields (urnld._kernel.TermCheck, CheckFields), in order"),
        "/* what may follow a literal that holds a URN: urnld._kernel.URN_LITERAL_DATATYPES */",
        "static const char *const URN_LITERAL_SUFFIXES[] = {",
        *(f"    {s}," for s in suffixes),
        "};",
        f"#define URN_LITERAL_SUFFIX_COUNT {len(suffixes)}",
    ]


def native_marks() -> dict[str, list[str]]:
    """Every ``native_copy`` kind on a built-in rule's method: method name -> sorted kinds."""
    import urnld.namespaces as package
    from urnld._core import NamespaceRule

    for mod in pkgutil.iter_modules(package.__path__):
        importlib.import_module(f"{package.__name__}.{mod.name}")
    found: dict[str, set[str]] = {"canonical_nss": set(), "check_nss": set()}
    todo: list[type] = [NamespaceRule]
    while todo:
        cls = todo.pop()
        todo.extend(cls.__subclasses__())
        if not cls.__module__.startswith("urnld."):  # a plug-in's rule is never copied
            continue
        for method, kinds in found.items():
            kind = getattr(cls.__dict__.get(method), "_urnld_native", None)
            if kind is not None:
                if not re.fullmatch(r"[a-z][a-z0-9_]*", kind):
                    raise ValueError(f"{cls.__name__}.{method}: bad native_copy kind {kind!r}")
                kinds.add(kind)
    return {method: sorted(kinds) for method, kinds in found.items()}


def _natives() -> list[str]:
    marks = native_marks()
    lines = [
        "/* ---- the native_copy marks of the built-in rules (urnld._core.native_copy) ----",
        " * X(kind) for every kind: the C copy of each is canonical_<kind> / check_<kind>. */",
    ]
    for method, macro in (("canonical_nss", "CANONICAL_COPIES"), ("check_nss", "CHECK_COPIES")):
        lines.append(f"#define {macro}(X) \\")
        lines += [f"    X({kind}) \\" for kind in marks[method]]
        lines.append("    /* end */")
    return lines


def _tds_table() -> list[str]:
    from urnld.namespaces import _tds

    kinds = list(_tds._KIND_TEXT)
    for key, scheme in _tds.SCHEMES.items():
        for field in scheme.fields:
            if field.kind not in kinds:
                raise ValueError(f"{key}: field kind {field.kind!r} has no text")
    width = max(len(s.fields) for s in _tds.SCHEMES.values())
    lines = [
        "/* ---- GS1 TDS bodies of urn:epc: urnld.namespaces._tds.SCHEMES ---- */",
        "enum tds_kind {", *(f"    TDS_{_ident(k)}," for k in kinds), "};",
        "static const char *const TDS_KIND_NAMES[] = {",
        *(f"    {_c_string(k)}," for k in kinds),
        "};",
        f"#define TDS_MAX_FIELDS {width}",
        "typedef struct {",
        "    enum tds_kind kind;",
        "    int min_len, max_len; /* max_len 0: no bound of its own */",
        "} TdsField;",
        "typedef struct {",
        "    const char *key;",
        "    int fields;",
        "    TdsField field[TDS_MAX_FIELDS];",
        "    int budget;       /* the lengths of the fields in budget_mask add up ... */",
        "    unsigned budget_mask;",
        "    int exact, most;  /* ... to exact (or at most *most*); 0: none */",
        "} TdsScheme;",
        "static const TdsScheme TDS_SCHEMES[] = {",
    ]
    for key, scheme in _tds.SCHEMES.items():
        fields = ", ".join(
            f"{{TDS_{_ident(f.kind)}, {f.min_len}, {f.max_len}}}" for f in scheme.fields
        )
        if scheme.budget is None:
            budget = "0, 0, 0, 0"
        else:
            which, exact, most = scheme.budget
            mask = sum(1 << i for i in which)
            budget = f"1, {mask:#x}, {exact or 0}, {most or 0}"
        lines.append(f"    {{{_c_string(key)}, {len(scheme.fields)}, {{{fields}}}, {budget}}},")
    lines += ["};", "#define TDS_COUNT ((int)(sizeof(TDS_SCHEMES) / sizeof(TDS_SCHEMES[0])))"]
    return lines


def _escapes(pattern: re.Pattern[str]) -> str:
    """Every "%XY" escape (hex in either case) that *pattern* accepts on its own."""
    hexdigits = "0123456789ABCDEFabcdef"
    return "".join(
        e for x in hexdigits for y in hexdigits if pattern.fullmatch(e := f"%{x}{y}") is not None
    )


def _message(name: str, module: str, attr: str) -> list[str]:
    """A check_nss message template: the same str.format template in Python and C."""
    template = getattr(importlib.import_module(module), attr)
    if not isinstance(template, str):
        raise TypeError(f"{module}.{attr} is not a str")
    return [f"/* {module}.{attr} */", f"static const char MSG_{name}[] = {_c_string(template)};"]


def _check_isbn() -> list[str]:
    from urnld.namespaces import isbn

    return [
        f"static const int ISBN10_WEIGHTS[] = {{{', '.join(map(str, isbn._WEIGHTS10))}}};",
        *_message("ISBN_CHECK_DIGIT", "urnld.namespaces.isbn", "MSG_CHECK_DIGIT"),
    ]


def _check_issn() -> list[str]:
    from urnld.namespaces import issn

    return [
        f"static const int ISSN_WEIGHTS[] = {{{', '.join(map(str, issn._WEIGHTS))}}};",
        *_message("ISSN_CHECK_CHARACTER", "urnld.namespaces.issn", "MSG_CHECK_CHARACTER"),
    ]


def _check_uuid() -> list[str]:
    from urnld.namespaces import uuid

    names = ", ".join(_c_string(n) for n in uuid._NAMES)
    return [
        f"#define UUID_GROUP_COUNT {len(uuid._GROUPS)}",
        f"static const int UUID_GROUPS[] = {{{', '.join(map(str, uuid._GROUPS))}}};",
        f"static const char *const UUID_GROUP_NAMES[] = {{{names}}};",
        *_message("UUID_GROUP_LENGTH", "urnld.namespaces.uuid", "MSG_GROUP_LENGTH"),
    ]


def _check_publicid() -> list[str]:
    from urnld.namespaces import publicid

    return [
        *_table("PUBLICID_COPIED", lambda c: chr(c) in publicid._COPIED,
                "copied as they are: urnld.namespaces.publicid._COPIED"),
        "/* the eight escapes: urnld.namespaces.publicid._ESCAPE's values */",
        f"static const char PUBLICID_ESCAPES[] = {_c_string(''.join(publicid._ESCAPE.values()))};",
        *_message("PUBLICID_NOT_AN_ESCAPE", "urnld.namespaces.publicid", "MSG_NOT_AN_ESCAPE"),
    ]


def _check_oasis() -> list[str]:
    from urnld.namespaces import oasis

    return [
        "/* urnld.namespaces.oasis._BRANCHES: branch, segments needed after it, shape */",
        "static const struct {",
        "    const char *branch;",
        "    int need;",
        "    const char *shape;",
        "} OASIS_BRANCHES[] = {",
        *(f"    {{{_c_string(b)}, {need}, {_c_string(shape)}}},"
          for b, (need, shape) in oasis._BRANCHES.items()),
        "};",
        f"#define OASIS_BRANCH_COUNT {len(oasis._BRANCHES)}",
        *_message("OASIS_TOO_FEW", "urnld.namespaces.oasis", "MSG_TOO_FEW"),
    ]


def _check_epc() -> list[str]:
    from urnld.namespaces import _tds

    gs3a3 = re.compile(_tds._GS3A3.pattern.removesuffix("+"))
    cpref = re.compile(_tds._CPREF.pattern.removesuffix("+"))
    return [
        *_tds_table(),
        *_table("TDS_GS3A3_CHAR", lambda c: gs3a3.fullmatch(chr(c)) is not None,
                "a GS3A3 character: urnld.namespaces._tds._GS3A3"),
        f"static const char TDS_GS3A3_ESCAPES[] = {_c_string(_escapes(gs3a3))};",
        *_table("TDS_CPREF_CHAR", lambda c: cpref.fullmatch(chr(c)) is not None,
                "a CPRef character: urnld.namespaces._tds._CPREF"),
        f"static const char TDS_CPREF_ESCAPES[] = {_c_string(_escapes(cpref))};",
    ]


#: The data of each check_nss copy, by its native_copy kind (only the copies there are).
CHECK_DATA: dict[str, Callable[[], list[str]]] = {
    "isbn": _check_isbn,
    "issn": _check_issn,
    "uuid": _check_uuid,
    "publicid": _check_publicid,
    "oasis": _check_oasis,
    "epc": _check_epc,
}


def _check_data() -> list[str]:
    lines = ["/* ---- the check_nss copies' tables and message templates ---- */"]
    for kind in native_marks()["check_nss"]:
        if kind in CHECK_DATA:
            lines += [f"/* check_{kind} */", *CHECK_DATA[kind]()]
    return lines


def _split_message(message: str, args: list[str], what: str) -> list[str]:
    """*message* cut at the reprs of *args*, in order: the pieces a C copy writes between them."""
    pieces, rest = [], message
    for arg in args:
        before, found, rest = rest.partition(repr(arg))
        if not found:
            raise ValueError(f"{what}: {arg!r} not in {message!r}")
        pieces.append(before)
    return [*pieces, rest]


def _describe_data() -> list[str]:
    """What urnld parse's C writer (describe.h) needs: each code's severity, and the messages
    of the findings it writes itself (percent-encoding lints and not-canonical), cut into the
    pieces between their reprs, read from check()'s own findings of sample URNs."""
    from urnld import check
    from urnld.findings import CODES, SEVERITY_RANK, Severity

    def message(text: str, code: str, nth: int = 0) -> str:
        found = [f.message for f in check(text) if f.code == code]
        return found[nth]

    # (C name, sample URN, code, the reprs in its message); each checked on a second sample.
    samples = [
        ("PCT_LOWERCASE", "urn:example:a%2c", "pct-lowercase", ["%2c", "%2C"]),
        ("PCT_UNRESERVED", "urn:example:%41", "pct-unreserved", ["%41", "A"]),
        ("PCT_NUL", "urn:example:%00", "pct-nul", []),
        ("PCT_NOT_UTF8", "urn:example:%C3", "pct-not-utf8", ["%C3"]),
        ("NOT_CANONICAL", "URN:example:a", "not-canonical", ["urn:example:a"]),
    ]
    checks = {
        "PCT_LOWERCASE": ("urn:example:b%e9", ["%e9", "%E9"]),
        "PCT_UNRESERVED": ("urn:example:b%7e", ["%7e", "~"]),
        "PCT_NUL": ("urn:example:bb%00", []),
        "PCT_NOT_UTF8": ("urn:example:b%ff%FE", ["%ff%FE"]),
        "NOT_CANONICAL": ("URN:EXAMPLE:a'b", ["urn:example:a'b"]),
    }
    lines = [
        "/* ---- urnld parse's C writer (describe.h) ---- */",
        "/* each code's severity rank: urnld.findings.CODES */",
        "static const int CODE_RANK[CODE_COUNT] = {",
        *(f"    {SEVERITY_RANK[Severity(severity)]}, /* {code} */"
          for code, (severity, _) in CODES.items()),
        "};",
        "/* the severities by rank, as written */",
        "static const char *const SEVERITY_NAMES[] = {",
        *(f"    {_c_string(str(s))},"
          for s in sorted(Severity, key=lambda s: SEVERITY_RANK[s])),
        "};",
        "/* the messages the writer makes: the pieces between the reprs of their arguments */",
    ]
    for name, text, code, args in samples:
        pieces = _split_message(message(text, code), args, code)
        other, other_args = checks[name]
        rebuilt = pieces[0] + "".join(
            repr(a) + p for a, p in zip(other_args, pieces[1:], strict=True)
        )
        if rebuilt != message(other, code):
            raise ValueError(f"{code}: message is not {pieces!r} around its arguments")
        lines.append(f"static const char *const MSG_{name}[] = "
                     f"{{{', '.join(_c_string(p) for p in pieces)}}};")
    # Each lint is written at most this many times per code (check() stops there).
    many = [f for f in check("urn:example:" + "%2c" * 10) if f.code == "pct-lowercase"]
    lines.append(f"#define LINTS_PER_CODE {len(many)}")
    return lines


def _cut(message: str, args: list[str], what: str) -> list[str]:
    """*message* cut at the literal strings *args*, in order: the pieces between them."""
    pieces, rest = [], message
    for arg in args:
        before, found, rest = rest.partition(arg)
        if not found:
            raise ValueError(f"{what}: {arg!r} not in {message!r}")
        pieces.append(before)
    return [*pieces, rest]


#: The parts of a URN as the parser's reasons name them, in diagnose.h's order (enum part).
_PARTS: Final = ["namespace-specific string", "r-component", "q-component", "f-component"]


def _diagnosis_data() -> list[str]:
    """What urnld parse's C diagnosis (diagnose.h) writes: the parser's reasons for an ASCII
    string that is not an RFC 8141 URN, read from the parser's own diagnosis of sample
    strings and cut at their arguments (a character's repr, its code, the part's name); each
    cut is checked on a second sample with other arguments."""
    from urnld._core._parser import diagnose

    def reason(text: str) -> str:
        return diagnose(text, "rfc8141").reason

    # (C name, sample, its arguments, a second sample, its arguments)
    samples: list[tuple[str, str, list[str], str, list[str]]] = [
        ("PREFIX_EARLY", "ur", [], "urn", []),
        ("PREFIX", "url:a:b", [], "xurn:a:b", []),
        ("NID_DASH_START", "urn:-ab:c", [], "urn:--:c", []),
        ("NID_LONG", "urn:" + "a" * 33 + ":b", [], "urn:" + "b" * 40, []),
        ("NID_FIRST", "urn:.a:b", ["'.'"], "urn:'a:b", ['"\'"']),
        ("NID_CHAR", "urn:ab_c:d", ["'_'"], "urn:ab\\:d", ["'\\\\'"]),
        ("NID_MISSING", "urn::a", [], "urn:", []),
        ("NID_NO_NSS", "urn:example", [], "urn:ab", []),
        ("NID_DASH_END", "urn:ab-:c", [], "urn:a-b--:c", []),
        ("NID_SHORT", "urn:a:b", [], "urn:0:", []),
        ("BAD_PCT", "urn:example:a%g1", [], "urn:example:%", []),
        ("QMARK", "urn:example:a?x", [], "urn:example:%41?", []),
        ("HASH_TWICE", "urn:example:a#f#g", [], "urn:example:a##", []),
        ("SPACE_IN", "urn:example:a b", [_PARTS[0]], "urn:example:a?+r ", [_PARTS[1]]),
        ("CONTROL_IN", "urn:example:a\tb", ["U+0009", _PARTS[0]], "urn:example:a?=q\x7f",
         ["U+007F", _PARTS[2]]),
        ("CHAR_IN", "urn:example:a<b", ["'<'", "3C", _PARTS[0]], 'urn:example:a#f"',
         ["'\"'", "22", _PARTS[3]]),
        ("EMPTY", "urn:example:", [_PARTS[0]], "urn:example:a?+?=q", [_PARTS[1]]),
        ("START", "urn:example:/a", [_PARTS[0], "'/'"], "urn:example:a?=?x",
         [_PARTS[2], "'?'"]),
    ]
    lines = [
        "/* ---- urnld parse's diagnosis of a string that is not a URN (diagnose.h) ---- */",
        "/* the parts as the reasons name them: urnld._core._parser */",
        "static const char *const SX_PARTS[] = {"
        + ", ".join(_c_string(p) for p in _PARTS) + "};",
        "/* urnld._core._parser's reasons, cut at their arguments */",
    ]
    for name, text, args, other, other_args in samples:
        pieces = _cut(reason(text), args, name)
        rebuilt = pieces[0] + "".join(a + p for a, p in zip(other_args, pieces[1:], strict=True))
        if rebuilt != reason(other):
            raise ValueError(f"{name}: reason is not {pieces!r} around its arguments")
        lines.append(f"static const char *const MSG_SX_{name}[] = "
                     f"{{{', '.join(_c_string(p) for p in pieces)}}};")
    return lines


def render() -> str:
    """The header's text."""
    parts = [
        [
            "/* generated by scripts/gen_speedups.py; do not edit.",
            " *",
            " * The data the accelerator shares with urnld's Python code, read from that code",
            " * (python scripts/gen_speedups.py rewrites this file; tests/core/",
            " * test_speedups_generated.py fails when it is stale). Included once, by",
            " * _speedups.c. */",
            "#ifndef URNLD_SPEEDUPS_GENERATED_H",
            "#define URNLD_SPEEDUPS_GENERATED_H",
        ],
        _char_classes(),
        _codes(),
        _fields(),
        _natives(),
        _check_data(),
        _describe_data(),
        _diagnosis_data(),
        ["#endif /* URNLD_SPEEDUPS_GENERATED_H */"],
    ]
    return "\n\n".join("\n".join(p) for p in parts) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, help="directory to write _generated.h into")
    ap.add_argument("--check", action="store_true", help="exit 1 if the header is stale")
    args = ap.parse_args(argv)
    text = render()
    if args.check:
        stale = not HEADER.exists() or HEADER.read_text(encoding="utf-8") != text
        if stale:
            print(f"{HEADER} is stale: run python scripts/gen_speedups.py", file=sys.stderr)
        return 1 if stale else 0
    target = args.out / HEADER.name if args.out else HEADER
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
