"""Run the Alembic migrations: on an open SQLAlchemy connection (SQLite or PostgreSQL), on a SQLite file, or on a
temporary copy of one made by an older specdb, to read it as this specdb reads its own.

The one place specdb imports Alembic and SQLAlchemy to change a schema; a new
SQLite database gets the same schema from `sqlschema` without them.
"""

from __future__ import annotations

import sqlite3
import tempfile
from contextlib import contextmanager
from pathlib import Path
from collections.abc import Iterator
from typing import Any

from specdb.db.store import HEAD_REVISION, connect_readonly, schema_revision
from specdb.errors import DatabaseError


def migrate(connection: Any, revision: str = "head") -> None:
    """Run the Alembic migrations on an open SQLAlchemy connection."""
    from alembic import command
    from alembic.config import Config

    from specdb.resources import migrations_dir

    config = Config()
    config.set_main_option("script_location", str(migrations_dir()))
    config.attributes["connection"] = connection
    command.upgrade(config, revision)


def _engine(path: Path) -> Any:
    from sqlalchemy import create_engine, event
    from sqlalchemy.pool import NullPool

    engine = create_engine(f"sqlite:///{path}", poolclass=NullPool)
    event.listen(engine, "connect", lambda connection, _: connection.execute("PRAGMA foreign_keys = ON"))
    return engine


def migrate_file(path: Path) -> None:
    engine = _engine(path)
    try:
        with engine.begin() as connection:
            migrate(connection)
    finally:
        engine.dispose()


@contextmanager
def at_current_schema(path: Path) -> Iterator[Path]:
    """A database file at this specdb's schema to read: the file itself when it is at it, else a temporary copy
    brought there by the migrations (every earlier schema only lacks tables, which the migrations add empty).

    The user's file is only ever read: the copy is made with SQLite's backup API from a read-only connection, in a
    temporary folder removed afterwards. A file made by a newer specdb, or not by specdb, is refused.
    """
    reader = connect_readonly(path)
    try:
        revision = schema_revision(reader)
        if revision == HEAD_REVISION:
            yield path
            return
        try:
            folder = tempfile.TemporaryDirectory(prefix="specdb-migrated-")
        except OSError as error:
            raise DatabaseError(f"{path}: no room for a copy to bring to the current schema ({error.strerror or error})") from None
        with folder:
            copy_path = Path(folder.name) / "migrated.sqlite"
            _migrated_copy(reader, path, revision, copy_path)
            reader.close()
            yield copy_path
    finally:
        reader.close()


def _migrated_copy(reader: sqlite3.Connection, path: Path, revision: str | None, copy_path: Path) -> None:
    from alembic.util import CommandError
    from sqlalchemy.exc import SQLAlchemyError

    try:
        copy = sqlite3.connect(copy_path)
        try:
            reader.backup(copy)
        finally:
            copy.close()
        migrate_file(copy_path)
    except (sqlite3.Error, SQLAlchemyError, CommandError, OSError) as error:
        raise DatabaseError(
            f"{path}: made by an older specdb (schema revision {revision}), and a copy of it could not be brought to revision {HEAD_REVISION} ({error})"
        ) from None
