"""One route for every caller: the command line, the library and Dask pick the same engine for
each (input syntax, output syntax, options), and ``-o`` writes the syntax its extension names.

The table is the rule written out: N-Triples/N-Quads stream line by line (in and out, named
graphs never flattened), the other syntaxes pyoxigraph reads and writes stream through N-Quads
(JSON-LD whose contexts come from a catalog excepted), RDFC-1.0 streams from line input, and
everything else goes through a graph.
"""

from __future__ import annotations

import pytest

import urnld._kernel._route as route_module
from urnld._kernel import Engine, canonicalize_route, check_route, get_syntax, output_syntax
from urnld.cli import main
from urnld.dask._documents import partitions

# (input, output, rdfc, iris, engine)
TABLE = [
    ("nt", "nt", False, "as-is", Engine.LINES),
    ("nt", "nquads", False, "as-is", Engine.LINES),
    ("nquads", "nquads", False, "as-is", Engine.LINES),
    ("nquads", "nt", False, "as-is", Engine.DOCUMENT),  # named graphs need a graph's check
    ("nt", "turtle", False, "as-is", Engine.SYNTAX),
    ("turtle", "nt", False, "as-is", Engine.SYNTAX),
    ("turtle", "turtle", False, "as-is", Engine.SYNTAX),
    ("trig", "nquads", False, "as-is", Engine.SYNTAX),
    ("xml", "xml", False, "as-is", Engine.SYNTAX),
    ("json-ld", "nquads", False, "as-is", Engine.SYNTAX),
    ("turtle", "trix", False, "as-is", Engine.DOCUMENT),
    ("turtle", "turtle", False, "rfc3986", Engine.DOCUMENT),
    ("nt", "nt", False, "rfc3986", Engine.DOCUMENT),
    ("nt", "nquads", True, "as-is", Engine.LINES_RDFC),
    ("nquads", "nquads", True, "as-is", Engine.LINES_RDFC),
    ("turtle", "nquads", True, "as-is", Engine.GRAPH_RDFC),
    ("nt", "nquads", True, "rfc3986", Engine.GRAPH_RDFC),
]


@pytest.mark.parametrize(("src", "dst", "rdfc", "iris", "engine"), TABLE)
def test_the_table(src, dst, rdfc, iris, engine):
    assert canonicalize_route(src, dst, rdfc=rdfc, iris=iris).engine is engine


@pytest.mark.parametrize(("src", "dst", "rdfc", "iris", "engine"),
                         [row for row in TABLE if not row[2]])
def test_dask_partitions_exactly_what_the_route_streams(src, dst, rdfc, iris, engine):
    assert partitions(src, dst, iris) is (engine is Engine.LINES)
    assert canonicalize_route(src, dst, iris=iris).partitions is (engine is Engine.LINES)


def _cli_engine(monkeypatch, tmp_path, src_syntax, dst_syntax, iris):
    """The engine `urnld canonicalize` asked the route for, run in this process."""
    seen = []

    def spy(*args, **kwargs):
        r = canonicalize_route(*args, **kwargs)
        seen.append(r.engine)
        return r

    import urnld.files

    # The command asks the library's file job, which asks the route.
    monkeypatch.setattr(urnld.files, "canonicalize_route", spy)
    ext = get_syntax(src_syntax).extensions[0]
    src = tmp_path / f"in{ext}"
    src.write_bytes(_DATA[src_syntax])
    out = tmp_path / f"out{get_syntax(dst_syntax).extensions[0]}"
    argv = ["canonicalize", str(src), "-o", str(out), "-q", "--no-config"]
    if iris != "as-is":
        argv += ["--iris", iris]
    assert main(argv) == 0
    return seen[-1]


_DATA = {
    "nt": b"<URN:ISBN:0-395-36341-1> <http://e/p> <urn:example:a> .\n",
    "nquads": b"<URN:ISBN:0-395-36341-1> <http://e/p> <urn:example:a> .\n",
    "turtle": b"<URN:ISBN:0-395-36341-1> <http://e/p> <urn:example:a> .\n",
    "trig": b"<URN:ISBN:0-395-36341-1> <http://e/p> <urn:example:a> .\n",
    "xml": b'<?xml version="1.0"?><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"'
           b' xmlns:e="http://e/"><rdf:Description rdf:about="URN:ISBN:0-395-36341-1">'
           b'<e:p rdf:resource="urn:example:a"/></rdf:Description></rdf:RDF>\n',
    "json-ld": b'{"@id": "URN:ISBN:0-395-36341-1", "http://e/p": {"@id": "urn:example:a"}}',
}


@pytest.mark.parametrize(("src", "dst", "rdfc", "iris", "engine"),
                         [row for row in TABLE if not row[2]])
def test_the_command_line_takes_the_route(monkeypatch, tmp_path, src, dst, rdfc, iris, engine):
    assert _cli_engine(monkeypatch, tmp_path, src, dst, iris) is engine


def test_check_routes_what_pyoxigraph_reads_as_a_stream():
    assert [check_route(s) for s in ("nt", "nquads", "turtle", "json-ld", "trix", "hext")] == [
        Engine.LINES, Engine.LINES, Engine.SYNTAX, Engine.SYNTAX, Engine.DOCUMENT,
        Engine.DOCUMENT]
    assert check_route("nt", iris="rfc3986") is Engine.DOCUMENT


def test_jsonld_with_a_catalog_streams():
    # pyoxigraph takes no document loader: the streaming path inlines the catalog's contexts.
    assert canonicalize_route("json-ld", "nquads", catalog=True).engine is Engine.SYNTAX
    assert check_route("json-ld", catalog=True) is Engine.SYNTAX
    assert check_route("turtle", catalog=True) is Engine.SYNTAX
    assert canonicalize_route("turtle", "pretty-xml").engine is Engine.DOCUMENT  # a layout


# Every extension the reader knows names the syntax -o writes (rdflib's guess_format knew no
# .ntriples, .turtle, .rdfs or .hext, and fell back to the input's syntax).
@pytest.mark.parametrize(("ext", "syntax"), [
    (".ntriples", "nt"), (".nt", "nt"), (".turtle", "turtle"), (".ttl", "turtle"),
    (".hext", "hext"), (".rdfs", "xml"), (".rdf", "xml"), (".nq", "nquads"),
    (".trig", "trig"), (".jsonld", "json-ld"), (".n3", "n3"), (".trix", "trix"),
    (".nt.gz", "nt"),
])
def test_output_extension_names_the_syntax(ext, syntax):
    assert output_syntax(f"b{ext}", None, default="turtle").name == syntax


@pytest.mark.parametrize(("ext", "parse_as"), [
    (".ntriples", "nt"), (".turtle", "turtle"), (".hext", "hext"), (".rdfs", "xml"),
    (".nq", "nquads"), (".trig", "trig"), (".jsonld", "json-ld"),
])
def test_canonicalize_writes_the_syntax_the_extension_names(tmp_path, ext, parse_as):
    from rdflib import Dataset, URIRef

    src = tmp_path / "a.ttl"
    src.write_text("@prefix e: <http://e/> .\n<URN:ISBN:0-395-36341-1> e:p <urn:example:a> .\n")
    out = tmp_path / f"b{ext}"
    assert main(["canonicalize", str(src), "-o", str(out), "-q", "--no-config"]) == 0
    ds = Dataset()
    ds.parse(data=out.read_text(), format=parse_as)  # fails unless it is in that syntax
    subjects = {str(s) for s, _p, _o, _g in ds.quads((None, None, None, None))}
    assert subjects == {"urn:isbn:0395363411"}
    assert URIRef("urn:example:a") in {o for _s, _p, o, _g in ds.quads((None, None, None, None))}


def test_route_module_imports_nothing_heavy():
    import subprocess
    import sys

    code = ("import sys, urnld._kernel._route, urnld._kernel._formats\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('rdflib', 'pyld', 'pyshacl', 'httpx', 'dask', 'pyoxigraph')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
    assert route_module.__name__ == "urnld._kernel._route"
