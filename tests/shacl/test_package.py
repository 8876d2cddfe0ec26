"""The shapes ship inside the package as real files (no symlink: Windows checkouts break on
them), in the source tree and in a built wheel, with the licence and project URLs."""

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
        shipped = Path(shapes_path(name))
        assert shipped.resolve() == (repo_root / "src/urnld/shapes" / name).resolve()
        assert len(Graph().parse(data=shipped.read_bytes(), format="turtle")) > 20


def test_no_symlink_in_the_source_tree(repo_root: Path) -> None:
    links = [p for p in (repo_root / "src").rglob("*") if p.is_symlink()]
    assert links == []


def test_licence_file_and_project_urls(repo_root: Path) -> None:
    import tomllib

    meta = tomllib.loads((repo_root / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert meta["license"] == "MIT"
    text = (repo_root / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License") and "WITHOUT WARRANTY OF ANY KIND" in text
    assert meta["license-files"] == ["LICENSE"]
    # No public home yet: no URLs that point nowhere (the vocabulary IRIs stay as names).
    assert "urls" not in meta


@pytest.mark.slow
def test_a_built_wheel_contains_the_shapes(repo_root: Path, tmp_path: Path) -> None:
    # Build from a copy so the repository
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
        assert z.read("urnld/shapes/urn.ttl") == (
            repo_root / "src/urnld/shapes/urn.ttl"
        ).read_bytes()
        (metadata,) = [n for n in names if n.endswith(".dist-info/METADATA")]
        meta_text = z.read(metadata).decode()
        assert "License-Expression: MIT" in meta_text
        assert "Project-URL" not in meta_text
        assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
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
