"""URN.resolve, the resolver table and `urnld resolve` (RFC 8141 §1.2.1, §2.3.2-2.3.3)."""

from __future__ import annotations

import contextlib
import json
import sys
import types
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from hypothesis import given
from hypothesis import strategies as st

from urnld import URN, URNError
from urnld.cli import main
from urnld.resolvers import Resolver, ResolverError, expand, load_resolvers, locators, resolvers

_P = st.sampled_from("abcXYZ019-._~!$'()*+,;=:@") | st.sampled_from(["%2F", "%C3%A9", "%25"])
part = st.lists(_P, min_size=1, max_size=8).map("".join)
tail = st.lists(_P | st.sampled_from(["/", "?"]), max_size=8).map("".join)


@st.composite
def urns(draw: st.DrawFn) -> URN:
    text = f"urn:example:{draw(part)}"
    if draw(st.booleans()):
        text += "?+" + draw(part)
    if draw(st.booleans()):
        text += "?=" + draw(part) + draw(tail)
    if draw(st.booleans()):
        text += "#" + draw(tail)
    return URN(text)


TEMPLATES = st.sampled_from([
    "https://r.example/{nss}",
    "https://r.example/{+nss}",
    "https://r.example/{nid}/{+urn}",
    "https://r.example/x{rest}",
    "urn-resolver:{urn}",
])


@given(urns(), TEMPLATES)
def test_locator_query_and_fragment_are_the_urn_components(u: URN, template: str) -> None:
    """§2.3.2: the q-component becomes the query; §2.3.3: the f-component the fragment."""
    loc = urlsplit(u.resolve(template))
    assert loc.query == (u.q_component or "")
    assert loc.fragment == (u.f_component or "")
    assert ("#" in u.resolve(template)) == (u.f_component is not None)


@given(urns())
def test_template_with_a_query_gets_the_q_component_appended(u: URN) -> None:
    loc = urlsplit(u.resolve("https://r.example/resolve?id={urn}"))
    assert loc.query.startswith("id=urn%3Aexample%3A")
    assert loc.query.endswith("" if u.q_component is None else "&" + u.q_component)
    assert loc.fragment == (u.f_component or "")


def test_rfc6570_level_1_and_2_encoding() -> None:
    u = URN("urn:example:a/b%2Fc?+r=1?=q=2#f")
    assert expand(u, "{nss}") == "a%2Fb%252Fc?q=2#f"  # level 1: only unreserved stay
    assert expand(u, "{+nss}") == "a/b%2Fc?q=2#f"  # level 2: reserved and %XX stay
    assert expand("urn:example:a/b%2Fc", "x{#nss}") == "x#a/b%2Fc"  # level 2 fragment expansion
    assert expand(u, "x{#nss}") == "x?q=2#f"  # the URN's f-component replaces it (§2.3.3)
    # The template places the components itself: nothing is copied.
    assert expand(u, "x/{+nss}?r={r_component}&q={q_component}#{f_component}") == \
        "x/a/b%2Fc?r=r%3D1&q=q%3D2#f"
    assert expand("urn:example:a", "x/{r_component}") == "x/"  # undefined: empty


@pytest.mark.parametrize("template", [
    "https://x/{nss", "https://x/nss}", "https://x/{nss,nid}", "https://x/{;nss}", "https://x/{bogus}",
    "https://x/{}",
])
def test_malformed_templates(template: str) -> None:
    with pytest.raises(ResolverError):
        expand("urn:example:a", template)


@given(st.text(max_size=30))
def test_expand_is_total(template: str) -> None:
    with contextlib.suppress(ResolverError):
        expand("urn:example:a?=b#c", template)


@pytest.mark.parametrize(("urn", "locator"), [
    # DNB's resolver takes the URN after its address (nbn-resolving.org); example URN from DNB.
    ("urn:nbn:de:bvb:19-146642", "https://nbn-resolving.org/urn:nbn:de:bvb:19-146642"),
    ("URN:NBN:fi-fe19981001", "https://urn.fi/urn:nbn:fi-fe19981001"),
    ("urn:nbn:se:uu:diva-3475", "https://urn.kb.se/resolve?urn=urn:nbn:se:uu:diva-3475"),
    ("urn:doi:10.1000/182", "https://doi.org/10.1000/182"),
    ("urn:ietf:rfc:8141", "https://www.rfc-editor.org/rfc/rfc8141"),
    ("urn:ietf:bcp:14", "https://www.rfc-editor.org/info/bcp14"),
    ("urn:ietf:id:ietf-urn-ietf-06", "https://datatracker.ietf.org/doc/draft-ietf-urn-ietf-06"),
    ("URN:ISBN:0-395-36341-1", "https://openlibrary.org/isbn/0395363411"),
    ("URN:ISSN:0259-000x", "https://portal.issn.org/resource/ISSN/0259-000X"),
])
def test_builtin_table(urn: str, locator: str) -> None:
    assert URN(urn).resolve() == locator


def test_table_entries_cite_their_source() -> None:
    table = resolvers()
    assert table
    for r in table:
        assert r.name and r.source and r.template


def test_unknown_urn_has_no_locator() -> None:
    assert locators("urn:example:a") == []
    with pytest.raises(ResolverError, match="no resolver"):
        URN("urn:example:a").resolve()
    assert isinstance(ResolverError("x"), URNError)


def test_user_toml_comes_first(tmp_path: Path) -> None:
    table = tmp_path / "mine.toml"
    table.write_text('[[isbn]]\nname = "mine"\ntemplate = "https://books.example/{nss}"\n'
                     'source = "local"\n', encoding="utf-8")
    found = locators("urn:isbn:0395363411", files=[table])
    assert [loc for _, loc in found][:2] == [
        "https://books.example/0395363411", "https://openlibrary.org/isbn/0395363411"]
    assert load_resolvers(table) == (Resolver("isbn", "https://books.example/{nss}", "mine", "local"),)


@pytest.mark.parametrize("body", [
    "isbn = 1\n", "[[isbn]]\nname = 'x'\n", "[[isbn]]\ntemplate = '{bad'\n",
    "[[isbn]]\ntemplate = 'x'\ncolour = 'red'\n", "not toml [[",
])
def test_bad_toml_tables_are_named(tmp_path: Path, body: str) -> None:
    table = tmp_path / "bad.toml"
    table.write_text(body, encoding="utf-8")
    with pytest.raises(ResolverError, match=r"bad\.toml"):
        load_resolvers(table)


def test_entry_point_tables(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from importlib import metadata

    import urnld.resolvers as mod

    table = tmp_path / "ep.toml"
    table.write_text('[[example]]\ntemplate = "https://ex.example/{nss}"\nname = "ep"\n'
                     'source = "plugin"\n', encoding="utf-8")
    plugin = types.ModuleType("urnld_test_ep")
    plugin.TABLE = str(table)  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "urnld_test_ep", plugin)
    ep = metadata.EntryPoint("demo", "urnld_test_ep:TABLE", mod.ENTRY_POINT_GROUP)
    monkeypatch.setattr(mod.metadata, "entry_points", lambda group: [ep] if group == mod.ENTRY_POINT_GROUP else [])
    monkeypatch.setattr(mod, "_plugins", None)  # scanned once per process: scan again
    assert URN("urn:example:a").resolve() == "https://ex.example/a"


# -- CLI -------------------------------------------------------------------------------------


def test_cli_resolve(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["resolve", "urn:ietf:rfc:2141#section-2"]) == 0
    assert capsys.readouterr().out == "https://www.rfc-editor.org/rfc/rfc2141#section-2\n"
    assert main(["resolve", "urn:doi:10.1000/182", "urn:example:x"]) == 1
    out = capsys.readouterr()
    assert out.out == "urn:doi:10.1000/182\thttps://doi.org/10.1000/182\n"
    assert "no resolver is known for urn:example:x" in out.err
    assert main(["resolve", "--template", "https://t.example/{nss}", "urn:example:x"]) == 0
    assert capsys.readouterr().out == "https://t.example/x\n"


def test_cli_resolve_json_and_errors(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["resolve", "--json", "--all", "urn:nbn:de:bvb:19-146642"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data[0]["urn"] == "urn:nbn:de:bvb:19-146642"
    assert data[0]["locators"][0]["locator"] == "https://nbn-resolving.org/urn:nbn:de:bvb:19-146642"
    assert main(["resolve", "nope", "urn:ietf:rfc:1"]) == 2
    out = capsys.readouterr()
    assert out.out == "urn:ietf:rfc:1\thttps://www.rfc-editor.org/rfc/rfc1\n"
    assert out.err.count("\n") == 1 and "'nope'" in out.err
    assert main(["resolve", "--template", "{oops", "urn:example:a"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("urnld resolve: error:") and err.count("\n") == 1
    assert main(["resolve", "--resolvers", str(tmp_path / "missing.toml"), "urn:example:a"]) == 2
    assert "missing.toml" in capsys.readouterr().err


def test_cli_examples_of_the_docs(capsys: pytest.CaptureFixture[str]) -> None:
    """The console block of docs/core.md "Resolution", run."""
    assert main(["resolve", "urn:ietf:rfc:2141", "urn:doi:10.1000/182"]) == 0
    assert capsys.readouterr().out == (
        "urn:ietf:rfc:2141\thttps://www.rfc-editor.org/rfc/rfc2141\n"
        "urn:doi:10.1000/182\thttps://doi.org/10.1000/182\n"
    )
    assert main(["resolve", "--template", "https://r.example/{nid}/{nss}", "urn:example:a"]) == 0
    assert capsys.readouterr().out == "https://r.example/example/a\n"
    doc = (Path(__file__).resolve().parents[2] / "docs" / "core.md").read_text(encoding="utf-8")
    assert "urn:doi:10.1000/182\thttps://doi.org/10.1000/182" in doc


def test_broken_entry_point_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    from importlib import metadata

    import urnld.resolvers as mod

    plugin = types.ModuleType("urnld_test_bad_ep")
    plugin.TABLE = [("isbn", "not a Resolver")]  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "urnld_test_bad_ep", plugin)
    ep = metadata.EntryPoint("bad", "urnld_test_bad_ep:TABLE", mod.ENTRY_POINT_GROUP)
    monkeypatch.setattr(mod.metadata, "entry_points", lambda group: [ep])
    monkeypatch.setattr(mod, "_plugins", None)
    from urnld.errors import URNLDEnvironmentError

    with pytest.raises(URNLDEnvironmentError, match="resolver plugin 'bad'"):
        URN("urn:isbn:0395363411").resolve()
