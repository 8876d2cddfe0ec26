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
interrupted (it holds the GIL and ignores signals). So the work is split:

1. The first-degree hash of every blank node is computed here (linear in the input). When every
   blank node's hash is unique, RDFC-1.0 needs no N-degree hashing: its cost is bounded, and
   pyoxigraph's ``Dataset.canonicalize(RDFC_1_0)`` does the job (the common, fast path).
2. Otherwise the N-degree hashing runs in this module's own RDFC-1.0 implementation, which
   counts its work (calls of *Hash N-Degree Quads* and permutations tried — the limit the
   specification itself recommends, §4.4 "Blank Node Identifier Issuance … complexity") and
   raises :class:`CanonicalizationTooComplex` past ``max_work`` units. The default
   (:data:`DEFAULT_MAX_WORK`) handles every approved W3C test and refuses test 074 in well under
   a second.

The own implementation also supports ``hash_algorithm="sha384"`` (W3C test 075); pyoxigraph
only implements SHA-256.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Iterable, Iterator
from typing import Any

import pyoxigraph as ox

from ..errors import URNError

__all__ = [
    "DEFAULT_MAX_WORK",
    "CanonicalizationTooComplex",
    "canonical_nquads",
    "digest",
]

#: Default work budget of the N-degree hashing (calls + permutations).
DEFAULT_MAX_WORK = 500_000

_HASHES = {"sha256": hashlib.sha256, "sha384": hashlib.sha384}


class CanonicalizationTooComplex(URNError):
    """RDFC-1.0 would need more than ``max_work`` steps for this blank-node structure.

    Typical of adversarial ("poison") inputs; raise ``max_work`` for trusted data.
    """

    def __init__(self, max_work: int, blank_nodes: int) -> None:
        self.max_work = max_work
        self.blank_nodes = blank_nodes
        super().__init__(
            f"RDFC-1.0 canonicalization needs more than {max_work:,} N-degree hashing steps "
            f"for {blank_nodes:,} blank nodes with indistinguishable neighbourhoods; refusing "
            "(possible poison graph; pass a larger max_work for trusted input)"
        )

    def __reduce__(self) -> tuple[type[CanonicalizationTooComplex], tuple[int, int]]:
        return (type(self), (self.max_work, self.blank_nodes))


class RDFCInputError(URNError):
    """The input cannot be read as an RDF dataset."""


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


def _from_nquads(data: bytes, ignore_components: bool, literals: bool) -> list[ox.Quad]:
    from ..report import CanonicalizeReport
    from ..stream import canonicalize_lines

    lines = data.splitlines(keepends=True)
    text = b"".join(
        canonicalize_lines(
            lines,
            source="<input>",
            ignore_components=ignore_components,
            literals=literals,
            report=CanonicalizeReport(),
        )
    )
    try:
        return list(ox.parse(text, format=ox.RdfFormat.N_QUADS))
    except SyntaxError as e:
        raise RDFCInputError(f"invalid N-Quads: {e}") from e


def _quads_of(data: Any, ignore_components: bool, literals: bool) -> list[ox.Quad]:
    if isinstance(data, str):
        return _from_nquads(data.encode("utf-8"), ignore_components, literals)
    if isinstance(data, bytes | bytearray):
        return _from_nquads(bytes(data), ignore_components, literals)
    if isinstance(data, ox.Dataset):
        text = ox.serialize(data, format=ox.RdfFormat.N_QUADS) or b""
        return _from_nquads(text, ignore_components, literals)
    from rdflib import Graph

    if isinstance(data, Graph):
        return _from_rdflib(data, ignore_components, literals)
    raise TypeError(
        "canonical_nquads() takes an rdflib Graph/Dataset, a pyoxigraph Dataset, or N-Quads "
        f"text; got {type(data).__name__}"
    )


# -- RDFC-1.0 (W3C Recommendation, 2024) ------------------------------------------------------


class _Issuer:
    """Identifier Issuer (§4.5): prefix + counter, remembering issue order."""

    __slots__ = ("counter", "issued", "prefix")

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix
        self.counter = 0
        self.issued: dict[str, str] = {}  # insertion-ordered: the issue order

    def issue(self, node: str) -> str:
        got = self.issued.get(node)
        if got is None:
            got = self.issued[node] = f"{self.prefix}{self.counter}"
            self.counter += 1
        return got

    def copy(self) -> _Issuer:
        c = _Issuer(self.prefix)
        c.counter = self.counter
        c.issued = dict(self.issued)
        return c


class _RDFC:
    """RDFC-1.0 over pyoxigraph quads, with a work budget on the N-degree step."""

    def __init__(self, quads: list[ox.Quad], hash_algorithm: str, max_work: int) -> None:
        self.hash = _HASHES[hash_algorithm]
        self.max_work = max_work
        self.work = 0
        self.quads = quads
        # Blank node label -> the quads mentioning it (§4.4.3 step 2).
        self.bnode_quads: dict[str, list[ox.Quad]] = {}
        for q in quads:
            for t in (q.subject, q.object, q.graph_name):
                if isinstance(t, ox.BlankNode):
                    lst = self.bnode_quads.setdefault(t.value, [])
                    if not lst or lst[-1] is not q:
                        lst.append(q)
        self.canonical = _Issuer("c14n")
        self._first: dict[str, str] = {}

    def _h(self, text: str) -> str:
        return self.hash(text.encode("utf-8")).hexdigest()

    @staticmethod
    def _term(t: Any, ref: str, a: str, z: str) -> str:
        if isinstance(t, ox.BlankNode):
            return a if t.value == ref else z
        return str(t)

    def first_degree(self, node: str) -> str:
        """Hash First Degree Quads (§4.6)."""
        got = self._first.get(node)
        if got is not None:
            return got
        lines = []
        for q in self.bnode_quads[node]:
            g = q.graph_name
            parts = [
                self._term(q.subject, node, "_:a", "_:z"),
                str(q.predicate),
                self._term(q.object, node, "_:a", "_:z"),
            ]
            if not isinstance(g, ox.DefaultGraph):
                parts.append(self._term(g, node, "_:a", "_:z"))
            lines.append(" ".join(parts) + " .\n")
        lines.sort()
        got = self._first[node] = self._h("".join(lines))
        return got

    def first_degree_groups(self) -> dict[str, list[str]]:
        groups: dict[str, list[str]] = {}
        for node in self.bnode_quads:
            groups.setdefault(self.first_degree(node), []).append(node)
        return groups

    def _spend(self, units: int = 1) -> None:
        self.work += units
        if self.work > self.max_work:
            raise CanonicalizationTooComplex(self.max_work, len(self.bnode_quads))

    def related_hash(self, related: str, q: ox.Quad, issuer: _Issuer, position: str) -> str:
        """Hash Related Blank Node (§4.7)."""
        data = position
        if position != "g":
            data += str(q.predicate)
        cid = self.canonical.issued.get(related)
        if cid is not None:
            data += "_:" + cid
        else:
            tid = issuer.issued.get(related)
            data += "_:" + tid if tid is not None else self.first_degree(related)
        return self._h(data)

    def n_degree(self, node: str, issuer: _Issuer) -> tuple[str, _Issuer]:
        """Hash N-Degree Quads (§4.8)."""
        # Work is counted in quads visited and permutation elements tried, so a unit costs
        # about the same (a few µs) whatever the shape of the graph.
        self._spend(1 + len(self.bnode_quads[node]))
        related: dict[str, list[str]] = {}
        for q in self.bnode_quads[node]:
            for t, pos in ((q.subject, "s"), (q.object, "o"), (q.graph_name, "g")):
                if isinstance(t, ox.BlankNode) and t.value != node:
                    h = self.related_hash(t.value, q, issuer, pos)
                    related.setdefault(h, []).append(t.value)
        data = ""
        for h in sorted(related):
            data += h
            chosen_path = ""
            chosen_issuer: _Issuer | None = None
            for perm in itertools.permutations(related[h]):
                self._spend(len(perm))
                issuer_copy = issuer.copy()
                path = ""
                recursion: list[str] = []
                skip = False
                for r in perm:
                    cid = self.canonical.issued.get(r)
                    if cid is not None:
                        path += "_:" + cid
                    else:
                        if r not in issuer_copy.issued:
                            recursion.append(r)
                        path += "_:" + issuer_copy.issue(r)
                    if chosen_path and len(path) >= len(chosen_path) and path > chosen_path:
                        skip = True
                        break
                if skip:
                    continue
                for r in recursion:
                    rh, rissuer = self.n_degree(r, issuer_copy)
                    path += "_:" + issuer_copy.issue(r) + "<" + rh + ">"
                    issuer_copy = rissuer
                    if chosen_path and len(path) >= len(chosen_path) and path > chosen_path:
                        skip = True
                        break
                if skip:
                    continue
                if not chosen_path or path < chosen_path:
                    chosen_path = path
                    chosen_issuer = issuer_copy
            data += chosen_path
            assert chosen_issuer is not None
            issuer = chosen_issuer
        return self._h(data), issuer

    def run(self, groups: dict[str, list[str]]) -> dict[str, str]:
        """§4.4.3 steps 4–5: issue canonical identifiers; returns label -> c14n label."""
        for h in sorted(groups):
            if len(groups[h]) == 1:
                self.canonical.issue(groups[h][0])
        for h in sorted(groups):
            if len(groups[h]) == 1:
                continue
            paths: list[tuple[str, _Issuer]] = []
            for node in groups[h]:
                if node in self.canonical.issued:
                    continue
                temp = _Issuer("b")
                temp.issue(node)
                paths.append(self.n_degree(node, temp))
            for _hash, issuer in sorted(paths, key=lambda r: r[0]):
                for existing in issuer.issued:
                    self.canonical.issue(existing)
        return self.canonical.issued


def _sorted_nquads(quads: Iterable[ox.Quad]) -> str:
    """Canonical N-Quads text: pyoxigraph's canonical term syntax, one line per quad, sorted."""
    # split("\n"), not splitlines(): literals may hold U+2028, \x0b… (W3C test 060).
    text = ox.serialize(quads, format=ox.RdfFormat.N_QUADS) or b""
    lines = text.decode("utf-8").split("\n")
    return "".join(line + "\n" for line in sorted(set(lines)) if line)


def _relabel(quads: Iterable[ox.Quad], labels: dict[str, str]) -> Iterator[ox.Quad]:
    nodes = {old: ox.BlankNode(new) for old, new in labels.items()}

    def term(t: Any) -> Any:
        return nodes[t.value] if isinstance(t, ox.BlankNode) else t

    for q in quads:
        yield ox.Quad(term(q.subject), q.predicate, term(q.object), term(q.graph_name))


def _canonical_from_quads(
    quads: list[ox.Quad], hash_algorithm: str, max_work: int, engine: str = "auto"
) -> str:
    dataset = ox.Dataset(quads)  # a dataset is a set: duplicates go
    unique = list(dataset)
    state = _RDFC(unique, hash_algorithm, max_work)
    if not state.bnode_quads:
        return _sorted_nquads(unique)
    groups = state.first_degree_groups()
    simple = all(len(nodes) == 1 for nodes in groups.values())
    if engine == "pyoxigraph" or (engine == "auto" and simple and hash_algorithm == "sha256"):
        dataset.canonicalize(ox.CanonicalizationAlgorithm.RDFC_1_0)
        return _sorted_nquads(dataset)
    return _sorted_nquads(_relabel(unique, state.run(groups)))


def canonical_nquads(
    graph_or_dataset: Any,
    *,
    ignore_components: bool = False,
    literals: bool = False,
    hash_algorithm: str = "sha256",
    max_work: int = DEFAULT_MAX_WORK,
) -> str:
    """RDFC-1.0 canonical N-Quads of the input, after URN canonicalization.

    ``graph_or_dataset`` is an rdflib ``Graph``/``Dataset``, a pyoxigraph ``Dataset``, or
    N-Quads text (``str``/``bytes``). URNs are first canonicalized as by
    :func:`urnld.rdf.canonicalize` (same ``ignore_components``/``literals`` options), then blank
    nodes are relabelled ``_:c14n0``, ``_:c14n1``… by RDFC-1.0 and the lines sorted. A plain
    ``Graph`` is one default graph (its own name is not part of the output).

    Raises :class:`CanonicalizationTooComplex` when the blank-node structure needs more than
    ``max_work`` N-degree hashing steps, and :class:`RDFCInputError` for unreadable input.

    >>> print(canonical_nquads('_:x <http://e/p> <URN:EXAMPLE:a> <urn:Example:g> .\\n'), end="")
    _:c14n0 <http://e/p> <urn:example:a> <urn:example:g> .
    """
    if hash_algorithm not in _HASHES:
        raise ValueError(f"hash_algorithm must be one of {sorted(_HASHES)}, not {hash_algorithm!r}")
    quads = _quads_of(graph_or_dataset, ignore_components, literals)
    return _canonical_from_quads(quads, hash_algorithm, max_work)


def digest(
    graph_or_dataset: Any,
    *,
    ignore_components: bool = False,
    literals: bool = False,
    max_work: int = DEFAULT_MAX_WORK,
) -> str:
    """SHA-256 (hex) of :func:`canonical_nquads` (UTF-8).

    >>> digest('<urn:example:a> <http://e/p> "x" .') == digest('<URN:EXAMPLE:a> <http://e/p> "x" .')
    True
    """
    text = canonical_nquads(
        graph_or_dataset,
        ignore_components=ignore_components,
        literals=literals,
        max_work=max_work,
    )
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
