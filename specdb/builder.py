"""Build the database from a specs folder, atomically.

The new database is written to a temporary file beside the target, created by
the Alembic migrations, filled in one transaction, checked, and only then put
in place with an atomic rename. A failure at any point leaves the previous
database exactly as it was, and a reader holding it open keeps reading it.
Builds of one database are serialised by a lock file.
"""

from __future__ import annotations

import operator
import os
import sqlite3
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator, NamedTuple

from specdb.errors import DatabaseError, InvalidSpecs
from specdb.licensing import DATA_LICENSE
from specdb.locations import ServerDatabase
from specdb.specfiles import Stamp, content_digest, read_specs
from specdb.store import HEAD_REVISION, check_revision, holds, read_meta, schema_revision, stamp_matches, stamp_meta

if TYPE_CHECKING:
    from specdb.dataset import Dataset

LOCK_TIMEOUT_SECONDS = 120
COUNTS = "SELECT (SELECT COUNT(*) FROM record) + (SELECT COUNT(*) FROM source), (SELECT COUNT(*) FROM figure)"
# Referenced tables before the tables that refer to them.
TABLES_IN_LOAD_ORDER = ("Meta", "Record", "Source", "Alias", "RecordUse", "Figure", "CollectiveRun", "Claim", "Citation")
SIDE_FILES = ("-journal", "-wal", "-shm")


class BuildResult(NamedTuple):
    path: Path | ServerDatabase
    changed: bool
    records: int
    figures: int
    content_hash: str


def build(specs: Path, db_path: Path | ServerDatabase) -> BuildResult:
    """Make db_path hold exactly the specs; raise InvalidSpecs, leaving db_path alone, when they are wrong.

    Cheapest first: the files' metadata as recorded in the database; then
    their bytes against the database's content hash (recording the files'
    metadata anew when only it changed); only then a full validation and,
    under the lock, a new database. A PostgreSQL database is published the
    same way by `publish.py`.
    """
    if isinstance(db_path, ServerDatabase):
        from specdb.publish import publish

        return publish(specs, db_path)
    existing = _existing_state(db_path)
    if existing is not None and existing.revision != HEAD_REVISION:
        upgrade(db_path)
    dataset = validated_unless_held(specs, existing, lambda stamp: _restamp(db_path, specs, stamp, existing.meta))
    if dataset is None:
        return existing.result(db_path, changed=False)
    with _locked(db_path):
        # Another build may have finished the same work while this one validated.
        existing = _existing_state(db_path)
        if existing is not None and existing.revision == HEAD_REVISION and holds(existing.meta, specs, dataset.content_hash):
            _restamp(db_path, specs, dataset.stamp, existing.meta)
            return existing.result(db_path, changed=False)
        return _write(specs, db_path, dataset)


def validated_unless_held(specs: Path, existing: "Existing | None", restamp: Callable[[Stamp], None]) -> "Dataset | None":
    """None when the database already holds these specs; else the specs, validated (InvalidSpecs when they are wrong).

    Cheapest first: the files' metadata as the database recorded it; then
    their bytes against its content hash, recording the files' metadata anew
    through `restamp` when only it changed; only then a full validation.
    """
    if existing is not None and stamp_matches(existing.meta, specs):
        return None
    tree, files, stamp = read_specs(specs)
    if existing is not None and not tree.problems and all(file.raw is not None for file in files):
        if holds(existing.meta, specs, content_digest((file.relpath, file.raw) for file in files)):
            restamp(stamp)
            return None
    from specdb.dataset import load_tree

    dataset = load_tree(specs, tree, files, stamp)
    if not dataset.ok:
        raise InvalidSpecs(dataset.problems)
    return dataset


def _restamp(db_path: Path, specs: Path, stamp: Stamp | None, meta: dict[str, str]) -> None:
    """Record the files' current metadata in a database that already holds their bytes, so later reads need not reread them.

    An update of a few meta rows in one transaction, never a new file; a
    database that cannot be written keeps its stamp, which costs later reads a
    comparison of bytes and nothing else.
    """
    if stamp is None:
        return
    rows = stamp_meta(specs, stamp)
    # A file made read-only is left alone even by root, who could write it (see _refuse_read_only).
    if all(meta.get(key) == value for key, value in rows.items()) or not os.access(db_path, os.W_OK) or not db_path.stat().st_mode & 0o222:
        return
    try:
        connection = sqlite3.connect(f"{db_path.as_uri()}?mode=rw", uri=True, timeout=1)
        try:
            with connection:
                connection.executemany(
                    "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value", rows.items()
                )
        finally:
            connection.close()
    except sqlite3.Error:
        return


@contextmanager
def _locked(db_path: Path) -> Iterator[None]:
    """Hold the database's build lock; a lock that cannot be had or a folder that cannot be written is a DatabaseError.

    The lock file is opened once by hand first: a folder where it cannot be
    created fails at once with the real reason, instead of being retried as if
    another build held the lock.
    """
    from filelock import FileLock, Timeout

    lock_path = str(db_path) + ".lock"
    try:
        db_path.parent.mkdir(parents=True, exist_ok=True)
        os.close(os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644))
    except OSError as exc:
        raise DatabaseError(f"{db_path}: cannot write the database ({exc.strerror or exc})") from None
    try:
        with FileLock(lock_path, timeout=LOCK_TIMEOUT_SECONDS):
            yield
    except Timeout:
        raise DatabaseError(f"{db_path}: another build has held the lock for {LOCK_TIMEOUT_SECONDS} s") from None
    except OSError as exc:
        raise DatabaseError(f"{db_path}: cannot write the database ({exc.strerror or exc})") from None


def upgrade(db_path: Path) -> None:
    """Bring a database made by an older specdb to the current schema with the migrations, keeping every row.

    The migrations run on a copy (made with SQLite's backup API), which is
    checked and then renamed into place, so a crash leaves the old file whole.
    """
    _refuse_read_only(db_path, "was made by an older specdb and needs upgrading")
    with _locked(db_path):
        temporary = _temporary(db_path)
        try:
            source = sqlite3.connect(f"{db_path.as_uri()}?mode=ro", uri=True)
            copy = sqlite3.connect(temporary)
            try:
                source.backup(copy)
            finally:
                source.close()
                copy.close()
            _migrate_file(temporary)
            _check_database(temporary)
            _replace(temporary, db_path)
        finally:
            _discard(temporary)


def _temporary(db_path: Path) -> Path:
    """A new file beside the database; any left by a killed build are swept first (the caller holds the lock)."""
    for leftover in db_path.parent.glob(f".{db_path.name}.*.building*"):
        leftover.unlink(missing_ok=True)
    return db_path.with_name(f".{db_path.name}.{os.getpid()}.building")


def _discard(temporary: Path) -> None:
    temporary.unlink(missing_ok=True)
    for suffix in SIDE_FILES:
        Path(str(temporary) + suffix).unlink(missing_ok=True)


def _refuse_read_only(db_path: Path, why: str) -> None:
    """A database file made read-only is the user's wish: read it, never replace it (even as root, who could)."""
    if db_path.exists() and not db_path.stat().st_mode & 0o222:
        raise DatabaseError(f"{db_path}: the database file is read-only and {why}; make it writable or choose another --db")


def build_meta(specs: Path, dataset: Dataset) -> dict[str, str]:
    """The meta rows a new database gets: content hash, git revision, record format, licence and the files' stamp."""
    from specdb import schema

    return {
        "content_hash": dataset.content_hash,
        "git_revision": _git_revision(specs),
        "record_format": schema.SCHEMA_VERSION,
        "data_license": DATA_LICENSE,
        **(stamp_meta(specs, dataset.stamp) if dataset.stamp else {}),
    }


def _write(specs: Path, db_path: Path, dataset: Dataset) -> BuildResult:
    _refuse_read_only(db_path, "the specs changed")
    meta = build_meta(specs, dataset)
    temporary = _temporary(db_path)
    try:
        _write_database(temporary, dataset, meta)
        _replace(temporary, db_path)
    finally:
        _discard(temporary)
    _forget_side_stamp(db_path)
    return BuildResult(db_path, True, count_records(dataset), count_figures(dataset), dataset.content_hash)


class Existing(NamedTuple):
    revision: str
    meta: dict[str, str]
    records: int
    figures: int

    def result(self, db_path: Path | ServerDatabase, *, changed: bool) -> BuildResult:
        return BuildResult(db_path, changed, self.records, self.figures, self.meta.get("content_hash", ""))


def _forget_side_stamp(db_path: Path) -> None:
    """Remove the file beside the database where earlier versions kept the stamp; the data is already published, so failing here is no failure."""
    try:
        Path(str(db_path) + ".stamp").unlink(missing_ok=True)
    except OSError:
        pass


def _existing_state(db_path: Path) -> Existing | None:
    """The schema revision, meta and counts of the database at db_path; None when there is none.

    A file that is not a specdb database is never overwritten.
    """
    if not db_path.exists():
        return None
    try:
        # Read-write, so that SQLite may roll back a journal a crashed writer left; nothing is written here.
        connection = sqlite3.connect(f"{db_path.as_uri()}?mode=rw", uri=True)
        try:
            revision = schema_revision(connection)
            check_revision(db_path, revision)
            records, figures = connection.execute(COUNTS).fetchone()
            return Existing(revision, read_meta(connection), records, figures)
        finally:
            connection.close()
    except sqlite3.DatabaseError as exc:
        raise DatabaseError(f"{db_path}: exists and is not a specdb database ({exc}); delete it or choose another --db") from None


def _git_revision(specs: Path) -> str:
    import subprocess  # here, not at the top: a build with nothing to do never runs git

    try:
        result = subprocess.run(
            ["git", "-C", str(specs), "log", "-1", "--format=%H", "--", "."],
            capture_output=True, text=True, timeout=10, check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return ""
    return result.stdout.strip() if result.returncode == 0 else ""


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


def _migrate_file(path: Path) -> None:
    engine = _engine(path)
    try:
        with engine.begin() as connection:
            migrate(connection)
    finally:
        engine.dispose()


def _write_database(path: Path, dataset: Dataset, meta: dict[str, str]) -> None:
    from specdb import models
    from specdb.rows import dataset_rows

    engine = _engine(path)
    try:
        with engine.begin() as connection:
            migrate(connection)
            rows = dataset_rows(dataset, meta)
            # Column lists come from the SQLModel tables; the rows go straight to sqlite3 in this same transaction.
            raw = connection.connection.driver_connection
            for model in TABLES_IN_LOAD_ORDER:
                table = getattr(models, model).__table__
                columns = list(table.columns.keys())
                statement = f"INSERT INTO {table.name} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"
                raw.executemany(statement, map(operator.itemgetter(*columns), rows[table.name]))
    finally:
        engine.dispose()
    _check_database(path)


def _check_database(path: Path) -> None:
    connection = sqlite3.connect(path)
    try:
        integrity = connection.execute("PRAGMA integrity_check").fetchone()[0]
        broken = connection.execute("PRAGMA foreign_key_check").fetchall()
    finally:
        connection.close()
    if integrity != "ok" or broken:
        raise DatabaseError(f"{path}: the new database failed its check ({integrity}; {len(broken)} broken references)")
    with open(path, "rb") as handle:
        os.fsync(handle.fileno())


def _replace(temporary: Path, db_path: Path) -> None:
    # A journal or WAL left beside the target would be replayed onto the new file by the next opener.
    for suffix in SIDE_FILES:
        Path(str(db_path) + suffix).unlink(missing_ok=True)
    os.replace(temporary, db_path)
    # The rename is done and the new data published: making it durable is best effort, never a reported failure.
    try:
        directory = os.open(db_path.parent, os.O_RDONLY)
        try:
            os.fsync(directory)
        finally:
            os.close(directory)
    except OSError:
        pass


def count_records(dataset: Dataset) -> int:
    return len(dataset.records)


def count_figures(dataset: Dataset) -> int:
    from specdb import schema

    return sum(len(loaded.model.figures) for loaded in dataset.records.values() if isinstance(loaded.model, schema.Record))
