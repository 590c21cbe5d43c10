"""What each source's address last answered, kept so that the next check can ask for changes only, and `--offline` and
`stale` can answer without the network.

Two files per address, named by a hash of it, in the per-user cache folder
(`~/.cache/specdb/sources` on Linux) or in $SPECDB_SOURCES_CACHE: the
answer's status, redirects, validators and the fingerprint of its text
(`.json`), and the text read from it (`.txt`), never the raw body. `stale`
reads only the first. Each file is written beside its place and renamed
into it, the text first; an entry that cannot be read, or whose text does
not match its fingerprint, is treated as absent. The folder may be deleted
at any time.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import NamedTuple

CACHE_ENV = "SPECDB_SOURCES_CACHE"


class Entry(NamedTuple):
    """What an address answered at `fetched` (UTC, ISO): `text` is None when nothing readable came back (a 404, an image),
    and `kind` says what it was: html, pdf, text, image, unreadable-pdf, other or none. (A NamedTuple: `stale` reads entries,
    and a read command does not import dataclasses.)"""

    url: str
    fetched: str
    status: int
    final_url: str
    kind: str
    redirects: tuple = ()
    content_type: str = ""
    etag: str | None = None
    last_modified: str | None = None
    fingerprint: str | None = None
    text: str | None = None


def default_folder() -> Path:
    """$SPECDB_SOURCES_CACHE, else `sources` in the per-user cache folder."""
    named = os.environ.get(CACHE_ENV)
    if named:
        return Path(named)
    from specdb.locations import cache_folder

    return cache_folder() / "sources"


class SourceCache:
    def __init__(self, folder: Path | None = None):
        self.folder = folder if folder is not None else default_folder()

    def _path(self, url: str, suffix: str) -> Path:
        return self.folder / (hashlib.sha256(url.encode()).hexdigest()[:32] + suffix)

    def _meta(self, url: str) -> dict | None:
        try:
            data = json.loads(self._path(url, ".json").read_text(encoding="utf-8"))
        except (OSError, ValueError):  # missing or damaged
            return None
        return data if isinstance(data, dict) and data.get("url") == url and set(data) <= set(Entry._fields) else None

    def fingerprint(self, url: str) -> str | None:
        """The fingerprint of the text last read from the address, without reading the text."""
        meta = self._meta(url)
        return meta.get("fingerprint") if meta else None

    def get(self, url: str) -> Entry | None:
        from specdb.sources.text import fingerprint

        meta = self._meta(url)
        if meta is None:
            return None
        text = None
        if meta.get("fingerprint"):
            try:
                text = self._path(url, ".txt").read_text(encoding="utf-8")
            except (OSError, ValueError):
                return None
            if fingerprint(text) != meta["fingerprint"]:  # a text from another answer than its metadata's
                return None
        try:
            return Entry(**{**meta, "redirects": tuple(map(tuple, meta.get("redirects", ()))), "text": text})
        except TypeError:  # from a specdb that wrote other fields
            return None

    def put(self, entry: Entry) -> None:
        from specdb.atomicwrite import cannot_write, replacing_file
        from specdb.sources.text import fingerprint

        try:
            self.folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:  # a file where the folder goes, a parent that cannot be written
            raise cannot_write(self.folder, error) from None
        if entry.text is not None:
            entry = entry._replace(fingerprint=fingerprint(entry.text))
            with replacing_file(self._path(entry.url, ".txt")) as temporary:
                temporary.write_text(entry.text, encoding="utf-8")
        meta = entry._replace(text=None, fingerprint=entry.fingerprint if entry.text is not None else None)._asdict()
        del meta["text"]
        with replacing_file(self._path(entry.url, ".json")) as temporary:
            temporary.write_text(json.dumps(meta, ensure_ascii=False), encoding="utf-8")


def changed_since_review(cache: SourceCache, reviewed: list[tuple[str, str, str]]) -> set[str]:
    """The ids of the sources (id, url, fingerprint at review) whose text, as last read into the cache, has another fingerprint."""
    if not cache.folder.is_dir():
        return set()
    changed = set()
    for source_id, url, at_review in reviewed:
        now = cache.fingerprint(url)
        if now is not None and now != at_review:
            changed.add(source_id)
    return changed
