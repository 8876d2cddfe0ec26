"""Rules the user pages (README.md, docs/*.md) follow, held by tests.

* A user page has no "Tests", "History" or "Development" section: how urnld is developed and
  tested is in CONTRIBUTING.md and tests/README.md.
* Measured figures (times, ratios, throughputs) are on docs/performance.md only, each with the
  command that measures it; other pages link there. The README links to docs/performance.md and
  CONTRIBUTING.md.
* The namespace table lives on docs/namespaces.md only.
* Links between pages resolve, anchors included; a transcript (a block of ``$ `` lines) is a
  ```console block, so the command-line runner runs it.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from doc_examples import PAGES, PERFORMANCE, README, REPO_ROOT, blocks, page_id, prose

USER_PAGES = [p for p in PAGES if p != PERFORMANCE]
HEADING = re.compile(r"^(#{1,6}) +(.+?) *#*$", re.M)
NOT_FOR_USERS = re.compile(r"(tests?|testing|history|changelog|changes|development)\b", re.I)
# A number, or a range of numbers, followed by a unit of time, a ratio or a throughput.
NUM = r"\d+(?:[.,]\d+)*"
FIGURE = re.compile(
    rf"(?<![\w.]){NUM}(?:\s?[–-]\s?{NUM})?\s?(?:×|µs|ms|s|secs?|seconds?|minutes?|hours?|"
    rf"[KMG]i?B/s|[\w-]+/s)(?![\w/])"
)


def _headings(page: Path) -> list[str]:
    text = re.sub(r"^ *```.*?^ *```", "", page.read_text(encoding="utf-8"), flags=re.S | re.M)
    return [m.group(2) for m in HEADING.finditer(text)]


@pytest.mark.parametrize("page", USER_PAGES, ids=page_id)
def test_no_development_sections(page: Path) -> None:
    assert [h for h in _headings(page) if NOT_FOR_USERS.match(h.strip("`*_ "))] == []


@pytest.mark.parametrize("page", USER_PAGES, ids=page_id)
def test_measured_figures_are_on_the_performance_page(page: Path) -> None:
    assert FIGURE.findall(prose(page)) == []


def test_the_figure_rule_sees_figures() -> None:
    found = FIGURE.findall(prose(PERFORMANCE))
    assert {"0.59–0.61×", "157.9 s", "2.13–2.21 µs", "47.4 ms"} <= set(found)


def test_readme_links_the_performance_page_and_contributing() -> None:
    links = _links(README)
    assert "docs/performance.md" in links
    assert "CONTRIBUTING.md" in links


def test_the_namespace_table_is_on_the_namespaces_page_only() -> None:
    row = re.compile(r"^\| `isbn` \| RFC 3187", re.M)
    holders = [p.name for p in PAGES if row.search(p.read_text(encoding="utf-8"))]
    assert holders == ["namespaces.md"]


def _slug(heading: str) -> str:
    """The anchor GitHub gives a heading."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def _links(page: Path) -> list[str]:
    text = re.sub(r"^ *```.*?^ *```", "", page.read_text(encoding="utf-8"), flags=re.S | re.M)
    return re.findall(r"\]\(([^)\s]+)\)", text)


@pytest.mark.parametrize("page", [*PAGES, REPO_ROOT / "CONTRIBUTING.md",
                                  REPO_ROOT / "tests" / "README.md"], ids=page_id)
def test_links_resolve(page: Path) -> None:
    for link in _links(page):
        if re.match(r"[a-z]+:", link):
            continue  # another site
        target, _, anchor = link.partition("#")
        path = (page.parent / target).resolve() if target else page
        assert path.exists(), f"{page.name}: {link}"
        if anchor:
            assert path.suffix == ".md", f"{page.name}: {link}"
            assert anchor in {_slug(h) for h in _headings(path)}, f"{page.name}: {link}"


@pytest.mark.parametrize("page", PAGES, ids=page_id)
def test_transcripts_are_console_blocks(page: Path) -> None:
    unlabelled = [b.name for b in blocks(page)
                  if b.kind != "console" and b.text.lstrip().startswith("$ ")]
    assert unlabelled == []


def test_tests_readme_names_every_test_folder() -> None:
    tests = REPO_ROOT / "tests"
    listed = set(re.findall(r"^\| `(\w+)/` \|", (tests / "README.md").read_text(encoding="utf-8"),
                            re.M))
    folders = {p.name for p in tests.iterdir()
               if p.is_dir() and p.name not in {"data", "__pycache__"} and any(p.glob("test_*.py"))}
    assert folders <= listed


@pytest.mark.parametrize("page", [*PAGES, REPO_ROOT / "CONTRIBUTING.md",
                                  REPO_ROOT / "tests" / "README.md"], ids=page_id)
def test_named_repository_files_exist(page: Path) -> None:
    """Paths of the repository that a page names (in code or prose) are there."""
    text = page.read_text(encoding="utf-8")
    named = re.findall(r"(?<![\w/.])((?:src/urnld|tests|bench|scripts|examples|\.ci)/"
                       r"[\w./-]*[\w])", text)
    missing = sorted({p for p in named if not (REPO_ROOT / p).exists()
                      and not (page.parent / p).exists()})
    assert missing == []
