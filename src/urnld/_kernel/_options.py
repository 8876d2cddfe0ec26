"""The canonicalization options, built once from what the caller asked and passed down whole.

Every path that canonicalizes — streamed lines, worker processes, in-memory graphs, whole
documents, Dask partitions, a running store — takes one :class:`CanonOptions` instead of six
keyword arguments, so an option added here reaches them all.

>>> opts = CanonOptions(literals=True, keep_spellings=True)
>>> opts.literals, bool(opts.links), opts.links.keep_spellings
(True, True, True)
>>> CanonOptions.from_kwargs(link=True) == CanonOptions(link=True)
True
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from .._core import Policy
from ._links import LinkOptions
from ._spellings import SpellingOptions, spelling_options

if TYPE_CHECKING:
    from ..namespaces import PrefixLengths

__all__ = ["DEFAULT_OPTIONS", "CanonOptions", "resolve_options"]


@dataclasses.dataclass(frozen=True, slots=True)
class CanonOptions:
    """What a canonicalization rewrites and what it adds (all off by default).

    ``ignore_components``: merge by RFC 8141 equivalence alone, dropping r-, q- and f-components.
    ``literals``: also rewrite plain, ``xsd:string`` and ``xsd:anyURI`` literals that are a
    whole URN. ``link``, ``keep_spellings``, ``link_resolvers``: add ``owl:sameAs``,
    ``urnld:spelling`` and ``rdfs:seeAlso`` statements. ``policy``: which NIDs count as URNs
    and how strictly (:class:`urnld.Policy`). The spelling modes: ``repair`` (documented
    repairs of near-miss URNs), ``link_locators`` / ``merge_locators`` (IRIs that are a
    resolver's address of a URN, linked to it or rewritten to it; they exclude each other),
    ``prefix_lengths`` (GS1 Company Prefix lengths for reading GS1 Digital Links back).
    ``write_added``: False for a pass over a piece of an input (a Dask partition), which
    writes none of the statements ``link``… add: they come from the whole input's merged
    report; the spelling modes still record what they meet.
    """

    ignore_components: bool = False
    literals: bool = False
    link: bool = False
    keep_spellings: bool = False
    link_resolvers: bool = False
    policy: Policy = dataclasses.field(default_factory=Policy)
    repair: bool = False
    link_locators: bool = False
    merge_locators: bool = False
    prefix_lengths: PrefixLengths | None = dataclasses.field(default=None, hash=False)
    write_added: bool = True

    def __post_init__(self) -> None:
        self.spellings  # noqa: B018  # link_locators with merge_locators: refused here

    @property
    def links(self) -> LinkOptions:
        """The statements to add, as the link layer takes them (none without
        ``write_added``).

        >>> bool(CanonOptions(link_locators=True).links)
        True
        >>> bool(CanonOptions(link_locators=True, write_added=False).links)
        False
        """
        if not self.write_added:
            return LinkOptions()
        return LinkOptions(self.link, self.keep_spellings, self.link_resolvers,
                           self.link_locators)

    @property
    def spellings(self) -> SpellingOptions:
        """The spelling modes, as the term rule and the passes take them.

        >>> CanonOptions(repair=True).spellings.repair
        True
        """
        return spelling_options(
            repair=self.repair, link=self.link, link_locators=self.link_locators,
            merge_locators=self.merge_locators, prefix_lengths=self.prefix_lengths,
        )

    @classmethod
    def from_kwargs(cls, **kwargs: Any) -> CanonOptions:
        """Options from keyword arguments as the public functions take them; a ``policy`` of
        None means the default policy.

        >>> CanonOptions.from_kwargs(literals=True, policy=None).literals
        True
        >>> CanonOptions.from_kwargs(colour=True)
        Traceback (most recent call last):
        ...
        TypeError: unknown canonicalization option 'colour'
        """
        names = {f.name for f in dataclasses.fields(cls)}
        for key in kwargs:
            if key not in names:
                raise TypeError(f"unknown canonicalization option {key!r}")
        if kwargs.get("policy", ...) is None:
            del kwargs["policy"]
        return cls(**kwargs)

    def replace(self, **changes: Any) -> CanonOptions:
        """A copy with *changes*.

        >>> CanonOptions().replace(link=True).link
        True
        """
        return dataclasses.replace(self, **changes)


#: No rewriting beyond RFC 8141 and the namespace rules, nothing added.
DEFAULT_OPTIONS = CanonOptions()


def resolve_options(options: CanonOptions | None, **kwargs: Any) -> CanonOptions:
    """The options of a public function that takes either ``options=`` or the keyword options
    one by one (their defaults meaning "not given"): built once here, passed down whole.

    >>> resolve_options(None, literals=True, link=False).literals
    True
    >>> resolve_options(CanonOptions(link=True), literals=False).link
    True
    >>> resolve_options(CanonOptions(link=True), literals=True)
    Traceback (most recent call last):
    ...
    TypeError: give options= or the keyword options (literals), not both
    """
    if options is None:
        return CanonOptions.from_kwargs(**kwargs)
    given = [k for k, v in kwargs.items() if v is not None and v != getattr(DEFAULT_OPTIONS, k)]
    if given:
        raise TypeError(f"give options= or the keyword options ({', '.join(given)}), not both")
    return options
