"""Memory of a document read whole: what one Dask worker (or the local command) needs for it.

    python bench/document_memory.py [--triples 200000] [--format turtle]

Writes the first ``--triples`` statements of a ``bench/gen_dump.py`` dump as one document in
``--format`` (with rdflib), then, each in a fresh interpreter, measures the peak resident memory
(``ru_maxrss``) of

* ``baseline``: importing urnld.rdf and urnld.read, nothing read;
* ``check``: :func:`urnld.read.read` then :func:`urnld.rdf.check_graph` (``urnld check``);
* ``canonicalize``: :func:`urnld.rdf.canonicalize_document` to N-Triples (``urnld
  canonicalize``: the graph, its canonical copy, the output);

and prints the peak above the baseline per statement. The streamed N-Triples path is shown for
comparison (``urnld.stream.canonicalize_file``: its peak does not grow with the file).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import gen_dump  # sibling script, found through the sys.path line above

_RUNS = {
    "baseline": "pass",
    # hazards="ignore": the dump's invalid URNs are hazards as JSON-LD ids (read anyway).
    "check": "from urnld.rdf import check_graph; check_graph(read(DOC, hazards='ignore'))",
    "canonicalize": "canonicalize_document(DOC, OUT + '.nt', output_format='nt', "
                    "hazards='ignore')",
    "streamed N-Triples": "canonicalize_file(NT, OUT + '.s.nt', jobs=1)",
}

_EXTENSIONS = {"turtle": "ttl", "xml": "rdf", "json-ld": "jsonld", "nquads": "nq"}


def _peak(code: str, doc: Path, nt: Path, out: Path) -> int:
    script = (
        "import resource\n"
        "from urnld.read import read\n"
        "from urnld.rdf import canonicalize_document\n"
        "from urnld.stream import canonicalize_file\n"
        f"DOC, NT, OUT = {str(doc)!r}, {str(nt)!r}, {str(out)!r}\n"
        f"{code}\n"
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          check=False)
    if done.returncode:
        raise SystemExit(done.stderr)
    return int(done.stdout.split()[-1]) * 1024  # KiB on Linux


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--triples", type=int, default=200_000)
    ap.add_argument("--format", default="turtle")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (nt,) = gen_dump.generate(root / "dump", triples=a.triples, files=1, seed=1,
                                  quads_every=0)
        doc = root / f"doc.{_EXTENSIONS.get(a.format, a.format)}"
        # In a child process: Linux keeps a process's peak RSS across fork and exec, so this
        # process must stay small for the children's figures to be their own.
        subprocess.run([sys.executable, "-c", (
            "from rdflib import Graph\n"
            f"Graph().parse({str(nt)!r}, format='nt').serialize({str(doc)!r}, "
            f"format={a.format!r}, encoding='utf-8')\n"
        )], check=True)
        print(f"{a.triples:,} statements; {a.format}: {doc.stat().st_size / 1e6:.1f} MB, "
              f"N-Triples: {nt.stat().st_size / 1e6:.1f} MB")
        base = _peak(_RUNS["baseline"], doc, nt, root / "out")
        print(f"baseline (imports): {base / 2**20:.0f} MiB")
        for name, code in _RUNS.items():
            if name == "baseline":
                continue
            peak = _peak(code, doc, nt, root / "out")
            line = f"{name:<20} peak {peak / 2**20:6.0f} MiB"
            if name != "streamed N-Triples":  # bounded: a constant, not a cost per statement
                line += f", above baseline {(peak - base) / a.triples:6.0f} bytes/statement"
            print(line)


if __name__ == "__main__":
    main()
