"""Errors of the Dask engine::

    URNError (ValueError)
    └── DaskJobError         the job failed: malformed input lines, a task error, a lost cluster
    URNLDEnvironmentError (RuntimeError)
    └── DaskNotInstalled     the optional ``dask[distributed]`` dependency is missing

>>> str(DaskNotInstalled())  # doctest: +ELLIPSIS
"the Dask engine needs the optional dependency dask[distributed]: pip install 'urnld[dask]'..."
"""

from __future__ import annotations

from typing import Any

from ..errors import URNError, URNLDEnvironmentError

__all__ = ["INSTALL_HINT", "DaskJobError", "DaskNotInstalled", "positive_int"]

INSTALL_HINT = "pip install 'urnld[dask]'"


class DaskNotInstalled(URNLDEnvironmentError):
    """``dask.distributed`` cannot be imported; the message says how to install it."""

    def __init__(self, detail: str = "") -> None:
        self.detail = detail
        message = f"the Dask engine needs the optional dependency dask[distributed]: {INSTALL_HINT}"
        if detail:
            message += f" ({detail})"
        super().__init__(message)

    def __reduce__(self) -> tuple[type[DaskNotInstalled], tuple[str]]:
        return (type(self), (self.detail,))


def positive_int(value: object, what: str) -> int:
    """Return ``value`` if it is an ``int`` >= 1, else raise :class:`URNError` naming ``what``.

    >>> positive_int(2, "workers")
    2
    """
    # bool is an int, but workers=True is certainly a mistake.
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise URNError(f"{what} must be a positive integer, got {value!r}")
    return value


class DaskJobError(URNError):
    """The distributed job failed; no output was written.

    ``report`` is the merged report of every partition that finished (``None`` when the failure
    was not about the input, e.g. the scheduler could not be reached). For malformed input lines
    the message names the first one as ``FILE:LINE`` and says how many there were in total.
    """

    report: Any

    def __init__(self, message: str, report: Any = None) -> None:
        super().__init__(message)
        self.report = report

    def __reduce__(self) -> tuple[type[DaskJobError], tuple[str, Any]]:
        return (type(self), (str(self), self.report))
