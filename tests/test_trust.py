"""What a command prints is what the spec files say now: change detection, nothing skipped, no half-done publish."""

import contextlib
import os
import shutil
import sqlite3
import subprocess
import sys

import pytest

from conftest import REPO
from specdb.db import builder
from specdb.load import files as specfiles
from specdb.db.builder import build

GPU = "accelerator/test-gpu.yaml"


def _memory_bandwidth(cli) -> str:
    result = cli("show", "test-gpu", "--format", "json")
    assert result.exit_code == 0, result.stderr
    import json

    return next(figure["value_text"] for figure in json.loads(result.stdout)["figures"] if figure["name"] == "memory_bandwidth")


def _edit_keeping_size_and_times(path, old: str, new: str) -> None:
    """What `cp -p`, `tar x` or `rsync -t` leave: other bytes, the same size, the old modification time."""
    assert len(old) == len(new)
    before = path.stat()
    path.write_text(path.read_text().replace(old, new))
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    after = path.stat()
    assert (after.st_size, after.st_mtime_ns) == (before.st_size, before.st_mtime_ns)


def _meta(db, key):
    connection = sqlite3.connect(db)
    try:
        row = connection.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    finally:
        connection.close()
    return row[0] if row else None


def test_an_edit_that_keeps_size_and_modification_time_is_seen(cli, specs, db, monkeypatch):
    # No racy window: only the recorded metadata can reveal the edit.
    monkeypatch.setattr(specfiles, "RACY_SECONDS", 0)
    assert _memory_bandwidth(cli) == "3.35 TB/s"
    assert _meta(db, "spec_files_racy") == "no"
    _edit_keeping_size_and_times(specs / GPU, "value: 3.35 TB/s", "value: 3.36 TB/s")
    assert _memory_bandwidth(cli) == "3.36 TB/s"
    result = cli("build")
    assert "up to date" in result.stderr


def test_a_file_changed_just_before_the_build_is_compared_by_its_bytes(cli, specs, db, monkeypatch):
    # Timestamps too coarse to show a change: the stamp keeps only size and modification time.
    monkeypatch.setattr(specfiles, "_stamp_line", lambda relpath, info: f"{relpath}\t{info.st_size}\t{info.st_mtime_ns}")
    assert _memory_bandwidth(cli) == "3.35 TB/s"
    # The files were written moments ago, so the stamp cannot be trusted.
    assert _meta(db, "spec_files_racy") == "yes"
    _edit_keeping_size_and_times(specs / GPU, "value: 3.35 TB/s", "value: 3.36 TB/s")
    assert _memory_bandwidth(cli) == "3.36 TB/s"


def test_a_file_saved_again_while_a_build_waits_for_the_lock_is_not_lost(cli, specs, db, monkeypatch):
    locked = builder._locked

    @contextlib.contextmanager
    def saved_while_waiting(db_path):
        gpu = specs / GPU
        gpu.write_text(gpu.read_text().replace("value: 3.35 TB/s", "value: 3.9 TB/s"))
        with locked(db_path):
            yield

    monkeypatch.setattr(builder, "_locked", saved_while_waiting)
    build(specs, db)
    monkeypatch.setattr(builder, "_locked", locked)
    # The build published what it had read; the next read sees the newer save.
    assert _memory_bandwidth(cli) == "3.9 TB/s"


def test_only_touching_a_file_rebuilds_nothing_and_records_the_new_times(cli, specs, db, monkeypatch):
    monkeypatch.setattr(specfiles, "RACY_SECONDS", 0)
    assert cli("build").exit_code == 0
    rows_before = sqlite3.connect(db).execute("SELECT * FROM figure").fetchall()
    stamp_before = _meta(db, "spec_files")
    os.utime(specs / GPU)
    result = cli("build")
    assert result.exit_code == 0 and "up to date" in result.stderr
    assert sqlite3.connect(db).execute("SELECT * FROM figure").fetchall() == rows_before
    assert _meta(db, "spec_files") != stamp_before


def test_the_stamp_lives_in_the_database_and_no_side_file_remains(cli, specs, db):
    db.with_name(db.name + ".stamp").write_text("{}")  # left by an earlier specdb
    assert cli("build").exit_code == 0
    assert _meta(db, "specs_dir") == str(specs)
    assert _meta(db, "content_hash")
    assert sorted(path.name for path in db.parent.iterdir() if path.name.startswith(db.name)) == [db.name, db.name + ".lock"]


def test_a_database_from_another_specdb_version_is_rebuilt(cli, specs, db):
    assert cli("build").exit_code == 0
    connection = sqlite3.connect(db)
    with connection:
        connection.execute("UPDATE meta SET value = '0.0.1' WHERE key = 'specdb_version'")
    connection.close()
    result = cli("build")
    assert "built" in result.stderr and "up to date" not in result.stderr


# --- nothing under the specs folder is skipped silently ------------------------------------------


def _unprivileged(command: list[str]) -> list[str]:
    """Run without root's power to read anything, so that permissions apply as they do to a user."""
    if os.geteuid() != 0:
        return command
    if shutil.which("setpriv") is None:
        pytest.skip("running as root without setpriv: permissions cannot be made to apply")
    drop = "-dac_override,-dac_read_search"
    return ["setpriv", f"--bounding-set={drop}", f"--inh-caps={drop}", *command]


def _specdb(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(_unprivileged([sys.executable, "-m", "specdb", *args]), capture_output=True, text=True, cwd=REPO, timeout=120)


def _refused_everywhere(specs, db, where: str, message: str) -> None:
    """validate, build and a read each exit 1 naming the path, and the database stays byte-identical."""
    before = db.read_bytes()
    for command in (["validate", "--specs", str(specs)], ["build", "--specs", str(specs), "--db", str(db)], ["list", "--specs", str(specs), "--db", str(db)]):
        result = _specdb(*command)
        assert result.returncode == 1, (command, result.stderr)
        reported = result.stdout if command[0] == "validate" else result.stderr
        assert f"{where}: {message}" in reported, reported
        assert "Traceback" not in result.stderr and "internal error" not in result.stderr
    assert db.read_bytes() == before


@pytest.fixture
def built(specs, db):
    build(specs, db)
    return specs, db


@pytest.mark.parametrize("relpath, mode, message", [
    ("link", 0o755, "cannot read folder: Permission denied"),
    (GPU, 0o644, "cannot read file: Permission denied"),
])
def test_an_unreadable_folder_or_file_is_a_located_error(built, relpath, mode, message):
    specs, db = built
    path = specs / relpath
    path.chmod(0)
    try:
        _refused_everywhere(specs, db, str(path), message)
    finally:
        path.chmod(mode)


def test_a_broken_symbolic_link_is_a_located_error(built):
    specs, db = built
    link = specs / "fabric" / "gone"
    os.symlink(specs / "no-such-folder", link)
    _refused_everywhere(specs, db, str(link), "broken symbolic link")


def test_a_symbolic_link_loop_is_a_located_error(built):
    specs, db = built
    link = specs / "fabric" / "loop.yaml"
    os.symlink(link, link)
    _refused_everywhere(specs, db, str(link), "broken symbolic link (Too many levels of symbolic links)")


def test_a_fifo_named_like_a_spec_is_refused_without_blocking(built):
    specs, db = built
    fifo = specs / "fabric" / "pipe.yaml"
    os.mkfifo(fifo)
    _refused_everywhere(specs, db, str(fifo), "not a regular file")


def test_a_missing_specs_folder_is_a_usage_error_without_an_invented_position(tmp_path, db):
    missing = tmp_path / "nowhere"
    for command in ("validate", "build", "list"):
        result = _specdb(command, "--specs", str(missing), *(["--db", str(db)] if command != "validate" else []))
        assert result.returncode == 2, result.stderr
        assert result.stderr.strip() == f"specdb: {missing}: specs folder not found"
    assert not db.exists()


# --- publishing: failure changes nothing, success is reported ------------------------------------


def test_a_location_that_cannot_be_written_fails_at_once_with_the_reason(specs):
    result = _specdb("build", "--specs", str(specs), "--db", "/proc/specdb.sqlite")
    assert result.returncode == 3
    assert "cannot write the database" in result.stderr and "another build" not in result.stderr


def test_a_read_only_folder_with_a_current_database_still_reads(built):
    specs, db = built
    db.parent.chmod(0o555)
    try:
        result = _specdb("show", "test-gpu", "--specs", str(specs), "--db", str(db))
        assert result.returncode == 0, result.stderr
        assert "3.35 TB/s" in result.stdout
    finally:
        db.parent.chmod(0o755)


@pytest.mark.parametrize("kind", ["fifo", "folder"])
def test_a_database_path_that_is_not_a_regular_file_is_refused_at_once(specs, tmp_path, kind):
    path = tmp_path / "special"
    os.mkfifo(path) if kind == "fifo" else path.mkdir()
    result = _specdb("list", "--specs", str(specs), "--db", str(path))
    assert result.returncode == 3, result.stderr
    assert str(path) in result.stderr and "a database is a file" in result.stderr


@pytest.mark.parametrize("option", ["--specs", "--db"])
def test_an_empty_path_option_is_a_usage_error(specs, db, option):
    args = ["list", "--specs", str(specs), "--db", str(db)]
    args[args.index(option) + 1] = ""
    result = _specdb(*args)
    assert result.returncode == 2
    assert f"{option} is empty" in result.stderr


def test_a_read_only_database_file_is_never_written_even_to_record_new_times(cli, specs, db, monkeypatch):
    monkeypatch.setattr(specfiles, "RACY_SECONDS", 0)
    assert cli("build").exit_code == 0
    db.chmod(0o444)
    before = db.read_bytes()
    os.utime(specs / GPU)  # only the times change: a writable database would record them
    assert cli("list").exit_code == 0
    assert db.read_bytes() == before
