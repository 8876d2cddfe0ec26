"""The one runner for command-line examples of the README and docs/*.md.

```console blocks are transcripts: each ``$ `` line is a command (a trailing ``\\`` continues it),
the lines up to the next ``$ `` are what it prints (stdout and stderr), where a line ``...`` or
``…`` stands for any lines and a command followed directly by the next one prints what it
likes. A block runs in one shell, in a fresh directory that holds the repository's
``examples/``, with this checkout's ``urnld`` first on PATH; a command must exit 0 unless the
transcript shows ``echo $?`` after it.

```sh blocks are commands to type on another machine or with other software (installs,
clusters, servers, benchmarks), so they are checked, not run: each ``urnld`` command is
accepted by the command's own argument parser, each ``python bench/…`` script exists and has
the options given, and each ``pip install`` names extras the project defines. (The SPARQL
server flow of docs/endpoint.md does run: tests/endpoint/test_endpoint_docs.py.)

```toml and ```yaml blocks are the files urnld and pre-commit read: each parses, and urnld
takes its policy and resolver files as shown.
"""

from __future__ import annotations

import doctest
import os
import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from doc_examples import PAGES, PERFORMANCE, REPO_ROOT, Block, blocks

import urnld
from urnld.cli import COMMANDS

CONSOLE = [b for page in PAGES for b in blocks(page, "console")]
SH = [b for page in PAGES for b in blocks(page, "sh")]
ELLIPSIS_LINE = re.compile(r"^\s*(\.\.\.|…)\s*$")


def transcript(block: Block) -> list[tuple[str, str | None]]:
    """(command, expected output or None when the page shows none) for each ``$ `` line."""
    steps: list[tuple[str, list[str]]] = []
    lines = block.text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("$ "):
            command = line[2:]
            while command.endswith("\\") and i + 1 < len(lines):
                i += 1
                command = command[:-1] + " " + lines[i].strip()
            steps.append((command, []))
        else:
            assert steps, f"{block.name}: output before the first command"
            steps[-1][1].append("..." if ELLIPSIS_LINE.match(line) else line)
        i += 1
    return [(c, "\n".join(out) + "\n" if out else None) for c, out in steps]


def run_block(block: Block, tmp_path: Path) -> list[tuple[str, int, str]]:
    """Run the block's commands in one bash; (command, exit status, output) for each."""
    steps = transcript(block)
    (tmp_path / "examples").symlink_to(REPO_ROOT / "examples")
    bin_dir = tmp_path / ".bin"
    bin_dir.mkdir()
    shim = bin_dir / "urnld"
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m urnld "$@"\n')
    shim.chmod(0o755)
    source_root = str(Path(urnld.__file__).resolve().parents[1])  # this checkout's urnld
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}", "NO_COLOR": "1",
           "PYTHONPATH": os.pathsep.join(filter(None, [source_root,
                                                       os.environ.get("PYTHONPATH")]))}
    script = ["__rc=0"]
    for i, (command, _) in enumerate(steps):
        # the previous status is restored for this command's $?, as in the reader's shell
        script += [f"echo '@@start {i}'; (exit $__rc)", f"{{ {command}\n}} 2>&1",
                   f"__rc=$?; echo; echo \"@@end {i} $__rc\""]
    done = subprocess.run(["bash", "-c", "\n".join(script)], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=600, check=False)
    results = []
    for i, (command, _) in enumerate(steps):
        m = re.search(rf"@@start {i}\n(.*?)\n@@end {i} (\d+)\n", done.stdout, re.S)
        assert m, f"{block.name}: `{command}` did not run\n{done.stdout}\n{done.stderr}"
        results.append((command, int(m.group(2)), m.group(1)))
    return results


@pytest.mark.parametrize("block", CONSOLE, ids=lambda b: b.name)
def test_console_transcript(block: Block, tmp_path: Path) -> None:
    steps = transcript(block)
    results = run_block(block, tmp_path)
    checker = doctest.OutputChecker()
    flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    for n, ((command, want), (_, status, got)) in enumerate(zip(steps, results, strict=True)):
        if want is not None:
            assert checker.check_output(want, got, flags), (
                f"{block.name}: `{command}` printed\n{got}\nnot\n{want}")
        status_shown = n + 1 < len(steps) and re.match(r"echo \$\?(\s|$)", steps[n + 1][0])
        assert status_shown or status == 0, f"{block.name}: `{command}` exited {status}\n{got}"


def _segments(line: str) -> list[list[str]]:
    """The simple commands of a shell line: split at pipes, lists and background marks."""
    out: list[list[str]] = [[]]
    lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    lexer.commenters = "#"
    for token in lexer:
        if token in {"|", "||", "&&", ";", "&", ">", ">>", "<", "2>"}:
            out.append([] if token in {"|", "||", "&&", ";", "&"} else ["__redirect__"])
        elif out[-1][:1] == ["__redirect__"]:
            out[-1] = []  # the redirection's target is not part of the command
        else:
            out[-1].append(token)
    return [s for s in out if s and s != ["__redirect__"]]


def _extras() -> set[str]:
    project = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return set(project["project"]["optional-dependencies"])


def check_command(argv: list[str]) -> None:
    name = Path(argv[0]).name
    if name == "urnld":
        command = next((a for a in argv[1:] if not a.startswith("-")), None)
        assert command in COMMANDS, argv
        from urnld.cli import _build  # the command's own parser: options and choices

        try:
            _build(command).parse_args(argv[1:])
        except SystemExit as e:
            pytest.fail(f"`{shlex.join(argv)}` is refused by urnld's parser (exit {e.code})")
    elif name in {"python", "python3"} and len(argv) > 1 and argv[1].startswith("bench/"):
        script = REPO_ROOT / argv[1]
        assert script.is_file(), argv[1]
        source = script.read_text(encoding="utf-8")
        for option in (a for a in argv[2:] if a.startswith("--")):
            assert f'"{option.split("=")[0]}"' in source, f"{argv[1]} has no option {option}"
    elif name in {"pip", "pip3"} or argv[-3:-1] == ["-m", "pip"] or name.endswith("/pip"):
        for target in argv:
            m = re.fullmatch(r"(?:urnld|\.)\[([\w,-]+)\]", target)
            if m:
                assert set(m.group(1).split(",")) <= _extras(), target


@pytest.mark.parametrize("block", SH, ids=lambda b: b.name)
def test_commands_to_type(block: Block) -> None:
    lines = block.text.replace("\\\n", " ").splitlines()
    checked = 0
    for line in lines:
        for argv in _segments(line):
            check_command(argv)
            checked += 1
    assert checked, f"{block.name}: no command found"


def test_performance_page_commands() -> None:
    """Each figure's command on docs/performance.md exists as written, and every benchmark
    script in bench/ is on the page."""
    text = PERFORMANCE.read_text(encoding="utf-8")
    commands = list(re.findall(r"`(python [^`]+)`", text))
    commands += [line for b in blocks(PERFORMANCE, "sh") for line in b.text.splitlines()]
    checked = 0
    for command in commands:
        for argv in _segments(command):
            if argv[:3] == ["python", "-m", "pytest"]:
                assert all((REPO_ROOT / a).exists() for a in argv[3:] if not a.startswith("-"))
            check_command(argv)
            checked += 1
    assert checked >= 15
    scripts = {p.name for p in (REPO_ROOT / "bench").glob("*.py")}
    assert {s for s in scripts if f"bench/{s}" not in text} == set()


TOML = [b for page in PAGES for b in blocks(page, "toml")]


@pytest.mark.parametrize("block", TOML, ids=lambda b: b.name)
def test_configuration_examples(block: Block, tmp_path: Path, capsys) -> None:
    """A TOML example parses, and the files urnld reads take it as shown."""
    from urnld.cli import main

    data = tomllib.loads(block.text)
    if "tool" in data:  # a project file's [tool.urnld] policy
        path = tmp_path / "pyproject.toml"
        path.write_text(block.text, encoding="utf-8")
        code = main(["check", "--config", str(path), "-q",
                     str(REPO_ROOT / "examples" / "catalog" / "catalog.ttl")])
        assert code in (0, 1), capsys.readouterr().err
    elif all(isinstance(v, list) for v in data.values()):  # a resolver table
        path = tmp_path / "resolvers.toml"
        path.write_text(block.text, encoding="utf-8")
        nid = next(iter(data))
        template = data[nid][0]["template"]
        assert main(["resolve", "--resolvers", str(path), f"urn:{nid}:0395363411"]) == 0
        assert capsys.readouterr().out.strip() == template.replace("{nss}", "0395363411")
    else:  # packaging metadata: an entry point "module:object"
        (group,) = data["project"]["entry-points"].values()
        assert all(re.fullmatch(r"[\w.]+:[\w.]+", v) for v in group.values())


YAML = [b for page in PAGES for b in blocks(page, "yaml")]


@pytest.mark.parametrize("block", YAML, ids=lambda b: b.name)
def test_pre_commit_examples(block: Block) -> None:
    import yaml
    hooks = {h["id"] for h in yaml.safe_load((REPO_ROOT / ".pre-commit-hooks.yaml").read_text())}
    config = yaml.safe_load(block.text)
    used = {h["id"] for repo in config["repos"] for h in repo["hooks"]}
    assert used and used <= hooks
