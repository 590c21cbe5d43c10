"""The SQLite schema the Alembic migrations make, kept as a script so a new database is made without importing Alembic.

`schema.sql` beside this module is generated from the migrations
(`python -m specdb.db.sqlschema`); a test runs the migrations and fails when the
file differs from what they make now. Upgrading an existing database still
runs the migrations themselves.
"""

from __future__ import annotations

import sqlite3
import tempfile
from pathlib import Path

SCRIPT = Path(__file__).with_name("schema.sql")
HEADER = "-- Generated from the Alembic migrations by `python -m specdb.db.sqlschema`; do not edit.\n"


def create(connection: sqlite3.Connection) -> None:
    """Make the migrations' schema, at their head revision, in an empty database."""
    connection.executescript(SCRIPT.read_text(encoding="utf-8"))


def script_from_migrations() -> str:
    """The script that makes the schema the migrations make: every table, index, view and trigger as SQLite stores it, and the revision."""
    from specdb.db.migrate import migrate_file

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "migrated.sqlite"
        migrate_file(path)
        connection = sqlite3.connect(path)
        try:
            statements = [sql for (sql,) in connection.execute("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY rowid")]
            revisions = [revision for (revision,) in connection.execute("SELECT version_num FROM alembic_version")]
        finally:
            connection.close()
    statements += [f"INSERT INTO alembic_version (version_num) VALUES ('{revision}')" for revision in revisions]
    return HEADER + "".join(f"{statement};\n" for statement in statements)


if __name__ == "__main__":
    SCRIPT.write_text(script_from_migrations(), encoding="utf-8")
    print(f"{SCRIPT}: written")
