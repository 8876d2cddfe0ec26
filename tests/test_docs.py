"""Every code example in docs/*.md runs: ``>>>`` sessions as doctests, and the ```python
blocks of a page in order, sharing one namespace, as a reader who pastes them one after the
other would (from the repository root, as after a clone)."""

from __future__ import annotations

import doctest
import re
import textwrap
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
DOCS = sorted((REPO_ROOT / "docs").glob("*.md"))
BLOCK = re.compile(r"```python\n(.*?)^ *```", re.S | re.M)


def test_every_page_has_runnable_examples() -> None:
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        assert BLOCK.search(text) or ">>> " in text, doc.name


@pytest.mark.parametrize("doc", DOCS, ids=[d.name for d in DOCS])
def test_doctests_of_the_page(doc: Path, monkeypatch) -> None:
    monkeypatch.chdir(REPO_ROOT)
    result = doctest.testfile(
        str(doc), module_relative=False, raise_on_error=False,
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE,
    )
    assert result.failed == 0


# Pages whose examples talk to a running SPARQL server: tests/endpoint/test_endpoint_docs.py runs
# their blocks against one it starts.
NEEDS_SERVER = {"endpoint.md"}
LOCAL = [d for d in DOCS if d.name not in NEEDS_SERVER]


@pytest.mark.parametrize("doc", LOCAL, ids=[d.name for d in LOCAL])
def test_python_blocks_of_the_page(doc: Path, monkeypatch, tmp_path) -> None:
    monkeypatch.chdir(REPO_ROOT)
    namespace: dict[str, object] = {"__name__": "__docs__"}
    for i, code in enumerate(BLOCK.findall(doc.read_text(encoding="utf-8"))):
        if ">>> " in code:
            continue  # run by test_doctests_of_the_page
        source = textwrap.dedent(code)  # blocks inside list items are indented
        exec(compile(source, f"{doc.name}[block {i}]", "exec"), namespace)


# What a user must not meet in the docs: development notes, local paths, tracker numbers, links
# to files only the developers have, options the command line does not offer.
DEV_NOTES = re.compile(
    r"/work/|venv/bin|\b[Ii]ssue \d|\b[Tt]he lead\b|# lead:|\.\./shared|\bspec/[A-Z]+\.md|"
    r"\bURN\.md\b|NAMESPACES\.md|engine=\"pyshacl\"|shared 2-core|shared development",
)


@pytest.mark.parametrize("doc", [*DOCS, REPO_ROOT / "README.md"],
                         ids=[d.name for d in [*DOCS, REPO_ROOT / "README.md"]])
def test_no_development_notes(doc: Path) -> None:
    text = doc.read_text(encoding="utf-8")
    if doc.name == "README.md":  # the install commands run the project's own .venv
        text = text.replace(".venv/bin/", "")
    assert DEV_NOTES.findall(text) == []
