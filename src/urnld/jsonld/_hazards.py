"""Hazard checks: ways URNs make JSON-LD processors produce wrong IRIs without any error.

All checks work from what one processing run already has: the contexts pyld resolved (as seen by
urnld's context resolver) and the IRIs of the expanded output (the canonicalizer's cache keys).
Only the ``@base`` check needs a second expansion, and only when a URN base is present.
"""

from __future__ import annotations

import bisect
import os
import re
import sys
import warnings
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any

from pyld import iri_resolver

from .._kernel import (
    BASE_CODE,
    HazardMode,  # the one definition (re-exported here)
    base_message,
    is_hazard,
)
from ._canon import GEN_DELIMS, is_urn_like
from ._errors import Hazard, URNBaseError, URNContextError, URNContextWarning

__all__ = [
    "BASE_SENTINEL",
    "SCHEME_TERMS",
    "HazardMode",
    "base_hazards",
    "context_hazards",
    "report",
]


#: URI schemes whose IRIs have no "//" authority, so a JSON-LD term of the same name turns them
#: into compact IRIs (w3c/json-ld-api#104). "http://…" is safe: JSON-LD never treats "p://…" as
#: a compact IRI. Lower case; term names are compared case-insensitively.
SCHEME_TERMS = frozenset(
    {"urn", "did", "tag", "mailto", "tel", "geo", "info", "data", "cid", "mid", "news", "sip",
     "sips", "xmpp", "ni"}
)

#: Stand-in for a URN @base in the detection pass: a scheme of its own (so even "//h/c", which
#: replaces the authority, stays recognizable) and a path deep enough that "../" stays visible.
BASE_SENTINEL = "x-urnld-base{index}:" + "/s" * 8 + "/"
_SENTINEL_RE = re.compile(r"x-urnld-base(\d+):(.*)", re.DOTALL)
_SENTINEL_PATH = "/s" * 8 + "/"
_GEN_DELIMS_TEXT = ": / ? # [ ] @"


def _term_mappings(ctx: Mapping[str, Any]) -> Iterable[tuple[str, str | None, bool, bool]]:
    """(term, IRI mapping or None, usable as a prefix, explicit ``@prefix: true``) per term.

    JSON-LD 1.1 (Context Processing 4.2.2 step 14.2.3) makes a term a prefix when it is a plain
    string ending in a gen-delim, or when its definition says ``"@prefix": true``.
    """
    for name, definition in ctx.items():
        if name[:1] == "@" or ":" in name or "/" in name:
            continue
        if isinstance(definition, str):
            yield name, definition, definition[-1:] in GEN_DELIMS, False
        elif isinstance(definition, Mapping):
            iri = definition.get("@id")
            flag = definition.get("@prefix") is True
            yield name, iri if isinstance(iri, str) else None, flag, flag


def context_hazards(
    contexts: Sequence[Mapping[str, Any]],
    iris: Collection[str],
    invalid: Mapping[str, str],
    compaction_contexts: Sequence[Mapping[str, Any]] = (),
) -> list[Hazard]:
    """Hazards found in *contexts* given the IRIs of the expanded document.

    Args:
        contexts: every context object used (canonicalized).
        iris: every IRI of the expanded output.
        invalid: invalid ``urn:`` IRIs seen, with the reason.
        compaction_contexts: the contexts the output will be compacted with.
    """
    found: list[Hazard] = []
    seen_terms: set[tuple[str, str | None]] = set()
    schemes: dict[str, str] | None = None  # scheme -> one IRI using it (computed on demand)

    ordered: list[str] | None = None  # sorted IRIs, so messages name the same example each run

    def in_order() -> list[str]:
        nonlocal ordered
        if ordered is None:
            ordered = sorted(iris)
        return ordered

    def by_scheme() -> dict[str, str]:
        nonlocal schemes
        if schemes is None:
            schemes = {}
            for iri in in_order():
                scheme, sep, rest = iri.partition(":")
                if sep and scheme != "_" and not rest.startswith("//"):
                    schemes.setdefault(scheme, iri)
        return schemes

    def starting_with(prefix: str) -> str | None:
        # The first IRI (in sorted order) that extends *prefix*: a binary search, then a short
        # scan past *prefix* itself.
        items = in_order()
        for iri in items[bisect.bisect_left(items, prefix):]:
            if not iri.startswith(prefix):
                return None
            if len(iri) > len(prefix):
                return iri
        return None

    compaction_ids = {id(c) for c in compaction_contexts}
    context_ids = {id(c) for c in contexts}
    for ctx in [*contexts, *(c for c in compaction_contexts if id(c) not in context_ids)]:
        for name, iri, prefix_capable, prefix_flag in _term_mappings(ctx):
            if (name, iri) in seen_terms and id(ctx) not in compaction_ids:
                continue
            seen_terms.add((name, iri))
            # Compaction with a prefix term named like the scheme of an IRI it must write out
            # fails in pyld ("IRI confused with prefix"): say which term and IRI, whatever
            # the scheme. Expansion can only be judged for schemes known to lack "//".
            if (prefix_capable and id(ctx) in compaction_ids and name.lower() not in SCHEME_TERMS
                    and name in by_scheme()):
                found.append(Hazard(
                    "scheme-term",
                    f"term {name!r} has the name of the URI scheme '{name}:' used by "
                    f"{by_scheme()[name]!r}; JSON-LD cannot compact such IRIs or read them back "
                    "(they look like compact IRIs); rename the term",
                ))
            if name.lower() in SCHEME_TERMS and prefix_capable:
                # A mapping that itself starts with "name:" cannot tell a hijacked IRI from a
                # real one; the compaction-side message below still applies.
                hijacked = (starting_with(iri) if iri and ":" in iri
                            and not iri.lower().startswith(name.lower() + ":") else None)
                used = by_scheme().get(name)
                if hijacked is not None and iri is not None:
                    example = f"{name}:{hijacked[len(iri):]}"
                    found.append(Hazard(
                        "scheme-term",
                        f"term {name!r} has the name of the URI scheme '{name}:', so JSON-LD reads "
                        f"{example!r} as a compact IRI and expands it to {hijacked!r} "
                        "(w3c/json-ld-api#104); rename the term",
                        fatal=name.lower() == "urn",
                    ))
                elif used is not None:
                    found.append(Hazard(
                        "scheme-term",
                        f"term {name!r} has the name of the URI scheme '{name}:' used by "
                        f"{used!r}; JSON-LD cannot compact such IRIs or read them back "
                        "(they look like compact IRIs); rename the term",
                        fatal=name.lower() == "urn",
                    ))
            if (iri is not None and is_urn_like(iri) and iri[-1:] not in GEN_DELIMS
                    and not prefix_flag):
                unexpanded = by_scheme().get(name)
                if unexpanded is not None:
                    found.append(Hazard(
                        "prefix-not-usable",
                        f"{unexpanded!r} was not expanded: term {name!r} maps to the URN "
                        f"namespace {iri!r}, which does not end in a gen-delim "
                        f"({_GEN_DELIMS_TEXT}), and JSON-LD 1.1 uses such a term as a prefix only "
                        'with "@prefix": true',
                    ))
                elif id(ctx) in compaction_ids:
                    longer = starting_with(iri)
                    if longer is not None:
                        found.append(Hazard(
                            "prefix-not-usable",
                            f"term {name!r} cannot compact {longer!r}: its URN namespace {iri!r} "
                            f"does not end in a gen-delim ({_GEN_DELIMS_TEXT}); add "
                            '"@prefix": true to the term definition',
                        ))
    # One hazard per reason: 300 IRIs with a two-letter NID are one problem, not 300.
    by_reason: dict[str, list[str]] = {}
    for text in sorted(invalid):
        by_reason.setdefault(invalid[text], []).append(text)
    for reason, texts in sorted(by_reason.items(), key=lambda item: item[1][0]):
        more = f" (and {len(texts) - 1} more IRI{'s' if len(texts) > 2 else ''} like it)" \
            if len(texts) > 1 else ""
        found.append(Hazard("invalid-urn", f"{texts[0]!r}{more} is not a valid URN: {reason}"))
    return found


def _reference_of(rest: str) -> str:
    """The reference that, resolved against the sentinel base, gave ``sentinel + rest``."""
    if rest.startswith(_SENTINEL_PATH):
        return rest[len(_SENTINEL_PATH):]
    if rest.startswith("//") or not rest.startswith("/s/"):
        return rest  # a network-path or an absolute-path reference
    kept = 0
    segments = rest.split("/")[1:]
    while kept < len(segments) - 1 and segments[kept] == "s":
        kept += 1
    return "../" * (8 - kept) + "/".join(segments[kept:])


def _pointer(doc: Any, text: str, path: str = "") -> str | None:
    """The JSON pointer (RFC 6901) of the first string value equal to *text* in *doc*."""
    if isinstance(doc, dict):
        items: Iterable[tuple[Any, Any]] = doc.items()
    elif isinstance(doc, list):
        items = enumerate(doc)
    else:
        return path if doc == text and path else None
    for key, value in items:
        escaped = str(key).replace("~", "~0").replace("/", "~1")
        found = _pointer(value, text, f"{path}/{escaped}")
        if found is not None:
            return found
    return None


def base_hazards(
    bases: Sequence[str], sentinel_iris: Iterable[str], document: Any = None,
    mode: HazardMode = "error",
) -> tuple[list[Hazard], set[str]]:
    """Relative references resolved against a URN base, from the sentinel expansion's IRIs.

    *bases* are the URN bases in the order their sentinels were numbered. Empty, fragment-only
    and query-only references are well defined against a URN base (RFC 3986 §5.2) and pass.
    Also returns the IRIs the real expansion produced for the hazards (so they are not reported
    again as invalid URNs).
    """
    from rdflib.plugins.shared.jsonld.util import norm_url

    found: dict[str, Hazard] = {}
    results: set[str] = set()
    for iri in sentinel_iris:
        m = _SENTINEL_RE.fullmatch(iri)
        if m is None or int(m.group(1)) >= len(bases):
            continue
        base = bases[int(m.group(1))]
        ref = _reference_of(m.group(2))
        if not is_hazard(ref, base) or ref in found:
            continue
        result = iri_resolver.resolve(ref, base)
        results.add(result)
        pointer = _pointer(document, ref) if not isinstance(document, str) else None
        if isinstance(document, str):
            where = f"JSON-LD document <{document}>"
        else:
            where = f"JSON-LD {pointer}" if pointer else "JSON-LD document"
        found[ref] = Hazard(BASE_CODE, base_message(
            ref, base, where=where,
            outcomes={"pyld": f"<{result}>", "rdflib": f"<{norm_url(base, ref)}>"},
            continuing=result if mode == "warn" else None,
        ))
    return [found[k] for k in sorted(found)], results


_INTERNAL_DIRS = (os.path.dirname(__file__), os.path.dirname(iri_resolver.__file__))


def _caller_stacklevel() -> int:
    """The ``stacklevel`` that points a warning at the first frame outside urnld.jsonld/pyld."""
    frame = sys._getframe(1)
    level = 1
    while frame is not None and frame.f_code.co_filename.startswith(_INTERNAL_DIRS):
        frame = frame.f_back  # type: ignore[assignment]
        level += 1
    return level


def report(
    hazards: Sequence[Hazard], mode: HazardMode, findings: list[Hazard] | None = None,
) -> None:
    """Report *hazards* as *mode* says: ``error`` raises for the fatal ones (a URN base, a term
    named ``urn``) and reports the others as findings; ``warn`` warns about the fatal ones too
    and goes on; ``ignore`` does nothing. A finding is appended to *findings* when given, else
    warned as a :class:`URNContextWarning`.

    >>> found = []
    >>> report([Hazard("invalid-urn", "'urn:bar' is not a valid URN")], "error", found)
    >>> [h.code for h in found]
    ['invalid-urn']
    """
    if not hazards or mode == "ignore":
        return
    fatal = [h for h in hazards if h.fatal] if mode == "error" else []
    if fatal:
        first = fatal[0]
        message = first.message
        if len(hazards) > 1:
            message += f" (and {len(hazards) - 1} more hazard{'s' if len(hazards) > 2 else ''})"
        cls = URNBaseError if first.code == BASE_CODE else URNContextError
        raise cls(message, [*fatal, *(h for h in hazards if not h.fatal)])
    if findings is not None:
        findings.extend(h for h in hazards if not h.fatal)
        hazards = [h for h in hazards if h.fatal]  # with "warn": still warnings
    level = _caller_stacklevel()
    for hazard in hazards:
        warnings.warn(hazard.message, URNContextWarning, stacklevel=level)
