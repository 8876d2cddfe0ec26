"""The shapes ship inside the package: in the source tree (a symlink) and in a built wheel."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from importlib import resources
from pathlib import Path

import pytest
from rdflib import Graph

from urnld.shacl import shapes_path


def test_the_package_finds_its_shapes(repo_root: Path) -> None:
    files = {p.name for p in (resources.files("urnld") / "shapes").iterdir()}
    assert {"urn.ttl", "catalog.ttl"} <= files
    for name in ("urn.ttl", "catalog.ttl"):
        shipped = Path(shapes_path(name)).read_bytes()
        assert shipped == (repo_root / "shapes" / name).read_bytes()
        assert len(Graph().parse(data=shipped, format="turtle")) > 20


@pytest.mark.slow
def test_a_built_wheel_contains_the_shapes(repo_root: Path, tmp_path: Path) -> None:
    # Build from a copy (symlinks kept as symlinks, as in a git checkout) so the repository
    # gets no build/ or egg-info. pip's build isolation fetches a current setuptools.
    src = tmp_path / "src"
    shutil.copytree(
        repo_root, src, symlinks=True,
        ignore=shutil.ignore_patterns(".git", "tests", "bench", "examples", "docs", "build",
                                      "*.egg-info", "__pycache__", ".*_cache"),
    )
    wheels = tmp_path / "wheels"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(wheels), str(src)],
        check=True, capture_output=True, timeout=600,
    )
    (wheel,) = wheels.glob("urnld-*.whl")
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        assert {"urnld/shapes/urn.ttl", "urnld/shapes/catalog.ttl"} <= names
        assert z.read("urnld/shapes/urn.ttl") == (repo_root / "shapes" / "urn.ttl").read_bytes()
        z.extractall(tmp_path / "site")
    # importlib.resources in the installed layout (a fresh interpreter, the wheel first on path).
    probe = ("import importlib.resources as r, urnld; "
             "print(urnld.__file__); "
             "print(sorted(p.name for p in (r.files('urnld') / 'shapes').iterdir()))")
    done = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path / "site", check=True,
                          capture_output=True, text=True, timeout=120)
    where, listing = done.stdout.splitlines()
    assert where.startswith(str(tmp_path / "site"))
    assert listing == "['catalog.ttl', 'urn.ttl']"
