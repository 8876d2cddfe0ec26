"""Real-world JSON-LD with URNs read by urnld: the statements of the JSON-LD 1.1 toRdf algorithm.

The documents in ``tests/data/realworld/jsonld/`` are published examples (W3C Thing
Description 1.1 and Verifiable Credentials 2.0; sources and licences in its ``NOTE.md``), with
the contexts they name vendored beside them and served by a catalog: nothing is fetched. Each
reader of JSON-LD as RDF — the in-memory reader (:func:`urnld.read.read`, what ``urnld check``
and ``validate`` use), ``Graph(store="URN").parse`` and the streaming path (:func:`urnld.stream.canonicalize_file`, what
``urnld canonicalize`` uses) — must give the statements plain pyld's ``to_rdf`` gives, as sets
with blank nodes compared up to isomorphism (RDF canonicalization), except that URNs are in
canonical form: urnld changes nothing but URNs.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest
from pyld import jsonld as pyld_jsonld
from rdflib import Dataset, URIRef
from w3c_jsonld_harness import canonical_nquads

from urnld import canonical, is_valid
from urnld.jsonld import URNContextWarning, URNDocumentLoader

DATA = Path(__file__).resolve().parents[1] / "data" / "realworld" / "jsonld"
CONTEXTS = {
    "https://www.w3.org/2022/wot/td/v1.1": "td-context-1.1.jsonld",
    "http://www.w3.org/2022/wot/td/v1.1": "td-context-1.1.jsonld",
    "https://www.w3.org/ns/credentials/v2": "credentials-v2.jsonld",
}
DOCUMENTS = sorted(DATA.glob("*.jsonld"))


def _catalog() -> URNDocumentLoader:
    return URNDocumentLoader({url: DATA / "contexts" / name for url, name in CONTEXTS.items()})


def _valid_urn(iri: str) -> bool:
    return iri[:4].lower() == "urn:" and is_valid(iri)


def _canonical_urns(nquads: str) -> str:
    """*nquads* with every URN IRI in canonical form (what urnld does to a URN, and only that)."""
    ds = Dataset()
    ds.parse(data=nquads, format="nquads")
    out = Dataset()
    for quad in ds.quads((None, None, None, None)):
        out.add(tuple(  # type: ignore[arg-type]
            URIRef(canonical(str(t))) if isinstance(t, URIRef) and _valid_urn(str(t)) else t
            for t in quad
        ))
    return str(out.serialize(format="nquads"))


def _pyld(path: Path) -> str:
    doc = json.loads(path.read_text(encoding="utf-8"))
    return str(pyld_jsonld.to_rdf(doc, {
        "base": path.as_uri(), "documentLoader": _catalog(), "format": "application/n-quads",
    }))


def _read(path: Path) -> str:
    from urnld.read import read

    return str(read(path, catalog=_catalog()).serialize(format="nquads"))


def _store(path: Path) -> str:
    from rdflib import Dataset

    import urnld.rdf  # noqa: F401  # registers the URN store

    ds = Dataset(store="URN")
    ds.parse(data=path.read_bytes(), format="json-ld", publicID=path.as_uri(),
             catalog=_catalog())
    return str(ds.serialize(format="nquads"))


def _stream(path: Path, tmp_path: Path) -> str:
    from urnld.read import read
    from urnld.stream import canonicalize_file

    out = tmp_path / "out.nq"
    canonicalize_file(str(path), str(out), input_format="json-ld", output_format="nquads",
                      jobs=1, catalog=_catalog())
    return str(read(out, format="nquads").serialize(format="nquads"))


def test_the_corpus_is_there() -> None:
    # Each document names a URN; the comparison below is not vacuous.
    assert len(DOCUMENTS) >= 6
    for path in DOCUMENTS:
        assert '"urn:' in path.read_text(encoding="utf-8"), path.name


@pytest.mark.parametrize("path", DOCUMENTS, ids=[p.name for p in DOCUMENTS])
@pytest.mark.parametrize("reader", ["read", "store", "stream"])
def test_urnld_reads_the_statements_of_the_algorithm(
    path: Path, reader: str, tmp_path: Path
) -> None:
    expected = _pyld(path)
    assert expected.strip(), "pyld gives statements"
    with warnings.catch_warnings():
        # References resolved against the file's location are said (a warning): not checked here.
        warnings.simplefilter("ignore", URNContextWarning)
        got = {"read": lambda: _read(path), "store": lambda: _store(path),
               "stream": lambda: _stream(path, tmp_path)}[reader]()
    assert canonical_nquads(got) == canonical_nquads(_canonical_urns(expected))


@pytest.mark.parametrize("path", DOCUMENTS, ids=[p.name for p in DOCUMENTS])
def test_check_notes_say_what_the_reader_says(path: Path) -> None:
    # The notes of check (issue 36) count the references resolved against the file's location
    # as the streaming reader's warning does, and the published examples drop nothing else.
    import re

    from urnld.files import ReadingOptions, check

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", URNContextWarning)
        report = check(path, reading=ReadingOptions(catalog=_catalog()))
    said = [re.search(r"(\d+) IRIs? resolved", str(w.message)) for w in caught]
    noted = [re.match(r"(\d+) IRIs? resolved", m) for _s, _w, _c, m, _n in report.iter_notes()]
    assert [m[1] for m in said if m] == [m[1] for m in noted if m]
    assert {c for _s, _w, c, _m, _n in report.iter_notes()} <= {"jsonld-file-base"}
