"""The statements the opt-in modes of the canonicalization pass add, from what it merged.

Every path (in-memory, stream, worker processes, Dask) decides them here, from the same input:
the ``(canonical, spelling)`` pairs of the URNs the pass met (the report's clusters). So the
added statements depend only on *which* spellings occur, never on the order or the partitioning
of the input, and they come out sorted (N-Triples line order).

* ``link``: ``<a> owl:sameAs <b>`` and ``<b> owl:sameAs <a>`` for two canonical URNs of the data
  that are functionally equivalent by a namespace rule (:meth:`urnld.URN.functional_equivalents`:
  an ISBN-10 and its ISBN-13, an ISBN and its ISBN-A DOI). Only URNs that occur are linked, and
  only URNs without r-, q- or f-components (those name a part of, or a service about, the
  resource).
* ``keep_spellings``: ``<canonical> urnld:spelling "original"`` for every spelling that was
  rewritten, so a merge never loses what the data said.
* ``link_resolvers``: ``<canonical> rdfs:seeAlso <locator>`` for every locator the resolver table
  (:mod:`urnld.resolvers`) builds for a canonical URN of the data. Nothing is fetched.
* ``link_locators``: ``<locator> owl:sameAs <urn>`` and back for every IRI of the data that is
  a resolver's address of a URN of the data (:func:`urnld.resolvers.urn_of_locator`), and for
  every canonical GS1 Digital Link IRI of the data that is the Digital Link of an EPC URN of
  the data (:meth:`urnld.URN.equivalent_iris`: the EPC tells the company prefix, so nothing
  is guessed). Both nodes must occur; the locator pairs come from the report
  (:meth:`urnld.report.CanonicalizeReport.locator_pairs`).

>>> opts = LinkOptions(link=True, keep_spellings=True)
>>> pairs = [("urn:isbn:0395363411", "URN:ISBN:0-395-36341-1"),
...          ("urn:isbn:9780395363416", "urn:isbn:9780395363416")]
>>> print(ntriples(extra_statements(pairs, opts)).decode(), end="")
<urn:isbn:0395363411> <http://www.w3.org/2002/07/owl#sameAs> <urn:isbn:9780395363416> .
<urn:isbn:0395363411> <https://w3id.org/urnld/vocab#spelling> "URN:ISBN:0-395-36341-1" .
<urn:isbn:9780395363416> <http://www.w3.org/2002/07/owl#sameAs> <urn:isbn:0395363411> .
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import TYPE_CHECKING, Final, NamedTuple

from .._core import URN
from ..errors import SpellingLimitError
from ._terms import SPELLING

if TYPE_CHECKING:
    from ._report_canon import CanonicalizeReport

__all__ = [
    "OWL_SAME_AS",
    "RDFS_SEE_ALSO",
    "SPELLING",
    "Extra",
    "LinkOptions",
    "extra_statements",
    "extras_of_report",
    "ntriples",
    "record_extras",
    "report_extras",
]

OWL_SAME_AS: Final = "http://www.w3.org/2002/07/owl#sameAs"
RDFS_SEE_ALSO: Final = "http://www.w3.org/2000/01/rdf-schema#seeAlso"


@dataclasses.dataclass(frozen=True, slots=True)
class LinkOptions:
    """Which statements the canonicalization pass adds (all off by default).

    >>> bool(LinkOptions()), bool(LinkOptions(link_resolvers=True))
    (False, True)
    """

    link: bool = False
    keep_spellings: bool = False
    link_resolvers: bool = False
    link_locators: bool = False

    def __bool__(self) -> bool:
        return self.link or self.keep_spellings or self.link_resolvers or self.link_locators


class Extra(NamedTuple):
    """One added statement: IRIs, and the object a plain literal when ``literal``."""

    subject: str
    predicate: str
    object: str
    literal: bool = False

    def ntriples(self) -> bytes:
        """The statement as one N-Triples line."""
        return _line(self).encode()


def _line(e: Extra) -> str:
    """*e*'s N-Triples line as a str: the lines sort as their UTF-8 bytes do (UTF-8 keeps
    code point order), and many are encoded at once."""
    obj = _nt_literal(e.object) if e.literal else f"<{e.object}>"
    return f"<{e.subject}> <{e.predicate}> {obj} .\n"


def _nt_literal(text: str) -> str:
    # N-Triples STRING_LITERAL_QUOTE: '"', '\\', LF and CR must be escaped (a valid URN has
    # none of them; this keeps the line well-formed whatever the spelling is).
    escaped = (
        text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\r", "\\r")
    )
    return f'"{escaped}"'


def _bare(canonical: str) -> bool:
    # '?' and '#' cannot occur in a canonical NSS: the first one starts the components.
    return "?" not in canonical and "#" not in canonical


def extra_statements(
    pairs: Iterable[tuple[str, str]],
    options: LinkOptions,
    locators: Iterable[tuple[str, str]] = (),
) -> list[Extra]:
    """The statements *options* add for the ``(canonical, spelling)`` pairs a pass met, and
    the ``(urn or "", locator)`` pairs of its locator IRIs.

    Sorted by their N-Triples lines; the same set of pairs in any order gives the same list.

    >>> opts = LinkOptions(link_resolvers=True)
    >>> [e.object for e in extra_statements([("urn:ietf:rfc:8141", "urn:ietf:rfc:8141")], opts)]
    ['https://www.rfc-editor.org/rfc/rfc8141']
    >>> epc = "urn:epc:id:sgtin:4012345.011111.987"
    >>> dl = "https://id.gs1.org/01/04012345111118/21/987"
    >>> found = extra_statements([(epc, epc)], LinkOptions(link_locators=True), [("", dl)])
    >>> [(e.subject, e.object) for e in found]  # doctest: +NORMALIZE_WHITESPACE
    [('https://id.gs1.org/01/04012345111118/21/987', 'urn:epc:id:sgtin:4012345.011111.987'),
     ('urn:epc:id:sgtin:4012345.011111.987', 'https://id.gs1.org/01/04012345111118/21/987')]
    """
    out: set[Extra] = set()
    if options.keep_spellings:
        canonicals: set[str] = set()
        for canonical, spelling in pairs:
            canonicals.add(canonical)
            if spelling != canonical:
                out.add(Extra(canonical, SPELLING, spelling, True))
    else:
        canonicals = {canonical for canonical, _spelling in pairs}
    if options.link:
        for a in canonicals:
            if not _bare(a):
                continue
            for other in URN(a).functional_equivalents():
                b = other.canonical_str
                if b != a and b in canonicals:
                    # owl:sameAs is symmetric; both directions, so that a store without a
                    # reasoner finds the link from either node.
                    out.add(Extra(a, OWL_SAME_AS, b))
                    out.add(Extra(b, OWL_SAME_AS, a))
    if options.link_resolvers:
        from ..resolvers import locators as built

        for a in canonicals:
            for _resolver, locator in built(a):
                out.add(Extra(a, RDFS_SEE_ALSO, locator))
    if options.link_locators:
        out.update(_locator_links(canonicals, locators))
    return sorted(out, key=_line)


def _locator_links(canonicals: set[str], locators: Iterable[tuple[str, str]]) -> set[Extra]:
    """``owl:sameAs`` both ways between each locator and its URN, when the URN occurs: the
    locators the resolver table read back, and the GS1 Digital Links of the data's EPC URNs
    (pairs whose URN is ``""``)."""
    out: set[Extra] = set()
    pending: set[str] = set()
    for urn, locator in locators:
        if not urn:
            pending.add(locator)
            continue
        # The locator's URN as the table writes it; the data has its canonical form (a URN
        # of the data is canonical already: no URN object to build for it).
        canonical = urn if urn in canonicals else URN(urn).canonical_str
        if canonical in canonicals:
            out.add(Extra(locator, OWL_SAME_AS, canonical))
            out.add(Extra(canonical, OWL_SAME_AS, locator))
    if pending:
        for a in canonicals:
            if not a.startswith("urn:epc:") or not _bare(a):
                continue
            for iri in URN(a).equivalent_iris():
                if iri in pending:
                    out.add(Extra(iri, OWL_SAME_AS, a))
                    out.add(Extra(a, OWL_SAME_AS, iri))
    return out


def extras_of_report(
    report: CanonicalizeReport, options: LinkOptions, source: str = "<stdin>"
) -> list[Extra]:
    """:func:`extra_statements` for the spellings *report* kept, and their counts recorded in it.

    Raises :class:`SpellingLimitError` (naming *source*) when the report's clusters hit their
    cap (``max_examples`` distinct spellings): rather than adding an incomplete set, nothing is
    added.
    """
    extras = report_extras(report, options, source)
    record_extras(report, extras)
    return extras


def report_extras(
    report: CanonicalizeReport, options: LinkOptions, source: str = "<stdin>"
) -> list[Extra]:
    """:func:`extra_statements` for the spellings *report* kept, without counting them.

    For a transport that counts only what it writes (a store already holding a statement does
    not get it again). Raises :class:`SpellingLimitError` as :func:`extras_of_report` does.
    """
    # The locator pairs and, when they are all that is linked, the canonical URNs suffice,
    # in any order: extra_statements sorts what it adds.
    locators = report.locator_pair_set() if options.link_locators else set()
    if not (options.link or options.keep_spellings or options.link_resolvers or locators):
        # link_locators alone and no locator met: nothing to add, whatever the spellings are.
        return []
    if report.clusters_truncated:
        raise SpellingLimitError(
            f"{source}: more than {report.max_examples:,} distinct URN spellings, so the "
            "statements link, keep-spellings and link-resolvers add would be incomplete; run "
            "without them, or raise the report's max_examples (Python API)"
        )
    if options.link_locators and report.locators_truncated:
        raise SpellingLimitError(
            f"{source}: more than {report.max_examples:,} distinct locator IRIs, so the "
            "statements link-locators adds would be incomplete; run without it, or raise the "
            "report's max_examples (Python API)"
        )
    if options.link or options.keep_spellings or options.link_resolvers:
        return extra_statements(report.spellings(), options, locators)
    # link_locators alone needs no spelling: each canonical URN as its own.
    return extra_statements(((c, c) for c in report.canonical_urns()), options, locators)


def record_extras(report: CanonicalizeReport, extras: Iterable[Extra]) -> None:
    """Count *extras* in *report*, per kind, as statements written."""
    counts = {OWL_SAME_AS: 0, SPELLING: 0, RDFS_SEE_ALSO: 0}
    for e in extras:
        counts[e.predicate] += 1
    report.record_added(
        same_as=counts[OWL_SAME_AS], spellings=counts[SPELLING], see_also=counts[RDFS_SEE_ALSO]
    )


def ntriples(extras: Iterable[Extra]) -> bytes:
    """The N-Triples lines of *extras*, in the order given."""
    return "".join(map(_line, extras)).encode()
