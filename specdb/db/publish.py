"""Publish the database to a PostgreSQL server, all or nothing.

The same Alembic migrations create the tables, in a new schema, and the same
rows (`rows.dataset_rows`) fill it; then, in the same transaction, the new
schema is renamed to `specdb` and the old one dropped. Readers see the old
publication or the new, never a mix and never an empty table; a build that
fails or is killed rolls back and leaves the published data as it was. Builds
are serialised by an advisory lock, and the rename waits for specdb readers
(see `postgres.py`). Roles granted the published schema keep their access.

Each publish adds a row to the publish log (`publication`: who, when, which
content hash, the one it replaced, which specdb), which lives in the
published schema: the new schema gets the old one's rows and its own, in the
same transaction as the rename, so a publish that fails logs nothing and a
reader's grant on the schema covers the log too.

A publish is the only write specdb makes to a server; a role that may not
make it (it needs CREATE on the database and to own the schema) is told so
before anything is read or written.

The checks before any work are those of the SQLite build: the files' stamp,
then their bytes against the content hash in `meta`.
"""

from __future__ import annotations

import operator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator

from specdb import __version__
from specdb.db.builder import (
    LOCK_TIMEOUT_SECONDS, BuildResult, Existing, build_meta, built,
    validated_unless_held,
)
from specdb.db.catalog import counts
from specdb.errors import DatabaseError
from specdb.locations import ServerDatabase
from specdb.db.migrate import migrate
from specdb.db.postgres import BUILD_LOCK, PUBLICATION_TABLE, READ_LOCK, SCHEMA, Reader, connect_server, driver, reason
from specdb.load.files import Stamp
from specdb.db.store import HEAD_REVISION, holds, read_meta, refuse_newer, stamp_changes

if TYPE_CHECKING:
    from specdb.load.dataset import Dataset

NEXT_SCHEMA = f"{SCHEMA}_next"
PREVIOUS_SCHEMA = f"{SCHEMA}_previous"
# Text must sort by code point, as in SQLite, for every command to print rows in the same order; asked of the server
# by sorting these, which any locale or ICU collation sorts otherwise.
COLLATION_PROBE = ("a", "B", "-", "_", "a-b", "ab", "Z", "é")

# SQLite's group_concat(value, separator), used by the figure_view migration and by `history`.
GROUP_CONCAT = f"""
CREATE FUNCTION {NEXT_SCHEMA}.group_concat_step(joined text, value text, separator text) RETURNS text
    LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE WHEN value IS NULL THEN joined WHEN joined IS NULL THEN value ELSE joined || separator || value END $$;
CREATE AGGREGATE {NEXT_SCHEMA}.group_concat(text, text) (SFUNC = {NEXT_SCHEMA}.group_concat_step, STYPE = text);
"""

# Roles (or PUBLIC) that may use the published schema, so the new one grants them the same.
READERS = f"""
SELECT CASE WHEN a.grantee = 0 THEN 'PUBLIC' ELSE quote_ident(r.rolname) END
FROM pg_namespace n CROSS JOIN LATERAL aclexplode(n.nspacl) a LEFT JOIN pg_roles r ON r.oid = a.grantee
WHERE n.nspname = '{SCHEMA}' AND a.privilege_type = 'USAGE' AND a.grantee <> n.nspowner
"""

# What a publish needs: to create the new schema, and to rename and drop the published one (its owner's right).
PUBLISH_RIGHTS = f"""
SELECT current_user, has_database_privilege(current_database(), 'CREATE'),
       COALESCE((SELECT pg_has_role(nspowner, 'USAGE') FROM pg_namespace WHERE nspname = '{SCHEMA}'), true)
"""

PUBLICATION_LOG = f"""
CREATE TABLE {NEXT_SCHEMA}.{PUBLICATION_TABLE} (
    number integer PRIMARY KEY,
    published_at timestamp with time zone NOT NULL,
    published_by text NOT NULL,
    content_hash text NOT NULL,
    previous_content_hash text,
    specdb_version text NOT NULL
)
"""
PUBLICATION_COLUMNS = "number, published_at, published_by, content_hash, previous_content_hash, specdb_version"


def publish(specs: Path, db: ServerDatabase) -> BuildResult:
    """Make the server's published data hold exactly the specs; raise InvalidSpecs, publishing nothing, when they are wrong."""
    with Reader.open(db) as reader:
        _require_publish_rights(reader, db)
        existing = _existing(reader, db)
    dataset = validated_unless_held(specs, existing, lambda stamp: _restamp(db, specs, stamp, existing.meta))
    if dataset is None:
        return existing.result(db, changed=False)
    with _build_connection(db) as connection:
        # Another build may have published the same data while this one validated.
        raw = connection.connection.driver_connection
        existing = _existing(Reader(raw, db), db)
        raw.commit()
        if existing is not None and holds(existing.meta, specs, dataset.content_hash):
            _restamp(db, specs, dataset.stamp, existing.meta)
            return existing.result(db, changed=False)
        _load(connection, dataset, build_meta(specs, dataset))
        connection.commit()
    return built(db, dataset)


def _require_publish_rights(reader: Reader, db: ServerDatabase) -> None:
    role, may_create, owns_schema = reader.execute(PUBLISH_RIGHTS).fetchone()
    if not (may_create and owns_schema):
        missing = "CREATE on the database" if not may_create else f"to own the schema {SCHEMA}, or be a member of the role that owns it"
        raise DatabaseError(f"{db}: permission denied: role {role} may not publish here (a publish needs {missing}); nothing was changed")


def _existing(reader: Reader, db: ServerDatabase) -> Existing | None:
    """What is published at the current schema; None when nothing is, or an older specdb published it (then all is rebuilt)."""
    revision = reader.schema_revision()
    if revision is None and reader.execute("SELECT to_regnamespace(?)", (SCHEMA,)).fetchone()[0] is not None:
        raise DatabaseError(f"{db}: has a schema {SCHEMA} that specdb did not publish (no schema version); drop it or use another database")
    refuse_newer(db, revision, made="published")
    if revision != HEAD_REVISION:
        return None
    records, sources, figures = counts(reader)
    return Existing(revision, read_meta(reader), records, sources, figures)


def _restamp(db: ServerDatabase, specs: Path, stamp: Stamp | None, meta: dict[str, str]) -> None:
    """Record the files' current metadata in the published meta (one small transaction; readers see the old rows or the new)."""
    rows = stamp_changes(specs, stamp, meta)
    if rows is None:
        return
    psycopg = driver()
    connection = connect_server(db, read_only=False)
    try:
        with connection.transaction():
            # Under the read lock no publish renames another schema into place, so the stamp lands on the data it describes.
            connection.execute("SELECT pg_advisory_xact_lock_shared(%s)", (READ_LOCK,))
            published = connection.execute("SELECT value FROM meta WHERE key = 'content_hash'").fetchone()
            if published is None or published[0] != meta.get("content_hash"):
                return
            connection.cursor().executemany(
                "INSERT INTO meta (key, value) VALUES (%s, %s) ON CONFLICT (key) DO UPDATE SET value = excluded.value", list(rows.items())
            )
    except psycopg.Error:
        # A server this role cannot write keeps its stamp; later reads compare bytes instead.
        return
    finally:
        connection.close()


@contextmanager
def _build_connection(db: ServerDatabase) -> Iterator[Any]:
    """A SQLAlchemy connection (for the migrations) holding the build lock; server errors become one-line DatabaseErrors."""
    psycopg = driver()
    from sqlalchemy import create_engine, exc
    from sqlalchemy.pool import NullPool

    raw = connect_server(db, read_only=False)
    engine = create_engine("postgresql+psycopg://", creator=lambda: raw, poolclass=NullPool)
    try:
        with engine.connect() as connection:
            connection.exec_driver_sql(f"SET lock_timeout = '{LOCK_TIMEOUT_SECONDS}s'")
            connection.exec_driver_sql("SELECT pg_advisory_lock(%s)", (BUILD_LOCK,))
            connection.commit()
            yield connection
    except exc.DBAPIError as error:
        if isinstance(error.orig, psycopg.errors.LockNotAvailable):
            raise DatabaseError(f"{db}: another build or a reader has held a lock for {LOCK_TIMEOUT_SECONDS} s") from None
        if isinstance(error.orig, psycopg.errors.InsufficientPrivilege):
            raise DatabaseError(f"{db}: permission denied: {reason(error.orig, db)}; nothing was changed") from None
        raise DatabaseError(f"{db}: the build failed ({reason(error.orig or error, db)})") from None
    finally:
        engine.dispose()
        raw.close()


def _load(connection: Any, dataset: Dataset, meta: dict[str, str]) -> None:
    """In the connection's open transaction: migrate a new schema, copy the rows in, and rename it into place."""
    from specdb.db import models
    from specdb.db.rows import TABLES, dataset_rows

    run = connection.exec_driver_sql
    server_order = run("SELECT array_agg(word ORDER BY word) FROM unnest(%s::text[]) AS word", (list(COLLATION_PROBE),)).scalar()
    if server_order != sorted(COLLATION_PROBE):
        raise DatabaseError(
            "the database sorts text by a locale; specdb needs the C collation so rows come out in the order SQLite gives"
            " (CREATE DATABASE name LOCALE 'C' TEMPLATE template0)"
        )
    run(f"DROP SCHEMA IF EXISTS {NEXT_SCHEMA} CASCADE")
    run(f"CREATE SCHEMA {NEXT_SCHEMA}")
    run(f"SET LOCAL search_path = {NEXT_SCHEMA}")
    run(GROUP_CONCAT)
    migrate(connection)
    rows = dataset_rows(dataset, meta)
    cursor = connection.connection.driver_connection.cursor()
    for name in TABLES:
        table = models.metadata.tables[name]
        columns = list(table.columns.keys())
        with cursor.copy(f"COPY {NEXT_SCHEMA}.{table.name} ({', '.join(columns)}) FROM STDIN") as copy:
            for row in map(operator.itemgetter(*columns), rows[table.name]):
                copy.write_row(row)
    _log_publication(run, meta["content_hash"])
    for role in [row[0] for row in run(READERS)]:
        run(f"GRANT USAGE ON SCHEMA {NEXT_SCHEMA} TO {role}")
        run(f"GRANT SELECT ON ALL TABLES IN SCHEMA {NEXT_SCHEMA} TO {role}")
    run("SELECT pg_advisory_xact_lock(%s)", (READ_LOCK,))
    if run("SELECT to_regnamespace(%s)", (SCHEMA,)).scalar() is not None:
        run(f"ALTER SCHEMA {SCHEMA} RENAME TO {PREVIOUS_SCHEMA}")
        run(f"ALTER SCHEMA {NEXT_SCHEMA} RENAME TO {SCHEMA}")
        run(f"DROP SCHEMA {PREVIOUS_SCHEMA} CASCADE")
    else:
        run(f"ALTER SCHEMA {NEXT_SCHEMA} RENAME TO {SCHEMA}")


def _log_publication(run: Any, content_hash: str) -> None:
    """In the new schema: the publish log so far (none before the first publish, or from a specdb that kept none) and this publish."""
    run(PUBLICATION_LOG)
    if run("SELECT to_regclass(%s)", (f"{SCHEMA}.{PUBLICATION_TABLE}",)).scalar() is not None:
        run(f"INSERT INTO {NEXT_SCHEMA}.{PUBLICATION_TABLE} ({PUBLICATION_COLUMNS}) SELECT {PUBLICATION_COLUMNS} FROM {SCHEMA}.{PUBLICATION_TABLE}")
    previous = None
    if run("SELECT to_regclass(%s)", (f"{SCHEMA}.meta",)).scalar() is not None:
        previous = run(f"SELECT value FROM {SCHEMA}.meta WHERE key = 'content_hash'").scalar()
    run(
        f"INSERT INTO {NEXT_SCHEMA}.{PUBLICATION_TABLE} ({PUBLICATION_COLUMNS})"
        f" SELECT COALESCE(MAX(number), 0) + 1, clock_timestamp(), current_user, %s, %s, %s FROM {NEXT_SCHEMA}.{PUBLICATION_TABLE}",
        (content_hash, previous, __version__),
    )
