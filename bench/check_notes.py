"""Benchmark: what looking for what JSON-LD reading drops costs ``urnld check``.

    python bench/check_notes.py [--nodes 10000] [--repeat 3]

Times :func:`urnld.files.check` of a JSON-LD document of ``--nodes`` nodes with URN ids (an
inline context, a few keys no term maps: dropped, and so noted), with its notes
(:func:`urnld.jsonld.reading_notes`, the default) against the same check with the notes pass
turned off, alternately in this process; also pyoxigraph's parse + serialize of the document.
Prints the median CPU seconds and the ratios.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
import uuid
import warnings
from pathlib import Path


def _document(nodes: int) -> dict[str, object]:
    rnd = uuid.UUID(int=0x1234)
    graph = []
    for i in range(nodes):
        rnd = uuid.uuid5(rnd, str(i))
        graph.append({"@id": f"urn:uuid:{rnd}", "name": f"node {i}",
                      "knows": {"@id": f"urn:example:n{i // 2}"},
                      **({"unmapped": i} if i % 100 == 0 else {})})
    return {"@context": {"name": "https://schema.org/name",
                         "knows": {"@id": "https://schema.org/knows", "@type": "@id"}},
            "@graph": graph}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--nodes", type=int, default=10_000)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()

    import pyoxigraph

    from urnld import files

    path = Path(tempfile.mkdtemp()) / "doc.jsonld"
    path.write_text(json.dumps(_document(a.nodes)), encoding="utf-8")
    raw = path.read_bytes()
    with_notes = files._jsonld_notes

    def check(notes: bool) -> float:
        files._jsonld_notes = with_notes if notes else (lambda *args, **kw: None)
        t = time.process_time()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            report = files.check(path, jobs=1)
        spent = time.process_time() - t
        assert (report.note_count > 0) == notes
        return spent

    def oxigraph() -> float:
        t = time.process_time()
        quads = pyoxigraph.parse(raw, format=pyoxigraph.RdfFormat.JSON_LD)
        pyoxigraph.serialize(quads, format=pyoxigraph.RdfFormat.N_QUADS)
        return time.process_time() - t

    times: dict[str, list[float]] = {"with notes": [], "without notes": [], "pyoxigraph": []}
    for _ in range(a.repeat):
        times["with notes"].append(check(True))
        times["without notes"].append(check(False))
        times["pyoxigraph"].append(oxigraph())
    files._jsonld_notes = with_notes
    med = {k: statistics.median(v) for k, v in times.items()}
    print(f"JSON-LD document: {a.nodes:,} nodes, {len(raw):,} bytes; median CPU of {a.repeat}")
    for k, v in med.items():
        print(f"  {k:14} {v:8.3f} s")
    print(f"check with notes / without: {med['with notes'] / med['without notes']:.2f}x")
    print(f"check with notes / pyoxigraph parse + serialize: "
          f"{med['with notes'] / med['pyoxigraph']:.2f}x "
          f"(without: {med['without notes'] / med['pyoxigraph']:.2f}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
