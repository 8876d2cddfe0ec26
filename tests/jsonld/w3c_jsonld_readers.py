"""The W3C JSON-LD 1.1 toRdf tests through urnld's readers of JSON-LD as RDF.

Each reader reads the test's input document (``base``: the test's ``base`` option, else the
input's URL; contexts served from the local suite copy by :class:`SuiteLoader`, as a catalog
fallback) and its statements are compared with the expected N-Quads after RDF canonicalization
(URDNA2015), the suite's own comparison. Readers:

* ``read``: :func:`urnld.read.read` (what ``urnld check``, ``Graph.parse`` through urnld and the
  SHACL loader use);
* ``store``: ``Graph(store="URN").parse(data=…, format="json-ld")``;
* ``stream``: :func:`urnld.stream.canonicalize_file` to N-Quads (``urnld canonicalize``, and
  the Dask engine's tasks): pyoxigraph streaming, contexts inlined from the catalog.

Only evaluation tests whose options a reader can take (``base``, ``rdfDirection``) run; a
negative test passes when the reader refuses the document. Run as a script for the counts.
"""

from __future__ import annotations

import sys
import tempfile
import warnings
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from w3c_jsonld_harness import SuiteLoader, W3CTest, canonical_nquads, load_tests

from urnld.files import ReadingOptions

READER_OPTIONS = {"specVersion", "normative", "base", "rdfDirection", "useJCS"}


def reader_tests() -> tuple[list[W3CTest], list[W3CTest]]:
    """(toRdf tests a reader can run, toRdf tests with options no reader takes)."""
    tests, _ = load_tests("api")
    run: list[W3CTest] = []
    other: list[W3CTest] = []
    for t in tests:
        if t.manifest != "toRdf" or t.syntax_only:
            continue
        (other if set(t.option) - READER_OPTIONS else run).append(t)
    return run, other


def _base(test: W3CTest) -> str:
    return str(test.option.get("base", test.input_url))


def _read(test: W3CTest) -> str:
    from urnld.jsonld import URNDocumentLoader
    from urnld.read import read

    raw = (test.suite_dir / test.data["input"]).read_bytes()
    ds = read(data=raw, format="json-ld", base=_base(test),
              catalog=URNDocumentLoader({}, fallback=SuiteLoader(test)),
              reading=ReadingOptions(rdf_direction=test.option.get("rdfDirection")))
    return str(ds.serialize(format="nquads"))


def _store(test: W3CTest) -> str:
    from rdflib import Dataset

    import urnld.rdf  # noqa: F401  # registers the URN store
    from urnld.jsonld import URNDocumentLoader

    if test.option.get("rdfDirection"):
        raise NotApplicable
    raw = (test.suite_dir / test.data["input"]).read_bytes()
    ds = Dataset(store="URN")
    ds.parse(data=raw, format="json-ld", publicID=_base(test),
             catalog=URNDocumentLoader({}, fallback=SuiteLoader(test)))
    return str(ds.serialize(format="nquads"))


def _stream(test: W3CTest) -> str:
    from urnld.jsonld import URNDocumentLoader
    from urnld.stream import canonicalize_file

    if test.option.get("rdfDirection"):
        raise NotApplicable
    with tempfile.TemporaryDirectory() as d:
        src = Path(d) / "in.jsonld"
        src.write_bytes((test.suite_dir / test.data["input"]).read_bytes())
        out = Path(d) / "out.nq"
        canonicalize_file(str(src), str(out), input_format="json-ld", output_format="nquads",
                          base=_base(test), jobs=1,
                          catalog=URNDocumentLoader({}, fallback=SuiteLoader(test)))
        # Read back by urnld's reader (literals as written) and written by rdflib, as the
        # other readers' output: pyoxigraph writes U+007F as "\\u007F", which the
        # comparison's N-Quads parser (pyld's) does not read back.
        from urnld.read import read

        return str(read(out, format="nquads").serialize(format="nquads"))


class NotApplicable(Exception):
    """The reader cannot run this test (it takes no such option)."""


def applicable(test: W3CTest, reader: str) -> bool:
    """Whether *reader* can run *test*: only the in-memory reader takes ``rdfDirection``."""
    return reader == "read" or not test.option.get("rdfDirection")


READERS: dict[str, Callable[[W3CTest], str]] = {"read": _read, "store": _store, "stream": _stream}


def run_reader(test: W3CTest, reader: str) -> tuple[bool, str]:
    """(passed, why) of *test* through *reader*; raises :class:`NotApplicable`."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            got = READERS[reader](test)
        except NotApplicable:
            raise
        except Exception as e:  # every failure mode counts
            if test.negative:
                return True, f"refused: {type(e).__name__}"
            return False, f"{type(e).__name__}: {str(e).splitlines()[0][:200]}"
    if test.negative:
        return False, "read a document the suite says must be refused"
    try:
        same = canonical_nquads(got) == canonical_nquads(test.read("expect"))
    except Exception as e:  # expected output pyld cannot parse (generalized RDF)
        return False, f"cannot compare N-Quads: {type(e).__name__}"
    return same, "output matches" if same else "output differs from expected"


def main() -> int:
    from w3c_jsonld_harness import pyld_engine, run_test

    tests, other = reader_tests()
    counts: Counter[tuple[str, str]] = Counter()
    for t in tests:
        counts["pyld", "run"] += 1
        counts["pyld", "passed"] += run_test(t, pyld_engine).passed
        for reader in READERS:
            try:
                passed, why = run_reader(t, reader)
            except NotApplicable:
                continue
            counts[reader, "run"] += 1
            counts[reader, "passed"] += passed
            if not passed:
                print(f"{reader}\t{t.id}\t{t.data['name']}: {why}")
    print(f"{len(tests)} toRdf tests a reader can run; {len(other)} with options no reader takes")
    for name in ("pyld", *READERS):
        print(f"{name}: {counts[name, 'passed']}/{counts[name, 'run']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
