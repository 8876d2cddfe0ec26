"""``json.dumps(obj, default=urnld.json_default)``: URNs and urnld's values in JSON.

>>> import json
>>> from urnld import URN
>>> json.dumps({"id": URN("URN:ISBN:0-395-36341-1")}, default=json_default)
'{"id": "URN:ISBN:0-395-36341-1"}'
>>> json.dumps(URN("urn:oid:1.3.6").typed_nss, default=json_default)
'{"arcs": [1, 3, 6]}'
"""

from __future__ import annotations

import dataclasses
import sys

from ..findings import Finding
from ._params import Params
from ._urn import URN

__all__ = ["json_default"]


def json_default(obj: object) -> object:
    """The ``default`` hook for :func:`json.dumps`: what urnld's values become in JSON.

    A :class:`~urnld.URN` is its string as written (call ``canonical()`` first for the canonical
    form); a :class:`~urnld.Finding` its ``to_dict()``; ``q_params`` a list of ``[key, value]``
    pairs; a typed NSS view an object of its fields (a UUID its string). Anything else raises
    ``TypeError``, as :func:`json.dumps` expects.

    >>> json_default(URN("urn:example:a?=x=1").q_params)
    [['x', '1']]
    >>> json_default(object())  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    TypeError: Object of type object is not JSON serializable
    """
    if isinstance(obj, URN):
        return str(obj)
    if isinstance(obj, Finding):
        return obj.to_dict()
    # A UUID can only exist once its module is loaded; importing it here would cost every
    # `import urnld` the time of `platform`.
    uuid = sys.modules.get("uuid")
    if uuid is not None and isinstance(obj, uuid.UUID):
        return str(obj)
    if isinstance(obj, Params):
        return [list(pair) for pair in obj]
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: getattr(obj, f.name) for f in dataclasses.fields(obj)}
    raise TypeError(f"Object of type {type(obj).__name__} is not JSON serializable")
