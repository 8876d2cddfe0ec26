"""The examples of docs/endpoint.md run as written, against a SPARQL server.

Shell blocks start their own Oxigraph server: they run in a temporary directory (with the
bundled ``examples/``), on a free loopback port instead of 7878, with this environment's
``urnld`` and ``oxigraph`` first on PATH. Python blocks run against a server holding the
bundled catalog.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from rdflib import Graph

if TYPE_CHECKING:
    from conftest import Store

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "endpoint.md"
PORT = "127.0.0.1:7878"


def blocks(path: Path, kind: str) -> list[str]:
    return re.findall(rf"```{kind}\n(.*?)```", path.read_text(encoding="utf-8"), re.S)


SHELL = blocks(DOC, "sh")
PYTHON = blocks(DOC, "python")


def test_examples_found() -> None:
    assert len(SHELL) == 1 and len(PYTHON) == 4


def _runnable(block: str) -> str:
    """A block as code: a doctest-style block (``>>>`` lines with the output they print) runs
    through :mod:`doctest` (its printed output compared), any other as it is."""
    if not block.lstrip().startswith(">>>"):
        return block
    return ("import doctest as _d\n"
            f"_t = _d.DocTestParser().get_doctest({block!r}, {{}}, 'endpoint.md', None, 0)\n"
            "_r = _d.DocTestRunner()\n_r.run(_t)\n"
            "assert _r.summarize(verbose=False).failed == 0\n")


def run_shell(block: str, tmp_path: Path) -> list[tuple[str, int, str]]:
    """Run each line of ``block`` in one shell; return (line, exit status, stdout) per line."""
    sock_port = _free_port()
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    lines = [line for line in block.splitlines() if line.strip()]
    script = ["trap 'kill $(jobs -p) 2>/dev/null; wait' EXIT"]
    for i, line in enumerate(lines):
        command = line.replace(PORT, f"127.0.0.1:{sock_port}")
        script += [f"echo '@@start {i}'", command, f"echo '@@exit {i} '$?"]
    if not shutil.which("curl"):
        pytest.fail("the examples use curl")
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    r = subprocess.run(["bash", "-c", "\n".join(script)], cwd=tmp_path, env=env,
                       capture_output=True, text=True, timeout=300, check=False)
    out: list[tuple[str, int, str]] = []
    for i, line in enumerate(lines):
        m = re.search(rf"@@start {i}\n(.*?)@@exit {i} (\d+)", r.stdout, re.S)
        assert m, f"line {i} did not run: {line}\n{r.stdout}\n{r.stderr}"
        out.append((line, int(m.group(2)), m.group(1)))
    return out


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.parametrize("index", range(len(SHELL)))
def test_shell_flow(index: int, tmp_path: Path) -> None:
    results = run_shell(SHELL[index], tmp_path)
    status = {line.split(" --")[0].strip(): code for line, code, _ in results}
    checks = [(code, out) for line, code, out in results if line.startswith("urnld check")]
    assert len(checks) == 2
    (before_code, before), (after_code, after) = checks
    # the catalog holds invalid URNs: check exits 1 before and after
    assert (before_code, after_code) == (1, 1)
    assert re.search(r"\b[1-9]\d* valid URN spellings not in canonical form", before), before
    assert "9 URNs spelled several ways" in before
    assert re.search(r"\b0 valid URN spellings not in canonical form .*; 0 URNs spelled "
                     r"several ways", after), after
    assert status["urnld canonicalize"] == 0
    (query_out,) = [out for line, code, out in results if line.startswith("urnld query")]
    assert "Crime and Punishment" in query_out and "(1 row)" in query_out
    if (tmp_path / "undo.ru").exists():
        text = (tmp_path / "undo.ru").read_text()
        assert "URN:ISBN:0-14-044913-2" not in text or "INSERT" in text


@pytest.fixture
def store(store: Store) -> Store:
    """The examples are written for a store with a plain default graph (Oxigraph's)."""
    if store.virtuoso:
        pytest.skip("the examples use the default graph, which Virtuoso does not have")
    return store


@pytest.mark.parametrize("index", range(len(PYTHON)))
def test_python_blocks(index: int, store: Store, capsys: pytest.CaptureFixture[str]) -> None:
    data = Graph().parse(ROOT / "examples" / "catalog" / "catalog.ttl")
    store.load(data)
    base = store.query_url.rsplit("/", 1)[0]
    code = _runnable(PYTHON[index].replace(f"http://{PORT}", base))
    exec(compile(code, f"{DOC.name}[python {index}]", "exec"), {})
    out = capsys.readouterr().out
    if index == 0:
        from urnld.rdf import canonicalize, check_graph

        # the numbers the in-memory transport gives for the same data
        spellings = len(check_graph(data).non_canonical)
        rewritten = canonicalize(data, literals=True).report.rewritten
        assert out == (f"False {spellings} non-canonical spellings\n"
                       f"{rewritten} URN occurrences would be rewritten\n")
    elif "keep_spellings" in PYTHON[index]:
        from urnld.rdf import canonicalize

        # the statements the file path adds to the same data, and none on the second run
        r = canonicalize(data, link=True, keep_spellings=True, link_resolvers=True).report
        assert out == (f"{r.spellings_added} spellings kept, {r.see_also_added} resolver links\n"
                       "0 statements added by a second run\n")
        assert f"prints `{out.splitlines()[0]}` for the bundled catalog" in " ".join(
            DOC.read_text(encoding="utf-8").split())
    elif PYTHON[index].lstrip().startswith(">>>"):
        assert out == ""  # doctest compared what each line printed; nothing failed
    else:
        assert "<urn:isbn:0140449132> <http://purl.org/dc/terms/title>" in out
        assert "# URN:X:Y" in out
