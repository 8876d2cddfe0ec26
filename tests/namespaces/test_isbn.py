"""ISBN: check digits agree with python-stdnum; ISBN-10/13 sameness is a separate relation."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from stdnum import isbn as stdnum_isbn

from urnld import URN, URNSyntaxError, check, equivalent
from urnld.namespaces.isbn import ISBNError, isbn10_check_digit, isbn13_check_digit, same_isbn

digits = st.text("0123456789", min_size=9, max_size=9)


@given(digits, st.sampled_from("0123456789X"))
def test_isbn10_check_digit_agrees_with_stdnum(body: str, check_char: str) -> None:
    number = body + check_char
    ours = not [f for f in check(f"urn:isbn:{number}") if f.code == "nss-check-digit"]
    assert ours == stdnum_isbn.is_valid(number)
    assert (isbn10_check_digit(body) == check_char) == ours


@given(st.sampled_from(["978", "979"]), digits, st.sampled_from("0123456789"))
def test_isbn13_check_digit_agrees_with_stdnum(prefix: str, body: str, check_char: str) -> None:
    number = prefix + body + check_char
    ours = not [f for f in check(f"urn:isbn:{number}") if f.code == "nss-check-digit"]
    assert ours == stdnum_isbn.is_valid(number)
    assert (isbn13_check_digit(prefix + body) == check_char) == ours


def test_isbn10_and_isbn13_are_not_urn_equivalent_but_same_isbn() -> None:
    a, b = "URN:ISBN:0-395-36341-1", "urn:isbn:978-0-395-36341-6"
    assert not equivalent(a, b)
    assert same_isbn(a, b)
    assert same_isbn(URN(a), URN(b))
    assert same_isbn("0-8044-2957-x", "urn:isbn:9780804429573")
    assert not same_isbn(a, "urn:isbn:080442957X")


@given(digits)
def test_same_isbn_matches_stdnum_conversion(body: str) -> None:
    isbn10 = body + isbn10_check_digit(body)
    isbn13 = stdnum_isbn.to_isbn13(isbn10)
    assert same_isbn(f"urn:isbn:{isbn10}", f"urn:isbn:{isbn13}")
    assert not equivalent(f"urn:isbn:{isbn10}", f"urn:isbn:{isbn13}")


@pytest.mark.parametrize(
    ("a", "b", "error"),
    [
        ("urn:isbn:0395363412", "urn:isbn:0395363411", ISBNError),  # check digit
        ("urn:isbn:abc", "urn:isbn:0395363411", ISBNError),  # not an ISBN
        ("urn:issn:1046-8188", "urn:isbn:0395363411", ISBNError),  # another NID
        ("urn:isbn:", "urn:isbn:0395363411", URNSyntaxError),  # not a URN
        (URN("urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6"), "0395363411", ISBNError),
        (9780395363416, "0395363411", TypeError),
    ],
)
def test_same_isbn_rejects_bad_input(a: object, b: object, error: type[Exception]) -> None:
    with pytest.raises(error):
        same_isbn(a, b)
    assert issubclass(ISBNError, ValueError)
