"""The read side of the database: open it read-only with the standard library, and keep it fresh.

Nothing here imports SQLAlchemy, SQLModel, Alembic or pydantic, so a read
command on an up-to-date database starts in a few tens of milliseconds; only a
missing or stale database pulls in `build`.
"""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

from specdb.errors import DatabaseError
from specdb.specfiles import stat_fingerprint

# The Alembic revision this code reads and writes; a test checks it is the migrations' head.
HEAD_REVISION = "0003"
KNOWN_REVISIONS = ("0001", "0002", "0003")


def connect_readonly(path: Path) -> sqlite3.Connection:
    """A read-only connection: writes through it fail, and it never creates a file."""
    if not path.exists():
        raise DatabaseError(f"{path}: database not found")
    try:
        connection = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)
        connection.row_factory = sqlite3.Row
        connection.execute("PRAGMA foreign_keys = ON")
        connection.execute("PRAGMA query_only = ON")
        revision = schema_revision(connection)
    except sqlite3.DatabaseError as exc:
        raise DatabaseError(f"{path}: cannot be read as a SQLite database ({exc})") from None
    check_revision(path, revision)
    return connection


def schema_revision(connection: sqlite3.Connection) -> str | None:
    """The Alembic revision a database is at; None when it has none (not a specdb database)."""
    try:
        row = connection.execute("SELECT version_num FROM alembic_version").fetchone()
    except sqlite3.OperationalError:
        return None
    return row[0] if row else None


def check_revision(path: Path, revision: str | None) -> None:
    if revision is None:
        raise DatabaseError(f"{path}: not a specdb database (no schema version); pass another --db or delete the file")
    if revision not in KNOWN_REVISIONS:
        raise DatabaseError(f"{path}: made by a newer specdb (schema revision {revision}); this specdb knows up to {HEAD_REVISION}. Upgrade specdb or use another --db")


def read_meta(connection: sqlite3.Connection) -> dict[str, str]:
    return {row[0]: row[1] for row in connection.execute("SELECT key, value FROM meta")}


def stamp_path(db_path: Path) -> Path:
    """The file beside the database that says which spec files, as last seen, it was built from.

    Keeping this outside the database means a build never writes into a live
    database file: content that did not change leaves it byte-for-byte alone.
    """
    return db_path.with_name(db_path.name + ".stamp")


def read_stamp(db_path: Path) -> dict[str, str]:
    try:
        stamp = json.loads(stamp_path(db_path).read_text())
    except (OSError, ValueError):
        return {}
    return stamp if isinstance(stamp, dict) else {}


def write_stamp(db_path: Path, specs: Path, fingerprint: str, content_hash: str) -> None:
    target = stamp_path(db_path)
    temporary = target.with_name(f".{target.name}.{os.getpid()}")
    temporary.write_text(json.dumps({"specs_dir": str(specs), "stat_fingerprint": fingerprint, "content_hash": content_hash}))
    os.replace(temporary, target)


def stamp_matches(db_path: Path, specs: Path, content_hash: str | None, fingerprint: str | None = None) -> bool:
    """Whether the stamp says the database's content was built from exactly these spec files as they are now."""
    stamp = read_stamp(db_path)
    return (
        stamp.get("specs_dir") == str(specs)
        and stamp.get("content_hash") == content_hash
        and stamp.get("stat_fingerprint") == (fingerprint if fingerprint is not None else stat_fingerprint(specs))
    )


def is_fresh(db_path: Path, specs: Path, connection: sqlite3.Connection) -> bool:
    """True when the open database is at the current schema and was built from these very files."""
    if schema_revision(connection) != HEAD_REVISION:
        return False
    return stamp_matches(db_path, specs, read_meta(connection).get("content_hash"))


def open_fresh(db_path: Path, specs: Path) -> sqlite3.Connection:
    """Open the database for reading, building or refreshing it first when the specs changed."""
    if db_path.exists():
        connection = connect_readonly(db_path)
        if is_fresh(db_path, specs, connection):
            return connection
        connection.close()
    from specdb.builder import build

    build(specs, db_path)
    return connect_readonly(db_path)
