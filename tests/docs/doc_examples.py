"""Where the documentation's examples are: the user pages and their fenced code blocks.

Shared by the runners (``test_python_examples.py``, ``test_cli_examples.py``) and the rules the
pages follow (``test_page_rules.py``), so that all of them see the same pages and blocks.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
README = REPO_ROOT / "README.md"
PERFORMANCE = REPO_ROOT / "docs" / "performance.md"
DOCS = sorted((REPO_ROOT / "docs").glob("*.md"))
#: every page a user reads: the README and docs/*.md
PAGES = [README, *DOCS]

# A fence may be indented (a block inside a list item); its closing fence is any ``` line.
_FENCE = re.compile(r"^( *)```([\w-]*)\n(.*?)^ *```[ \t]*$", re.S | re.M)


@dataclass(frozen=True)
class Block:
    page: Path
    line: int  # of the opening fence, 1-based
    kind: str  # the fence's info string: python, console, sh, text, "" …
    text: str  # dedented by the fence's own indentation

    @property
    def name(self) -> str:
        return f"{self.page.name}:{self.line}"


def blocks(page: Path, kind: str | None = None) -> list[Block]:
    text = page.read_text(encoding="utf-8")
    out = []
    for m in _FENCE.finditer(text):
        if kind is not None and m.group(2) != kind:
            continue
        indent = len(m.group(1))
        body = "".join(line[indent:] if line[:indent].isspace() else line
                       for line in m.group(3).splitlines(keepends=True))
        out.append(Block(page, text.count("\n", 0, m.start()) + 1, m.group(2), body))
    return out


def prose(page: Path) -> str:
    """The page without its code blocks and inline code: what the page itself states."""
    text = _FENCE.sub("", page.read_text(encoding="utf-8"))
    text = re.sub(r"^>>> .*$|^\.\.\. .*$", "", text, flags=re.M)  # bare doctest sessions
    # inline code may cross a line break, never a paragraph
    return re.sub(r"``(?:[^`\n]|\n(?!\n))*``|`(?:[^`\n]|\n(?!\n))*`", "", text)


def page_id(page: Path) -> str:
    return page.relative_to(REPO_ROOT).as_posix()
