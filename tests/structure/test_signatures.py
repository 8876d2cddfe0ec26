"""No public function takes more than 8 parameters besides ``options`` and ``reading``.

The canonicalization options travel as one :class:`urnld.stream.CanonOptions` and the reading
options as one :class:`urnld.files.ReadingOptions`; a long keyword list is how the two used to
drift apart between the library, the command line and Dask. The functions listed in
:data:`OLDER` still carry their released keyword lists beside ``options=``/``reading=``
(deprecated aliases); the list may only shrink: a function that loses its long list must leave
it, and no function may join it.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import pkgutil
from collections.abc import Iterator
from typing import Any

import urnld

LIMIT = 8
EXEMPT = {"self", "cls", "options", "reading"}

# Released signatures kept whole for their callers (each takes options= or an equivalent
# value too); the count is today's.
OLDER = {
    "urnld.dask.canonicalize_files": 20,  # options=, reading= given
    "urnld.dask.check_files": 10,  # reading= given
    "urnld.endpoint.canonicalize_endpoint": 20,
    "urnld.rdf.canonicalize": 12,  # options= given
    "urnld.rdf.canonicalize_document": 10,  # options= given; urnld.files.canonicalize
    "urnld.report.CheckReport.record_counts": 9,
    "urnld.stream.canonicalize_file": 22,  # options= given; urnld.files.canonicalize
    "urnld.stream.canonicalize_lines": 15,  # options= given
    "urnld.stream.check_file": 13,
}


def _public_modules() -> Iterator[Any]:
    yield urnld
    for info in pkgutil.walk_packages(urnld.__path__, "urnld."):
        if any(part.startswith("_") for part in info.name.split(".")[1:]):
            continue
        try:
            yield importlib.import_module(info.name)
        except ImportError:  # an optional dependency missing: nothing of it is public here
            continue


def _counted(fn: Any) -> int:
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return 0
    return sum(1 for p in params if p.name not in EXEMPT
               and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD))


def _functions() -> dict[str, int]:
    """Every public function and method by the first public name it has (a function
    re-exported by a higher package is counted once)."""
    found: dict[str, int] = {}
    seen: set[int] = set()

    def add(name: str, fn: Any) -> None:
        if id(fn) not in seen:
            seen.add(id(fn))
            found[name] = _counted(fn)

    for module in _public_modules():
        for name in getattr(module, "__all__", ()):
            obj = getattr(module, name, None)
            if inspect.isfunction(obj):
                add(f"{module.__name__}.{name}", obj)
            elif inspect.isclass(obj) and obj.__module__.startswith("urnld"):
                for meth_name, meth in vars(obj).items():
                    if meth_name.startswith("_") and meth_name != "__init__":
                        continue
                    if meth_name == "__init__" and dataclasses.is_dataclass(obj):
                        continue  # a value's fields (CanonOptions is the options value)
                    if inspect.isfunction(meth):
                        add(f"{module.__name__}.{name}.{meth_name}", meth)
    return found


def test_no_public_function_takes_more_than_eight_parameters() -> None:
    found = _functions()
    assert len(found) > 100  # the walk reached the public surface
    over = {name: n for name, n in found.items() if n > LIMIT}
    assert {k: v for k, v in over.items() if k not in OLDER} == {}
    for name, count in OLDER.items():
        assert found.get(name) == count, f"{name}: {found.get(name)} parameters now, update OLDER"
