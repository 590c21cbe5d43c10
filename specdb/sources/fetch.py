"""Fetching one address over HTTP, politely and safely.

Redirects are followed here, one hop at a time, rather than by the client, so
that every hop is checked: only http and https, never from https down to
http, and never to an address on this machine or a private network (a source
record cannot be made to read what only its reader can reach). The check
resolves the host name itself; the client resolves it again when it
connects, so a name that changes its answer in between is not caught.
Loopback addresses are allowed only with SPECDB_SOURCES_ALLOW_LOOPBACK=1,
which exists for the tests' local server. A response is read up to a cap,
and the request carries the validators of the cached copy, so an unchanged
page costs a 304.
"""

from __future__ import annotations

import ipaddress
import os
import re
import socket
from dataclasses import dataclass, field
from urllib.parse import urljoin, urlsplit

ALLOW_LOOPBACK_ENV = "SPECDB_SOURCES_ALLOW_LOOPBACK"
DEFAULT_TIMEOUT = 20.0
# A vendor white paper runs to a few megabytes; past this a response is not a document to search.
DEFAULT_MAX_BYTES = 32 * 1024 * 1024
MAX_REDIRECTS = 5
REDIRECT_CODES = {301, 302, 303, 307, 308}
PERMANENT_REDIRECT_CODES = {301, 308}


class FetchFailed(Exception):
    """No response to read: a network error, a timeout, a refused redirect or an oversized body; the message says which."""


@dataclass
class Response:
    """What an address answered, after the redirects: the final status, its headers that matter, and the body (empty for a 304)."""

    status: int
    final_url: str
    redirects: list[tuple[int, str]] = field(default_factory=list)
    content_type: str = ""
    charset: str | None = None
    etag: str | None = None
    last_modified: str | None = None
    body: bytes = b""


_GITHUB_BLOB = re.compile(r"https://github\.com/([^/]+)/([^/]+)/blob/(.+)")


def readable_address(url: str) -> str:
    """Where the text of the page at `url` is read: a file GitHub shows (`github.com/OWNER/REPO/blob/REF/PATH`) is read as the file
    itself, from raw.githubusercontent.com, since GitHub's page carries the file only inside a script; any other address as it is."""
    match = _GITHUB_BLOB.fullmatch(url.split("#")[0].split("?")[0])
    return f"https://raw.githubusercontent.com/{match[1]}/{match[2]}/{match[3]}" if match else url


def is_folder_address(url: str) -> bool:
    """Whether the address is a folder GitHub lists (`github.com/OWNER/REPO/tree/...`): its quotes are in the files under it, not on
    the listing, so the address can say whether the folder moved or went, but not whether a quote is still there."""
    return re.fullmatch(r"https://github\.com/[^/]+/[^/]+/tree/.+", url) is not None


def loopback_allowed() -> bool:
    return os.environ.get(ALLOW_LOOPBACK_ENV) == "1"


def user_agent() -> str:
    from specdb import __version__

    return f"specdb/{__version__} (source re-review)"


def refusal(url: str, *, allow_loopback: bool, previous_scheme: str | None = None) -> str | None:
    """Why this address may not be fetched, or None when it may."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https"):
        return f"not followed: {url} is not an http or https address"
    if previous_scheme == "https" and parts.scheme == "http":
        return f"not followed: a redirect from https down to http ({url})"
    if not parts.hostname:
        return f"not followed: {url} names no host"
    try:
        port = parts.port
    except ValueError:
        return f"not followed: {url} names no valid port"
    try:
        addresses = {info[4][0] for info in socket.getaddrinfo(parts.hostname, port or 443, type=socket.SOCK_STREAM)}
    except (socket.gaierror, UnicodeError) as error:
        return f"the host {parts.hostname} cannot be resolved ({error})"
    for text in sorted(addresses):
        address = ipaddress.ip_address(text.split("%")[0])
        if address.is_loopback and allow_loopback:
            continue
        if address.is_loopback or address.is_private or address.is_link_local or address.is_reserved or address.is_multicast or address.is_unspecified:
            return f"not followed: {parts.hostname} is at {address}, an address on this machine or a private network"
    return None


def fetch(
    url: str, client, *, etag: str | None = None, last_modified: str | None = None,
    max_bytes: int = DEFAULT_MAX_BYTES, allow_loopback: bool | None = None,
) -> Response:
    """GET the address with `client` (an httpx.Client that does not follow redirects), following safe redirects.

    Raises FetchFailed with the reason when there is no response to read."""
    import httpx

    allow_loopback = loopback_allowed() if allow_loopback is None else allow_loopback
    headers = {}
    if etag:
        headers["If-None-Match"] = etag
    if last_modified:
        headers["If-Modified-Since"] = last_modified
    redirects: list[tuple[int, str]] = []
    previous_scheme = None
    for _ in range(MAX_REDIRECTS + 1):
        reason = refusal(url, allow_loopback=allow_loopback, previous_scheme=previous_scheme)
        if reason:
            raise FetchFailed(reason)
        try:
            with client.stream("GET", url, headers=headers) as reply:
                if reply.status_code in REDIRECT_CODES and "location" in reply.headers:
                    redirects.append((reply.status_code, urljoin(url, reply.headers["location"])))
                    previous_scheme, url = urlsplit(url).scheme, redirects[-1][1]
                    continue
                body = _capped_body(reply, max_bytes)
                return Response(
                    status=reply.status_code, final_url=url, redirects=redirects,
                    content_type=reply.headers.get("content-type", "").split(";")[0].strip().lower(),
                    charset=reply.charset_encoding, etag=reply.headers.get("etag"),
                    last_modified=reply.headers.get("last-modified"), body=body,
                )
        except httpx.TimeoutException:
            raise FetchFailed(f"timeout: no answer from {urlsplit(url).hostname} within {_seconds(client.timeout)} s") from None
        except (httpx.HTTPError, httpx.InvalidURL) as error:
            raise FetchFailed(f"network error: {error or type(error).__name__}") from None
    raise FetchFailed(f"more than {MAX_REDIRECTS} redirects (last to {url})")


def _capped_body(reply, max_bytes: int) -> bytes:
    chunks, size = [], 0
    for chunk in reply.iter_bytes():
        size += len(chunk)
        if size > max_bytes:
            raise FetchFailed(f"the response is larger than {max_bytes} bytes; not read")
        chunks.append(chunk)
    return b"".join(chunks)


def _seconds(timeout) -> str:
    value = timeout.read if timeout.read is not None else timeout.connect
    return f"{value:g}"


def client(timeout: float = DEFAULT_TIMEOUT):
    """An HTTP client for fetching sources: the timeout (for connecting and for each read), a User-Agent naming specdb, and no
    redirects of its own. It takes nothing from the environment: no proxy settings and no .netrc credentials, which a source's
    host has no business receiving."""
    import httpx

    return httpx.Client(
        timeout=httpx.Timeout(timeout), follow_redirects=False, headers={"User-Agent": user_agent(), "Accept": "text/html, application/pdf, text/*;q=0.9, */*;q=0.5"},
        trust_env=False,
    )
