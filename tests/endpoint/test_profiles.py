"""Store quirks as one profile per product, chosen once per endpoint: on Oxigraph and Virtuoso
(the servers of conftest.py), each profile field does what it says, and the in-place runs ask
the profile, never the product's name."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest
from rdflib import Graph, Literal, URIRef

from urnld.endpoint import (
    OXIGRAPH,
    STANDARD,
    VIRTUOSO,
    Endpoint,
    StoreProfile,
    canonicalize_endpoint,
    check_endpoint,
    profile_for,
)
from urnld.errors import URNError
from urnld.stream import CanonOptions

from .conftest import Store

SRC = Path(__file__).resolve().parents[2] / "src" / "urnld"


def test_the_profile_is_chosen_from_the_server_header(store: Store) -> None:
    with Endpoint(store.query_url) as e:
        profile = e.profile
        assert e.profile is profile  # chosen once
    expected = {"virtuoso": VIRTUOSO, "oxigraph": OXIGRAPH}.get(store.vendor)
    if expected is not None:
        assert profile == expected


def test_a_given_profile_wins(store: Store) -> None:
    with Endpoint(store.query_url, profile=STANDARD) as e:
        assert e.profile is STANDARD


def test_profiles_by_name() -> None:
    assert profile_for("Virtuoso") is VIRTUOSO
    assert profile_for(" oxigraph ") is OXIGRAPH
    assert profile_for("Apache-Jena-Fuseki") is STANDARD
    assert VIRTUOSO.union_default and not OXIGRAPH.union_default
    with pytest.raises(ValueError, match="default_graph"):
        StoreProfile("x", default_graph="merged")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="max_terms"):
        StoreProfile("x", max_terms=0)


def test_every_field_is_asked_by_the_runs() -> None:
    """A field no run reads would be a quirk written down and never honoured."""
    code = "\n".join(p.read_text(encoding="utf-8") for p in (SRC / "endpoint").glob("*.py")
                     if p.name != "_profile.py")
    code += (SRC / "shacl" / "_remote.py").read_text(encoding="utf-8")
    # default_graph is read through its property union_default
    asked_as = {"default_graph": "union_default"}
    for field in dataclasses.fields(StoreProfile):
        if field.name == "name":
            continue
        name = asked_as.get(field.name, field.name)
        assert re.search(rf"profile\.{name}\b", code), field.name


def test_no_run_asks_for_a_product_by_name() -> None:
    for path in [*(SRC / "endpoint").glob("*.py"), SRC / "shacl" / "_remote.py"]:
        if path.name == "_profile.py":
            continue
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"""(vendor|virtuoso)\s*(==|!=|in|not in)\s*[("']""", text), path
        assert ".virtuoso" not in text, path


def _data() -> Graph:
    g = Graph()
    g.add((URIRef("URN:ISBN:0-395-36341-1"), URIRef("http://e/p"), Literal("x")))
    g.add((URIRef("http://e/s"), URIRef("http://e/q"), URIRef("urn:example:a")))
    return g


def test_ask_or_select_give_the_same_answers(store: Store) -> None:
    """A store whose profile says it answers no ASK is asked SELECT … LIMIT 1 instead."""
    store.load(_data())
    with Endpoint(store.query_url) as e:
        profile = e.profile
    patterns = ["{ ?s ?p ?o }", "{ ?s <http://e/nothing> ?o }"]
    graph = "http://e/none"
    patterns.append(f"{{ GRAPH <{graph}> {{ ?s ?p ?o }} }}")
    for ask in (True, False):
        with Endpoint(store.query_url, profile=dataclasses.replace(profile, ask=ask)) as e:
            assert [e.holds(p) for p in patterns] == [True, False, False], ask


def test_a_check_through_select_equals_one_through_ask(store: Store, monkeypatch) -> None:
    """The check asks whether a named graph exists: the same report with ASK or without."""
    from urnld.endpoint import _profile

    store.load(_data())
    first = check_endpoint(store.query_url, graph=None).to_dict()
    name = profile_for(store.vendor).name
    if name in _profile._PROFILES:
        monkeypatch.setitem(_profile._PROFILES, name,
                            dataclasses.replace(_profile._PROFILES[name], ask=False))
    assert check_endpoint(store.query_url, graph=None).to_dict() == first
    with pytest.raises(URNError, match="does not exist or is empty"):
        check_endpoint(store.query_url, graph="http://e/none")


def test_options_reach_the_endpoint_runs(store: Store) -> None:
    """``options=`` gives the endpoint runs what their keywords give, and a policy they do not
    take is refused before the store is asked anything."""
    from urnld import Policy

    store.load(_data())
    a = check_endpoint(store.query_url, literals=True).to_dict()
    b = check_endpoint(store.query_url, options=CanonOptions(literals=True)).to_dict()
    assert a == b
    with pytest.raises(URNError, match="default policy"):
        check_endpoint(store.query_url, options=CanonOptions(policy=Policy(strict=True)))
    with pytest.raises(URNError, match="does not take link"):
        check_endpoint(store.query_url, options=CanonOptions(link=True))
    with pytest.raises(TypeError, match="not both"):
        canonicalize_endpoint(store.query_url, options=CanonOptions(), literals=True,
                              dry_run=True)
    dry = canonicalize_endpoint(store.query_url, options=CanonOptions(literals=True),
                                dry_run=True)
    assert dry.to_dict() == canonicalize_endpoint(store.query_url, literals=True,
                                                  dry_run=True).to_dict()
    assert dry.rewritten == 1
