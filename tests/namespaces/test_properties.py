"""Hypothesis: the canonical form is a pure function of the equivalence class, for every NID.

For each NID a strategy draws several spellings of one name, using only the variations the
namespace's documents declare equivalent (letter case where the NSS or a part of it is
case-insensitive, hyphens in ISBNs and ISSNs, ``%XX`` hex case everywhere, the case of ``urn``
and the NID). Properties:

* every spelling has the same canonical form, whatever order they are canonicalized in;
* ``canonical(canonical(x)) == canonical(x)``, and the canonical string parses as a URN;
* for arbitrary RFC 8141 NSSs (valid for the namespace or not) canonicalization is total,
  idempotent and returns a valid URN;
* flipping the case of a letter in a case-sensitive part gives a different name.
"""

from __future__ import annotations

import string
from collections.abc import Callable

from hypothesis import given
from hypothesis import strategies as st

from urnld import URN, canonical, equivalent
from urnld._core._builtin import BUILTIN

DIGITS = string.digits
ALNUM = string.ascii_letters + string.digits
PCHAR_NC = ALNUM + "-._~!$&'()*+,;=@"
HEX = "0123456789ABCDEFabcdef"

Draw = Callable[..., object]


# -- building blocks -----------------------------------------------------------------------

pct = st.builds(lambda a, b: "%" + a + b, st.sampled_from(HEX), st.sampled_from(HEX))


def text(alphabet: str, min_size: int = 1, max_size: int = 8, escapes: bool = True) -> st.SearchStrategy[str]:
    unit = st.sampled_from(alphabet) | pct if escapes else st.sampled_from(alphabet)
    return st.lists(unit, min_size=min_size, max_size=max_size).map("".join)


def _units(s: str) -> list[str]:
    """Split into characters, keeping each %XX escape as one unit."""
    out: list[str] = []
    i = 0
    while i < len(s):
        if s[i] == "%":
            out.append(s[i : i + 3])
            i += 3
        else:
            out.append(s[i])
            i += 1
    return out


def vary_pct(data: st.DataObject, s: str) -> str:
    """Change the case of the hex digits of every %XX (RFC 8141 §3 folds it)."""
    return "".join(
        u[0] + (u[1:].lower() if data.draw(st.booleans()) else u[1:].upper()) if u[0] == "%" else u
        for u in _units(s)
    )


def vary_case(data: st.DataObject, s: str) -> str:
    """Change the case of letters outside escapes (for case-insensitive parts)."""
    return "".join(
        u if u[0] == "%" else (u.upper() if data.draw(st.booleans()) else u.lower())
        for u in _units(s)
    )


def vary_urn(data: st.DataObject, nid: str, nss: str) -> str:
    scheme = data.draw(st.sampled_from(["urn", "URN", "Urn"]))
    return f"{scheme}:{vary_case(data, nid)}:{nss}"


# -- one strategy per NID: (base NSS, function drawing an equivalent spelling) ---------------

Variant = Callable[[st.DataObject, str], str]


def _isbn_variant(data: st.DataObject, nss: str) -> str:
    out = nss[0]
    for c in nss[1:]:
        if data.draw(st.booleans()):
            out += "-"
        out += c
    return out[:-1] + (out[-1].lower() if data.draw(st.booleans()) else out[-1])


isbn = st.one_of(
    text(DIGITS, 9, 9, escapes=False).flatmap(lambda d: st.sampled_from([d + "X", d + "7"])),
    st.builds(lambda p, d: p + d, st.sampled_from(["978", "979"]), text(DIGITS, 10, 10, escapes=False)),
)


def _issn_variant(data: st.DataObject, nss: str) -> str:
    compact = nss.replace("-", "")
    sep = "-" if data.draw(st.booleans()) else ""
    last = compact[7].lower() if data.draw(st.booleans()) else compact[7]
    return compact[:4] + sep + compact[4:7] + last


issn = st.builds(lambda d, c: d[:4] + "-" + d[4:] + c, text(DIGITS, 7, 7, escapes=False), st.sampled_from("0123456789X"))

uuid = st.builds(
    lambda a, b, c, d, e: f"{a}-{b}-{c}-{d}-{e}",
    *(text("0123456789abcdef", n, n, escapes=False) for n in (8, 4, 4, 4, 12)),
)


def _prefix_case_variant(sep: str) -> Variant:
    """Case-insensitive part before the first *sep*, rest with only %XX case varied."""

    def variant(data: st.DataObject, nss: str) -> str:
        head, _, rest = nss.partition(sep)
        return vary_case(data, head) + sep + vary_pct(data, rest)

    return variant


nbn = st.builds(
    lambda cc, subs, s1, s2: cc + "".join(":" + x for x in subs) + "-" + s1 + s2,
    text(string.ascii_letters, 2, 2, escapes=False),
    st.lists(text(ALNUM, 1, 5, escapes=False), max_size=3),
    text(PCHAR_NC + ":", 1, 6),
    text(PCHAR_NC + ":/", 0, 6),
)

oid = st.lists(st.integers(0, 10**12).map(str), min_size=1, max_size=8).map(".".join)


def _ietf_variant(data: st.DataObject, nss: str) -> str:
    if nss.startswith("params:"):
        return vary_case(data, "params") + ":" + vary_pct(data, nss[7:])
    return vary_pct(data, vary_case(data, nss))


ietf = st.one_of(
    st.builds(lambda k, n: f"{k}:{n}", st.sampled_from(["rfc", "fyi", "std", "bcp"]), st.integers(0, 9999)),
    st.builds(lambda k, s: f"{k}:{s}", st.sampled_from(["id", "mtg"]), text(ALNUM + "-", escapes=False)),
    st.lists(text(PCHAR_NC), min_size=1, max_size=4).map(lambda p: "params:" + ":".join(p)),
    text(ALNUM + "-", escapes=False),
)

generic_segments = st.lists(text(PCHAR_NC), min_size=1, max_size=5).map(":".join)
two_segments = st.lists(text(PCHAR_NC), min_size=2, max_size=5).map(":".join)
mpeg = st.builds(lambda s, r: s + ":" + r, text(PCHAR_NC), text(PCHAR_NC + ":/", 1, 10).filter(lambda r: not r.startswith("/")))
oasis = st.one_of(
    st.builds(lambda b, p: f"names:{b}:{p}", st.sampled_from(["specification", "tc", "technical"]),
              st.lists(text(PCHAR_NC), min_size=3, max_size=5).map(":".join)),
    st.lists(text(PCHAR_NC), min_size=2, max_size=4).map(lambda p: "member:" + ":".join(p)),
)
publicid_chars = st.sampled_from([*ALNUM, *"-().,=!*@$_+:;", "%2B", "%3A", "%2F", "%3B", "%27", "%3F", "%23", "%25"])
publicid = st.lists(publicid_chars, min_size=1, max_size=12).map("".join)
iso = st.builds(
    lambda o, t, n, p, ed, lang: f"std:{o}{t}:{n}{p}{ed}{lang}",
    st.sampled_from(["iso", "iso-iec", "iec", "iso-astm"]),
    st.sampled_from(["", ":tr", ":ts", ":guide"]),
    st.integers(1, 99999),
    st.sampled_from(["", ":-1", ":-c12", ":-3-2"]),
    st.sampled_from(["", ":ed-1", ":stage-95.99:ed-2"]),
    st.sampled_from(["", ":en", ":en,fr"]),
)
lex = st.builds(
    lambda j, parts: j + ":" + ":".join(parts),
    text(ALNUM + ".-", escapes=False),
    st.lists(text(ALNUM + ".-;@$"), min_size=3, max_size=4),
)
isan = st.builds(
    lambda groups, c, version: "-".join(groups) + "-" + c + version,
    st.lists(text("0123456789ABCDEF", 4, 4, escapes=False), min_size=4, max_size=4),
    st.sampled_from(ALNUM),
    st.one_of(st.just(""), st.builds(lambda a, b, c: f"-{a}-{b}-{c}", text("0123456789ABCDEF", 4, 4, escapes=False), text("0123456789ABCDEF", 4, 4, escapes=False), st.sampled_from(ALNUM))),
)
epc = st.one_of(
    st.builds(lambda a, b, c: f"id:sgtin:{a}.{b}.{c}", text(DIGITS, 0, 7, escapes=False), text(DIGITS, 0, 7, escapes=False), st.integers(0, 10**9)),
    st.builds(lambda n, r: n + ":" + r, text(ALNUM + "-", escapes=False).filter(lambda n: n[0] != "-"), text(PCHAR_NC + ":/").filter(lambda r: r[0] != "/")),
)
uci = st.builds(
    lambda p, p2, p3, inst, q: p + p2 + p3 + "-" + inst + q,
    text(ALNUM, escapes=False),
    st.one_of(st.just(""), text(ALNUM, escapes=False).map(lambda s: ":" + s)),
    st.one_of(st.just(""), text(ALNUM, escapes=False).map(lambda s: "+" + s)),
    text(ALNUM + "()+,-.=@;$_!*'"),
    st.one_of(st.just(""), st.builds(lambda h, s: f":{h}{s}", st.sampled_from("CRF"), text(ALNUM, escapes=False))),
)
isni = st.builds(lambda d, c: d + c, text(DIGITS, 15, 15, escapes=False), st.sampled_from("0123456789X"))
lei = text(string.ascii_uppercase + DIGITS, 18, 18, escapes=False).flatmap(
    lambda s: text(DIGITS, 2, 2, escapes=False).map(lambda c: s + c)
)
doi = st.builds(lambda p, s: p + "/" + s, st.lists(st.integers(0, 99999).map(str), min_size=1, max_size=3).map(".".join), text(PCHAR_NC + ":/"))


def _whole_case(data: st.DataObject, nss: str) -> str:
    return vary_pct(data, vary_case(data, nss))


def _pct_only(data: st.DataObject, nss: str) -> str:
    return vary_pct(data, nss)


def _isni_variant(data: st.DataObject, nss: str) -> str:
    return nss[:-1] + (nss[-1].lower() if data.draw(st.booleans()) else nss[-1])


CLASSES: dict[str, tuple[st.SearchStrategy[str], Variant]] = {
    "isbn": (isbn, _isbn_variant),
    "issn": (issn, _issn_variant),
    "nbn": (nbn, _prefix_case_variant("-")),
    "uuid": (uuid, _whole_case),
    "oid": (oid, _pct_only),
    "ietf": (ietf, _ietf_variant),
    "example": (text(PCHAR_NC + ":/").filter(lambda s: s[0] != "/"), _pct_only),
    "xmpp": (generic_segments, _pct_only),
    "mpeg": (mpeg, _prefix_case_variant(":")),
    "oasis": (oasis, _pct_only),
    "publicid": (publicid, _pct_only),
    "iso": (iso, _whole_case),
    "lex": (lex, _whole_case),
    "isan": (isan, _whole_case),
    "epc": (epc, _pct_only),
    "epcglobal": (epc, _pct_only),
    "uci": (uci, _prefix_case_variant("-")),
    "nzl": (two_segments, _whole_case),
    "ogc": (two_segments, _pct_only),
    "isni": (isni, _isni_variant),
    "lei": (lei, _whole_case),
    "doi": (doi, _whole_case),
}


def test_every_builtin_nid_has_a_class_strategy() -> None:
    assert set(CLASSES) == set(BUILTIN)


@st.composite
def equivalence_class(draw: Draw) -> tuple[str, list[str]]:  # type: ignore[type-arg]
    nid = draw(st.sampled_from(sorted(CLASSES)))
    base_strategy, variant = CLASSES[nid]
    base = draw(base_strategy)
    data = draw(st.data())
    members = [f"urn:{nid}:{base}", *(vary_urn(data, nid, variant(data, base)) for _ in range(4))]
    return nid, members


@given(equivalence_class(), st.randoms(use_true_random=False))
def test_one_canonical_form_per_class(cls: tuple[str, list[str]], rnd: object) -> None:
    nid, members = cls
    first = [canonical(m) for m in members]
    shuffled = list(members)
    rnd.shuffle(shuffled)  # type: ignore[attr-defined]
    second = {m: canonical(m) for m in shuffled}
    assert len(set(first)) == 1, (nid, members, first)
    assert [second[m] for m in members] == first
    c = first[0]
    assert canonical(c) == c
    assert str(URN(c)) == c and URN(c).is_canonical
    for m in members:
        assert equivalent(m, members[0])


any_nss = st.builds(
    lambda head, tail: head + tail,
    st.sampled_from(PCHAR_NC + ":") | pct,
    st.lists(st.sampled_from(PCHAR_NC + ":/") | pct, max_size=24).map("".join),
)


@given(st.sampled_from(sorted(BUILTIN)), any_nss, st.data())
def test_canonical_is_total_idempotent_and_valid(nid: str, nss: str, data: st.DataObject) -> None:
    urn = f"urn:{nid}:{nss}"
    c = canonical(urn)
    assert canonical(c) == c
    assert URN(c).canonical_str == c
    assert c.startswith(f"urn:{nid}:")
    # RFC 8141 folds %XX hex case for every namespace: a namespace may only add equivalences.
    assert canonical(f"urn:{nid}:{vary_pct(data, nss)}") == c


CASE_SENSITIVE = ["example", "xmpp", "ogc", "oasis", "epc", "epcglobal", "publicid"]


@given(st.sampled_from(CASE_SENSITIVE), any_nss, st.data())
def test_case_sensitive_namespaces_keep_case(nid: str, nss: str, data: st.DataObject) -> None:
    units = _units(nss)
    letters = [i for i, u in enumerate(units) if u[0] != "%" and u.isalpha()]
    if not letters:
        return
    i = data.draw(st.sampled_from(letters))
    units[i] = units[i].swapcase()
    assert not equivalent(f"urn:{nid}:{nss}", f"urn:{nid}:{''.join(units)}")


@given(nbn, st.data())
def test_nbn_string_is_case_sensitive(nss: str, data: st.DataObject) -> None:
    head, _, rest = nss.partition("-")
    units = _units(rest)
    letters = [i for i, u in enumerate(units) if u[0] != "%" and u.isalpha()]
    if not letters:
        return
    i = data.draw(st.sampled_from(letters))
    units[i] = units[i].swapcase()
    assert not equivalent(f"urn:nbn:{nss}", f"urn:nbn:{head}-{''.join(units)}")


@given(st.sampled_from(sorted(BUILTIN)), any_nss, st.booleans())
def test_findings_are_total_and_point_into_the_nss(nid: str, nss: str, strict: bool) -> None:
    """check() never raises, and every namespace finding spans a non-empty part of the NSS."""
    from urnld import check

    urn = f"urn:{nid}:{nss}"
    start = len(f"urn:{nid}:")
    for f in check(urn, strict=strict, profiles={"nbn-de"}):
        if f.code.startswith("nss-"):
            assert start <= f.span[0] < f.span[1] <= len(urn), (urn, f)
            assert f.rule is not None and f.rule.startswith(nid + ": ")
            assert f.message


rfc2141_nss = st.lists(
    st.sampled_from(string.ascii_letters + string.digits + "()+,-.:=@;$_!*'/?#") | pct,
    min_size=1,
    max_size=24,
).map("".join)


@given(st.sampled_from(sorted(BUILTIN)), rfc2141_nss, st.booleans())
def test_rules_are_total_in_rfc2141_mode(nid: str, nss: str, strict: bool) -> None:
    """The legacy grammar lets '/', '?' and '#' into the NSS; rules stay total there too."""
    from urnld import check
    from urnld.errors import URNSyntaxError

    urn = f"urn:{nid}:{nss}"
    try:
        u = URN(urn, mode="rfc2141")
    except URNSyntaxError:  # e.g. %00, which RFC 2141 forbids
        return
    c = u.canonical_str
    assert URN(c, mode="rfc2141").canonical_str == c
    start = len(f"urn:{nid}:")
    for f in check(urn, mode="rfc2141", strict=strict, profiles={"nbn-de"}):
        if f.code.startswith("nss-"):
            assert start <= f.span[0] < f.span[1] <= len(urn), (urn, f)


# Alphabets close to each namespace's grammar, so the diagnostic branches get exercised.
NEAR = {
    "isbn": "0123456789Xx-", "issn": "0123456789Xx-", "isni": "0123456789Xx",
    "isan": "0123456789ABCDEFabcdefYZ-", "uuid": "0123456789abcdefABCDEFg-", "oid": "0123456789.a",
    "lei": "0123456789ABCXYZ-", "nbn": "abDE09:-/", "uci": "I7ab0+:-CR", "ietf": "rfcidparms:0-9/",
    "iso": "stdio:-0123ed,ren", "epc": "id:sgtn.0129-", "doi": "10./ab", "lex": "it:;/.-ab",
    "oasis": "names:tcmbr/", "mpeg": "mpeg7:/", "publicid": "ab+:;%2F3A/", "ogc": "def:/c",
}  # fmt: skip


@given(st.sampled_from(sorted(NEAR)), st.data())
def test_near_miss_nsss_get_precise_findings(nid: str, data: st.DataObject) -> None:
    from urnld import URNSyntaxError, check
    from urnld.findings import Severity

    nss = data.draw(st.text(NEAR[nid], min_size=1, max_size=30))
    urn = f"urn:{nid}:{nss}"
    try:
        URN(urn)
    except URNSyntaxError:
        return
    start = len(f"urn:{nid}:")
    findings = [f for f in check(urn, strict=True, profiles={"nbn-de"}) if f.code.startswith("nss-")]
    for f in findings:
        assert start <= f.span[0] < f.span[1] <= len(urn), (urn, f)
    # At most one grammar error per NSS: the first thing wrong, not a cascade.
    assert sum(f.code == "nss-invalid" and f.severity is Severity.ERROR for f in findings) <= 1


@given(st.text("0123456789Xx-", min_size=1, max_size=20))
def test_isbn_and_issn_validity_matches_grammar_plus_stdnum(nss: str) -> None:
    import re

    from stdnum import isbn as stdnum_isbn
    from stdnum import issn as stdnum_issn

    from urnld import check
    from urnld.findings import Severity

    def valid(urn: str) -> bool:
        return not [f for f in check(urn) if f.severity is Severity.ERROR]

    isbn_grammar = re.fullmatch(r"[0-9](?:-?[0-9]){8}-?[0-9Xx]|9-?7-?[89](?:-?[0-9]){9}-?[0-9]", nss)
    assert valid(f"urn:isbn:{nss}") == bool(isbn_grammar and stdnum_isbn.is_valid(nss))
    issn_grammar = re.fullmatch(r"[0-9]{4}-?[0-9]{3}[0-9Xx]", nss)
    assert valid(f"urn:issn:{nss}") == bool(issn_grammar and stdnum_issn.is_valid(nss))
