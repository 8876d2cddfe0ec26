"""The RDF/XML depth bound of the streaming path: the accelerator's byte automaton and its
Python twin agree with expat's element depth on every split of a document into blocks, and a
document nested past the bound is refused before pyoxigraph parses it (its time grows faster
than the square of the depth)."""

from __future__ import annotations

import itertools
import xml.parsers.expat
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from urnld._core import accel
from urnld._kernel import MAX_XML_DEPTH
from urnld.stream import RDFSyntaxError, check_file
from urnld.stream._sniff import _XmlDepth

RDF = 'xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:e="http://e/"'

# Markup that must not count as elements: quoted ">" and "/>" in attribute values, tags inside
# comments, CDATA and processing instructions, "-" and "]]" before their ends, a DOCTYPE.
_NOISE = st.sampled_from([
    "text / > ", "<!-- <a><b><c> ->- -->", "<!-- - <x/> </a> -->", "<![CDATA[ <a> ]] ]]]>",
    "<?pi <a> ? ??>", "&amp; &lt;a&gt;", "<e:q/>", '<e:q a="/>" b=\'>\'/>',
    "<e:q\n  a='x'\t/>", "\n",
])


def _element(depth: int, noise: list[str]) -> str:
    """*depth* nested elements, each opened with quoted '>' and '/' in an attribute."""
    filler = "".join(noise)
    return ('<e:p a="1>2/3" b=\'/\'>' + filler) * depth + "x" + "</e:p >" * depth


_DEPTHS = st.sampled_from([1, 2, 4, MAX_XML_DEPTH - 1, MAX_XML_DEPTH, MAX_XML_DEPTH + 1])
_HEADS = st.sampled_from(["", '<?xml version="1.0"?>\n', "<!DOCTYPE rdf:RDF>\n<!-- h -->"])


def _document(depth: int, noise: list[str], head: str) -> str:
    # The root element is one level: the body nests depth - 1 more under it.
    return head + f"<rdf:RDF {RDF}>{_element(depth - 1, noise)}</rdf:RDF>"


def _expat_depth(doc: bytes) -> int:
    parser = xml.parsers.expat.ParserCreate()
    depth = deepest = 0

    def start(*_: object) -> None:
        nonlocal depth, deepest
        depth += 1
        deepest = max(deepest, depth)

    def end(*_: object) -> None:
        nonlocal depth
        depth -= 1

    parser.StartElementHandler, parser.EndElementHandler = start, end
    parser.Parse(doc, True)
    return deepest


def _refused(doc: bytes, cuts: list[int], compiled: bool) -> tuple[bool, int]:
    d = _XmlDepth("x.rdf")
    if not compiled:
        d._c = None
    bounds = [0, *sorted(c % (len(doc) + 1) for c in cuts), len(doc)]
    try:
        for a, b in itertools.pairwise(bounds):
            d.feed(doc[a:b])
    except RDFSyntaxError as e:
        assert "nested too deeply" in str(e)
        return True, -1
    return False, d.depth


@settings(max_examples=150, deadline=None)
@given(_DEPTHS, st.lists(_NOISE, max_size=3), _HEADS,
       st.lists(st.integers(min_value=0), max_size=8))
def test_depth_agrees_with_expat_on_every_split(depth: int, noise: list[str], head: str,
                                                cuts: list[int]) -> None:
    raw = _document(depth, noise, head).encode()
    deepest = _expat_depth(raw)
    python = _refused(raw, cuts, compiled=False)
    # Refused exactly when expat's depth passes the bound; else every element was closed.
    assert python == ((True, -1) if deepest > MAX_XML_DEPTH else (False, 0))
    if accel.speedups is not None:
        assert _refused(raw, cuts, compiled=True) == python


@pytest.mark.parametrize("compiled", [True, False])
def test_every_cut_of_the_tricky_markup(compiled: bool) -> None:
    # Each construct cut at every byte: an opener split from its end must not be misread.
    if compiled and accel.speedups is None:
        pytest.skip("the accelerator is not built")
    doc = (b'<r:RDF xmlns:r="x"><!-- <a> -- > --><![CDATA[<b>]]]><?p <c> ??><!DOCTYPE d>'
           b'<e a="/>" b=\'>\'><f/><g\n/></e></r:RDF>')
    for cut in range(len(doc) + 1):
        assert _refused(doc, [cut], compiled) == (False, 0), cut


@pytest.mark.parametrize("pure", [False, True])
def test_deep_rdfxml_is_refused_before_pyoxigraph(tmp_path: Path, pure: bool,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    # 100,000 levels in 5 MB: pyoxigraph alone would take minutes.
    if pure:
        monkeypatch.setattr(accel, "speedups", None)
    src = tmp_path / "deep.rdf"
    src.write_text(f'<rdf:RDF {RDF}><rdf:Description rdf:about="urn:example:a">'
                   + "<e:p><rdf:Description>" * 50_000 + "x"
                   + "</rdf:Description></e:p>" * 50_000 + "</rdf:Description></rdf:RDF>")
    with pytest.raises(RDFSyntaxError, match="nested more than 1,000 levels deep"):
        check_file(src, input_format="xml")
    ok = tmp_path / "ok.rdf"
    ok.write_text(f'<rdf:RDF {RDF}><rdf:Description rdf:about="urn:example:a">'
                  + '<e:p rdf:parseType="Resource">' * 400 + "<e:q>1</e:q>"
                  + "</e:p>" * 400 + "</rdf:Description></rdf:RDF>")
    assert check_file(ok, input_format="xml").statements_in == 401  # 400 e:p, 1 e:q
