"""The package's structure, read from the source with ``ast``.

* Every import points down the layers: core leaves → namespaces → core → term rule →
  stream / jsonld / xmlns → read → rdf → shacl / dask → cli (imports under ``if TYPE_CHECKING:`` are for types
  only and do not count).
* No module imports a private (``_``-prefixed) name from another package.
* The modules' top-level imports form no loop.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src"
PKG = SRC / "urnld"

# Layer of each first-level name under urnld (modules and packages); higher may import lower.
# The core is two floors: its leaves (errors, findings, normalizers, grammar, the file layer,
# reports), which the namespace rules build on, and the URN type and checks, which use them.
_LAYERS = {
    "errors": 0, "findings": 0, "_normalizers": 0, "_abnf": 0, "_parser": 0, "_display": 0,
    "registry": 0, "_files": 0, "report": 0, "_encode": 0, "_params": 0, "_bases": 0,
    "_severity": 0, "_config": 0,  # the validation policy: severity overrides, project file
    "_accel": 0,
    "namespaces": 1,
    "": 2, "_urn": 2, "_check": 2, "_extract": 2, "_native": 2, "_json": 2, "resolvers": 2,
    "_functional": 2, "_schema": 2, "_legacy": 2,
    "_terms": 3, "_links": 3,  # the statements the canonicalization modes add
    # what the urnfn: SPARQL functions compute, and the query rewriter: no RDF library
    "_urnfn": 3, "_query_rewrite": 3,
    "stream": 4, "jsonld": 4, "xmlns": 4,
    # glue to other libraries' types (pydantic, rfc3986/rdflib URIs, Hypothesis)
    "pydantic": 4, "interop": 4, "strategies": 4,
    "oxigraph": 4,  # urnfn: functions and canonical queries for pyoxigraph (no rdflib)
    "read": 5,  # the one RDF reader: rdflib's parsers, urnld.jsonld's offline loader
    "rdf": 6,  # URNGraph.parse and SPARQL read through urnld.read
    "shacl": 7,  # reads RDF through urnld.read and urnld.rdf
    "dask": 7,  # runs the stream passes
    "html": 7,  # renders report documents (plain dicts) for the command line; stdlib only
    "cli": 8,
    "__main__": 8,  # `python -m urnld` runs the command line
}
# Imports that point up on purpose, each deferred to call time: the ISBN and public-identifier
# converters accept a URN value as well as a string.
_UPWARD_OK = {
    ("urnld.namespaces.isbn", "urnld._urn"),
    ("urnld.namespaces.publicid", "urnld._urn"),
}


def _modules() -> dict[str, Path]:
    out = {}
    for path in sorted(PKG.rglob("*.py")):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


MODULES = _modules()


def _package(module: str, path: Path) -> str:
    return module if path.name == "__init__.py" else module.rpartition(".")[0]


def _layer(module: str) -> int:
    parts = module.split(".")
    return _LAYERS[parts[1] if len(parts) > 1 else ""]


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(module: str, path: Path, *, top_level_only: bool = False):
    """Yield ``(line, imported module, names or None)`` for urnld imports of *module*."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = _package(module, path)

    def visit(nodes, top):
        for node in nodes:
            if isinstance(node, ast.If) and _is_type_checking(node):
                continue
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.split(".")[0] == "urnld":
                        yield node.lineno, alias.name, None
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")
                    base = base[: len(base) - (node.level - 1)]
                    target = ".".join(base + ([node.module] if node.module else []))
                else:
                    target = node.module or ""
                if target.split(".")[0] == "urnld":
                    names = [a.name for a in node.names]
                    # `from urnld.stream import _run`: the names may be submodules.
                    subs = [n for n in names if f"{target}.{n}" in MODULES]
                    for n in subs:
                        yield node.lineno, f"{target}.{n}", None
                    rest = [n for n in names if n not in subs]
                    if rest or not subs:
                        yield node.lineno, target, rest
            if top_level_only and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            children = [c for c in ast.iter_child_nodes(node) if isinstance(c, ast.stmt)]
            yield from visit(children, top)

    yield from visit(tree.body, True)


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_point_down_the_layers(module):
    mine = _layer(module)
    for line, target, _names in _imports(module, MODULES[module]):
        theirs = _layer(target)
        if (module, target) in _UPWARD_OK:
            continue
        assert theirs <= mine, f"{module}:{line} imports {target} from a higher layer"


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_private_name_crosses_a_package(module):
    path = MODULES[module]
    package = _package(module, path)
    for line, target, names in _imports(module, path):
        target_path = MODULES.get(target)
        target_package = _package(target, target_path) if target_path else target
        if target_package == package:
            continue
        private = [n for n in names or () if n.startswith("_") and not n.endswith("__")]
        assert not private, f"{module}:{line} imports private {private} from {target}"


def test_no_import_loop():
    graph: dict[str, set[str]] = {m: set() for m in MODULES}
    for module, path in MODULES.items():
        for _line, imported, _names in _imports(module, path):
            # A name imported from a module that is not one of ours: its nearest package.
            target = imported
            while target not in MODULES and "." in target:
                target = target.rpartition(".")[0]
            if target in MODULES and target != module:
                graph[module].add(target)
    # A package's __init__ importing its own submodules is how packages are built, and each
    # submodule importing its package's siblings goes through it: keep only edges that do not
    # go from a submodule up to its own parent package.
    for module, targets in graph.items():
        targets -= {t for t in targets if module.startswith(t + ".")}
    seen: dict[str, int] = {}
    stack: list[str] = []

    def visit(m: str) -> None:
        seen[m] = 1
        stack.append(m)
        for t in sorted(graph[m]):
            if seen.get(t) == 1:
                cycle = [*stack[stack.index(t):], t]
                pytest.fail("import loop: " + " -> ".join(cycle))
            if t not in seen:
                visit(t)
        stack.pop()
        seen[m] = 2

    for m in sorted(graph):
        if m not in seen:
            visit(m)


def test_the_checks_see_imports():
    # The walkers above must find what they look for, or the tests pass vacuously.
    found = list(_imports("urnld.stream._passes", MODULES["urnld.stream._passes"]))
    targets = {t for _l, t, _n in found}
    assert {"urnld._terms", "urnld.stream._grammar", "urnld.report"} <= targets
    assert _layer("urnld.cli._check") > _layer("urnld.stream") > _layer("urnld._terms")
    assert _layer("urnld._terms") > _layer("urnld._urn") > _layer("urnld.namespaces")
