"""``urnld parse -``'s compiled writer (``_speedups/describe_lines.h``) writes what the Python writes.

The accelerator's ``describe_lines`` writes the text blocks or JSON Lines of a chunk of lines,
the common case itself (valid ASCII URNs, and ASCII strings that do not parse, whose fault
``_speedups/diagnose.h`` finds and words as the parser does) and the rest through the Python. For every chunk, its output and the
validity it reports must be byte for byte those of the Python writer (``_Describer.lines``
without the accelerator) and of the reference (``describe`` then ``_text`` or ``json.dumps``,
one line at a time), in text and JSON. The whole command is compared too, on bytes that are not
UTF-8, NUL, CR, blank lines and a line longer than any chunk.

Inputs: the 117 URNs of tests/data/nid_examples.jsonl (RFC examples, each row naming its
source) with their equivalent and non-equivalent spellings, the published identifiers of
tests/namespaces/test_real_world.py, one URN for each finding code, adversarial strings, one
string for each fault the parser names, and Hypothesis lists of valid URNs, near misses, any
text and hostile lines (NUL, CR, controls, non-ASCII, undecodable bytes, long lines).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from core_strategies import near_misses, valid_urns
from hypothesis import given, settings
from hypothesis import strategies as st
from test_parse_fast import BY_CODE, OPTIONS, PUBLISHED

from urnld import json_default
from urnld._core import RFC8141_RE, accel
from urnld.cli._parse import _text, describe
from urnld.cli._parse_stream import _Describer

ROOT = Path(__file__).resolve().parents[2]

#: What the fast lane meets at its edges: many escapes of each lint (more than check() lists),
#: escapes in runs, a quote in the canonical form (repr switches quotes), NID findings with
#: lints, upper-case prefixes, and lines that are not URNs at all.
ADVERSARIAL = [
    "urn:example:" + "%2c" * 10,
    "urn:example:" + "%41%2c%00%c3" * 6,
    "urn:example:%6a%7E%2d%2E%5f",  # unreserved and lower case at one escape
    "urn:example:%C3%A9%c3%28%E2%82%ACx%FF%FE%80",
    "urn:example:%F0%9F%98%80%ED%A0%80%C0%AF%F4%90%80%80",
    "URN:EXAMPLE:a'b",
    "URN:Example:a'b%2c(c)!$&*+,;=:@/~",
    "urn:X-local:a%2c",
    "urn:xy-ab:%41",
    "urn:sha1:abc%2c%00",
    "urn:urn-07:a",
    "URN:ISBN:0-395-36341-1",
    "urn:isbn:0-395-36341-2",
    "urn:uuid:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6",
    "urn:issn:0317-8471",
    "urn:example:a?+r",
    "urn:example:a?=q%2c",
    "urn:example:a#f",
    # components: the NSS's findings are the assigned name's; each component has its own
    # percent-encoding lints (as many of a code as the NSS), named by its part
    "urn:example:a?=" + "%2c" * 5 + "#" + "%7e%00" * 4,
    "urn:example:%2c?+%C3?=%C3%A9%FF#%e2%82",
    "urn:example:a#",
    "urn:example:a?+?=#",
    "URN:EXAMPLE:a%2c?+r/?x?=q?y=#f?#",
    "urn:example:a?=?+r",
    "URN:ISBN:0-395-36341-1?+x=1?=y=2#z",
    "urn:isbn:0-395-36341-2?=q",
    "urn:uuid:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6#f",
    "urn:X-local:a?+r",
    "urn:example:%41?+%41?=%2c#%2c",
    "urn:example:a?+r'\"x",
    "urn:example:a?+r#f\x00",
    "urn:example:\u00e9",
    "urn:ex:a b",
    "urn:ex:\x00",
    "urn:ex:\ud800",
    "urn:ex:a\u202eb",
    "urn:ex:a\x1b[31mRED",
    "urn:ex:a\rurn:ex:forged",
    "urn:" + "a" * 40 + ":b",
    "urn:example:" + "a" * 5000,
    "%" * 300,
    "urn:",
    "x",
    "\u00a0urn:example:a\u2003",
    "\x1curn:example:a\x1f",
    "urn:example:a\x0bb",
    "urn:example:a\x85",
]


#: One string for each fault the parser's diagnosis names (urnld/_core/_parser.py), the
#: strings that do not parse are written from their (position, reason) alone in text and,
#: when no repair fixes them, from their one syntax finding in JSON: each message's wording,
#: repr quoting and caret position, and the faults that a repair does fix (their JSON has the
#: ``repairable`` finding too).
SYNTAX_FAULTS = [
    "ur",  # the input ends early
    "url:example:a",
    '"urn:isbn:0395363411"',  # a pasted list's quotes and brackets
    "<urn:isbn:0395363411>",
    "urn:-ab:c",
    "urn:" + "a" * 33 + ":b",
    "urn:ab_c:d",
    "urn::a",
    "urn:.a:b",
    "urn:example",
    "urn:ab-:c",
    "urn:a:b",
    "urn:example:",
    "urn:example:/a",
    "urn:example:?a",
    "urn:example:a%",
    "urn:example:a%2",
    "urn:example:a%g1",
    "urn:example:a\tb",
    "urn:example:a\\b",
    "urn:example:a'b c",
    "urn:example:a\"b",
    "urn:example:a\x7fb",
    "urn:example:a\udcffb",  # an undecodable byte as read
    "urn:example:caf\u00e9 x",
    "urn:example:a?+",
    "urn:example:a?+r b",
    "urn:example:a?x",
    "urn:example:a?query=1",  # a draft-era query that '?=' makes a URN
    "urn:example:a?q b",  # one that it does not
    "urn:example:a?=",
    "urn:example:a?=q b",
    "urn:example:a#f#g",
    "urn:example:a#f b",
    "urn:isbn:0395363411.",  # the sentence around it
    "urn:isbn:0395363411,",
    "urn:uuid:{f81d4fae-7dec-11d0-a765-00a0c91e6bf6}",  # repairable (RFC 9562 braces)
    "urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6 ",
    "URN:UUID:{F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6}x",
    "urn:example:a%00&~b",  # RFC 2141 mode's own faults (%00, '&', '~')
    "urn:example:~a",
]


def _nid_examples() -> list[str]:
    found = []
    for line in (ROOT / "tests" / "data" / "nid_examples.jsonl").read_text("utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            found += [row["urn"], *row.get("equivalent_to", []), *row.get("not_equivalent_to", [])]
    return found


ALL = [*_nid_examples(), *PUBLISHED, *BY_CODE.values(), *ADVERSARIAL, *SYNTAX_FAULTS]


def _reference(chunk: str, mode: str, strict: bool, profiles: list[str],
               as_json: bool) -> tuple[str, bool]:
    """The chunk as the reference writes it: one ``describe`` a stripped, non-blank line."""
    out, valid = [], True
    for raw in chunk.split("\n"):
        line = raw.strip()
        if line:
            d = describe(line, mode, strict, profiles)
            out.append(json.dumps(d, ensure_ascii=False, default=json_default) + "\n"
                       if as_json else _text(d))
            valid = valid and bool(d["valid"])
    return "".join(out), valid


def _python_writer(mode: str, strict: bool, profiles: list[str]) -> _Describer:
    d = _Describer(mode, strict, profiles)
    d._describe_lines = None  # the Python writer alone
    return d


def _assert_same(chunk: str, mode: str = "rfc8141", strict: bool = False,
                 profiles: list[str] | None = None) -> None:
    profiles = profiles or []
    for as_json in (False, True):
        expected, valid = _reference(chunk, mode, strict, profiles, as_json)
        writers = [_python_writer(mode, strict, profiles), _Describer(mode, strict, profiles)]
        for d in writers:
            # Twice: the first pass fills the memos (the core's NID table, the lanes) that
            # open the fast lane to the second.
            for _ in range(2):
                d.valid = True
                assert d.lines(chunk, as_json) == expected
                assert d.valid is valid
            # The bytes the command writes (what UTF-8 cannot encode, with backslashes).
            d.valid = True
            assert d.encoded_lines(chunk, as_json) == expected.encode("utf-8", "backslashreplace")
            assert d.valid is valid


@pytest.mark.parametrize("text", ALL)
def test_each_input_alone(text: str) -> None:
    _assert_same(text + "\n")


def test_every_input_in_one_chunk_on_every_option_set() -> None:
    chunk = "\n".join(ALL) + "\n"
    for options in OPTIONS:
        _assert_same(chunk, *options)


def test_lines_are_split_and_stripped_as_the_python_does() -> None:
    # Only "\n" ends a line (as reading bytes line by line does); str.strip() whitespace around
    # a line goes, blank lines are skipped, a last line may lack its "\n".
    _assert_same(" urn:example:a \t\r\n\n\u3000\nurn:example:b\u2028urn:example:c\n  \nurn:example:d")
    _assert_same("")
    _assert_same("\n\n \n")


def test_the_compiled_diagnosis_is_taken() -> None:
    # The ASCII strings that do not parse are written by the accelerator (diagnose.h), but for
    # a draft-era query that '?=' fixes (its reason is the Python's) and, in JSON, a string a
    # repair fixes (its finding is the Python's).
    if accel.speedups is None:
        pytest.skip("the accelerator is not built (or URNLD_PURE_PYTHON=1)")
    python = {"urn:example:a?query=1", "urn:uuid:{f81d4fae-7dec-11d0-a765-00a0c91e6bf6}",
              "urn:example:\u00e9 x"}
    faults = [t for t in SYNTAX_FAULTS if t.isascii()]
    chunk = "\n".join([*faults, *python]) + "\n"
    for as_json in (False, True):
        asked: list[str] = []
        d = _Describer("rfc8141", False, [])
        slow = d._json_memo if as_json else d._text_memo

        def record(text: str, slow: Callable[[str], tuple[str, bool]] = slow,
                   asked: list[str] = asked) -> tuple[str, bool]:
            asked.append(text)
            return slow(text)

        d._text_memo = d._json_memo = record  # type: ignore[method-assign]
        d.valid = True
        assert d.lines(chunk, as_json) == _reference(chunk, "rfc8141", False, [], as_json)[0]
        assert d.valid is False
        expected = {"urn:example:a?query=1", "urn:example:a?x", "urn:example:\u00e9 x"}
        if as_json:
            expected |= {t for t in python if "uuid" in t.lower()}
        # (the strings that parse, with a rule's finding, are the Python's as before)
        assert {t for t in asked if RFC8141_RE.fullmatch(t) is None} == expected


def test_the_compiled_lane_is_taken() -> None:
    # Without this the comparisons could pass with a lane nobody enters.
    if accel.speedups is None:
        pytest.skip("the accelerator is not built (or URNLD_PURE_PYTHON=1)")
    texts = ["urn:example:a", "URN:ISBN:0-395-36341-1", "urn:sha1:abc", "urn:example:a%2cb%41",
             "urn:uuid:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6", "urn:example:%C3%28%00",
             "URN:EXAMPLE:a'b", "urn:X-local:a", "urn:example:a?+r?=q#f", "URN:ISBN:0-395-36341-1#",
             "urn:example:a%2c?=q=1", "urn:example:%41?+%41?=%2c%2c%2c%2c#%C3%00"]
    chunk = "\n".join(texts) + "\n"
    d = _Describer("rfc8141", False, [])
    d.lines(chunk, False)  # fills the core's NID table and the lanes

    def refuse(text: str) -> tuple[str, bool]:
        raise AssertionError(f"the Python writer was asked for {text!r}")

    d._text_memo = d._json_memo = refuse  # type: ignore[method-assign]
    for as_json in (False, True):
        # urn:X-local:a is invalid (an error): only it goes to the Python.
        assert d.lines(chunk.replace("urn:X-local:a\n", ""), as_json) == _reference(
            chunk.replace("urn:X-local:a\n", ""), "rfc8141", False, [], as_json)[0]


_LINES = st.lists(
    st.one_of(valid_urns, near_misses(), st.sampled_from(ALL), st.text(max_size=30)),
    max_size=12,
)
_SEPARATORS = st.sampled_from(["\n", " \n", "\n\n", "\t\n ", "\r\n"])


@settings(max_examples=300, deadline=None)
@given(_LINES, _SEPARATORS)
def test_lists(lines: list[str], sep: str) -> None:
    _assert_same(sep.join(lines))


@settings(max_examples=100, deadline=None)
@given(_LINES, st.sampled_from(OPTIONS[1:]))
def test_lists_on_other_options(lines: list[str], options: tuple[str, bool, list[str]]) -> None:
    _assert_same("\n".join(lines), *options)


#: Lines as hostile input writes them: NUL, CR, controls, quotes, non-ASCII, lone surrogates
#: (undecodable bytes), URN delimiters, after a URN's start or none; and lines longer than the
#: memos keep.
_HOSTILE = st.one_of(
    st.builds(
        str.__add__,
        st.sampled_from(["urn:example:", "URN:ISBN:", "urn:uuid:", "urn:x:", "urn:", ""]),
        st.lists(st.sampled_from([*"\x00\r\t\x0b\x1b\x7f\x85\u00a0\u00e9\u202e\ud800",
                                  *"\udcff \"'<>%#?+=/\\:;,.-_~&", *"aZ09", "%2c", "?+", "?=",
                                  "%C3%A9"]), max_size=40).map("".join),
    ),
    st.builds(lambda n, tail: "urn:example:" + "a" * n + tail, st.integers(1000, 3000),
              st.sampled_from(["", " x", "%", "\x00", "?=q", "\u00e9"])),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_HOSTILE, max_size=10), _SEPARATORS)
def test_hostile_lists(lines: list[str], sep: str) -> None:
    _assert_same(sep.join(lines))


def _command(stdin: bytes, *args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "urnld", "parse", *args, "-"], input=stdin,
                          capture_output=True, timeout=300, check=False)


@pytest.mark.parametrize("as_json", [False, True])
def test_the_command_writes_what_the_reference_writes(as_json: bool) -> None:
    # Bytes as a list arrives: not UTF-8, NUL, CRLF, blank lines, a line longer than a read
    # (the reader's chunk), no "\n" at the end.
    raw = (
        "\n".join(ALL).encode("utf-8", "surrogatepass")
        + b"\nurn:example:\xff\nurn:ex:\xc3\x28a\r\n\n urn:example:\x00 \n"
        + b"urn:example:" + b"b" * 200_000 + b"\n" + b"urn:example:%2c" * 5000 + b"\n"
        + b"urn:example:last"
    )
    text = raw.decode("utf-8", "surrogateescape")
    expected, valid = _reference(text, "rfc8141", False, [], as_json)
    done = _command(raw, *(["--json"] if as_json else []))
    assert done.stderr == b""
    assert done.returncode == (0 if valid else 1) == 1
    # stdout writes what it cannot encode as the reference's text with backslashes
    assert done.stdout == expected.encode("utf-8", "backslashreplace")


def test_the_exit_status_is_the_whole_lists() -> None:
    good = b"urn:example:a\n" * 3000
    assert _command(good).returncode == 0
    # one invalid URN anywhere, in the first chunk or far after it
    assert _command(b"urn:ex:a b\n" + good).returncode == 1
    assert _command(good * 10 + b"urn:ex:a b\n").returncode == 1
    assert _command(good * 10 + b"urn:ex:a b\n", "--json").returncode == 1


def test_a_closed_pipe_keeps_the_whole_lists_exit_status() -> None:
    # `urnld parse - < list | head -0`: the output is cut off, the verdict still judges every
    # line (the invalid one comes after the reader has gone).
    for args in ((), ("--json",)):
        for tail, status in ((b"", 0), (b"urn:ex:a b\n", 1)):
            read, write = os.pipe()
            os.close(read)
            try:
                done = subprocess.run([sys.executable, "-m", "urnld", "parse", *args, "-"],
                                      input=b"urn:example:a\n" * 20_000 + tail, stdout=write,
                                      stderr=subprocess.PIPE, timeout=300, check=False)
            finally:
                os.close(write)
            assert (done.returncode, done.stderr) == (status, b"")


def test_a_full_memo_is_emptied_and_the_output_stays_the_same() -> None:
    # The writer remembers at most _MAX_MEMO lines of each kind: past it, it starts again.
    chunk = "\n".join([*ALL, *ALL[:50], *ALL[:50]]) + "\n"
    for as_json in (False, True):
        expected = _reference(chunk, "rfc8141", False, [], as_json)[0]
        d = _Describer("rfc8141", False, [])
        d._MAX_MEMO = 7
        for _ in range(2):
            assert d.lines(chunk, as_json) == expected
            assert len(d._memo) <= 7 and all(len(s) <= 7 for s in d._seen.values())


def test_long_lines_are_not_remembered() -> None:
    # The memos hold a bounded number of lines of bounded length: a list of long lines does
    # not fill memory with their outputs.
    long_valid, long_invalid = "urn:example:" + "a" * 2000, "urn:ex:a b" + "c" * 2000
    chunk = f"{long_valid}\n{long_invalid}\n" * 2
    for as_json in (False, True):
        d = _Describer("rfc8141", False, [])
        assert d.lines(chunk, as_json) == _reference(chunk, "rfc8141", False, [], as_json)[0]
        assert not d._memo and not any(d._seen.values())
