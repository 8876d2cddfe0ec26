"""``expand`` / ``compact`` / ``flatten`` / ``to_rdf``: pyld with canonical URNs and hazard checks.

How it hooks into pyld (no monkeypatching, nothing global):

* a :class:`pyld.jsonld.JsonLdProcessor` subclass whose ``expand`` canonicalizes pyld's own
  expansion output in one walk; pyld's ``compact``, ``flatten`` and ``to_rdf`` all expand through
  ``self.expand``, so every operation sees canonical IRIs exactly once;
* a :class:`pyld.ContextResolver` subclass, passed as pyld's ``contextResolver`` option, that
  canonicalizes every context pyld resolves (inline, remote, ``@import``, scoped) before pyld
  processes it, and records them for the hazard checks. It gets a fresh cache per call: pyld's
  shared cache is global, keyed by the URL as written, and pyld 3.3 mutates a cached context
  when another context ``@import``\\ s it (see docs/jsonld.md).

With ``canonicalize=False`` (and no *hazards*) the functions call pyld's module-level functions
unchanged; with *hazards* too, urnld checks and loads offline but keeps IRIs as written.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from typing import Any, Literal

from pyld import iri_resolver
from pyld import jsonld as _pyld
from pyld.context_resolver import ContextResolver
from rdflib import BNode, Dataset, Graph, URIRef
from rdflib import Literal as RDFLiteral
from rdflib.graph import DATASET_DEFAULT_GRAPH_ID

from ..errors import URNError
from ._canon import Canonicalizer, is_urn_like
from ._errors import Hazard, JsonLdProcessingError, _unwrap_urn_error
from ._hazards import BASE_SENTINEL, HazardMode, base_hazards, context_hazards, report
from ._loader import DocumentLoader, URNDocumentLoader, _copy_json

__all__ = ["compact", "expand", "flatten", "frame", "from_rdf", "to_rdf"]

_RDF_LANGSTRING = "http://www.w3.org/1999/02/22-rdf-syntax-ns#langString"
_XSD_STRING = "http://www.w3.org/2001/XMLSchema#string"


class _Resolver(ContextResolver):  # type: ignore[misc]
    """Canonicalizes each context before pyld processes it; remembers what it saw."""

    def __init__(
        self, loader: DocumentLoader, canon: Canonicalizer, base_sentinels: dict[str, str] | None,
        *, rewrite: bool = True,
    ) -> None:
        super().__init__({}, loader)
        self.canon = canon
        self.rewrite = rewrite
        self.contexts: list[dict[str, Any]] = []
        self.urn_bases: list[str] = []
        self._base_sentinels = base_sentinels
        # id(original) -> (original, canonical copy); the original is kept alive so its id is
        # never reused within the call. Type-scoped contexts are resolved once per node.
        self._memo: dict[int, tuple[Any, Any]] = {}

    def resolve(self, active_ctx: Any, context: Any, base: Any, cycles: Any = None) -> Any:
        if isinstance(context, str):
            if self.rewrite:
                context = self.canon.url(context)
        elif context is not None and not isinstance(context, bool):
            hit = self._memo.get(id(context))
            if hit is None:
                canonical = self.canon.context(context) if self.rewrite else context
                self._remember(canonical)
                hit = (context, canonical)
                self._memo[id(context)] = hit
            context = hit[1]
        return super().resolve(active_ctx, context, base, cycles)

    def _remember(self, ctx: Any) -> None:
        if isinstance(ctx, list):
            for item in ctx:
                self._remember(item)
        elif isinstance(ctx, dict):
            inner = ctx.get("@context", ctx) if len(ctx) == 1 else ctx
            if inner is not ctx:
                self._remember(inner)
                return
            self.contexts.append(ctx)
            base = ctx.get("@base")
            if isinstance(base, str) and is_urn_like(base):
                if base not in self.urn_bases:
                    self.urn_bases.append(base)
                if self._base_sentinels is not None:
                    ctx["@base"] = self._base_sentinels.setdefault(
                        base, BASE_SENTINEL.format(index=len(self._base_sentinels))
                    )


class _Processor(_pyld.JsonLdProcessor):  # type: ignore[misc]
    """pyld's processor, canonicalizing its expansion output and checking hazards there."""

    def __init__(self, run: _Run) -> None:
        super().__init__()
        self._run = run

    def _compact_iri(  # noqa: PLR0917  # pyld's signature
        self, active_ctx: Any, iri: Any, value: Any = None, vocab: bool = False,
        base: Any = None, reverse: bool = False,
    ) -> Any:
        out = super()._compact_iri(active_ctx, iri, value, vocab, base, reverse)
        if vocab or not isinstance(out, str) or out == iri:
            return out
        # Against a URN base a relative reference has no agreed meaning (urnld's own expand
        # refuses it): write the IRI out in full instead of pyld's relative form.
        effective = active_ctx.get("@base", base) if "@base" in active_ctx else base
        if isinstance(effective, str) and is_urn_like(effective):
            relative = iri_resolver.unresolve(iri, iri_resolver.resolve(effective, base))
            if out == relative:
                return iri
        return out

    def _expand_iri(  # noqa: PLR0917  # pyld's signature
        self, active_ctx: Any, value: Any, base: Any = None, vocab: bool = False,
        local_ctx: Any = None, defined: Any = None,
    ) -> Any:
        # pyld 3.3 resolves a relative reference of a document without a base against
        # "http://example.org/base/", an IRI nobody wrote; JSON-LD 1.1 (IRI Expansion step 8)
        # leaves it relative (and toRdf then drops it). base="" is pyld's "no base given".
        if base == "" and "@base" not in active_ctx:
            base = None
        return super()._expand_iri(active_ctx, value, base, vocab, local_ctx, defined)

    def _expand_index_map(  # noqa: PLR0917  # pyld's signature
        self, active_ctx: Any, active_property: Any, value: Any, index_key: Any,
        as_graph: Any, property_index: Any, options: Any,
    ) -> Any:
        # pyld 3.3 expands a property-based index key (``"@index": "name"``) with
        # ``vocab=options["base"]``: without a base the key stays "name", a relative IRI, and
        # every index value is dropped from the RDF (the W3C suite always gives a base). JSON-LD
        # 1.1 expands it as a vocabulary-relative IRI (Expansion 13.8.3.7.2).
        if property_index is not None and property_index == index_key:
            property_index = self._expand_iri(active_ctx, index_key, vocab=True)
        return super()._expand_index_map(active_ctx, active_property, value, index_key,
                                         as_graph, property_index, options)

    def expand(self, input_: Any, options: dict[str, Any]) -> Any:
        expanded = super().expand(input_, options)
        if self._run.rewrite:
            self._run.canon.expanded(expanded)
        else:  # the hazard checks need every IRI seen; the output keeps the spellings
            self._run.canon.expanded(_copy_json(expanded))
        self._run.after_expansion(self, input_, options)
        return expanded


class _Run:
    """State of one urnld operation."""

    def __init__(
        self, loader: DocumentLoader, hazards: HazardMode, compaction_context: Any,
        *, rewrite: bool = True, findings: list[Hazard] | None = None,
    ) -> None:
        self.loader = loader
        self.hazards = hazards
        self.findings = findings
        self.rewrite = rewrite
        self.canon = Canonicalizer()
        self.resolver = _Resolver(loader, self.canon, None, rewrite=rewrite)
        self.compaction_context = compaction_context
        self.checked = False

    def options(self, options: Mapping[str, Any] | None, base: str | None) -> dict[str, Any]:
        opts = dict(options or {})
        if base is not None:
            opts["base"] = base
        opts["documentLoader"] = self.loader
        opts["contextResolver"] = self.resolver
        return opts

    def after_expansion(self, proc: _Processor, input_: Any, options: dict[str, Any]) -> None:
        if self.hazards == "ignore" or self.checked:
            return
        self.checked = True
        compaction: list[dict[str, Any]] = []
        if self.compaction_context is not None:
            # Resolve the compaction context now (pyld would do it next, from the same per-call
            # cache) so hazards are reported before pyld fails on them with a vaguer message.
            before = len(self.resolver.contexts)
            # A failure here is left to pyld, which reports it with its own error code when it
            # processes the context.
            with contextlib.suppress(_pyld.JsonLdError):
                self.resolver.resolve(
                    proc._get_initial_context(options), self.compaction_context,
                    options.get("base", ""),
                )
            compaction = self.resolver.contexts[before:]
        base_found, garbage = self._base_hazards(input_, options)
        invalid = {k: v for k, v in self.canon.invalid.items() if k not in garbage}
        found = context_hazards(
            self.resolver.contexts, set(self.canon.cache.values()), invalid, compaction
        )
        report(base_found + found, self.hazards, self.findings)

    def _base_hazards(
        self, input_: Any, options: dict[str, Any]
    ) -> tuple[list[Hazard], set[str]]:
        base = options.get("base")
        if base is None and isinstance(input_, str):
            # expand() of a URL: pyld uses the loaded document's URL, which for a catalog URN
            # is its canonical form.
            base = self.canon.url(input_)
        urn_option = isinstance(base, str) and is_urn_like(base)
        if not urn_option and not self.resolver.urn_bases:
            return [], set()
        # Expand again with every URN base replaced by a recognizable hierarchical sentinel:
        # IRIs that come out under it were relative references.
        sentinels: dict[str, str] = {}
        opts = dict(options)
        if urn_option:
            assert isinstance(base, str)
            opts["base"] = sentinels.setdefault(base, BASE_SENTINEL.format(index=0))
        canon = Canonicalizer()
        opts["contextResolver"] = _Resolver(self.loader, canon, sentinels)
        try:
            expanded = _pyld.JsonLdProcessor().expand(input_, opts)
        except Exception:  # the real run reports pyld's errors; this pass only looks
            return [], set()
        canon.expanded(expanded)
        return base_hazards(list(sentinels), set(canon.cache.values()), input_, self.hazards)


def _hazard_mode(hazards: HazardMode | None, canonicalize: bool) -> HazardMode:
    if hazards is None:
        return "error" if canonicalize else "ignore"
    if hazards not in ("error", "warn", "ignore"):
        raise URNError(f"hazards must be 'error', 'warn' or 'ignore', not {hazards!r}")
    return hazards


def _call(run: _Run, op: str, *args: Any) -> Any:
    proc = _Processor(run)
    try:
        return getattr(proc, op)(*args)
    except URNError:
        raise
    except _pyld.JsonLdError as e:
        inner = _unwrap_urn_error(e)
        if inner is not None:
            raise inner from None
        raise JsonLdProcessingError(e) from e
    except Exception as e:
        # pyld 3.3 crashes on some inputs (TypeError, KeyError: see the W3C baseline); bad input
        # must still end in a documented urnld error.
        crash = _pyld.JsonLdError(f"pyld failed on this input ({type(e).__name__}: {e})",
                                  "jsonld.InternalError")
        raise JsonLdProcessingError(crash) from e


def _plain(op: str, *args: Any) -> Any:
    return getattr(_pyld, op)(*args)


def _default_loader(loader: DocumentLoader | None) -> DocumentLoader:
    return loader if loader is not None else URNDocumentLoader({})


def _plain_options(
    options: Mapping[str, Any] | None, base: str | None, loader: DocumentLoader | None
) -> dict[str, Any]:
    """pyld options for ``canonicalize=False``: exactly what the caller gave, nothing added."""
    opts = dict(options or {})
    if base is not None:
        opts["base"] = base
    if loader is not None:
        opts["documentLoader"] = loader
    if "contextResolver" not in opts:
        from pyld.context_resolver import ContextResolver

        # A context cache of this call only: pyld's process-wide cache would hand a context
        # loaded through one caller's catalog to every later call, whatever loader it names.
        document_loader = opts.get("documentLoader")
        if document_loader is None:
            document_loader = _pyld.get_document_loader()
        cache = _pyld.LRUCache(maxsize=_pyld.RESOLVED_CONTEXT_CACHE_MAX_SIZE)  # pyld's own kind
        opts["contextResolver"] = ContextResolver(cache, document_loader)
    return opts


def expand(
    doc: Any,
    *,
    loader: DocumentLoader | None = None,
    base: str | None = None,
    options: Mapping[str, Any] | None = None,
    canonicalize: bool = True,
    hazards: HazardMode | None = None,
    findings: list[Hazard] | None = None,
) -> list[Any]:
    """Expand a JSON-LD document; URN IRIs come out canonical.

    Args:
        doc: the document (parsed JSON), or a URL/URN that *loader* can load.
        loader: a pyld document loader, e.g. :class:`URNDocumentLoader`. Default: an empty
            catalog, i.e. nothing is fetched (with ``canonicalize=False``: pyld's default).
        base: the base IRI (pyld's ``base`` option).
        options: further pyld options (``expandContext``, ``processingMode``, …).
        canonicalize: ``False`` keeps IRIs as written: pyld unchanged, or, when *hazards* is
            given too, urnld's offline loading and hazard checks without the rewriting.
        hazards: ``"error"`` (default) raises :class:`URNContextError` for the hazards that
            make IRIs wrong (a relative reference against a URN base, a term named ``urn``)
            and reports the others (invalid URNs, other scheme-named terms, unusable
            prefixes) as findings, the output staying the JSON-LD algorithm's; ``"warn"``
            warns about the fatal ones too and goes on; ``"ignore"`` skips the checks.
        findings: a list the findings are appended to (:class:`Hazard` objects); without it they
            are emitted as :class:`URNContextWarning` warnings.

    Raises:
        URNContextError: a fatal URN hazard (see docs/jsonld.md), :class:`URNBaseError` for a
            URN @base.
        JsonLdProcessingError: pyld rejected the input (``.code`` is the JSON-LD error code).

    >>> expand({"@id": "URN:UUID:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6",
    ...         "https://schema.org/name": "Ada"})[0]["@id"]
    'urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6'
    """
    mode = _hazard_mode(hazards, canonicalize)
    if not canonicalize and mode == "ignore":
        opts = _plain_options(options, base, loader)
        return _plain("expand", doc, opts)  # type: ignore[no-any-return]
    run = _Run(_default_loader(loader), mode, None, rewrite=canonicalize,
               findings=findings)
    return _call(run, "expand", doc, run.options(options, base))  # type: ignore[no-any-return]


def compact(
    doc: Any,
    context: Any,
    *,
    loader: DocumentLoader | None = None,
    base: str | None = None,
    options: Mapping[str, Any] | None = None,
    canonicalize: bool = True,
    hazards: HazardMode | None = None,
    findings: list[Hazard] | None = None,
) -> Any:
    """Compact a document with *context*; prefixes match every spelling of a URN.

    *context* is a context object, a context URL/URN, or a list of them; URN IRIs in it are
    canonicalized like the data. Other arguments as for :func:`expand`.

    >>> out = compact({"@id": "URN:ISBN:0-395-36341-1", "@type": "https://schema.org/Book"},
    ...               {"isbn": "urn:isbn:", "@vocab": "https://schema.org/"})
    >>> out["@id"], out["@type"]
    ('isbn:0395363411', 'Book')
    """
    mode = _hazard_mode(hazards, canonicalize)
    if not canonicalize and mode == "ignore":
        opts = _plain_options(options, base, loader)
        return _plain("compact", doc, context, opts)
    run = _Run(_default_loader(loader), mode, context, rewrite=canonicalize,
               findings=findings)
    ctx = run.canon.context(context) if canonicalize else context
    return _call(run, "compact", doc, ctx, run.options(options, base))


def flatten(
    doc: Any,
    context: Any = None,
    *,
    loader: DocumentLoader | None = None,
    base: str | None = None,
    options: Mapping[str, Any] | None = None,
    canonicalize: bool = True,
    hazards: HazardMode | None = None,
    findings: list[Hazard] | None = None,
) -> Any:
    """Flatten a document (and compact it with *context* when given); nodes whose ids are
    URN-equivalent spellings merge into one node.

    >>> flat = flatten([{"@id": "urn:example:a", "https://schema.org/name": "A"},
    ...                 {"@id": "URN:EXAMPLE:a", "https://schema.org/age": 3}])
    >>> [(node["@id"], sorted(node)) for node in flat]
    [('urn:example:a', ['@id', 'https://schema.org/age', 'https://schema.org/name'])]
    """
    mode = _hazard_mode(hazards, canonicalize)
    if not canonicalize and mode == "ignore":
        opts = _plain_options(options, base, loader)
        return _plain("flatten", doc, context, opts)
    run = _Run(_default_loader(loader), mode, context, rewrite=canonicalize,
               findings=findings)
    ctx = run.canon.context(context) if context is not None and canonicalize else context
    return _call(run, "flatten", doc, ctx, run.options(options, base))


def frame(
    doc: Any,
    frame: Any,
    *,
    loader: DocumentLoader | None = None,
    base: str | None = None,
    options: Mapping[str, Any] | None = None,
    canonicalize: bool = True,
    hazards: HazardMode | None = None,
    findings: list[Hazard] | None = None,
) -> Any:
    """Frame a document with *frame* (JSON-LD 1.1 Framing); URN ids match in every spelling.

    *frame* is a frame object or a URL/URN the loader serves (a catalog entry). Both the
    document and the frame are expanded with canonical URNs, so a frame asking for
    ``URN:ISBN:0-395-36341-1`` finds the node written ``urn:isbn:0395363411``. Other arguments
    as for :func:`expand`.

    >>> doc = [{"@id": "URN:ISBN:0-395-36341-1", "@type": "https://schema.org/Book",
    ...         "https://schema.org/name": "Lord of the Rings"}]
    >>> out = frame(doc, {"@context": {"@vocab": "https://schema.org/"},
    ...                   "@id": "urn:isbn:0395363411"})
    >>> out["@id"], out["name"]
    ('urn:isbn:0395363411', 'Lord of the Rings')
    """
    mode = _hazard_mode(hazards, canonicalize)
    if not canonicalize and mode == "ignore":
        opts = _plain_options(options, base, loader)
        return _plain("frame", doc, frame, opts)
    run = _Run(_default_loader(loader), mode, None, rewrite=canonicalize,
               findings=findings)
    framed = frame
    if canonicalize and isinstance(frame, list):
        framed = run.canon.context(frame)
    elif canonicalize and isinstance(frame, Mapping) and "@context" in frame:
        # The framed output carries the frame's context: canonical, so that expanding the
        # output again gives the canonical IRIs (a prefix "urn:ISBN:" would not).
        framed = {**frame, "@context": run.canon.context(frame["@context"])}
    return _call(run, "frame", doc, framed, run.options(options, base))


def from_rdf(
    data: Any,
    *,
    options: Mapping[str, Any] | None = None,
    canonicalize: bool = True,
) -> list[Any]:
    """Convert RDF to expanded JSON-LD: N-Quads text, an rdflib ``Graph``/``Dataset``, or pyld's
    dataset dict. URN IRIs come out canonical, and nodes whose ids are equivalent spellings
    of one URN become one node.

    >>> nquads = ('<URN:EXAMPLE:a> <https://schema.org/name> "A" . '
    ...           '<urn:example:a> <https://schema.org/age> "3" .')
    >>> [(n["@id"], sorted(n)) for n in from_rdf(nquads.replace(" . ", " .\\n"))]
    [('urn:example:a', ['@id', 'https://schema.org/age', 'https://schema.org/name'])]
    """
    from rdflib import Graph as _Graph

    opts = dict(options or {})
    if isinstance(data, _Graph):
        data = data.serialize(format="nquads" if data.context_aware else "nt")
        opts["format"] = "application/n-quads"
    if not isinstance(data, (str, dict)):
        raise URNError(
            f"from_rdf takes N-Quads text, an rdflib Graph or a pyld dataset, not "
            f"{type(data).__name__}"
        )
    proc = _pyld.JsonLdProcessor()
    try:
        result: list[Any] = proc.from_rdf(data, opts)
    except _pyld.JsonLdError as e:
        raise JsonLdProcessingError(e) from e
    except Exception as e:  # pyld crashes on some inputs; bad input ends in a urnld error
        crash = _pyld.JsonLdError(f"pyld failed on this input ({type(e).__name__}: {e})",
                                  "jsonld.InternalError")
        raise JsonLdProcessingError(crash) from e
    if not canonicalize:
        return result
    canon = Canonicalizer()
    canon.expanded(result)
    if _has_equivalent_ids(result):
        # Spellings of one URN were separate subjects: merge them as flattening does.
        merged = _call(_Run(URNDocumentLoader({}), "ignore", None), "flatten", result, None,
                       {"documentLoader": URNDocumentLoader({})})
        return sorted(merged, key=lambda node: str(node.get("@id", "")))
    return result


def _has_equivalent_ids(nodes: list[Any]) -> bool:
    seen: set[str] = set()
    for node in nodes:
        if not isinstance(node, dict):
            continue
        node_id = node.get("@id")
        if isinstance(node_id, str):
            if node_id in seen:
                return True
            seen.add(node_id)
        graph = node.get("@graph")
        if isinstance(graph, list) and _has_equivalent_ids(graph):
            return True
    return False


def to_rdf(
    doc: Any,
    *,
    loader: DocumentLoader | None = None,
    base: str | None = None,
    options: Mapping[str, Any] | None = None,
    canonicalize: bool = True,
    hazards: HazardMode | None = None,
    format: Literal["dataset", "nquads", "pyld"] = "dataset",
    findings: list[Hazard] | None = None,
) -> Any:
    """Convert a document to RDF: an rdflib ``Dataset`` (default), N-Quads text, or pyld's dict.

    >>> ds = to_rdf({"@id": "URN:EXAMPLE:a", "https://schema.org/name": "A"})
    >>> [(str(s), str(o)) for s, p, o, g in ds.quads()]
    [('urn:example:a', 'A')]
    >>> doc = {"@id": "URN:EXAMPLE:a", "https://schema.org/name": "A"}
    >>> print(to_rdf(doc, format="nquads"), end="")
    <urn:example:a> <https://schema.org/name> "A" .
    """
    if format not in ("dataset", "nquads", "pyld"):
        raise URNError(f"format must be 'dataset', 'nquads' or 'pyld', not {format!r}")
    mode = _hazard_mode(hazards, canonicalize)
    opts = dict(options or {})
    opts.pop("format", None)
    if format == "nquads":
        opts["format"] = "application/n-quads"
    if not canonicalize and mode == "ignore":
        opts = _plain_options(opts, base, loader)
        result = _plain("to_rdf", doc, opts)
    else:
        run = _Run(_default_loader(loader), mode, None, rewrite=canonicalize,
               findings=findings)
        result = _call(run, "to_rdf", doc, run.options(opts, base))
    if format == "dataset":
        return dataset_from_pyld(result)
    return result


def _term(
    node: Mapping[str, Any], bnodes: dict[str, BNode] | None = None, normalize: bool = True,
) -> URIRef | BNode | RDFLiteral:
    kind = node["type"]
    value = node["value"]
    if kind == "IRI":
        return URIRef(value)
    if kind == "blank node":
        label = value[2:] if value.startswith("_:") else value
        if bnodes is None:
            return BNode(label)
        fresh = bnodes.get(label)
        if fresh is None:
            fresh = bnodes[label] = BNode()
        return fresh
    datatype = node.get("datatype")
    if node.get("language") is not None and datatype in (None, _RDF_LANGSTRING):
        return RDFLiteral(value, lang=node["language"])
    if datatype in (None, _XSD_STRING):
        return RDFLiteral(value)
    return RDFLiteral(value, datatype=URIRef(datatype), normalize=None if normalize else False)


def dataset_from_pyld(
    data: Mapping[str, Any], graph: Graph | None = None, *, normalize: bool = True,
) -> Any:
    """An rdflib ``Dataset`` from pyld's ``to_rdf`` dict (graph name → list of triples).

    With *graph*, the statements are added to it instead and it is returned: named graphs go
    into their graphs when it is a ``Dataset`` or a graph on a store with contexts, into the
    one graph otherwise; blank nodes get
    fresh labels, so they never meet the blank nodes of another document in *graph*.
    ``normalize=False`` keeps each typed literal's lexical form as pyld wrote it (rdflib would
    make ``"01"^^xsd:integer`` ``"1"``).

    >>> from rdflib import Graph
    >>> g = Graph()
    >>> _ = dataset_from_pyld({"@default": [{"subject": {"type": "blank node", "value": "_:b0"},
    ...     "predicate": {"type": "IRI", "value": "urn:example:p"},
    ...     "object": {"type": "literal", "value": "x"}}]}, g)
    >>> len(g), str(next(iter(g))[0]) != "b0"
    (1, True)
    """
    bnodes: dict[str, BNode] | None = None
    if graph is None:
        target: Graph = Dataset()
    else:
        target, bnodes = graph, {}
    is_dataset = isinstance(target, Dataset)
    for graph_name, triples in data.items():
        if graph_name == "@default":
            into = target.graph(DATASET_DEFAULT_GRAPH_ID) if is_dataset else target  # type: ignore[attr-defined]
        elif not is_dataset and not target.store.context_aware:
            into = target
        else:
            name = _term({"type": "blank node" if graph_name.startswith("_:") else "IRI",
                          "value": graph_name}, bnodes)
            # A graph on a store with contexts (what Dataset.parse hands a parser): the named
            # graph's context of that store, where rdflib's own TriG parser puts it.
            into = (target.graph(name) if is_dataset  # type: ignore[attr-defined]
                    else Graph(store=target.store, identifier=name,
                               namespace_manager=target.namespace_manager))
        into.addN(
            (_term(t["subject"], bnodes), _term(t["predicate"], bnodes),
             _term(t["object"], bnodes, normalize), into)
            for t in triples
        )
    return target
