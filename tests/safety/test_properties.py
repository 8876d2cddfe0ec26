"""Hypothesis: the helpers outside the core give, for any ``str``, a result or a urnld error.

"Any str" includes lone surrogates, NUL, control characters and line separators; the inputs
are biased towards the syntax each helper reads, so that they get past the first character.
"""

from __future__ import annotations

import io
import json
import warnings

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from urnld.errors import URNError

# Pieces of N-Quads, JSON-LD and XML, glued with arbitrary text.
_NQ = ["<urn:example:a>", "<URN:ISBN:0-395-36341-1>", "<http://e/p>", "_:b0", "_:b1", '"x"',
       '"urn:isbn:0395363411"', "@en", "^^<http://www.w3.org/2001/XMLSchema#anyURI>", " ",
       " .", "\n", "\r", "\\u0000", "\\", '"', "<", ">", "urn:", "%2C", "%", "\ud800", "\x00"]
_JSON = ['{"@id": ', '"urn:example:a"', '"@context"', '"@vocab"', '"@base"', ": ", ", ", "{",
         "}", "[", "]", '"urn:"', '"isbn"', '"@type"', "null", "1", '"\\ud800"', '"_:b"']
_XML = ['<r xmlns="', '<a:r xmlns:a="', "urn:example:", "URN:EXAMPLE:", '">', "</r>", "</a:r>",
        "<!DOCTYPE r>", "&amp;", "<x/>", "%2c", ":", " ", "\x00", '"', "<", ">"]


def _glued(pieces: list[str]) -> st.SearchStrategy[str]:
    return st.one_of(
        st.text(max_size=80),
        st.lists(st.one_of(st.sampled_from(pieces), st.text(max_size=5)), max_size=25).map(
            "".join
        ),
    )


_settings = settings(suppress_health_check=[HealthCheck.too_slow], deadline=None)


@_settings
@given(_glued(_NQ))
def test_digest_and_canonical_nquads(text: str) -> None:
    from urnld.rdf import canonical_nquads, digest

    try:
        out = canonical_nquads(text)
    except URNError:
        return
    assert digest(text) is not None
    assert canonical_nquads(out) == out  # canonical output is a fixed point


@_settings
@given(_glued(_NQ))
def test_canonicalize_lines(text: str) -> None:
    from urnld.stream import canonicalize_lines

    data = text.encode("utf-8", "surrogatepass")
    try:
        out = list(canonicalize_lines(data.splitlines(keepends=True)))
    except URNError:
        return
    assert all(isinstance(line, bytes) for line in out)


@_settings
@given(st.dictionaries(_glued(["isbn", "", "yang", "urn", "@vocab", "_"]),
                       _glued(["urn:isbn:", "urn:", "http://e/", "URN:EXAMPLE:", "#", ":"]),
                       max_size=4))
def test_context_from_namespaces(mapping: dict[str, str]) -> None:
    from urnld.jsonld import context_from_namespaces

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            ctx = context_from_namespaces(mapping)
        except URNError:
            return
    assert "@context" in ctx


@_settings
@given(_glued(_XML))
def test_xmlns_audit(text: str) -> None:
    from urnld.xmlns import audit

    try:
        audit(io.BytesIO(text.encode("utf-8", "surrogatepass")))
    except URNError:
        return


@_settings
@given(_glued(_JSON))
def test_jsonld_expand(text: str) -> None:
    from urnld.jsonld import expand

    try:
        doc = json.loads(text)
    except (ValueError, RecursionError):
        doc = text  # not JSON: the str itself is the document (or an IRI to load)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            out = expand(doc)
        except URNError:
            return
    assert isinstance(out, list)
