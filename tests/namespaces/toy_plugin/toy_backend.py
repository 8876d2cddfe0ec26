"""A minimal PEP 517 backend (stdlib only) that builds the toy plugin's wheel.

It reads name, version and entry points from pyproject.toml and zips ``urnld_toy/`` with a
``.dist-info`` directory; enough for ``pip install --target``.
"""

from __future__ import annotations

import base64
import hashlib
import tomllib
import zipfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


def _project() -> dict[str, Any]:
    with (HERE / "pyproject.toml").open("rb") as f:
        project: dict[str, Any] = tomllib.load(f)["project"]
    return project


def _record_line(path: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{path},sha256={digest},{len(data)}"


def get_requires_for_build_wheel(config_settings: Any = None) -> list[str]:
    return []


def build_wheel(
    wheel_directory: str, config_settings: Any = None, metadata_directory: Any = None
) -> str:
    project = _project()
    dist = project["name"].replace("-", "_")
    version = project["version"]
    info = f"{dist}-{version}.dist-info"
    files: dict[str, bytes] = {}
    for source in sorted((HERE / "urnld_toy").glob("*.py")):
        files[f"urnld_toy/{source.name}"] = source.read_bytes()
    files[f"{info}/METADATA"] = (
        f"Metadata-Version: 2.1\nName: {project['name']}\nVersion: {version}\n"
        f"Summary: {project['description']}\n"
    ).encode()
    files[f"{info}/WHEEL"] = (
        b"Wheel-Version: 1.0\nGenerator: toy_backend\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    )
    lines = []
    for group, eps in project.get("entry-points", {}).items():
        lines.append(f"[{group}]")
        lines.extend(f"{name} = {value}" for name, value in eps.items())
    files[f"{info}/entry_points.txt"] = ("\n".join(lines) + "\n").encode()
    record = [_record_line(path, data) for path, data in files.items()]
    record.append(f"{info}/RECORD,,")
    files[f"{info}/RECORD"] = ("\n".join(record) + "\n").encode()
    name = f"{dist}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(Path(wheel_directory) / name, "w", zipfile.ZIP_DEFLATED) as whl:
        for path, data in files.items():
            whl.writestr(path, data)
    return name
