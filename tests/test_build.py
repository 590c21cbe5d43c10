"""The database: schema from the migrations, atomic and repeatable builds, refresh on change."""

import sqlite3
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine, inspect

from conftest import heavy_modules_loaded
from specdb.db import models
from specdb.db.builder import build
from specdb.db.migrate import migrate
from specdb.errors import DatabaseError, InvalidSpecs
from specdb.resources import migrations_dir
from specdb.db.access import open_fresh
from specdb.db.store import HEAD_REVISION, KNOWN_REVISIONS, connect_readonly


def _engine(path):
    return create_engine(f"sqlite:///{path}")


def test_the_migrations_create_exactly_the_models(tmp_path):
    engine = _engine(tmp_path / "m.sqlite")
    with engine.begin() as connection:
        migrate(connection)
        differences = compare_metadata(MigrationContext.configure(connection), models.metadata)
    assert differences == []


def test_upgrade_and_downgrade_both_run(tmp_path):
    engine = _engine(tmp_path / "m.sqlite")
    with engine.begin() as connection:
        migrate(connection)
        migrate_down = Config()
        migrate_down.set_main_option("script_location", str(migrations_dir()))
        migrate_down.attributes["connection"] = connection
        from alembic import command

        command.downgrade(migrate_down, "base")
        assert set(inspect(connection).get_table_names()) == {"alembic_version"}
        migrate(connection)
        assert set(inspect(connection).get_table_names()) >= {"record", "figure", "source", "citation", "claim"}


def test_the_read_path_knows_every_migration_and_their_head():
    config = Config()
    config.set_main_option("script_location", str(migrations_dir()))
    scripts = ScriptDirectory.from_config(config)
    assert scripts.get_current_head() == HEAD_REVISION
    # Each file's name gives the revision it declares, which is how the read path knows them without Alembic.
    assert sorted(script.revision for script in scripts.walk_revisions()) == list(KNOWN_REVISIONS)
    assert KNOWN_REVISIONS[:4] == ("0001", "0002", "0003", "0004")
    for script in scripts.walk_revisions():
        assert Path(script.path).name.startswith(f"{script.revision}_")


def _dump(path):
    connection = sqlite3.connect(path)
    try:
        return list(connection.iterdump())
    finally:
        connection.close()


def test_building_twice_gives_the_same_content_and_the_second_does_no_work(specs, db, tmp_path):
    first = build(specs, db)
    assert first.changed and (first.records, first.sources, first.figures) == (5, 1, 16)
    stamp = db.stat().st_mtime_ns
    assert build(specs, db).changed is False
    assert db.stat().st_mtime_ns == stamp
    other = tmp_path / "other.sqlite"
    build(specs, other)
    assert _dump(other) == _dump(db)


def test_foreign_keys_hold_in_the_built_database(specs, db):
    build(specs, db)
    connection = connect_readonly(db)
    assert connection.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    assert connection.execute("PRAGMA foreign_key_check").fetchall() == []


def test_invalid_specs_leave_no_database_and_no_temporary_files(specs, db):
    (specs / "link" / "test-link.yaml").write_text("id: [")
    with pytest.raises(InvalidSpecs):
        build(specs, db)
    # The build validates under the lock, and the lock file stays for later builds, as after a successful one.
    assert sorted(p.name for p in db.parent.iterdir() if p.name != "specs") == ["specdb.sqlite.lock"]


def test_a_read_builds_a_missing_database_and_refreshes_a_stale_one(specs, db):
    connection = open_fresh(db, specs)
    assert connection.execute("SELECT value_text FROM figure WHERE record_id = 'test-gpu' AND name = 'memory_bandwidth'").fetchone()[0] == "3.35 TB/s"
    connection.close()
    gpu = specs / "accelerator" / "test-gpu.yaml"
    gpu.write_text(gpu.read_text().replace("value: 3.35 TB/s", "value: 3.4 TB/s"))
    connection = open_fresh(db, specs)
    assert connection.execute("SELECT value_text FROM figure WHERE record_id = 'test-gpu' AND name = 'memory_bandwidth'").fetchone()[0] == "3.4 TB/s"


def test_touching_a_file_without_changing_it_does_not_rebuild(specs, db):
    build(specs, db)
    gpu = specs / "accelerator" / "test-gpu.yaml"
    gpu.write_text(gpu.read_text())
    assert build(specs, db).changed is False


def test_the_read_connection_cannot_write(specs, db):
    build(specs, db)
    connection = connect_readonly(db)
    with pytest.raises(sqlite3.OperationalError, match="readonly|read-only"):
        connection.execute("DELETE FROM figure")


def test_a_file_that_is_not_a_database_is_refused_and_kept(specs, tmp_path):
    junk = tmp_path / "junk.sqlite"
    junk.write_text("not a database")
    with pytest.raises(DatabaseError, match="not a specdb database"):
        build(specs, junk)
    with pytest.raises(DatabaseError, match="cannot be read as a SQLite database"):
        connect_readonly(junk)
    assert junk.read_text() == "not a database"


def test_a_sqlite_file_of_another_program_is_refused(specs, tmp_path):
    other = tmp_path / "other.sqlite"
    connection = sqlite3.connect(other)
    connection.execute("CREATE TABLE notes (text)")
    connection.commit()
    connection.close()
    with pytest.raises(DatabaseError, match="not a specdb database"):
        build(specs, other)
    with pytest.raises(DatabaseError, match="not a specdb database"):
        connect_readonly(other)


def test_a_database_from_a_newer_specdb_is_refused_not_rebuilt(specs, db):
    build(specs, db)
    connection = sqlite3.connect(db)
    connection.execute("UPDATE alembic_version SET version_num = '9999'")
    connection.commit()
    connection.close()
    before = db.read_bytes()
    with pytest.raises(DatabaseError, match="newer specdb"):
        open_fresh(db, specs)
    with pytest.raises(DatabaseError, match="newer specdb"):
        build(specs, db)
    assert db.read_bytes() == before


def test_a_hot_journal_beside_the_target_is_not_replayed_onto_the_new_database(specs, db):
    build(specs, db)
    # A real hot journal, as a crash in the middle of a write leaves it: an open rollback-journal transaction's journal file.
    crashed = db.parent / "crashed.sqlite"
    shutil.copy(db, crashed)
    writer = sqlite3.connect(crashed, isolation_level=None)
    writer.execute("PRAGMA journal_mode = DELETE")
    writer.execute("BEGIN IMMEDIATE")
    writer.execute("DELETE FROM figure")
    shutil.copy(db.parent / "crashed.sqlite-journal", db.parent / (db.name + "-journal"))
    writer.execute("ROLLBACK")
    writer.close()
    gpu = specs / "accelerator" / "test-gpu.yaml"
    gpu.write_text(gpu.read_text().replace("value: 3.35 TB/s", "value: 3.4 TB/s"))
    build(specs, db)
    assert not (db.parent / (db.name + "-journal")).exists()
    connection = connect_readonly(db)
    assert connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert connection.execute("SELECT value_text FROM figure WHERE record_id = 'test-gpu' AND name = 'memory_bandwidth'").fetchone()[0] == "3.4 TB/s"


def test_importing_specdb_loads_no_heavy_library():
    code = "import sys, specdb; print(sorted(m for m in ('sqlalchemy', 'sqlmodel', 'alembic', 'pydantic', 'yaml', 'psycopg', 'specdb.db.postgres') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_a_read_command_on_a_fresh_database_loads_no_heavy_library(specs, db):
    build(specs, db)
    assert heavy_modules_loaded(["list", "--specs", str(specs), "--db", str(db), "--format", "json"]) == []
