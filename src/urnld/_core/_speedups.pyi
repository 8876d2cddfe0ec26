from collections.abc import Callable
from typing import Any

def is_urn(text: str) -> bool | None: ...
def canonical(
    text: str, prefixes: dict[str, tuple[str, Any]], policy_ok: Any
) -> str | tuple[str, Any, str, str] | None: ...
def canonical_str(
    text: str, prefixes: dict[str, tuple[str, Any]], policy_ok: Any
) -> str | None: ...
def rewrite(
    chunk: bytes,
    tokens: dict[bytes, bytes],
    occ: dict[bytes, int],
    iri: Callable[[bytes], bytes],
    literal: Callable[[bytes], bytes],
    literals: bool,
    info: dict[bytes, Any] = ...,
    prefixes: dict[str, tuple[str, Any]] = ...,
    policy_ok: Any = ...,
    ignore_components: bool = ...,
    verdict_type: type | None = ...,
    skip_predicate: bytes | None = ...,
) -> tuple[bytes, int] | None: ...
def encode_counts(data: dict[Any, Any], per_record: int) -> list[bytes] | None: ...
def cluster_batch(
    keys: list[str], values: list[Any], state: list[Any], worst: str | None
) -> list[tuple[str, tuple[Any, str]]] | None: ...
def merge_columns(
    parts: list[tuple[list[str], list[int]]],
) -> tuple[list[str], list[int]] | None: ...
def canon_counts(
    occ: dict[bytes, int], info: dict[bytes, Any], limit: Any
) -> tuple[int, int, dict[tuple[str, str], int], dict[str, int], dict[tuple[str, str], int],
           list[tuple[str, str, int]]]: ...
def check_counts(
    occ: dict[bytes, int],
    info: dict[bytes, Any],
    cache: dict[str, Any] | None,
    checked: Callable[[str], tuple[tuple[str, ...], str | None, str | None, str | None]],
    maps: tuple[tuple[dict[Any, Any], Any], ...],
    fast: tuple[object, ...] | None = ...,
    cache_max: int = ...,
) -> tuple[int, int, int, int]: ...
def check_fields(
    text: str,
    prefixes: dict[str, tuple[str, Any]],
    spec: Callable[[str], tuple[tuple[tuple[str, int, int, str], ...], str, Any, Any]],
    options: Any,
    code_ranks: dict[str, int],
    severity_ranks: dict[Any, int],
) -> tuple[tuple[str, ...], str | None, str | None, str | None] | None: ...
def tds_schemes() -> dict[str, tuple[tuple[tuple[str, int, int], ...], Any]]: ...
