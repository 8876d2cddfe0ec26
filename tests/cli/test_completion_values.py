"""Completion offers the values of every option that takes one of a known set: a walk over
every subcommand's real parser, checked against the generated bash script."""

from __future__ import annotations

import argparse
import contextlib
import io
import re

from urnld.cli import COMMANDS, _load
from urnld.cli._completion import VALUES, main_for_doctest, option_values


def _script(shell: str) -> str:
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        assert main_for_doctest([shell]) == 0
    return buf.getvalue()


def _bash_case(script: str, command: str) -> str:
    m = re.search(rf"^        {re.escape(command)}\)\n(.*?);;\n(?=        \S|  esac)", script,
                  re.S | re.M)
    assert m, command
    return m.group(1)


def test_every_choice_valued_option_is_completed_with_its_values() -> None:
    script = _script("bash")
    checked = 0
    for name in COMMANDS:
        parser = argparse.ArgumentParser(prog=f"urnld {name}")
        _load(name).configure(parser)
        case = _bash_case(script, name)
        for action in parser._actions:  # argparse has no public iterator over its actions
            if not action.option_strings or action.help == argparse.SUPPRESS:
                continue
            known = action.choices or any(f in VALUES for f in action.option_strings)
            if not known:
                continue
            values = option_values(action)
            assert values, (name, action.option_strings)
            line = next((ln for ln in case.splitlines()
                         if ln.strip().startswith("|".join(action.option_strings) + ")")), None)
            assert line is not None, (name, action.option_strings)
            assert all(v in line for v in values), (name, action.option_strings)
            checked += 1
    assert checked >= 20


def test_the_values_that_were_missing_are_offered() -> None:
    case = _bash_case(_script("bash"), "canonicalize")
    assert "--output-format) COMPREPLY" in case and " nquads " in case
    assert "--severity) COMPREPLY" in case and "=warning" in case
    assert "--profile) COMPREPLY" in case and "nbn-de" in case
