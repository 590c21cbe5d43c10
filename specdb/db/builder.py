"""Build the database from a specs folder, atomically.

The new database is written to a temporary file beside the target: its schema
is the migrations' (see `sqlschema`), and each record goes in, in one
transaction, as soon as it is validated, so neither the validated records nor
their rows are held for the whole build. The file is checked and only then put
in place with an atomic rename. A failure at any point, or any problem in the
specs, leaves the previous database exactly as it was, and a reader holding it
open keeps reading it. Builds of one database are serialised by a lock file.
"""

from __future__ import annotations

import gc
import operator
import os
import sqlite3
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator, NamedTuple

from specdb.db.catalog import counts
from specdb.errors import DatabaseError, InvalidSpecs
from specdb.licensing import DATA_LICENSE
from specdb.locations import ServerDatabase
from specdb.load.files import FolderFiles, Stamp, Tree, read_specs
from specdb.db.store import HEAD_REVISION, check_revision, could_hold, holds, read_meta, schema_revision, stamp_changes, stamp_matches, stamp_meta

if TYPE_CHECKING:
    from specdb.format import schema
    from specdb.load.dataset import Dataset

LOCK_TIMEOUT_SECONDS = 120
SIDE_FILES = ("-journal", "-wal", "-shm")
# Rows gathered before they are inserted: enough for executemany to pay, few enough to keep memory flat.
ROWS_PER_BATCH = 5000


class BuildResult(NamedTuple):
    """What a build made: records (sources apart, as `validate` and `info` count them), sources and figures."""

    path: Path | ServerDatabase
    changed: bool
    records: int
    sources: int
    figures: int
    content_hash: str
    # The files read through a conversion from an older record format, which `specdb upgrade` rewrites.
    converted: tuple[str, ...] = ()


def built(path: Path | ServerDatabase, dataset: Dataset) -> BuildResult:
    """The result of a build that read and wrote every record of `dataset`."""
    return BuildResult(path, True, dataset.record_count, dataset.source_count, dataset.figure_count, dataset.content_hash, tuple(dataset.converted))


def build(specs: Path, db_path: Path) -> BuildResult:
    """Make the SQLite file db_path hold exactly the specs; raise InvalidSpecs, leaving db_path alone, when they are wrong.

    Cheapest first: the files' metadata as recorded in the database; then
    their bytes against the database's content hash (recording the files'
    metadata anew when only it changed); only then, under the lock, a
    validation that writes the new database as it goes. A PostgreSQL database
    is published the same way by `publish.py` (`database.build` chooses).
    """
    existing = _existing_state(db_path)
    if existing is not None and existing.revision != HEAD_REVISION:
        upgrade(db_path)
    tree = tree_unless_held(specs, existing, lambda stamp: _restamp(db_path, specs, stamp, existing.meta))
    if tree is None:
        return existing.result(db_path, changed=False)
    with collection_paused():
        return _build_new(specs, db_path, tree)


def tree_unless_held(specs: Path, existing: "Existing | None", restamp: Callable[[Stamp], None]) -> Tree | None:
    """None when the database already holds these specs; else the specs folder's files, to be validated.

    Cheapest first: the files' metadata as the database recorded it; then
    their bytes against its content hash (read one at a time and let go),
    recording the files' metadata anew through `restamp` when only it changed.
    """
    if existing is not None and stamp_matches(existing.meta, specs):
        return None
    tree, files = read_specs(specs)
    if existing is not None and _holds_read(specs, existing, tree, files):
        restamp(files.stamp())
        return None
    return tree


def _holds_read(specs: Path, existing: "Existing", tree: Tree, files: FolderFiles) -> bool:
    """Whether the database holds the files' bytes as they read now; files it cannot hold are not read."""
    if tree.problems or not could_hold(existing.meta, specs):
        return False
    files.read_all()
    return files.whole and holds(existing.meta, specs, files.content_hash())


def validated_unless_held(specs: Path, existing: "Existing | None", restamp: Callable[[Stamp], None]) -> "Dataset | None":
    """None when the database already holds these specs (see `tree_unless_held`); else the specs, validated (InvalidSpecs when they are wrong)."""
    tree = tree_unless_held(specs, existing, restamp)
    return None if tree is None else validated(specs, tree)


def validated(specs: Path, tree: Tree) -> "Dataset":
    """Every record, validated and kept; InvalidSpecs with every problem when any is wrong."""
    from specdb.load.dataset import load_tree

    dataset = load_tree(specs, tree, FolderFiles(tree))
    if not dataset.ok:
        raise InvalidSpecs(dataset.problems)
    return dataset


@contextmanager
def collection_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while a build makes objects that live until it ends.

    Its passes over them would find nothing to free (records are freed by
    reference counting once written) and would cost about a third of a large
    build. The objects that exist before the build are frozen out of its view.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()
        if was_enabled:
            gc.enable()


def _build_new(specs: Path, db_path: Path, tree: Tree) -> BuildResult:
    """Under the lock, validate the specs into a new database and put it in place; a database that cannot be written reports the specs' problems first."""
    with _locked_or_validated(specs, db_path, tree):
        # Another build may have finished the same work while this one waited for the lock.
        existing = _existing_state(db_path)
        if existing is not None and existing.revision == HEAD_REVISION:
            files = FolderFiles(tree)
            if _holds_read(specs, existing, tree, files):
                _restamp(db_path, specs, files.stamp(), existing.meta)
                return existing.result(db_path, changed=False)
        temporary = _temporary(db_path)
        try:
            dataset = _write_database(temporary, specs, tree)
            _replace(temporary, db_path)
        finally:
            _discard(temporary)
    _forget_side_stamp(db_path)
    return built(db_path, dataset)


@contextmanager
def _locked_or_validated(specs: Path, db_path: Path, tree: Tree) -> Iterator[None]:
    """Hold the build lock on a database that may be replaced; when it may not, the specs' own problems are reported before that."""
    with ExitStack() as stack:
        try:
            _refuse_read_only(db_path, "the specs changed")
            stack.enter_context(_locked(db_path))
        except DatabaseError:
            validated(specs, tree)
            raise
        yield


def _restamp(db_path: Path, specs: Path, stamp: Stamp | None, meta: dict[str, str]) -> None:
    """Record the files' current metadata in a database that already holds their bytes, so later reads need not reread them.

    An update of a few meta rows in one transaction, never a new file; a
    database that cannot be written keeps its stamp, which costs later reads a
    comparison of bytes and nothing else.
    """
    rows = stamp_changes(specs, stamp, meta)
    # A file made read-only is left alone even by root, who could write it (see _refuse_read_only).
    if rows is None or not os.access(db_path, os.W_OK) or not db_path.stat().st_mode & 0o222:
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
            from specdb.db.migrate import migrate_file  # Alembic only for a database that needs upgrading

            migrate_file(temporary)
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
    from specdb.format import schema

    return {
        "content_hash": dataset.content_hash,
        "git_revision": _git_revision(specs),
        "record_format": schema.SCHEMA_VERSION,
        "data_license": DATA_LICENSE,
        **(stamp_meta(specs, dataset.stamp) if dataset.stamp else {}),
    }


class Existing(NamedTuple):
    revision: str
    meta: dict[str, str]
    records: int
    sources: int
    figures: int

    def result(self, db_path: Path | ServerDatabase, *, changed: bool) -> BuildResult:
        return BuildResult(db_path, changed, self.records, self.sources, self.figures, self.meta.get("content_hash", ""))


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
            records, sources, figures = counts(connection)
            return Existing(revision, read_meta(connection), records, sources, figures)
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


def _write_database(path: Path, specs: Path, tree: Tree) -> Dataset:
    """Validate the specs, writing each valid record into a new database at path; InvalidSpecs, with every problem, when any is wrong.

    The file is discarded on failure and renamed into place on success, so
    it needs no journal of its own: the rename is what makes the build atomic.
    """
    from specdb.db import sqlschema
    from specdb.load.dataset import load_tree
    from specdb.db.rows import meta_rows

    connection = sqlite3.connect(path, isolation_level=None)
    try:
        connection.execute("PRAGMA journal_mode = OFF")
        connection.execute("PRAGMA synchronous = OFF")
        sqlschema.create(connection)
        connection.execute("BEGIN")
        writer = _RowWriter(connection)
        dataset = load_tree(specs, tree, FolderFiles(tree), write=writer.write)
        if not dataset.ok:
            raise InvalidSpecs(dataset.problems)
        writer.add("meta", meta_rows(build_meta(specs, dataset)))
        writer.flush()
        if writer.refused is not None:
            raise DatabaseError(f"{path}: the new database refused a row the validation let through ({writer.refused})")
        connection.execute("COMMIT")
    finally:
        connection.close()
    _check_database(path)
    return dataset


class _RowWriter:
    """Inserts records' rows as they come, a batch at a time, numbering them as `rows.dataset_rows` does.

    A row the database refuses (two aliases that differ only in case, say)
    stops the writing; the validation reports the cause with its location.
    """

    def __init__(self, connection: sqlite3.Connection) -> None:
        from specdb.db.rows import TABLES, Numbering

        self.connection = connection
        self.numbering = Numbering()
        self.pending: dict[str, list[tuple[Any, ...]]] = {table: [] for table in TABLES}
        self.count = 0
        self.refused: sqlite3.IntegrityError | None = None
        self.statements: dict[str, str] = {}
        self.columns: dict[str, Callable[[dict[str, Any]], tuple[Any, ...]]] = {}
        for table in TABLES:
            names = [row[1] for row in connection.execute(f"PRAGMA table_info({table})")]
            self.statements[table] = f"INSERT INTO {table} ({', '.join(names)}) VALUES ({', '.join('?' * len(names))})"
            self.columns[table] = operator.itemgetter(*names)

    def write(self, model: schema.Record | schema.SourceRecord, relpath: str, policies: schema.KindPolicies | None) -> None:
        from specdb.db.rows import record_rows

        pending, columns = self.pending, self.columns
        for table, row in record_rows(model, relpath, policies, self.numbering):
            pending[table].append(columns[table](row))
            self.count += 1
        if self.count >= ROWS_PER_BATCH:
            self.flush()

    def add(self, table: str, rows: list[dict[str, Any]]) -> None:
        self.pending[table].extend(map(self.columns[table], rows))

    def flush(self) -> None:
        for table, rows in self.pending.items():
            if rows and self.refused is None:
                try:
                    self.connection.executemany(self.statements[table], rows)
                except sqlite3.IntegrityError as refused:
                    self.refused = refused
            rows.clear()
        self.count = 0


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


