"""Locators read back to URNs: reverse matching of the resolver table, and find_urns(locators=)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from urnld import URN, equivalent, find_urns
from urnld import resolvers as resolvers_module
from urnld.resolvers import Resolver, ResolverError, load_resolvers, locators, urn_of_locator

DATA = Path("/work/shared/data/nid_examples.jsonl")
if not DATA.exists():  # CI lays shared/ beside the clone
    DATA = Path(__file__).resolve().parents[3] / "shared" / "data" / "nid_examples.jsonl"


# Addresses as real data writes them: the resolvers' own host history, case and query forms
# (DNB: nbn-resolving.de and .org; URN.fi in upper case; KB's query form; the DOI proxy's
# hosts and the DOI Handbook's "doi:" form).
REAL_WORLD = [
    ("http://nbn-resolving.de/urn:nbn:de:bsz:mh39-90215", "urn:nbn:de:bsz:mh39-90215"),
    ("http://nbn-resolving.de/urn:nbn:de:bvb:19-146642", "urn:nbn:de:bvb:19-146642"),
    ("https://nbn-resolving.org/urn:nbn:de:gbv:089-3321752945", "urn:nbn:de:gbv:089-3321752945"),
    ("https://nbn-resolving.org/resolver?identifier=urn:nbn:de:bvb:19-146642",
     "urn:nbn:de:bvb:19-146642"),
    ("https://urn.fi/URN:NBN:fi-fe2021091545978", "urn:nbn:fi-fe2021091545978"),
    ("http://urn.fi/URN:NBN:fi-fe19981001", "urn:nbn:fi-fe19981001"),
    ("https://urn.kb.se/resolve?urn=urn:nbn:se:uu:diva-3475", "urn:nbn:se:uu:diva-3475"),
    ("https://urn.kb.se/resolve?urn=urn%3Anbn%3Ase%3Auu%3Adiva-3475", "urn:nbn:se:uu:diva-3475"),
    ("https://doi.org/10.1000/182", "urn:doi:10.1000/182"),
    ("http://dx.doi.org/10.1000/182", "urn:doi:10.1000/182"),
    ("HTTPS://DOI.ORG/10.1000/182", "urn:doi:10.1000/182"),
    ("doi:10.1000/182", "urn:doi:10.1000/182"),
    ("https://www.rfc-editor.org/rfc/rfc8141", "urn:ietf:rfc:8141"),
    ("https://openlibrary.org/isbn/9780140328721", "urn:isbn:9780140328721"),
    ("https://portal.issn.org/resource/ISSN/0317-8471", "urn:issn:0317-8471"),
]  # fmt: skip


@pytest.mark.parametrize(("locator", "urn"), REAL_WORLD)
def test_real_world_locators(locator: str, urn: str) -> None:
    found = urn_of_locator(locator)
    assert found is not None
    assert equivalent(found, urn)


@pytest.mark.parametrize(
    "locator",
    [
        "https://example.org/urn:nbn:de:bvb:19-146642",  # no resolver there
        "https://nbn-resolving.org/urn:nbn:fi-fe19981001",  # DNB serves only urn:nbn:de
        "https://urn.fi/urn:nbn:de:bvb:19-146642",
        "https://nbn-resolving.org/urn:isbn:0395363411",  # a URN of another NID
        "https://doi.org/10.1000",  # not a DOI name (no '/')
        "https://doi.org/10.1000/182?x=1",  # a query the template did not put there
        "https://doi.org/10.1000/182#frag",
        "https://doi.org/",
        "https://nbn-resolving.org/urn:nbn:de:bvb:19-146642?=q#f",  # components
        "ftp://doi.org/10.1000/182",
        "https://urn.kb.se/resolve?urn=urn:nbn:se:uu:diva-3475&x=1",
        "https://portal.issn.org/resource/ISSN/0317-8472",  # wrong check character
        "",
        "urn:doi:10.1000/182",
    ],
)
def test_not_a_locator_of_a_urn(locator: str) -> None:
    assert urn_of_locator(locator) is None


def test_reserved_expansion_keeps_escapes() -> None:
    # RFC 6570 §3.2.3 leaves %XX alone in a reserved expansion, so reading back keeps them:
    # the DOI name has the escape, as written.
    assert str(urn_of_locator("https://doi.org/10.1000/%FF")) == "urn:doi:10.1000/%FF"
    # A simple expansion's value is decoded once: %2D is the '-' of the NSS.
    assert str(urn_of_locator("https://openlibrary.org/isbn/978%2D0140328721")) == (
        "urn:isbn:978-0140328721"
    )


def test_type_error() -> None:
    with pytest.raises(TypeError):
        urn_of_locator(None)  # type: ignore[arg-type]


def _examples() -> list[str]:
    out = []
    for line in DATA.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        if record["valid"]:
            out.append(record["urn"])
    return out


def test_every_builtin_locator_reads_back() -> None:
    # Round trip over the shared real-world examples: each locator urnld builds names its URN.
    seen = 0
    for text in _examples():
        urn = URN(text)
        if urn.parts[2:] != (None, None, None):
            continue
        for resolver, locator in locators(urn):
            back = urn_of_locator(locator)
            assert back is not None, (text, locator)
            assert equivalent(back, urn), (text, locator, back)
            assert resolver.urn_of(locator) is not None
            seen += 1
    assert seen >= 10  # the shared data holds NBN, DOI, ISBN, ISSN and IETF examples


def test_user_table_and_aliases(tmp_path: Path) -> None:
    table = tmp_path / "r.toml"
    table.write_text(
        '[[example]]\n'
        'template = "https://r.example/id/{nss}"\n'
        'aliases = ["https://old.example/lookup?id={nss}&format=html"]\n'
        '[[example]]\n'
        'template = "https://r.example/{nid}/{+nss}"\n',
        encoding="utf-8",
    )
    assert str(urn_of_locator("https://r.example/id/a%2Fb", files=[table])) == "urn:example:a/b"
    assert str(urn_of_locator("https://old.example/lookup?id=x1&format=html", files=[table])) == (
        "urn:example:x1"
    )
    assert str(urn_of_locator("https://r.example/EXAMPLE/a/b", files=[table])) == (
        "urn:example:a/b"
    )
    assert urn_of_locator("https://r.example/other/a", files=[table]) is None
    assert urn_of_locator("https://r.example/id/x1") is None  # only with the user's table


def test_bad_aliases_are_refused(tmp_path: Path) -> None:
    table = tmp_path / "r.toml"
    table.write_text('[[example]]\ntemplate = "https://r/{nss}"\naliases = "x"\n',
                     encoding="utf-8")
    with pytest.raises(ResolverError, match="aliases"):
        load_resolvers(table)
    table.write_text('[[example]]\ntemplate = "https://r/{nss}"\naliases = ["{nope}"]\n',
                     encoding="utf-8")
    with pytest.raises(ResolverError, match="unknown variable"):
        load_resolvers(table)


def test_plugin_tables_are_reversed(monkeypatch: pytest.MonkeyPatch) -> None:
    plugin = (Resolver("example", "https://plugin.example/{+nss}"),)
    monkeypatch.setattr(resolvers_module, "_plugins", plugin)
    assert str(urn_of_locator("http://plugin.example/x:y")) == "urn:example:x:y"


@pytest.mark.parametrize(
    "template",
    [
        "https://r.example/{nss}{rest}",  # side by side: no literal ends the first
        "https://r.example/{nss}?{q_component}",  # places a component
        "https://r.example/{#nss}",  # fragment expansion
        "https://r.example/{nss}/{nss}",  # one variable twice
        "https://r.example/static",  # no expression: every URN would have one locator
    ],
)
def test_templates_outside_the_reversible_subset(template: str) -> None:
    r = Resolver("example", template)
    assert r.urn_of("https://r.example/a") is None
    assert r.urn_of("https://r.example/a/a") is None
    assert r.urn_of("https://r.example/static") is None


_NSS = st.lists(
    st.sampled_from("abcXYZ019-._~!$'()*+,;=:@") | st.sampled_from(["%2F", "%C3%A9", "%25"]),
    min_size=1,
    max_size=10,
).map("".join)


@given(_NSS, st.sampled_from([
    "https://r.example/{nss}", "https://r.example/{+nss}", "https://r.example/x/{+urn}",
    "http://r.example/lookup?u={urn}", "https://r.example/{nid}/{nss}/view",
]))  # fmt: skip
def test_round_trip_property(nss: str, template: str) -> None:
    # RFC 6570 reverse matching on the reversible subset: expand then read back gives a URN
    # equivalent to the one expanded, for any NSS.
    urn = URN(f"urn:example:{nss}")
    r = Resolver("example", template)
    back = r.urn_of(r.locator(urn))
    assert back is not None
    assert equivalent(back, urn)


def test_digital_link_is_no_resolver_address() -> None:
    # A GS1 Digital Link is read back by its own rule (urnld.namespaces.digital_link_to_epc,
    # with company prefix lengths), not by the resolver table.
    assert urn_of_locator("https://id.gs1.org/01/04012345111118/21/987") is None


# -- find_urns(locators=True) -----------------------------------------------------------------


def test_find_urns_locators() -> None:
    text = (
        "See https://urn.kb.se/resolve?urn=urn:nbn:se:uu:diva-3475, doi:10.1000/182. "
        "and urn:isbn:0395363411 (https://doi.org/10.1000/183) https://example.org/x"
    )
    found = list(find_urns(text, locators=True))
    assert [(m.kind, str(m.urn), m.locator) for m in found] == [
        ("locator", "urn:nbn:se:uu:diva-3475",
         "https://urn.kb.se/resolve?urn=urn:nbn:se:uu:diva-3475"),
        ("locator", "urn:doi:10.1000/182", "doi:10.1000/182"),
        ("urn", "urn:isbn:0395363411", None),
        ("locator", "urn:doi:10.1000/183", "https://doi.org/10.1000/183"),
    ]  # fmt: skip
    for m in found:
        assert text[m.start : m.end] == (m.locator or str(m.urn))
    # Existing callers: the default finds URNs only, as before.
    assert [m.kind for m in find_urns(text)] == ["urn", "urn"]
    assert list(find_urns("http://nbn-resolving.de/urn:nbn:de:bsz:mh39-90215")) == []
    (m,) = find_urns("http://nbn-resolving.de/urn:nbn:de:bsz:mh39-90215", locators=True)
    assert m == (0, 49, URN("urn:nbn:de:bsz:mh39-90215"))
    assert "locator=" in repr(m)


def test_find_urns_locators_never_raises() -> None:
    for text in ["https://", "doi:", "https://doi.org/%", "doi:10.1/%FF%FE", "http://" * 1000]:
        list(find_urns(text, locators=True))


# -- the index against trying every template ----------------------------------------------------


def _every_template(iri: str) -> str | None:
    """The reference for locator_urn(): every reversible template of the table, in table
    order, tried on the whole folded IRI (what the index by scheme and authority, matching
    only the rest of the IRI, must give)."""
    from urnld.resolvers._reverse import fold_scheme

    folded = fold_scheme(iri)
    for r in resolvers_module.resolvers():
        for reverse in resolvers_module._reversers(r):
            try:
                text = reverse.match_text(folded)
            except UnicodeDecodeError:
                continue
            if text is not None:
                return text
    return None


def _templates() -> list[str]:
    return [t for r in resolvers_module.resolvers() for t in (r.template, *r.aliases)]


def _case(draw: st.DrawFn, text: str) -> str:
    flips = draw(st.lists(st.booleans(), min_size=len(text), max_size=len(text)))
    return "".join(c.upper() if f else c for c, f in zip(text, flips, strict=True))


_VALUE = st.lists(
    st.sampled_from(["a", "Z", "0", "9", "-", ".", "/", ":", "?", "&", "=", "%2F", "%3A", "%C3%A9",
                     "%FF", "%", "é", "#", "urn:", "URN:NBN:", "nbn:de:", "de:bvb:19-146642",
                     "10.1000/", "182", "fi-fe2021", "se:uu:diva-3475", "rfc", "8141"]),
    max_size=8,
).map("".join)  # fmt: skip


def _real_values() -> dict[str, list[str]]:
    """The shared data's valid URNs without components, by NID (lower case)."""
    out: dict[str, list[str]] = {}
    for text in _examples():
        urn = URN(text)
        if urn.parts[2:] == (None, None, None):
            out.setdefault(urn.nid.lower(), []).append(text)
    return out


_REAL = _real_values()


@st.composite
def _near_locators(draw: st.DrawFn) -> str:
    # A template of the table (or an alias) with its expression filled by a real URN of its
    # NID (as the variable takes it: whole, NSS, or NSS after the entry's prefix) or by a
    # random value; its scheme and host in a random case, http for https; then maybe a
    # piece cut off or added.
    r = draw(st.sampled_from(resolvers_module.resolvers()))
    template = draw(st.sampled_from((r.template, *r.aliases)))
    literal, _, after = template.partition("{")
    expression, _, tail = after.partition("}")
    real = _REAL.get(r.nid, [])
    if real and draw(st.booleans()):
        text = draw(st.sampled_from(real))
        nss = text.split(":", 2)[2]
        name = expression.lstrip("+#")
        value = {"urn": text, "nss": nss, "rest": nss[len(r.nss_prefix) :]}.get(name, nss)
    else:
        value = draw(_VALUE)
    head_end = literal.find("/", literal.find("//") + 2) if "//" in literal else len(literal)
    head_end = len(literal) if head_end < 0 else head_end
    start = _case(draw, literal[:head_end]) + literal[head_end:]
    if draw(st.booleans()) and start[:6].lower() == "https:":
        start = "http:" + start[6:]
    iri = start + value + tail
    change = draw(st.sampled_from(["none", "cut", "add"]))
    if change == "cut":
        return iri[: len(iri) - draw(st.integers(1, 3))]
    return iri + draw(_VALUE) if change == "add" else iri


@given(_near_locators() | st.text(max_size=40))
def test_index_gives_what_every_template_gives(iri: str) -> None:
    # The table's index (one lookup by scheme and authority, then the templates under it
    # matched on the rest) reads back exactly what trying every template on the folded IRI
    # reads back, with the default check and with a caller's check.
    from urnld._kernel._term_check import check_fields

    expected = _every_template(iri)
    assert resolvers_module.locator_urn(iri) == expected
    assert resolvers_module.locator_urn(iri, check_fields=check_fields) == expected
    assert resolvers_module.locator_reader(check_fields=check_fields)(iri) == expected


def test_index_reference_reads_the_real_world_back() -> None:
    # The reference above is no trivial one: it reads every real-world locator back.
    for locator, urn in REAL_WORLD:
        found = _every_template(locator)
        assert found is not None
        assert equivalent(URN(found), URN(urn))
