"""``validate --endpoint`` reads each answer solution by solution as it arrives: an answer
listing every focus node of a large store is never held whole. The reader gives exactly what
parsing the whole body gives, however the body is cut into chunks, and refuses what is not
SPARQL JSON results (SPARQL 1.1 Query Results JSON Format, §3)."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from urnld.endpoint import EndpointError
from urnld.shacl._remote import _bindings


class _Answer:
    """An endpoint whose answer is *body*, sent in the given chunks."""

    url = "http://127.0.0.1:1/sparql"

    def __init__(self, body: bytes, cuts: list[int]) -> None:
        self.body, self.cuts = body, sorted({c % (len(body) + 1) for c in cuts})
        self.sent = 0

    def raw(self, query: str, accept: str) -> Iterator[bytes]:
        start = 0
        for cut in [*self.cuts, len(self.body)]:
            self.sent = cut
            yield self.body[start:cut]
            start = cut


_TERM = st.one_of(
    st.builds(lambda v: {"type": "uri", "value": v}, st.text()),
    st.builds(lambda v: {"type": "bnode", "value": v}, st.text(min_size=1)),
    st.builds(lambda v, lang: {"type": "literal", "value": v, "xml:lang": lang},
              st.text(), st.sampled_from(["en", "de-CH"])),
    st.builds(lambda v: {"type": "literal", "value": v,
                         "datatype": "http://www.w3.org/2001/XMLSchema#integer"}, st.text()),
)
_ROWS = st.lists(st.dictionaries(st.sampled_from(["this", "value", "bindings"]), _TERM),
                 max_size=30)


@settings(max_examples=200, deadline=None)
@given(_ROWS, st.lists(st.integers(0, 10**6), max_size=12), st.booleans())
def test_solutions_as_parsing_the_whole_body_gives(rows: list[dict[str, object]],
                                                   cuts: list[int], spaced: bool) -> None:
    doc = {"head": {"vars": ["this", "value", "bindings"]}, "results": {"bindings": rows}}
    body = json.dumps(doc, indent=2 if spaced else None, ensure_ascii=spaced).encode()
    answer = _Answer(body, cuts)
    assert list(_bindings(answer, "SELECT")) == rows  # type: ignore[arg-type]
    assert answer.sent == len(body)  # read to its end: the connection is free again


def test_a_long_literal_arrives_in_many_chunks() -> None:
    row = {"value": {"type": "literal", "value": "é" * 300_000}}
    body = json.dumps({"head": {"vars": ["value"]}, "results": {"bindings": [row, row]}}
                      ).encode()
    answer = _Answer(body, list(range(0, len(body), 1000)))  # the é split across chunks too
    assert list(_bindings(answer, "SELECT")) == [row, row]  # type: ignore[arg-type]


@pytest.mark.parametrize("body", [
    b"",
    b"<html>busy</html>",
    b'{"head": {"vars": ["bindings"]}}',
    b'{"head": {"vars": []}, "results": {"bindings": [{"this": {"type": "uri"',
    b'{"head": {"vars": []}, "results": {"bindings": [{"this": 1}',
    b'{"head": {"vars": []}, "results": {"bindings": [1, 2]}}',
    b'{"head": {"vars": []}, "results": {"bindings": [{"a": 1}, oops]}}',
])
def test_what_is_not_sparql_json_results_is_refused(body: bytes) -> None:
    with pytest.raises(EndpointError, match="malformed SPARQL JSON results"):
        list(_bindings(_Answer(body, [5, 17]), "SELECT"))  # type: ignore[arg-type]
