"""One real local Dask cluster (2 worker processes, 1 thread each) shared by the dask tests."""

from __future__ import annotations

import importlib.util
import logging
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest


@pytest.fixture(scope="session")
def dask_scheduler() -> Iterator[str]:
    """Address of a LocalCluster with processes (not threads), started once per session."""
    from distributed import LocalCluster

    with LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        dashboard_address=":0",
        silence_logs=logging.ERROR,
    ) as cluster:
        yield cluster.scheduler_address


@pytest.fixture(scope="session")
def gen_dump(repo_root: Path) -> ModuleType:
    """bench/gen_dump.py, the deterministic dump generator, imported as a module."""
    spec = importlib.util.spec_from_file_location("gen_dump", repo_root / "bench" / "gen_dump.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def dump(tmp_path_factory: pytest.TempPathFactory, gen_dump: ModuleType) -> list[Path]:
    """A small multi-file dump in two directories (same file names in both on purpose):
    a/ holds two N-Triples files and one N-Quads file, b/ one N-Triples and one gzipped file."""
    root = tmp_path_factory.mktemp("dump")
    a = gen_dump.generate(root / "a", triples=24_000, files=3, seed=1, quads_every=3)
    b = gen_dump.generate(root / "b", triples=6_000, files=2, seed=2, quads_every=0, gz_every=2)
    return [*a, *b]
