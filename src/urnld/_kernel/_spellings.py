"""The opt-in spelling modes of the term rule: repairs, locators and GS1 Digital Links.

With these modes the term rule (:mod:`urnld._kernel._terms`) looks past a URN as written:
``repair`` applies the documented repairs (:func:`urnld.repair`) before canonicalizing, and
``link_locators`` / ``merge_locators`` look at IRIs that are a resolver's address of a URN. All
are off by default (:data:`NO_SPELLINGS`). This module also keeps what the compiled
canonicalization needs to know when repairs are on: which NIDs must come to Python
(:func:`without_repair_nids`) and the NID table that guards the others (:func:`repair_prefixes`).

>>> opts = spelling_options(repair=True)
>>> opts.repair, opts.looks_at_iris, bool(NO_SPELLINGS)
(True, False, False)
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Final, Literal

from .._core import FAST_CONTEXT, Repair, on_register
from .._core import accel as _accel
from ..namespaces import PREFIXES, REPAIRS, repair
from ._term_check import CheckFields, check_fields

if TYPE_CHECKING:
    from ..namespaces import PrefixLengths

__all__ = [
    "NO_SPELLINGS",
    "SpellingOptions",
    "repair_prefixes",
    "spelling_options",
    "without_repair_nids",
]


@functools.lru_cache(maxsize=1024)
def _repair(text: str) -> Repair | None:
    """:func:`urnld.repair`, remembered for the last spellings: a pass asks twice about each
    spelling it repairs (for the verdict, then for the repair's code)."""
    return repair(text)


on_register(_repair.cache_clear)  # a new rule may make a spelling valid, or a repair not

#: NIDs with repair rules (``urnld.namespaces.REPAIRS``): only their URNs are offered to them.
_REPAIR_NIDS: Final = frozenset(r.nid for r in REPAIRS)
# Where a GS1 Digital Link canonical URI starts (``urnld.namespaces.GS1_DOMAIN``).
_GS1_STARTS: Final = ("https://id.gs1.org/", "http://id.gs1.org/")


@dataclasses.dataclass(frozen=True, slots=True)
class SpellingOptions:
    """The opt-in modes for identifiers in their other spellings (all off by default).

    Attributes:
        repair: apply the documented repairs (:func:`urnld.repair`) before canonicalizing:
            ``urn:uuid:F81D4FAE7DEC…`` becomes the URN of that UUID.
        locators: ``"link"``: an IRI that is a resolver's address of a URN
            (:func:`urnld.resolvers.urn_of_locator`) is recorded with its URN, so that
            ``owl:sameAs`` can join the two nodes; ``"merge"``: it is rewritten to the URN (a
            change of meaning: the locator node disappears). None: IRIs that are not URNs are
            not looked at.
        gs1: record the canonical GS1 Digital Link IRIs of the data (``https://id.gs1.org/…``),
            so that an EPC URN of the data can be linked to its own Digital Link even without
            company prefix lengths (the EPC says the split; nothing is guessed).
        prefix_lengths: GS1 Company Prefix lengths for reading a Digital Link back to its EPC
            URN (:data:`urnld.namespaces.PrefixLengths`), or None.
        resolver_files: the caller's resolver tables (:func:`urnld.resolvers.resolvers`).

    >>> bool(SpellingOptions()), bool(SpellingOptions(repair=True))
    (False, True)
    """

    repair: bool = False
    locators: Literal["link", "merge"] | None = None
    gs1: bool = False
    prefix_lengths: PrefixLengths | None = dataclasses.field(
        default=None, compare=False, hash=False
    )
    resolver_files: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return self.repair or self.locators is not None or self.gs1

    @property
    def looks_at_iris(self) -> bool:
        """Whether IRIs that are not URNs are looked at (locators or Digital Links)."""
        return self.locators is not None or self.gs1

    def heads(self) -> tuple[bytes, ...]:
        """How the IRIs :meth:`locator` may answer for start (lower case, ASCII bytes; empty
        when :attr:`looks_at_iris` is off): the compiled rewrite sends only IRIs that start
        with one of them, ASCII case aside, to the Python loop.

        >>> b"https://doi.org" in SpellingOptions(locators="merge").heads()
        True
        >>> b"https://id.gs1.org" in SpellingOptions(gs1=True).heads()
        True
        """
        found: set[str] = set()
        if self.locators is not None:
            from ..resolvers import locator_heads

            found.update(locator_heads(files=self.resolver_files))
        if self.gs1 or (self.locators is not None and self.prefix_lengths is not None):
            found.update(s.rstrip("/") for s in _GS1_STARTS)
        # A head with a character outside ASCII is cut before it: the compiled test compares
        # ASCII case-insensitively, and a shorter head only sends more IRIs to Python.
        return tuple(sorted({_ascii_start(h).encode("ascii") for h in found} - {b""}))

    def locator(self, iri: str) -> str | None:
        """The URN (as written by the table) a locator IRI stands for, ``""`` for a canonical
        GS1 Digital Link IRI whose EPC is not known yet, else None. Called once per distinct
        IRI that is not a URN, and only when :attr:`looks_at_iris`.

        >>> SpellingOptions(locators="link").locator("https://doi.org/10.1000/182")
        'urn:doi:10.1000/182'
        >>> SpellingOptions(gs1=True).locator("https://id.gs1.org/00/106141412345678908")
        ''
        """
        if self.locators is not None:
            urn = _locator_urn()(iri, files=self.resolver_files, check_fields=check_fields)
            if urn is not None:
                return urn
            if self.prefix_lengths is not None:
                from ..namespaces import digital_link_to_epc

                epc = digital_link_to_epc(iri, self.prefix_lengths)
                if epc is not None:
                    return epc
        if self.gs1 and iri.startswith(_GS1_STARTS) and "?" not in iri and "#" not in iri:
            return ""
        return None


    def reader(self) -> Callable[[str], str | None]:
        """:meth:`locator` with the resolver table looked up once, for a pass that asks it
        about every distinct IRI of its input (same answers).

        >>> read = SpellingOptions(locators="merge").reader()
        >>> read("doi:10.1000/182"), read("https://example.org/") is None
        ('urn:doi:10.1000/182', True)
        """
        if self.locators is None:
            return self.locator
        from ..resolvers import locator_reader

        read = locator_reader(files=self.resolver_files, check_fields=_fast_check())
        lengths = self.prefix_lengths
        gs1 = self.gs1
        if lengths is not None or gs1:
            return functools.partial(_read_locator, read, lengths, gs1)
        return read


def _read_locator(
    read: Callable[[str], str | None], lengths: PrefixLengths | None, gs1: bool, iri: str
) -> str | None:
    """:meth:`SpellingOptions.locator` (locator modes on) with the table's reader *read*."""
    urn = read(iri)
    if urn is not None:
        return urn
    if lengths is not None:
        from ..namespaces import digital_link_to_epc

        epc = digital_link_to_epc(iri, lengths)
        if epc is not None:
            return epc
    if gs1 and iri.startswith(_GS1_STARTS) and "?" not in iri and "#" not in iri:
        return ""
    return None


def _fast_check() -> Callable[[str], CheckFields]:
    """:func:`check_fields` under the default policy, asking the compiled check directly
    (one call, not three) and the Python one where it has no answer."""
    c = _accel.speedups
    if c is None:
        return check_fields
    fast = c.check_fields
    context = FAST_CONTEXT

    def check(text: str) -> CheckFields:
        found: CheckFields | None = fast(text, *context)
        return found if found is not None else check_fields(text)

    return check


@functools.cache
def _locator_urn() -> Callable[..., str | None]:
    """:func:`urnld.resolvers.locator_urn`, imported on first use (once, not per IRI)."""
    from ..resolvers import locator_urn

    return locator_urn


def _ascii_start(text: str) -> str:
    """*text* up to its first character outside ASCII."""
    for i, ch in enumerate(text):
        if ord(ch) > 127:
            return text[:i]
    return text


#: No spelling mode: the term rule as it always was.
NO_SPELLINGS: Final = SpellingOptions()


def spelling_options(
    *,
    repair: bool = False,
    link: bool = False,
    link_locators: bool = False,
    merge_locators: bool = False,
    prefix_lengths: PrefixLengths | None = None,
    resolver_files: tuple[str, ...] = (),
) -> SpellingOptions:
    """The :class:`SpellingOptions` of a canonicalization's flags (one place for every path).

    ``link_locators`` looks at every locator and at GS1 Digital Link IRIs (an EPC's
    equivalent IRI); ``merge_locators`` at every locator (they exclude each other). ``link``
    alone does not look at IRIs that are not URNs (its cost stays what it was).

    >>> spelling_options() is NO_SPELLINGS
    True
    >>> spelling_options(merge_locators=True).locators
    'merge'
    """
    if link_locators and merge_locators:
        from ..errors import URNError

        raise URNError("link_locators and merge_locators exclude each other: choose one")
    locators: Literal["link", "merge"] | None = (
        "merge" if merge_locators else "link" if link_locators else None
    )
    del link  # accepted for symmetry with the flags; it needs no IRI
    gs1 = link_locators
    if not (repair or locators or gs1):
        return NO_SPELLINGS
    return SpellingOptions(repair, locators, gs1, prefix_lengths, resolver_files)


def without_repair_nids(nids: dict[str, None]) -> dict[str, None]:
    """*nids* (NIDs as written) without those whose URNs must all come to Python when repairs
    are on: the NIDs with repair rules, but those of :data:`_UNREPAIRED_SHAPES`, whose
    compiled canonicalization :func:`repair_prefixes` guards.

    >>> without_repair_nids({"UUID": None, "isbn": None, "publicid": None})
    {'UUID': None, 'isbn': None}
    """
    return {k: None for k in nids if k.lower() not in _REPAIR_ONLY_PYTHON}


# NSS shapes that no repair rule of their NID touches, whatever follows the NSS: a URN of that
# NID whose NSS has the shape is canonicalized as without repairs. Every uuid rule of REPAIRS
# needs braces, 32 hex digits without hyphens, or a leading '_' in the whole rest of the URN,
# and an 8-4-4-4-12 NSS has none of them (tests/kernel: the property is checked on the table).
_UNREPAIRED_SHAPES: Final[dict[str, Callable[[str], object]]] = {
    "uuid": re.compile(
        r"[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}"
    ).fullmatch,
}
_REPAIR_ONLY_PYTHON: Final = _REPAIR_NIDS - set(_UNREPAIRED_SHAPES)


class _Unrepaired:
    """A namespace rule seen through its NID's unrepaired shape: ``canonical_nss`` answers
    only for an NSS of that shape, else None, which sends the compiled canonicalization back
    to Python (where the repair is made)."""

    __slots__ = ("rule", "shape")

    def __init__(self, rule: object, shape: Callable[[str], object]) -> None:
        self.rule = rule
        self.shape = shape

    def canonical_nss(self, nss: str) -> str | None:
        if not self.shape(nss):
            return None
        return nss if self.rule is None else self.rule.canonical_nss(nss)  # type: ignore[attr-defined]


_repair_prefixes: dict[str, tuple[str, object]] = {}
_repair_prefixes_of = -1  # len(PREFIXES) when _repair_prefixes was built


def _forget_repair_prefixes() -> None:
    global _repair_prefixes_of  # noqa: PLW0603  # a cache of PREFIXES, dropped with it
    _repair_prefixes_of = -1


on_register(_forget_repair_prefixes)


def repair_prefixes() -> dict[str, tuple[str, object]]:
    """The core's NID table (``PREFIXES``) as the compiled canonicalization takes it when
    repairs are on: the rules of NIDs in :data:`_UNREPAIRED_SHAPES` answer only for an NSS
    that no repair touches (rebuilt when the table grows).

    >>> guard = _Unrepaired(None, _UNREPAIRED_SHAPES["uuid"])
    >>> guard.canonical_nss("F81D4FAE7DEC11D0A76500A0C91E6BF6") is None  # repaired in Python
    True
    >>> guard.canonical_nss("f81d4fae-7dec-11d0-a765-00a0c91e6bf6")
    'f81d4fae-7dec-11d0-a765-00a0c91e6bf6'
    """
    global _repair_prefixes, _repair_prefixes_of  # rebuilt as PREFIXES grows
    if _repair_prefixes_of != len(PREFIXES):
        table: dict[str, tuple[str, object]] = {}
        for nid, (prefix, rule) in list(PREFIXES.items()):
            shape = _UNREPAIRED_SHAPES.get(nid.lower())
            table[nid] = (prefix, rule) if shape is None else (prefix, _Unrepaired(rule, shape))
        _repair_prefixes, _repair_prefixes_of = table, len(table)
    return _repair_prefixes
