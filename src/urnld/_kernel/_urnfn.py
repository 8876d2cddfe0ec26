"""What the ``urnfn:`` SPARQL functions compute, once for every engine that hosts them.

urnld's SPARQL functions (namespace ``https://w3id.org/urnld/fn#``) run inside rdflib
(:mod:`urnld.rdf`) and inside pyoxigraph (:mod:`urnld.oxigraph`). Each engine has its own term
classes, so each keeps a thin adapter; *what* a function answers lives here, on plain strings,
so the engines cannot drift apart. This module imports no RDF library.

An argument is an :class:`Arg`: the lexical form of an IRI or literal (None for a blank node or
anything else without one) and whether it is a literal. A function returns a :class:`Result`
(what kind of term to build, and its text) or raises :class:`FunctionError`, SPARQL's
expression error: ``BIND`` leaves the variable unbound, ``FILTER`` drops the row.

>>> FUNCTIONS["canonical"].call([Arg("URN:EXAMPLE:a%2cb", literal=False)])
Result(kind='same', text='urn:example:a%2Cb')
>>> FUNCTIONS["nid"].call([Arg("no urn", literal=True)])
Traceback (most recent call last):
urnld._kernel._urnfn.FunctionError: urnfn:nid: 'no urn' is not a URN
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final, Literal, NamedTuple

from .._core import URN, Policy, active_policy, equivalent
from ..errors import URNError
from ._term_check import check_term

__all__ = ["FUNCTIONS", "NAMESPACE", "Arg", "Function", "FunctionError", "Result"]

#: The namespace of urnld's SPARQL functions (prefix ``urnfn:``).
NAMESPACE: Final = "https://w3id.org/urnld/fn#"

# Distinct URNs in a catalog run to the hundreds of thousands; beyond that the cache would only
# cost memory, and misses are still correct (just slower).
_CACHE_SIZE = 1 << 16


class FunctionError(Exception):
    """SPARQL's expression error: the call has no value (not a URN, a bad argument)."""


class Arg(NamedTuple):
    """One argument as a function reads it: the lexical form (None: a blank node), its kind."""

    text: str | None
    literal: bool


#: ``"boolean"``: an ``xsd:boolean`` literal; ``"string"``: a plain literal; ``"iri"``: an IRI;
#: ``"same"``: the kind of the first argument (an IRI, or a literal with its datatype/language).
Kind = Literal["boolean", "string", "iri", "same"]


class Result(NamedTuple):
    """What a call returns: the kind of term and its lexical form (``"true"``/``"false"``)."""

    kind: Kind
    text: str


@dataclass(frozen=True, slots=True)
class Function:
    """One ``urnfn:`` function: its local name, how many arguments it takes, what it computes."""

    name: str
    min_args: int
    max_args: int
    compute: Callable[[Sequence[Arg]], Result]

    def call(self, args: Sequence[Arg]) -> Result:
        """The result of the function on *args*; :class:`FunctionError` where SPARQL has none.

        A wrong number of arguments is an expression error too, as for SPARQL's own functions
        (``STRSTARTS("a")`` leaves a BIND unbound in every engine).

        >>> FUNCTIONS["isValid"].call([])
        Traceback (most recent call last):
        urnld._kernel._urnfn.FunctionError: urnfn:isValid takes 1 argument, not 0
        """
        if not self.min_args <= len(args) <= self.max_args:
            want = (
                str(self.min_args)
                if self.min_args == self.max_args
                else f"{self.min_args} or {self.max_args}"
            )
            plural = "" if want == "1" else "s"
            raise FunctionError(f"urnfn:{self.name} takes {want} argument{plural}, not {len(args)}")
        return self.compute(args)


class _Info(NamedTuple):
    """Everything the functions need to know about one lexical form, computed once."""

    canonical: str | None  # None: not a URN (syntax error)
    nid: str | None
    nss: str | None
    codes: str  # space-separated finding codes
    valid: bool


def _info(text: str) -> _Info:
    # The policy in force (strict, profiles, severity overrides): urnld.shacl.validate sets it.
    return _info_under(text, active_policy())


@functools.lru_cache(maxsize=_CACHE_SIZE)
def _info_under(text: str, policy: Policy) -> _Info:
    # The check side of the term rule (what ``urnld check`` reports): findings, and the
    # canonical form of anything that parses, valid or not.
    checked = check_term(text, policy)
    codes = " ".join(checked.codes)
    if checked.canonical is None:
        return _Info(None, None, None, codes or "syntax", valid=False)
    canon = URN.parse(checked.canonical)
    return _Info(canon.canonical_str, canon.nid, canon.nss, codes, checked.valid)


def _boolean(value: bool) -> Result:
    return Result("boolean", "true" if value else "false")


def _require_urn(arg: Arg, fn: str) -> _Info:
    info = None if arg.text is None else _info(arg.text)
    if info is None or info.canonical is None:
        shown = "a blank node" if arg.text is None else repr(arg.text)
        raise FunctionError(f"urnfn:{fn}: {shown} is not a URN")
    return info


def _is_valid(args: Sequence[Arg]) -> Result:
    text = args[0].text
    return _boolean(text is not None and _info(text).valid)


def _canonical(args: Sequence[Arg]) -> Result:
    info = _require_urn(args[0], "canonical")
    assert info.canonical is not None  # _require_urn guarantees it; narrows for mypy
    return Result("same", info.canonical)


def _equivalent(args: Sequence[Arg]) -> Result:
    a, b = args[0].text, args[1].text
    return _boolean(a is not None and b is not None and _equivalent_texts(a, b))


@functools.lru_cache(maxsize=_CACHE_SIZE)
def _equivalent_texts(a: str, b: str) -> bool:
    if _info(a).canonical is None or _info(b).canonical is None:
        return False
    try:
        return equivalent(a, b)
    except URNError:  # pragma: no cover - both parsed above; kept so bad input never crashes
        return False


def _nid(args: Sequence[Arg]) -> Result:
    return Result("string", str(_require_urn(args[0], "nid").nid))


def _nss(args: Sequence[Arg]) -> Result:
    return Result("string", str(_require_urn(args[0], "nss").nss))


def _findings(args: Sequence[Arg]) -> Result:
    text = args[0].text
    return Result("string", "syntax" if text is None else _info(text).codes)


def _resolve(args: Sequence[Arg]) -> Result:
    x = args[0]
    template = args[1] if len(args) > 1 else None
    if template is not None and (not template.literal or template.text is None):
        raise FunctionError("urnfn:resolve: the template is not a literal")
    try:
        if x.text is None:
            raise URNError("a blank node is not a URN")
        urn = URN(x.text)
        info = _info(x.text)
        if not info.valid:
            # A locator for a name its namespace refuses (a wrong check digit, an X- NID)
            # would send users to a record of some other name: no locator, and say why.
            raise URNError(f"{x.text!r} is not a valid URN ({info.codes}): no locator")
        return Result("iri", urn.resolve(None if template is None else template.text))
    except URNError as e:
        raise FunctionError(f"urnfn:resolve: {str(e).splitlines()[0]}") from None


#: Local name -> function: every ``urnfn:`` function, in the order the docs list them.
FUNCTIONS: Final[dict[str, Function]] = {
    f.name: f
    for f in (
        Function("isValid", 1, 1, _is_valid),
        Function("canonical", 1, 1, _canonical),
        Function("equivalent", 2, 2, _equivalent),
        Function("nid", 1, 1, _nid),
        Function("nss", 1, 1, _nss),
        Function("findings", 1, 1, _findings),
        Function("resolve", 1, 2, _resolve),
    )
}
