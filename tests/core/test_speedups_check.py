"""The accelerator's check (``urnld._core._speedups.check_fields``) agrees with the Python reference.

What ``urnld check`` keeps of a spelling (codes in :func:`urnld.check`'s order, the first error
as ``"code: message"``, the canonical form, the NID) must be the same with and without the
accelerator, for every string; and the accelerator must answer the common case (an ASCII URN
without components whose NID is known), else its copy would be dead code.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from core_strategies import near_misses, valid_urns
from hypothesis import example, given
from hypothesis import strategies as st

from urnld._core import _accel
from urnld._core._check import fast_check_fields
from urnld._core._config import Policy
from urnld._core._parser import RFC8141_RE
from urnld._kernel._term_check import _check_fields, check_term
from urnld._kernel._terms import TermCache
from urnld.findings import Severity
from urnld.namespaces import PREFIXES, get_rule, prefix_entry
from urnld.namespaces._tds import SCHEMES
from urnld.namespaces.publicid import from_public_id

speedups = pytest.importorskip("urnld._core._speedups", reason="the C accelerator is not built")



@pytest.fixture(autouse=True)
def _accelerated(monkeypatch):
    """The accelerator on, also in the pure-Python run of the suite (it is built there)."""
    monkeypatch.setattr(_accel, "speedups", speedups)


DATA = Path(__file__).resolve().parents[2] / "tests" / "data" / "nid_examples.jsonl"
PLAIN = Policy()


def reference(text: str) -> tuple[object, ...]:
    """The pure-Python answer (the accelerator switched off for the call)."""
    saved = _accel.speedups
    _accel.speedups = None
    try:
        return _check_fields(text, PLAIN)
    finally:
        _accel.speedups = saved


def agrees(text: str) -> object:
    """Assert both paths agree on *text*; return the accelerator's own answer (None: it left
    the string to the Python path)."""
    expected = reference(text)
    m = RFC8141_RE.fullmatch(text)
    if m is not None:
        if len(PREFIXES) > 1000:  # the table stops growing at 1024 NIDs: make room
            PREFIXES.clear()
        prefix_entry(m[1])  # the NID is known from now on: the accelerator's case
    fast = fast_check_fields(text)
    if fast is not None:
        assert fast == expected, text
    assert _check_fields(text, PLAIN) == expected, text
    assert tuple(check_term(text)) == expected, text
    if m is not None and text.isascii() and m.lastindex == 2:
        assert fast is not None, f"the accelerator declined its common case {text!r}"
    return fast


# NSSs near the grammars of the rules whose check_nss has a copy, and percent-encoding of every
# kind the lints look at: lower-case hex, %00, unreserved characters, UTF-8 runs (valid,
# overlong, surrogates, cut off, above U+10FFFF) and runs broken by other characters.
_ESCAPES = st.sampled_from([
    "%2f", "%2F", "%00", "%41", "%7e", "%2D", "%C3%A9", "%c3%a9", "%C3", "%A9", "%E2%80%93",
    "%ED%A0%80", "%C0%AF", "%F4%90%80%80", "%F0%9F%98%80", "%E2%80", "%FF", "%80", "%e0%a0%80",
    "%f0%8f%bf%bf", "%C2%80",
])
_PLAIN = st.text(alphabet="aZ09-._~!$&'()*+,;=:@/", min_size=0, max_size=4)
_ESCAPED = st.lists(st.one_of(_ESCAPES, _PLAIN), min_size=1, max_size=8).map("".join).filter(
    lambda s: s and s[0] != "/")
@st.composite
def _tds_bodies(draw: st.DrawFn) -> str:
    """``id:…`` and ``class:…`` NSSs near GS1 TDS (:data:`urnld.namespaces._tds.SCHEMES`):
    fields of each kind at and around their length bounds and digit budgets."""
    key = draw(st.sampled_from([*sorted(SCHEMES), "id:unknown", "ID:sgtin"]))
    scheme = SCHEMES.get(key.lower())
    kinds = [f.kind for f in scheme.fields] if scheme else ["padded", "gs3a3"]
    count = len(kinds) + draw(st.sampled_from([0, 0, 0, -1, 1]))
    fields = []
    for k in range(max(count, 0)):
        kind = kinds[min(k, len(kinds) - 1)]
        if kind == "gs3a3":
            field = draw(st.lists(st.sampled_from(
                ["a", "Z", "9", "!", "'", "(", "*", "+", ",", "-", ".", ":", ";", "=", "_",
                 "%22", "%2f", "%3C", "%3e", "%41", "%23", "/"]), max_size=30).map("".join))
        elif kind == "cpref":
            field = draw(st.lists(st.sampled_from(["A", "9", "-", "%2F", "%23", "a", "%41"]),
                                  max_size=32).map("".join))
        else:
            field = draw(st.text(alphabet="0123456789", max_size=14)
                         | st.sampled_from(["0", "00", "01", "7a", ""]))
        fields.append(field)
    return f"{key}:{'.'.join(fields)}"


_NSS = {
    "isbn": st.one_of(
        st.text(alphabet="0123456789-Xx", min_size=9, max_size=17),
        st.tuples(st.sampled_from(["978", "979", "97-8", "977", "0", "3"]),
                  st.text(alphabet="0123456789-", min_size=8, max_size=12),
                  st.sampled_from("0123456789Xx")).map("".join),
        _ESCAPED,
    ),
    "issn": st.one_of(
        st.tuples(st.text(alphabet="0123456789", min_size=4, max_size=4),
                  st.sampled_from(["-", "", "--"]),
                  st.text(alphabet="0123456789", min_size=3, max_size=3),
                  st.sampled_from("0123456789Xxa")).map("".join),
        st.text(alphabet="0123456789-Xx%2F", min_size=1, max_size=11),
    ),
    "uuid": st.one_of(
        st.uuids().map(str),
        st.uuids().map(lambda u: str(u).upper()[:-1]),
        st.text(alphabet="0123456789abcdefABCDEFgG-{}", min_size=30, max_size=38),
    ),
    "oid": st.one_of(
        st.lists(st.integers(0, 40000).map(str), min_size=1, max_size=6).map(".".join),
        st.text(alphabet="0123456789.a", min_size=1, max_size=12),
    ),
    # Rules whose check_nss runs in Python (their findings are read back) and the generic rule.
    # RFC 8458 §4.2: prefix (two letters, ':'-separated sub-namespaces) '-' NBN string; built
    # near the grammar and as free text over its characters.
    "nbn": st.one_of(
        st.sampled_from(["de:gbv:089-1", "DE:Bvb:19-146642", "xx", "d-1", "de:-1", "de",
                         "se:uu:diva-3475", "fi-fe19981001", "de:bvb:19-/x"]),
        st.tuples(st.sampled_from(["de", "DE", "sE", "d", "dEe", "d1", "1d"]),
                  st.lists(st.text(alphabet="gBv0-", min_size=0, max_size=4), max_size=3),
                  st.sampled_from(["-", "-", "--", ":-", ""]),
                  st.text(alphabet="aZ09-:@%2c/.", min_size=0, max_size=8),
                  ).map(lambda t: t[0] + "".join(":" + x for x in t[1]) + t[2] + t[3]),
        st.text(alphabet="dEeF:gb09-/%2cA.@", min_size=1, max_size=16),
    ),
    "epc": st.one_of(
        st.sampled_from(["id:sgtin:0614141.107346.2017", "id:sgtin:1.2", "x", ":a", "id:",
                         "-x:y", "a-:/b", "tag:sgtin-96:3.0614141.812345.6789"]),
        _tds_bodies(),
    ),
    "epcglobal": st.one_of(
        st.sampled_from(["x", ":a", "a:", "a:/b", "bad_name:x", "edi:ean:4012345"]),
        _tds_bodies(),
    ),
    # RFC 3151 transcriptions (every one valid) and free text over the NSS's pieces: the
    # eight escapes in both cases, other escapes, '+' runs, ':' and ';' next to '%2F' / '%3A'.
    "publicid": st.one_of(
        st.text(alphabet="-().,=!*@$_ /:;+'?#%aZ9", min_size=1, max_size=20).filter(
            lambda t: t.strip()).map(lambda t: from_public_id(t)[len("urn:publicid:"):]),
        st.lists(st.sampled_from(["-", "OASIS", "DTD", "+", "++", ":", ";", "%2B", "%3A", "%3a",
                                  "%2F", "%2f", "%3B", "%27", "%3F", "%23", "%25", "%20", "%2c",
                                  "%E2%80%93", "x", "'", "/"]),
                 min_size=1, max_size=8).map("".join),
    ),
    # RFC 3121 §2: the branches (and near misses) with 0 to 5 segments after them.
    "oasis": st.tuples(
        st.sampled_from(["names:tc", "names:specification", "names:technical", "member",
                         "names", "names:other", "Names:tc", "other", "names:", ":names"]),
        st.lists(st.text(alphabet="aZ09-./%2F", max_size=4), max_size=5),
    ).map(lambda t: ":".join([t[0], *t[1]])),
    "ogc": st.sampled_from(["def:crs:EPSG::4326", "def", ":x", "def:", "de/f:x"]),
    "example": _ESCAPED,
    "lcat": _ESCAPED,
    "X-local": _ESCAPED,
    "ab": _ESCAPED,
    "urn": _ESCAPED,
    "urn-07": _ESCAPED,
}


_CASES = st.sampled_from(sorted(_NSS)).flatmap(
    lambda nid: st.tuples(st.sampled_from(["urn", "URN", "Urn"]),
                          st.sampled_from([nid, nid.upper(), nid.capitalize()]), _NSS[nid])
).map(lambda t: f"{t[0]}:{t[1]}:{t[2]}")


@given(_CASES)
@example("URN:ISBN:0-395-36341-2")  # RFC 3187's example with a wrong check digit
@example("urn:isbn:978-0-395-36341-6")  # its ISBN-13, right
@example("urn:issn:0259-000x")  # RFC 3044 §5's example, lower-case check character
@example("urn:issn:1234-5678")  # wrong check character ('9' expected)
@example("urn:example:%C3%28")  # a UTF-8 lead byte followed by an ASCII escape
@example("urn:example:%C3x%A9")  # a run broken by a character
def test_check_copies_agree(text):
    if RFC8141_RE.fullmatch(text) is None:
        return
    agrees(text)


@given(st.one_of(valid_urns, near_misses()))
def test_any_string_agrees(text):
    agrees(text)


def test_examples_of_every_namespace_agree():
    """The project's examples: RFC and registry URNs of every NID it knows, valid and not."""
    seen = 0
    for line in DATA.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        for text in [record["urn"], *record.get("equivalent_to", []),
                     *record.get("not_equivalent_to", [])]:
            agrees(text)
            seen += 1
    assert seen > 100


def test_the_common_case_is_answered():
    """Examples drawn from the dense benchmark's mix: each answered by the accelerator."""
    cases = {
        "URN:ISBN:0-395-36341-2": (("nss-check-digit", "not-canonical"),
                                   "nss-check-digit: ISBN check digit '2' is wrong",
                                   "urn:isbn:0395363412", "isbn"),
        "urn:issn:1234-5678": (("nss-check-digit",),
                               "nss-check-digit: ISSN check character is '8', expected '9' "
                               "(mod 11, weights 8\u20262; RFC 3044 \u00a75)",
                               "urn:issn:1234-5678", "issn"),
        "urn:X-local:a%2cb": (("nid-experimental", "pct-lowercase", "not-canonical"),
                              "nid-experimental: 'X-' experimental NIDs such as 'X-local' were "
                              "removed by RFC 8141 (App. C); this is not a valid URN",
                              "urn:x-local:a%2Cb", "x-local"),
        "urn:example:a%c3%28b%41": (("pct-lowercase", "pct-not-utf8", "pct-unreserved",
                                     "not-canonical"), None, "urn:example:a%C3%28b%41",
                                    "example"),
        "urn:oid:1.02.3": (("nss-invalid",), "nss-invalid: arc '02' at NSS position 2 has a "
                           "leading zero (RFC 3061 \u00a72)", "urn:oid:1.02.3", "oid"),
        "urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf": (
            ("nss-invalid",), "nss-invalid: UUID field node has 11 hex digits, expected 12 "
            "(RFC 9562 \u00a74)", "urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf", "uuid"),
        # RFC 3121 §2's template has a type and a document after the TC: a warning
        "urn:oasis:names:tc:SAML": (("nss-invalid",), None, "urn:oasis:names:tc:SAML",
                                    "oasis"),
        "urn:publicid:-:OASIS:DTD+DocBook%20XML:EN": (
            ("nss-invalid",), "nss-invalid: '%20' is not one of RFC 3151's eight escapes "
            "(%2B %3A %2F %3B %27 %3F %23 %25)", "urn:publicid:-:OASIS:DTD+DocBook%20XML:EN",
            "publicid"),
        # GS1 EPCIS 2.0's example SGTIN (an alphanumeric serial) and TDS's SSCC example
        "urn:epc:id:sgtin:4012345.033333.AGHFG": ((), None,
                                                  "urn:epc:id:sgtin:4012345.033333.AGHFG",
                                                  "epc"),
        "urn:epc:id:sscc:0614141.1234567890": ((), None, "urn:epc:id:sscc:0614141.1234567890",
                                               "epc"),
    }
    for text, expected in cases.items():
        assert agrees(text) == expected


def test_a_python_rule_is_asked_and_read_back(monkeypatch):
    """A rule registered at run time (Python check_nss, its own severities) is called by the
    accelerator and its findings merged in check()'s order; an exception propagates as it does
    from the Python path."""
    from urnld._core import _rules as namespaces
    from urnld.namespaces import NamespaceRule, register

    mode = {"raise": False}

    class Picky(NamespaceRule):
        nid = "picky-test"

        def check_nss(self, nss: str, options: object) -> list:  # type: ignore[override]
            if mode["raise"]:
                raise ValueError(nss)
            out = [self.finding("nss-invalid", "mild", 0, 1, Severity.WARNING)]
            if "!" in nss:
                i = nss.index("!")
                out.append(self.finding("nss-invalid", f"'!' at {i}", i, i + 1))
            return out

    register(Picky(), replace=True)
    try:
        assert getattr(get_rule("picky-test").check_nss, "_urnld_native", None) is None
        for text in ("urn:picky-test:ab", "urn:picky-test:a!b", "urn:PICKY-TEST:a%2fb!"):
            agrees(text)
        assert agrees("urn:picky-test:a!b")[:2] == (("nss-invalid", "nid-unregistered"),
                                                     "nss-invalid: '!' at 1")
        mode["raise"] = True
        with pytest.raises(ValueError):
            reference("urn:picky-test:zz")
        with pytest.raises(ValueError):
            fast_check_fields("urn:picky-test:zz")
    finally:
        namespaces._registered.pop("picky-test", None)
        namespaces._cache.clear()
        namespaces.PREFIXES.clear()
        from urnld._core._check import _nid_spec

        _nid_spec.cache_clear()


def test_a_rule_registered_later_is_the_one_asked():
    """Checked once under the generic rule, then a rule registered for the NID: the next check
    asks the new rule, on both paths."""
    from urnld._core import _rules as namespaces
    from urnld.namespaces import NamespaceRule, register

    class Late(NamespaceRule):
        nid = "late-test"

        def check_nss(self, nss: str, options: object) -> list:  # type: ignore[override]
            return [self.finding("nss-invalid", "late rule", 0, 1)]

    text = "urn:late-test:abc"
    assert agrees(text)[1] is None  # only nid-unregistered, a warning
    register(Late(), replace=True)
    try:
        assert agrees(text)[1] == "nss-invalid: late rule"
    finally:
        namespaces._registered.pop("late-test", None)
        namespaces._cache.clear()
        namespaces.PREFIXES.clear()
        from urnld._core._check import _nid_spec

        _nid_spec.cache_clear()


def test_overridden_check_loses_the_copy():
    """A subclass that overrides check_nss has no mark: its own code decides."""
    from urnld.namespaces.isbn import ISBNRule

    class Lenient(ISBNRule):
        def check_nss(self, nss, options):  # type: ignore[no-untyped-def]
            return ()

    assert getattr(Lenient().check_nss, "_urnld_native", None) is None
    assert getattr(ISBNRule().check_nss, "_urnld_native", None) == "isbn"


def test_other_policies_take_the_python_path():
    """Strict reading, profiles and severity overrides are the Python path's alone: under the
    default policy 'urn:ab:x' draws a warning, under the strict reading an error."""
    from urnld._kernel._terms import TermRule

    plain = TermCache()
    assert plain.checked("urn:ab:x") == reference("urn:ab:x")
    assert plain.checked("urn:ab:x")[:2] == (("nid-reserved",), None)
    strict = TermCache(TermRule(policy=Policy(strict=True)))
    assert strict.checked("urn:ab:x")[0] == ("nid-reserved",)
    assert strict.checked("urn:ab:x")[1].startswith("nid-reserved: ")


def test_the_tds_table_is_the_rules():
    """check_epc's copy of the GS1 TDS table is :data:`urnld.namespaces._tds.SCHEMES`: a scheme
    added or changed in Python fails here until the copy follows."""
    ours = {
        key: (tuple((f.kind, f.min_len, f.max_len) for f in scheme.fields), scheme.budget)
        for key, scheme in SCHEMES.items()
    }
    assert speedups.tds_schemes() == ours


def test_the_flush_checks_a_new_spelling_without_python(monkeypatch):
    """The compiled rewrite of the check pass judges a new spelling itself when it first meets
    its token and keeps the answer in the token's entry, where the flush reads it:
    TermCache.checked, the Python way in, is not called for it."""
    from urnld.report import CheckReport
    from urnld.stream._passes import CheckPass

    calls = []
    checked = TermCache.checked

    def spy(self: TermCache, text: str) -> object:
        calls.append(text)
        return checked(self, text)

    monkeypatch.setattr(TermCache, "checked", spy)
    for nid in ("isbn", "OID"):  # known NIDs (the first sight of an NID takes the Python way)
        prefix_entry(nid)
    check_pass = CheckPass(CheckReport())
    line = b"<urn:isbn:0395363412> <http://p> <URN:OID:1.02.3> .\n"
    check_pass.run_chunk(line, 1, "x", "raise")
    check_pass.flush()
    assert calls == []
    assert check_pass.info[b"<urn:isbn:0395363412>"] == (
        "urn:isbn:0395363412", reference("urn:isbn:0395363412"), False)
    assert check_pass.report.error_occurrences == 2


def test_a_urn_literal_takes_the_judgment_of_its_iri():
    """A URN literal that spells an IRI the check pass met already (a catalog record's own URN
    as its identifier) shares that IRI's judged entry, and the report counts both, as the
    Python path does."""
    from urnld.report import CheckReport
    from urnld.stream._passes import CheckPass

    prefix_entry("ISBN")  # a known NID as written (its first sight takes the Python way)
    xsd = b"http://www.w3.org/2001/XMLSchema#anyURI"
    chunk = (b"<URN:ISBN:0-395-36341-1> <http://p> <urn:isbn:0395363412> .\n"
             b"<URN:ISBN:0-395-36341-1> <http://q> \"URN:ISBN:0-395-36341-1\"^^<" + xsd + b"> .\n")
    reports = []
    for module in (speedups, None):
        saved = _accel.speedups
        _accel.speedups = module
        try:
            check_pass = CheckPass(CheckReport())
            check_pass.run_chunk(chunk, 1, "x", "raise")
            check_pass.flush()
        finally:
            _accel.speedups = saved
        reports.append(check_pass.report.to_dict())
        if module is speedups:
            iri = check_pass.info[b"<URN:ISBN:0-395-36341-1>"]
            literal = check_pass.info[b'"URN:ISBN:0-395-36341-1"^^<' + xsd + b">"]
            assert literal[0] is iri[0] and literal[1] is iri[1]
            assert literal[1] == reference("URN:ISBN:0-395-36341-1") and literal[2] is True
    assert reports[0] == reports[1]
    assert reports[0]["urns"] == {"iris": 3, "literals": 1, "with_errors": 1}
