"""Start-up that fits a command-line tool: the everyday commands load no heavy library.

`urnld parse`, and `check` / `canonicalize` of N-Triples, must not pay for rdflib, pyld,
pyshacl, httpx, pyoxigraph or Dask before the first statement is read: the syntax table and
the route import nothing heavy, and each integration is imported on the path that uses it.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

HEAVY = ("rdflib", "pyld", "pyshacl", "httpx", "pyoxigraph", "dask", "distributed", "owlrl")

# Runs the command line in a fresh interpreter and prints the third-party top-level modules it
# loaded; the exit code is the command's.
_PROBE = f"""
import json, sys
from urnld.cli import main
code = main(sys.argv[1:])
loaded = sorted({{m.split('.')[0] for m in sys.modules}} & set({HEAVY!r}))
print(json.dumps(loaded), file=sys.stderr)
sys.exit(code)
"""


def _loaded(args: list[str], cwd) -> list[str]:
    proc = subprocess.run([sys.executable, "-c", _PROBE, *args], cwd=cwd,
                          capture_output=True, text=True, check=False)
    assert proc.returncode in (0, 1), proc.stderr
    return json.loads(proc.stderr.strip().splitlines()[-1])


@pytest.fixture
def nt(tmp_path):
    path = tmp_path / "one.nt"
    path.write_text('<URN:ISBN:0-395-36341-1> <http://purl.org/dc/terms/title> "T" .\n')
    return path


@pytest.mark.parametrize("argv", [
    ["parse", "URN:ISBN:0-395-36341-1"],
    ["check", "{nt}"],
    ["check", "--json", "{nt}"],
    ["canonicalize", "{nt}", "-o", "{out}"],
    ["canonicalize", "{nt}", "-o", "{out}", "--link", "--keep-spellings"],
    ["namespaces"],
])
def test_everyday_commands_load_no_heavy_library(argv, nt, tmp_path):
    args = [a.format(nt=nt, out=tmp_path / "out.nt") for a in argv]
    assert _loaded(args, tmp_path) == []


def test_the_probe_sees_heavy_imports(tmp_path):
    # The probe must report what it looks for, or the test above passes vacuously. RDF/XML
    # streams through pyoxigraph's parser, and no further: rdflib is not loaded for it.
    rdf = tmp_path / "one.rdf"
    rdf.write_text('<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
                   '<rdf:Description rdf:about="urn:example:a">'
                   '<p xmlns="http://e/" rdf:resource="urn:example:b"/>'
                   "</rdf:Description></rdf:RDF>\n")
    assert _loaded(["check", str(rdf)], tmp_path) == ["pyoxigraph"]


def test_turtle_checked_by_serd_loads_no_heavy_library(tmp_path):
    # where the accelerator reads Turtle with libserd, pyoxigraph is not even imported
    from urnld.stream import _serd

    ttl = tmp_path / "one.ttl"
    ttl.write_text("<urn:example:a> <http://e/p> <urn:example:b> .\n")
    expected = [] if _serd.available() else ["pyoxigraph"]
    assert _loaded(["check", str(ttl)], tmp_path) == expected


def test_a_source_tree_without_a_build_runs_in_pure_python(tmp_path) -> None:
    # issue 38: `PYTHONPATH=src python -m urnld` in a checkout without an in-place build failed
    # at import, the accelerator's header folder `_speedups/` importing as a namespace package.
    import shutil
    from pathlib import Path

    import urnld

    src = Path(urnld.__file__).parent
    copy = tmp_path / "src" / "urnld"
    shutil.copytree(src, copy, ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__"))
    assert (copy / "_core" / "_speedups").is_dir()  # the header folder is there, the build not
    env = {k: v for k, v in __import__("os").environ.items() if k != "URNLD_PURE_PYTHON"}
    env["PYTHONPATH"] = str(tmp_path / "src")
    probe = ("import urnld._core._accel as a, urnld; print(a.speedups is None, "
             "urnld.canonical('URN:ISBN:0-395-36341-1'))")
    proc = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, env=env,
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["True", "urn:isbn:0395363411"]
    proc = subprocess.run([sys.executable, "-m", "urnld", "parse", "urn:example:a"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, check=False)
    assert proc.returncode == 0 and "urn:example:a" in proc.stdout, proc.stderr
