"""Check and canonicalize a running triplestore in place, over the SPARQL 1.1 Protocol.

The client (:class:`Endpoint`: timeouts, authentication, streamed results) and the in-place
runs (:func:`check_endpoint`, :func:`canonicalize_endpoint`) need no rdflib: rows come back as
SPARQL JSON/CSV results and statements go out as SPARQL Update text. The same names are
importable from :mod:`urnld.rdf`, as before.

>>> from urnld.endpoint import EndpointError
>>> from urnld.errors import URNLDEnvironmentError
>>> issubclass(EndpointError, URNLDEnvironmentError)  # the store, not the data, failed
True
"""

from __future__ import annotations

from ._client import DEFAULT_TIMEOUT, Endpoint, EndpointError, ResultCapError
from ._endpoint import BatchProgress, EndpointBatchError, canonicalize_endpoint, check_endpoint
from ._profile import OXIGRAPH, STANDARD, VIRTUOSO, StoreProfile, profile_for
from ._undo import UndoProgress, apply_undo

__all__ = [
    "DEFAULT_TIMEOUT",
    "OXIGRAPH",
    "STANDARD",
    "VIRTUOSO",
    "BatchProgress",
    "Endpoint",
    "EndpointBatchError",
    "EndpointError",
    "ResultCapError",
    "StoreProfile",
    "UndoProgress",
    "apply_undo",
    "canonicalize_endpoint",
    "check_endpoint",
    "profile_for",
]


def __dir__() -> list[str]:
    return __all__
