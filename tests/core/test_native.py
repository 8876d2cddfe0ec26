"""URN.build and percent decoding, q/r parameters, typed NSS views, the interop constructors."""

from __future__ import annotations

import contextlib
import subprocess
import sys
import uuid

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import urnld
from urnld import (
    URN,
    Params,
    URNEncodingError,
    URNError,
    URNValidationError,
    decode_nss,
    encode_nss,
)
from urnld.namespaces import NamespaceRule, register
from urnld.namespaces.views import EPC, ISBN, ISSN, NBN, OID, IETFName, LexName, SCIMName
from urnld.strategies import near_misses, respellings, valid_urns

# NIDs without a canonical rule of their own: build() keeps the encoded NSS as it is.
GENERIC_NIDS = st.sampled_from(["example", "foo", "my-ns", "x1"])


# -- 1. build / decode ------------------------------------------------------------------------


@given(GENERIC_NIDS, st.text(min_size=1))
def test_build_decode_round_trip_for_any_text(nid: str, s: str) -> None:
    """decode_nss(URN.build(n, s).nss) == s for every str with a UTF-8 form; else a clear error."""
    try:
        s.encode("utf-8")
    except UnicodeEncodeError as e:
        with pytest.raises(URNEncodingError) as info:
            URN.build(nid, s)
        assert info.value.position == e.start
        return
    u = URN.build(nid, s)
    assert decode_nss(u.nss) == s
    assert u.nss_decoded == s
    assert u.parts[2:] == (None, None, None)  # nothing leaked into a component
    assert u.is_canonical


@given(st.text(min_size=1), st.text(min_size=1), st.text(min_size=1), st.text())
def test_every_part_round_trips(nss: str, r: str, q: str, f: str) -> None:
    try:
        u = URN.build("example", nss, r=r, q=q, f=f)
    except URNEncodingError as e:
        assert any(0xD800 <= ord(c) <= 0xDFFF for c in (nss + r + q + f))
        assert e.position >= 0
        return
    assert u.nss_decoded == nss
    # every part's decoded view, and the public per-part codecs (issue 38: were private)
    assert (u.r_decoded, u.q_decoded, u.f_decoded) == (r, q, f)
    for part, text, written in (("r_component", r, u.r_component),
                                ("q_component", q, u.q_component),
                                ("f_component", f, u.f_component)):
        assert urnld.encode_component(text, part) == written
        assert urnld.decode_component(written) == text


def test_decoded_views_of_absent_components_are_none() -> None:
    u = URN("urn:example:a")
    assert (u.r_decoded, u.q_decoded, u.f_decoded) == (None, None, None)
    assert URN("urn:example:a?+%C3%A9?=x%3Dy#").r_decoded == "é"
    assert URN("urn:example:a?+%C3%A9?=x%3Dy#").q_decoded == "x=y"


@given(st.text())
def test_decode_is_total(s: str) -> None:
    """Any str decodes or raises URNEncodingError pointing at a '%'."""
    try:
        decode_nss(s)
    except URNEncodingError as e:
        assert s[e.position] == "%"


def test_build_examples() -> None:
    # RFC 8141 §2.2: software that knows a namespace's rules constructs the URN; the ISBN is
    # the one the URN issue names, its canonical form per RFC 3187 §5.
    assert str(URN.build("isbn", "978-0-14-143951-8")) == "urn:isbn:9780141439518"
    assert str(URN.build("example", "/a?b#c")) == "urn:example:%2Fa%3Fb%23c"
    assert str(URN.build("example", "100%")) == "urn:example:100%25"
    assert str(URN.build("Example", "é")) == "urn:example:%C3%A9"
    assert encode_nss("a:b@c/d") == "a:b@c/d"  # pchar and inner "/" stay
    with pytest.raises(URNError):
        URN.build("example", "")  # RFC 8141: the NSS has at least one character
    with pytest.raises(URNError):
        URN.build("a", "x")  # NID of one character
    with pytest.raises(URNEncodingError) as info:
        URN.build("example", "ab\udc80")
    assert info.value.position == 2


def test_decode_errors_are_positioned() -> None:
    with pytest.raises(URNEncodingError) as info:
        _ = URN("urn:example:ok%E2%82").nss_decoded  # truncated 3-byte sequence
    assert info.value.position == 2
    with pytest.raises(URNEncodingError) as info:
        decode_nss("a%80")  # a lone continuation byte
    assert info.value.position == 1
    assert isinstance(info.value, ValueError)
    assert URN("urn:example:%E2%82%AC").nss_decoded == "€"


# -- 2. parameters ------------------------------------------------------------------------------


def test_params_read_in_order_with_repeats() -> None:
    # RFC 8141 §2.3.2's own example q-component, plus repeats and a bare key.
    u = URN("urn:example:weather?=op=map&lat=39.56&lon=-104.85&datetime=1969-07-21T02:56:15Z")
    assert u.q_params.get("op") == "map"
    assert u.q_params.keys() == ("op", "lat", "lon", "datetime")
    u = URN("urn:example:a?+x=1&x=2&flag?=k=v%26w")
    assert u.r_params == (("x", "1"), ("x", "2"), ("flag", None))
    assert u.r_params.getall("x") == ("1", "2")
    assert u.q_params == (("k", "v&w"),)
    assert URN("urn:example:a").q_params == ()
    assert isinstance(u.q_params, Params)


pairs = st.lists(st.tuples(st.text(), st.none() | st.text()), min_size=1, max_size=5)


@given(pairs, pairs)
def test_replace_params_round_trips(q: list[tuple[str, str | None]], r: list[tuple[str, str | None]]) -> None:
    base = URN("urn:example:a#f")
    try:
        u = base.replace(q_params=q, r_params=r)
    except URNEncodingError:
        assert any(0xD800 <= ord(c) <= 0xDFFF for k, v in q + r for c in k + (v or ""))
        return
    except URNError:
        # Only one empty key without "=" gives an empty component, which RFC 8141 forbids.
        assert q == [("", None)] or r == [("", None)]
        return
    assert u.q_params == tuple(q)
    assert u.r_params == tuple(r)
    assert u.f_component == "f"


def test_replace_params_removes_and_refuses_both() -> None:
    u = URN("urn:example:a?=x=1")
    assert str(u.replace(q_params=[])) == "urn:example:a"
    assert str(u.replace(q_params={"lang": "en"})) == "urn:example:a?=lang=en"
    with pytest.raises(TypeError):
        u.replace(q_params={}, q_component="y")


# -- 4. typed NSS -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "view"),
    [
        # RFC 4122 §3 example
        ("urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6", uuid.UUID("f81d4fae-7dec-11d0-a765-00a0c91e6bf6")),
        # RFC 3187 §5 example; its groups per the International ISBN Agency ranges
        ("URN:ISBN:0-395-36341-1", ISBN("", "0", "395", "36341", "1")),
        ("urn:isbn:978-0-14-143951-8", ISBN("978", "0", "14", "143951", "8")),
        # RFC 3044 §5 example
        ("URN:ISSN:0259-000X", ISSN("0259000", "X")),
        # RFC 8458 §4.2 / DNB example
        ("urn:nbn:de:bvb:19-146642", NBN("de", ("bvb", "19"), "146642")),
        ("urn:nbn:se:uu:diva-3475", NBN("se", ("uu", "diva"), "3475")),
        # RFC 2648 §2 and RFC 3553 §3 examples
        ("urn:ietf:rfc:2648", IETFName("rfc", ("2648",))),
        ("urn:ietf:params:xml:ns:netconf:base:1.0", IETFName("params", ("xml", "ns", "netconf", "base", "1.0"))),
        # RFC 3061 §2 example
        ("urn:oid:1.3.6.1", OID((1, 3, 6, 1))),
        # GS1 Tag Data Standard example SGTIN
        ("urn:epc:id:sgtin:0614141.112345.400", EPC("id", "sgtin", ("0614141", "112345", "400"))),
        # RFC 9676 §2 example
        ("urn:lex:eu:commission:directive:2010-03-09;2010-19-eu",
         LexName("eu", (), ("commission", "directive", "2010-03-09;2010-19-eu"))),
    ],
)
def test_typed_nss_of_standard_examples(text: str, view: object) -> None:
    u = URN(text)
    assert u.typed_nss == view
    assert str(URN.from_parts(u.canonical().nid, str(view))) == u.assigned_key


def test_typed_nss_details() -> None:
    # RFC 7643 §3 / §8.7.1 schema URNs and RFC 7644 §3.4.2 message URN.
    assert URN("urn:ietf:params:scim:schemas:core:2.0:User").typed_nss.scim == SCIMName(
        "schemas", "core", "2.0", "User")
    assert URN("urn:ietf:params:scim:schemas:extension:enterprise:2.0:User").typed_nss.scim == \
        SCIMName("schemas", "extension:enterprise", "2.0", "User")
    assert URN("urn:ietf:params:scim:api:messages:2.0:ListResponse").typed_nss.scim.resource == \
        "ListResponse"
    assert URN("urn:ietf:rfc:2648").typed_nss.number == 2648
    assert URN("urn:ietf:rfc:2648").typed_nss.scim is None
    v = URN("urn:isbn:0-8044-2957-x").typed_nss
    assert (v.isbn13, v.isbn10, v.hyphenated) == ("9780804429573", "080442957X", "0-8044-2957-X")
    assert URN("urn:isbn:9791234567896").typed_nss.isbn10 is None
    assert URN("urn:example:x").typed_nss is None  # no rule, no view
    with pytest.raises(URNValidationError, match="nss-check-digit"):
        _ = URN("urn:isbn:0-395-36341-2").typed_nss
    with pytest.raises(URNValidationError, match="nss-invalid"):
        _ = URN("urn:oid:1.03").typed_nss


def test_plugins_add_their_own_views(monkeypatch: pytest.MonkeyPatch) -> None:
    import urnld._core._rules as ns

    # The registry is process-wide: give this test its own copy, restored afterwards.
    for name in ("_registered", "_cache"):
        monkeypatch.setattr(ns, name, dict(getattr(ns, name)))

    class Point(NamespaceRule):
        nid = "test-point"

        def typed_nss(self, nss: str) -> tuple[int, int]:
            x, y = nss.split(",")
            return (int(x), int(y))

    register(Point(), replace=True)
    assert URN("urn:test-point:3,4").typed_nss == (3, 4)


@settings(max_examples=200)
@given(valid_urns())
def test_typed_nss_of_a_canonical_urn_rebuilds_it(text: str) -> None:
    u = URN(text)
    assert u.is_canonical
    view = u.typed_nss
    if view is not None:
        assert str(URN.from_parts(u.nid, str(view))) == text


@settings(max_examples=200)
@given(near_misses())
def test_near_misses_raise_their_code(miss) -> None:  # type: ignore[no-untyped-def]
    codes = [f.code for f in urnld.check(miss.text) if f.severity == "error"]
    assert miss.code in codes, (miss, codes)


@settings(max_examples=200)
@given(valid_urns().flatmap(lambda t: st.tuples(st.just(t), respellings(t))))
def test_respellings_are_equivalent(pair: tuple[str, str]) -> None:
    text, spelling = pair
    assert urnld.canonical(spelling) == text
    assert urnld.equivalent(spelling, text)


# -- 6. interop constructors --------------------------------------------------------------------


def test_from_constructors() -> None:
    assert URN.from_uuid(uuid.UUID("F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6")) == URN(
        "urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6")
    assert str(URN.from_oid((1, 3, 6, 1))) == "urn:oid:1.3.6.1"
    assert str(URN.from_isbn("0-395-36341-1")) == "urn:isbn:0395363411"
    assert str(URN.from_issn("0259000x")) == "urn:issn:0259-000X"
    for bad, call in [("nope", URN.from_uuid), ("1.03", URN.from_oid), ("1..2", URN.from_oid),
                      ("0-395-36341-2", URN.from_isbn), ("0259-0001", URN.from_issn),
                      ("", URN.from_isbn)]:
        with pytest.raises(URNError):
            call(bad)
    with pytest.raises(URNError):
        URN.from_oid([1, -2])


@given(st.uuids())
def test_from_uuid_is_canonical_and_typed(u: uuid.UUID) -> None:
    urn = URN.from_uuid(u)
    assert urn.is_canonical and urn.typed_nss == u


@given(st.text())
def test_constructors_are_total(s: str) -> None:
    for call in (URN.from_uuid, URN.from_oid, URN.from_isbn, URN.from_issn):
        with contextlib.suppress(URNError):
            call(s)


# -- 5. pattern matching --------------------------------------------------------------------------


def test_match_on_parts() -> None:
    match URN("urn:isbn:0395363411"):
        case URN(nid="isbn", nss=n):
            assert n == "0395363411"
        case _:
            pytest.fail("no match")
    match URN("urn:example:a#f"):
        case URN("example", nss, None, None, f):
            assert (nss, f) == ("a", "f")
        case _:
            pytest.fail("no positional match")


def test_core_stays_stdlib_only() -> None:
    """The new API pulls in no third-party code, and `import urnld` not even uuid or tomllib."""
    code = (
        "import sys, urnld\n"
        "lazy = sorted(m for m in ('uuid', 'tomllib', 'pydantic', 'hypothesis') if m in sys.modules)\n"
        "u = urnld.URN.build('example', 'é?')\n"
        "u.q_params; u.nss_decoded; urnld.URN('urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6').typed_nss\n"
        "urnld.URN('urn:ietf:rfc:2141').resolve(); urnld.URN('urn:oid:1.2').typed_nss\n"
        "import json; json.dumps(u, default=urnld.json_default)\n"
        "heavy = ('rdflib', 'pyld', 'pyshacl', 'pyoxigraph', 'stdnum', 'dask', 'pydantic', 'rfc3986', 'hypothesis')\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in heavy)\n"
        "print(','.join(lazy + bad))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert proc.stdout.strip() == ""


# -- 7. functional equivalence (the relation; the canonicalization modes are not built) -------


@settings(max_examples=200)
@given(valid_urns("isbn"))
def test_functional_equivalence_of_isbns_is_symmetric(text: str) -> None:
    u = URN(text)
    others = u.functional_equivalents()
    assert all(o.is_canonical and not o.equivalent(u) for o in others)
    nids = [o.nid for o in others]
    assert nids.count("isbn") == (1 if (len(u.nss) == 10 or u.nss.startswith("978")) else 0)
    for o in others:
        assert urnld.functionally_equivalent(o, u)
        back = {x.assigned_key for x in o.functional_equivalents()} | {o.assigned_key}
        assert {x.assigned_key for x in others} | {u.assigned_key} == back


def test_functional_equivalence_examples() -> None:
    # RFC 3187 §5's ISBN and its ISBN-13; the ISBN-A example "10.978.8898392/315" of the
    # International ISBN Agency's ISBN-A documentation (ISBN 978-88-98392-31-5).
    assert urnld.functionally_equivalent("URN:ISBN:0-395-36341-1", "urn:isbn:978-0-395-36341-6")
    assert not urnld.equivalent("URN:ISBN:0-395-36341-1", "urn:isbn:978-0-395-36341-6")
    assert urnld.functionally_equivalent("urn:doi:10.978.8898392/315", "urn:isbn:9788898392315")
    # Not ISBN-A: wrong split, wrong check digit, not 978/979.
    for doi in ("urn:doi:10.978.88/98392315", "urn:doi:10.978.8898392/316", "urn:doi:10.1000/182"):
        assert URN(doi).functional_equivalents() == ()
    assert URN("urn:isbn:0395363412").functional_equivalents() == ()  # wrong check digit
    assert URN("urn:example:a").functional_equivalents() == ()
    assert urnld.functionally_equivalent("urn:example:a", "URN:EXAMPLE:a#f")


def test_build_runs_the_namespace_check_unless_told_not_to() -> None:
    # A builder makes a claim that the URN is valid: a wrong ISBN check digit (RFC 3187's
    # example with its last digit changed) and an X- NID (RFC 8141 App. C) are refused.
    with pytest.raises(URNValidationError) as info:
        URN.build("isbn", "0-395-36341-2")
    assert [f.code for f in info.value.findings] == ["nss-check-digit"]
    with pytest.raises(URNValidationError) as info:
        URN.build("X-Foo", "bar")
    assert "nid-experimental" in {f.code for f in info.value.findings}
    # the opt-out for lenient construction builds what the parts spell
    assert str(URN.build("isbn", "0-395-36341-2", validate=False)) == "urn:isbn:0395363412"
    assert str(URN.build("X-Foo", "bar", validate=False)) == "urn:x-foo:bar"
