"""RDFC-1.0: the W3C evaluation suite, the poison graph, and the URN-aware digest."""

from __future__ import annotations

import contextlib
import hashlib
import time
from collections.abc import Iterable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rdflib import Graph

from urnld.errors import URNError
from urnld.rdf import canonical_nquads, digest
from urnld.rdf._rdfc import (
    CanonicalizationTooComplex,
    RDFCInputError,
    _canonical_from_quads,
    _quads_of,
)
from urnld.rdf._rdfc_labels import (
    _RDFC,
    DEFAULT_MAX_PLANNED_WORK,
    DEFAULT_MAX_TIME,
    DEFAULT_MAX_WORK,
    _Issuer,
)

SUITE = Path(__file__).resolve().parents[1] / "data" / "w3c" / "rdf-canon" / "tests"
NS = {
    "mf": "http://www.w3.org/2001/sw/DataAccess/tests/test-manifest#",
    "rdfc": "https://w3c.github.io/rdf-canon/tests/vocab#",
}


def _manifest() -> list[tuple[str, str, Path, Path | None, str]]:
    """(id, type, action, result, hash algorithm) for every entry of manifest.ttl."""
    base = "https://w3c.github.io/rdf-canon/tests/"
    g = Graph().parse(SUITE / "manifest.ttl", format="turtle", publicID=base + "manifest")
    mf = NS["mf"]
    rdfc = NS["rdfc"]
    rows = []
    q = f"""
        SELECT ?t ?type ?action ?result ?alg WHERE {{
            ?t a ?type ; <{mf}action> ?action .
            OPTIONAL {{ ?t <{mf}result> ?result }}
            OPTIONAL {{ ?t <{rdfc}hashAlgorithm> ?alg }}
        }}"""
    for t, typ, action, result, alg in g.query(q):
        rows.append((
            str(t).rsplit("#", 1)[-1],
            str(typ).rsplit("#", 1)[-1],
            SUITE / str(action).removeprefix(base),
            SUITE / str(result).removeprefix(base) if result is not None else None,
            str(alg).lower() if alg is not None else "sha256",
        ))
    return sorted(rows)


MANIFEST = _manifest()
EVAL = [r for r in MANIFEST if r[1] == "RDFC10EvalTest"]
NEGATIVE = [r for r in MANIFEST if r[1] == "RDFC10NegativeEvalTest"]


def test_manifest_has_the_64_evaluation_tests_and_the_poison():
    assert len(EVAL) == 64
    assert [r[0] for r in NEGATIVE] == ["test074c"]


@pytest.mark.parametrize("row", EVAL, ids=[r[0] for r in EVAL])
def test_w3c_evaluation(row):
    _id, _type, action, result, alg = row
    got = canonical_nquads(action.read_bytes(), hash_algorithm=alg)
    expected = result.read_text(encoding="utf-8")
    assert got.split("\n") == expected.split("\n")


@pytest.mark.parametrize("engine", ["python", "pyoxigraph"])
def test_both_engines_pass_the_suite(engine):
    """The own implementation (used past the first degree) and pyoxigraph agree with W3C."""
    for _id, _type, action, result, alg in EVAL:
        if engine == "pyoxigraph" and alg != "sha256":
            continue  # pyoxigraph implements SHA-256 only
        quads = _quads_of(action.read_bytes(), False, False)
        got = _canonical_from_quads(quads, alg, 10**6, engine)
        assert got.split("\n") == result.read_text(encoding="utf-8").split("\n"), _id


def test_poison_graph_is_refused():
    (_id, _type, action, _result, _alg) = NEGATIVE[0]
    with pytest.raises(CanonicalizationTooComplex) as info:
        canonical_nquads(action.read_bytes())
    assert isinstance(info.value, URNError)
    assert "poison" in str(info.value)
    with pytest.raises(CanonicalizationTooComplex):
        digest(action.read_text(), max_work=1000)


def test_small_clique_fits_the_budget_and_a_tiny_budget_refuses_it():
    clique = "".join(f"_:e{i} <http://e/p> _:e{j} .\n" for i in range(4) for j in range(4))
    out = canonical_nquads(clique)
    assert out.count("\n") == 16
    with pytest.raises(CanonicalizationTooComplex):
        canonical_nquads(clique, max_work=10)


def test_urn_spellings_and_blank_labels_do_not_change_the_digest():
    a = (
        "<URN:ISBN:0-395-36341-1> <http://e/p> _:x .\n"
        '_:x <http://e/q> "urn:isbn:0395363411" <urn:Example:g> .\n'
    )
    b = (
        "<urn:isbn:0395363411> <http://e/p> _:other .\n"
        '_:other <http://e/q> "urn:isbn:0395363411" <URN:EXAMPLE:g> .\n'
    )
    assert canonical_nquads(a) == canonical_nquads(b) == (
        "<urn:isbn:0395363411> <http://e/p> _:c14n0 .\n"
        '_:c14n0 <http://e/q> "urn:isbn:0395363411" <urn:example:g> .\n'
    )
    expected = hashlib.sha256(canonical_nquads(a).encode()).hexdigest()
    assert digest(a) == digest(b) == expected
    # Literals are data unless asked for.
    c = b.replace('"urn:isbn:0395363411"', '"URN:ISBN:0395363411"')
    assert digest(c) != digest(b)
    assert digest(c, literals=True) == digest(b, literals=True)


def test_rdflib_and_text_inputs_agree():
    text = '<URN:EXAMPLE:a> <http://e/p> [ <http://e/q> "x"@en ] .'
    g = Graph().parse(data=text, format="turtle")
    nt = g.serialize(format="nt")
    assert canonical_nquads(g) == canonical_nquads(nt) == canonical_nquads(nt.encode())


def test_bad_input():
    with pytest.raises(URNError):
        canonical_nquads("<http://e/s> <http://e/p> .\n")
    with pytest.raises(RDFCInputError):
        canonical_nquads("<relative> <http://e/p> <http://e/o> .\n")
    with pytest.raises(TypeError):
        canonical_nquads(42)
    with pytest.raises(ValueError, match="hash_algorithm"):
        canonical_nquads("", hash_algorithm="md5")


# -- robustness and the scaled budget ---------------------------------------------------------


def _chain(n: int) -> str:
    return "".join(f"_:b{i} <http://e/p> _:b{i + 1} .\n" for i in range(n))


def test_a_long_chain_needs_no_deep_python_recursion():
    """N-degree hashing walks the whole chain; it must not use the Python stack for that."""
    import inspect
    import sys

    text = _chain(120)
    expected = _canonical_from_quads(_quads_of(text, False, False), "sha256", None, "pyoxigraph")
    limit = sys.getrecursionlimit()
    # Room for pytest's frames and the call itself, far less than one frame per chain link.
    sys.setrecursionlimit(len(inspect.stack()) + 80)
    try:
        got = canonical_nquads(text)
    finally:
        sys.setrecursionlimit(limit)
    assert got == expected


def test_a_thousand_long_chain_is_labelled_within_the_default_budget():
    # pyoxigraph needs minutes on this shape (N-degree hashing of every link, with an issuer
    # copy as long as the walk at each step). A chain has no choices: its walks are counted in
    # advance (998 walks of 1,000 nodes) and admitted.
    out = canonical_nquads(_chain(1000))
    assert out.count("\n") == 1000
    labels = {term for line in out.splitlines() for term in line.split() if term[:2] == "_:"}
    assert labels == {f"_:c14n{i}" for i in range(1001)}


def test_a_chain_past_the_budget_is_refused_before_its_first_step():
    # 20,000 links (a 600 KB file): 20,000 walks of 20,000 nodes, refused from the count alone.
    with pytest.raises(CanonicalizationTooComplex, match="counted in advance") as info:
        digest(_chain(20_000))
    assert info.value.planned is not None and info.value.planned > DEFAULT_MAX_PLANNED_WORK
    assert info.value.max_work == DEFAULT_MAX_PLANNED_WORK
    # An explicit budget bounds these walks too.
    with pytest.raises(CanonicalizationTooComplex, match="counted in advance"):
        digest(_chain(100), max_work=1_000)


def _cost(text: str, **bounds: float | None) -> tuple[float, int, bool]:
    """CPU seconds and peak traced bytes of digesting *text*, and whether it was refused."""
    import tracemalloc

    tracemalloc.start()
    start = time.process_time()
    refused = True
    with contextlib.suppress(CanonicalizationTooComplex):
        digest(text, **bounds)  # type: ignore[arg-type]
        refused = False
    cpu = time.process_time() - start
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return cpu, peak, refused


@pytest.mark.slow
def test_refusal_costs_what_reading_the_input_costs():
    # A 20,000-link chain (a 600 KB file) used to take minutes and GBs to refuse: each step
    # copied an issuer as long as the path walked. Its walks are now counted before the first
    # one runs. Compared in the same run with a file of the same size whose blank nodes need
    # no N-degree step at all: refusing costs about what reading and hashing it costs, under
    # the default bounds and under a small explicit budget alike.
    n = 20_000
    plain_cpu, plain_peak, refused = _cost(
        "".join(f'_:b{i} <http://e/p> "v{i}" .\n' for i in range(n))
    )
    assert not refused
    for bounds in ({}, {"max_time": None, "max_work": 30_000}):
        cpu, peak, refused = _cost(_chain(n), **bounds)
        assert refused, bounds
        assert cpu <= 3 * plain_cpu + 0.2, (bounds, plain_cpu, cpu)
        # Quadratic copies grew this 400x; the chain holds two blank nodes a statement.
        assert peak <= 4 * plain_peak, (bounds, plain_peak, peak)


def test_the_wall_clock_bound_refuses_too():
    # The poison graph has choices at every step: its search is bounded by the clock.
    (_id, _type, action, _result, _alg) = NEGATIVE[0]
    with pytest.raises(CanonicalizationTooComplex, match=r"more than 0\.001 s"):
        digest(action.read_text(), max_time=0.001, max_work=10**9)


def test_star_graphs_are_accepted():
    # A hub with many leaves alike (an author and the anonymous nodes of their works): every
    # permutation of the leaves ties, and a tie is abandoned as soon as it cannot win.
    def star(n: int) -> str:
        return "".join(f'_:hub <http://e/p> _:l{i} .\n_:l{i} <http://e/q> "x" .\n' for i in range(n))

    small = _quads_of(star(6), False, False)
    assert canonical_nquads(star(6)) == _canonical_from_quads(small, "sha256", None, "pyoxigraph")
    out = canonical_nquads(star(1_000))
    assert out.count("\n") == 2_000 and "_:c14n1000 " in out


def test_short_rdf_lists_of_equal_values_are_accepted():
    first = "<http://www.w3.org/1999/02/22-rdf-syntax-ns#first>"
    rest = "<http://www.w3.org/1999/02/22-rdf-syntax-ns#rest>"
    nil = "<http://www.w3.org/1999/02/22-rdf-syntax-ns#nil>"
    n = 60
    text = "".join(f'_:b{i} {first} "x" .\n_:b{i} {rest} _:b{i + 1} .\n' for i in range(n))
    text += f'_:b{n} {first} "x" .\n_:b{n} {rest} {nil} .\n'
    expected = _canonical_from_quads(_quads_of(text, False, False), "sha256", None, "pyoxigraph")
    assert canonical_nquads(text) == expected


def _equal_list(n: int, value: str = '"x"') -> str:
    """An RDF list of *n* equal values, its head the object of an IRI subject."""
    text = "<http://e/s> <http://e/items> _:b0 .\n"
    for i in range(n):
        nxt = f"_:b{i + 1}" if i + 1 < n else "<http://www.w3.org/1999/02/22-rdf-syntax-ns#nil>"
        text += f"_:b{i} {_FIRST} {value} .\n_:b{i} {_REST} {nxt} .\n"
    return text


@pytest.mark.slow
def test_a_list_of_two_thousand_equal_values_is_accepted_with_the_default_bounds():
    # Refused before as a "possible poison graph". Its 1,998 walks of 2,000 nodes are counted
    # before the first one starts (within DEFAULT_MAX_PLANNED_WORK) and need no clock; shorter
    # lists are compared with the general walk and with pyoxigraph in the tests around.
    n = 2_000
    quads = _quads_of(_equal_list(n), False, False)
    state = _RDFC(quads, "sha256", DEFAULT_MAX_WORK, DEFAULT_MAX_TIME,
                  planned_work=DEFAULT_MAX_PLANNED_WORK)
    labels = state.run(state.first_degree_groups())
    assert sorted(labels.values(), key=lambda c: int(c[4:])) == [f"c14n{i}" for i in range(n)]
    assert 0 < state.planned <= DEFAULT_MAX_PLANNED_WORK
    assert state.work == 0  # no step of the general search


@pytest.mark.slow
def test_many_blank_nodes_with_one_identical_statement_each_fit_the_scaled_budget():
    n = 300_000
    text = "".join(f'_:b{i} <http://e/p> "x" .\n' for i in range(n))
    out = canonical_nquads(text)
    assert out.count("\n") == n
    assert out.startswith('_:c14n0 <http://e/p> "x" .\n')
    # An explicit budget is absolute.
    with pytest.raises(CanonicalizationTooComplex):
        canonical_nquads("".join(text.splitlines(keepends=True)[:2000]), max_work=100)


def test_a_lone_surrogate_is_a_urnld_error():
    with pytest.raises(RDFCInputError, match="surrogate"):
        digest('<urn:example:a> <http://e/p> "\ud800" .\n')


def test_sorted_runs_on_disk_give_the_same_output(tmp_path):
    import io

    from urnld.rdf import write_canonical_nquads

    lines = [f"<urn:example:{i % 500}> <http://e/p> \"{i % 700}\" .\n".encode() for i in range(3000)]
    lines += [b"_:x <http://e/p> <urn:example:1> .\n", b'<http://e/s> <http://e/p> "_:y" .\n']
    whole, spilled = io.BytesIO(), io.BytesIO()
    write_canonical_nquads(lines, whole.write)
    write_canonical_nquads(lines, spilled.write, run_bytes=1000, tmp_dir=str(tmp_path))
    assert spilled.getvalue() == whole.getvalue()
    got = whole.getvalue().decode().split("\n")
    assert got[:-1] == sorted(set(got[:-1]))
    # (i % 500, i % 700) repeats only after lcm(500, 700) = 3500 > 3000: all distinct.
    assert len(got) - 1 == 3002
    assert list(tmp_path.iterdir()) == []  # runs are removed
    expected = canonical_nquads(b"".join(lines))
    assert whole.getvalue().decode() == expected


class _EveryResult(_RDFC):
    """§4.4.3 step 5 as written: every N-degree result kept, all sorted, then issued."""

    def run(self, groups: dict[str, list[str]]) -> dict[str, str]:
        for h in sorted(groups):
            if len(groups[h]) == 1:
                self.canonical.issue(groups[h][0])
        for h in sorted(groups):
            if len(groups[h]) == 1:
                continue
            paths: list[tuple[str, Iterable[str]]] = []
            for node in groups[h]:
                if node in self.canonical.issued:
                    continue
                temp = _Issuer("b")
                temp.issue(node)
                rh, issuer = self.n_degree(node, temp)
                paths.append((rh, issuer.issued))
            for _hash, issued in sorted(paths, key=lambda r: r[0]):
                for existing in issued:
                    self.canonical.issue(existing)
        return self.canonical.issued


_FIRST = "<http://www.w3.org/1999/02/22-rdf-syntax-ns#first>"
_REST = "<http://www.w3.org/1999/02/22-rdf-syntax-ns#rest>"


@st.composite
def _components(draw: st.DrawFn) -> str:
    """Several lists and rings of equal values in one document: one first-degree group holding
    many components, isomorphic ones among them (equal hashes across components)."""
    out = []
    for c in range(draw(st.integers(1, 4))):
        n = draw(st.integers(2, 7))
        ring = draw(st.booleans())
        value = draw(st.sampled_from(['"x"', '"y"']))
        for i in range(n):
            nxt = f"_:c{c}n{(i + 1) % n}" if ring or i + 1 < n else "<http://e/nil>"
            out.append(f"_:c{c}n{i} {_FIRST} {value} .\n_:c{c}n{i} {_REST} {nxt} .\n")
    return "".join(draw(st.permutations(out)))


@given(_components())
@settings(max_examples=60, deadline=None)
def test_keeping_each_components_least_result_issues_as_the_spec_does(text: str) -> None:
    # run() keeps one N-degree result per component (memory linear in a long chain); the
    # labels must be those of step 5 as the spec writes it, ties between isomorphic
    # components included.
    quads = _quads_of(text, False, False)
    ours = _RDFC(quads, "sha256", 10**9)
    spec = _EveryResult(quads, "sha256", 10**9)
    assert ours.run(ours.first_degree_groups()) == spec.run(spec.first_degree_groups())


def test_a_long_list_of_equal_values_keeps_memory_linear() -> None:
    # 300 equal list nodes: every walk covers the list; keeping them all held 300 x 300 labels.
    import tracemalloc

    n = 300
    text = "".join(f'_:b{i} {_FIRST} "x" .\n_:b{i} {_REST} _:b{i + 1} .\n' for i in range(n))
    text += f'_:b{n} {_FIRST} "x" .\n_:b{n} {_REST} <http://e/nil> .\n'
    quads = _quads_of(text, False, False)
    tracemalloc.start()
    ours = _RDFC(quads, "sha256", 10**9)
    ours.run(ours.first_degree_groups())
    ours_peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    tracemalloc.start()
    spec = _EveryResult(quads, "sha256", 10**9)
    spec.run(spec.first_degree_groups())
    spec_peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert ours.canonical.issued == spec.canonical.issued
    assert ours_peak * 3 < spec_peak, (ours_peak, spec_peak)


class _GeneralWalk(_RDFC):
    """Every group through the general N-degree walk (§4.8 with its permutations)."""

    def plan(self, members: list[str]) -> set[str]:
        return set()


@st.composite
def _shapes(draw: st.DrawFn) -> str:
    """Chains, lists, rings and trees of alike nodes, with a few extra links: most walks have
    no choices, some do (two alike children of one node); named graphs and blank graph names,
    and an IRI-named hub whose mentions give some nodes a canonical neighbour."""
    out = []
    n = draw(st.integers(2, 12))
    preds = ["<http://e/p>", "<http://e/q>"]
    for i in range(1, n):
        parent = draw(st.integers(0, i - 1)) if draw(st.booleans()) else i - 1
        out.append(f"_:n{parent} {draw(st.sampled_from(preds))} _:n{i} .\n")
    out.extend(f'_:n{i} <http://e/v> "{draw(st.sampled_from("xy"))}" .\n'
               for i in range(n) if draw(st.booleans()))
    for _ in range(draw(st.integers(0, 3))):
        a, b = draw(st.integers(0, n - 1)), draw(st.integers(0, n - 1))
        graph = draw(st.sampled_from(["", " <http://e/g>", f" _:n{draw(st.integers(0, n - 1))}"]))
        out.append(f"_:n{a} {draw(st.sampled_from(preds))} _:n{b}{graph} .\n")
    if draw(st.booleans()):
        out.append("_:hub <http://e/h> <http://e/x> .\n_:hub <http://e/k> _:n0 .\n")
    if draw(st.booleans()):
        out.append(f"_:n{n - 1} <http://e/p> _:n0 .\n")  # a ring
    return "".join(draw(st.permutations(out)))


@given(_shapes())
@settings(max_examples=150, deadline=None)
def test_walks_without_choices_label_as_the_general_walk(text: str) -> None:
    # The counted walk is a shortcut of §4.8 for components where no two mentions can hash
    # alike; the labels must be those of the general walk, for every shape.
    quads = _quads_of(text, False, False)
    ours = _RDFC(quads, "sha256", 10**9, planned_work=10**9)
    general = _GeneralWalk(quads, "sha256", 10**9)
    assert ours.run(ours.first_degree_groups()) == general.run(general.first_degree_groups())


def test_the_counted_walk_serves_lists_and_chains_and_not_two_alike_children() -> None:
    # Not a vacuous shortcut: a list is walked by it, a node with two alike children is not.
    lst = _RDFC(_quads_of(_equal_list(30), False, False), "sha256", 10**9)
    lst.run(lst.first_degree_groups())
    assert lst.planned > 0 and lst.work == 0
    fork = "".join(f"_:r{i} <http://e/p> _:a{i} .\n_:r{i} <http://e/p> _:b{i} .\n"
                   f'_:a{i} <http://e/v> "x" .\n_:b{i} <http://e/v> "x" .\n' for i in range(2))
    state = _RDFC(_quads_of(fork, False, False), "sha256", 10**9)
    state.run(state.first_degree_groups())
    assert state.work > 0


def test_a_list_walked_both_ways_matches_pyoxigraph() -> None:
    text = _equal_list(120, '"same"')
    expected = _canonical_from_quads(_quads_of(text, False, False), "sha256", None, "pyoxigraph")
    assert canonical_nquads(text) == expected
