"""The namespace-rule registry: the rule the URN core consults for each NID.

Built-in rules are imported lazily, on first use of their NID. Other packages add NIDs through
the entry-point group ``urnld.namespaces`` (name: the NID; value: ``"module:object"``, where the
object is a :class:`NamespaceRule` instance or subclass), or at run time with :func:`register`.
Unknown NIDs fall back to :data:`GENERIC`.

>>> get_rule("ISBN").nid
'isbn'
>>> get_rule("no-such-nid") is GENERIC
True
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from ..errors import URNLDEnvironmentError
from ._builtin import BUILTIN
from ._rule import (
    GENERIC,
    CheckOptions,
    NamespaceRule,
    lower_except_pct,
    upper_except_pct,
    upper_pct,
)

if TYPE_CHECKING:
    # importlib.metadata costs ~16 ms to import: only loaded when a plugin is looked up.
    from importlib import metadata

__all__ = [
    "ENTRY_POINT_GROUP",
    "GENERIC",
    "PREFIXES",
    "CheckOptions",
    "NamespacePluginError",
    "NamespaceRule",
    "get_rule",
    "known_nids",
    "known_profiles",
    "lower_except_pct",
    "on_register",
    "prefix_entry",
    "register",
    "upper_except_pct",
    "upper_pct",
]

ENTRY_POINT_GROUP = "urnld.namespaces"


class NamespacePluginError(URNLDEnvironmentError):
    """A namespace plugin could not be loaded or is not a :class:`NamespaceRule`."""


# nid (lower case) -> rule, for NIDs that have one. Filled lazily; a plain dict read is the hot
# path of canonical().
_cache: dict[str, NamespaceRule] = {}
_registered: dict[str, NamespaceRule] = {}
_MAX_UNKNOWN_CACHED = 4096
# NID as written -> ("urn:" + nid.lower() + ":", rule), the rule None when it adds nothing to
# RFC 8141 §3: what the canonicalization hot path needs, in one dict read. Capped like _cache
# (smaller: each spelling of a NID has its own entry, and real data has a handful).
PREFIXES: dict[str, tuple[str, NamespaceRule | None]] = {}
_MAX_PREFIXES = 1024
_plugins: dict[str, metadata.EntryPoint] | None = None
_lock = threading.Lock()


def _as_rule(obj: object, where: str) -> NamespaceRule:
    if isinstance(obj, type) and issubclass(obj, NamespaceRule):
        obj = obj()
    if not isinstance(obj, NamespaceRule):
        raise NamespacePluginError(f"{where} is not a urnld NamespaceRule: {obj!r}")
    return obj


def _load_target(target: str) -> NamespaceRule:
    module_name, _, attr = target.partition(":")
    return _as_rule(getattr(importlib.import_module(module_name), attr), target)


def _plugin_entry_points() -> dict[str, metadata.EntryPoint]:
    global _plugins  # noqa: PLW0603  # loaded once per process, on first unknown NID
    if _plugins is None:
        from importlib import metadata

        found: dict[str, metadata.EntryPoint] = {}
        for ep in metadata.entry_points(group=ENTRY_POINT_GROUP):
            found.setdefault(ep.name.lower(), ep)
        _plugins = found
    return _plugins


def _resolve(nid: str) -> NamespaceRule:
    if nid in _registered:
        return _registered[nid]
    target = BUILTIN.get(nid)
    if target is not None:
        return _load_target(target)
    ep = _plugin_entry_points().get(nid)
    if ep is not None:
        try:
            rule = _as_rule(ep.load(), f"entry point {ep.name} = {ep.value}")
        except NamespacePluginError:
            raise
        except Exception as e:  # a broken plugin must not take the core down with it
            raise NamespacePluginError(
                f"namespace plugin {ep.name!r} ({ep.value}) failed to load: {e}"
            ) from e
        if rule.nid != nid:
            raise NamespacePluginError(
                f"namespace plugin {ep.name!r} declares nid {rule.nid!r}, not {nid!r}"
            )
        return rule
    return GENERIC


def get_rule(nid: str) -> NamespaceRule:
    """The rule for *nid* (any case); :data:`GENERIC` when the NID has none.

    >>> get_rule("uuid").reference
    'RFC 4122 §3; RFC 9562 §4'
    """
    rule = _cache.get(nid)
    if rule is not None:
        return rule
    key = nid.lower()
    rule = _cache.get(key)
    if rule is not None:
        return rule
    if key not in _registered and key not in BUILTIN and key not in _plugin_entry_points():
        # Unknown NIDs are remembered only up to a fixed number: real data uses a handful, while
        # a dump (or an attacker) can present any number, which must not grow memory.
        if len(_cache) < _MAX_UNKNOWN_CACHED:
            _cache[key] = GENERIC
        return GENERIC
    with _lock:
        rule = _cache.get(key)
        if rule is None:
            rule = _resolve(key)
            _cache[key] = rule
    return rule


def prefix_entry(nid: str) -> tuple[str, NamespaceRule | None]:
    """``PREFIXES[nid]``, computed (and remembered while there is room)."""
    key = nid.lower()
    rule = get_rule(key)
    adds_rules = type(rule).canonical_nss is not NamespaceRule.canonical_nss
    entry = ("urn:" + key + ":", rule if adds_rules else None)
    if len(PREFIXES) < _MAX_PREFIXES:
        PREFIXES[nid] = entry
    return entry


def register(rule: NamespaceRule, *, replace: bool = False) -> None:
    """Add (or with *replace*, override) the rule for ``rule.nid`` at run time.

    Register a rule before making URNs of its NID: a URN made earlier may keep the canonical
    form it had under the rule before.

    >>> class Demo(NamespaceRule):
    ...     nid = "demo-ns"
    >>> register(Demo())
    >>> get_rule("DEMO-NS").nid
    'demo-ns'
    """
    rule = _as_rule(rule, repr(rule))
    nid = rule.nid.lower()
    if not nid:
        raise NamespacePluginError("a namespace rule must set its nid")
    with _lock:
        if not replace and (nid in _registered or nid in BUILTIN):
            raise NamespacePluginError(f"a rule for NID {nid!r} exists; pass replace=True")
        _registered[nid] = rule
        _cache.clear()
        PREFIXES.clear()
        for callback in _listeners:
            callback()


_listeners: list[Callable[[], None]] = []


def on_register(callback: Callable[[], None]) -> None:
    """Call *callback* (no arguments) each time :func:`register` changes the rules, for caches
    that other parts of urnld derive from them (the check's per-NID data, for one).

    >>> calls = []
    >>> on_register(lambda: calls.append(1))
    >>> class Demo2(NamespaceRule):
    ...     nid = "demo-ns-2"
    >>> register(Demo2())
    >>> calls
    [1]
    >>> _listeners.pop() and None
    """
    _listeners.append(callback)


def known_nids() -> list[str]:
    """Every NID that has a rule: built-in, registered or installed as a plugin, sorted.

    >>> "isbn" in known_nids()
    True
    """
    return sorted(set(BUILTIN) | set(_registered) | set(_plugin_entry_points()))


def known_profiles() -> dict[str, str]:
    """Every opt-in profile a namespace rule declares: profile name → the NID whose rule has it.

    Loads every rule (built-in, registered, plugin); a plugin that fails to load is skipped here
    (``get_rule`` reports it where it is used).

    >>> known_profiles()["nbn-de"]
    'nbn'
    """
    out: dict[str, str] = {}
    for nid in known_nids():
        try:
            rule = get_rule(nid)
        except NamespacePluginError:
            continue
        for name in getattr(rule, "profiles", ()):
            out.setdefault(str(name), nid)
    return dict(sorted(out.items()))
