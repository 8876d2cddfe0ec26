"""The hook through which a URN namespace adds NSS validation and equivalence rules.

RFC 8141 §3 lets a namespace *add* equivalences (never remove any) and define its own NSS
grammar. A namespace contributes both by subclassing :class:`NamespaceRule`:

>>> class Shout(NamespaceRule):
...     nid = "shout"
...     reference = "RFC 0000 §1"
...     def canonical_nss(self, nss: str) -> str:
...         return upper_except_pct(nss)
>>> Shout().canonical_nss("abc%2f")
'ABC%2F'

The core calls :meth:`NamespaceRule.canonical_nss` with the NSS after RFC 8141 normalization
(``%XX`` hex upper-cased), so a rule cannot split what §3 joins.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar

from ..findings import CODES, CheckOptions, Finding, Severity
from ._normalizers import lower_except_pct, upper_except_pct, upper_pct

__all__ = [
    "GENERIC",
    "CheckOptions",
    "NamespaceRule",
    "lower_except_pct",
    "upper_except_pct",
    "upper_pct",
]

_F = TypeVar("_F", bound=Callable[..., object])


def native_copy(kind: str) -> Callable[[_F], _F]:
    """Mark a built-in rule's ``canonical_nss`` or ``check_nss`` as one the compiled accelerator
    has an exact copy of, which it runs for ASCII input.

    *kind* names the C copy: for ``canonical_nss`` ``canonical_<kind>``, for ``check_nss``
    (copied for the default options only; an NSS outside the grammar still runs the Python
    method, whose message says what is wrong) ``check_<kind>``, in the accelerator's
    ``_speedups/rules.h`` and ``rules_check.h``. ``scripts/gen_speedups.py`` lists the kinds
    the built-in rules carry, and a kind without its copy does not build. Only copies that
    measurably speed up a streaming pass are kept.

    The mark sits on the function itself: a subclass that overrides the method, or a method
    replaced at run time, has none, and its Python code runs. The accelerator's differential
    tests run both copies on the same NSSs.

    >>> @native_copy("uuid")
    ... def f(self: object, nss: str) -> str:
    ...     return nss
    >>> f._urnld_native  # type: ignore[attr-defined]
    'uuid'
    """

    def mark(fn: _F) -> _F:
        fn._urnld_native = kind  # type: ignore[attr-defined]
        return fn

    return mark


class NamespaceRule:
    """Rules of one URN namespace: NSS grammar, check digits, canonical NSS.

    Subclasses set the class attributes and override the two methods. The base class itself is
    the *generic* rule: no extra equivalence, no NSS grammar beyond RFC 8141.

    Attributes:
        nid: the NID in lower case ("" for the generic rule).
        title: a short human title, e.g. "International Standard Book Number".
        reference: the defining document and section, e.g. "RFC 3187 §5".
        provisional: True when the rules are not verified against the registration template.
        profiles: the names of the opt-in profiles this rule understands (``check(…,
            profiles=…)``), e.g. ``{"nbn-de"}``; a name no rule declares is refused by the CLI.
    """

    nid: str = ""
    title: str = "generic RFC 8141 rules"
    reference: str = "RFC 8141 §3"
    provisional: bool = False
    profiles: frozenset[str] = frozenset()

    def canonical_nss(self, nss: str) -> str:
        """Return the canonical NSS for *nss* (whose ``%XX`` hex is already upper-case).

        Must be idempotent, must map every member of an equivalence class to one string, and
        must return a valid RFC 8141 NSS. The generic rule returns *nss* unchanged.
        """
        return nss

    def check_nss(self, nss: str, options: CheckOptions) -> Iterable[Finding]:
        """Yield findings about *nss* (as written), with spans relative to the NSS."""
        return ()

    def functional_equivalents(self, nss: str) -> tuple[str, ...]:
        """Other canonical URNs naming the same resource by this namespace's definition.

        Functional equivalence (draft-ietf-urnbis-rfc2141bis-urn-03 §6) goes beyond
        URN-equivalence: ``urn:isbn:0395363411`` and ``urn:isbn:9780395363416`` are two names
        (RFC 3187 keeps them apart) for one book. Called with the canonical NSS of a URN that
        passed :meth:`check_nss` without errors; the default is none.
        """
        return ()

    def equivalent_iris(self, nss: str) -> tuple[str, ...]:
        """IRIs, not URNs, that name the same resource by this namespace's own standard.

        An EPC's GS1 Digital Link URI (GS1 TDS 2.x): the same GS1 key in another syntax, which
        the standard translates field by field. Not a resolver's address (those are
        :mod:`urnld.resolvers`). Called like :meth:`functional_equivalents`; the default is
        none.
        """
        return ()

    def repair(self, text: str) -> tuple[str, str, str] | None:
        """``(code, repaired URN, source)`` when a documented repair of this namespace turns
        *text* (a near miss of a URN of this NID, as written, perhaps outside URN syntax) into
        a valid URN; None when no rule does. The default is none. See :func:`urnld.repair`:
        this hook is how the core's :func:`urnld.check` names a repair without importing the
        namespace rules.
        """
        return None

    def typed_nss(self, nss: str) -> object | None:
        """A typed, immutable view of *nss*, or None when the namespace defines none.

        Called by :attr:`urnld.URN.typed_nss` with the canonical NSS of a URN that passed
        :meth:`check_nss` without errors. The view's ``str()`` must give that NSS back.
        """
        return None

    @property
    def rule_name(self) -> str:
        """How findings name this rule, e.g. ``"isbn: RFC 3187 §5"``."""
        return f"{self.nid}: {self.reference}" if self.nid else self.reference

    def finding(
        self,
        code: str,
        message: str,
        start: int,
        end: int,
        severity: Severity | None = None,
    ) -> Finding:
        """Build a finding of this rule; *severity* defaults to the code's usual one.

        >>> GENERIC.finding("nss-invalid", "bad", 0, 3).rule
        'RFC 8141 §3'
        """
        if severity is None:
            severity = CODES[code][0] if code in CODES else Severity.ERROR
        return Finding(code, severity, message, (start, end), self.rule_name)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} nid={self.nid!r} reference={self.reference!r}>"


#: The rule used for every NID that has no rule of its own.
GENERIC = NamespaceRule()
