"""Hypothesis strategies for URNs: valid names per namespace, near-misses, equivalent spellings.

For your own property tests (``pip install 'urnld[hypothesis]'``):

* :func:`valid_urns` draws URNs that pass :func:`urnld.check` without errors, per namespace,
  check digits right;
* :func:`near_misses` draws :class:`NearMiss` values: one defect each, labelled with the
  finding code that :func:`urnld.check` must report as an error;
* :func:`respellings` draws spellings of one URN that are URN-equivalent to it (RFC 8141 §3
  case folding plus the namespace's own rules).

>>> from hypothesis import given
>>> import urnld
>>> @given(valid_urns("isbn"))
... def test_isbn(text):
...     assert urnld.validate(text)
>>> test_isbn()
"""

from __future__ import annotations

import dataclasses
import string
from collections.abc import Callable
from typing import Final

try:
    from hypothesis import strategies as st
except ImportError as e:  # pragma: no cover - depends on the environment
    raise ImportError(
        "urnld.strategies needs Hypothesis: pip install 'urnld[hypothesis]'"
    ) from e

__all__ = ["NAMESPACES", "NearMiss", "near_misses", "respellings", "valid_urns"]

_DIGITS: Final = string.digits
_ALNUM: Final = string.ascii_letters + string.digits
# RFC 3986 pchar without ":" (so it cannot split namespace structure) and without "%".
_PCHAR_NC: Final = _ALNUM + "-._~!$&'()*+,;=@"
_HEX: Final = "0123456789ABCDEF"


@dataclasses.dataclass(frozen=True, slots=True)
class NearMiss:
    """A string one defect away from a valid URN, and the finding code it must raise."""

    text: str
    code: str


# -- check digits, computed here independently of urnld's namespace modules ---------------------


def _isbn10(first9: str) -> str:
    c = (11 - sum((10 - i) * int(d) for i, d in enumerate(first9)) % 11) % 11
    return "X" if c == 10 else str(c)


def _isbn13(first12: str) -> str:
    return str((10 - sum((3 if i % 2 else 1) * int(d) for i, d in enumerate(first12)) % 10) % 10)


def _issn(first7: str) -> str:
    c = (11 - sum((8 - i) * int(d) for i, d in enumerate(first7)) % 11) % 11
    return "X" if c == 10 else str(c)


def _digits(n: int) -> st.SearchStrategy[str]:
    return st.text(_DIGITS, min_size=n, max_size=n)


def _number(max_digits: int = 6) -> st.SearchStrategy[str]:
    """A decimal number without leading zero."""
    return st.integers(0, 10**max_digits - 1).map(str)


# -- NSS strategies per namespace (canonical spellings) -------------------------------------------


@st.composite
def _isbn(draw: Callable[..., object]) -> str:
    if draw(st.booleans()):
        body = str(draw(_digits(9)))
        return body + _isbn10(body)
    body = str(draw(st.sampled_from(["978", "979"]))) + str(draw(_digits(9)))
    return body + _isbn13(body)


@st.composite
def _issn_nss(draw: Callable[..., object]) -> str:
    body = str(draw(_digits(7)))
    return f"{body[:4]}-{body[4:]}{_issn(body)}"


def _uuid_nss() -> st.SearchStrategy[str]:
    return st.uuids().map(str)


def _oid_nss() -> st.SearchStrategy[str]:
    return st.lists(st.integers(0, 10**6), min_size=1, max_size=8).map(
        lambda arcs: ".".join(map(str, arcs))
    )


@st.composite
def _nbn_nss(draw: Callable[..., object]) -> str:
    cc = str(draw(st.text(string.ascii_lowercase, min_size=2, max_size=2)))
    subs = draw(st.lists(st.text(string.ascii_lowercase + _DIGITS, min_size=1, max_size=5),
                         max_size=2))
    assert isinstance(subs, list)
    first = str(draw(st.text(_ALNUM, min_size=1, max_size=1)))
    rest = str(draw(st.text(_PCHAR_NC + ":/", max_size=10)))
    return ":".join([cc, *subs]) + "-" + first + rest


def _ietf_nss() -> st.SearchStrategy[str]:
    name = st.text(string.ascii_lowercase + _DIGITS + "-", min_size=1, max_size=10)
    return st.one_of(
        st.builds(lambda k, n: f"{k}:{n}", st.sampled_from(["rfc", "fyi", "std", "bcp"]),
                  _number(4)),
        st.builds(lambda k, n: f"{k}:{n}", st.sampled_from(["id", "mtg"]), name),
        st.builds(lambda ns: "params:" + ":".join(ns),
                  st.lists(st.text(_PCHAR_NC, min_size=1, max_size=8), min_size=1, max_size=4)),
    )


def _lex_nss() -> st.SearchStrategy[str]:
    seg = st.text(string.ascii_lowercase + _DIGITS + ".-", min_size=1, max_size=8)
    return st.builds(
        lambda j, parts: ":".join([j, *parts]),
        st.text(string.ascii_lowercase, min_size=2, max_size=2),
        st.lists(seg, min_size=3, max_size=4),
    )


@st.composite
def _epc_nss(draw: Callable[..., object]) -> str:
    # GS1 SGTIN: company prefix (6-12 digits) and item reference together 13 digits; the
    # serial a number without leading zero (valid under RFC 5134's grammar and GS1's TDS).
    cp_len = int(str(draw(st.integers(6, 12))))
    cp = str(draw(_digits(cp_len)))
    item = str(draw(_digits(13 - cp_len)))
    serial = str(draw(_number(12)))
    return f"id:sgtin:{cp}.{item}.{serial}"


def _doi_nss() -> st.SearchStrategy[str]:
    return st.builds(
        lambda reg, suffix: f"10.{reg}/{suffix}".upper(),
        st.integers(1000, 99999),
        st.text(_ALNUM + "-._", min_size=1, max_size=10),
    )


def _generic_nss() -> st.SearchStrategy[str]:
    unit = st.sampled_from(_PCHAR_NC + ":") | st.builds(
        lambda a, b: "%" + a + b, st.sampled_from(_HEX), st.sampled_from(_HEX)
    ).filter(lambda e: e != "%00")
    tail = st.lists(unit | st.just("/"), max_size=12).map("".join)
    return st.builds(lambda h, t: h + t, unit, tail)


#: NID -> strategy of canonical, valid NSSs.
NAMESPACES: Final[dict[str, Callable[[], st.SearchStrategy[str]]]] = {
    "isbn": _isbn,
    "issn": _issn_nss,
    "uuid": _uuid_nss,
    "oid": _oid_nss,
    "nbn": _nbn_nss,
    "ietf": _ietf_nss,
    "lex": _lex_nss,
    "epc": _epc_nss,
    "doi": _doi_nss,
    "example": _generic_nss,
}


def _nss(nid: str) -> st.SearchStrategy[str]:
    try:
        return NAMESPACES[nid]()
    except KeyError:
        raise ValueError(f"no strategy for NID {nid!r}; known: {sorted(NAMESPACES)}") from None


def valid_urns(nid: str | None = None) -> st.SearchStrategy[str]:
    """Canonical URN strings that :func:`urnld.check` finds no error in (one NID, or any).

    The NSS drawn for ``example`` (RFC 6963) is any RFC 8141 NSS, escapes included.
    """
    if nid is None:
        return st.sampled_from(sorted(NAMESPACES)).flatmap(valid_urns)
    return _nss(nid).map(lambda nss: f"urn:{nid}:{nss}")


def _replace_at(s: str, i: int, c: str) -> str:
    return s[:i] + c + s[i + 1 :]


@st.composite
def _near_miss(draw: Callable[..., object], nid: str) -> NearMiss:
    nss = str(draw(_nss(nid)))
    if nid in ("isbn", "issn"):
        # One wrong check character: the sum no longer works out.
        good = nss[-1]
        wrong = str(draw(st.sampled_from([c for c in "0123456789X" if c != good])))
        if nid == "isbn" and len(nss) == 13 and wrong == "X":
            wrong = str((int(good) + 1) % 10)
        return NearMiss(f"urn:{nid}:{nss[:-1]}{wrong}", "nss-check-digit")
    if nid == "uuid":
        i = int(str(draw(st.sampled_from([i for i, c in enumerate(nss) if c != "-"]))))
        return NearMiss(f"urn:uuid:{_replace_at(nss, i, 'g')}", "nss-invalid")
    if nid == "oid":
        return NearMiss(f"urn:oid:{nss}.01", "nss-invalid")
    if nid == "nbn":
        # A digit in the country code: RFC 8458 §4.2 wants two ISO 3166-1 letters.
        return NearMiss(f"urn:nbn:1{nss[1:]}", "nss-invalid")
    defect = str(draw(st.sampled_from(["space", "experimental", "nss-empty"])))
    if defect == "space":
        return NearMiss(f"urn:{nid}:{nss} x", "syntax")
    if defect == "experimental":
        return NearMiss(f"urn:X-{nid}:{nss}", "nid-experimental")
    return NearMiss(f"urn:{nid}:", "syntax")


def near_misses(nid: str | None = None) -> st.SearchStrategy[NearMiss]:
    """Strings one defect away from a valid URN, each with the error code it must raise.

    ISBN and ISSN get a wrong check character (``nss-check-digit``); UUID, OID and NBN break
    their grammar (``nss-invalid``); every namespace also gets RFC 8141 defects (``syntax``)
    and an ``X-`` NID (``nid-experimental``, RFC 8141 App. C).
    """
    if nid is None:
        return st.sampled_from(sorted(NAMESPACES)).flatmap(near_misses)
    _nss(nid)  # unknown NIDs fail here, not inside a test
    return _near_miss(nid)


def _flip_case(draw: Callable[..., object], s: str) -> str:
    flips = draw(st.lists(st.booleans(), min_size=len(s), max_size=len(s)))
    assert isinstance(flips, list)
    return "".join(c.swapcase() if f else c for c, f in zip(s, flips, strict=True))


def _flip_hex_case(draw: Callable[..., object], s: str) -> str:
    out = []
    i = 0
    while i < len(s):
        if s[i] == "%":
            out.append("%" + _flip_case(draw, s[i + 1 : i + 3]))
            i += 3
        else:
            out.append(s[i])
            i += 1
    return "".join(out)


@st.composite
def _respelling(draw: Callable[..., object], text: str) -> str:
    from ._core import URN

    u = URN(text)
    nid, nss, r, q, f = u.parts
    key = nid.lower()
    if key == "isbn":
        nss = nss.replace("-", "")
        cuts = draw(st.lists(st.booleans(), min_size=len(nss), max_size=len(nss)))
        assert isinstance(cuts, list)
        nss = "".join(c + ("-" if cut and i < len(nss) - 1 else "") for i, (c, cut)
                      in enumerate(zip(nss, cuts, strict=True)))
        nss = nss.replace("X", str(draw(st.sampled_from("xX"))))
    elif key == "issn":
        nss = nss.replace("-", "") if draw(st.booleans()) else nss
        nss = nss.replace("X", str(draw(st.sampled_from("xX"))))
    elif key in ("uuid", "lex", "doi") or (key == "ietf" and not nss.lower().startswith("params:")):
        nss = _flip_case(draw, nss)
    elif key == "nbn":
        dash = nss.index("-")
        nss = _flip_case(draw, nss[:dash]) + nss[dash:]
    nss = _flip_hex_case(draw, nss)
    out = _flip_case(draw, "urn") + ":" + _flip_case(draw, nid) + ":" + nss
    for value, delim in ((r, "?+"), (q, "?="), (f, "#")):
        if value is not None:
            out += delim + _flip_hex_case(draw, value)
    return out


def respellings(urn: str) -> st.SearchStrategy[str]:
    """Spellings of *urn* that are URN-equivalent to it, with the same components.

    Case of ``urn``, the NID and ``%XX`` hex (RFC 8141 §3), plus the namespace's rules: ISBN
    hyphens and ``x``, the ISSN hyphen, letter case where the namespace's NSS ignores it.

    >>> from hypothesis import given
    >>> import urnld
    >>> @given(respellings("urn:isbn:080442957X"))
    ... def test(s):
    ...     assert urnld.canonical(s) == "urn:isbn:080442957X"
    >>> test()
    """
    return _respelling(urn)
