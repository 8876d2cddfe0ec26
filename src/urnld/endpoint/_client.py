"""The SPARQL 1.1 Protocol over HTTP (httpx): queries with streamed CSV results, updates.

Only what urnld needs from an endpoint, with every failure turned into one
:class:`EndpointError` line that names the URL: a wrong URL, a refused connection, HTTP 4xx/5xx,
a timeout, an HTML page where SPARQL results were expected.

Results are asked for as SPARQL 1.1 CSV (``text/csv``, a W3C Recommendation every SPARQL 1.1
store serves) and parsed while they arrive, so a result of any size is read in bounded memory.
CSV drops term types, so callers project what they need (``DATATYPE(?x)``, ``isBlank(?x)``) as
extra columns.

Credentials never come from the command line: ``URNLD_ENDPOINT_TOKEN`` (HTTP bearer), or
``URNLD_ENDPOINT_USER`` + ``URNLD_ENDPOINT_PASSWORD`` (HTTP basic), or else the ``netrc`` entry
of the endpoint's host (``$NETRC`` or ``~/.netrc``). ``URNLD_ENDPOINT_AUTH=digest`` answers the
server's challenge with HTTP Digest (RFC 7616) instead of sending Basic credentials, for the user
and password from either source (Virtuoso's ``/sparql-auth`` asks for Digest).

The store's product is read once from the ``Server`` header of its first answer
(:attr:`Endpoint.vendor`), and with it the store's :class:`~._profile.StoreProfile`
(:attr:`Endpoint.profile`): a few stores need their own spelling of standard operations.

>>> Endpoint("ftp://example.org/sparql")
Traceback (most recent call last):
...
urnld.endpoint._client.EndpointError: ftp://example.org/sparql: not an http(s) URL
"""

from __future__ import annotations

import codecs
import contextlib
import csv
import netrc
import operator
import os
from collections.abc import Callable, Generator, Iterator
from types import TracebackType
from typing import Any
from urllib.parse import urlsplit

import httpx

from ..errors import URNLDEnvironmentError
from ._profile import StoreProfile, profile_for

__all__ = ["Endpoint", "EndpointError", "ResultCapError"]

#: Seconds to wait for each answer from the server (an aggregate over a large store may take
#: minutes before its first byte); connecting waits at most :data:`CONNECT_TIMEOUT`.
DEFAULT_TIMEOUT = 600.0
CONNECT_TIMEOUT = 30.0

_CSV = "text/csv"


class EndpointError(URNLDEnvironmentError):
    """The SPARQL endpoint could not be used: unreachable, refused, failed, or not SPARQL.

    A failure of the environment, not of the input: the ``urnld`` command prints its message as
    one line and exits 2.
    """


class ResultCapError(EndpointError):
    """The store cut a result at its row cap (``cap`` rows) and said so.

    Virtuoso answers at most ``[SPARQL] ResultSetMaxRows`` rows, with HTTP 200 and a
    ``X-SPARQL-MaxRows`` header, as if the result were complete. Raised before any row of the
    cut result is read, so a caller may ask again in pages of at most ``cap`` rows.
    """

    def __init__(self, message: str, cap: int) -> None:
        super().__init__(message)
        self.cap = cap

    def __reduce__(self) -> tuple[Any, ...]:
        # two constructor arguments: pickle (worker processes) rebuilds it with both
        return (ResultCapError, (str(self), self.cap))


# The header Virtuoso sets on a result it cut at ResultSetMaxRows.
_CAP_HEADER = "x-sparql-maxrows"


def _credentials(user: str, password: str) -> httpx.Auth:
    scheme = os.environ.get("URNLD_ENDPOINT_AUTH", "").strip().lower()
    if scheme == "digest":
        return httpx.DigestAuth(user, password)
    if scheme not in ("", "basic"):
        raise EndpointError(f"URNLD_ENDPOINT_AUTH must be basic or digest, got {scheme!r}")
    return httpx.BasicAuth(user, password)


def _auth(url: str) -> httpx.Auth | None:
    token = os.environ.get("URNLD_ENDPOINT_TOKEN")
    if token:
        return _Bearer(token)
    user = os.environ.get("URNLD_ENDPOINT_USER")
    if user is not None:
        return _credentials(user, os.environ.get("URNLD_ENDPOINT_PASSWORD", ""))
    path = os.environ.get("NETRC") or os.path.join(os.path.expanduser("~"), ".netrc")
    host = urlsplit(url).hostname or ""
    if os.path.isfile(path):
        try:
            entry = netrc.netrc(path).authenticators(host)
        except (netrc.NetrcParseError, OSError) as e:
            raise EndpointError(f"cannot read {path}: {e}") from e
        if entry is not None:
            login, _account, password = entry
            return _credentials(login or "", password or "")
    return None


class _Bearer(httpx.Auth):
    def __init__(self, token: str) -> None:
        self._header = f"Bearer {token}"

    def auth_flow(self, request: httpx.Request) -> Generator[httpx.Request, httpx.Response, None]:
        request.headers["Authorization"] = self._header
        yield request


class Endpoint:
    """A SPARQL 1.1 query endpoint, and the update endpoint (default: the same URL).

    *profile*: the store's quirks (default: chosen from the ``Server`` header, see
    :attr:`profile`). Use as a context manager (or call :meth:`close`): it holds one pooled
    HTTP connection.
    """

    def __init__(
        self,
        url: str,
        *,
        update_url: str | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        profile: StoreProfile | None = None,
    ) -> None:
        for u in (url, update_url):
            if u is not None and urlsplit(u).scheme not in ("http", "https"):
                raise EndpointError(f"{u}: not an http(s) URL")
        if not timeout > 0:
            raise EndpointError(f"timeout must be a positive number of seconds, got {timeout}")
        self.url = url
        self.update_url = update_url or url
        self.timeout = timeout
        # trust_env=False: proxies from the environment would take loopback traffic elsewhere;
        # credentials are read by _auth, per endpoint.
        self._client = httpx.Client(
            timeout=httpx.Timeout(timeout, connect=min(timeout, CONNECT_TIMEOUT)),
            trust_env=False,
            follow_redirects=True,
        )
        self._auth = {u: _auth(u) for u in {self.url, self.update_url}}
        self._vendor: str | None = None
        self._profile = profile

    @property
    def profile(self) -> StoreProfile:
        """What this store does where the standards leave room (:class:`StoreProfile`): the
        one given, else the profile of :attr:`vendor`, chosen once."""
        if self._profile is None:
            self._profile = profile_for(self.vendor)
        return self._profile

    @property
    def vendor(self) -> str:
        """The store's product in lower case (``virtuoso``, ``oxigraph``…), ``""`` if unknown.

        Read from the ``Server`` header of the first answer; asks ``ASK {}`` when nothing was
        sent yet.
        """
        if self._vendor is None:
            # Any answer names the server; a failure shows again in the caller's own request.
            with contextlib.suppress(EndpointError):
                self.ask("ASK {}")
        return self._vendor or ""

    def _note_server(self, response: httpx.Response) -> None:
        if self._vendor is None:
            server = response.headers.get("server", "")
            self._vendor = server.split("/", 1)[0].strip().lower()

    def __enter__(self) -> Endpoint:
        return self

    def __exit__(
        self, t: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def close(self) -> None:
        self._client.close()

    # -- queries -------------------------------------------------------------------------------
    def select(self, query: str) -> Iterator[dict[str, str]]:
        """Run a SELECT; yield each solution as ``{variable: CSV value}`` while it arrives.

        Unbound variables are ``""``. The generator must be run to its end (or closed) to free
        the connection.
        """
        header: list[str] = []
        for row in self._rows(query, header):
            yield dict(zip(header, row, strict=True))

    def select_columns(self, query: str, columns: tuple[str, ...], *,
                       limit: int | None = None) -> Iterator[tuple[str, ...]]:
        """Run a SELECT; yield the values of ``columns`` (``""`` where unbound) per solution.

        :meth:`select` without a dict per row, for results of millions of rows. A column the
        results lack is an :class:`EndpointError` naming the columns they have.
        """
        header: list[str] = []
        rows = self._rows(query, header, limit=limit)
        try:  # closing rows frees the connection when the caller stops early
            first = next(rows, None)
            if first is None:
                return
            try:
                at = [header.index(c) for c in columns]
            except ValueError as e:
                raise EndpointError(
                    f"{self.url}: unexpected results (columns {', '.join(header)})"
                ) from e
            pick: Callable[[list[str]], tuple[str, ...]] = (
                operator.itemgetter(*at) if len(at) > 1 else lambda row: (row[at[0]],)
            )
            yield pick(first)
            for row in rows:
                yield pick(row)
        finally:
            rows.close()

    def _rows(self, query: str, header: list[str], *,
              limit: int | None = None) -> Generator[list[str], None, None]:
        """The CSV rows of a SELECT, checked against the header (filled into ``header``).

        ``limit`` is the query's own LIMIT: a row cap at or above it cut nothing (Virtuoso sets
        its header whenever the rows reach the cap)."""
        with self._send(self.url, "query", query, accept=_CSV) as response:
            self._expect(response, (_CSV,), "SPARQL CSV results")
            cap = response.headers.get(_CAP_HEADER)
            try:
                rows = int(cap) if cap is not None else 0
            except ValueError:
                rows = 0
            if cap is not None and not (limit is not None and 0 < limit <= rows):
                response.close()
                raise ResultCapError(
                    f"{self.url}: the store cut the result at {cap} rows (its result row cap); "
                    "raise it or page with --page-size", rows,
                )
            try:
                reader = csv.reader(_lines(response))
                first = next(reader, None)
                if first is None:
                    raise EndpointError(f"{self.url}: empty response where SPARQL results were "
                                        "expected")
                header[:] = first
                width = len(first)
                for row in reader:
                    if len(row) != width:
                        raise EndpointError(
                            f"{self.url}: malformed CSV results (a row of {len(row)} values "
                            f"under {width} columns)"
                        )
                    yield row
            except csv.Error as e:
                raise EndpointError(f"{self.url}: malformed CSV results: {e}") from e
            except httpx.HTTPError as e:
                raise EndpointError(_describe(self.url, e)) from e

    def count(self, query: str) -> int:
        """Run a SELECT with one row and one integer column; return the integer."""
        rows = list(self.select(query))
        try:
            (row,) = rows
            (value,) = row.values()
            return int(value)
        except ValueError as e:
            raise EndpointError(f"{self.url}: expected one number, got {rows[:2]!r}") from e

    def holds(self, pattern: str) -> bool:
        """Does the group graph pattern *pattern* (``{ … }``) match? ``ASK``, or on a store
        whose profile says it does not answer ASK, ``SELECT * … LIMIT 1``."""
        if self.profile.ask:
            return self.ask(f"ASK {pattern}")
        return any(True for _row in self.select(f"SELECT * WHERE {pattern} LIMIT 1"))

    def ask(self, query: str) -> bool:
        """Run an ASK query."""
        accept = "application/sparql-results+json"
        with self._send(self.url, "query", query, accept=accept) as response:
            self._expect(response, (accept, "application/json"), "SPARQL JSON results")
            try:
                import json

                value = _boolean(json.loads(response.read()))
            except (ValueError, KeyError, TypeError, IndexError) as e:
                raise EndpointError(f"{self.url}: malformed ASK result") from e
            except httpx.HTTPError as e:
                raise EndpointError(_describe(self.url, e)) from e
        if not isinstance(value, bool):
            raise EndpointError(f"{self.url}: malformed ASK result")
        return value

    def raw(self, query: str, accept: str) -> Iterator[bytes]:
        """Run any query; yield the response body in chunks (its media type must be ``accept``)."""
        with self._send(self.url, "query", query, accept=accept) as response:
            self._expect(response, tuple(a.strip() for a in accept.split(",")), accept)
            try:
                yield from response.iter_bytes()
            except httpx.HTTPError as e:
                raise EndpointError(_describe(self.url, e)) from e

    # -- updates -------------------------------------------------------------------------------
    def update(self, text: str) -> None:
        """Send a SPARQL Update request (one request: one transaction on most stores)."""
        try:
            response = self._client.post(
                self.update_url,
                content=text.encode("utf-8"),
                headers={"Content-Type": "application/sparql-update; charset=utf-8"},
                auth=self._auth[self.update_url] or httpx.USE_CLIENT_DEFAULT,
            )
        except httpx.HTTPError as e:
            raise EndpointError(_describe(self.update_url, e)) from e
        self._note_server(response)
        if response.status_code >= 400:
            raise EndpointError(_status(self.update_url, response, update=True))

    # -- plumbing ------------------------------------------------------------------------------
    def _send(self, url: str, field: str, text: str, *, accept: str) -> Any:
        # POST with a form body (SPARQL 1.1 Protocol §2.1.2): no URL length limit.
        stream = self._client.stream(
            "POST",
            url,
            data={field: text},
            headers={"Accept": accept},
            auth=self._auth[url] or httpx.USE_CLIENT_DEFAULT,
        )
        return _Guard(stream, url)

    def _expect(self, response: httpx.Response, types: tuple[str, ...], what: str) -> None:
        self._note_server(response)
        if response.status_code >= 400:
            response.read()
            raise EndpointError(_status(self.url, response, update=False))
        media = response.headers.get("content-type", "").split(";")[0].strip().lower()
        if media not in types:
            kind = "an HTML page" if "html" in media else f"{media or 'no media type'}"
            raise EndpointError(
                f"{self.url}: expected {what}, got {kind} (HTTP {response.status_code}); "
                "is this the SPARQL endpoint's URL?"
            )


class _Guard:
    """Context manager around ``client.stream`` turning transport errors into EndpointError."""

    def __init__(self, stream: Any, url: str) -> None:
        self._stream = stream
        self._url = url

    def __enter__(self) -> httpx.Response:
        try:
            response: httpx.Response = self._stream.__enter__()
        except httpx.HTTPError as e:
            raise EndpointError(_describe(self._url, e)) from e
        return response

    def __exit__(self, *exc: Any) -> None:
        try:
            self._stream.__exit__(*exc)
        except httpx.HTTPError as e:
            raise EndpointError(_describe(self._url, e)) from e


def _boolean(result: Any) -> Any:
    """The value of an ASK result. Virtuoso sometimes answers ASK with one solution binding
    ``__ASK_RETVAL`` to an integer instead of the ``boolean`` member (SPARQL 1.1 Query Results
    JSON §3.4)."""
    if "boolean" in result:
        return result["boolean"]
    bindings = result["results"]["bindings"]
    if not bindings:
        return False  # ASK false: no solution
    (binding,) = bindings
    (term,) = binding.values()
    return {"1": True, "true": True, "0": False, "false": False}[term["value"]]


def _lines(response: httpx.Response) -> Iterator[str]:
    """The body as text lines with their line ends (what ``csv.reader`` needs for quoted
    line breaks), decoded as UTF-8 incrementally."""
    decoder = codecs.getincrementaldecoder("utf-8")("replace")
    pending = ""
    for chunk in response.iter_bytes():
        pending += decoder.decode(chunk)
        lines = pending.splitlines(keepends=True)
        # The last piece may be an unfinished line (or a "\r" whose "\n" is in the next chunk).
        pending = lines.pop() if lines and not lines[-1].endswith("\n") else ""
        yield from lines
    pending += decoder.decode(b"", final=True)
    if pending:
        yield pending


def _describe(url: str, e: httpx.HTTPError) -> str:
    if isinstance(e, httpx.TimeoutException):
        return f"{url}: no answer within the timeout ({type(e).__name__}); try --timeout"
    if isinstance(e, httpx.ConnectError):
        return f"{url}: cannot connect ({_first(e) or 'connection refused'})"
    if isinstance(e, httpx.RemoteProtocolError):
        return f"{url}: the server closed the connection ({_first(e)})"
    return f"{url}: {type(e).__name__}: {_first(e)}"


def _status(url: str, response: httpx.Response, *, update: bool) -> str:
    body = ""
    media = response.headers.get("content-type", "")
    if "html" not in media:
        body = _first_text(response.text)
    reason = response.reason_phrase or ""
    hint = ""
    # Virtuoso refuses an update from a user without SPARQL_UPDATE with HTTP 500 and
    # "SR186: SECURITY: No permission to execute procedure …".
    if update and (response.status_code in (403, 404, 405, 415) or "SR186" in body):
        hint = " (a read-only endpoint? give the store's update URL with --update-endpoint)"
    elif response.status_code in (401, 403):
        hint = (" (set URNLD_ENDPOINT_TOKEN, or URNLD_ENDPOINT_USER and URNLD_ENDPOINT_PASSWORD,"
                " or a netrc entry)")
    detail = f": {body}" if body else ""
    return f"{url}: HTTP {response.status_code} {reason}{detail}{hint}"


def _first(e: BaseException) -> str:
    return _first_text(str(e))


def _first_text(text: str) -> str:
    for line in text.strip().splitlines():
        if line.strip():
            return line.strip()[:200]
    return ""
