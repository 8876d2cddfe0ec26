"""The error tree: input errors are URNError (ValueError), environment failures are not; every
class round-trips through pickle (worker processes and Dask send them between processes)."""

from __future__ import annotations

import importlib
import pickle
import pkgutil

import pytest
from pyld.jsonld import JsonLdError

import urnld
from urnld.errors import URNError, URNLDEnvironmentError


def _all_classes() -> set[type[BaseException]]:
    for info in pkgutil.walk_packages(urnld.__path__, "urnld."):
        if info.name.startswith("urnld.dask") or info.name == "urnld.__main__":
            importlib.import_module("urnld.dask._errors")  # the engine needs dask; errors not
            continue
        importlib.import_module(info.name)
    found: set[type[BaseException]] = set()
    todo: list[type[BaseException]] = [URNError, URNLDEnvironmentError]
    while todo:
        cls = todo.pop()
        if cls.__module__.startswith("urnld") and cls not in found:
            found.add(cls)
            todo.extend(cls.__subclasses__())
    return found


def _samples() -> dict[str, BaseException]:
    from urnld._core._check import URNValidationError
    from urnld.dask._errors import DaskJobError, DaskNotInstalled
    from urnld.endpoint._client import ResultCapError
    from urnld.jsonld._errors import (
        CatalogError,
        JsonLdProcessingError,
        URNBaseError,
        URNContextError,
    )
    from urnld.namespaces import NamespacePluginError
    from urnld.namespaces.isbn import ISBNError
    from urnld.namespaces.publicid import PublicIdError
    from urnld.rdf import (
        CanonicalizationTooComplex,
        EndpointBatchError,
        EndpointError,
        NotAURNError,
        RDFCInputError,
    )
    from urnld.read import ReadError, UnsafeXMLError, UnstorableTermError
    from urnld.report import CanonicalizeReport
    from urnld.resolvers import ResolverError, ResolverPluginError
    from urnld.shacl._load import DataError, ShapesError
    from urnld.stream import NTriplesSyntaxError, RDFSyntaxError
    from urnld.xmlns import XMLNamespaceError

    samples: list[BaseException] = [
        URNError("bad"),
        urnld.URNSyntaxError("urn:a b", 5, "space"),
        urnld.URNConversionError("no RFC 2141 form"),
        URNValidationError("urn:isbn:1", urnld.check("urn:isbn:1")),
        urnld.SeverityConfigError("unknown finding code 'x'"),
        urnld.ConfigError("urnld.toml: unknown key(s) 'x'"),
        NotAURNError("http://x", "a URN starts with 'urn:'"),
        NTriplesSyntaxError("a.nt", 3, "not a statement", b"<a> ."),
        RDFSyntaxError("a.ttl", "cannot parse as turtle: Unexpected end of file", 3, 7),
        ISBNError("not an ISBN"),
        PublicIdError("x//y", 1, "bad"),
        XMLNamespaceError("bad xml"),
        ReadError("x.ttl: cannot parse as turtle: at line 1"),
        UnsafeXMLError("x.rdf:1:40: entity declarations are refused in RDF/XML"),
        UnstorableTermError("the term 'http://e/a b' is not RDF 1.1 (Invalid IRI code point)"),
        DataError("data"),
        ShapesError("shapes"),
        URNContextError("ctx"),
        URNBaseError("base"),
        CatalogError("catalog"),
        JsonLdProcessingError(JsonLdError("pyld said no", "jsonld.SyntaxError", None, "x")),
        CanonicalizationTooComplex(10, 4),
        RDFCInputError("unreadable"),
        DaskJobError("job failed", None),
        URNLDEnvironmentError("env"),
        urnld.errors.WorkerError("a worker process died"),
        NamespacePluginError("broken plugin"),
        EndpointError("http://127.0.0.1:7878/query: cannot connect"),
        ResultCapError("http://127.0.0.1:8890/sparql: the store cut the result at 3 rows", 3),
        EndpointBatchError("batch 2 of 3 failed", batch=2, batches_done=1, batches_total=3,
                           report=CanonicalizeReport()),
        DaskNotInstalled("no distributed"),
        urnld.URNEncodingError("ab%C3", 2, "not UTF-8"),
        ResolverError("bad template"),
        ResolverPluginError("broken resolver plugin"),
        urnld.errors.SpellingLimitError("more than 3 distinct URN spellings"),
    ]
    return {type(e).__qualname__: e for e in samples}


SAMPLES = _samples()


def test_every_error_class_has_a_sample():
    names = {c.__qualname__ for c in _all_classes()}
    assert names == set(SAMPLES)


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_pickle_round_trip(name):
    err = SAMPLES[name]
    back = pickle.loads(pickle.dumps(err))
    assert type(back) is type(err)
    assert str(back) == str(err)
    assert {k: v for k, v in vars(back).items() if not k.startswith("_")} == {
        k: v for k, v in vars(err).items() if not k.startswith("_")
    }


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_input_errors_are_value_errors_and_environment_failures_are_not(name):
    err = SAMPLES[name]
    environment = isinstance(err, URNLDEnvironmentError)
    assert isinstance(err, ValueError) is (not environment)
    assert isinstance(err, URNError) is (not environment)
    if environment:
        assert isinstance(err, RuntimeError)


def test_environment_failures():
    from urnld.dask._errors import DaskNotInstalled
    from urnld.namespaces import NamespacePluginError

    for cls in (DaskNotInstalled, NamespacePluginError, urnld.errors.WorkerError):
        assert issubclass(cls, URNLDEnvironmentError)
