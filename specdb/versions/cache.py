"""What `diff` remembers of the git revisions and spec files it has validated, so that a later diff reads only the files that changed.

A revision's entry is named by the git object id of the specs folder at the
revision, which names every byte of every file in it, and by a digest of
specdb's own code, which decides what is valid and how ratios come out: an
entry can never describe other content or other rules, so it is never stale.
Only valid revisions are remembered. A diff of two revisions neither of
which was read whole remembers, under both trees' ids, what it found of each:
the content hash and the ratios of the platforms the change reaches. An entry is written whole to a temporary
file and renamed into place, so readers and concurrent writers see a whole
entry or none; it begins with a checksum of the rest, and an entry that does
not match its checksum, or is not of the expected shape, is ignored.

Each valid spec file's rows are remembered too, in one SQLite file, named by
the file's git blob id, its path (the id and kind come from it), the blob id of
the review policies (which set every figure's review ages) and the code
digest. SQLite serialises concurrent writers; an entry whose text does not
match the checksum written with it, or is not a list of rows, is ignored; a
cache file that is not a database, or is a damaged one, or a table of another
layout, is replaced.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import sqlite3
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from specdb.locations import cache_folder
from specdb.db.rows import TABLES
from specdb.versions.snapshot import Ratios
from specdb.format.counting import BASES
from specdb.analysis.tiers import RATIOS


# What JSON gives for a number (a bool, its subclass, is not a ratio).
_NUMBERS = (int, float)


@dataclass(frozen=True)
class RevisionSummary:
    """A valid revision's content hash and the tier ratios of every platform on each basis."""

    content_hash: str
    ratios: dict[str, Ratios]


@functools.cache
def code_digest() -> str:
    package = Path(__file__).parent.parent  # the whole package, not only this folder: any of its code may change a reading
    digest = hashlib.sha256()
    for path in sorted(package.rglob("*.py")):
        digest.update(path.relative_to(package).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def entry_path(tree: str) -> Path:
    return cache_folder() / "revisions" / f"{tree}-{code_digest()[:16]}.json"


def pair_path(old_tree: str, new_tree: str) -> Path:
    return cache_folder() / "pairs" / f"{old_tree}-{new_tree}-{code_digest()[:16]}.json"


def load(tree: str) -> RevisionSummary | None:
    """The summary remembered for a specs tree, or None when there is none that can be trusted."""
    return _summary(_read_entry(entry_path(tree)))


def load_pair(old_tree: str, new_tree: str) -> tuple[RevisionSummary, RevisionSummary] | None:
    """What a diff of two specs trees, neither read whole, found of each: its content hash and the tier ratios of the
    platforms the change between them reaches; None when nothing that can be trusted is remembered."""
    data = _read_entry(pair_path(old_tree, new_tree))
    sides = data.get("sides") if isinstance(data, dict) else None
    if not isinstance(sides, list) or len(sides) != 2:
        return None
    old, new = (_summary(side) for side in sides)
    return None if old is None or new is None else (old, new)


def _read_entry(path: Path) -> Any:
    """An entry's data, or None when it is missing, or does not match the checksum written with it."""
    try:
        checksum, _, text = path.read_bytes().decode("utf-8").partition("\n")
        if checksum != _checksum(text):
            return None
        return json.loads(text)
    except (OSError, ValueError):
        return None


def _summary(data: Any) -> RevisionSummary | None:
    if not isinstance(data, dict) or not isinstance(data.get("content_hash"), str):
        return None
    ratios = data.get("ratios")
    if not isinstance(ratios, dict) or set(ratios) != set(BASES):
        return None
    summary = RevisionSummary(data["content_hash"], {})
    for basis, platforms in ratios.items():
        if not isinstance(platforms, dict):
            return None
        for values in platforms.values():
            if not isinstance(values, list) or len(values) != len(RATIOS) or not all(value is None or type(value) in _NUMBERS for value in values):
                return None
        summary.ratios[basis] = {platform: tuple(values) for platform, values in platforms.items()}
    return summary


def _plain(summary: RevisionSummary) -> dict[str, Any]:
    return {"content_hash": summary.content_hash, "ratios": {basis: {p: list(v) for p, v in r.items()} for basis, r in summary.ratios.items()}}


def store(tree: str, summary: RevisionSummary) -> None:
    """Remember a valid revision; a cache folder that cannot be written only leaves the next diff to read it in full again."""
    _write_entry(entry_path(tree), _plain(summary))


def store_pair(old_tree: str, new_tree: str, old: RevisionSummary, new: RevisionSummary) -> None:
    """Remember what a diff of two trees found of each (see `load_pair`)."""
    _write_entry(pair_path(old_tree, new_tree), {"sides": [_plain(old), _plain(new)]})


def _write_entry(target: Path, data: Any) -> None:
    text = json.dumps(data)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=".", suffix=".tmp")
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as file:
                file.write(f"{_checksum(text)}\n{text}")
            os.replace(temporary, target)
        except BaseException:  # an interrupt too: no half-written entry is left behind
            os.unlink(temporary)
            raise
    except OSError:
        return


Rows = list[tuple[str, dict[str, Any]]]  # one record's rows as `rows.record_rows` gives them, numbered from 1
# How long a reader or writer waits for another writer before it does without the cache.
LOCK_TIMEOUT_SECONDS = 5.0
# The cache's one table; a table of another layout (written by another specdb) is replaced.
_COLUMNS = {"key": "TEXT PRIMARY KEY", "rows": "TEXT NOT NULL", "checksum": "TEXT NOT NULL"}
# SQLite's primary result codes for a file that is not a database, and for a damaged one ("database disk image is malformed").
_DAMAGED = (sqlite3.SQLITE_NOTADB, sqlite3.SQLITE_CORRUPT)


def file_key(relpath: str, blob: str, policy_blob: str) -> str:
    """What names a spec file's rows: its content, its path, the review policies in force ('' for none) and the code."""
    return f"{code_digest()[:16]} {policy_blob or '-'} {blob} {relpath}"


def files_path() -> Path:
    return cache_folder() / "spec-files.sqlite"


def load_files(keys: list[str]) -> dict[str, Rows]:
    """The rows remembered under each of the keys; a key with no entry, or with one that cannot be trusted, is left out."""
    path = files_path()
    if not keys or not path.is_file():
        return {}
    try:
        connection = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True, timeout=LOCK_TIMEOUT_SECONDS)
        try:
            found = connection.execute(
                "SELECT key, rows, checksum FROM file WHERE key IN (SELECT value FROM json_each(?))", (json.dumps(keys),)
            ).fetchall()
        finally:
            connection.close()
    except sqlite3.Error:
        return {}
    remembered = {}
    for key, text, checksum in found:
        rows = _rows(text, checksum)
        if rows is not None:
            remembered[key] = rows
    return remembered


def _checksum(text: str) -> str:
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


def _rows(text: Any, checksum: Any) -> Rows | None:
    """The rows of an entry whose text is whole (it matches the checksum written with it) and is a list of (table, row), a record's or source's first."""
    if not isinstance(text, str) or checksum != _checksum(text):
        return None
    try:
        data = json.loads(text)
    except ValueError:
        return None
    if not isinstance(data, list) or not all(isinstance(item, list) and len(item) == 2 and item[0] in TABLES and isinstance(item[1], dict) for item in data):
        return None
    if not data or data[0][0] not in ("record", "source"):
        return None
    return [(table, row) for table, row in data]


def store_files(entries: dict[str, Rows]) -> None:
    """Remember valid files' rows; a cache that cannot be written, or is busy past a few seconds, only leaves them to be validated again."""
    if not entries:
        return
    path = files_path()
    for attempt in range(2):
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            texts = [(key, json.dumps(rows)) for key, rows in entries.items()]
            connection = sqlite3.connect(path, timeout=LOCK_TIMEOUT_SECONDS, isolation_level=None)
            try:
                # One writer at a time from the look at the layout to the last row: another's new table is never dropped.
                connection.execute("BEGIN IMMEDIATE")
                if [row[1] for row in connection.execute("PRAGMA table_info(file)")] != list(_COLUMNS):
                    connection.execute("DROP TABLE IF EXISTS file")
                    connection.execute(f"CREATE TABLE file ({', '.join(f'{column} {sql}' for column, sql in _COLUMNS.items())})")
                connection.executemany("INSERT OR REPLACE INTO file (key, rows, checksum) VALUES (?, ?, ?)", [(key, text, _checksum(text)) for key, text in texts])
                connection.execute("COMMIT")
            finally:
                connection.close()
            return
        except sqlite3.DatabaseError as error:
            if attempt or error.sqlite_errorcode & 0xFF not in _DAMAGED:
                return
            # Not a database, or a damaged one: replaced by a new one, with no journal of the old one left to replay into it.
            for damaged in (path, path.with_name(path.name + "-journal"), path.with_name(path.name + "-wal")):
                damaged.unlink(missing_ok=True)
        except OSError:
            return
