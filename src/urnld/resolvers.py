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
"""

from __future__ import annotations

import dataclasses
import importlib.resources
import re
import tomllib
from collections.abc import Iterable, Sequence
from importlib import metadata
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING, Final
from urllib.parse import quote

from .errors import URNError, URNLDEnvironmentError

if TYPE_CHECKING:
    from ._core import URN

__all__ = [
    "ENTRY_POINT_GROUP",
    "Resolver",
    "ResolverError",
    "ResolverPluginError",
    "expand",
    "load_resolvers",
    "locators",
    "resolvers",
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

    >>> r = Resolver("doi", "https://doi.org/{+nss}")
    >>> r.locator("urn:doi:10.1000/182")
    'https://doi.org/10.1000/182'
    """

    nid: str
    template: str
    name: str = ""
    source: str = ""
    nss_prefix: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "nid", self.nid.lower())
        _parse_template(self.template)  # fail at load time, not at first use

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
    from . import URN

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


def load_resolvers(path: str | PathLike[str]) -> tuple[Resolver, ...]:
    """Read a resolver table from a TOML file (the shape of urnld's own ``resolvers.toml``).

    Each top-level key is a NID whose value is an array of tables with ``template`` (required),
    ``name``, ``source`` and ``nss-prefix``. Raises :class:`ResolverError` naming the file.
    """
    p = Path(path)
    try:
        with p.open("rb") as fh:
            data = tomllib.load(fh)
    except tomllib.TOMLDecodeError as e:
        raise ResolverError(f"{p}: not a valid TOML resolver table: {e}") from None
    return _from_table(data, str(p))


def _from_table(data: dict[str, object], where: str) -> tuple[Resolver, ...]:
    out: list[Resolver] = []
    for nid, entries in data.items():
        if not isinstance(entries, list):
            raise ResolverError(f"{where}: {nid!r} must be an array of tables ([[{nid}]])")
        for i, entry in enumerate(entries):
            if not isinstance(entry, dict) or not isinstance(entry.get("template"), str):
                raise ResolverError(f"{where}: [[{nid}]] #{i + 1} needs a template string")
            unknown = set(entry) - {"template", "name", "source", "nss-prefix"}
            if unknown:
                raise ResolverError(f"{where}: [[{nid}]] #{i + 1} has unknown keys "
                                    f"{sorted(unknown)}")
            fields = {k: entry.get(k, "") for k in ("name", "source", "nss-prefix")}
            if not all(isinstance(v, str) for v in fields.values()):
                raise ResolverError(f"{where}: [[{nid}]] #{i + 1}: name, source and nss-prefix "
                                    "are strings")
            try:
                out.append(Resolver(nid, entry["template"], str(fields["name"]),
                                    str(fields["source"]), str(fields["nss-prefix"])))
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
