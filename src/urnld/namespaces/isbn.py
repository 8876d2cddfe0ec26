"""``urn:isbn``: RFC 3187 §5, revised by the International ISBN Agency template v2 (2017).

Grammar: an ISBN-10 (nine digits and a check character ``0-9``/``X``, mod 11) or an ISBN-13
(``978``/``979`` and ten digits, EAN-13 check digit, as ISO 2108:2017 defines it), with single
hyphens between digits. Spaces and percent-encoding never occur (RFC 3187 §5).

Equivalence (RFC 3187 §5, "Rules for Lexical Equivalence"): remove all hyphens and upper-case
``x``. The canonical NSS is therefore the compact number with an upper-case ``X``. An NSS that
is not ISBN-shaped is in its own generic (RFC 8141) class: removing hyphens from arbitrary text
could even empty it.

ISBN-10 and ISBN-13 of one book are **not** URN-equivalent: RFC 3187 predates ISBN-13 and defines
no such rule (the 2017 template's equivalence text was not available). The relation is offered
separately, under its own name, as :func:`same_isbn`.

Check digits are computed here with the standard library (``urnld.check`` on an ISBN must not
import third-party code); the test suite cross-checks them against ``stdnum.isbn``.

>>> from urnld import canonical, check, equivalent
>>> canonical("URN:ISBN:0-8044-2957-x")
'urn:isbn:080442957X'
>>> equivalent("urn:isbn:0-395-36341-1", "urn:isbn:978-0-395-36341-6")
False
>>> same_isbn("urn:isbn:0-395-36341-1", "urn:isbn:978-0-395-36341-6")
True
>>> check("urn:isbn:0-395-36341-2")[0].message
"ISBN check digit '2' is wrong"
"""

from __future__ import annotations

import operator
import re
from collections.abc import Iterator

from .._core import CheckOptions, NamespaceRule, is_urn_like, native_copy
from ..errors import URNError
from ..findings import Finding
from .views import ISBN

__all__ = ["RULE", "ISBNError", "ISBNRule", "isbn_a", "same_isbn"]

# Hyphens may sit between any two digits (RFC 3187 §5 removes them all before comparing), also
# inside the 978/979 prefix: otherwise "97-8…" would fall out of its equivalence class.
_ISBN = re.compile(r"[0-9](?:-?[0-9]){8}-?[0-9Xx]|9-?7-?[89](?:-?[0-9]){9}-?[0-9]")
_ALLOWED = "0123456789-Xx"
_WEIGHTS10 = (10, 9, 8, 7, 6, 5, 4, 3, 2)
#: The wording of a wrong check digit: a str.format template, which the compiled
#: accelerator formats too (scripts/gen_speedups.py copies it into the C).
MSG_CHECK_DIGIT = "ISBN check digit {!r} is wrong"


class ISBNError(URNError):
    """A value given to :func:`same_isbn` is not a valid ISBN (or ``urn:isbn`` URN)."""


def isbn10_check_digit(first9: str) -> str:
    """The ISBN-10 check character for nine digits: Σ(10−i)·dᵢ ≡ 0 (mod 11), 10 is ``X``.

    >>> isbn10_check_digit("039536341")
    '1'
    """
    if first9.isascii() and first9.isdigit() and len(first9) == 9:
        # Digit bytes are the digit plus 48 (weights 10 … 2 sum to 54): the loop stays in C.
        total = sum(map(operator.mul, _WEIGHTS10, first9.encode())) - 48 * 54
    else:
        total = sum((10 - i) * int(c) for i, c in enumerate(first9))
    check = (11 - total % 11) % 11
    return "X" if check == 10 else str(check)


def isbn13_check_digit(first12: str) -> str:
    """The EAN-13 check digit for twelve digits (weights 1, 3, 1, 3, …; sum ≡ 0 mod 10).

    >>> isbn13_check_digit("978039536341")
    '6'
    """
    if first12.isascii() and first12.isdigit() and len(first12) == 12:
        # Digit bytes are the digit plus 48 (weights 1 and 3, six digits each): sums in C.
        b = first12.encode()
        total = sum(b[0::2]) + 3 * sum(b[1::2]) - 48 * 24
    else:
        digits = list(map(int, first12))
        total = sum(digits[0::2]) + 3 * sum(digits[1::2])
    return str((10 - total % 10) % 10)


class ISBNRule(NamespaceRule):
    """RFC 3187 ISBN URNs (ISBN-10 and ISBN-13)."""

    nid = "isbn"
    title = "International Standard Book Number"
    reference = "RFC 3187 §5; ISO 2108:2017 (template v2)"

    @native_copy("isbn")  # the compiled accelerator's copy: _speedups/rules.h canonical_isbn
    def canonical_nss(self, nss: str) -> str:
        if _ISBN.fullmatch(nss):
            return nss.replace("-", "").upper()
        return nss

    def typed_nss(self, nss: str) -> ISBN:
        return ISBN.parse(nss)

    def functional_equivalents(self, nss: str) -> tuple[str, ...]:
        """ISBN-10 ↔ ISBN-13 of one book, and its ISBN-A DOI (see :func:`isbn_a`)."""
        view = ISBN.parse(nss)
        out = [f"urn:isbn:{form}" for form in (view.isbn10, view.isbn13) if form and form != nss]
        doi = isbn_a(view)
        if doi is not None:
            out.append(f"urn:doi:{doi}")
        return tuple(out)

    @native_copy("isbn")  # with the default options: _speedups/rules_check.h check_isbn
    def check_nss(self, nss: str, options: CheckOptions) -> Iterator[Finding]:
        if _ISBN.fullmatch(nss):
            yield from self._check_digit(nss)
            return
        yield self._why_not_isbn(nss)

    def _why_not_isbn(self, nss: str) -> Finding:
        bad = next((i for i, c in enumerate(nss) if c not in _ALLOWED), None)
        if bad is not None:
            what = "percent-encoding" if nss[bad] == "%" else f"character {nss[bad]!r}"
            return self.finding(
                "nss-invalid",
                f"{what} at NSS position {bad} is not allowed in an ISBN "
                "(digits, 'X' and single hyphens only; RFC 3187 §5)",
                bad,
                bad + (3 if nss[bad] == "%" else 1),
            )
        for i, c in enumerate(nss):
            if c == "-" and (i == 0 or i == len(nss) - 1 or nss[i + 1] == "-"):
                return self.finding(
                    "nss-invalid",
                    f"hyphen at NSS position {i}: hyphens only separate digits, singly",
                    i,
                    i + 1,
                )
        digits = [(i, c) for i, c in enumerate(nss) if c != "-"]
        for k, (i, c) in enumerate(digits):
            if c in "Xx" and k != len(digits) - 1:
                return self.finding(
                    "nss-invalid",
                    f"{c!r} at NSS position {i}: 'X' is only the ISBN-10 check character",
                    i,
                    i + 1,
                )
        if len(digits) not in (10, 13):
            return self.finding(
                "nss-invalid",
                f"an ISBN has 10 or 13 digits, this one has {len(digits)}",
                0,
                len(nss),
            )
        if len(digits) == 13 and digits[-1][1] in "Xx":
            i = digits[-1][0]
            return self.finding(
                "nss-invalid", "an ISBN-13 ends in a digit, not 'X'", i, i + 1
            )
        # 13 digits, none an X: the prefix must be wrong.
        return self.finding(
            "nss-invalid",
            f"an ISBN-13 starts with 978 or 979 (ISO 2108), not "
            f"{''.join(c for _, c in digits[:3])!r}",
            digits[0][0],
            digits[2][0] + 1,
        )

    def _check_digit(self, nss: str) -> Iterator[Finding]:
        compact = nss.replace("-", "").upper()
        if len(compact) == 10:
            expected = isbn10_check_digit(compact[:9])
        else:
            expected = isbn13_check_digit(compact[:12])
        if compact[-1] != expected:
            # Wording fixed by the doctest of urnld.validate (core); keep it.
            yield self.finding(
                "nss-check-digit",
                MSG_CHECK_DIGIT.format(nss[-1]),
                len(nss) - 1,
                len(nss),
            )


def isbn_a(view: ISBN) -> str | None:
    """The ISBN-A DOI of an ISBN: ``10.`` + EAN prefix + ``.`` + group and registrant ``/``
    publication and check digit (International ISBN Agency / IDF, "ISBN-A"); None when the
    range table does not split the ISBN.

    >>> isbn_a(ISBN.parse("9788898392315"))
    '10.978.8898392/315'
    """
    thirteen = ISBN.parse(view.isbn13)
    if not (thirteen.group and thirteen.registrant and thirteen.publication):
        return None
    return (f"10.{thirteen.prefix}.{thirteen.group}{thirteen.registrant}/"
            f"{thirteen.publication}{thirteen.check_digit}")


RULE = ISBNRule()


def _isbn_of(value: object) -> str:
    from .._core import URN

    if isinstance(value, URN):
        if value.nid.lower() != "isbn":
            raise ISBNError(f"{str(value)!r} is not a urn:isbn URN")
        number = value.nss
    elif isinstance(value, str):
        number = value
        if is_urn_like(value):
            urn = URN(value)
            if urn.nid.lower() != "isbn":
                raise ISBNError(f"{value!r} is not a urn:isbn URN")
            number = urn.nss
    else:
        raise TypeError(f"same_isbn() takes str or URN, not {type(value).__name__}")
    if not _ISBN.fullmatch(number):
        raise ISBNError(f"{number!r} is not an ISBN-10 or ISBN-13 (RFC 3187 §5)")
    from stdnum import isbn
    from stdnum.exceptions import ValidationError

    try:
        return str(isbn.to_isbn13(isbn.validate(number)))
    except ValidationError as e:
        raise ISBNError(f"{number!r} is not a valid ISBN: {e}") from e


def same_isbn(a: object, b: object) -> bool:
    """True when *a* and *b* name one book: the same ISBN, as ISBN-10 or ISBN-13.

    This is **not** URN-equivalence (:func:`urnld.equivalent` keeps ISBN-10 and ISBN-13 apart,
    as RFC 3187 does); it compares ``stdnum.isbn.to_isbn13`` of both. Each argument is a
    ``urn:isbn`` URN (string or :class:`~urnld.URN`) or a bare ISBN.

    Raises :class:`ISBNError` when either is not a valid ISBN (bad format or check digit),
    :class:`~urnld.URNSyntaxError` for a malformed URN string.

    >>> same_isbn("URN:ISBN:0-8044-2957-x", "9780804429573")
    True
    >>> same_isbn("urn:isbn:0395363411", "urn:isbn:080442957X")
    False
    >>> same_isbn("urn:isbn:0395363412", "urn:isbn:0395363411")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    urnld.namespaces.isbn.ISBNError: '0395363412' is not a valid ISBN: ...
    """
    return _isbn_of(a) == _isbn_of(b)
