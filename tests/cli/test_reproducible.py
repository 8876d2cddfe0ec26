"""The same input and options give the same output bytes on every run, on both code paths.

Parsers invent random labels for the blank nodes a document does not name (Turtle's ``[ ]``
and ``( … )``, JSON-LD nodes without ``@id``, RDF/XML's nested descriptions); urnld numbers
them in order of appearance and keeps the labels the input wrote
(:mod:`urnld._kernel._blanks`). Each run below is a fresh process (a fresh hash seed and fresh
random labels), accelerated and ``URNLD_PURE_PYTHON=1``, writing every output syntax; and, where
the accelerator is built with libserd, with ``URNLD_SERD=0`` too (Turtle, TriG, N-Triples and
N-Quads then go through pyoxigraph rather than serd: the same bytes either way).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from urnld._kernel import SYNTAXES, BlankLabels, invented

TURTLE = """\
@prefix ex: <http://example.org/> .
ex:s ex:p [ ex:q <URN:ISBN:0-395-36341-1> ; ex:r [ ex:z "x" ] ] .
_:named ex:p ex:o ; ex:q "_:not-a-label" .
_:b0 ex:p [ ex:q _:named ] .
ex:t ex:list ( 1 "01"^^<http://www.w3.org/2001/XMLSchema#integer> [ ex:p ex:o ] ) .
"""

TRIG = """\
@prefix ex: <http://example.org/> .
ex:g { ex:s ex:p [ ex:q <URN:ISBN:0-395-36341-1> ] . }
_:gg { _:x ex:p [ ex:q ( "a" ) ] }
[] ex:p ex:o .
"""

JSONLD = json.dumps({"@context": {"ex": "http://example.org/"}, "@graph": [
    {"@id": "ex:s", "ex:p": {"ex:q": {"@id": "URN:ISBN:0-395-36341-1"}}},
    {"@id": "_:named", "ex:p": [{"ex:z": "x"}, {"ex:z": "y"}]},
]})

XML = """\
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:ex="http://example.org/">
  <rdf:Description rdf:about="http://example.org/s">
    <ex:p><rdf:Description><ex:q rdf:resource="URN:ISBN:0-395-36341-1"/></rdf:Description></ex:p>
    <ex:p rdf:nodeID="kept"/>
  </rdf:Description>
</rdf:RDF>
"""

# No "[ ]" or "( )": what the serd path reads itself (labels a parser would invent, labels
# like ours, prefixes redefined, language tags in upper case, names that need escapes).
PLAIN_TURTLE = """\
@prefix ex: <http://example.org/> .
@prefix isbn: <URN:ISBN:> .
@base <http://example.org/base/> .
ex:s ex:p _:c4ca4238a0b923820dcc509a6f75849b , _:b0 , isbn:0-395-36341-1 , "Hi"@EN-gb .
_:b0 ex:q <rel> , <http://example.org/a#b> , "1"^^ex:t , 1.5 , true , "x"^^<http://www.w3.org/2001/XMLSchema#string> .
@prefix ex: <http://example.org/other/> .
ex:z ex:p _:N00000000000000000000000000000000 .
"""

PLAIN_TRIG = """\
@prefix ex: <http://example.org/> .
ex:g { ex:s ex:p _:c4ca4238a0b923820dcc509a6f75849b , <URN:ISBN:0-395-36341-1> . }
_:gg { _:x ex:p "a"@DE . }
<urn:x:s> ex:p ex:o .
"""

NQUADS = """\
<URN:ISBN:0-395-36341-1> <http://example.org/p> _:b1 <urn:ex:g> .
_:B1 <http://example.org/p> "x"@EN .
_:c4ca4238a0b923820dcc509a6f75849b <http://example.org/p> <urn:ex:o> _:g .
"""

NTRIPLES = """\
<URN:ISBN:0-395-36341-1> <http://example.org/p> _:b1 .
_:B1 <http://example.org/p> "x"@EN .
_:c4ca4238a0b923820dcc509a6f75849b <http://example.org/p> <urn:ex:o> .
"""

INPUTS = {"in.ttl": TURTLE, "in.trig": TRIG, "in.jsonld": JSONLD, "in.rdf": XML,
          "plain.ttl": PLAIN_TURTLE, "plain.trig": PLAIN_TRIG, "in.nq": NQUADS,
          "in.nt": NTRIPLES}

# Every syntax urnld writes, by the extension -o names it with (the writer-only layouts by
# --output-format).
OUTPUTS = [(s.extensions[0], None) if s.extensions else (".out", s.name)
           for s in SYNTAXES.values() if s.writable]

# rdflib's pretty-xml layout writes the blank nodes it could not nest in the order of a set
# (a new one every process): the one layout not yet reproducible, known and listed here.
UNSTABLE = "-pretty-xml."

# One process runs every job of a round, as the command line would, one command at a time.
_SCRIPT = """
import sys
from urnld.cli import main
for line in sys.stdin.read().splitlines():
    assert main(line.split("\\t")) == 0, line
"""


def _jobs(tmp: Path, out: Path) -> list[list[str]]:
    jobs = []
    for name in INPUTS:
        quads = name.endswith((".trig", ".nq"))
        for ext, fmt in OUTPUTS:
            syntax = SYNTAXES[fmt] if fmt else next(
                s for s in SYNTAXES.values() if ext in s.extensions)
            if quads and not syntax.quads:
                continue  # named graphs cannot be written as triples: refused, tested elsewhere
            # --iris rfc3986 takes the whole-graph road: both roads, from Turtle
            for extra in ([], ["--iris", "rfc3986"]) if name.endswith(".ttl") else ([],):
                target = out / f"{name}-{syntax.name}{'.iris' if extra else ''}{ext}"
                jobs.append(["canonicalize", "-q", str(tmp / name), "-o", str(target),
                             *(["--output-format", fmt] if fmt else []), *extra])
    return jobs


def _round(tmp: Path, tag: str, path: str) -> dict[str, bytes]:
    out = tmp / tag
    out.mkdir()
    jobs = _jobs(tmp, out)
    env = {**os.environ, "URNLD_PURE_PYTHON": "1" if path == "pure" else "",
           "URNLD_SERD": "0" if path == "noserd" else ""}
    env.pop("PYTHONHASHSEED", None)  # each process its own seed, as a user's runs
    subprocess.run([sys.executable, "-c", _SCRIPT], input="\n".join("\t".join(j) for j in jobs),
                   text=True, env=env, check=True, timeout=600)
    return {p.name: p.read_bytes() for p in sorted(out.iterdir())}


@pytest.mark.slow
def test_every_output_syntax_is_the_same_bytes_on_every_run_and_both_paths(
        tmp_path: Path) -> None:
    for name, text in INPUTS.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    from urnld.stream import _serd

    paths = ["accel", "pure"] + (["noserd"] if _serd.available() else [])
    runs = {f"{path}{i}": _round(tmp_path, f"{path}{i}", path)
            for path in paths for i in (1, 2)}
    first = runs["accel1"]
    assert len(first) >= 2 * len(OUTPUTS)  # every syntax written, from several inputs
    differ = set()
    for tag, files in runs.items():
        assert files.keys() == first.keys(), tag
        differ |= {f"{name} ({tag})" for name, data in files.items()
                   if data != first[name] and UNSTABLE not in name}
    assert sorted(differ) == []
    # The labels the input wrote are kept, the invented ones numbered.
    ttl = first["in.ttl-turtle.ttl"].decode()
    assert "_:named" in ttl and "_:b0" in ttl and "_:not-a-label" in ttl
    assert not any(invented(w[2:].rstrip(" ;.,")) for w in ttl.split() if w.startswith("_:"))


def test_canonicalizing_a_canonical_file_gives_the_same_bytes(tmp_path: Path) -> None:
    from urnld.cli import main

    src = tmp_path / "in.ttl"
    src.write_text(TURTLE, encoding="utf-8")
    assert main(["canonicalize", "-q", str(src), "-o", str(tmp_path / "once.ttl")]) == 0
    assert main(["canonicalize", "-q", str(tmp_path / "once.ttl"),
                 "-o", str(tmp_path / "twice.ttl")]) == 0
    assert (tmp_path / "once.ttl").read_bytes() == (tmp_path / "twice.ttl").read_bytes()


_LABEL = st.one_of(
    st.from_regex(r"[a-f][0-9a-f]{31}", fullmatch=True),  # pyoxigraph's invented labels
    st.from_regex(r"N[0-9a-f]{32}", fullmatch=True),  # rdflib's
    st.from_regex(r"b(0|[1-9][0-9]{0,2})", fullmatch=True),  # ours, written by an input
    st.from_regex(r"[A-Za-z][A-Za-z0-9]{0,6}", fullmatch=True),
)


@given(st.lists(_LABEL, max_size=40))
def test_relabelling_is_one_to_one_and_keeps_written_labels(labels: list[str]) -> None:
    blank = BlankLabels()
    out = [blank.label(x) for x in labels]
    mapping = dict(zip(labels, out, strict=True))
    # a function of the input label, and one-to-one
    assert all(blank.label(x) == mapping[x] for x in labels)
    assert len(set(mapping.values())) == len(mapping)
    # nothing invented survives; a written label is kept unless it met a label handed out
    assert not any(invented(y) for y in out)
    handed = set()
    for x, y in zip(labels, out, strict=True):
        if y != x:
            handed.add(y)
    for x, y in mapping.items():
        if not invented(x) and y != x:
            assert x in handed


def test_labels_inside_literals_and_iris_are_left_alone() -> None:
    chunk = (b'<urn:x:_:c4ca4238a0b923820dcc509a6f75849b> <p:q> "_:c4ca4238a0b923820dcc509a6f75849b'
             b' \\" _:c4ca4238a0b923820dcc509a6f75849b" _:c4ca4238a0b923820dcc509a6f75849b .\n')
    assert BlankLabels().relabel(chunk) == chunk.replace(
        b"_:c4ca4238a0b923820dcc509a6f75849b .", b"_:b0 .")


_TERM = st.one_of(
    _LABEL.map(lambda x: f"_:{x}"),
    st.sampled_from(["<urn:x:_:a>", "<http://e/p>", "<urn:isbn:0395363411>",
                     "<http://e/_:c4ca4238a0b923820dcc509a6f75849b>"]),
)
_OBJECT = st.one_of(_TERM, st.sampled_from([
    '"x"', '"_:c4ca4238a0b923820dcc509a6f75849b"', '"a \\" _:b0 \\" b"', '"1"^^<http://e/t>',
    '"q _:named"@en']))


@given(st.lists(st.tuples(_TERM, _OBJECT, st.one_of(st.none(), _TERM)), max_size=12))
def test_the_fast_relabelling_is_the_token_by_token_one(rows: list[tuple[str, str, Any]]) -> None:
    chunk = "".join(f"{s} <http://e/p> {o}{'' if g is None else ' ' + g} .\n"
                    for s, o, g in rows).encode()
    fast, slow = BlankLabels(), BlankLabels()
    # the fast path is the one taken when no quote precedes a "_:" on a line
    assert fast.relabel(chunk) == slow._relabel_tokens(chunk)
