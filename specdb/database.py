"""The database of a specs folder, a SQLite file or a PostgreSQL server's schema: build it, and open it fresh.

`builder` writes a SQLite file, `publish` a server's schema and `store` (with
`postgres` for a server) reads one; this module chooses between them and sits
above all of them, so none of them imports its own caller.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING

from specdb.locations import ServerDatabase
from specdb.store import HEAD_REVISION, connect_readonly, is_fresh, read_meta, stamp_matches

if TYPE_CHECKING:
    from specdb.builder import BuildResult
    from specdb.postgres import Reader


def build(specs: Path, db: Path | ServerDatabase) -> BuildResult:
    """Make db hold exactly the specs (see `builder.build`; a server is published to by `publish.publish`)."""
    if isinstance(db, ServerDatabase):
        from specdb.publish import publish

        return publish(specs, db)
    from specdb.builder import build as build_file  # a fresh database is read without importing the build

    return build_file(specs, db)


def open_fresh(db: Path | ServerDatabase, specs: Path, *, wait: float | None = None) -> sqlite3.Connection:
    """Open the database for reading, building or refreshing it first when the specs changed.

    A PostgreSQL database gives a reader that the read functions use as they use a sqlite3 connection (see `postgres.py`);
    it waits at most `wait` seconds (default `postgres.LOCK_WAIT_SECONDS`) for a publish to let it read.
    """
    if isinstance(db, ServerDatabase):
        return _open_server(db, specs, wait)  # type: ignore[return-value]
    if db.exists():
        connection = connect_readonly(db)
        if is_fresh(specs, connection):
            return connection
        connection.close()
    build(specs, db)
    return connect_readonly(db)


def _open_server(db: ServerDatabase, specs: Path, wait: float | None) -> Reader:
    """Read the published data, publishing first when it is missing or older than the specs."""
    from specdb import postgres

    wait = postgres.LOCK_WAIT_SECONDS if wait is None else wait
    reader = postgres.Reader.open(db, wait=wait)
    if reader.schema_revision() == HEAD_REVISION and stamp_matches(read_meta(reader), specs):
        return reader
    reader.close()
    build(specs, db)
    return postgres.connect_readonly(db, wait=wait)
