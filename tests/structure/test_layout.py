"""The package's structure, read from the source with ``ast``.

* Every import points down the floors, read from the folders (:data:`FLOORS`): core →
  namespaces → kernel → stream / jsonld / xmlns / endpoint → read → rdf → shacl / dask / html →
  cli (imports under ``if TYPE_CHECKING:`` are for types only and do not count).
* No module imports a private (``_``-prefixed) module or name from another package: a package
  is used through its face (its ``__init__``).
* The top level of ``urnld`` holds public modules only.
* The modules' top-level imports form no loop.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src"
PKG = SRC / "urnld"

# The floors, bottom up. Each first-level folder (package) or public module of urnld stands on
# one floor; a module may import from its own floor and the floors below. The top level holds
# public modules only; private code lives in the packages: the URN core in ``_core`` and the
# linked-data kernel in ``_kernel``.
FLOORS: tuple[tuple[str, ...], ...] = (
    # 0 the URN core: the value type, parser, check, policy, encoders, the namespace-rule
    #   registry and the accelerator loader (``_core``), with the leaves they report through
    ("", "_core", "errors", "findings", "registry"),
    # 1 the namespace rules, and the resolver table built on URNs
    ("namespaces", "resolvers"),
    # 2 the linked-data kernel: term rule, links, bases, file layer, syntax table, route, reports
    ("_kernel", "report"),
    # 3 integrations that need no RDF library: streaming, JSON-LD, XML namespaces, endpoints,
    #   glue to other libraries' types (pydantic, rfc3986 URIs, Hypothesis)
    ("stream", "jsonld", "xmlns", "endpoint", "pydantic", "interop", "strategies"),
    # 4 the one RDF reader (rdflib's parsers, urnld.jsonld's offline loader)
    ("read",),
    # 5 rdflib: terms, store, SPARQL functions, graph canonicalization; pyoxigraph functions
    ("rdf", "oxigraph"),
    # 6 what reads RDF through urnld.read / urnld.rdf, or renders reports; the file jobs
    #   (urnld.files: the route's engines run for one file, as the command runs them)
    ("shacl", "dask", "html", "files"),
    # 7 the command line
    ("cli", "__main__"),
)
_LAYERS = {name: floor for floor, names in enumerate(FLOORS) for name in names}
# Imports that point up on purpose, each deferred to call time: URN.locators() is a shortcut
# to the resolver table, which is built on URNs, and find_urns(locators=True) reads locators
# back through the same table.
_UPWARD_OK = {
    ("urnld._core._urn_views", "urnld.resolvers"),
    ("urnld._core._extract", "urnld.resolvers"),
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


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_private_module_crosses_a_package(module):
    path = MODULES[module]
    package = _package(module, path)
    for line, target, _names in _imports(module, path):
        target_path = MODULES.get(target)
        if target_path is None or target_path.name == "__init__.py":
            continue
        if target.rpartition(".")[2].startswith("_") and _package(target, target_path) != package:
            pytest.fail(f"{module}:{line} imports {target}, a private module of another package")


def test_top_level_holds_public_modules_only():
    private = sorted(p.name for p in PKG.glob("_*.py") if p.name not in ("__init__.py", "__main__.py"))
    assert private == []
    # and every first-level name has a floor
    names = {p.stem for p in PKG.glob("*.py")} | {p.name for p in PKG.iterdir() if (p / "__init__.py").exists()}
    names = {"" if n == "__init__" else n for n in names}
    assert names <= set(_LAYERS), sorted(names - set(_LAYERS))


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
    assert {"urnld._kernel", "urnld.stream._grammar", "urnld.report"} <= targets
    assert _layer("urnld.cli._check") > _layer("urnld.stream") > _layer("urnld._kernel._terms")
    assert _layer("urnld._kernel._terms") > _layer("urnld.namespaces") > _layer("urnld._core._urn")
    # a private module of another package is what the private-module check looks for
    assert any(t.rpartition(".")[2].startswith("_") for _l, t, _n in found)
