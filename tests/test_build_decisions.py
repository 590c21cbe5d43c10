"""When a build works and when it does not, what a read connection allows, and what the stamp in `meta` says."""

import contextlib
import os
import re
import sqlite3
import subprocess

import pytest

from specdb import __version__

from specdb.db import builder

from specdb.load import files as specfiles
from specdb.db.builder import build, validated_unless_held
from specdb.load.dataset import load_specs
from specdb.errors import DatabaseError, InvalidSpecs
from specdb.load.files import Stamp, current_stamp, walk
from specdb.db.access import open_fresh
from specdb.db.store import check_revision, connect_readonly, holds, is_fresh, read_meta, stamp_matches, stamp_meta


@pytest.fixture(autouse=True)
def _trusted_timestamps(monkeypatch):
    """Files written by the test are seconds old at most: without this every stamp would be racy."""
    monkeypatch.setattr(specfiles, "RACY_SECONDS", 0)


def _meta(db):
    connection = sqlite3.connect(db)
    try:
        return read_meta(connection)
    finally:
        connection.close()


def _touch(path, seconds_later=10):
    info = path.stat()
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns + seconds_later * 1_000_000_000))


def _no_build(*_):
    raise AssertionError("built")


def test_a_missing_database_is_not_created_by_a_read(tmp_path):
    with pytest.raises(DatabaseError, match="database not found"):
        connect_readonly(tmp_path / "none.sqlite")
    assert list(tmp_path.iterdir()) == []


def test_a_file_that_is_not_sqlite_cannot_be_read(tmp_path):
    path = tmp_path / "text.sqlite"
    path.write_bytes(b"not a database at all, but long enough to have a header" * 4)
    with pytest.raises(DatabaseError, match="cannot be read as a SQLite database"):
        connect_readonly(path)


def test_a_read_connection_reads_rows_by_name_checks_references_and_cannot_write(specs, db):
    build(specs, db)
    connection = connect_readonly(db)
    try:
        assert connection.execute("SELECT id FROM record WHERE id = 'test-gpu'").fetchone()["id"] == "test-gpu"
        assert connection.execute("PRAGMA foreign_keys").fetchone()[0] == 1
        assert connection.execute("PRAGMA query_only").fetchone()[0] == 1
        with pytest.raises(sqlite3.OperationalError):
            connection.execute("DELETE FROM meta")
    finally:
        connection.close()


def test_revisions_outside_the_known_ones_are_refused_by_name(tmp_path):
    with pytest.raises(DatabaseError, match=r"not a specdb database \(no schema version\)"):
        check_revision(tmp_path, None)
    with pytest.raises(DatabaseError, match=r"made by a newer specdb \(schema revision 9999\); this specdb knows up to 0006"):
        check_revision(tmp_path, "9999")
    check_revision(tmp_path, "0001")


def test_the_stamp_rows_name_the_folder_the_files_and_whether_they_are_too_recent(specs):
    assert stamp_meta(specs, Stamp("a\tb", True)) == {"specs_dir": str(specs), "spec_files": "a\tb", "spec_files_racy": "yes", "specdb_version": __version__}
    assert stamp_meta(specs, Stamp("", False))["spec_files_racy"] == "no"


def test_a_database_holds_specs_only_with_the_same_folder_version_and_hash(specs, tmp_path):
    meta = {"specs_dir": str(specs), "specdb_version": __version__, "content_hash": "abc"}
    assert holds(meta, specs, "abc")
    assert not holds(meta, specs, "abd")
    assert not holds(meta, tmp_path, "abc")
    assert not holds({**meta, "specdb_version": "0.0.0"}, specs, "abc")


def test_the_stamp_matches_until_a_file_or_the_folder_changes(specs, db):
    build(specs, db)
    meta = _meta(db)
    assert meta["spec_files"] == current_stamp(walk(specs))
    assert stamp_matches(meta, specs)
    assert not stamp_matches({**meta, "spec_files_racy": "yes"}, specs)
    assert not stamp_matches({**meta, "specs_dir": str(specs.parent)}, specs)
    _touch(specs / "link" / "test-link.yaml")
    assert not stamp_matches(meta, specs)


def test_a_database_with_an_empty_or_newer_schema_version_is_refused_by_name(tmp_path):
    path = tmp_path / "other.sqlite"
    connection = sqlite3.connect(path)
    connection.execute("CREATE TABLE alembic_version (version_num TEXT)")
    connection.commit()
    with pytest.raises(DatabaseError, match=r"not a specdb database \(no schema version\)"):
        connect_readonly(path)
    connection.execute("INSERT INTO alembic_version VALUES ('9999')")
    connection.commit()
    connection.close()
    with pytest.raises(DatabaseError, match=f"^{re.escape(str(path))}: made by a newer specdb \\(schema revision 9999\\)"):
        connect_readonly(path)


def test_a_broken_link_in_the_folder_never_matches_a_stamp(specs, db):
    build(specs, db)
    meta = _meta(db)
    (specs / "link" / "gone.yaml").symlink_to(specs / "nowhere.yaml")
    assert not stamp_matches({**meta}, specs)


def test_a_broken_link_is_reported_though_every_file_s_bytes_are_those_the_database_holds(specs, db):
    build(specs, db)
    before = db.read_bytes()
    (specs / "link" / "gone.yaml").symlink_to(specs / "nowhere.yaml")
    with pytest.raises(InvalidSpecs) as raised:
        build(specs, db)
    assert [problem.code for problem in raised.value.problems] == ["layout"]
    assert "broken symbolic link" in raised.value.problems[0].message
    assert db.read_bytes() == before


def test_a_new_file_too_large_to_read_is_reported_though_every_other_file_is_held(specs, db):
    """Its bytes are not in the content hash, so only the reading can tell that a file was left out."""
    build(specs, db)
    before = db.read_bytes()
    (specs / "link" / "huge.yaml").write_bytes(b"#" * (6 * 1024 * 1024))
    with pytest.raises(InvalidSpecs) as raised:
        build(specs, db)
    # 6 MiB is 6.29 MB
    assert [(problem.code, problem.message) for problem in raised.value.problems] == [("unreadable", "file is 6.3 MB; a record file is at most 1 MiB")]
    assert db.read_bytes() == before


def test_without_git_the_build_records_no_commit(specs, db, monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path / "no-programs-here"))
    build(specs, db)
    assert _meta(db)["git_revision"] == ""


def test_a_database_is_fresh_only_at_the_current_revision(specs, db):
    build(specs, db)
    connection = connect_readonly(db)
    assert is_fresh(specs, connection)
    connection.close()
    writable = sqlite3.connect(db)
    with writable:
        writable.execute("UPDATE alembic_version SET version_num = '0002'")
    writable.close()
    connection = connect_readonly(db)
    assert not is_fresh(specs, connection)
    connection.close()


def test_a_fresh_database_is_opened_without_building(specs, db, monkeypatch):
    build(specs, db)
    monkeypatch.setattr(builder, "build", _no_build)
    connection = open_fresh(db, specs)
    assert connection.execute("SELECT COUNT(*) FROM figure").fetchone()[0] == 16
    connection.close()


def test_a_stale_database_is_rebuilt_before_it_is_read(specs, db):
    build(specs, db)
    link = specs / "link" / "test-link.yaml"
    link.write_text(link.read_text().replace("value: 25 GB/s", "value: 25.2 GB/s"))
    connection = open_fresh(db, specs)
    assert connection.execute("SELECT value_text FROM figure WHERE name = 'per_link_bandwidth' AND record_id = 'test-link'").fetchone()[0] == "25.2 GB/s"
    connection.close()


def test_an_unchanged_build_reports_what_the_database_holds(specs, db):
    first = build(specs, db)
    again = build(specs, db)
    assert (first.changed, again.changed, first.path) == (True, False, db)
    assert (again.path, again.records, again.sources, again.figures, again.content_hash) == (db, 5, 1, 16, first.content_hash)
    assert first.content_hash == _meta(db)["content_hash"]


def test_new_metadata_of_the_same_bytes_is_recorded_without_a_rebuild(specs, db):
    build(specs, db)
    link = specs / "link" / "test-link.yaml"
    _touch(link)
    before = db.stat().st_ino
    assert not build(specs, db).changed
    assert db.stat().st_ino == before
    meta = _meta(db)
    assert meta["spec_files"] == current_stamp(walk(specs))
    assert meta["spec_files_racy"] == "no"
    assert stamp_matches(meta, specs)


def test_a_file_changed_after_the_hash_check_is_built_as_it_was_validated(specs, db, monkeypatch):
    """The bytes compared with the database are let go: the ones validated next are the ones the new database names."""
    build(specs, db)
    link = specs / "link" / "test-link.yaml"
    original = link.read_text()
    link.write_text(original.replace("value: 25 GB/s", "value: 26 GB/s"))
    read_all = specfiles.FolderFiles.read_all

    def edited_after_reading(files):
        read_all(files)
        link.write_text(original.replace("value: 25 GB/s", "value: 50 GB/s").replace("value: 900 GB/s", "value: 1800 GB/s"))

    monkeypatch.setattr(specfiles.FolderFiles, "read_all", edited_after_reading)
    assert build(specs, db).changed
    monkeypatch.undo()
    monkeypatch.setattr(specfiles, "RACY_SECONDS", 0)
    connection = sqlite3.connect(db)
    value = connection.execute("SELECT value FROM figure WHERE record_id = 'test-link' AND name = 'per_link_bandwidth'").fetchone()[0]
    connection.close()
    assert value == 50e9
    assert _meta(db)["content_hash"] == load_specs(specs).content_hash
    assert not build(specs, db).changed


def _git(folder, *args):
    return subprocess.run(["git", "-C", str(folder), *args], check=True, capture_output=True, text=True).stdout.strip()


def test_the_meta_names_the_record_format_the_licence_and_the_last_commit_of_the_specs(tmp_path, specs, db):
    """git_revision is the last commit that touched the specs folder, not the repository's newest."""
    build(specs, db)
    meta = _meta(db)
    assert (meta["record_format"], meta["data_license"], meta["git_revision"]) == ("2", "CC-BY-4.0", "")
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "add", "specs")
    _git(tmp_path, "-c", "user.name=t", "-c", "user.email=t@example.org", "commit", "-qm", "specs")
    specs_commit = _git(tmp_path, "rev-parse", "HEAD")
    (tmp_path / "notes.txt").write_text("not a spec")
    _git(tmp_path, "add", "notes.txt")
    _git(tmp_path, "-c", "user.name=t", "-c", "user.email=t@example.org", "commit", "-qm", "notes")
    assert _git(tmp_path, "rev-parse", "HEAD") != specs_commit
    (specs / "link" / "test-link.yaml").write_text((specs / "link" / "test-link.yaml").read_text() + "\n")
    assert build(specs, db).changed
    assert _meta(db)["git_revision"] == specs_commit


def test_a_build_that_finds_the_same_work_done_while_it_waited_for_the_lock_keeps_that_database(specs, db, monkeypatch):
    build(specs, db)
    (specs / "link" / "test-link.yaml").write_text((specs / "link" / "test-link.yaml").read_text() + "\n")
    locked = builder._locked

    @contextlib.contextmanager
    def another_build_first(db_path):
        monkeypatch.setattr(builder, "_locked", locked)
        assert build(specs, db_path).changed
        with locked(db_path):
            yield

    monkeypatch.setattr(builder, "_locked", another_build_first)
    built_by_the_other = None

    def inode_after_the_other(*args):
        nonlocal built_by_the_other
        built_by_the_other = db.stat().st_ino
        return original_existing(*args)

    original_existing = builder._existing_state
    monkeypatch.setattr(builder, "_existing_state", inode_after_the_other)
    result = build(specs, db)
    assert (result.changed, result.records, result.sources, result.figures) == (False, 5, 1, 16)
    assert db.stat().st_ino == built_by_the_other
    assert result.content_hash == _meta(db)["content_hash"] == load_specs(specs).content_hash


def test_a_new_database_with_a_broken_reference_is_refused(tmp_path):
    path = tmp_path / "new.sqlite"
    connection = sqlite3.connect(path)
    connection.executescript("CREATE TABLE parent (id INTEGER PRIMARY KEY); CREATE TABLE child (parent_id INTEGER REFERENCES parent (id)); INSERT INTO child VALUES (7);")
    connection.close()
    with pytest.raises(DatabaseError, match=r"failed its check \(ok; 1 broken references\)"):
        builder._check_database(path)


@pytest.mark.parametrize("mode", [0o444, 0o445])
def test_a_read_only_database_keeps_its_stamp(specs, db, mode):
    """Read-only means no write bit for anyone; an execute bit changes nothing."""
    build(specs, db)
    _touch(specs / "link" / "test-link.yaml")
    db.chmod(mode)
    before = db.read_bytes()
    assert not build(specs, db).changed
    assert db.read_bytes() == before


def test_the_shared_freshness_decision(specs, db):
    """What PostgreSQL publishing relies on: None when held (recording new metadata), every record when not, InvalidSpecs when wrong."""
    stamps = []
    dataset = validated_unless_held(specs, None, stamps.append)
    assert dataset.records.keys() == {"test-gpu", "test-link", "test-pcie", "test-fabric", "test-system", "test-datasheet"}
    assert (dataset.root, dataset.stamp.digest) == (specs, current_stamp(walk(specs)))
    build(specs, db)
    existing = builder._existing_state(db)
    assert validated_unless_held(specs, existing, stamps.append) is None
    assert stamps == []
    _touch(specs / "link" / "test-link.yaml")
    assert validated_unless_held(specs, existing, stamps.append) is None
    assert [stamp.digest for stamp in stamps] == [current_stamp(walk(specs))]
    (specs / "link" / "test-link.yaml").write_text("id: [")
    with pytest.raises(InvalidSpecs) as raised:
        validated_unless_held(specs, existing, stamps.append)
    assert [os.path.realpath(problem.path) for problem in raised.value.problems] == [os.path.realpath(specs / "link" / "test-link.yaml")]


def test_a_read_only_database_of_an_older_schema_is_refused_not_upgraded(specs, db):
    build(specs, db)
    connection = sqlite3.connect(db)
    with connection:
        # Revision 0002 is the schema without the collective_run table (migrations/versions/0003_collective_run.py).
        connection.execute("DROP TABLE collective_run")
        connection.execute("UPDATE alembic_version SET version_num = '0002'")
    connection.close()
    db.chmod(0o444)
    before = db.read_bytes()
    with pytest.raises(DatabaseError, match="the database file is read-only and was made by an older specdb and needs upgrading; make it writable"):
        build(specs, db)
    assert db.read_bytes() == before
