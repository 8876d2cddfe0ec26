"""``read()``: one way into a graph for every RDF syntax, offline, with the URN base guard."""

from __future__ import annotations

import gzip
import io
import json
import os
import re
import sys
import warnings
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any, Literal

from rdflib import Dataset, Graph

from .._kernel import BASE_CODE, ReadingOptions, is_urn
from ..errors import parser_reason
from ..jsonld import (
    Hazard,
    JsonLdProcessingError,
    URNContextError,
    URNContextWarning,
    URNDocumentLoader,
    dataset_from_pyld,
)
from ..jsonld import to_rdf as jsonld_to_rdf
from ._errors import ReadError, UnsafeXMLError
from ._formats import QUAD_FORMATS, format_for_path, normalize_format
from ._guard import (
    IN_READER,
    HazardMode,
    report,
    rewrite_turtle,
    turtle_hazards,
    turtle_may_have_urn_base,
)
from ._jsonld import oxigraph_quads
from ._oxigraph import check_nesting, parse_into
from ._rdfxml import xml_hazards

__all__ = ["RDF_DIRECTIONS", "Catalog", "RdfDirection", "loader_for", "new_graph", "read",
           "read_into"]

#: JSON-LD's ``rdfDirection`` values: what ``@direction`` becomes in RDF (JSON-LD 1.1 API
#: §9.4.1): dropped (None, the default), an ``i18n`` datatype, or a compound literal.
RdfDirection = Literal["i18n-datatype", "compound-literal"] | None
RDF_DIRECTIONS: tuple[RdfDirection, ...] = (None, "i18n-datatype", "compound-literal")
# A URN @base or a term named "urn" (any case): what the JSON-LD hazard checks refuse.
_MAY_HAVE_URN_HAZARD = re.compile(rb'"@base"\s*:\s*"\s*urn:|"urn"\s*:', re.IGNORECASE)

#: What ``catalog=`` accepts: a directory (or its ``catalog.json``), a mapping URN → JSON, or a
#: ready pyld document loader.
Catalog = str | os.PathLike[str] | Mapping[str, Any] | URNDocumentLoader | None

def loader_for(catalog: Catalog) -> Any:
    """The offline document loader for *catalog* (``None``: an empty catalog, nothing loads).

    >>> loader_for(None)
    <URNDocumentLoader (none given) (0 entries)>
    """
    if catalog is None:
        return URNDocumentLoader({})
    if isinstance(catalog, URNDocumentLoader):
        return catalog
    return URNDocumentLoader(catalog)


def new_graph(fmt: str) -> Graph:
    """An empty graph fit for *fmt*: a ``Dataset`` for syntaxes with named graphs."""
    if fmt in QUAD_FORMATS:
        return Dataset()
    return Graph(bind_namespaces="core")


def _read_bytes(source: str | os.PathLike[str]) -> bytes:
    name = os.fspath(source)
    if name == "-":
        return sys.stdin.buffer.read()
    try:
        if name.lower().endswith(".gz"):
            with gzip.open(name, "rb") as f:
                return f.read()
        with open(name, "rb") as f:
            return f.read()
    except (EOFError, gzip.BadGzipFile) as e:
        raise ReadError(f"{name}: cannot read: {e}") from e


def read(
    source: str | os.PathLike[str] | None = None,
    *,
    data: bytes | str | None = None,
    format: str | None = None,
    graph: Graph | None = None,
    base: str | None = None,
    catalog: Catalog = None,
    hazards: HazardMode = "error",
    name: str | None = None,
    reading: ReadingOptions | None = None,
) -> Graph:
    """Read RDF from a file (*source*; ``-`` is stdin, ``.gz`` is decompressed) or from *data*.

    Args:
        format: the syntax (``turtle``, ``trig``, ``nt``, ``nquads``, ``xml``, ``json-ld``,
            ``n3``, ``trix``, ``hext`` or a common alias); default: from the extension (stdin
            and *data*: Turtle).
        graph: add to this graph (default: a new ``Dataset`` for syntaxes with named graphs,
            else a new ``Graph``).
        base: the base IRI (default: the file's ``file:`` URI; none for stdin and *data*).
        catalog: where JSON-LD contexts come from (see :func:`loader_for`); nothing is ever
            fetched from the network or read from outside the catalog.
        hazards: relative references against a URN base: ``"error"`` (default) raises
            :class:`~urnld.jsonld.URNBaseError`, ``"warn"`` warns and resolves them the RFC 3986
            way, ``"ignore"`` resolves them silently.
        name: how messages name the input (default: the path, ``<stdin>``, ``<data>``).
        reading: the reading options as one value (:class:`urnld._kernel.ReadingOptions`);
            its fields fill in the keywords not given, and it carries JSON-LD's
            ``rdf_direction``: what a JSON-LD ``@direction`` becomes. ``None`` (default, as
            JSON-LD 1.1 says) drops it (``"x"@en``); ``"i18n-datatype"`` gives
            ``"x"^^<https://www.w3.org/ns/i18n#en_ltr>``; ``"compound-literal"`` a blank node
            with ``rdf:value``, ``rdf:language`` and ``rdf:direction``.

    A JSON-LD document's relative references are resolved like those of every other syntax:
    against *base*, else ``@base``, else the file's location. When some were resolved against
    a ``file:`` base, a :class:`~urnld.jsonld.URNContextWarning` says how many (their IRIs
    then name a local path: give *base* to give them their published IRIs).

    Raises:
        ReadError: unknown syntax, unreadable file, a parser's complaint (one line, the input
            named); :class:`UnsafeXMLError` for XML entity declarations.
        URNContextError: a URN hazard (:class:`~urnld.jsonld.URNBaseError` for bases).

    >>> g = read(data="@base <urn:example:doc> . <#s> <urn:example:p> <urn:example:o> .")
    >>> [str(s) for s in g.subjects()]
    ['urn:example:doc#s']
    >>> read(data="@base <urn:example:doc> . <c> <urn:example:p> 1 .", name="x.ttl")
    Traceback (most recent call last):
    ...
    urnld.jsonld.URNBaseError: x.ttl:1:27: relative reference <c> against the URN base \
<urn:example:doc>: URNs have no hierarchy, so the reference has no agreed meaning (RFC 3986 \
§5.2, Jena, Oxigraph: <urn:c>; rdflib: refuses the document); write the full IRI or declare \
a prefix [urn-base]
    """
    rdf_direction = None
    if reading is not None:
        format = format if format is not None else reading.format
        base = base if base is not None else reading.base
        catalog = catalog if catalog is not None else reading.catalog
        hazards = hazards if hazards != "error" else reading.hazards
        rdf_direction = reading.rdf_direction
    if hazards not in ("error", "warn", "ignore"):
        raise ReadError(f"hazards must be 'error', 'warn' or 'ignore', not {hazards!r}")
    if (source is None) == (data is None):
        raise ReadError("give a source (a path or '-') or data, not both and not neither")
    if data is not None:
        label = name or "<data>"
        fmt = normalize_format(format or "turtle")
        raw = data.encode("utf-8") if isinstance(data, str) else data
        doc_base = base
    else:
        assert source is not None
        path = os.fspath(source)
        label = name or ("<stdin>" if path == "-" else path)
        fmt = format_for_path(path, format, stdin="turtle")
        raw = _read_bytes(path)
        doc_base = base
        if doc_base is None and path != "-":
            doc_base = Path(path).resolve().as_uri()
    target = new_graph(fmt) if graph is None else graph
    read_into(target, raw, fmt, base=doc_base, catalog=catalog, hazards=hazards, name=label,
              rdf_direction=rdf_direction)  # type: ignore[arg-type]  # read_into checks it
    return target


def read_into(
    graph: Graph,
    raw: bytes,
    fmt: str,
    *,
    base: str | None,
    catalog: Catalog,
    hazards: HazardMode,
    name: str,
    rdf_direction: RdfDirection = None,
) -> None:
    """Parse the document *raw* (bytes, syntax *fmt*) into *graph*; see :func:`read`."""
    if rdf_direction not in RDF_DIRECTIONS:
        raise ReadError(f"rdf_direction must be one of {', '.join(map(str, RDF_DIRECTIONS))}, "
                        f"not {rdf_direction!r}")
    fmt = normalize_format(fmt)
    try:
        with warnings.catch_warnings():
            # rdflib's own parsers (Dataset.parse, TriG) call its deprecated default_context and
            # ConjunctiveGraph: not our caller's concern, and not actionable.
            warnings.filterwarnings("ignore", "Dataset.default_context", DeprecationWarning)
            warnings.filterwarnings("ignore", "ConjunctiveGraph is deprecated", DeprecationWarning)
            _parse(graph, raw, fmt, base=base, catalog=catalog, hazards=hazards, name=name,
                   rdf_direction=rdf_direction)
    except (URNContextError, ReadError, JsonLdProcessingError):
        raise
    except OSError as e:
        raise ReadError(f"{name}: cannot read: {e.strerror or e}") from e
    except RecursionError as e:
        raise ReadError(f"{name}: cannot parse as {fmt}: nested too deeply") from e
    except Exception as e:
        # rdflib's parsers raise many unrelated types (BadSyntax, SAXParseException,
        # ValueError, AssertionError…); at this input boundary they all mean "not parseable".
        raise ReadError(f"{name}: cannot parse as {fmt}: {parser_reason(e)}") from e


def _parse(
    graph: Graph, raw: bytes, fmt: str, *, base: str | None, catalog: Catalog,
    hazards: HazardMode, name: str, rdf_direction: RdfDirection = None,
) -> None:
    if fmt in OXIGRAPH_GUARDED:
        guard_raw(raw, fmt, base=base, hazards=hazards, name=name, stacklevel=6)
        parse_into(graph, raw, fmt, base=None if fmt in ("nt", "nquads") else base, name=name)
        return
    if fmt == "json-ld":
        _parse_jsonld(graph, raw, base=base, catalog=catalog, hazards=hazards, name=name,
                      rdf_direction=rdf_direction)
        return
    # N3 (formulas, variables), TriX and HexTuples: rdflib's parsers, the only ones there are.
    if fmt == "n3" and ((base is not None and is_urn(base)) or turtle_may_have_urn_base(raw)):
        text, found = rewrite_turtle(_text(raw, name), base, source=name, syntax=fmt,
                                     mode=hazards)
        report(found, hazards, stacklevel=5)
        _rdflib_parse(graph, text, fmt, base)
        return
    if fmt == "trix":
        _refuse_entities(raw, name)
    _rdflib_parse(graph, raw, fmt, base)


#: The syntaxes pyoxigraph parses after :func:`guard_raw` has looked at the document.
OXIGRAPH_GUARDED = ("turtle", "trig", "nt", "nquads", "xml")


def guard_raw(raw: bytes, fmt: str, *, base: str | None, hazards: HazardMode, name: str,
              stacklevel: int = 4) -> None:
    """What must be true of *raw* before pyoxigraph parses it as *fmt* (one of
    :data:`OXIGRAPH_GUARDED`): references against a URN base told (or refused), Turtle and
    TriG nesting bounded, RDF/XML entity declarations refused."""
    if fmt in ("turtle", "trig"):
        # pyoxigraph resolves every reference the RFC 3986 way, which is what the guard lets
        # pass (or, with "warn", goes on with): only the hazards are to be told first.
        if hazards != "ignore" and (
                (base is not None and is_urn(base)) or turtle_may_have_urn_base(raw)):
            report(turtle_hazards(_text(raw, name), base, source=name, syntax=fmt,
                                  mode=hazards), hazards, stacklevel=stacklevel)
        check_nesting(raw, fmt, name)
    elif fmt == "xml":
        report(xml_hazards(raw, base, source_name=name, mode=hazards), hazards,
               stacklevel=stacklevel)


def _text(raw: bytes, name: str) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ReadError(f"{name}: not UTF-8 (byte {e.start})") from None


def _rdflib_parse(graph: Graph, data: str | bytes, fmt: str, base: str | None) -> None:
    """rdflib's own parser for *fmt* (the one rdflib registered, not a wrapper of urnld's)."""
    token = IN_READER.set(True)
    try:
        Graph.parse(graph, data=data, format=fmt, publicID=base)
    finally:
        IN_READER.reset(token)


def _refuse_entities(raw: bytes, name: str) -> None:
    from ..xmlns import XMLNamespaceError, iter_namespaces

    try:
        for _ in iter_namespaces(io.BytesIO(raw)):
            pass
    except XMLNamespaceError as e:
        raise UnsafeXMLError(f"{name}: {str(e).split(': ', 1)[-1]}") from None


def _parse_jsonld(
    graph: Graph, raw: bytes, *, base: str | None, catalog: Catalog, hazards: HazardMode,
    name: str, rdf_direction: RdfDirection = None,
) -> None:
    try:
        doc = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as e:
        raise ReadError(f"{name}: not UTF-8 (byte {e.start})") from None
    except json.JSONDecodeError as e:
        raise ReadError(
            f"{name}: not JSON: {e.msg} (line {e.lineno}, column {e.colno})"
        ) from None
    loader = loader_for(catalog)
    options = {"rdfDirection": rdf_direction} if rdf_direction is not None else None
    pyld_rdf: Any = None
    found: list[Hazard] = []
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", URNContextWarning)
            pyld_rdf = jsonld_to_rdf(
                doc, loader=loader, base=base, canonicalize=False, options=options,
                hazards=hazards, format="pyld", findings=found,
            )
    except URNContextError as e:
        # An invalid URN is a finding of the report (as in every other syntax), not a reason
        # to refuse the document; the hazards that make IRIs wrong are.
        if not e.hazards or any(h.code != "invalid-urn" for h in e.hazards):
            raise type(e)(f"{name}: {e}", e.hazards) from None
    except JsonLdProcessingError as e:
        # pyld 3.3 crashes on some valid documents (W3C toRdf e122: IRIs starting with "@");
        # pyoxigraph's statements stand then, unless the document may hold a URN hazard that
        # only pyld's pass can judge.
        quads = None
        if e.type == "jsonld.InternalError" and not _MAY_HAVE_URN_HAZARD.search(raw):
            quads = oxigraph_quads(doc, loader, base, rdf_direction)
        if quads is None:
            raise ReadError(f"{name}: {e}") from None
        parse_into(graph, b"", "json-ld", base=base, name=name, quads=quads)
        return
    for hazard in found:
        # An invalid URN is a finding of the report (as in every other syntax): told there.
        if hazard.code != "invalid-urn":
            warnings.warn(f"{name}: {hazard.message}", URNContextWarning, stacklevel=6)
    for w in caught:
        # Warnings name the document as the errors do (the JSON-LD layer knows no file).
        if issubclass(w.category, URNContextWarning):
            warnings.warn(f"{name}: {w.message}", URNContextWarning, stacklevel=6)
        else:
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    if not any(f"[{BASE_CODE}]" in str(w.message) for w in caught):
        # pyld checked the hazards and the catalog; pyoxigraph gives the statements of the
        # JSON-LD 1.1 algorithms with literals as written, except where it deviates (see
        # read/_jsonld.py). After a base warning, pyld's result is what the warning said
        # urnld goes on with.
        quads = oxigraph_quads(doc, loader, base, rdf_direction)
        if quads is not None:
            import pyoxigraph as ox

            named = ox.NamedNode
            _tell_file_references(
                (t.value for q in quads for t in (q.subject, q.predicate, q.object, q.graph_name)
                 if type(t) is named), raw, base, name)
            parse_into(graph, b"", "json-ld", base=base, name=name, quads=quads)
            return
    if pyld_rdf is None:  # refused for invalid URNs only: read again, told nothing
        pyld_rdf = jsonld_to_rdf(doc, loader=loader, base=base, canonicalize=False,
                                 options=options, hazards="ignore", format="pyld")
    _tell_file_references(_pyld_iris(pyld_rdf), raw, base, name)
    dataset_from_pyld(pyld_rdf, graph, normalize=False)


def _pyld_iris(data: Mapping[str, Any]) -> Iterator[str]:
    """The IRIs of pyld's ``to_rdf`` dict (graph names included)."""
    for graph_name, triples in data.items():
        if graph_name != "@default" and not graph_name.startswith("_:"):
            yield graph_name
        for t in triples:
            for part in ("subject", "predicate", "object"):
                node = t[part]
                if node["type"] == "IRI":
                    yield node["value"]


def _tell_file_references(iris: Iterable[str], raw: bytes, base: str | None, name: str) -> None:
    """Warn how many IRIs of a JSON-LD document came from references resolved against its
    ``file:`` base (IRIs starting ``file:`` that the document does not spell out)."""
    if base is None or not base.startswith("file:"):
        return
    count = 0
    written: dict[str, bool] = {}
    for iri in iris:
        if iri.startswith("file:"):
            spelled = written.get(iri)
            if spelled is None:
                spelled = written[iri] = iri.encode("utf-8") in raw
            count += not spelled
    if count:
        warnings.warn(
            f"{name}: {count:,} IRI{'s' if count != 1 else ''} resolved against the file's "
            f"location <{base}> (relative references with no @base): give --base (base=) "
            "for the IRIs the document is published under", URNContextWarning, stacklevel=6)
