"""Canonicalize and check partitioned RDF dumps on Dask, with the single-process results.

``urnld canonicalize --engine dask`` / ``urnld check --engine dask`` and the Python API behind
them. Inputs are N-Triples / N-Quads files, plain or ``.gz``, streamed in partitions, and
documents in every other syntax :func:`urnld.read.read` reads, each on one worker.
URN canonicalization is a pure function of each term, so every partition is processed
independently with :func:`urnld.stream.canonicalize_lines` / :func:`urnld.stream.check_lines`
and the reports are combined with ``.merge``.

* **Documents.** Turtle, TriG, RDF/XML, JSON-LD, N3, TriX and HexTuples cannot be cut at line
  boundaries: one task runs on such a document what the local command runs on it, on the same
  engine: streamed through N-Quads (:func:`urnld.stream.canonicalize_file`,
  :func:`urnld.stream.check_file`, bounded memory) where the local command streams it, else read
  whole by the reader (offline JSON-LD catalog, URN base guard) and canonicalized or checked in
  memory on that worker. The driver holds none of it. Hazard warnings are raised again in the
  driver.
* **Partitions.** A plain file larger than ``partition_size`` (64 MiB) is cut into byte ranges
  aligned to line starts; a ``.gz`` file is one partition. Workers read their ranges straight
  from disk and write their output pieces straight to disk; only reports travel through Dask.
  Line numbers in reports are exact file line numbers (each partition is told the number of its
  first line from a parallel newline count).
* **Output layout.** ``OUTDIR`` gets one file per input, with the input's name and compression
  (inputs sharing a file name keep their directories, relative to the deepest directory holding
  all inputs). Each output file is what ``urnld canonicalize INPUT`` writes for that input
  alone: byte for byte for N-Triples/N-Quads, the same statements for a document read whole
  (rdflib labels blank nodes anew on every read).
* **Blank nodes** keep their per-file scope because labels are copied unchanged and each input
  has its own output document: ``_:b1`` in ``a.nt`` and ``_:b1`` in ``b.nt`` are two nodes,
  exactly as when loading the inputs. To put several outputs into one graph, load each as its
  own document (rdflib scopes labels per parse; pyoxigraph: ``rename_blank_nodes=True``) or
  prefix the labels of the output of input number *i* (0-based, in argument order) with
  ``f{i}-``: ``_:b1`` → ``_:f1-b1`` — the scheme the tests use to compare whole runs.
* **Digests.** RDFC-1.0 blank-node canonicalization cannot be partitioned (a blank node's
  label depends on the whole dataset); :func:`digest_files` digests each file in its own task,
  which is exact per file because blank-node labels are file-scoped.
* **All or nothing.** Output goes to a hidden temporary sibling of ``OUTDIR`` renamed into place
  only when every task succeeded. A malformed line does not stop the other partitions: the
  job finishes them, then raises :class:`DaskJobError` whose ``.report`` lists every malformed
  line as ``FILE:LINE``, and leaves no output. A rerun starts from scratch and gives the same
  result.

>>> import urnld.dask
>>> urnld.dask.DEFAULT_PARTITION_SIZE // 2**20
64
"""

from __future__ import annotations

from ._engine import DEFAULT_PARTITION_SIZE, canonicalize_files, check_files, digest_files
from ._errors import DaskJobError, DaskNotInstalled

__all__ = [
    "DEFAULT_PARTITION_SIZE",
    "DaskJobError",
    "DaskNotInstalled",
    "canonicalize_files",
    "check_files",
    "digest_files",
]


def __dir__() -> list[str]:
    return __all__


for _name in __all__:
    _obj = globals()[_name]
    if hasattr(_obj, "__module__"):
        _obj.__module__ = __name__
del _name, _obj
