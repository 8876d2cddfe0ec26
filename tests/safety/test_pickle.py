"""Every public exception class of every urnld package pickles and unpickles with its attributes.

A worker process (``-j N``, ``multiprocessing.Pool``, Dask) sends an exception back to its parent
pickled; one that cannot be unpickled makes ``Pool.map`` hang for ever.
"""

from __future__ import annotations

import importlib
import inspect
import multiprocessing
import pickle
import pkgutil
from typing import Any

import pytest

import urnld
from urnld.findings import Finding, Severity


def _public_modules() -> list[str]:
    names = ["urnld"]
    for info in pkgutil.walk_packages(urnld.__path__, "urnld."):
        if any(part.startswith("_") for part in info.name.split(".")):
            continue
        names.append(info.name)
    return names


def _public_exceptions() -> dict[str, type[BaseException]]:
    found: dict[str, type[BaseException]] = {}
    for name in _public_modules():
        module = importlib.import_module(name)
        for attr in getattr(module, "__all__", ()):
            obj = getattr(module, attr)
            if inspect.isclass(obj) and issubclass(obj, BaseException):
                found.setdefault(f"{obj.__module__}.{obj.__qualname__}", obj)
    return found


EXCEPTIONS = _public_exceptions()


def _jsonld_error() -> Any:
    from pyld.jsonld import JsonLdError

    return JsonLdError("Could not expand.", "jsonld.SyntaxError", {"x": 1}, "invalid IRI mapping")


# Sample constructor arguments by parameter name. A new exception class with a parameter not
# listed here fails the test below until a sample is added (so no class is left untested).
SAMPLES: dict[str, Any] = {
    "text": "urn:isbn:1",
    "position": 4,
    "reason": "bad thing",
    "findings": [Finding("nss-invalid", Severity.ERROR, "bad", (0, 3), "isbn: RFC 3187")],
    "message": "something failed",
    "report": {"statements": 3},
    "detail": "pip install 'urnld[dask]'",
    "hazards": (),
    "cause": None,  # built lazily (pyld)
    "max_work": 1000,
    "blank_nodes": 12,
    "max_time": 2.5,
    "planned": 30_000_000,
    "cap": 100_000,
    "source": "dump.nt",
    "line": 7,
    "column": 12,
    "statement": 40,
    "batch": 3,
    "batches_done": 2,
    "batches_total": 9,
}


def _instance(cls: type[BaseException]) -> BaseException:
    params = [
        p for p in inspect.signature(cls.__init__).parameters.values()
        if p.name != "self" and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
    ]
    if not params:
        return cls("some message")
    kwargs = {}
    for p in params:
        if p.name == "cause":
            kwargs[p.name] = _jsonld_error()
        elif p.name == "hazards":
            from urnld.jsonld import Hazard

            kwargs[p.name] = (Hazard("invalid-urn", "'urn:bar' is not a valid URN"),)
        elif "CanonicalizeReport" in str(p.annotation):
            from urnld.report import CanonicalizeReport

            kwargs[p.name] = CanonicalizeReport()
        elif "bytes" in str(p.annotation):
            kwargs[p.name] = b"<a> <b> ."
        else:
            assert p.name in SAMPLES, f"add a sample for {cls.__name__}({p.name}=…)"
            kwargs[p.name] = SAMPLES[p.name]
    return cls(**kwargs)


def _value(v: Any) -> Any:
    # Reports have no value repr: compare their JSON form.
    return v.to_dict() if hasattr(v, "to_dict") else repr(v)


def _state(e: BaseException) -> tuple[Any, ...]:
    attrs = {k: _value(v) for k, v in vars(e).items()} if hasattr(e, "__dict__") else {}
    return type(e), str(e), repr(e.args), attrs


def test_the_enumeration_finds_the_classes_of_every_package():
    names = {c.__name__ for c in EXCEPTIONS.values()}
    # One per package at least; the whole list is larger.
    assert {
        "URNError", "URNSyntaxError", "URNValidationError", "PublicIdError", "NotAURNError",
        "CanonicalizationTooComplex", "RDFCInputError", "JsonLdProcessingError",
        "URNContextError", "NTriplesSyntaxError", "DaskJobError", "XMLNamespaceError",
    } <= names


@pytest.mark.parametrize("cls", list(EXCEPTIONS.values()), ids=list(EXCEPTIONS))
def test_public_exception_round_trips_through_pickle(cls):
    e = _instance(cls)
    # Protocols 2+ (multiprocessing uses the default, 4 or 5).
    for protocol in range(2, pickle.HIGHEST_PROTOCOL + 1):
        back = pickle.loads(pickle.dumps(e, protocol=protocol))
        assert _state(back) == _state(e)


def _raise_validation_error(_x: int) -> None:
    urnld.validate("urn:isbn:0-395-36341-2")  # wrong check digit: URNValidationError


def test_a_pool_task_raising_a_urnld_error_reports_it_instead_of_hanging():
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(1) as pool:
        result = pool.map_async(_raise_validation_error, [1])
        with pytest.raises(urnld.URNValidationError):
            result.get(timeout=60)
