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
import subprocess
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Iterator

from specdb.errors import DatabaseError, InvalidSpecs
from specdb.licensing import DATA_LICENSE
from specdb.specfiles import content_digest, spec_files, stat_fingerprint
from specdb.store import HEAD_REVISION, check_revision, read_meta, schema_revision, stamp_matches, write_stamp

if TYPE_CHECKING:
    from specdb import schema
    from specdb.dataset import Dataset

LOCK_TIMEOUT_SECONDS = 120
SIDE_FILES = ("-journal", "-wal", "-shm")


@dataclass(frozen=True)
class BuildResult:
    path: Path
    changed: bool
    records: int
    figures: int
    content_hash: str


def build(specs: Path, db_path: Path) -> BuildResult:
    """Make db_path hold exactly the specs; raise InvalidSpecs, leaving db_path alone, when they are wrong.

    Cheapest first: the files' names, sizes and times as last built; then
    their bytes against the database's content hash; only then a full
    validation and, under the lock, a new database.
    """
    unchanged = _unchanged(specs, db_path)
    if unchanged is not None:
        return unchanged
    from specdb.dataset import load_specs

    dataset = load_specs(specs)
    if not dataset.ok:
        raise InvalidSpecs(dataset.problems)
    with _locked(db_path):
        # Another build may have finished the same work while this one validated.
        return _unchanged(specs, db_path) or _write(specs, db_path, dataset)


@contextmanager
def _locked(db_path: Path) -> Iterator[None]:
    """Hold the database's build lock; a lock that cannot be had or a folder that cannot be written is a DatabaseError."""
    from filelock import FileLock, Timeout

    try:
        db_path.parent.mkdir(parents=True, exist_ok=True)
        with FileLock(str(db_path) + ".lock", timeout=LOCK_TIMEOUT_SECONDS):
            yield
    except Timeout:
        raise DatabaseError(f"{db_path}: another build has held the lock for {LOCK_TIMEOUT_SECONDS} s") from None
    except OSError as exc:
        raise DatabaseError(f"{db_path}: cannot write the database ({exc.strerror or exc})") from None


def _unchanged(specs: Path, db_path: Path) -> BuildResult | None:
    """A result when the database already holds these specs (recording the files' current times if needed), else None."""
    existing = _existing_state(db_path)
    if existing is None:
        return None
    revision, content_hash, records, figures = existing
    if revision != HEAD_REVISION:
        upgrade(db_path)
    fingerprint = stat_fingerprint(specs)
    if not stamp_matches(db_path, specs, content_hash, fingerprint):
        if content_digest((relpath, path.read_bytes()) for relpath, path in spec_files(specs)) != content_hash:
            return None
        write_stamp(db_path, specs, fingerprint, content_hash)
    return BuildResult(db_path, False, records, figures, content_hash)


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


def _write(specs: Path, db_path: Path, dataset: Dataset) -> BuildResult:
    from specdb import schema

    _refuse_read_only(db_path, "the specs changed")
    fingerprint = stat_fingerprint(specs)
    meta = {
        "content_hash": dataset.content_hash,
        "git_revision": _git_revision(specs),
        "record_format": schema.SCHEMA_VERSION,
        "data_license": DATA_LICENSE,
    }
    temporary = _temporary(db_path)
    try:
        _write_database(temporary, dataset, meta)
        _replace(temporary, db_path)
    finally:
        _discard(temporary)
    write_stamp(db_path, specs, fingerprint, dataset.content_hash)
    return BuildResult(db_path, True, _count_records(dataset), _count_figures(dataset), dataset.content_hash)


def _existing_state(db_path: Path) -> tuple[str, str, int, int] | None:
    """(schema revision, content hash, records, figures) of the database at db_path; None when there is none.

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
            content_hash = read_meta(connection).get("content_hash", "")
            records, figures = connection.execute(
                "SELECT (SELECT COUNT(*) FROM record) + (SELECT COUNT(*) FROM source), (SELECT COUNT(*) FROM figure)"
            ).fetchone()
            return revision, content_hash, records, figures
        finally:
            connection.close()
    except sqlite3.DatabaseError as exc:
        raise DatabaseError(f"{db_path}: exists and is not a specdb database ({exc}); delete it or choose another --db") from None


def _git_revision(specs: Path) -> str:
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

    engine = _engine(path)
    try:
        with engine.begin() as connection:
            migrate(connection)
            rows = _rows(dataset, meta)
            # Column lists come from the SQLModel tables; the rows go straight to sqlite3 in this same transaction.
            raw = connection.connection.driver_connection
            for model in (models.Meta, models.Record, models.Source, models.Alias, models.RecordUse, models.Figure, models.Claim, models.Citation):
                table = model.__table__
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
    directory = os.open(db_path.parent, os.O_RDONLY)
    try:
        os.fsync(directory)
    finally:
        os.close(directory)


def _count_records(dataset: Dataset) -> int:
    return len(dataset.records)


def _count_figures(dataset: Dataset) -> int:
    from specdb import schema

    return sum(len(loaded.model.figures) for loaded in dataset.records.values() if isinstance(loaded.model, schema.Record))


def _policy_text(period: schema.Period | None) -> str | None:
    return None if period is None else f"{period.count} {period.period}"


def effective_policy(dataset: Dataset, record: schema.Record, figure: schema.Figure) -> tuple[str | None, str | None]:
    """warn_after and error_after for a figure: the figure's own, else its record's, else its kind's; an explicit null switches one off."""
    kind_policy = dataset.policies.review.get(record.kind) if dataset.policies else None
    chosen = []
    for key in ("warn_after", "error_after"):
        value = None
        for policy in (figure.review, record.review, kind_policy):
            if policy is not None and key in policy.model_fields_set:
                value = getattr(policy, key)
                break
        chosen.append(_policy_text(value))
    return chosen[0], chosen[1]


def _rows(dataset: Dataset, meta: dict[str, str]) -> dict[str, list[dict[str, Any]]]:
    from specdb import schema

    rows: dict[str, list[dict[str, Any]]] = {name: [] for name in ("meta", "record", "source", "alias", "record_use", "figure", "claim", "citation")}
    rows["meta"] = [{"key": key, "value": value} for key, value in sorted(meta.items())]
    figure_id = claim_id = citation_id = 0

    def cite(citations: Iterable[schema.SourceCitation], figure: int, claim: int | None) -> None:
        nonlocal citation_id
        for position, citation in enumerate(citations):
            citation_id += 1
            rows["citation"].append({
                "id": citation_id, "figure_id": figure, "claim_id": claim, "position": position,
                "source_id": citation.ref, "quote": citation.quote, "locator": citation.locator, "note": citation.note,
            })

    for record_id in sorted(dataset.records):
        loaded = dataset.records[record_id]
        model = loaded.model
        if isinstance(model, schema.SourceRecord):
            rows["source"].append({
                "id": model.id, "name": model.name, "publisher": model.publisher, "url": model.url,
                "citation": model.citation, "published": _iso(model.published), "accessed": _iso(model.accessed),
                "notes": model.notes, "path": loaded.relpath,
            })
            continue
        rows["record"].append({
            "id": model.id, "kind": model.kind, "name": model.name, "vendor": model.vendor, "family": model.family,
            "released": model.released.text if model.released else None, "released_date": _iso(model.released),
            "notes": model.notes, "path": loaded.relpath,
        })
        for alias in model.aliases:
            rows["alias"].append({"alias_key": alias.casefold(), "alias": alias, "record_id": model.id})
        for role, target in sorted(model.uses.items()):
            rows["record_use"].append({"record_id": model.id, "role": role, "target_id": target})
        for name in sorted(model.figures):
            figure = model.figures[name]
            figure_id += 1
            warn_after, error_after = effective_policy(dataset, model, figure)
            rows["figure"].append({
                "id": figure_id, "record_id": model.id, "name": name,
                "value_text": figure.value.text, "value": figure.value.value, "unit": figure.value.unit,
                "dimension": figure.value.dimension, "direction": figure.direction, "scope": figure.scope,
                "status": figure.status, "as_of": _iso(figure.as_of), "as_of_text": figure.as_of.text,
                "reviewed": _iso(figure.reviewed), "reviewed_text": figure.reviewed.text,
                "precision": figure.precision, "sparsity": figure.sparsity, "method": figure.method,
                "note": figure.note, "uncertainty": figure.uncertainty,
                "derived_product": " ".join(figure.derived.product) if figure.derived else None,
                "derived_factor": figure.derived.factor if figure.derived else None,
                "warn_after": warn_after, "error_after": error_after,
            })
            cite(figure.sources, figure_id, None)
            claims: list[tuple[str, Any]] = [("history", entry) for entry in figure.history]
            claims += [("alternative", entry) for entry in figure.alternatives]
            positions = {"history": 0, "alternative": 0}
            for claim_kind, claim in claims:
                claim_id += 1
                rows["claim"].append({
                    "id": claim_id, "figure_id": figure_id, "claim_kind": claim_kind, "position": positions[claim_kind],
                    "value_text": claim.value.text, "value": claim.value.value, "unit": claim.value.unit,
                    "status": claim.status, "direction": getattr(claim, "direction", None), "scope": getattr(claim, "scope", None),
                    "as_of": _iso(claim.as_of), "reviewed": _iso(getattr(claim, "reviewed", None)),
                    "reason": getattr(claim, "reason", None), "note": getattr(claim, "note", None),
                })
                positions[claim_kind] += 1
                cite(claim.sources, figure_id, claim_id)
    return rows


def _iso(date: schema.SpecDate | None) -> str | None:
    return date.day.isoformat() if date else None
