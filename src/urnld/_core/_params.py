"""r- and q-components read as ordered ``key=value`` pairs (RFC 8141 §2.3.1-2.3.2).

RFC 8141 leaves the syntax inside the components to future standards; ``key=value`` pairs
joined by ``&`` is the form its own examples use (``?=lang=en``, §2.3.2) and the one peers
(urnlib's ``queryParameters()``) read. Keys and values are percent-decoded (UTF-8); ``+`` is a
plus sign, not a space (that is HTML form encoding, not RFC 3986). A pair without ``=`` has the
value ``None``, so ``a`` and ``a=`` stay apart and formatting gives back the component.

>>> p = parse_params("lang=en&x&lang=fr&q=a%26b")
>>> p
Params([('lang', 'en'), ('x', None), ('lang', 'fr'), ('q', 'a&b')])
>>> p.get("lang"), p.getall("lang"), p.get("q")
('en', ('en', 'fr'), 'a&b')
>>> format_params(p, "q_component")
'lang=en&x&lang=fr&q=a%26b'
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import TypeAlias

from ..errors import URNError
from ._encode import Part, decode_component, encode_component

__all__ = ["ParamPairs", "Params", "format_params", "parse_params"]

#: What ``replace(q_params=…)`` accepts: pairs (value ``None``: no ``=``) or a mapping.
ParamPairs: TypeAlias = Iterable[tuple[str, str | None]] | Mapping[str, str | None]


class Params(tuple[tuple[str, str | None], ...]):
    """An immutable, ordered multi-map: a tuple of ``(key, value)`` pairs, repeated keys kept.

    It is a ``tuple``, so it compares, hashes, indexes and unpacks like one; :meth:`get` and
    :meth:`getall` look keys up.

    >>> Params([("a", "1"), ("a", "2")]).getall("a")
    ('1', '2')
    >>> Params([("a", "1")]) == (("a", "1"),)
    True
    """

    __slots__ = ()

    def __new__(cls, pairs: Iterable[tuple[str, str | None]] = ()) -> Params:
        return super().__new__(cls, (_pair(p) for p in pairs))

    def get(self, key: str, default: str | None = None) -> str | None:
        """The first value of *key*, or *default*."""
        for k, v in self:
            if k == key:
                return v
        return default

    def getall(self, key: str) -> tuple[str | None, ...]:
        """Every value of *key*, in order."""
        return tuple(v for k, v in self if k == key)

    def keys(self) -> tuple[str, ...]:
        """The keys, in order, each once."""
        return tuple(dict.fromkeys(k for k, _ in self))

    def __contains__(self, key: object) -> bool:
        if isinstance(key, str):
            return any(k == key for k, _ in self)
        return super().__contains__(key)

    def __iter__(self) -> Iterator[tuple[str, str | None]]:
        return super().__iter__()

    def __repr__(self) -> str:
        return f"Params({list(self)!r})"


def _pair(p: object) -> tuple[str, str | None]:
    if not (isinstance(p, tuple) and len(p) == 2):
        raise TypeError(f"a parameter is a (key, value) pair, not {p!r}")
    k, v = p
    if not isinstance(k, str) or not (v is None or isinstance(v, str)):
        raise TypeError(f"a parameter is a (str, str | None) pair, not {p!r}")
    return (k, v)


def parse_params(component: str | None) -> Params:
    """Split a component into decoded ``(key, value)`` pairs; ``None`` gives no pairs.

    Raises :class:`~urnld.URNEncodingError` where an escape is malformed or not UTF-8.

    >>> parse_params("a=1=2&&b=")
    Params([('a', '1=2'), ('', None), ('b', '')])
    """
    if component is None:
        return Params()
    out: list[tuple[str, str | None]] = []
    for item in component.split("&"):
        key, eq, value = item.partition("=")
        out.append((decode_component(key), decode_component(value) if eq else None))
    return Params(out)


def format_params(params: ParamPairs, part: Part) -> str | None:
    """The component text for *params* (``None`` when there are none), each piece encoded.

    ``&`` and ``=`` inside keys, and ``&`` inside values, are percent-encoded so that the pairs
    read back the same.

    >>> format_params({"k": "a&b=c", "x": None}, "q_component")
    'k=a%26b=c&x'
    """
    pairs = list(params.items()) if isinstance(params, Mapping) else list(params)
    if not pairs:
        return None
    pieces = []
    for pair in pairs:
        key, value = _pair(pair)
        k = encode_component(key, "f_component").replace("&", "%26").replace("=", "%3D")
        if value is None:
            pieces.append(k)
        else:
            pieces.append(k + "=" + encode_component(value, "f_component").replace("&", "%26"))
    text = "&".join(pieces)
    if part == "r_component":
        text = text.replace("?", "%3F")
    if text == "":
        raise URNError(f"the parameters {pairs!r} give an empty {part}, which RFC 8141 forbids")
    if text[0] in "/?":
        text = f"%{ord(text[0]):02X}" + text[1:]
    return text
