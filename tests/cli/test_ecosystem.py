"""Fitting the ecosystem: shell completion and pre-commit hooks."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from urnld.cli import COMMANDS, main

REPO = Path(__file__).resolve().parents[2]


def _script(capsys, shell: str) -> str:
    assert main(["completion", shell]) == 0
    return capsys.readouterr().out


def _bash_complete(script: Path, *words: str) -> list[str]:
    line = " ".join(f"'{w}'" for w in words)
    done = subprocess.run(
        ["bash", "-c", f"source {script}; COMP_WORDS=({line}); COMP_CWORD={len(words) - 1}; "
                       '_urnld; printf "%s\\n" "${COMPREPLY[@]}"'],
        capture_output=True, text=True, check=True, timeout=30,
    )
    return [w for w in done.stdout.splitlines() if w]


def test_bash_completion_completes_commands_options_and_choices(capsys, tmp_path) -> None:
    script = tmp_path / "urnld.bash"
    script.write_text(_script(capsys, "bash"))
    assert _bash_complete(script, "urnld", "") == [*COMMANDS, "--help", "--version"]
    assert _bash_complete(script, "urnld", "can") == ["canonicalize"]
    assert "--output-format" in _bash_complete(script, "urnld", "canonicalize", "--out")
    assert _bash_complete(script, "urnld", "check", "--engine", "") == ["local", "dask"]
    assert _bash_complete(script, "urnld", "completion", "f") == ["fish"]
    # deprecated spellings are not offered
    assert "--format" not in _bash_complete(script, "urnld", "canonicalize", "--f")


@pytest.mark.parametrize("shell", ["zsh", "fish"])
def test_zsh_and_fish_scripts_parse(capsys, tmp_path, shell) -> None:
    text = _script(capsys, shell)
    for command in COMMANDS:
        assert command in text
    assert "--output-format" in text or "-l output-format" in text
    if shutil.which(shell) is None:
        pytest.skip(f"{shell} is not installed: only the content was checked")
    script = tmp_path / f"urnld.{shell}"
    script.write_text(text)
    subprocess.run([shell, "-n", str(script)], check=True, timeout=30)


def test_pre_commit_hooks(capsys) -> None:
    hooks = {h["id"]: h for h in yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text())}
    assert set(hooks) == {"urnld-check", "urnld-validate"}
    for hook in hooks.values():
        assert hook["language"] == "python"
        pattern = re.compile(hook["files"])
        assert pattern.search("examples/catalog/catalog.ttl")
        assert pattern.search("dumps/part-1.nt.gz")
        assert not pattern.search("README.md")
        # pre-commit runs `entry args… file…`: the real command, on a catalog with errors
        argv = [*hook["entry"].split()[1:], *hook.get("args", []),
                str(REPO / "examples/catalog/catalog.ttl")]
        assert main(argv) == 1
        capsys.readouterr()
    # the command-line page shows how to use them
    page = (REPO / "docs" / "cli.md").read_text(encoding="utf-8")
    assert "repos:" in page and "id: urnld-check" in page
