"""RDFC-1.0's blank-node labelling (W3C Recommendation, 2024, §4.4–4.8), with the work and
time bounds that keep untrusted input from hanging the tool; :mod:`urnld.rdf._rdfc` feeds it
the statements that mention blank nodes and writes the result."""

from __future__ import annotations

import hashlib
import itertools
import time
from collections.abc import Generator, Iterable
from typing import Any, cast

import pyoxigraph as ox

from ..errors import URNError

__all__ = [
    "DEFAULT_MAX_PLANNED_WORK",
    "DEFAULT_MAX_TIME",
    "DEFAULT_MAX_WORK",
    "WORK_PER_QUAD",
    "CanonicalizationTooComplex",
    "RDFCInputError",
]

#: Work budget of the N-degree hashing (quads visited, permutation elements tried, identifiers
#: copied), the same for any input size: untrusted input is refused in about the same time.
DEFAULT_MAX_WORK = 500_000
#: Budget per statement that mentions a blank node, for the blank nodes labelled without
#: N-degree hashing (those that share no statement with another blank node).
WORK_PER_QUAD = 20
#: Wall-clock bound of the N-degree search, in seconds (``max_time``); None means no bound.
DEFAULT_MAX_TIME = 2.0
#: Budget of the walks whose cost is known before they start (blank nodes whose related nodes
#: never tie: chains, RDF lists, trees of unlike branches). Their work is counted in the same
#: units, all of it before the first step, so they are admitted or refused at once and need no
#: clock; this admits an RDF list of about 2,000 equal values (each walk covers the list).
DEFAULT_MAX_PLANNED_WORK = 25_000_000

_HASHES = {"sha256": hashlib.sha256, "sha384": hashlib.sha384}


class CanonicalizationTooComplex(URNError):
    """RDFC-1.0 would need more than ``max_work`` steps for this blank-node structure.

    Typical of adversarial ("poison") inputs; raise ``max_work`` for trusted data.
    """

    def __init__(
        self, max_work: int, blank_nodes: int, max_time: float | None = None,
        planned: int | None = None,
    ) -> None:
        self.max_work = max_work
        self.blank_nodes = blank_nodes
        self.max_time = max_time
        #: The work counted in advance, for a structure refused before its first step.
        self.planned = planned
        if planned is not None:
            super().__init__(
                f"RDFC-1.0 canonicalization needs {planned:,} N-degree hashing steps (counted "
                f"in advance) for {blank_nodes:,} blank nodes, more than the budget of "
                f"{max_work:,}; refusing (pass a larger max_work for trusted input)"
            )
            return
        bound = (f"more than {max_time:g} s" if max_time is not None
                 else f"more than {max_work:,} N-degree hashing steps")
        super().__init__(
            f"RDFC-1.0 canonicalization needs {bound} for {blank_nodes:,} blank nodes with "
            "indistinguishable neighbourhoods; refusing (possible poison graph; pass a larger "
            "max_work / max_time for trusted input)"
        )

    def __reduce__(
        self,
    ) -> tuple[type[CanonicalizationTooComplex], tuple[int, int, float | None, int | None]]:
        return (type(self), (self.max_work, self.blank_nodes, self.max_time, self.planned))


class RDFCInputError(URNError):
    """The input cannot be read as an RDF dataset."""


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

    def __init__(
        self, quads: list[ox.Quad], hash_algorithm: str, max_work: int,
        max_time: float | None = None, *, alone_work: int | None = None,
        planned_work: int | None = None,
    ) -> None:
        self.hash = _HASHES[hash_algorithm]
        self.max_work = max_work
        self.max_time = max_time
        self.deadline = None if max_time is None else time.monotonic() + max_time
        self.work = 0
        # Blank nodes labelled without N-degree hashing have their own budget, which grows
        # with the input (None: the same as max_work, for a caller-given max_work).
        self.alone_work = 0
        self.max_alone_work = max_work if alone_work is None else alone_work
        # Walks whose cost is counted before they start (see plan()); None: max_work.
        self.planned = 0
        self.max_planned = max_work if planned_work is None else planned_work
        self._calls = 0
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
        # (position and predicate, blank node) -> related hash, for nodes not yet issued.
        self._unissued: dict[tuple[str, str], str] = {}
        # Position, predicate and identifier -> related hash, for issued nodes: the same
        # identifier comes back on every walk of a component.
        self._issued_hash: dict[str, str] = {}
        # Blank node -> (position and predicate, related blank node) of each mention.
        self._related: dict[str, list[tuple[str, str]]] = {}
        # Blank node -> its _mentions(), valid while the canonical issuer is unchanged (within
        # one first-degree group's walks).
        self._seen: dict[str, Any] = {}

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
        self._calls += 1
        # The clock is read every 256 charges: a charge costs microseconds, a read ~50 ns.
        if self.deadline is not None and not self._calls & 255 and (
            time.monotonic() > self.deadline
        ):
            raise CanonicalizationTooComplex(self.max_work, len(self.bnode_quads), self.max_time)

    def _spend_alone(self, units: int) -> None:
        self.alone_work += units
        if self.alone_work > self.max_alone_work:
            raise CanonicalizationTooComplex(self.max_alone_work, len(self.bnode_quads))

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
            if tid is None:
                # Not issued yet: the hash depends on the node's first-degree hash alone, the
                # same on every walk that meets it (a chain's walks meet each node once each).
                key = (data, related)
                got = self._unissued.get(key)
                if got is None:
                    got = self._unissued[key] = self._h(data + self.first_degree(related))
                return got
            data += "_:" + tid
        return self._h(data)

    def n_degree(self, node: str, issuer: _Issuer) -> tuple[str, _Issuer]:
        """Hash N-Degree Quads (§4.8), run on an explicit stack.

        The algorithm recurses once per blank node along a path, so a chain of a thousand blank
        nodes would exceed Python's recursion limit; each call is a generator that yields the
        calls it needs and receives their results.
        """
        stack = [self._n_degree(node, issuer)]
        result: tuple[str, _Issuer] | None = None
        while True:
            try:
                call = stack[-1].send(result)
            except StopIteration as done:
                stack.pop()
                if not stack:
                    return cast("tuple[str, _Issuer]", done.value)
                result = done.value
                continue
            stack.append(self._n_degree(*call))
            result = None

    def _n_degree(
        self, node: str, issuer: _Issuer
    ) -> Generator[tuple[str, _Issuer], tuple[str, _Issuer] | None, tuple[str, _Issuer]]:
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
            single = len(related[h]) == 1
            for perm in itertools.permutations(related[h]):
                if single:
                    # One permutation: it is the chosen one, and the issuer it leaves replaces
                    # this one below anyway, so it needs no copy (a chain's links each have one).
                    self._spend(1)
                    issuer_copy = issuer
                else:
                    # The copy is as long as the path walked: charged as such.
                    self._spend(len(perm) + len(issuer.issued))
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
                    if chosen_path and len(path) >= len(chosen_path) and path >= chosen_path:
                        skip = True
                        break
                if skip:
                    continue
                for r in recursion:
                    got = yield (r, issuer_copy)
                    assert got is not None
                    rh, rissuer = got
                    path += "_:" + issuer_copy.issue(r) + "<" + rh + ">"
                    issuer_copy = rissuer
                    if chosen_path and len(path) >= len(chosen_path) and path >= chosen_path:
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

    # -- walks without choices -------------------------------------------------------------
    #
    # Where no blank node of a component has two mentions of related blank nodes that could
    # hash alike, every group in §4.8 step 5 holds one node: one permutation, no copy, no
    # comparison. The walk from a node then visits each blank node of its component once, so
    # its cost is known before it starts, and a long chain or RDF list of equal values -- whose
    # walks are quadratic in its length but never branch -- is admitted or refused at once.

    def related_of(self, node: str) -> list[tuple[str, str]]:
        """(position and predicate, blank node) of each mention of another blank node."""
        got = self._related.get(node)
        if got is None:
            got = []
            for q in self.bnode_quads[node]:
                p = str(q.predicate)
                for t, pos in ((q.subject, "s"), (q.object, "o"), (q.graph_name, "g")):
                    if isinstance(t, ox.BlankNode) and t.value != node:
                        got.append(("g" if pos == "g" else pos + p, t.value))
            self._related[node] = got
        return got

    def _never_ties(self, node: str) -> bool:
        # Two mentions hash alike only if they agree in position and predicate and in what
        # stands for the node: its canonical identifier, or its first-degree hash (the same
        # node twice included); a temporary identifier tells nodes apart, so this holds for
        # every issuer a walk can bring.
        seen = set()
        for pp, r in self.related_of(node):
            cid = self.canonical.issued.get(r)
            key = (pp, "_:" + cid if cid is not None else self.first_degree(r))
            if key in seen:
                return False
            seen.add(key)
        return True

    def plan(self, members: list[str]) -> set[str]:
        """The members whose walk has no choices; their work is charged now, all of it."""
        canonical = self.canonical.issued
        component: dict[str, int] = {}
        sizes: list[tuple[bool, int]] = []  # per component: no choices, units of one walk
        for m in members:
            if m in canonical or m in component:
                continue
            cid = len(sizes)
            component[m] = cid
            todo, units, free = [m], 0, True
            while todo:
                n = todo.pop()
                related = self.related_of(n)
                # What _n_degree charges for a visit: statements, and one per group.
                units += 1 + len(self.bnode_quads[n]) + len(related)
                free = free and self._never_ties(n)
                for _pp, r in related:
                    if r not in canonical and r not in component:
                        component[r] = cid
                        todo.append(r)
            sizes.append((free, units))
        self._seen = {}  # the canonical issuer has grown since the last group
        chosen = set()
        for m in members:
            c = component.get(m)
            if c is not None and sizes[c][0]:
                chosen.add(m)
                self.planned += sizes[c][1]
        if self.planned > self.max_planned:
            raise CanonicalizationTooComplex(
                self.max_planned, len(self.bnode_quads), planned=self.planned
            )
        return chosen

    def walk(self, start: str) -> tuple[str, dict[str, str]]:
        """Hash N-Degree Quads (§4.8) from ``start`` where no step has a choice (see plan()).

        One issuer serves the whole walk, on an explicit stack of frames (related hashes in
        order, the next one, the data to hash, the node being walked into).
        """
        sha = self.hash
        by_id = self._issued_hash
        seen = self._seen
        issued = {start: "_:b0"}  # the issuer: node -> "_:" + its temporary identifier

        def frame(node: str) -> list[Any]:
            got = seen.get(node)
            if got is None:
                got = seen[node] = self._mentions(node)
            items = list(got[0])
            for pp, r, unissued in got[1]:
                tid = issued.get(r)
                if tid is None:
                    items.append((unissued, r, None))
                else:
                    key = pp + tid
                    rh = by_id.get(key)
                    if rh is None:
                        rh = by_id[key] = sha(key.encode("utf-8")).hexdigest()
                    items.append((rh, r, None))
            items.sort()
            return [items, 0, [], None]

        stack = [frame(start)]
        result = ""
        while True:
            top = stack[-1]
            items, parts = top[0], top[2]
            if top[3] is not None:
                parts.append(issued[top[3]] + "<" + result + ">")
                top[3] = None
            i = top[1]
            while i < len(items):
                rh, r, text = items[i]
                i += 1
                parts.append(rh)
                if r is None:  # a node with a canonical identifier
                    parts.append(text)
                    continue
                tid = issued.get(r)
                if tid is None:
                    tid = issued[r] = f"_:b{len(issued)}"
                    parts.append(tid)
                    top[1], top[3] = i, r
                    stack.append(frame(r))
                    break
                parts.append(tid)
            else:
                result = sha("".join(parts).encode("utf-8")).hexdigest()
                stack.pop()
                if not stack:
                    return result, issued

    def _mentions(
        self, node: str
    ) -> tuple[list[tuple[str, None, str]], list[tuple[str, str, str]]]:
        """A node's mentions as a walk needs them while the canonical issuer stays as it is:
        (related hash, None, canonical identifier) of nodes that have one, and (position and
        predicate, node, related hash while unissued) of the others."""
        fixed: list[tuple[str, None, str]] = []
        loose: list[tuple[str, str, str]] = []
        for pp, r in self.related_of(node):
            cid = self.canonical.issued.get(r)
            if cid is not None:
                fixed.append((self._h(pp + "_:" + cid), None, "_:" + cid))
                continue
            got = self._unissued.get((pp, r))
            if got is None:
                got = self._unissued[(pp, r)] = self._h(pp + self.first_degree(r))
            loose.append((pp, r, got))
        return fixed, loose

    def run(self, groups: dict[str, list[str]]) -> dict[str, str]:
        """§4.4.3 steps 4–5: issue canonical identifiers; returns label -> c14n label."""
        for h in sorted(groups):
            if len(groups[h]) == 1:
                self.canonical.issue(groups[h][0])
        for h in sorted(groups):
            if len(groups[h]) == 1:
                continue
            # §4.4.3 step 5 keeps every result, then issues in hash order. A walk issues its
            # whole component (the blank nodes it reaches through nodes without a canonical
            # identifier), so once a component's first result in that order is issued, its
            # later ones issue nothing: only each component's least result is kept (the first
            # of equal ones, as the stable sort would), and memory stays linear where a chain of
            # n equal nodes would keep n walks of n nodes each.
            # (hash, the result's place in step 5.2's list, its issued nodes): ties in the
            # hash are ordered by that place, as the stable sort of every result would be.
            paths: list[tuple[str, int, Iterable[str]]] = []
            owner: dict[str, int] = {}  # node -> its component's slot in paths
            members = groups[h]
            alone = {node for node in members if self._alone(node)}
            planned = self.plan([node for node in members if node not in alone])
            for place, node in enumerate(members):
                if node in self.canonical.issued:
                    continue
                if node in alone:
                    # No other blank node in its statements: §4.8 hashes the empty string and
                    # issues only the node itself (a shortcut for a common, large case).
                    self._spend_alone(1 + len(self.bnode_quads[node]))
                    paths.append((self._h(""), place, (node,)))
                    continue
                if node in planned:
                    rh, issued = self.walk(node)
                else:
                    temp = _Issuer("b")
                    temp.issue(node)
                    rh, issuer = self.n_degree(node, temp)
                    issued = issuer.issued
                slot = owner.get(node)
                if slot is None:
                    for existing in issued:
                        owner[existing] = len(paths)
                    paths.append((rh, place, issued))
                elif rh < paths[slot][0]:
                    paths[slot] = (rh, place, issued)
            for _hash, _place, walked in sorted(paths, key=lambda r: (r[0], r[1])):
                for existing in walked:
                    self.canonical.issue(existing)
        return self.canonical.issued

    def _alone(self, node: str) -> bool:
        for q in self.bnode_quads[node]:
            for t in (q.subject, q.object, q.graph_name):
                if isinstance(t, ox.BlankNode) and t.value != node:
                    return False
        return True
