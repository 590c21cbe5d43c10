"""The database of a specs folder, a SQLite file or a PostgreSQL server's schema: build it, and open it (a file fresh, a server as published).

`builder` writes a SQLite file, `publish` a server's schema and `store` (with
`postgres` for a server) reads one; this module chooses between them and sits
above all of them, so none of them imports its own caller.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING

from specdb.locations import ServerDatabase
from specdb.db.store import connect_readonly, is_fresh

if TYPE_CHECKING:
    from specdb.db.builder import BuildResult
    from specdb.db.postgres import Reader


def build(specs: Path, db: Path | ServerDatabase) -> BuildResult:
    """Make db hold exactly the specs (see `builder.build`; a server is published to by `publish.publish`)."""
    if isinstance(db, ServerDatabase):
        from specdb.db.publish import publish

        return publish(specs, db)
    from specdb.db.builder import build as build_file  # a fresh database is read without importing the build

    return build_file(specs, db)


def open_fresh(db: Path | ServerDatabase, specs: Path, *, refresh: bool = False, wait: float | None = None) -> sqlite3.Connection:
    """Open the database for reading; a SQLite file is built or refreshed first when the specs changed, a server never.

    A server is written only by a publish (`build`, or here `refresh`): a read opens the publication as it is and says
    once on stderr when it does not hold these specs. A PostgreSQL database gives a reader that the read functions use
    as they use a sqlite3 connection (see `postgres.py`); it waits at most `wait` seconds (default
    `postgres.LOCK_WAIT_SECONDS`) for a publish to let it read.
    """
    if isinstance(db, ServerDatabase):
        if refresh:
            build(specs, db)
        return _open_published(db, specs, wait)  # type: ignore[return-value]
    if db.exists() and not refresh:
        connection = connect_readonly(db)
        if is_fresh(specs, connection):
            return connection
        connection.close()
    build(specs, db)
    return connect_readonly(db)


def _open_published(db: ServerDatabase, specs: Path, wait: float | None) -> Reader:
    """A reader of the publication as it is, having said whether it holds the specs."""
    from specdb.db import postgres
    from specdb.db.publication import warn_if_other_specs

    reader = postgres.connect_readonly(db, wait=postgres.LOCK_WAIT_SECONDS if wait is None else wait)
    try:
        warn_if_other_specs(reader, db, specs)
    except BaseException:
        reader.close()
        raise
    return reader
