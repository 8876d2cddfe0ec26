"""Shared fixtures: paths to the vendored conformance data and the NID example table."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

REPO_ROOT = Path(__file__).resolve().parent.parent
DATA_DIR = REPO_ROOT / "tests" / "data"

# CI machines are shared and slow at times: no per-example deadline, a fixed example budget.
# CI is derandomized (the same examples every run, so a landing never depends on luck); the dev
# profile explores new examples each run, which is how new bugs are found.
settings.register_profile(
    "ci",
    deadline=None,
    max_examples=200,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", deadline=None, max_examples=100)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))


def load_nid_examples() -> list[dict[str, Any]]:
    """The 117 rows of tests/data/nid_examples.jsonl (from ../shared/data)."""
    with (DATA_DIR / "nid_examples.jsonl").open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return REPO_ROOT


@pytest.fixture(scope="session")
def w3c_dir() -> Path:
    return DATA_DIR / "w3c"


@pytest.fixture(scope="session")
def nid_examples() -> list[dict[str, Any]]:
    return load_nid_examples()


def _descendants(pid: int) -> set[int]:
    """Every live descendant of ``pid`` (Linux /proc)."""
    found: set[int] = set()
    todo = [pid]
    while todo:
        parent = todo.pop()
        try:
            tasks = os.listdir(f"/proc/{parent}/task")
        except FileNotFoundError:
            continue
        for task in tasks:
            try:
                with open(f"/proc/{parent}/task/{task}/children") as f:
                    kids = {int(k) for k in f.read().split()}
            except FileNotFoundError:
                continue
            todo.extend(kids - found)
            found |= kids
    return found


@pytest.fixture(scope="session")
def descendants() -> Callable[[int], set[int]]:
    """The process tree under a pid, for tests that kill a command and check its workers."""
    return _descendants
