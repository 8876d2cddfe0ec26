"""From a URN to locators: RFC 6570 templates and a table of public resolvers (RFC 8141 §1.2.1).

A URN names; a resolver turns the name into a locator (a URL) where the resource, or a service
about it, can be found. urnld **builds** such locators; it never calls them.

:func:`expand` fills an RFC 6570 template (levels 1 and 2: ``{var}`` and ``{+var}``) with the
parts of the URN's canonical form:

=================  =========================================================================
``urn``            the canonical assigned-name, ``urn:NID:NSS`` (no components)
``nid``, ``nss``   its NID and NSS
``rest``           the NSS after the resolver's ``nss-prefix`` (the whole NSS without one)
``r_component``…   the r-, q- and f-components as written (undefined when absent)
=================  =========================================================================

Then RFC 8141 §2.3.2 and §2.3.3 apply, unless the template places the component itself: the
q-component is copied into the locator's query (after ``&`` when the template has a query),
and the f-component becomes the locator's fragment.

>>> from urnld import URN
>>> expand(URN("URN:ISBN:0-395-36341-1?=lang=en#p3"), "https://example.org/isbn/{nss}")
'https://example.org/isbn/0395363411?lang=en#p3'
>>> u = URN("urn:ietf:rfc:8141")
>>> [r.locator(u) for r in resolvers("ietf") if r.matches(u)]
['https://www.rfc-editor.org/rfc/rfc8141']

:func:`resolvers` lists the table: urnld's own (``urnld/data/resolvers.toml``, each entry citing
where the service documents its address form), then those installed through the entry-point
group ``urnld.resolvers`` (the object: a :class:`Resolver` iterable, or the path of a TOML
file of the same shape), then any TOML *files* the caller names (these come first).

The other way, :func:`urn_of_locator` reads a locator back: every template of the table that
can be reversed recognizes its addresses and gives the URN, and so do the other address forms
an entry lists under ``aliases`` (an older host, a query form)::

>>> str(urn_of_locator("http://nbn-resolving.de/urn:nbn:de:bvb:19-146642"))
'urn:nbn:de:bvb:19-146642'
>>> str(urn_of_locator("doi:10.1000/182"))
'urn:doi:10.1000/182'

Reversal is RFC 6570 reverse matching on a documented subset of templates: each expression is
a simple ``{var}`` or reserved ``{+var}`` expansion of ``urn``, ``nid``, ``nss`` or ``rest``,
at most once each, and two expressions are separated by literal text (otherwise where one
value ends is unknown). Templates that place a component (``{q_component}``…) or use
fragment expansion (``{#var}``) are not reversed. Matching is anchored at both ends; the
schemes ``http`` and ``https`` stand for each other (a resolver answers on both), scheme and
host are case-insensitive, the rest is compared as written. A value from a simple expansion
is percent-decoded once (the inverse of RFC 6570 §3.2.2); one from a reserved expansion is
kept as written (§3.2.3 leaves ``%XX`` alone). The URN obtained must be served by the entry
(its NID and NSS prefix) and pass its namespace's rule without errors; a locator that gives
anything else names no URN.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib.resources
import re
import tomllib
from collections.abc import Callable, Iterable, Sequence
from importlib import metadata
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING, Final
from urllib.parse import quote

from ..errors import URNError, URNLDEnvironmentError
from ._reverse import (
    CheckFields,
    Reverse,
    by_head,
    fold_scheme,
    heads,
    read_back,
    reverse_pattern,
)

if TYPE_CHECKING:
    from .._core import URN

__all__ = [
    "ENTRY_POINT_GROUP",
    "CheckFields",
    "Resolver",
    "ResolverError",
    "ResolverPluginError",
    "expand",
    "load_resolvers",
    "locator_heads",
    "locator_reader",
    "locator_urn",
    "locators",
    "resolvers",
    "urn_of_locator",
]

ENTRY_POINT_GROUP: Final = "urnld.resolvers"
VARIABLES: Final = ("urn", "nid", "nss", "rest", "r_component", "q_component", "f_component")

_EXPRESSION: Final = re.compile(r"\{([^{}]*)\}")
_VARNAME: Final = re.compile(r"[A-Za-z0-9_]+")
# RFC 6570 §1.5: reserved expansion keeps RFC 3986 reserved characters (gen-delims and
# sub-delims) and existing %XX triplets; simple expansion keeps only unreserved characters.
_RESERVED: Final = ":/?#[]@!$&'()*+,;="
_PCT_TRIPLET: Final = re.compile(r"%[0-9A-Fa-f]{2}")


class ResolverError(URNError):
    """A template or resolver table is malformed, or no resolver knows a URN."""


class ResolverPluginError(URNLDEnvironmentError):
    """A resolver table installed through the ``urnld.resolvers`` entry point cannot be loaded."""


@dataclasses.dataclass(frozen=True, slots=True)
class Resolver:
    """One entry of the resolver table.

    Attributes:
        nid: the NID it serves (lower case).
        template: an RFC 6570 template (see :func:`expand` for the variables).
        name: who runs it.
        source: where the service documents the address form.
        nss_prefix: serve only NSSs starting with this (case-insensitive); ``rest`` is the NSS
            after it.
        aliases: other templates of addresses the service answers to (an older host, a
            query form): read back by :func:`urn_of_locator`, never built.

    >>> r = Resolver("doi", "https://doi.org/{+nss}")
    >>> r.locator("urn:doi:10.1000/182")
    'https://doi.org/10.1000/182'
    """

    nid: str
    template: str
    name: str = ""
    source: str = ""
    nss_prefix: str = ""
    aliases: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "nid", self.nid.lower())
        object.__setattr__(self, "aliases", tuple(self.aliases))
        for template in (self.template, *self.aliases):
            _parse_template(template)  # fail at load time, not at first use

    def urn_of(self, iri: str) -> URN | None:
        """The URN whose locator (by this entry's template or an alias) *iri* is, or None.

        >>> r = Resolver("doi", "https://doi.org/{+nss}", aliases=("doi:{+nss}",))
        >>> str(r.urn_of("http://DOI.org/10.1000/182")), str(r.urn_of("doi:10.1000/182"))
        ('urn:doi:10.1000/182', 'urn:doi:10.1000/182')
        >>> r.urn_of("https://doi.org/no-slash") is None  # not a DOI name
        True
        """
        if not isinstance(iri, str):
            raise TypeError(f"urn_of() takes a str, not {type(iri).__name__}")
        folded = fold_scheme(iri)
        for reverse in _reversers(self):
            text = reverse.match_text(folded)
            if text is not None:
                return _as_urn(text)
        return None

    def matches(self, urn: URN | str) -> bool:
        """True when this resolver serves *urn* (its NID and NSS prefix).

        >>> Resolver("nbn", "x", nss_prefix="de").matches("URN:NBN:DE:gbv:089-3321752946")
        True
        """
        u = _as_urn(urn).canonical()
        return u.nid == self.nid and u.nss.lower().startswith(self.nss_prefix.lower())

    def locator(self, urn: URN | str) -> str:
        """The locator for *urn*; :class:`ResolverError` when this resolver does not serve it."""
        u = _as_urn(urn)
        if not self.matches(u):
            raise ResolverError(f"resolver {self.name or self.template!r} does not serve {u}")
        return expand(u, self.template, rest=u.canonical().nss[len(self.nss_prefix) :])


def _as_urn(urn: URN | str) -> URN:
    # The public name, at call time: the URN type's own resolve() imports this module.
    from .. import URN

    return urn if isinstance(urn, URN) else URN(urn)


def _parse_template(template: str) -> list[tuple[str, str, str]]:
    """``(literal, operator, variable)`` pieces; the last may have an empty variable."""
    if not isinstance(template, str):
        raise TypeError(f"a template is a str, not {type(template).__name__}")
    pieces: list[tuple[str, str, str]] = []
    pos = 0
    for m in _EXPRESSION.finditer(template):
        literal = template[pos : m.start()]
        _check_literal(template, pos, literal)
        body = m[1]
        op = body[:1] if body[:1] in "+#" else ""
        name = body[len(op) :]
        if not _VARNAME.fullmatch(name):
            raise ResolverError(
                f"template {template!r}: {{{body}}} at position {m.start()} is not a level 1-2 "
                f"RFC 6570 expression ({{var}}, {{+var}} or {{#var}} with one variable)"
            )
        if name not in VARIABLES:
            raise ResolverError(
                f"template {template!r}: unknown variable {name!r} at position {m.start()}; "
                f"known: {', '.join(VARIABLES)}"
            )
        pieces.append((literal, op, name))
        pos = m.end()
    _check_literal(template, pos, template[pos:])
    pieces.append((template[pos:], "", ""))
    return pieces


def _check_literal(template: str, offset: int, literal: str) -> None:
    for brace in "{}":
        i = literal.find(brace)
        if i >= 0:
            raise ResolverError(f"template {template!r}: unmatched {brace!r} at position "
                                f"{offset + i}")


def _encode(value: str, op: str) -> str:
    if op == "":
        return quote(value, safe="", errors="strict")
    # Reserved and fragment expansion: reserved characters and %XX triplets pass through.
    out: list[str] = []
    pos = 0
    for m in _PCT_TRIPLET.finditer(value):
        out.append(quote(value[pos : m.start()], safe=_RESERVED))
        out.append(m[0])
        pos = m.end()
    out.append(quote(value[pos:], safe=_RESERVED))
    return "".join(out)


def expand(urn: URN | str, template: str, *, rest: str | None = None) -> str:
    """The locator for *urn* from an RFC 6570 (level 1-2) *template*, RFC 8141 §2.3.2-2.3.3.

    The assigned name is taken in its canonical form; components as written. Unless the
    template uses ``{q_component}`` / ``{f_component}`` itself, the q-component is copied into
    the locator's query and the f-component becomes its fragment (replacing any the template
    gave). Raises :class:`ResolverError` for a malformed template.

    >>> expand("urn:nbn:de:gbv:089-3321752946", "https://nbn-resolving.org/{+urn}")
    'https://nbn-resolving.org/urn:nbn:de:gbv:089-3321752946'
    >>> expand("urn:example:a/b?=x=1", "https://r.example/?id={urn}")
    'https://r.example/?id=urn%3Aexample%3Aa%2Fb&x=1'
    >>> expand("urn:example:a", "https://r.example/{nope}")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    urnld.resolvers.ResolverError: template 'https://r.example/{nope}': unknown variable ...
    """
    u = _as_urn(urn)
    pieces = _parse_template(template)
    canon = u.canonical()
    nid, nss = canon.nid, canon.nss
    _, _, r, q, f = u.parts
    values: dict[str, str | None] = {
        "urn": f"urn:{nid}:{nss}",
        "nid": nid,
        "nss": nss,
        "rest": nss if rest is None else rest,
        "r_component": r,
        "q_component": q,
        "f_component": f,
    }
    out: list[str] = []
    used: set[str] = set()
    for literal, op, name in pieces:
        out.append(literal)
        if not name:
            continue
        used.add(name)
        value = values[name]
        if value is None:  # RFC 6570 §3.2.1: an undefined variable expands to nothing
            continue
        out.append(("#" if op == "#" else "") + _encode(value, op))
    locator = "".join(out)
    if "q_component" not in used and q is not None:
        base, hash_, frag = locator.partition("#")
        sep = ("&" if not base.endswith(("?", "&")) else "") if "?" in base else "?"
        locator = base + sep + q + hash_ + frag
    if "f_component" not in used and f is not None:
        locator = locator.partition("#")[0] + "#" + f
    return locator


def _reversers(r: Resolver) -> tuple[Reverse, ...]:
    """The reverse matchers of *r*'s template and aliases that are reversible, cached."""
    found = _REVERSERS.get(r)
    if found is None:
        patterns = (reverse_pattern(r, _parse_template(t)) for t in (r.template, *r.aliases))
        found = tuple(rev for rev in patterns if rev is not None)
        if len(_REVERSERS) < 4096:  # a bounded cache: tables are small, callers' may not be
            _REVERSERS[r] = found
    return found


_REVERSERS: dict[Resolver, tuple[Reverse, ...]] = {}


def urn_of_locator(iri: str, *, files: Sequence[str | PathLike[str]] = ()) -> URN | None:
    """The URN a locator stands for, read back through the resolver table; None when none does.

    Every reversible template of :func:`resolvers` (the *files* first, then plugins, then
    urnld's own, with their ``aliases``) is tried (see the module's documentation for the
    reversible subset). Never raises for a ``str``. (A GS1 Digital Link is no resolver's
    address: :func:`urnld.namespaces.digital_link_to_epc` reads it back, given the company
    prefix lengths; the canonicalization's locator modes use both.)

    >>> str(urn_of_locator("https://urn.kb.se/resolve?urn=urn:nbn:se:uu:diva-3475"))
    'urn:nbn:se:uu:diva-3475'
    >>> str(urn_of_locator("https://www.rfc-editor.org/rfc/rfc8141"))
    'urn:ietf:rfc:8141'
    >>> urn_of_locator("https://example.org/urn:nbn:de:bvb:19-146642") is None
    True
    """
    if not isinstance(iri, str):
        raise TypeError(f"urn_of_locator() takes a str, not {type(iri).__name__}")
    text = locator_urn(iri, files=files)
    return None if text is None else _as_urn(text)


def locator_urn(
    iri: str,
    *,
    files: Sequence[str | PathLike[str]] = (),
    check_fields: Callable[[str], CheckFields] | None = None,
) -> str | None:
    """:func:`urn_of_locator`'s URN as the table writes it, a ``str`` (no :class:`~urnld.URN`
    is built): for passes that read back many IRIs. *check_fields* checks a candidate URN
    under the default options (see :data:`CheckFields`) in place of :func:`urnld.check`, for
    a caller with a faster one.

    >>> locator_urn("HTTP://DX.DOI.ORG/10.1000/182")
    'urn:doi:10.1000/182'
    >>> locator_urn("https://doi.org/no-slash") is None
    True
    """
    return read_back(_index(files), iri, check_fields)


def locator_reader(
    *,
    files: Sequence[str | PathLike[str]] = (),
    check_fields: Callable[[str], CheckFields] | None = None,
) -> Callable[[str], str | None]:
    """:func:`locator_urn` with its *files* and *check_fields* bound, the table read once:
    for a pass that reads back every distinct IRI of a dump, and should not look the table
    up again for each.

    >>> read = locator_reader()
    >>> read("http://nbn-resolving.de/urn:nbn:de:bvb:19-146642"), read("https://example.org/")
    ('urn:nbn:de:bvb:19-146642', None)
    """
    return functools.partial(read_back, _index(files), check_fields=check_fields)


def locator_heads(*, files: Sequence[str | PathLike[str]] = ()) -> tuple[str, ...]:
    """How every locator :func:`urn_of_locator` reads back starts: the scheme and authority
    of each reversible template (lower case, ``http`` beside ``https``), sorted.

    An IRI that does not start with one of them, ASCII case aside, names no URN: a pass over
    many IRIs asks :func:`urn_of_locator` only about those that do.

    >>> heads = locator_heads()
    >>> "https://doi.org" in heads, "http://doi.org" in heads, "doi:" in heads
    (True, True, True)
    """
    return heads(_index(files))


# The index of urnld's own table and the plugins' (built once per such pair of tables: a
# locator is looked up once per distinct IRI of a pass, so the lookup must not walk them all).
_indexed: tuple[object, object, dict[str, tuple[Reverse, ...]]] | None = None


def _index(files: Sequence[str | PathLike[str]]) -> dict[str, tuple[Reverse, ...]]:
    """The reversible templates of :func:`resolvers` by scheme and authority, in table order."""
    global _indexed  # noqa: PLW0603  # a cache of the process's tables
    if not files:
        plugins, builtin = _plugin_tables(), _builtin_table()
        if _indexed is not None and _indexed[0] is plugins and _indexed[1] is builtin:
            return _indexed[2]
    index = by_head(reverse for r in resolvers(files=files) for reverse in _reversers(r))
    if not files:
        _indexed = (plugins, builtin, index)
    return index


def load_resolvers(path: str | PathLike[str]) -> tuple[Resolver, ...]:
    """Read a resolver table from a TOML file (the shape of urnld's own ``resolvers.toml``).

    Each top-level key is a NID whose value is an array of tables with ``template`` (required),
    ``name``, ``source``, ``nss-prefix`` and ``aliases`` (other address templates, read back
    only). Raises :class:`ResolverError` naming the file.
    """
    p = Path(path)
    raw = _read_table(p)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ResolverError(f"{p}: the resolver table is not UTF-8 (byte {e.start})") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ResolverError(f"{p}: not a valid TOML resolver table: {e}") from None
    return _from_table(data, str(p))


#: The largest resolver table :func:`load_resolvers` reads (urnld's own is a few KiB).
MAX_TABLE_BYTES = 16 << 20


def _read_table(p: Path) -> bytes:
    """The bytes of a regular file of at most :data:`MAX_TABLE_BYTES`: a FIFO would block and
    ``/dev/zero`` never end. The core's ``read_regular`` does the same; the core imports this
    module (``URN.resolvers``), so it cannot be imported from here."""
    import os
    import stat

    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(p, flags)  # non-blocking: opening a FIFO without a writer returns
    except OSError as e:
        raise ResolverError(f"cannot read resolver table {p}: {e.strerror or e}") from None
    with os.fdopen(fd, "rb") as f:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise ResolverError(f"{p}: the resolver table is not a regular file; give a file")
        os.set_blocking(fd, True)
        data = f.read(MAX_TABLE_BYTES + 1)
    if len(data) > MAX_TABLE_BYTES:
        raise ResolverError(f"{p}: the resolver table is more than the {MAX_TABLE_BYTES:,} "
                            "bytes read")
    return data


def _from_table(data: dict[str, object], where: str) -> tuple[Resolver, ...]:
    out: list[Resolver] = []
    for nid, entries in data.items():
        if not isinstance(entries, list):
            raise ResolverError(f"{where}: {nid!r} must be an array of tables ([[{nid}]])")
        for i, entry in enumerate(entries):
            if not isinstance(entry, dict) or not isinstance(entry.get("template"), str):
                raise ResolverError(f"{where}: [[{nid}]] #{i + 1} needs a template string")
            unknown = set(entry) - {"template", "name", "source", "nss-prefix", "aliases"}
            if unknown:
                raise ResolverError(f"{where}: [[{nid}]] #{i + 1} has unknown keys "
                                    f"{sorted(unknown)}")
            fields = {k: entry.get(k, "") for k in ("name", "source", "nss-prefix")}
            if not all(isinstance(v, str) for v in fields.values()):
                raise ResolverError(f"{where}: [[{nid}]] #{i + 1}: name, source and nss-prefix "
                                    "are strings")
            aliases = entry.get("aliases", [])
            if not isinstance(aliases, list) or not all(isinstance(a, str) for a in aliases):
                raise ResolverError(f"{where}: [[{nid}]] #{i + 1}: aliases is an array of "
                                    "template strings")
            try:
                out.append(Resolver(nid, entry["template"], str(fields["name"]),
                                    str(fields["source"]), str(fields["nss-prefix"]),
                                    tuple(aliases)))
            except ResolverError as e:
                raise ResolverError(f"{where}: [[{nid}]] #{i + 1}: {e}") from None
    return tuple(out)


_builtin: tuple[Resolver, ...] | None = None


def _builtin_table() -> tuple[Resolver, ...]:
    global _builtin  # noqa: PLW0603  # read once per process, on first use
    if _builtin is None:
        text = importlib.resources.files("urnld").joinpath("data/resolvers.toml").read_text(
            encoding="utf-8"
        )
        _builtin = _from_table(tomllib.loads(text), "urnld/data/resolvers.toml")
    return _builtin


_plugins: tuple[Resolver, ...] | None = None


def _plugin_tables() -> tuple[Resolver, ...]:
    global _plugins  # noqa: PLW0603  # entry points are scanned once per process
    if _plugins is None:
        _plugins = tuple(_load_plugins())
    return _plugins


def _load_plugins() -> Iterable[Resolver]:
    for ep in metadata.entry_points(group=ENTRY_POINT_GROUP):
        try:
            obj = ep.load()
            found = load_resolvers(obj) if isinstance(obj, str | PathLike) else tuple(obj)
        except Exception as e:  # a broken plugin must be named, not crash the caller
            raise ResolverPluginError(
                f"resolver plugin {ep.name!r} ({ep.value}) failed: {e}"
            ) from e
        for r in found:
            if not isinstance(r, Resolver):
                raise ResolverPluginError(
                    f"resolver plugin {ep.name!r} gave {r!r}, not a Resolver"
                )
            yield r


def resolvers(
    nid: str | None = None, *, files: Sequence[str | PathLike[str]] = ()
) -> tuple[Resolver, ...]:
    """The resolver table (for one *nid*, any case): *files* first, then plugins, then urnld's.

    >>> [r.name for r in resolvers("doi")]
    ['DOI proxy (doi.org)']
    """
    table = [r for path in files for r in load_resolvers(path)]
    table += _plugin_tables()
    table += _builtin_table()
    if nid is None:
        return tuple(table)
    key = nid.lower()
    return tuple(r for r in table if r.nid == key)


def locators(
    urn: URN | str, *, files: Sequence[str | PathLike[str]] = ()
) -> list[tuple[Resolver, str]]:
    """Every ``(resolver, locator)`` the table has for *urn*, in table order.

    >>> [loc for _, loc in locators("URN:NBN:DE:gbv:089-3321752946")]
    ['https://nbn-resolving.org/urn:nbn:de:gbv:089-3321752946']
    >>> locators("urn:example:x")
    []
    """
    u = _as_urn(urn)
    return [(r, r.locator(u)) for r in resolvers(u.nid, files=files) if r.matches(u)]
