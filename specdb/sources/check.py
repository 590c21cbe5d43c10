"""Checking sources: what each address answers now (or last answered, offline), and whether every quote that cites it is
still there.

A source is `ok`, `moved` (a permanent redirect: the new address is given),
`gone` (404 or 410), `unreachable` (a network error, a timeout, a refused
redirect, an error status, a login wall: the detail says which) or
`changed` (its text differs from the fingerprint its last review recorded);
a source with no address is `not-checkable`. Each citation of it by a
figure or an alternative is `quote-found`, `quote-missing` or
`not-checkable` (no address, no quote, an image, a login wall, a source not
read), with the figures that hang on it. A history entry's quote is not
looked for: it records what the source said then.
"""

from __future__ import annotations

import datetime as dt
import sqlite3
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from specdb.sources.cache import Entry, SourceCache
from specdb.sources.fetch import (
    DEFAULT_MAX_BYTES,
    DEFAULT_TIMEOUT,
    PERMANENT_REDIRECT_CODES,
    FetchFailed,
    Response,
    client,
    fetch,
    is_folder_address,
    readable_address,
)
from specdb.sources.text import (
    UnreadablePdf,
    contains_quote,
    decode,
    fingerprint,
    html_text,
    normalise,
    pdf_text,
)

# Most urgent first: the order reports sort by.
URGENCY = ("gone", "moved", "quote-missing", "unreachable", "changed", "not-checkable", "ok", "quote-found")
SOURCE_STATUSES = ("gone", "moved", "unreachable", "changed", "not-checkable", "ok")
LOGIN_STATUSES = {401, 403, 407}
DEFAULT_JOBS = 4


@dataclass
class Reading:
    """A source's address as read: its status, what the status rests on, the new address of a moved one, and its text (None when
    nothing readable came back, with `unreadable` saying why)."""

    status: str
    detail: str = ""
    new_url: str | None = None
    text: str | None = None
    unreadable: str = ""
    fetched: str | None = None
    fingerprint: str | None = None


@dataclass
class CitationResult:
    record_id: str
    quote: str | None
    status: str
    reason: str = ""
    figures: list[str] = field(default_factory=list)


@dataclass
class SourceResult:
    source_id: str
    url: str | None
    status: str
    detail: str = ""
    new_url: str | None = None
    fingerprint: str | None = None
    reviewed_fingerprint: str | None = None
    fetched: str | None = None
    citations: list[CitationResult] = field(default_factory=list)


def read_address(url: str, cache: SourceCache, http=None, *, max_bytes: int = DEFAULT_MAX_BYTES) -> Reading:
    """The address read now with `http` (an httpx client from `fetch.client`), the cache updated; without one (offline), as the
    cache holds it."""
    cached = cache.get(url)
    if http is None:
        if cached is None:
            return Reading("unreachable", "offline, and not in the cache: run the check once online")
        return _as_source(url, _reading(cached))
    try:
        response = fetch(
            readable_address(url), http, etag=cached.etag if cached else None, last_modified=cached.last_modified if cached else None, max_bytes=max_bytes,
        )
    except FetchFailed as failure:
        return Reading("unreachable", str(failure))
    now = dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")
    if response.status == 304 and cached is not None:
        entry = cached._replace(fetched=now, final_url=response.final_url, redirects=tuple(map(tuple, response.redirects)))
    else:
        entry = _entry(url, now, response)
    cache.put(entry)
    return _as_source(url, _reading(entry))


def _as_source(url: str, reading: Reading) -> Reading:
    """A folder's listing tells whether the folder moved or went, and nothing about the quotes in its files."""
    if is_folder_address(url) and reading.text is not None:
        reading.text, reading.fingerprint, reading.unreadable = None, None, "a folder: its quotes are in the files under it, not on its listing"
    return reading


def _entry(url: str, now: str, response: Response) -> Entry:
    kind, text = "none", None
    if 200 <= response.status < 300:
        kind, text = _content(response)
    return Entry(
        url=url, fetched=now, status=response.status, final_url=response.final_url, kind=kind,
        redirects=tuple(map(tuple, response.redirects)), content_type=response.content_type,
        etag=response.etag, last_modified=response.last_modified, text=text,
    )


def _content(response: Response) -> tuple[str, str | None]:
    """What the body is (html, pdf, text, image, other, or unreadable-pdf) and its text."""
    content_type, body = response.content_type, response.body
    if content_type == "application/pdf" or body.startswith(b"%PDF-"):
        try:
            return "pdf", pdf_text(body)
        except UnreadablePdf:
            return "unreadable-pdf", None
    if content_type.startswith("image/"):
        return "image", None
    if content_type in ("text/html", "application/xhtml+xml"):
        return "html", html_text(decode(body, response.charset))
    if content_type.startswith("text/") or content_type in ("application/json", "application/xml") or not content_type:
        return "text", decode(body, response.charset)
    return "other", None


_UNREADABLE = {
    "image": "an image: its words cannot be read as text",
    "unreadable-pdf": "a PDF whose text cannot be read (damaged or encrypted)",
    "other": "not a document of text",
}


def _reading(entry: Entry) -> Reading:
    if entry.status in (404, 410):
        return Reading("gone", f"HTTP {entry.status}", fetched=entry.fetched)
    if entry.status in LOGIN_STATUSES:
        return Reading("unreachable", f"HTTP {entry.status}: a login wall, or a refusal of automated readers", fetched=entry.fetched,
                       unreadable="behind a login wall or refused")
    if not 200 <= entry.status < 300:
        return Reading("unreachable", f"HTTP {entry.status}", fetched=entry.fetched)
    moved = any(code in PERMANENT_REDIRECT_CODES for code, _ in entry.redirects)
    detail = f"moved permanently to {entry.final_url}" if moved else f"redirected (temporarily) to {entry.final_url}" if entry.redirects else ""
    unreadable = "" if entry.text is not None else _UNREADABLE.get(entry.kind, f"{entry.content_type or 'no content type'}: not text")
    return Reading("moved" if moved else "ok", detail, entry.final_url if moved else None, entry.text, unreadable, entry.fetched,
                   fingerprint(entry.text) if entry.text is not None else None)


def check_sources(
    connection: sqlite3.Connection, *, record_id: str | None = None, source_id: str | None = None, cache: SourceCache | None = None,
    offline: bool = False, jobs: int = DEFAULT_JOBS, timeout: float = DEFAULT_TIMEOUT, max_bytes: int = DEFAULT_MAX_BYTES,
) -> list[SourceResult]:
    """Every source the filters select, read (or, offline, looked up in the cache) and its citations checked, by source id."""
    from specdb.db.catalog import source_citations, sources_to_check

    cache = cache or SourceCache()
    sources = sources_to_check(connection, record_id, source_id)
    citations: dict[str, list] = {}
    for row in source_citations(connection, [row["id"] for row in sources], record_id):
        citations.setdefault(row["source_id"], []).append(row)
    addressed = [row for row in sources if row["url"]]
    if offline:
        readings = [read_address(row["url"], cache) for row in addressed]
    else:
        with client(timeout) as http, ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            readings = list(pool.map(lambda row: read_address(row["url"], cache, http=http, max_bytes=max_bytes), addressed))
    by_id = {row["id"]: reading for row, reading in zip(addressed, readings)}
    return [_result(row, by_id.get(row["id"]), citations.get(row["id"], [])) for row in sources]


def _result(source: sqlite3.Row, reading: Reading | None, citations: list) -> SourceResult:
    if reading is None:
        result = SourceResult(source["id"], None, "not-checkable", "no address (a citation only)")
    else:
        result = SourceResult(
            source["id"], source["url"], reading.status, reading.detail, reading.new_url,
            reading.fingerprint, source["fingerprint"], reading.fetched,
        )
        if result.status == "ok" and result.reviewed_fingerprint and result.fingerprint and result.fingerprint != result.reviewed_fingerprint:
            result.status, result.detail = "changed", "the text differs from the fingerprint of the last review"
    page = normalise(reading.text) if reading is not None and reading.text is not None else None
    grouped: dict[tuple[str, str | None], CitationResult] = {}
    for row in citations:
        key = (row["record_id"], row["quote"])
        if key not in grouped:
            grouped[key] = CitationResult(row["record_id"], row["quote"], *_quote_status(row["quote"], reading, page))
        figure = row["figure"] if row["claim_kind"] is None else f"{row['figure']} ({row['claim_kind']})"
        if figure not in grouped[key].figures:
            grouped[key].figures.append(figure)
    result.citations = sorted(grouped.values(), key=lambda cited: (URGENCY.index(cited.status), cited.record_id, cited.quote or ""))
    return result


def _quote_status(quote: str | None, reading: Reading | None, page: str | None) -> tuple[str, str]:
    """The quote's status, and its reason where the source's own status and detail do not already give it."""
    if reading is None:
        return "not-checkable", ""
    if not quote:
        return "not-checkable", "the citation has no quote"
    if page is None:
        return "not-checkable", reading.unreadable
    return ("quote-found", "") if contains_quote(page, quote) else ("quote-missing", "not in the source's text")


def failing(results: list[SourceResult]) -> bool:
    """Whether the check fails (exit 1): a source gone or moved, or a quote missing."""
    return any(result.status in ("gone", "moved") or any(cited.status == "quote-missing" for cited in result.citations) for result in results)
