"""RDFC-1.0 canonical N-Quads and digests, after URN canonicalization, with a work bound.

Two catalogs that differ only in URN spellings and blank-node labels give the same canonical
N-Quads (https://www.w3.org/TR/rdf-canon/) and so the same :func:`digest`.

>>> from rdflib import Graph
>>> from urnld.rdf import canonical_nquads, digest
>>> a = Graph().parse(data='<URN:ISBN:0-395-36341-1> <http://e/p> [ <http://e/q> "x" ] .',
...                   format="turtle")
>>> b = Graph().parse(data='<urn:isbn:0395363411> <http://e/p> _:other . '
...                   '_:other <http://e/q> "x" .', format="turtle")
>>> print(canonical_nquads(a), end="")
<urn:isbn:0395363411> <http://e/p> _:c14n0 .
_:c14n0 <http://e/q> "x" .
>>> digest(a) == digest(b)
True

Untrusted input must not hang the tool. RDFC-1.0 is exponential in the worst case ("poison"
graphs such as a clique of blank nodes, W3C test 074), and pyoxigraph's implementation cannot be
interrupted (it holds the GIL and ignores signals). So this module runs RDFC-1.0 itself:

1. Statements without blank nodes need no labelling: they are re-serialized in canonical term
   syntax by pyoxigraph, in batches, and sorted (in runs spilled to temporary files when they
   outgrow ``run_bytes``, then merged), so memory holds the lines, not a dataset.
2. The first-degree hash of every blank node is computed (linear in the input). When every
   hash is unique, the labels follow from sorting them.
3. Otherwise the N-degree hashing runs on an explicit stack (a chain of blank nodes needs one
   level per link), counting its work — the limit the specification itself recommends, §4.4
   "Blank Node Identifier Issuance … complexity" — in units of about equal cost: quads visited,
   permutation elements tried, and identifiers copied when an issuer is copied (a copy is as
   long as the path walked, so counting steps alone let a chain's cost grow with its depth).
   Past ``max_work`` units, or past ``max_time`` seconds of wall-clock time, it raises
   :class:`CanonicalizationTooComplex`. The N-degree budget (:data:`DEFAULT_MAX_WORK`) does not
   grow with the input, so untrusted input of any size is refused in about the same time and
   memory. Components whose walks have no choices (no two related blank nodes can hash alike:
   chains, RDF lists) are walked by a shortcut of §4.8 whose whole cost is counted before it
   starts, against :data:`DEFAULT_MAX_PLANNED_WORK`: admitted, needing no clock, or refused at
   once; blank nodes that share no statement with another one (a common, large case) are
   labelled without N-degree hashing, counted against :data:`WORK_PER_QUAD` per statement with
   a blank node. Every approved W3C test passes, 300,000 blank nodes with one statement each are
   labelled, and test 074 is refused well within the time limit.

   Two exact shortcuts keep benign shapes cheap: where a group of related blank nodes has one
   member, its only permutation needs no copy of the issuer; and a permutation whose path can
   no longer come out smaller than the chosen one is abandoned as soon as it ties.

The own implementation also supports ``hash_algorithm="sha384"`` (W3C test 075); pyoxigraph
only implements SHA-256 (it is used to cross-check this module in the tests).
"""

from __future__ import annotations

import hashlib
import heapq
import io
import re
import tempfile
from collections.abc import Callable, Iterable, Iterator
from typing import IO, Any

import pyoxigraph as ox

from ..errors import URNError
from ._rdfc_labels import (
    _HASHES,
    _RDFC,
    DEFAULT_MAX_PLANNED_WORK,
    DEFAULT_MAX_TIME,
    DEFAULT_MAX_WORK,
    WORK_PER_QUAD,
    CanonicalizationTooComplex,
    RDFCInputError,
)

__all__ = [
    "DEFAULT_MAX_PLANNED_WORK",
    "DEFAULT_MAX_TIME",
    "DEFAULT_MAX_WORK",
    "RUN_BYTES",
    "WORK_PER_QUAD",
    "CanonicalizationTooComplex",
    "RDFCInputError",
    "canonical_nquads",
    "digest",
    "write_canonical_nquads",
]

# -- input ------------------------------------------------------------------------------------


def _from_rdflib(graph: Any, ignore_components: bool, literals: bool) -> list[ox.Quad]:
    from rdflib import BNode, Dataset, Literal, URIRef
    from rdflib.graph import DATASET_DEFAULT_GRAPH_ID, ConjunctiveGraph

    from ._canonicalize import canonicalize

    canon = canonicalize(graph, ignore_components=ignore_components, literals=literals).graph
    bnodes: dict[str, ox.BlankNode] = {}
    cache: dict[Any, Any] = {}

    def conv(t: Any) -> Any:
        hit = cache.get(t)
        if hit is not None:
            return hit
        if isinstance(t, URIRef):
            out: Any = ox.NamedNode(str(t))
        elif isinstance(t, BNode):
            # Labels do not matter to RDFC-1.0; fresh ones avoid rdflib labels that are not
            # valid N-Quads labels.
            out = bnodes.setdefault(str(t), ox.BlankNode())
        elif isinstance(t, Literal):
            if t.language:
                out = ox.Literal(str(t), language=t.language)
            elif t.datatype is not None:
                out = ox.Literal(str(t), datatype=ox.NamedNode(str(t.datatype)))
            else:
                out = ox.Literal(str(t))
        else:
            raise RDFCInputError(f"cannot canonicalize the term {t!r} (not RDF 1.1)")
        cache[t] = out
        return out

    quads: list[ox.Quad] = []
    try:
        if isinstance(canon, ConjunctiveGraph):
            default_id = (
                canon.default_graph if isinstance(canon, Dataset) else canon.default_context
            ).identifier
            for s, p, o, g in canon.quads((None, None, None, None)):
                name: Any = getattr(g, "identifier", g)
                gn = (
                    ox.DefaultGraph()
                    if name is None or name in (default_id, DATASET_DEFAULT_GRAPH_ID)
                    else conv(name)
                )
                quads.append(ox.Quad(conv(s), conv(p), conv(o), gn))
        else:
            quads.extend(ox.Quad(conv(s), conv(p), conv(o)) for s, p, o in canon)
    except ValueError as e:
        if isinstance(e, URNError):
            raise
        raise RDFCInputError(f"not a valid RDF term: {e}") from e
    return quads


def _urn_pass(data: bytes, ignore_components: bool, literals: bool) -> Iterator[bytes]:
    """The URN canonicalization of N-Quads text, line by line (done once, before RDFC-1.0)."""
    from ..report import CanonicalizeReport
    from ..stream import canonicalize_lines

    return canonicalize_lines(
        data.splitlines(keepends=True),
        source="<input>",
        ignore_components=ignore_components,
        literals=literals,
        report=CanonicalizeReport(),
    )


def _text_of(data: Any, ignore_components: bool, literals: bool) -> Iterable[bytes]:
    """The input as URN-canonical N-Quads lines."""
    if isinstance(data, str):
        try:
            raw = data.encode("utf-8")
        except UnicodeEncodeError as e:
            raise RDFCInputError(
                f"the text holds {data[e.start]!r} at index {e.start}, which is not a Unicode "
                "scalar value (a lone surrogate) and cannot be RDF"
            ) from e
        return _urn_pass(raw, ignore_components, literals)
    if isinstance(data, bytes | bytearray):
        return _urn_pass(bytes(data), ignore_components, literals)
    if isinstance(data, ox.Dataset):
        text = ox.serialize(data, format=ox.RdfFormat.N_QUADS) or b""
        return _urn_pass(text, ignore_components, literals)
    from rdflib import Graph

    if isinstance(data, Graph):
        quads = _from_rdflib(data, ignore_components, literals)
        return [ox.serialize(quads, format=ox.RdfFormat.N_QUADS) or b""]
    raise TypeError(
        "canonical_nquads() takes an rdflib Graph/Dataset, a pyoxigraph Dataset, or N-Quads "
        f"text; got {type(data).__name__}"
    )


def _quads_of(data: Any, ignore_components: bool, literals: bool) -> list[ox.Quad]:
    """The input as pyoxigraph quads, URNs canonicalized (for tests and the engine check)."""
    return list(_parse(b"".join(_text_of(data, ignore_components, literals))))


def _parse(data: bytes, source: str = "<input>") -> Iterator[ox.Quad]:
    """pyoxigraph's N-Quads parser, its failures as urnld errors (one line each)."""
    try:
        yield from ox.parse(data, format=ox.RdfFormat.N_QUADS)
    except SyntaxError as e:
        # Statements are parsed in batches: pyoxigraph's line numbers are not the file's.
        reason = _POSITION.sub("", _first_line(e))
        raise RDFCInputError(f"{source}: invalid N-Quads: {reason}") from e
    except MemoryError as e:  # how pyoxigraph refuses a line over its buffer limit
        raise RDFCInputError(
            f"{source}: invalid N-Quads: a line is longer than the parser's limit (16 MiB)"
        ) from e


_POSITION = re.compile(r"^Parser error at line \d+ between columns \d+ and \d+: |\s*\(line \d+\)$")


def _first_line(e: BaseException) -> str:
    text = str(e).strip() or type(e).__name__
    return text.splitlines()[0]


def _lines_of(quads: Iterable[ox.Quad]) -> list[bytes]:
    """Canonical N-Quads lines (pyoxigraph's canonical term syntax), each ending in a line feed."""
    text = ox.serialize(quads, format=ox.RdfFormat.N_QUADS) or b""
    # split on b"\n" only: the serializer escapes line feeds, but literals may hold U+2028,
    # \x0b… (W3C test 060), which splitlines() would cut.
    return [line + b"\n" for line in text.split(b"\n") if line]


def _relabel(quads: Iterable[ox.Quad], labels: dict[str, str]) -> list[bytes]:
    """Canonical N-Quads lines of ``quads`` with their blank nodes renamed by ``labels``."""
    # Written here rather than by building new Quad objects for pyoxigraph's serializer (twice
    # as slow); str() of a pyoxigraph term is its canonical N-Quads form.
    lines = []
    for q in quads:
        s, o, g = q.subject, q.object, q.graph_name
        parts = [
            "_:" + labels[s.value] if isinstance(s, ox.BlankNode) else str(s),
            str(q.predicate),
            "_:" + labels[o.value] if isinstance(o, ox.BlankNode) else str(o),
        ]
        if isinstance(g, ox.BlankNode):
            parts.append("_:" + labels[g.value])
        elif not isinstance(g, ox.DefaultGraph):
            parts.append(str(g))
        lines.append((" ".join(parts) + " .\n").encode("utf-8"))
    return lines


def _blank_node_lines(
    data: bytes, hash_algorithm: str, max_work: int | None, engine: str, source: str, *,
    max_time: float | None = DEFAULT_MAX_TIME,
) -> list[bytes]:
    """Canonical lines of the statements that may hold blank nodes (all in memory)."""
    # A dataset is a set: duplicates go before hashing (dict keeps the input order).
    quads = list(dict.fromkeys(_parse(data, source)))
    if max_work is None:
        state = _RDFC(quads, hash_algorithm, DEFAULT_MAX_WORK, max_time,
                      alone_work=DEFAULT_MAX_WORK + WORK_PER_QUAD * len(quads),
                      planned_work=DEFAULT_MAX_PLANNED_WORK)
    else:
        state = _RDFC(quads, hash_algorithm, max_work, max_time)
    if not state.bnode_quads:  # "_:" was inside literals only
        return _lines_of(quads)
    groups = state.first_degree_groups()
    if engine == "pyoxigraph":
        dataset = ox.Dataset(quads)
        dataset.canonicalize(ox.CanonicalizationAlgorithm.RDFC_1_0)
        return _lines_of(dataset)
    # Where every first-degree hash is unique, run() only sorts them (no N-degree step): the
    # same work pyoxigraph would do, without copying the quads into a Dataset.
    return _relabel(quads, state.run(groups))


class _SortedRuns:
    """Unique lines in code point order (UTF-8 byte order is code point order), kept in memory
    up to ``run_bytes`` and spilled to sorted temporary files past it, merged at the end."""

    def __init__(self, run_bytes: int, tmp_dir: str | None) -> None:
        self.run_bytes = run_bytes
        self.tmp_dir = tmp_dir
        self.lines: list[bytes] = []
        self.size = 0
        self.runs: list[IO[bytes]] = []

    def add(self, lines: list[bytes]) -> None:
        self.lines += lines
        self.size += sum(map(len, lines))
        if self.size > self.run_bytes:
            # Kept open until write() merges it; deleted when closed.
            run = tempfile.TemporaryFile(dir=self.tmp_dir)  # noqa: SIM115
            run.writelines(sorted(set(self.lines)))
            run.seek(0)
            self.runs.append(run)
            self.lines = []
            self.size = 0

    def write(self, write: Callable[[bytes], object]) -> None:
        try:
            tail = sorted(set(self.lines))
            self.lines = []
            if not self.runs:
                write(b"".join(tail))
                return
            last = b""
            batch: list[bytes] = []
            for line in heapq.merge(tail, *self.runs):
                if line != last:
                    batch.append(line)
                    last = line
                    if len(batch) >= 8192:
                        write(b"".join(batch))
                        batch = []
            write(b"".join(batch))
        finally:
            for run in self.runs:
                run.close()


#: Statements are re-serialized and sorted in batches of about this many bytes.
_BATCH_BYTES = 8 << 20
#: Past this many bytes of canonical lines, sorted runs go to temporary files.
RUN_BYTES = 512 << 20


def write_canonical_nquads(
    lines: Iterable[bytes],
    write: Callable[[bytes], object],
    *,
    hash_algorithm: str = "sha256",
    max_work: int | None = None,
    run_bytes: int = RUN_BYTES,
    tmp_dir: str | None = None,
    source: str = "<input>",
    max_time: float | None = DEFAULT_MAX_TIME,
) -> None:
    r"""Write the RDFC-1.0 canonical N-Quads of ``lines`` through ``write``.

    ``lines`` are N-Quads lines (bytes) whose URNs are already canonical, for example the output
    of :func:`urnld.stream.canonicalize_lines`. Statements without blank nodes are
    re-serialized in batches and sorted in runs of ``run_bytes``, spilled to temporary files in
    ``tmp_dir`` and merged, so a dump larger than memory can be canonicalized and digested when
    its blank-node statements fit in memory; the statements that mention blank nodes are held in
    memory for the blank-node labelling, which needs all of them at once. ``source`` names the
    input in error messages; ``max_work`` and ``max_time`` bound the labelling (see
    :func:`canonical_nquads`).

    >>> import io
    >>> out = io.BytesIO()
    >>> write_canonical_nquads([b'_:x <http://e/p> "b" .\n', b'<urn:a:b> <http://e/p> _:x .\n',
    ...                         b'<urn:a:b> <http://e/p> _:x .\n'], out.write)
    >>> print(out.getvalue().decode(), end="")
    <urn:a:b> <http://e/p> _:c14n0 .
    _:c14n0 <http://e/p> "b" .
    """
    _write_canonical(lines, write, hash_algorithm=hash_algorithm, max_work=max_work,
                     run_bytes=run_bytes, tmp_dir=tmp_dir, source=source, max_time=max_time)


def _write_canonical(
    lines: Iterable[bytes], write: Callable[[bytes], object], *, hash_algorithm: str,
    max_work: int | None, run_bytes: int = RUN_BYTES, tmp_dir: str | None = None,
    source: str = "<input>", max_time: float | None = DEFAULT_MAX_TIME, engine: str = "auto",
) -> None:
    """:func:`write_canonical_nquads`, with the labelling *engine* chosen (``"auto"``,
    ``"python"`` or ``"pyoxigraph"``: the tests run both)."""
    if hash_algorithm not in _HASHES:
        raise ValueError(f"hash_algorithm must be one of {sorted(_HASHES)}, not {hash_algorithm!r}")
    runs = _SortedRuns(run_bytes, tmp_dir)
    ground: list[bytes] = []
    ground_size = 0
    blank: list[bytes] = []
    for raw in lines:
        line = raw if raw.endswith(b"\n") else raw + b"\n"
        # A line without "_:" has no blank node; one with it may (or holds "_:" in a literal).
        if b"_:" in line:
            blank.append(line)
        else:
            ground.append(line)
            ground_size += len(line)
            if ground_size >= _BATCH_BYTES:
                runs.add(_lines_of(_parse(b"".join(ground), source)))
                ground = []
                ground_size = 0
    runs.add(_lines_of(_parse(b"".join(ground), source)))
    del ground
    if blank:
        data = b"".join(blank)
        del blank
        runs.add(_blank_node_lines(data, hash_algorithm, max_work, engine, source,
                                    max_time=max_time))
    runs.write(write)


def _canonical_from_quads(
    quads: list[ox.Quad], hash_algorithm: str, max_work: int | None, engine: str = "auto"
) -> str:
    out = io.BytesIO()
    text = ox.serialize(quads, format=ox.RdfFormat.N_QUADS) or b""
    _write_canonical(text.splitlines(keepends=True), out.write, hash_algorithm=hash_algorithm,
                     max_work=max_work, engine=engine)
    return out.getvalue().decode("utf-8")


def canonical_nquads(
    graph_or_dataset: Any,
    *,
    ignore_components: bool = False,
    literals: bool = False,
    hash_algorithm: str = "sha256",
    max_work: int | None = None,
    max_time: float | None = DEFAULT_MAX_TIME,
) -> str:
    """RDFC-1.0 canonical N-Quads of the input, after URN canonicalization.

    ``graph_or_dataset`` is an rdflib ``Graph``/``Dataset``, a pyoxigraph ``Dataset``, or
    N-Quads text (``str``/``bytes``). URNs are first canonicalized as by
    :func:`urnld.rdf.canonicalize` (same ``ignore_components``/``literals`` options), then blank
    nodes are relabelled ``_:c14n0``, ``_:c14n1``… by RDFC-1.0 and the lines sorted. A plain
    ``Graph`` is one default graph (its own name is not part of the output).

    Raises :class:`CanonicalizationTooComplex` when the blank-node structure needs more than
    ``max_work`` N-degree hashing units (by default :data:`DEFAULT_MAX_WORK`, whatever the
    input's size) or more than ``max_time`` seconds (default :data:`DEFAULT_MAX_TIME`; None:
    no bound), and :class:`RDFCInputError` for unreadable input.

    >>> print(canonical_nquads('_:x <http://e/p> <URN:EXAMPLE:a> <urn:Example:g> .\\n'), end="")
    _:c14n0 <http://e/p> <urn:example:a> <urn:example:g> .
    """
    if hash_algorithm not in _HASHES:
        raise ValueError(f"hash_algorithm must be one of {sorted(_HASHES)}, not {hash_algorithm!r}")
    out = io.BytesIO()
    write_canonical_nquads(
        _text_of(graph_or_dataset, ignore_components, literals),
        out.write,
        hash_algorithm=hash_algorithm,
        max_work=max_work,
        max_time=max_time,
    )
    return out.getvalue().decode("utf-8")


def digest(
    graph_or_dataset: Any,
    *,
    ignore_components: bool = False,
    literals: bool = False,
    max_work: int | None = None,
    max_time: float | None = DEFAULT_MAX_TIME,
) -> str:
    """SHA-256 (hex) of :func:`canonical_nquads` (UTF-8).

    >>> digest('<urn:example:a> <http://e/p> "x" .') == digest('<URN:EXAMPLE:a> <http://e/p> "x" .')
    True
    """
    h = hashlib.sha256()
    write_canonical_nquads(
        _text_of(graph_or_dataset, ignore_components, literals), h.update, max_work=max_work,
        max_time=max_time,
    )
    return h.hexdigest()
