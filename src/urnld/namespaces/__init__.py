"""Per-namespace rules: the registry the URN core consults for each NID, and the built-in rules.

Built-in rules are imported lazily, on first use of their NID. Other packages add NIDs through
the entry-point group ``urnld.namespaces`` (name: the NID; value: ``"module:object"``, where the
object is a :class:`NamespaceRule` instance or subclass), or at run time with :func:`register`.
Unknown NIDs fall back to :data:`GENERIC`. The registry itself lives in the URN core (the value
type asks it for every NID); this package holds the rules and is their public home, with the
translations between a namespace's names and other spellings of them: EPC URNs and GS1 Digital
Link URIs (:func:`epc_to_digital_link`, :func:`digital_link_to_epc`) and the documented repairs
of near-miss URNs (:func:`repair`, :data:`REPAIRS`).

>>> get_rule("ISBN").nid
'isbn'
>>> get_rule("no-such-nid") is GENERIC
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .._core import (
    ENTRY_POINT_GROUP,
    GENERIC,
    PREFIXES,
    CheckOptions,
    NamespacePluginError,
    NamespaceRule,
    get_rule,
    known_nids,
    known_profiles,
    lower_except_pct,
    on_register,
    prefix_entry,
    register,
    upper_except_pct,
    upper_pct,
)
from ._repairs import REPAIRS, Repair, RepairRule, repair

if TYPE_CHECKING:
    from ._digital_link import (
        GS1_DOMAIN,
        PrefixLengths,
        biip_prefix_lengths,
        digital_link_to_epc,
        epc_to_digital_link,
        gs1_check_digit,
    )

# The GS1 Digital Link conversions are imported on first use: every command loads this package
# (the rule registry's face), few of them convert EPC URNs.
_LAZY = frozenset({"GS1_DOMAIN", "PrefixLengths", "biip_prefix_lengths", "digital_link_to_epc",
                   "epc_to_digital_link", "gs1_check_digit"})


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        from . import _digital_link

        value = getattr(_digital_link, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = [
    "ENTRY_POINT_GROUP",
    "GENERIC",
    "GS1_DOMAIN",
    "PREFIXES",
    "REPAIRS",
    "CheckOptions",
    "NamespacePluginError",
    "NamespaceRule",
    "PrefixLengths",
    "Repair",
    "RepairRule",
    "biip_prefix_lengths",
    "digital_link_to_epc",
    "epc_to_digital_link",
    "get_rule",
    "gs1_check_digit",
    "known_nids",
    "known_profiles",
    "lower_except_pct",
    "on_register",
    "prefix_entry",
    "register",
    "repair",
    "upper_except_pct",
    "upper_pct",
]


def __dir__() -> list[str]:
    return __all__
