"""ISSN check characters: the Python reference, the compiled copy and python-stdnum agree.

urnld computes the check character in the standard library (``issn_check_character``), the
compiled accelerator the same way in C (``check_issn``); python-stdnum's ``issn`` module is the
independent reference both are compared with. ISO 3297 §5 / RFC 3044 §5: weights 8…2 over
seven digits, check = (11 − Σ mod 11) mod 11, 10 written ``X``.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from stdnum import issn as stdnum_issn

from urnld import check
from urnld._core import _accel
from urnld._core._check import fast_check_fields
from urnld.namespaces.issn import issn_check_character

_SEVEN = st.text("0123456789", min_size=7, max_size=7)


# RFC 3044 §5's example and ISSNs printed on real serials (ISSN portal records).
@pytest.mark.parametrize(("issn", "check_char"), [
    ("0259-000X", "X"),  # RFC 3044 §5 (urn:ISSN:0259-000X)
    ("1046-8188", "8"),  # ACM Transactions on Information Systems
    ("0317-8471", "1"),  # ISSN International Centre's manual example
    ("2049-3630", "0"),
])
def test_known_issns(issn: str, check_char: str) -> None:
    digits = issn.replace("-", "")
    assert issn_check_character(digits[:7]) == check_char
    assert stdnum_issn.calc_check_digit(digits[:7]) == check_char


def test_every_check_character_value_is_reached() -> None:
    # All eleven values, X included, against stdnum: a stride through the seven-digit space.
    seen = set()
    for n in range(0, 10_000_000, 9_973):
        digits = f"{n:07d}"
        got = issn_check_character(digits)
        assert got == stdnum_issn.calc_check_digit(digits), digits
        seen.add(got)
    assert seen == set("0123456789X")


@given(_SEVEN)
def test_python_matches_stdnum(digits: str) -> None:
    assert issn_check_character(digits) == stdnum_issn.calc_check_digit(digits)


@given(_SEVEN, st.sampled_from("0123456789Xx"), st.booleans(), st.booleans())
def test_compiled_check_matches_stdnum(digits: str, last: str, hyphen: bool, upper: bool) -> None:
    nss = f"{digits[:4]}-{digits[4:]}{last}" if hyphen else f"{digits}{last}"
    text = f"{'URN' if upper else 'urn'}:issn:{nss}"
    valid = stdnum_issn.is_valid(nss)
    findings = check(text)
    assert ("nss-check-digit" in [f.code for f in findings]) == (not valid)
    if _accel.speedups is None:  # pure-Python run: the reference alone
        return
    fast = fast_check_fields(text)
    assert fast is not None  # an ASCII urn:issn without components: the copy's common case
    codes, error, _canonical, nid = fast
    assert nid == "issn"
    assert ("nss-check-digit" in codes) == (not valid)
    if not valid:
        expected = stdnum_issn.calc_check_digit(digits)
        assert error == (
            f"nss-check-digit: ISSN check character is {last!r}, expected {expected!r} "
            "(mod 11, weights 8…2; RFC 3044 §5)"
        )
