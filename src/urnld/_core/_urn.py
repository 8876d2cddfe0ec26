"""The URN value type and the functional front: parse, is_valid, canonical, equivalent."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar, Final

from ..errors import URNError, URNSyntaxError
from . import _accel
from ._legacy import legacy_escaped
from ._normalizers import LOWER_HEX_PCT, upper_match, upper_pct
from ._parser import MODES, RFC2141_RE, RFC8141_RE, Mode, syntax_error
from ._rules import PREFIXES, get_rule, prefix_entry
from ._urn_views import URNViews

if TYPE_CHECKING:

    from ._params import ParamPairs

__all__ = ["URN", "canonical", "equivalent", "is_valid", "parse"]

_PART_NAMES: Final = ("nid", "nss", "r_component", "q_component", "f_component")
_match_rfc8141: Final = RFC8141_RE.fullmatch
_upper_lower_pct: Final = LOWER_HEX_PCT.sub
_lower_pct_search: Final = LOWER_HEX_PCT.search
#: ``(nid, nss, r_component, q_component, f_component)`` as written.
Parts = tuple[str, str, str | None, str | None, str | None]
_Parts = Parts
# The compiled accelerator's syntax test and canonical form (None: the Python code alone).
_c_is_urn: Callable[[str], bool | None] | None = (
    None if _accel.speedups is None else _accel.speedups.is_urn
)
# canonical_str calls the namespace rule's canonical_nss itself (None: not its case).
_c_canonical: Callable[[str, Any, Any], str | None] | None = (
    None if _accel.speedups is None else _accel.speedups.canonical_str
)


def _fast_canonical(text: str) -> str | None:
    """The accelerator's canonical form of *text* (None: not its case, use _canonical_of)."""
    if _c_canonical is None:
        return None
    return _c_canonical(text, PREFIXES, None)


def _parts_of(m: re.Match[str]) -> _Parts:
    """The five parts from a match of either grammar (RFC 2141 has no components)."""
    groups = m.groups()
    if len(groups) == 5:
        return groups
    return (groups[0], groups[1], None, None, None)


def canonical_of_match(text: str, m: re.Match[str]) -> str:
    """The canonical form of *text*, given its match by either grammar.

    The per-term hot path of every graph pass, hence written out. A namespace without rules of
    its own (most NIDs) needs at most one pass over the text after ``urn:NID:``: RFC 8141 §3
    folds only the case of ``urn``, the NID and ``%XX`` hex, and upper-casing hex keeps lengths.
    """
    nid = m[1]
    prefix, rule = PREFIXES.get(nid) or prefix_entry(nid)
    if rule is None:
        if "%" in text and _lower_pct_search(text, len(prefix)) is not None:
            return prefix + _upper_lower_pct(upper_match, text[len(prefix) :])
        if text.startswith(prefix):
            return text  # already canonical: no new string
        return prefix + text[len(prefix) :]
    nss = m[2]
    if "%" in nss and _lower_pct_search(nss) is not None:
        nss = _upper_lower_pct(upper_match, nss)
    key = prefix + rule.canonical_nss(nss)
    if m.lastindex == 2:  # no component matched
        return key
    return key + _components(*m.group(3, 4, 5))


def _legacy_canonical(text: str, m: re.Match[str]) -> str:
    """The canonical form of an RFC 2141 URN *text* (matched by the RFC 2141 grammar as *m*).

    The NSS's ``?``, ``#`` and leading ``/`` are escaped *before* the namespace's rule runs:
    a rule reads the NSS RFC 8141's way, so ``urn:mpeg:A:b?x`` (which MPEG's rule does not
    recognise while it holds a raw ``?``) and its escaped form ``urn:mpeg:A:b%3Fx`` (which it
    does, lower-casing ``A``) would otherwise get two canonical forms, and the canonical form
    would not be its own (``canonical(canonical(s)) != canonical(s)``). Escaping first gives
    the rule the one text both RFCs read as the same name; its canonical form is then the
    RFC 8141 one, on the accelerator when it takes the case.

    >>> _legacy_canonical("urn:mpeg:A:b?x", RFC2141_RE.fullmatch("urn:mpeg:A:b?x"))
    'urn:mpeg:a:b%3Fx'
    """
    escaped = legacy_escaped(text)
    if escaped is text:  # nothing to escape, or no RFC 8141 form: the rule reads it as is
        return canonical_of_match(text, m)
    if _c_canonical is not None:
        fast = _c_canonical(escaped, PREFIXES, None)
        if fast is not None:
            return fast
    return canonical_of_match(escaped, _match_rfc8141(escaped))  # type: ignore[arg-type]


def normalized_text(nid: str, nss: str, r: str | None, q: str | None, f: str | None) -> str:
    """RFC 8141 §3 case normalization of a URN's parts: ``urn`` and the NID lower-cased,
    ``%XX`` hex upper-cased in the NSS and every component (what :meth:`URN.normalized` is).

    >>> normalized_text("EXAMPLE", "a%2c", None, None, "p%3a")
    'urn:example:a%2C#p%3A'
    """
    return f"urn:{nid.lower()}:{upper_pct(nss)}{_components(r, q, f)}"


def _components(r: str | None, q: str | None, f: str | None) -> str:
    """The components with their %XX hex upper-cased, delimiters included."""
    out = ""
    if r is not None:
        out += "?+" + upper_pct(r)
    if q is not None:
        out += "?=" + upper_pct(q)
    if f is not None:
        out += "#" + upper_pct(f)
    return out


def _check_text(text: object) -> str:
    if type(text) is str:
        return text
    if isinstance(text, str):  # str subclasses (rdflib terms) are fine: use the plain value
        return str.__str__(text)
    raise TypeError(f"a URN must be given as str, not {type(text).__name__}")


def _check_mode(mode: str) -> Mode:
    if mode not in MODES:
        raise URNError(f"mode must be 'rfc8141' or 'rfc2141', not {mode!r}")
    return mode  # type: ignore[return-value]  # narrowed by the membership test


class URN(URNViews):
    """An RFC 8141 Uniform Resource Name.

    Parsing keeps the exact input (``str(u)``); the parts are exposed as written. Two relations
    are kept apart on purpose:

    * :meth:`equivalent` is RFC 8141 URN-equivalence plus the namespace's rules, ignoring the
      r-, q- and f-components;
    * ``==`` and ``hash`` are *term identity*: equivalent assigned-names **and** equal normalized
      components (``urn:example:book#ch1`` names a part of the book, not the book).

    A URN never equals a plain ``str`` (``==`` returns ``NotImplemented``): equal URNs may be
    spelled differently, so no string hash could agree with them. Compare strings with
    :func:`urnld.equivalent` or parse them first.

    >>> u = URN("URN:Example:a123%2cz456?+cc=us?=lang=en#p12")
    >>> u.nid, u.nss, u.r_component, u.q_component, u.f_component
    ('Example', 'a123%2cz456', 'cc=us', 'lang=en', 'p12')
    >>> u.assigned_name
    'URN:Example:a123%2cz456'
    >>> str(u.canonical())
    'urn:example:a123%2Cz456?+cc=us?=lang=en#p12'
    >>> u.equivalent("urn:example:a123%2Cz456")
    True
    >>> u == URN("urn:example:a123%2Cz456")
    False
    """

    # The parts stay in the regex match until asked for: fewer objects and stores per URN,
    # which is most of what building one costs.
    __slots__ = ("_canon", "_m", "_mode", "_text")
    __match_args__ = _PART_NAMES

    _text: str
    _m: re.Match[str] | None
    _mode: Mode
    _canon: str | None
    #: Every level of :func:`urnld.check` for a text, raising URNValidationError: set by the
    #: check module, which imports this one, so builders run the check without an import loop.
    _validate_text: ClassVar[Callable[[str, Mode], object]]

    def __init__(self, text: str, mode: Mode = "rfc8141") -> None:
        if type(text) is not str:
            text = _check_text(text)
        if mode == "rfc8141":
            if _c_canonical is not None:
                # One scan validates and gives the canonical form, which ==, hash and every
                # graph use ask for anyway; the regex match waits until a part is asked.
                try:
                    canon = _c_canonical(text, PREFIXES, None)
                except Exception:  # a plugin rule's canonical_nss: it raises when it is asked
                    canon = None
                if canon is not None or (_c_is_urn is not None and _c_is_urn(text)):
                    self._m = None
                    self._text = text
                    self._mode = mode
                    self._canon = canon
                    return
            m = _match_rfc8141(text)
            if m is None:
                raise syntax_error(text, mode)
        else:
            mode = _check_mode(mode)
            m = RFC2141_RE.fullmatch(text)
            if m is None:
                raise syntax_error(text, mode)
        self._m = m
        self._text = text
        self._mode = mode
        self._canon = None

    # -- construction -------------------------------------------------------------------

    @classmethod
    def parse(cls, text: str, mode: Mode = "rfc8141") -> URN:
        """Parse *text*; raise :class:`~urnld.URNSyntaxError` saying where it is wrong.

        >>> URN.parse("urn:isbn:0395363411").nid
        'isbn'
        >>> URN.parse("urn:foo:a/b", mode="rfc2141").nss
        'a/b'
        """
        return cls(text, mode)

    @classmethod
    def from_parts(
        cls,
        nid: str,
        nss: str,
        r_component: str | None = None,
        q_component: str | None = None,
        f_component: str | None = None,
        *,
        mode: Mode = "rfc8141",
    ) -> URN:
        """Build a URN from its parts, validating each one.

        >>> str(URN.from_parts("example", "a1", q_component="x=1"))
        'urn:example:a1?=x=1'
        >>> URN.from_parts("example", "a?+b")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        urnld.URNSyntaxError: the nss 'a?+b' does not stand alone: it would be read as 'a' ...
        """
        parts = (nid, nss, r_component, q_component, f_component)
        for name, value in zip(_PART_NAMES, parts, strict=True):
            if value is not None and not isinstance(value, str):
                raise TypeError(f"{name} must be str or None, not {type(value).__name__}")
        # Record where each part starts, so an error can point at the part that is wrong.
        text = "urn:"
        starts: list[int] = []
        for name, value in zip(_PART_NAMES, parts, strict=True):
            if value is None:
                starts.append(len(text))
                continue
            text += {"nid": "", "nss": ":", "r_component": "?+", "q_component": "?=",
                     "f_component": "#"}[name]
            starts.append(len(text))
            text += value
        urn = cls(text, mode)
        # A part holding a delimiter ("?+", "#", ":") would parse into other parts silently.
        for name, given, got, start in zip(_PART_NAMES, parts, urn.parts, starts, strict=True):
            if given is not None and given != got:
                raise URNSyntaxError(
                    text,
                    start,
                    f"the {name} {given!r} does not stand alone: it would be read as {got!r}",
                )
        return urn

    def replace(
        self,
        *,
        q_params: ParamPairs | None = None,
        r_params: ParamPairs | None = None,
        **parts: str | None,
    ) -> URN:
        """A copy with some parts replaced (validated); ``None`` removes a component.

        *q_params* / *r_params* give a component as ``(key, value)`` pairs or a mapping, each
        key and value percent-encoded (see :attr:`q_params`); no pairs remove the component.

        >>> str(URN("urn:example:a#x").replace(f_component=None, q_component="v=2"))
        'urn:example:a?=v=2'
        >>> str(URN("urn:example:a").replace(q_params=[("lang", "en"), ("q", "a&b")]))
        'urn:example:a?=lang=en&q=a%26b'
        """
        unknown = set(parts) - set(_PART_NAMES)
        if unknown:
            raise TypeError(f"replace() got unknown parts: {', '.join(sorted(unknown))}")
        for given, part in ((q_params, "q_component"), (r_params, "r_component")):
            if given is not None:
                if part in parts:
                    raise TypeError(f"replace() got both {part} and {part[0]}_params")
                from ._params import format_params

                parts[part] = format_params(given, part)  # type: ignore[arg-type]
        current = dict(zip(_PART_NAMES, self.parts, strict=True))
        current.update(parts)
        if current["nid"] is None or current["nss"] is None:
            raise URNError("a URN needs a NID and an NSS")
        return type(self).from_parts(
            current["nid"],
            current["nss"],
            current["r_component"],
            current["q_component"],
            current["f_component"],
            mode=self._mode,
        )

    def _derived(self, text: str) -> URN:
        """A URN for *text*, which is known to be valid (normalized or canonical forms)."""
        if text == self._text:
            return self
        new = object.__new__(type(self))
        new._text = text
        new._mode = self._mode
        regex = RFC8141_RE if self._mode == "rfc8141" else RFC2141_RE
        m = regex.fullmatch(text)
        if m is None:
            # Only a buggy namespace rule can get here; say which one.
            raise URNError(
                f"namespace rule {get_rule(self.nid)!r} produced an invalid URN: {text!r}"
            )
        new._m = m
        new._canon = None
        return new

    @property
    def _match(self) -> re.Match[str]:
        """The grammar's match of the text (made on first use when the accelerator parsed it)."""
        m = self._m
        if m is None:
            regex = RFC8141_RE if self._mode == "rfc8141" else RFC2141_RE
            m = self._m = regex.fullmatch(self._text)
            assert m is not None  # the text was found valid when the URN was made
        return m

    # -- parts --------------------------------------------------------------------------

    @property
    def nid(self) -> str:
        """The namespace identifier, as written."""
        return self._match[1]

    @property
    def nss(self) -> str:
        """The namespace-specific string, as written."""
        return self._match[2]

    @property
    def r_component(self) -> str | None:
        """The r-component (after ``?+``), or None."""
        return self.parts[2]

    @property
    def q_component(self) -> str | None:
        """The q-component (after ``?=``), or None."""
        return self.parts[3]

    @property
    def f_component(self) -> str | None:
        """The f-component (after ``#``); ``""`` for an empty ``#``, None when absent."""
        return self.parts[4]

    @property
    def parts(self) -> tuple[str, str, str | None, str | None, str | None]:
        """``(nid, nss, r_component, q_component, f_component)`` as written."""
        return _parts_of(self._match)

    @property
    def mode(self) -> Mode:
        """The grammar it was parsed with: ``"rfc8141"`` or ``"rfc2141"``."""
        return self._mode

    @property
    def assigned_name(self) -> str:
        """``urn:NID:NSS`` as written, without components.

        >>> URN("URN:X-y:z?=q").assigned_name
        'URN:X-y:z'
        """
        nid, nss = self._match.group(1, 2)
        return f"{self._text[:3]}:{nid}:{nss}"

    @property
    def has_components(self) -> bool:
        """True when an r-, q- or f-component is present (even an empty ``#``)."""
        return self._match.lastindex != 2

    # -- normalization and equivalence ---------------------------------------------------

    @property
    def assigned_key(self) -> str:
        """The canonical assigned-name: the RFC 8141 equivalence key (components dropped).

        >>> URN("URN:ISBN:0-395-36341-1?=x").assigned_key
        'urn:isbn:0395363411'
        """
        if self._match.lastindex == 2:
            return self.canonical_str
        assigned = self.assigned_name
        return canonical_of_match(assigned, _match_rfc8141(assigned))  # type: ignore[arg-type]

    @property
    def canonical_str(self) -> str:
        """The canonical form as a string (see :meth:`canonical`)."""
        canon = self._canon
        if canon is None:
            # _fast_canonical, written out: this is the per-URN hot path of parse + canonical.
            if _c_canonical is not None and self._mode == "rfc8141":
                canon = _c_canonical(self._text, PREFIXES, None)
            if canon is None:
                if self._mode == "rfc2141":
                    canon = _legacy_canonical(self._text, self._match)
                else:
                    m = self._m
                    canon = canonical_of_match(self._text, self._match if m is None else m)
            self._canon = canon
        return canon

    @property
    def _eq_key(self) -> str:
        """The key of ==, hash and ordering: the canonical string, unambiguous across modes.

        A legacy canonical form escapes the NSS's "?", "#" and leading "/" (see
        :func:`legacy_escaped`), so it means under RFC 8141 what it meant under RFC 2141 and the
        keys of both modes compare. Where no RFC 8141 form exists (an NID RFC 8141 refuses), a
        NUL (never part of a URN) keeps the key apart from every RFC 8141 key.
        """
        canon = self.canonical_str
        if self._mode == "rfc2141" and ("?" in canon or "#" in canon):
            return canon + "\x00"
        return canon

    @property
    def is_canonical(self) -> bool:
        """True when ``str(self)`` is already the canonical form."""
        return self._text == self.canonical_str

    def normalized(self) -> URN:
        """RFC 8141 §3 case normalization: ``urn`` and NID lower-cased, ``%XX`` hex upper-cased.

        Components are kept, with their ``%XX`` hex upper-cased too.

        >>> str(URN("URN:EXAMPLE:a123%2cz456#p%3a").normalized())
        'urn:example:a123%2Cz456#p%3A'
        """
        text = normalized_text(*self.parts)
        return self._derived(text if self._mode == "rfc8141" else legacy_escaped(text))

    def canonical(self) -> URN:
        """The canonical form: :meth:`normalized` plus the namespace's rules.

        A pure function of the equivalence class (and the components): every spelling of the
        same name gives the same string, in any order, on any machine.

        >>> str(URN("urn:ISBN:0-8044-2957-x").canonical())
        'urn:isbn:080442957X'
        """
        canon = self._canon
        if canon is None:
            canon = self.canonical_str
        text = self._text
        if canon == text:
            return self
        # Built from parts known to be valid, the result is not parsed again: the accelerator's
        # scan checks it; without it, RFC 8141 §3's case folding keeps a URN valid, so the
        # canonical form of a NID without a rule of its own is one (a rule's is parsed).
        if self._mode == "rfc8141" and _c_is_urn is not None:
            if not _c_is_urn(canon):
                return self._derived(canon)
            known = None  # a rule's form is computed again when asked, as for any URN
        else:
            nid = text[4 : text.index(":", 4)]
            if (PREFIXES.get(nid) or prefix_entry(nid))[1] is not None:
                return self._derived(canon)
            known = canon  # case folding is idempotent: the form is its own canonical form
        new = object.__new__(type(self))
        new._text = canon
        new._mode = self._mode
        new._m = None
        new._canon = known
        return new

    def equivalent(self, other: URN | str) -> bool:
        """RFC 8141 URN-equivalence plus namespace rules; components are ignored.

        >>> URN("urn:example:a123,z456").equivalent("URN:EXAMPLE:a123,z456#789")
        True
        """
        if not isinstance(other, URN):
            other = URN(other, self._mode)
        return self.assigned_key == other.assigned_key

    # -- dunder protocol -----------------------------------------------------------------

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        name = type(self).__name__
        if self._mode == "rfc2141":
            return f"{name}({self._text!r}, mode='rfc2141')"
        return f"{name}({self._text!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, URN):
            return self._eq_key == other._eq_key
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        if isinstance(other, URN):
            return self._eq_key != other._eq_key
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._eq_key)

    def __lt__(self, other: object) -> bool:
        if isinstance(other, URN):
            return self._eq_key < other._eq_key
        return NotImplemented

    def __le__(self, other: object) -> bool:
        if isinstance(other, URN):
            return self._eq_key <= other._eq_key
        return NotImplemented

    def __gt__(self, other: object) -> bool:
        if isinstance(other, URN):
            return self._eq_key > other._eq_key
        return NotImplemented

    def __ge__(self, other: object) -> bool:
        if isinstance(other, URN):
            return self._eq_key >= other._eq_key
        return NotImplemented

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self._text, self._mode))

    def __copy__(self) -> URN:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> URN:
        return self


def parse(text: str, mode: Mode = "rfc8141") -> URN:
    """Parse *text* as a URN (same as :meth:`URN.parse`).

    >>> parse("urn:ietf:rfc:2141").nss
    'rfc:2141'
    """
    return URN(text, mode)


def is_valid(text: str, mode: Mode = "rfc8141") -> bool:
    """True when *text* matches the URN grammar (syntax only; see :func:`urnld.check`).

    >>> is_valid("urn:example:a123"), is_valid("urn:example:a 123")
    (True, False)
    """
    text = _check_text(text)
    regex = RFC8141_RE if _check_mode(mode) == "rfc8141" else RFC2141_RE
    if _c_is_urn is not None and regex is RFC8141_RE:
        valid = _c_is_urn(text)  # None: not ASCII, the regex decides
        if valid is not None:
            return valid
    return regex.fullmatch(text) is not None


def canonical(text: str | URN, mode: Mode = "rfc8141") -> str:
    """The canonical form of *text* as a string.

    >>> canonical("URN:UUID:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6")
    'urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6'
    """
    if type(text) is str and mode == "rfc8141":
        # Fast path, no URN object: this runs once per term over whole RDF dumps.
        fast = _fast_canonical(text)
        if fast is not None:
            return fast
        m = _match_rfc8141(text)
        if m is None:
            raise syntax_error(text, mode)
        return canonical_of_match(text, m)
    if isinstance(text, URN):
        return text.canonical_str
    return URN(text, mode).canonical_str


def equivalent(a: str | URN, b: str | URN, mode: Mode = "rfc8141") -> bool:
    """RFC 8141 URN-equivalence (plus namespace rules) of two URNs or strings.

    >>> equivalent("URN:ISBN:0-395-36341-1", "urn:isbn:0395363411")
    True
    >>> equivalent("urn:example:a123,z456", "urn:example:A123,z456")
    False
    """
    ua = a if isinstance(a, URN) else URN(a, mode)
    ub = b if isinstance(b, URN) else URN(b, mode)
    return ua.assigned_key == ub.assigned_key
