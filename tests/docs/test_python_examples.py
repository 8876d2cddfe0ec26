"""The one runner for Python examples of the README and docs/*.md.

Each page's ``>>>`` sessions run as one doctest, and its other ```python blocks run in order in
one namespace, as a reader who pastes them one after the other would, from the repository root
(as after a clone). docs/endpoint.md's blocks talk to a SPARQL server:
tests/endpoint/test_endpoint_docs.py runs them against one it starts.
"""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest
from doc_examples import PAGES, PERFORMANCE, REPO_ROOT, blocks, page_id

NEEDS_SERVER = {"endpoint.md"}
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


@pytest.mark.parametrize("page", PAGES, ids=page_id)
def test_doctest_sessions(page: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO_ROOT)
    text = page.read_text(encoding="utf-8")
    test = doctest.DocTestParser().get_doctest(text, {"__name__": "__docs__"}, page.name,
                                               str(page), 0)
    result = doctest.DocTestRunner(optionflags=FLAGS).run(test)
    assert result.failed == 0
    assert result.attempted == len(test.examples)


SCRIPTS = [p for p in PAGES if p.name not in NEEDS_SERVER
           and any(">>> " not in b.text for b in blocks(p, "python"))]


@pytest.mark.parametrize("page", SCRIPTS, ids=page_id)
def test_python_blocks(page: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO_ROOT)
    namespace: dict[str, object] = {"__name__": "__docs__"}
    for block in blocks(page, "python"):
        if ">>> " in block.text:
            continue  # a doctest session: test_doctest_sessions runs it
        exec(compile(block.text, block.name, "exec"), namespace)


def test_every_user_page_has_examples_that_run() -> None:
    for page in PAGES:
        if page == PERFORMANCE:
            continue  # its commands are benchmarks; test_cli_examples checks each one
        text = page.read_text(encoding="utf-8")
        assert blocks(page, "python") or blocks(page, "console") or ">>> " in text, page.name
