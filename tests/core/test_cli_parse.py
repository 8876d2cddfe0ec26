"""``urnld parse``: text and JSON output, stdin, exit codes, no tracebacks.

JSON schema (stable; `urnld parse --json` prints a list with one object per input, in order)::

    {
      "input":         str,                 # exactly as given (stdin lines without the newline)
      "valid":         bool,                # no finding of severity "error"
      "mode":          "rfc8141" | "rfc2141",
      "parts":         {"nid": str, "nss": str, "r_component": str|null,
                        "q_component": str|null, "f_component": str|null} | null,
      "assigned_name": str | null,          # null when the syntax is wrong
      "normalized":    str | null,          # RFC 8141 §3 case normalization
      "canonical":     str | null,          # urnld canonical form
      "registered":    bool | null,         # NID in the IANA registry snapshot
      "rule":          str | null,          # namespace rule name, null for generic
      "error":         {"position": int, "reason": str} | null,   # syntax error only
      "findings":      [{"code": str, "severity": "error"|"warning"|"info",
                         "message": str, "span": [int, int], "rule": str|null}]
    }
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from typing import Any

import pytest

from urnld import CODES, check
from urnld.cli import main

TOP_KEYS = {
    "input", "valid", "mode", "parts", "assigned_name", "normalized", "canonical",
    "registered", "rule", "error", "findings",
}
PART_KEYS = {"nid", "nss", "r_component", "q_component", "f_component"}
FINDING_KEYS = {"code", "severity", "message", "span", "rule"}


def _assert_schema(obj: dict[str, Any]) -> None:
    assert set(obj) == TOP_KEYS
    assert isinstance(obj["input"], str)
    assert isinstance(obj["valid"], bool)
    assert obj["mode"] in ("rfc8141", "rfc2141")
    for f in obj["findings"]:
        assert set(f) == FINDING_KEYS
        assert f["code"] in CODES
        assert f["severity"] in ("error", "warning", "info")
        assert isinstance(f["message"], str) and f["message"]
        assert isinstance(f["span"], list) and len(f["span"]) == 2
        assert all(isinstance(x, int) for x in f["span"])
        assert f["rule"] is None or isinstance(f["rule"], str)
    assert obj["valid"] == (not any(f["severity"] == "error" for f in obj["findings"]))
    if obj["error"] is None:
        assert set(obj["parts"]) == PART_KEYS
        for key in ("assigned_name", "normalized", "canonical"):
            assert isinstance(obj[key], str)
        assert isinstance(obj["registered"], bool)
    else:
        assert set(obj["error"]) == {"position", "reason"}
        assert isinstance(obj["error"]["position"], int)
        for key in ("parts", "assigned_name", "normalized", "canonical", "registered", "rule"):
            assert obj[key] is None
        assert obj["valid"] is False


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[dict[str, Any]]]:
    code = main(["parse", "--json", *args])
    out = capsys.readouterr().out
    if "-" in args:
        # Reading a list from stdin, --json writes JSON Lines: one compact object a line.
        lines = out.splitlines()
        assert all(line.startswith("{") and line.endswith("}") for line in lines), out
        data = [json.loads(line) for line in lines]
    else:
        data = json.loads(out)
    assert isinstance(data, list)
    for obj in data:
        _assert_schema(obj)
    return code, data


def test_json_valid(capsys: pytest.CaptureFixture[str]) -> None:
    code, data = run_json(capsys, "URN:Example:a123%2cz456?+cc=us?=lang=en#p12")
    assert code == 0
    (d,) = data
    assert d["input"] == "URN:Example:a123%2cz456?+cc=us?=lang=en#p12"
    assert d["valid"] is True
    assert d["parts"] == {
        "nid": "Example",
        "nss": "a123%2cz456",
        "r_component": "cc=us",
        "q_component": "lang=en",
        "f_component": "p12",
    }
    assert d["assigned_name"] == "URN:Example:a123%2cz456"
    assert d["normalized"] == "urn:example:a123%2Cz456?+cc=us?=lang=en#p12"
    assert d["canonical"] == "urn:example:a123%2Cz456?+cc=us?=lang=en#p12"
    assert d["registered"] is True
    assert d["error"] is None
    # the findings are exactly check()'s, in its order
    assert [f["code"] for f in d["findings"]] == [f.code for f in check(d["input"])]
    assert [f["span"] for f in d["findings"]] == [list(f.span) for f in check(d["input"])]


def test_json_syntax_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, data = run_json(capsys, "urn:ex:a b")
    assert code == 1
    (d,) = data
    assert d["error"] == {
        "position": 8,
        "reason": "space is not allowed in a URN; percent-encode it as %20 "
        "(in the namespace-specific string)",
    }
    assert [f["code"] for f in d["findings"]] == ["syntax"]


def test_json_policy_error_is_invalid_but_parsed(capsys: pytest.CaptureFixture[str]) -> None:
    code, data = run_json(capsys, "urn:x-foo:bar")
    assert code == 1
    (d,) = data
    assert d["valid"] is False and d["error"] is None
    assert d["parts"]["nid"] == "x-foo"
    assert [f["code"] for f in d["findings"]] == ["nid-experimental"]


def test_json_namespace_rule_and_registry(capsys: pytest.CaptureFixture[str]) -> None:
    code, data = run_json(capsys, "URN:ISBN:0-395-36341-1", "urn:sha1:abc")
    assert code == 0  # warnings do not make a URN invalid
    isbn, sha1 = data
    assert isbn["canonical"] == "urn:isbn:0395363411"
    assert isbn["rule"] is not None and isbn["rule"].startswith("isbn")
    assert isbn["registered"] is True
    assert sha1["registered"] is False and sha1["rule"] is None
    assert [f["code"] for f in sha1["findings"]] == ["nid-unregistered"]


def test_json_rfc2141_mode(capsys: pytest.CaptureFixture[str]) -> None:
    code, data = run_json(capsys, "--mode", "rfc2141", "urn:foo:a/b", "urn:foo:a&b")
    assert code == 1
    ok, bad = data
    assert ok["mode"] == "rfc2141" and ok["valid"] is True
    assert [f["code"] for f in ok["findings"]] == ["nid-unregistered", "rfc2141-reserved-char"]
    assert bad["error"]["position"] == 9


def test_text_output(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["parse", "URN:Example:a%2c?+r"])
    out = capsys.readouterr().out.splitlines()
    assert code == 0
    assert out[0] == "URN:Example:a%2c?+r"
    assert out[1].split() == ["valid", "yes"]
    assert out[2].split()[:2] == ["nid", "Example"]
    assert out[3].split() == ["nss", "a%2c"]
    assert out[4].split() == ["r-component", "r"]
    assert out[5].split() == ["canonical", "urn:example:a%2C?+r"]
    codes = [line.split()[1].rstrip(":") for line in out[6:]]
    assert codes == ["pct-lowercase", "r-component", "not-canonical"]


def test_text_output_error_has_caret(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["parse", "urn:ex:a b"])
    out = capsys.readouterr().out.splitlines()
    assert code == 1
    assert out[1].split() == ["valid", "NO"]
    assert "(at position 8)" in out[2]
    # the caret sits under the space
    assert out[3].strip() == "urn:ex:a b"
    assert out[4].index("^") == out[3].index("urn:ex:a b") + 8


def test_stdin(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("urn:example:a\n\nURN:EXAMPLE:b\r\n"))
    code, data = run_json(capsys, "-", "urn:example:c")
    assert code == 0
    assert [d["input"] for d in data] == ["urn:example:a", "URN:EXAMPLE:b", "urn:example:c"]
    monkeypatch.setattr(sys, "stdin", io.StringIO("urn:example:a\nurn:ex:a b\n"))
    code, data = run_json(capsys, "-")
    assert code == 1
    assert [d["valid"] for d in data] == [True, False]


@pytest.mark.parametrize(
    "argv",
    [["parse"], ["parse", "--mode", "rfc3986", "urn:example:a"], ["parse", "--nope", "urn:a:b"], []],
)
def test_usage_errors_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        code = main(argv)
        raise SystemExit(code)
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err


@pytest.mark.parametrize(
    "bad",
    ["", " ", "urn:", "urn:ex:\ud800", "urn:ex:\x00", "urn:" + "a" * 5000, "%" * 10_000, "urn:ex:a\u202eb"],
)
def test_bad_input_never_tracebacks(bad: str, capsys: pytest.CaptureFixture[str]) -> None:
    for extra in ([], ["--json"], ["--mode", "rfc2141"]):
        code = main(["parse", *extra, "--", bad])
        captured = capsys.readouterr()
        assert code == 1
        assert "Traceback" not in captured.err + captured.out
        assert captured.err == ""


def test_subprocess_python_m_urnld() -> None:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    ok = subprocess.run(
        [sys.executable, "-m", "urnld", "parse", "--json", "URN:UUID:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6"],
        capture_output=True, text=True, env=env, timeout=60, check=False,
    )
    assert ok.returncode == 0, ok.stderr
    assert json.loads(ok.stdout)[0]["canonical"] == "urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6"
    # invalid UTF-8 on the command line arrives as surrogate escapes: a report, not a crash
    bad = subprocess.run(
        [os.fsencode(sys.executable), b"-m", b"urnld", b"parse", b"urn:example:\xff"],
        capture_output=True, timeout=60, check=False,
    )
    assert bad.returncode == 1
    assert b"Traceback" not in bad.stderr and bad.stderr == b""
    assert b"valid       NO" in bad.stdout
    # ...and so does reading it from stdin
    piped = subprocess.run(
        [sys.executable, "-m", "urnld", "parse", "-"], input=b"urn:example:a\nurn:example:\xff\n",
        capture_output=True, timeout=60, check=False,
    )
    assert piped.returncode == 1, piped.stderr
    assert piped.stderr == b""
    usage = subprocess.run(
        [sys.executable, "-m", "urnld", "parse"], capture_output=True, text=True, timeout=60,
        check=False,
    )
    assert usage.returncode == 2
    assert "Traceback" not in usage.stderr
    assert usage.stderr.startswith("urnld parse: error:")


@pytest.mark.parametrize("how", ["argv", "stdin"])
def test_undecodable_input_with_strict_utf8_stdio(how: str) -> None:
    # A UTF-8 locale (macOS, en_US.UTF-8) gives Python strict stdio; an input byte that is not
    # UTF-8 must still be reported as an invalid URN (exit 1), not end in an internal error.
    env = {**os.environ, "PYTHONIOENCODING": "utf-8:strict"}
    cmd = [os.fsencode(sys.executable), b"-m", b"urnld", b"parse"]
    if how == "argv":
        result = subprocess.run([*cmd, b"urn:example:\xff"], capture_output=True, env=env,
                                timeout=60, check=False)
    else:
        result = subprocess.run([*cmd, b"-"], input=b"urn:example:\xff\n", capture_output=True,
                                env=env, timeout=60, check=False)
    assert (result.returncode, result.stderr) == (1, b"")
    assert b"valid       NO" in result.stdout


@pytest.mark.parametrize("bad", ["urn:ex:a\x1b[31mRED", "urn:ex:a\rurn:ex:forged", "urn:ex:a\x07\x08"])
def test_text_output_does_not_echo_control_characters(
    bad: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # Input from stdin or files is untrusted: echoing ESC, CR or BEL to a terminal lets it
    # recolour or overwrite the report. The echo shows them escaped instead.
    code = main(["parse", "--", bad])
    out = capsys.readouterr().out
    assert code == 1
    assert not any(ord(c) < 0x20 and c != "\n" for c in out), repr(out)
    assert "\x7f" not in out
    # the caret still sits under the fault
    lines = out.splitlines()
    echo, caret = lines[3], lines[4]
    assert caret.index("^") == echo.index("urn:ex:a") + 8


def test_stdin_lines_ignore_surrounding_spaces(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Pasted lists carry stray spaces and blank lines; they are not part of the URNs.
    monkeypatch.setattr(sys, "stdin", io.StringIO("  urn:example:a \t\n\n urn:example:b\n"))
    code, data = run_json(capsys, "-")
    assert code == 0
    assert [d["input"] for d in data] == ["urn:example:a", "urn:example:b"]


def test_json_output_is_the_same_bytes_as_one_json_dump(capsys: pytest.CaptureFixture[str]) -> None:
    from urnld.cli._parse import describe

    inputs = ["urn:isbn:0-395-36341-1", "urn:ex:a b", "URN:EXAMPLE:é"]
    main(["parse", "--json", *inputs])
    out = capsys.readouterr().out
    expected = json.dumps(
        [describe(t, "rfc8141", False, []) for t in inputs], indent=2, ensure_ascii=False
    )
    assert out == expected + "\n"


class _Discard(io.StringIO):
    def write(self, s: str) -> int:
        return len(s)


def test_parse_stdin_streams_in_constant_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    # Each result is printed and dropped: memory does not grow with the number of lines
    # (keeping them cost ~1.7 KB per line).
    import tracemalloc

    def peak(lines: int, as_json: bool) -> int:
        text = "".join(f"urn:example:item-{i}\n" for i in range(lines))
        monkeypatch.setattr("sys.stdin", io.StringIO(text))
        monkeypatch.setattr("sys.stdout", _Discard())
        tracemalloc.start()
        try:
            main(["parse", *(["--json"] if as_json else []), "-"])
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()

    from urnld.cli._parse_stream import _Describer

    # Past the memos' bound (the writer remembers at most _MAX_MEMO lines of each kind), a
    # longer list takes no more memory.
    lines = _Describer._MAX_MEMO + 1000
    for as_json in (False, True):
        small, large = peak(lines, as_json), peak(5 * lines, as_json)
        # Results kept would add 1.7 KB per line (~35 MB here).
        assert large - small < 500_000, (as_json, small, large)
