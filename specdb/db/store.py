"""The read side of the database: open it read-only with the standard library, and tell whether it is fresh.

Nothing here imports SQLAlchemy, SQLModel, Alembic or pydantic, so a read
command on an up-to-date database starts in a few tens of milliseconds
(`database.open_fresh` pulls in the build only for a missing or stale database).
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from specdb import __version__
from specdb.errors import DatabaseError
from specdb.locations import require_regular_file
from specdb.load.files import Stamp, current_stamp, walk
from specdb.resources import migrations_dir

# The Alembic revisions this code knows, named by their migration files (`0004_record_digest.py` is revision 0004; a
# test checks each file declares the revision its name gives); the last is the one it reads and writes.
KNOWN_REVISIONS = tuple(sorted(
    name.partition("_")[0] for name in os.listdir(migrations_dir() / "versions") if name[:1].isdigit() and name.endswith(".py")
))
HEAD_REVISION = KNOWN_REVISIONS[-1]


def connect_readonly(path: Path) -> sqlite3.Connection:
    """A read-only connection: writes through it fail, and it never creates a file."""
    if not path.exists():
        raise DatabaseError(f"{path}: database not found")
    require_regular_file(path)
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
    refuse_newer(path, revision, made="made", advice="Upgrade specdb or use another --db")


def refuse_newer(where: object, revision: str | None, *, made: str, advice: str = "Upgrade specdb") -> None:
    """A database or publication at a schema revision this specdb does not know was made by a newer one: refused,
    never read or changed."""
    if revision is not None and revision not in KNOWN_REVISIONS:
        raise DatabaseError(f"{where}: {made} by a newer specdb (schema revision {revision}); this specdb knows up to {HEAD_REVISION}. {advice}")


def read_meta(connection: sqlite3.Connection) -> dict[str, str]:
    return {row[0]: row[1] for row in connection.execute("SELECT key, value FROM meta")}


def stamp_meta(specs: Path, stamp: Stamp) -> dict[str, str]:
    """The meta rows that say which spec files, as last read, a database holds; written with the data, in one replace."""
    return {
        "specs_dir": str(specs),
        "spec_files": stamp.digest,
        "spec_files_racy": "yes" if stamp.racy else "no",
        "specdb_version": __version__,
    }


def stamp_changes(specs: Path, stamp: Stamp | None, meta: dict[str, str]) -> dict[str, str] | None:
    """The meta rows a restamp writes, or None when there is no stamp or the database already holds these rows."""
    if stamp is None:
        return None
    rows = stamp_meta(specs, stamp)
    return None if all(meta.get(key) == value for key, value in rows.items()) else rows


def could_hold(meta: dict[str, str], specs: Path) -> bool:
    """Whether a database with this meta was built by this specdb from this specs folder: only then can its content hash say it holds the files."""
    return meta.get("specs_dir") == str(specs) and meta.get("specdb_version") == __version__ and bool(meta.get("content_hash"))


def holds(meta: dict[str, str], specs: Path, content_hash: str) -> bool:
    """Whether a database with this meta was built by this specdb from exactly these bytes of this specs folder."""
    return could_hold(meta, specs) and meta.get("content_hash") == content_hash


def stamp_matches(meta: dict[str, str], specs: Path) -> bool:
    """Whether the files' metadata alone proves they are the ones the database was built from (see specfiles)."""
    if meta.get("spec_files_racy") != "no" or not could_hold(meta, specs):
        return False
    tree = walk(specs)
    if tree.problems:
        return False
    return current_stamp(tree) == meta.get("spec_files")


def is_fresh(specs: Path, connection: sqlite3.Connection) -> bool:
    """True when the open database is at the current schema and was built from these very files."""
    return schema_revision(connection) == HEAD_REVISION and stamp_matches(read_meta(connection), specs)
