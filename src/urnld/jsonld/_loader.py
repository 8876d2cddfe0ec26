"""``URNDocumentLoader``: serve JSON-LD contexts and documents named by URNs from a local catalog.

A catalog is a mapping (URN → parsed JSON, or URN → ``pathlib.Path``) or a directory holding a
``catalog.json`` that maps URNs to files inside that directory::

    {"urn:example:vc:context:v1": "vc-v1.jsonld"}

Lookup is by URN-equivalence (RFC 8141 §3 plus namespace rules, components ignored), so
``URN:EXAMPLE:VC:context:v1`` finds the entry above. Keys that are not URNs (``https://…``) match
exactly, which pins well-known contexts offline. Nothing else is loaded unless a ``fallback``
loader is given explicitly.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

from pyld.documentloader.base import DocumentLoader as _PyldDocumentLoader

from .. import URN
from ..errors import URNSyntaxError
from ._canon import is_urn_like
from ._errors import CatalogError

__all__ = ["CATALOG_FILE", "DEFAULT_MAX_BYTES", "DocumentLoader", "URNDocumentLoader"]

#: The file a catalog directory must hold.
CATALOG_FILE = "catalog.json"
#: Largest document (and catalog file) read, in bytes: contexts are small; a 100 MB "context"
#: is an attack or a mistake, and json.loads would hold it all in memory several times over.
DEFAULT_MAX_BYTES = 8 * 1024 * 1024

#: A pyld document loader: ``loader(url, options) -> RemoteDocument`` (a dict).
DocumentLoader = Callable[[str, dict[str, Any]], Any]


def _copy_json(value: Any) -> Any:
    # pyld mutates context documents it is handed (e.g. when processing @import), so every load
    # returns a fresh copy; this is several times faster than copy.deepcopy for JSON data.
    if type(value) is dict:
        return {k: _copy_json(v) for k, v in value.items()}
    if type(value) is list:
        return [_copy_json(v) for v in value]
    return value


def _catalog_key(text: str) -> str:
    """The lookup key: the canonical assigned-name for URNs, the text itself otherwise."""
    if is_urn_like(text):
        return URN(text).assigned_key
    return text


def _read_bounded(path: Path, limit: int, what: str) -> bytes:
    # O_NONBLOCK: opening a FIFO for reading would wait for a writer for ever; the fstat on the
    # open descriptor then refuses anything that is not a regular file (FIFO, device, socket),
    # with no window for the file to be swapped between the check and the read.
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as e:
        raise CatalogError(f"cannot read {what} {str(path)!r}: {e.strerror or e}") from e
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise CatalogError(f"{what} {str(path)!r} is not a regular file; refused")
        if info.st_size > limit:
            raise CatalogError(
                f"{what} {str(path)!r} is {info.st_size} bytes, over the {limit}-byte limit"
            )
        with os.fdopen(fd, "rb") as f:
            fd = -1
            data = f.read(limit + 1)
    except OSError as e:
        raise CatalogError(f"cannot read {what} {str(path)!r}: {e.strerror or e}") from e
    finally:
        if fd >= 0:
            os.close(fd)
    if len(data) > limit:  # the file grew after fstat()
        raise CatalogError(f"{what} {str(path)!r} is over the {limit}-byte limit")
    return data


def _parse_json(data: bytes, where: str) -> Any:
    try:
        return json.loads(data.decode("utf-8"))
    except UnicodeDecodeError as e:
        raise CatalogError(f"{where} is not UTF-8 (byte {e.start})") from e
    except json.JSONDecodeError as e:
        raise CatalogError(
            f"{where} is not JSON: {e.msg} (line {e.lineno}, column {e.colno})"
        ) from e
    except RecursionError:
        raise CatalogError(f"{where} is JSON nested too deeply to read") from None


class URNDocumentLoader(_PyldDocumentLoader):  # type: ignore[misc]
    """A pyld document loader backed by a local URN catalog; offline unless given a fallback.

    Args:
        catalog: a mapping from URN (any spelling) to a parsed JSON document or a
            ``pathlib.Path``; or a directory (or the path of its ``catalog.json``) whose
            ``catalog.json`` maps URNs to files inside the directory.
        fallback: a pyld document loader for everything not in the catalog (for example
            ``pyld.jsonld.requests_document_loader()``). Default: refuse with
            :class:`CatalogError`.
        max_bytes: size limit for each document and for the catalog file.

    Documents are returned with ``'tag': 'static'``, which tells pyld it may cache the processed
    context across calls. pyld's cache is global and keyed by the URL *as written*; urnld's own
    ``expand``/``compact``/… use a private per-call cache instead (see docs/jsonld.md).

    >>> loader = URNDocumentLoader({"urn:example:ctx": {"@context": {"name": "urn:example:name"}}})
    >>> doc = loader("URN:EXAMPLE:ctx", {})
    >>> doc["documentUrl"], doc["document"], doc["tag"]
    ('urn:example:ctx', {'@context': {'name': 'urn:example:name'}}, 'static')
    >>> "urn:Example:ctx" in loader, "urn:example:CTX" in loader
    (True, False)
    """

    def __init__(
        self,
        catalog: Mapping[str, Any] | str | os.PathLike[str],
        *,
        fallback: DocumentLoader | None = None,
        max_bytes: int = DEFAULT_MAX_BYTES,
    ) -> None:
        self.fallback = fallback
        self.max_bytes = max_bytes
        self.root: Path | None = None
        # key -> (spelling as written in the catalog, source); source is parsed JSON or a Path.
        self._entries: dict[str, tuple[str, Any]] = {}
        self._parsed: dict[str, Any] = {}
        if isinstance(catalog, Mapping):
            self.source = f"(a mapping of {len(catalog)} entries)" if catalog else "(none given)"
            self._add_mapping(catalog)
        else:
            self._add_directory(Path(catalog))

    # -- construction ---------------------------------------------------------------------

    def _add(self, name: object, value: Any, where: str) -> None:
        if not isinstance(name, str) or not name:
            raise CatalogError(f"{where}: catalog keys must be non-empty strings, not {name!r}")
        try:
            key = _catalog_key(name)
        except URNSyntaxError as e:
            raise CatalogError(f"{where}: {name!r} is not a valid URN: {e.reason}") from e
        previous = self._entries.get(key)
        if previous is not None and previous[1] != value:
            raise CatalogError(
                f"{where}: {previous[0]!r} and {name!r} are URN-equivalent but name different "
                "documents"
            )
        self._entries[key] = (name, value)

    def _add_mapping(self, catalog: Mapping[str, Any]) -> None:
        for name, value in catalog.items():
            if not isinstance(value, (dict, list, Path)):
                raise CatalogError(
                    f"catalog entry {name!r}: the value must be parsed JSON (dict or list) or a "
                    f"pathlib.Path, not {type(value).__name__}"
                )
            self._add(name, value, "catalog")

    def _add_directory(self, path: Path) -> None:
        if path.is_dir():
            root, catalog_file = path, path / CATALOG_FILE
        else:
            root, catalog_file = path.parent, path
        if not catalog_file.exists():
            raise CatalogError(f"no catalog: {str(catalog_file)!r} does not exist")
        self.root = root.resolve()
        if not catalog_file.resolve().is_relative_to(self.root):
            # Checked before reading: its content must not reach an error message.
            raise CatalogError(
                f"catalog {str(catalog_file)!r} is a link to a file outside its directory "
                f"{str(self.root)!r}; refused"
            )
        self.source = str(catalog_file)
        where = str(catalog_file)
        data = _parse_json(_read_bounded(catalog_file, self.max_bytes, "catalog"), where)
        if not isinstance(data, dict):
            raise CatalogError(f"{where}: the catalog must be a JSON object mapping URNs to files")
        for name, target in data.items():
            if not isinstance(target, str) or not target:
                raise CatalogError(f"{where}: entry {name!r} must name a file, not {target!r}")
            self._add(name, self._confined(target, name, where), where)

    def _confined(self, target: str, name: str, where: str) -> Path:
        assert self.root is not None
        # resolve() follows symlinks and "..", so the check sees where the file really is.
        resolved = (self.root / target).resolve()
        if Path(target).is_absolute() or not resolved.is_relative_to(self.root):
            raise CatalogError(
                f"{where}: entry {name!r} refers to {target!r}, outside the catalog directory "
                f"{str(self.root)!r}; refused"
            )
        return resolved

    # -- lookup ---------------------------------------------------------------------------

    def __contains__(self, url: object) -> bool:
        if not isinstance(url, str):
            return False
        try:
            return _catalog_key(url) in self._entries
        except URNSyntaxError:
            return False

    def __iter__(self) -> Iterator[str]:
        """The catalog's names as written in the catalog."""
        return (name for name, _ in self._entries.values())

    def __len__(self) -> int:
        return len(self._entries)

    def __repr__(self) -> str:
        return f"<URNDocumentLoader {self.source} ({len(self)} entries)>"

    def document(self, url: str) -> Any:
        """The parsed document for *url* (a fresh copy), or :class:`CatalogError`."""
        try:
            key = _catalog_key(url)
        except URNSyntaxError as e:
            raise CatalogError(f"{url!r} is not a valid URN: {e.reason}") from e
        if key not in self._entries:
            raise CatalogError(
                f"{url!r} is not in the catalog {self.source}, and nothing is fetched from the "
                "network without a fallback loader"
            )
        return _copy_json(self._load(key))

    def _load(self, key: str) -> Any:
        parsed = self._parsed.get(key)
        if parsed is None:
            name, source = self._entries[key]
            if isinstance(source, Path):
                data = _read_bounded(source, self.max_bytes, f"document for {name!r}")
                parsed = _parse_json(data, f"document for {name!r} ({str(source)!r})")
            else:
                parsed = source
            self._parsed[key] = parsed
        return parsed

    def __call__(self, url: str, options: dict[str, Any] | None = None) -> dict[str, Any]:
        """The pyld ``RemoteDocument`` for *url*; see the class docstring."""
        if url not in self and self.fallback is not None:
            return self.fallback(url, options if options is not None else {})  # type: ignore[no-any-return]
        document = self.document(url)
        document_url = URN(url).canonical_str if is_urn_like(url) else url
        return {
            "contentType": "application/ld+json",
            "contextUrl": None,
            "documentUrl": document_url,
            "document": document,
            "tag": "static",
        }
