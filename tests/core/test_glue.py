"""json_default, the pydantic types, URI glue (urllib, rfc3986, rdflib) and urnfn:resolve."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest
from core_strategies import any_text, valid_urns
from hypothesis import given

import urnld
from urnld import URN
from urnld.interop import to_rfc3986, to_uriref, to_urllib


def test_json_default() -> None:
    u = URN("URN:ISBN:0-395-36341-1?=x=1")
    data = {"u": u, "p": u.q_params, "v": u.typed_nss, "f": urnld.check(str(u))[0],
            "id": URN("urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6").typed_nss}
    out = json.loads(json.dumps(data, default=urnld.json_default))
    assert out["u"] == "URN:ISBN:0-395-36341-1?=x=1"
    assert out["p"] == [["x", "1"]]
    assert out["v"] == {"prefix": "", "group": "0", "registrant": "395", "publication": "36341",
                        "check_digit": "1"}
    assert out["f"]["code"] == "not-canonical"
    assert out["id"] == "f81d4fae-7dec-11d0-a765-00a0c91e6bf6"
    with pytest.raises(TypeError):
        json.dumps({1, 2}, default=urnld.json_default)


def test_cli_parse_json_uses_json_default(capsys: pytest.CaptureFixture[str]) -> None:
    from urnld.cli import main

    assert main(["parse", "--json", "urn:example:a"]) == 0
    assert json.loads(capsys.readouterr().out)[0]["input"] == "urn:example:a"


# -- pydantic ---------------------------------------------------------------------------------

pydantic = pytest.importorskip("pydantic")


def test_import_urnld_does_not_import_pydantic() -> None:
    code = "import sys, urnld; urnld.URN('urn:a1:b'); print('pydantic' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_pydantic_field_types() -> None:
    from urnld.pydantic import CanonicalURNStr, URNStr

    class Record(pydantic.BaseModel):
        plain: URN
        kept: URNStr
        canon: CanonicalURNStr
        maybe: URNStr | None = None

    r = Record(plain="URN:X1:a", kept="URN:ISSN:0259000x", canon="URN:ISSN:0259000x")
    assert r.plain == URN("urn:x1:a") and str(r.plain) == "URN:X1:a"
    assert str(r.kept) == "URN:ISSN:0259000x"
    assert str(r.canon) == "urn:issn:0259-000X"
    assert r.model_dump(mode="json") == {"plain": "URN:X1:a", "kept": "URN:ISSN:0259000x",
                                         "canon": "urn:issn:0259-000X", "maybe": None}
    assert Record.model_validate_json(r.model_dump_json()) == r
    with pytest.raises(pydantic.ValidationError) as info:
        Record(plain="urn:a b:c", kept=5, canon="x")
    assert [e["loc"][0] for e in info.value.errors()] == ["plain", "kept", "canon"]
    schema = Record.model_json_schema()["properties"]
    for name in ("plain", "kept", "canon"):
        assert schema[name]["format"] == "urn"


@given(any_text)
def test_json_schema_pattern_is_the_rfc8141_grammar(text: str) -> None:
    from urnld.pydantic import RFC8141_PATTERN

    assert (re.fullmatch(RFC8141_PATTERN, text) is not None) == urnld.is_valid(text)


@given(valid_urns)
def test_json_schema_pattern_accepts_valid_urns(text: str) -> None:
    from urnld.pydantic import RFC8141_PATTERN

    assert re.fullmatch(RFC8141_PATTERN, text)


# -- URI glue -------------------------------------------------------------------------------


@given(valid_urns)
def test_uri_objects_keep_the_urn(text: str) -> None:
    split = to_urllib(text)
    assert split.scheme == "urn"  # urllib lower-cases the scheme, as RFC 3986 §3.1 allows
    assert split.netloc == ""
    u = URN(text)
    assert split.fragment == (u.f_component or "")
    ref = to_rfc3986(text)
    assert ref.unsplit() == text
    assert str(to_uriref(text)) == text


def test_uri_glue_rejects_non_urns() -> None:
    for fn in (to_urllib, to_rfc3986, to_uriref):
        with pytest.raises(urnld.URNSyntaxError):
            fn("http://example.org/")


# -- SPARQL -----------------------------------------------------------------------------------


def test_sparql_resolve() -> None:
    from rdflib import Graph

    from urnld.rdf import register_functions

    register_functions()
    q = """PREFIX urnfn: <https://w3id.org/urnld/fn#>
    SELECT ?a ?b ?c ?d WHERE {
      BIND(urnfn:resolve(<urn:doi:10.1000/182>) AS ?a)
      BIND(urnfn:resolve("urn:example:x", "https://t.example/{nss}") AS ?b)
      BIND(urnfn:resolve(<urn:example:x>) AS ?c)
      BIND(urnfn:resolve("not a urn") AS ?d)
    }"""
    (row,) = Graph().query(q)
    assert str(row.a) == "https://doi.org/10.1000/182"
    assert str(row.b) == "https://t.example/x"
    assert row.c is None and row.d is None


def test_the_canonical_pydantic_type_runs_the_namespace_check() -> None:
    from typing import Annotated

    from pydantic import BaseModel, ValidationError

    from urnld.pydantic import CanonicalURNStr, URNField, URNStr

    class Book(BaseModel):
        key: CanonicalURNStr

    with pytest.raises(ValidationError, match="nss-check-digit"):
        Book(key="urn:isbn:0-395-36341-2")
    with pytest.raises(ValidationError, match="nid-experimental"):
        Book(key="urn:x-foo:bar")
    assert str(Book(key="URN:ISBN:0-395-36341-1").key) == "urn:isbn:0395363411"

    class Lenient(BaseModel):
        key: Annotated[URN, URNField(canonical=True, check=False)]
        seen: URNStr  # kept as written: syntax only, as before

    lenient = Lenient(key="urn:isbn:0-395-36341-2", seen="urn:x-foo:bar")
    assert (str(lenient.key), str(lenient.seen)) == ("urn:isbn:0395363412", "urn:x-foo:bar")
