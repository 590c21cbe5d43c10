"""Run the Alembic migrations: on an open SQLAlchemy connection (SQLite or PostgreSQL), or on a SQLite file.

The one place specdb imports Alembic and SQLAlchemy to change a schema; a new
SQLite database gets the same schema from `sqlschema` without them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any


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
