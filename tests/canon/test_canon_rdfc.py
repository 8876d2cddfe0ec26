"""RDFC-1.0: the W3C evaluation suite, the poison graph, and the URN-aware digest."""

from __future__ import annotations

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
from urnld.rdf._rdfc_labels import _RDFC, _Issuer

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


def test_a_thousand_long_chain_is_refused_not_crashed():
    # pyoxigraph needs minutes on this shape (N-degree hashing of every link, with an issuer
    # copy as long as the walk at each step); urnld refuses it within its budget instead of
    # raising RecursionError.
    with pytest.raises(CanonicalizationTooComplex):
        digest(_chain(1000))


def _refusal_cost(n: int) -> tuple[float, int]:
    """CPU seconds and peak traced bytes of refusing a chain of *n* blank nodes."""
    import tracemalloc

    text = _chain(n)
    tracemalloc.start()
    start = time.process_time()
    with pytest.raises(CanonicalizationTooComplex):
        # The work budget alone (a small one: the property holds for any), so the machine's
        # speed is out of it.
        digest(text, max_time=None, max_work=30_000)
    cpu = time.process_time() - start
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return cpu, peak


@pytest.mark.slow
def test_refusal_costs_the_same_at_any_size():
    # The N-degree budget no longer grows with the input and charges the identifiers each
    # issuer copy holds: a 20,000-link chain (a 600 KB file) used to take minutes and GBs.
    # Compared with a 1,000-link chain in the same run: reading 20x the input costs more, the
    # refusal itself no more.
    small_cpu, small_peak = _refusal_cost(1_000)
    big_cpu, big_peak = _refusal_cost(20_000)
    assert big_cpu <= 3 * small_cpu + 0.5, (small_cpu, big_cpu)
    # Memory: the input (20x) is read whole, so the peak grows with it (7-9x measured, as the
    # small run's peak moves with what the process allocated before); copies as long as the
    # path walked grew it quadratically (400x).
    assert big_peak <= 12 * small_peak, (small_peak, big_peak)


def test_the_wall_clock_bound_refuses_too():
    with pytest.raises(CanonicalizationTooComplex, match=r"more than 0\.001 s"):
        digest(_chain(2_000), max_time=0.001, max_work=10**9)


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
