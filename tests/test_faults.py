"""Never lose or corrupt data: builds killed anywhere, readers during rebuilds, builds at once, schema upgrades, broken files."""

import shutil
import signal
import sqlite3
import stat
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest
from alembic import command
from alembic.config import Config
from alembic.script import ScriptDirectory

from conftest import REPO
from specdb.load import files as specfiles
from specdb.db.builder import build
from specdb.resources import migrations_dir
from specdb.db.access import open_fresh
from specdb.db.store import HEAD_REVISION, connect_readonly


# The stamp records the files' metadata when read (inode change times among them), not their content.
STAMP_ROWS = ("'spec_files'", "'spec_files_racy'")


def _dump(path: Path) -> list[str]:
    """The database's content as SQL, without the stamp."""
    connection = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)
    try:
        return [line for line in connection.iterdump() if not line.startswith(tuple(f'INSERT INTO "meta" VALUES({key}' for key in STAMP_ROWS))]
    finally:
        connection.close()


def _content_hash(path: Path) -> str:
    connection = connect_readonly(path)
    try:
        assert connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        return connection.execute("SELECT value FROM meta WHERE key = 'content_hash'").fetchone()[0]
    finally:
        connection.close()


@pytest.fixture
def two_versions(specs, db, tmp_path):
    """A database built from the test data (old), and a changed copy of the specs (new) with its expected dump."""
    build(specs, db)
    new_specs = tmp_path / "new-specs"
    shutil.copytree(specs, new_specs)
    gpu = new_specs / "accelerator" / "test-gpu.yaml"
    gpu.write_text(gpu.read_text().replace("value: 3.35 TB/s", "value: 3.6 TB/s"))
    expected = tmp_path / "expected.sqlite"
    build(new_specs, expected)
    return _dump(db), new_specs, _dump(expected)


# A build in a child process that SIGKILLs itself at one named point, by wrapping the function that runs there.
KILL_AT = textwrap.dedent("""
    import os, signal, sys
    from pathlib import Path
    sys.path.insert(0, {repo!r})
    import specdb.db.builder as build_module
    import specdb.load.dataset as dataset_module

    def die(*args, **kwargs):
        os.kill(os.getpid(), signal.SIGKILL)

    point = sys.argv[3]
    if point == "validating":
        calls = []
        original = dataset_module._load_one
        def load_one(*args, **kwargs):
            calls.append(1)
            if len(calls) == 3:
                die()
            return original(*args, **kwargs)
        dataset_module._load_one = load_one
    elif point == "writing":
        build_module._check_database = die
    elif point == "before replace":
        build_module._replace = die
    elif point == "after replace":
        replace = build_module._replace
        def replace_then_die(*args):
            replace(*args)
            die()
        build_module._replace = replace_then_die
    build_module.build(Path(sys.argv[1]), Path(sys.argv[2]))
""")


@pytest.mark.parametrize("point", ["validating", "writing", "before replace", "after replace"])
def test_a_build_killed_at_any_point_leaves_the_old_or_the_new_database(two_versions, db, tmp_path, point):
    old_dump, new_specs, new_dump = two_versions
    script = tmp_path / "kill.py"
    script.write_text(KILL_AT.format(repo=str(REPO)))
    result = subprocess.run([sys.executable, str(script), str(new_specs), str(db), point], capture_output=True)
    assert result.returncode == -signal.SIGKILL
    after = _dump(db)
    assert after in (old_dump, new_dump)
    assert after == (new_dump if point == "after replace" else old_dump)
    _content_hash(db)
    # The next build finishes the work and sweeps what the killed one left.
    build(new_specs, db)
    assert _dump(db) == new_dump
    assert not list(db.parent.glob(f".{db.name}.*"))


def test_builds_killed_at_random_moments_never_leave_a_mixture(two_versions, db, tmp_path):
    old_dump, new_specs, new_dump = two_versions
    code = f"import sys; sys.path.insert(0, {str(REPO)!r}); from pathlib import Path; from specdb.db.builder import build; build(Path(sys.argv[1]), Path(sys.argv[2]))"
    for delay in (0.05, 0.15, 0.3, 0.45, 0.6, 0.8, 1.0, 1.3):
        process = subprocess.Popen([sys.executable, "-c", code, str(new_specs), str(db)])
        time.sleep(delay)
        process.send_signal(signal.SIGKILL)
        process.wait()
        assert _dump(db) in (old_dump, new_dump), delay
        _content_hash(db)


def test_readers_during_repeated_rebuilds_never_fail_nor_see_half_a_database(two_versions, specs, db):
    _, new_specs, _ = two_versions
    expected = {}
    for folder in (specs, new_specs):
        build(folder, db)
        connection = connect_readonly(db)
        expected[connection.execute("SELECT value FROM meta WHERE key = 'content_hash'").fetchone()[0]] = (
            connection.execute("SELECT value_text FROM figure WHERE record_id = 'test-gpu' AND name = 'memory_bandwidth'").fetchone()[0],
            connection.execute("SELECT COUNT(*) FROM figure").fetchone()[0],
        )
        connection.close()
    stop = threading.Event()
    failures, seen_hashes, reads = [], set(), [0]
    progress = threading.Condition()

    def reader():
        while not stop.is_set():
            try:
                connection = connect_readonly(db)
                try:
                    content_hash = connection.execute("SELECT value FROM meta WHERE key = 'content_hash'").fetchone()[0]
                    seen = (
                        connection.execute("SELECT value_text FROM figure WHERE record_id = 'test-gpu' AND name = 'memory_bandwidth'").fetchone()[0],
                        connection.execute("SELECT COUNT(*) FROM figure").fetchone()[0],
                    )
                finally:
                    connection.close()
                if expected.get(content_hash) != seen:
                    failures.append((content_hash, seen))
                seen_hashes.add(content_hash)
            except Exception as error:  # any failure to read is what this test looks for
                failures.append(repr(error))
            with progress:
                reads[0] += 1
                progress.notify_all()

    threads = [threading.Thread(target=reader) for _ in range(3)]
    for thread in threads:
        thread.start()
    for round_ in range(8):
        build(specs if round_ % 2 else new_specs, db)
        # Readers read during each build; after it, one more read than there are readers means at least one read began
        # after the rename, so every version is read whatever the scheduling.
        with progress:
            target = reads[0] + len(threads) + 1
            assert progress.wait_for(lambda: reads[0] >= target, timeout=120)
    stop.set()
    for thread in threads:
        thread.join()
    assert failures == []
    assert seen_hashes == set(expected)


def test_two_builds_at_once_end_with_one_good_database(two_versions, db):
    _, new_specs, new_dump = two_versions
    code = f"import sys; sys.path.insert(0, {str(REPO)!r}); from pathlib import Path; from specdb.db.builder import build; build(Path(sys.argv[1]), Path(sys.argv[2]))"
    builders = [subprocess.Popen([sys.executable, "-c", code, str(new_specs), str(db)], stderr=subprocess.PIPE) for _ in range(2)]
    reader = subprocess.Popen(
        [sys.executable, "-m", "specdb", "list", "--specs", str(new_specs), "--db", str(db), "--format", "json"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=REPO,
    )
    for process in builders:
        _, errors = process.communicate(timeout=120)
        assert process.returncode == 0, errors
    output, errors = reader.communicate(timeout=120)
    assert reader.returncode == 0, errors
    assert b'"test-gpu"' in output
    assert _dump(db) == new_dump


def _revisions() -> list[str]:
    config = Config()
    config.set_main_option("script_location", str(migrations_dir()))
    return [script.revision for script in ScriptDirectory.from_config(config).walk_revisions()]


def _downgrade(db: Path, revision: str) -> None:
    from sqlalchemy import create_engine

    config = Config()
    config.set_main_option("script_location", str(migrations_dir()))
    with create_engine(f"sqlite:///{db}").begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, revision)


@pytest.mark.parametrize("revision", [r for r in _revisions() if r != HEAD_REVISION])
def test_a_database_from_an_earlier_schema_is_upgraded_in_place_with_nothing_lost(specs, db, revision, monkeypatch):
    # The meta rows are compared: a stamp turning from racy to trusted between the reads is not a loss.
    monkeypatch.setattr(specfiles, "RACY_SECONDS", 0)
    build(specs, db)
    tables = ("record", "source", "alias", "record_use", "figure", "claim", "citation", "meta")
    before = {table: connect_readonly(db).execute(f"SELECT * FROM {table} ORDER BY 1").fetchall() for table in tables}
    _downgrade(db, revision)
    assert sqlite3.connect(db).execute("SELECT version_num FROM alembic_version").fetchone()[0] == revision
    connection = open_fresh(db, specs)
    assert connection.execute("SELECT version_num FROM alembic_version").fetchone()[0] == HEAD_REVISION
    after = {table: connection.execute(f"SELECT * FROM {table} ORDER BY 1").fetchall() for table in tables}
    assert [tuple(row) for rows in after.values() for row in rows] == [tuple(row) for rows in before.values() for row in rows]
    assert connection.execute("SELECT COUNT(*) FROM figure_view").fetchone()[0] == len(before["figure"])


def test_a_truncated_database_is_a_clear_error(specs, db, cli):
    build(specs, db)
    data = db.read_bytes()
    db.write_bytes(data[: len(data) // 3])
    result = cli("list")
    assert result.exit_code == 3
    assert str(db) in result.stderr and "specdb:" in result.stderr and "Traceback" not in result.stderr


def test_an_empty_file_is_not_taken_for_a_database(specs, db, cli):
    db.write_bytes(b"")
    result = cli("list")
    assert result.exit_code == 3 and "not a specdb database" in result.stderr
    assert db.read_bytes() == b""


def test_a_read_only_database_is_read_and_never_replaced(specs, db, cli):
    build(specs, db)
    db.chmod(stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH)
    before = db.read_bytes()
    assert cli("list").exit_code == 0
    gpu = specs / "accelerator" / "test-gpu.yaml"
    gpu.write_text(gpu.read_text().replace("value: 3.35 TB/s", "value: 3.6 TB/s"))
    result = cli("list")
    assert result.exit_code == 3
    assert "read-only" in result.stderr
    assert db.read_bytes() == before


def test_a_database_folder_that_cannot_be_created_is_a_clear_error(specs, tmp_path, cli):
    blocker = tmp_path / "blocker"
    blocker.write_text("a file where a folder should be")
    result = cli("build", "--specs", str(specs), "--db", str(blocker / "specdb.sqlite"), data=False)
    assert result.exit_code == 3
    assert "cannot write the database" in result.stderr


def test_a_temporary_folder_without_room_for_the_checks_across_records_is_a_database_error():
    from specdb.errors import DatabaseError
    from specdb.load.links import LinkTable, SourceLinks

    table = LinkTable()
    # What a full temporary folder does to SQLite: a write past the last page it may have fails.
    table._db.execute("PRAGMA max_page_count = 2")
    with pytest.raises(DatabaseError, match=r"^cannot keep what the checks across records need in a temporary file \(database or disk is full\); set TMPDIR"):
        for number in range(1000):
            table.add(f"source-{number}", SourceLinks(f"source/source-{number}.yaml"))


def _export(specs: Path, db: Path, folder: Path, start: Path | None = None) -> list[str]:
    """An export in a child process; with `start`, the child begins only once that file exists, so that several begin together."""
    wait = f"import os, time\nwhile not os.path.exists({str(start)!r}): time.sleep(0.001)\n" if start else ""
    code = f"import sys; sys.path.insert(0, {str(REPO)!r}); from specdb.cli import main, typer_app\n{wait}main()"
    return [sys.executable, "-c", code, "export", "datapackage", str(folder), "--specs", str(specs), "--db", str(db)]


def _files(folder: Path) -> dict[str, bytes]:
    return {path.relative_to(folder).as_posix(): path.read_bytes() for path in sorted(folder.rglob("*")) if path.is_file()}


@pytest.fixture
def reference_export(specs, db, tmp_path) -> dict[str, bytes]:
    """The files of the test data's datapackage export, made once, alone (an export of the same data gives the same bytes)."""
    build(specs, db)
    subprocess.run(_export(specs, db, tmp_path / "reference"), check=True, capture_output=True)
    return _files(tmp_path / "reference")


def test_exports_to_one_folder_at_once_end_with_one_whole_export_and_nothing_left(specs, db, tmp_path, reference_export):
    folder = tmp_path / "exports" / "out"
    start = tmp_path / "start"
    exports = [subprocess.Popen(_export(specs, db, folder, start), stderr=subprocess.PIPE, text=True) for _ in range(4)]
    start.touch()
    for process in exports:
        _, errors = process.communicate(timeout=120)
        assert process.returncode == 0, errors
    assert _files(folder) == reference_export
    assert [path.name for path in folder.parent.iterdir()] == ["out"]


def _replace_again_and_again(target: Path, writer: int, start, failures) -> None:
    from specdb.export.folder import MANIFEST, replacing

    start.wait()
    for round_ in range(40):
        try:
            with replacing(target, force=False) as folder:
                for name in ("a.txt", "b.txt", MANIFEST):
                    (folder / name).write_text(f"{writer}.{round_}")
        except Exception as error:  # any failure is what this test looks for
            failures.put(repr(error))


def test_folders_replaced_by_many_processes_at_once_end_whole_with_nothing_left(tmp_path):
    import multiprocessing

    context = multiprocessing.get_context("fork")
    target = tmp_path / "exports" / "out"
    start, failures = context.Event(), context.Queue()
    writers = [context.Process(target=_replace_again_and_again, args=(target, writer, start, failures)) for writer in range(4)]
    for process in writers:
        process.start()
    start.set()
    for process in writers:
        process.join(timeout=120)
        assert process.exitcode == 0
    assert failures.empty(), failures.get()
    written = {path.name: path.read_text() for path in target.iterdir()}
    assert sorted(written) == ["a.txt", "b.txt", "specdb-export.json"] and len(set(written.values())) == 1
    assert [path.name for path in target.parent.iterdir()] == ["out"]


def test_exports_killed_mid_write_leave_the_earlier_export_or_none_and_the_next_export_sweeps_up(specs, db, tmp_path, reference_export):
    import random

    folder = tmp_path / "exports" / "out"
    subprocess.run(_export(specs, db, folder), check=True, capture_output=True)
    chance = random.Random(20261202)
    left_behind = 0
    for _ in range(8):
        process = subprocess.Popen(_export(specs, db, folder), stderr=subprocess.DEVNULL)
        # Killed at a random moment once its temporary folder exists: mid-write, or while the folders change places.
        own = f".out.{process.pid}."
        while process.poll() is None and not any(path.name.startswith(own) for path in folder.parent.iterdir()):
            time.sleep(0.001)
        time.sleep(chance.uniform(0, 0.03))
        process.send_signal(signal.SIGKILL)
        process.wait()
        assert not folder.exists() or _files(folder) == reference_export
        left_behind += any(path.name.startswith(own) for path in folder.parent.iterdir())
    assert left_behind, "no kill landed while an export was writing"
    subprocess.run(_export(specs, db, folder), check=True, capture_output=True)
    assert _files(folder) == reference_export
    assert [path.name for path in folder.parent.iterdir()] == ["out"]
