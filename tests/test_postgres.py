"""Publishing to a real PostgreSQL server: the same commands, the same output, all or nothing.

The server's URL comes from SPECDB_TEST_POSTGRES_URL (`.ci/with-postgres` starts one);
each test gets a database of its own. Without the URL these tests skip, unless
SPECDB_TEST_POSTGRES_REQUIRED is set (as in CI), where a missing server fails.
"""

import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from typer.testing import CliRunner

from specdb.cli import app

from conftest import REPO, TEST_SPECS

SERVER = os.environ.get("SPECDB_TEST_POSTGRES_URL")
if not SERVER:
    if os.environ.get("SPECDB_TEST_POSTGRES_REQUIRED"):
        raise RuntimeError("SPECDB_TEST_POSTGRES_REQUIRED is set but SPECDB_TEST_POSTGRES_URL is not: start a server with .ci/with-postgres")
    pytest.skip("no PostgreSQL server: run the tests under .ci/with-postgres", allow_module_level=True)

import psycopg  # noqa: E402 - the test extra has it; only a server makes these tests run


def _with_database(url: str, name: str) -> str:
    return urlsplit(url)._replace(path=f"/{name}").geturl()


@pytest.fixture
def server_db():
    """A new, empty database on the test server (C collation, as specdb asks); dropped afterwards."""
    name = f"t_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(SERVER, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name} TEMPLATE template0 LOCALE 'C' ENCODING 'UTF8'")
    yield _with_database(SERVER, name)
    with psycopg.connect(SERVER, autocommit=True) as admin:
        admin.execute(f"DROP DATABASE {name} WITH (FORCE)")


def run(*args: str, db: str, specs: Path):
    return CliRunner().invoke(app, [*args, "--specs", str(specs), "--db", db], catch_exceptions=False)


def specdb_process(*args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "specdb", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def published(url: str) -> tuple[str, float, int]:
    """The published content hash, the test GPU's memory bandwidth and the number of figures, read in one statement."""
    with psycopg.connect(url) as connection:
        return connection.execute(
            "SELECT (SELECT value FROM specdb.meta WHERE key = 'content_hash'),"
            " (SELECT value FROM specdb.figure WHERE record_id = 'test-gpu' AND name = 'memory_bandwidth'),"
            " (SELECT COUNT(*) FROM specdb.figure)"
        ).fetchone()


def _edited(tmp_path: Path, name: str, bandwidth: str) -> Path:
    """A copy of the test specs whose GPU memory bandwidth is `bandwidth` (the copy on disk says 3.35 TB/s)."""
    target = tmp_path / name
    shutil.copytree(TEST_SPECS, target)
    gpu = target / "accelerator" / "test-gpu.yaml"
    gpu.write_text(gpu.read_text().replace("value: 3.35 TB/s", f"value: {bandwidth}"))
    return target


def _files(folder: Path) -> dict[str, bytes]:
    return {str(path.relative_to(folder)): path.read_bytes() for path in sorted(folder.rglob("*")) if path.is_file()}


READ_COMMANDS = [
    ["list"],
    ["list", "--kind", "source", "--format", "json"],
    ["show", "nvidia-h100-sxm"],
    ["show", "NVIDIA H100 80GB HBM3", "--format", "json"],
    ["query", "ratios"],
    ["query", "ratios", "--basis", "as-quoted", "--format", "json"],
    ["query", "figures", "--name", "%BANDWIDTH", "--vendor", "nvidia", "--format", "csv"],
    ["compare", "nvidia-h100-sxm", "nvidia-b200", "amd-mi300x"],
    ["stale", "--since", "2026-07"],
    ["stale"],
    ["collective", "all-reduce", "--params", "8e9", "--gpus", "16", "--platform", "hgx-h100", "--format", "json"],
    ["collective", "all-to-all", "--params", "1e9", "--gpus", "8", "--platform", "amd-mi300x-platform"],
    ["history", "nvidia-h100-sxm", "memory_bandwidth"],
    ["sql", "SELECT record_id, figure, value, sources FROM figure_view WHERE value > 1e12 ORDER BY record_id, figure"],
]


def test_every_read_command_prints_on_the_server_what_it_prints_on_the_file(server_db, tmp_path):
    specs = REPO / "specs"
    sqlite_db = str(tmp_path / "specdb.sqlite")
    assert run("build", db=server_db, specs=specs).exit_code == 0
    assert run("build", db=sqlite_db, specs=specs).exit_code == 0
    for command in READ_COMMANDS:
        on_file, on_server = run(*command, db=sqlite_db, specs=specs), run(*command, db=server_db, specs=specs)
        assert on_file.exit_code == 0, (command, on_file.stderr)
        assert (on_server.exit_code, on_server.stdout) == (0, on_file.stdout), command
    for fmt in ("datapackage", "llm-analysis", "aiconfigurator"):
        assert run("export", fmt, str(tmp_path / f"file-{fmt}"), db=sqlite_db, specs=specs).exit_code == 0
        assert run("export", fmt, str(tmp_path / f"server-{fmt}"), db=server_db, specs=specs).exit_code == 0
        assert _files(tmp_path / f"server-{fmt}") == _files(tmp_path / f"file-{fmt}") != {}
    datasette = run("export", "datasette", str(tmp_path / "server-datasette"), db=server_db, specs=specs)
    assert datasette.exit_code == 2 and "copy of the SQLite file" in datasette.stderr
    page = tmp_path / "page.md"
    page.write_text("The H100 SXM has 3.35 TB/s of HBM3 and 900 GB/s of NVLink; the MI300X has 5.3 TB/s.\n")
    for fmt in ("json", "markdown"):
        on_file = run("check", str(page), "--format", fmt, db=sqlite_db, specs=specs)
        assert run("check", str(page), "--format", fmt, db=server_db, specs=specs).stdout == on_file.stdout != ""


def test_the_server_holds_the_meta_of_the_file_and_a_second_build_does_nothing(server_db, tmp_path):
    specs = _edited(tmp_path, "specs", "3.35 TB/s")
    sqlite_db = str(tmp_path / "specdb.sqlite")
    first = run("build", db=server_db, specs=specs)
    assert first.exit_code == 0 and "built" in first.stderr
    # touched, not changed: the stamp is recorded anew, the data is not republished
    gpu = specs / "accelerator" / "test-gpu.yaml"
    os.utime(gpu, (gpu.stat().st_atime, gpu.stat().st_mtime - 3600))
    again = run("build", db=server_db, specs=specs)
    assert again.exit_code == 0 and "up to date" in again.stderr
    run("build", db=sqlite_db, specs=specs)
    import sqlite3

    on_file = dict(sqlite3.connect(sqlite_db).execute("SELECT key, value FROM meta"))
    with psycopg.connect(server_db) as connection:
        on_server = dict(connection.execute("SELECT key, value FROM specdb.meta").fetchall())
        revision = connection.execute("SELECT version_num FROM specdb.alembic_version").fetchone()[0]
    assert on_server == on_file and revision == "0006"
    # the password is not printed
    password = urlsplit(server_db).password
    assert password and password not in first.stderr and password not in again.stderr


def publication_dump(url: str) -> tuple[int, list[str], dict[str, list[str]]]:
    """Everything published: the schema's identity (a publish makes a new one), the specdb schemas, and every row of every table."""
    with psycopg.connect(url) as connection:
        oid = connection.execute("SELECT oid FROM pg_namespace WHERE nspname = 'specdb'").fetchone()[0]
        schemas = [row[0] for row in connection.execute("SELECT nspname FROM pg_namespace WHERE nspname LIKE 'specdb%' ORDER BY 1")]
        tables = [row[0] for row in connection.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'specdb' ORDER BY 1")]
        return oid, schemas, {table: sorted(map(repr, connection.execute(f"SELECT * FROM specdb.{table}"))) for table in tables}


OTHER_SPECS = "holds other data than the specs at"


def test_a_read_with_other_specs_reads_the_publication_as_it_is_and_says_so(server_db, tmp_path, capsys):
    import specdb

    published_specs, newer = tmp_path / "published", tmp_path / "newer"
    for folder in (published_specs, newer):
        shutil.copytree(REPO / "specs", folder)
    h100 = newer / "accelerator" / "nvidia-h100-sxm.yaml"
    h100.write_text(h100.read_text().replace("value: 3.35 TB/s", "value: 3.36 TB/s", 1))
    assert run("build", db=server_db, specs=published_specs).exit_code == 0
    before = publication_dump(server_db)
    assert before[2]["figure"] and before[2]["publication"]
    # Once a process through the API, however often it connects.
    capsys.readouterr()
    for _ in range(3):
        specdb.connect(newer, server_db).close()
    assert capsys.readouterr().err.count(OTHER_SPECS) == 1
    for command in [*READ_COMMANDS, ["info"], ["export", "datapackage", str(tmp_path / "export")]]:
        result = run(*command, db=server_db, specs=newer)
        assert result.exit_code == 0, (command, result.stderr)
    shown = json.loads(run("show", "nvidia-h100-sxm", "--format", "json", db=server_db, specs=newer).stdout)
    assert {figure["name"]: figure["value"] for figure in shown["figures"]}["memory_bandwidth"] == 3.35e12
    manifest = json.loads((tmp_path / "export" / "specdb-export.json").read_text())
    assert manifest["content_hash"] == published(server_db)[0]
    # Said once a command, on stderr, with the command that publishes these specs.
    for command in (["list"], ["show", "nvidia-h100-sxm"]):
        process = subprocess.run(
            [sys.executable, "-m", "specdb", *command, "--specs", str(newer), "--db", server_db], capture_output=True, text=True
        )
        assert process.returncode == 0 and process.stdout
        [warning] = process.stderr.splitlines()
        assert OTHER_SPECS in warning and f"specdb build --specs {newer} --db" in warning, warning
    assert publication_dump(server_db) == before
    # The same specs as published: nothing said.
    same = subprocess.run([sys.executable, "-m", "specdb", "list", "--specs", str(published_specs), "--db", server_db], capture_output=True, text=True)
    assert (same.returncode, same.stderr) == (0, "")
    # Publishing on purpose.
    refreshed = run("show", "nvidia-h100-sxm", "--format", "json", "--refresh", db=server_db, specs=newer)
    assert (refreshed.exit_code, refreshed.stderr) == (0, "")
    assert {figure["name"]: figure["value"] for figure in json.loads(refreshed.stdout)["figures"]}["memory_bandwidth"] == 3.36e12
    assert publication_dump(server_db) != before


def test_a_publication_of_other_data_is_never_named_as_the_bundled_data_version(server_db, tmp_path):
    import specdb
    from specdb.resources import bundled_specs

    edited = tmp_path / "edited"
    shutil.copytree(bundled_specs(), edited)
    h100 = edited / "accelerator" / "nvidia-h100-sxm.yaml"
    h100.write_text(h100.read_text().replace("value: 3.35 TB/s", "value: 3.36 TB/s", 1))
    for folder, version in ((bundled_specs(), specdb.DATA_VERSION), (edited, None)):
        assert run("build", db=server_db, specs=folder).exit_code == 0
        facts = json.loads(run("info", "--format", "json", db=server_db, specs=bundled_specs()).stdout)
        assert (facts["data_version"], facts["content_hash"]) == (version, published(server_db)[0])
        assert ("custom specs" in facts["attribution"]) == (version is None)
        exported = tmp_path / f"export-{folder.name}"
        assert run("export", "datapackage", str(exported), db=server_db, specs=bundled_specs()).exit_code == 0
        package = json.loads((exported / "datapackage.json").read_text())
        assert package["version"] == (version or f"{specdb.__version__}+{published(server_db)[0][:12]}")


def test_a_read_of_a_server_with_nothing_published_names_the_publish_command_and_creates_nothing(server_db):
    import specdb
    from specdb.errors import DatabaseError

    for command in (["list"], ["info"], ["sql", "SELECT 1"]):
        result = run(*command, db=server_db, specs=TEST_SPECS)
        assert result.exit_code == 3 and "nothing published here yet" in result.stderr and "specdb build --db" in result.stderr, result.stderr
    with pytest.raises(DatabaseError, match="nothing published here yet"):
        specdb.connect(TEST_SPECS, server_db)
    with psycopg.connect(server_db) as connection:
        assert connection.execute("SELECT nspname FROM pg_namespace WHERE nspname LIKE 'specdb%'").fetchall() == []


def test_each_publish_is_logged_and_info_lists_the_last_ones(server_db, tmp_path):
    low, high = _edited(tmp_path, "low", "3.35 TB/s"), _edited(tmp_path, "high", "4 TB/s")
    hashes = []
    for folder in (low, high, low):
        result = run("build", db=server_db, specs=folder)
        assert result.exit_code == 0 and "built" in result.stderr
        hashes.append(published(server_db)[0])
    assert run("build", db=server_db, specs=low).exit_code == 0  # nothing to publish: nothing logged
    assert hashes[0] == hashes[2] != hashes[1]
    facts = json.loads(run("info", "--format", "json", db=server_db, specs=low).stdout)
    user = urlsplit(server_db).username
    assert facts["content_hash"] == hashes[2]
    assert [(row["number"], row["content_hash"], row["previous_content_hash"], row["published_by"], row["specdb_version"]) for row in facts["publications"]] == [
        (3, hashes[2], hashes[1], user, __import__("specdb").__version__),
        (2, hashes[1], hashes[0], user, __import__("specdb").__version__),
        (1, hashes[0], None, user, __import__("specdb").__version__),
    ]
    table = run("info", db=server_db, specs=low).stdout
    assert table.count(f"by {user}: ") == 3 and f"{hashes[2][:12]} (replacing {hashes[1][:12]})" in table
    # specs published before and then replaced are older than the publication
    older = run("list", db=server_db, specs=high)
    assert older.exit_code == 0 and "the publication is newer" in older.stderr, older.stderr


def test_specs_in_git_ahead_of_the_publication_are_said_to_be_newer(server_db, tmp_path):
    specs = _edited(tmp_path, "checkout", "3.35 TB/s")
    git = ["git", "-C", str(specs), "-c", "user.name=t", "-c", "user.email=t@example.org"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-qm", "first"], check=True)
    assert run("build", db=server_db, specs=specs).exit_code == 0
    gpu = specs / "accelerator" / "test-gpu.yaml"
    gpu.write_text(gpu.read_text().replace("value: 3.35 TB/s", "value: 4 TB/s"))
    edited = run("list", db=server_db, specs=specs)
    assert "these specs are newer (edited since git revision" in edited.stderr, edited.stderr
    gpu.write_text(gpu.read_text().replace("value: 4 TB/s", "value: 5 TB/s"))
    subprocess.run([*git, "commit", "-qam", "second"], check=True)
    committed = run("list", db=server_db, specs=specs)
    assert "these specs are newer (git revision" in committed.stderr, committed.stderr


def test_readers_during_repeated_rebuilds_see_the_old_data_or_the_new_never_a_mix(server_db, tmp_path):
    import specdb

    low, high = _edited(tmp_path, "low", "3.35 TB/s"), _edited(tmp_path, "high", "4 TB/s")
    specdb.build(low, server_db)
    expected = {published(server_db)[:2]}
    specdb.build(high, server_db)
    expected.add(published(server_db)[:2])
    assert {value for _, value in expected} == {3.35e12, 4e12}
    seen, failures, done = [], [], threading.Event()

    def read() -> None:
        while not done.is_set():
            try:
                # With either specs in hand: a reader reads whatever is published, and never publishes.
                connection = specdb.connect(low if len(seen) % 2 else high, server_db)
                try:
                    content_hash = connection.execute("SELECT value FROM meta WHERE key = 'content_hash'").fetchone()[0]
                    figures = specdb.figures(connection, record="test-gpu", name="memory_bandwidth")
                    count = connection.execute("SELECT COUNT(*) FROM figure").fetchone()[0]
                finally:
                    connection.close()
                seen.append((content_hash, figures[0]["value"], count))
            except Exception as exc:  # noqa: BLE001 - any failure of a reader is what this test looks for
                failures.append(repr(exc))

    reader = threading.Thread(target=read)
    reader.start()
    try:
        for round_ in range(4):
            specdb.build(low if round_ % 2 == 0 else high, server_db)
    finally:
        done.set()
        reader.join()
    figure_count = published(server_db)[2]
    assert failures == []
    assert len(seen) > 3
    assert {(content_hash, value) for content_hash, value, _ in seen} <= expected
    assert {count for *_, count in seen} == {figure_count}


def test_two_builds_at_once_end_with_one_whole_publication(server_db, tmp_path):
    import specdb

    low, high = _edited(tmp_path, "low", "3.35 TB/s"), _edited(tmp_path, "high", "4 TB/s")
    specdb.load_specs(low)  # the libraries load once, before the race
    results: list[object] = []
    builds = [threading.Thread(target=lambda folder=folder: results.append(specdb.build(folder, server_db).changed)) for folder in (low, high)]
    for build in builds:
        build.start()
    for build in builds:
        build.join(60)
    assert results == [True, True]
    _, value, _ = published(server_db)
    winner = low if value == 3.35e12 else high
    assert value in (3.35e12, 4e12)
    check = run("build", db=server_db, specs=winner)
    assert "up to date" in check.stderr  # the meta published is that of the same specs as the figures
    # Both published, in turn: the log holds both, the second replacing the first, the last the one serving.
    log = json.loads(run("info", "--format", "json", db=server_db, specs=winner).stdout)["publications"]
    assert [row["number"] for row in log] == [2, 1] and log[0]["previous_content_hash"] == log[1]["content_hash"] != log[0]["content_hash"]
    assert log[0]["content_hash"] == published(server_db)[0] and log[1]["previous_content_hash"] is None
    with psycopg.connect(server_db) as connection:
        schemas = {row[0] for row in connection.execute("SELECT nspname FROM pg_namespace WHERE nspname LIKE 'specdb%'")}
    assert schemas == {"specdb"}


def test_a_build_killed_before_it_publishes_leaves_the_published_data_as_it_was(server_db, tmp_path):
    import specdb

    low, high = _edited(tmp_path, "low", "3.35 TB/s"), _edited(tmp_path, "high", "4 TB/s")
    specdb.build(low, server_db)
    before = published(server_db)
    # A reader holds the read lock, so the build loads everything into its new schema and then waits to rename it.
    reader = specdb.connect(low, server_db)
    build = specdb_process("build", "--specs", str(high), "--db", server_db)
    try:
        with psycopg.connect(server_db) as watcher:
            deadline = time.monotonic() + 30
            while not watcher.execute("SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted").fetchone():
                assert time.monotonic() < deadline and build.poll() is None, build.stderr.read() if build.poll() is not None else "no wait"
                time.sleep(0.05)
        build.send_signal(signal.SIGKILL)
        build.wait(10)
    finally:
        reader.close()
    assert published(server_db) == before
    with psycopg.connect(server_db) as connection:
        schemas = {row[0] for row in connection.execute("SELECT nspname FROM pg_namespace WHERE nspname LIKE 'specdb%'")}
    assert schemas == {"specdb"}
    assert run("build", db=server_db, specs=high).exit_code == 0 and published(server_db)[1] == 4e12


def test_publishes_killed_at_random_moments_leave_one_whole_publication_serving(server_db, tmp_path):
    import specdb

    low, high = _edited(tmp_path, "low", "3.35 TB/s"), _edited(tmp_path, "high", "4 TB/s")
    specdb.build(high, server_db)
    whole = {publication_dump(server_db)[2]["figure"].__repr__()}
    specdb.build(low, server_db)
    whole.add(publication_dump(server_db)[2]["figure"].__repr__())
    logged = len(publication_dump(server_db)[2]["publication"])
    # From before the publish connects to after it may have committed (a publish here takes one to four seconds).
    for delay in (0.3, 0.9, 1.5, 2.1, 2.7, 3.3, 4.0, 5.0):
        serving = published(server_db)
        target = high if serving[1] == 3.35e12 else low
        build = specdb_process("build", "--specs", str(target), "--db", server_db)
        time.sleep(delay)
        build.send_signal(signal.SIGKILL)
        build.wait(10)
        after = publication_dump(server_db)
        assert repr(after[2]["figure"]) in whole and after[1] == ["specdb"], delay
        content_hash, value, _ = published(server_db)
        # The meta and the log published with the figures are theirs: a publish that finished logged itself, one killed did not.
        log = json.loads(run("info", "--format", "json", db=server_db, specs=target).stdout)["publications"]
        assert log[0]["content_hash"] == content_hash and len(after[2]["publication"]) == logged + (value != serving[1])
        logged = len(after[2]["publication"])
    assert run("build", db=server_db, specs=high).exit_code == 0 and published(server_db)[1] == 4e12


def test_diff_compares_two_servers_or_a_server_and_a_file(server_db, tmp_path):
    low, high = _edited(tmp_path, "low", "3.35 TB/s"), _edited(tmp_path, "high", "4 TB/s")
    other, empty = f"t_{uuid.uuid4().hex[:12]}", f"t_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(SERVER, autocommit=True) as admin:
        for name in (other, empty):
            admin.execute(f"CREATE DATABASE {name} TEMPLATE template0 LOCALE 'C' ENCODING 'UTF8'")
    other_db = _with_database(SERVER, other)
    try:
        assert run("build", db=server_db, specs=low).exit_code == 0
        assert run("build", db=other_db, specs=high).exit_code == 0
        sqlite_db = tmp_path / "high.sqlite"
        assert run("build", db=str(sqlite_db), specs=high).exit_code == 0
        expected = CliRunner().invoke(app, ["diff", str(low), str(high), "--format", "json", "--specs", str(low)])
        assert expected.exit_code == 0 and "memory_bandwidth" in expected.stdout
        for new in (other_db, str(sqlite_db)):
            result = CliRunner().invoke(app, ["diff", server_db, new, "--format", "json", "--specs", str(low)])
            assert (result.exit_code, result.stdout) == (0, expected.stdout), result.stderr
        password = urlsplit(server_db).password
        assert password not in CliRunner().invoke(app, ["diff", server_db, other_db, "--specs", str(low)]).stdout
        refused = CliRunner().invoke(app, ["diff", server_db, _with_database(SERVER, empty), "--specs", str(low)])
        assert refused.exit_code == 2 and "nothing published here yet" in refused.stderr
    finally:
        with psycopg.connect(SERVER, autocommit=True) as admin:
            for name in (other, empty):
                admin.execute(f"DROP DATABASE {name} WITH (FORCE)")


def test_a_stamp_is_recorded_only_on_the_publication_its_files_were_compared_with(server_db, tmp_path):
    import specdb
    from specdb.locations import ServerDatabase
    from specdb.db.publish import _restamp
    from specdb.load.files import Stamp

    low, high = _edited(tmp_path, "low", "3.35 TB/s"), _edited(tmp_path, "high", "4 TB/s")
    specdb.build(low, server_db)
    with psycopg.connect(server_db) as connection:
        compared = dict(connection.execute("SELECT key, value FROM specdb.meta").fetchall())
    specdb.build(high, server_db)  # published between the comparison and the stamp
    before = publication_dump(server_db)
    _restamp(ServerDatabase(server_db), low, Stamp("0" * 64, racy=False), compared)
    assert publication_dump(server_db) == before
    assert run("list", db=server_db, specs=low).stderr.count(OTHER_SPECS) == 1


def test_a_schema_specdb_did_not_publish_is_never_replaced(server_db):
    with psycopg.connect(server_db, autocommit=True) as connection:
        connection.execute("CREATE SCHEMA specdb")
        connection.execute("CREATE TABLE specdb.figure (kept text)")
    result = run("build", db=server_db, specs=TEST_SPECS)
    assert result.exit_code == 3 and "did not publish" in result.stderr
    with psycopg.connect(server_db) as connection:
        assert connection.execute("SELECT column_name FROM information_schema.columns WHERE table_schema = 'specdb'").fetchall() == [("kept",)]


def test_a_dashboard_role_granted_the_schema_keeps_reading_after_a_rebuild(server_db, tmp_path):
    low, high = _edited(tmp_path, "low", "3.35 TB/s"), _edited(tmp_path, "high", "4 TB/s")
    run("build", db=server_db, specs=low)
    role = f"dashboard_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(server_db, autocommit=True) as admin:
        admin.execute(f"CREATE ROLE {role} LOGIN PASSWORD 'seen-by-dashboards'")
        admin.execute(f"GRANT USAGE ON SCHEMA specdb TO {role}")
        admin.execute(f"GRANT SELECT ON ALL TABLES IN SCHEMA specdb TO {role}")
    try:
        run("build", db=server_db, specs=high)
        parts = urlsplit(server_db)
        dashboard = parts._replace(netloc=f"{role}:seen-by-dashboards@{parts.hostname or ''}" + (f":{parts.port}" if parts.port else "")).geturl()
        with psycopg.connect(dashboard) as connection:
            row = connection.execute("SELECT value FROM specdb.figure_view WHERE record_id = 'test-gpu' AND figure = 'memory_bandwidth'").fetchone()
        assert row == (4e12,)
    finally:
        with psycopg.connect(server_db, autocommit=True) as admin:
            admin.execute(f"DROP OWNED BY {role}")
            admin.execute(f"DROP ROLE {role}")


def _readme_reader_grant() -> list[str]:
    """The statements docs/database.md gives for a read-only role, as written there."""
    text = (REPO / "docs" / "database.md").read_text()
    block = text[text.index("```sql\n", text.index("## Publishing to a PostgreSQL server")) + len("```sql\n"):]
    return [statement.strip() for statement in block[:block.index("```")].split(";") if statement.strip()]


def test_the_documented_read_only_role_reads_everything_and_cannot_publish(server_db, tmp_path):
    import specdb
    from specdb.errors import DatabaseError

    low, high = _edited(tmp_path, "low", "3.35 TB/s"), _edited(tmp_path, "high", "4 TB/s")
    assert run("build", db=server_db, specs=low).exit_code == 0
    role = f"reader_{uuid.uuid4().hex[:8]}"
    parts = urlsplit(server_db)
    statements = [statement.replace("specdb_reader", role).replace("specdb_publisher", parts.username) for statement in _readme_reader_grant()]
    assert statements and statements[0].startswith(f"CREATE ROLE {role} LOGIN PASSWORD 'reader-password'")
    with psycopg.connect(server_db, autocommit=True) as admin:
        for statement in statements:
            admin.execute(statement)
    reader = parts._replace(netloc=f"{role}:reader-password@{parts.netloc.rsplit('@', 1)[1]}").geturl()
    try:
        # A publication made after the grant is read too.
        assert run("build", db=server_db, specs=high).exit_code == 0
        before = publication_dump(server_db)
        commands = [
            ["list"], ["show", "test-gpu", "--format", "json"], ["query", "ratios"], ["stale"], ["compare", "test-link", "test-pcie"],
            ["sql", "SELECT record_id, figure, value FROM figure_view ORDER BY record_id, figure"], ["info", "--format", "json"],
        ]
        for specs in (high, low):  # the specs published, and other specs (which the reader cannot and must not publish)
            for command in commands:
                as_reader, as_owner = run(*command, db=reader, specs=specs), run(*command, db=server_db, specs=specs)
                assert as_reader.exit_code == 0, (command, as_reader.stderr)
                if command[0] != "info":
                    assert as_reader.stdout == as_owner.stdout, command
            exported = run("export", "datapackage", str(tmp_path / f"export-{specs.name}"), db=reader, specs=specs)
            assert exported.exit_code == 0, exported.stderr
            connection = specdb.connect(specs, reader)
            try:
                assert specdb.show(connection, "test-gpu")["figures"]
            finally:
                connection.close()
        assert json.loads(run("info", "--format", "json", db=reader, specs=high).stdout)["publications"][0]["content_hash"] == published(server_db)[0]
        refused = run("build", db=reader, specs=low)
        assert refused.exit_code == 3 and f"permission denied: role {role} may not publish here" in refused.stderr, refused.stderr
        assert refused.stderr.count("\n") == 1
        with pytest.raises(DatabaseError, match="permission denied"):
            specdb.connect(low, reader, refresh=True)
        with psycopg.connect(server_db, autocommit=True) as admin:
            admin.execute(f"GRANT CREATE ON DATABASE {parts.path.lstrip('/')} TO {role}")
        not_owner = run("build", db=reader, specs=low)
        assert not_owner.exit_code == 3 and "needs to own the schema specdb, or be a member of the role that owns it" in not_owner.stderr
        assert publication_dump(server_db) == before
    finally:
        with psycopg.connect(server_db, autocommit=True) as admin:
            admin.execute(f"DROP OWNED BY {role}")
            admin.execute(f"DROP ROLE {role}")


def test_specdb_sql_on_the_server_only_reads_and_stops_at_the_time_limit(server_db):
    assert run("build", db=server_db, specs=TEST_SPECS).exit_code == 0
    for query, words in [
        ("DELETE FROM figure", "syntax error"),  # a server-side cursor takes a query only
        ("SELECT nextval('figure_id_seq')", "VOLATILE"),  # refused before it runs; the transaction is read-only besides
        ("SELECT set_config('default_transaction_read_only', 'off', false), nextval('figure_id_seq')", "VOLATILE"),
    ]:
        result = run("sql", query, db=server_db, specs=TEST_SPECS)
        assert result.exit_code == 2 and words in result.stderr, (query, result.stderr)
    slow = run("sql", "SELECT pg_sleep(5)", "--timeout", "0.3", db=server_db, specs=TEST_SPECS)
    assert slow.exit_code == 2 and "time limit of 0.3 s" in slow.stderr
    many = run("sql", "SELECT * FROM generate_series(1, 50)", "--max-rows", "20", db=server_db, specs=TEST_SPECS)
    assert many.exit_code == 2 and "more than 20 rows" in many.stderr
    assert published(server_db)[2] > 0


def _refused_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.mark.parametrize("case", ["server down", "wrong password", "missing database"])
def test_a_connection_error_is_one_line_and_exit_3_without_the_password(case, tmp_path):
    parts = urlsplit(SERVER)
    secret = "not-the-password-x7"
    url = {
        "server down": f"postgresql://specdb:{secret}@127.0.0.1:{_refused_port()}/specdb",
        "wrong password": parts._replace(netloc=f"{parts.username}:{secret}@{parts.netloc.rsplit('@', 1)[1]}").geturl(),
        "missing database": _with_database(SERVER, "no_such_database"),
    }[case]
    expected = {"server down": "refused", "wrong password": "password authentication failed", "missing database": 'database "no_such_database" does not exist'}[case]
    for command in (["build"], ["list"], ["sql", "SELECT 1"]):
        result = run(*command, db=url, specs=TEST_SPECS)
        err = result.stderr
        assert result.exit_code == 3, (command, err)
        assert err.count("\n") == 1 and expected in err, err
        assert secret not in err and (parts.password or secret) not in err and ":***@" in err


def test_without_the_driver_a_server_url_says_how_to_install_it(server_db):
    code = (
        "import sys\nsys.modules['psycopg'] = None\n"
        "from specdb.cli import main\n"
        f"sys.argv = ['specdb', 'list', '--specs', {str(TEST_SPECS)!r}, '--db', {server_db!r}]\n"
        "main()\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 3
    assert result.stderr == "specdb: a postgresql:// database needs the PostgreSQL driver: pip install 'specdb[postgres]'\n"


def test_a_database_that_sorts_by_locale_is_refused_before_anything_is_published():
    name = f"t_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(SERVER, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name} TEMPLATE template0 LOCALE 'C' LOCALE_PROVIDER icu ICU_LOCALE 'en-US' ENCODING 'UTF8'")
    url = _with_database(SERVER, name)
    try:
        result = run("build", db=url, specs=TEST_SPECS)
        assert result.exit_code == 3 and "needs the C collation" in result.stderr
        with psycopg.connect(url) as connection:
            assert connection.execute("SELECT to_regnamespace('specdb')").fetchone() == (None,)
    finally:
        with psycopg.connect(SERVER, autocommit=True) as admin:
            admin.execute(f"DROP DATABASE {name} WITH (FORCE)")


@pytest.mark.parametrize("start", ["0001", "0002"])
def test_the_migrations_upgrade_a_server_schema_made_at_every_earlier_revision(server_db, start):
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext
    from sqlalchemy import create_engine
    from sqlalchemy.pool import NullPool

    from specdb.db import models
    from specdb.db.migrate import migrate
    from specdb.db.publish import GROUP_CONCAT, NEXT_SCHEMA

    with psycopg.connect(server_db, autocommit=True) as admin:
        admin.execute(f"CREATE SCHEMA {NEXT_SCHEMA}")
        admin.execute(GROUP_CONCAT)
    engine = create_engine(
        "postgresql+psycopg://", creator=lambda: psycopg.connect(server_db, options=f"-c search_path={NEXT_SCHEMA}"), poolclass=NullPool
    )
    try:
        with engine.begin() as connection:
            migrate(connection, start)
            revision = connection.exec_driver_sql("SELECT version_num FROM alembic_version").scalar()
            tables = set(connection.exec_driver_sql(f"SELECT tablename FROM pg_tables WHERE schemaname = '{NEXT_SCHEMA}'").scalars())
            migrate(connection)
            differences = compare_metadata(MigrationContext.configure(connection), models.metadata)
            head = connection.exec_driver_sql("SELECT version_num FROM alembic_version").scalar()
    finally:
        engine.dispose()
    assert revision == start and "collective_run" not in tables and "figure" in tables
    assert (head, differences) == ("0006", [])


def test_specdb_sql_on_the_server_keeps_every_column_of_one_name(server_db):
    assert run("build", db=server_db, specs=TEST_SPECS).exit_code == 0
    joined = run("sql", "SELECT f.name, r.name FROM figure f JOIN record r ON r.id = f.record_id WHERE r.id = 'test-gpu' ORDER BY f.name LIMIT 1", "-f", "csv", db=server_db, specs=TEST_SPECS)
    header, row = joined.stdout.splitlines()
    assert header == "name,name" and row.endswith(",Test GPU 80GB") and not row.startswith("Test GPU")
    unnamed = run("sql", "SELECT 1, 2, 'x'", "-f", "json", db=server_db, specs=TEST_SPECS)
    assert json.loads(unnamed.stdout) == [{"?column?": 1, "?column?_2": 2, "?column?_3": "x"}]
    assert "?column?_2 (column 2)" in unnamed.stderr


@pytest.mark.parametrize("query", [
    "SELECT set_config('statement_timeout', '0', true)",
    "SELECT pg_advisory_lock(1)",
    "SELECT * FROM pg_try_advisory_xact_lock(1)",
    "SELECT pg_notify('specdb', 'x')",
    "SELECT pg_catalog . \"pg_notify\" /* a call */ ('specdb', 'x')",
    "SELECT PG_ADVISORY_LOCK\n(1)",
    "SELECT E'\\' ', pg_advisory_lock(1), ' '",  # the backslash escapes the quote, so the call is code
    "SELECT query_to_xml('SELECT pg_advisory_lock(1)', true, false, '')",
    "SELECT /* /* nested */ ' */ pg_advisory_lock(1) --'",
    "SELECT U&\"pg_notify\"('specdb', 'x')",
])
def test_specdb_sql_on_the_server_refuses_functions_with_side_effects(server_db, query):
    assert run("build", db=server_db, specs=TEST_SPECS).exit_code == 0
    result = run("sql", query, db=server_db, specs=TEST_SPECS)
    assert result.exit_code == 2 and result.stderr.startswith("specdb: SQL failed:"), result.stderr


@pytest.mark.parametrize("query", [
    "SELECT 'pg_advisory_lock(1)' AS text, $$set_config('a', 'b', true)$$ AS quoted",
    "SELECT random() < 2, clock_timestamp() > '2000-01-01'",
    "SELECT count(*) > 0 FROM figure TABLESAMPLE SYSTEM (100)",
    "SELECT current_setting('statement_timeout') <> '0'",
])
def test_specdb_sql_on_the_server_still_calls_functions_that_only_read(server_db, query):
    assert run("build", db=server_db, specs=TEST_SPECS).exit_code == 0
    result = run("sql", query, "-f", "csv", db=server_db, specs=TEST_SPECS)
    assert result.exit_code == 0, result.stderr


def test_the_time_limit_holds_when_the_query_lifts_the_servers_own(server_db, monkeypatch):
    """The statement timeout is re-armed at each FETCH; a query that switched it off after the first batch is cancelled from here."""
    from specdb.db import postgres

    assert run("build", db=server_db, specs=TEST_SPECS).exit_code == 0
    monkeypatch.setattr(postgres, "_HARMLESS_VOLATILE", postgres._HARMLESS_VOLATILE | {"set_config"})
    query = "SELECT set_config('statement_timeout', '0', true), pg_sleep(CASE WHEN i > 1000 THEN 30 ELSE 0 END) FROM generate_series(1, 1001) i"
    result = run("sql", query, "--timeout", "1", db=server_db, specs=TEST_SPECS)
    assert result.exit_code == 2 and "time limit of 1 s" in result.stderr, result.stderr


def test_a_reader_behind_a_publish_waits_no_longer_than_its_time_limit(server_db):
    from specdb.db.postgres import READ_LOCK

    assert run("build", db=server_db, specs=TEST_SPECS).exit_code == 0
    with psycopg.connect(server_db) as publisher:
        publisher.execute("SELECT pg_advisory_xact_lock(%s)", (READ_LOCK,))  # as a publish holds it while it renames
        reader = specdb_process("sql", "SELECT 1", "--timeout", "0.5", "--specs", str(TEST_SPECS), "--db", server_db)
        try:
            _, err = reader.communicate(timeout=60)
        finally:
            reader.kill()
    assert reader.returncode == 3 and "waited 0.5 s for the read lock" in err, err


def _lexer_case(rng) -> str:
    """A SELECT of literals of every quoting PostgreSQL has, holding the characters that end or open them, with comments
    between the items and sometimes a call of pg_advisory_xact_lock(4242) written one of the ways a name can be."""
    tricky = ["'", "\\", "\\'", "''", "$$", "$t$", "/*", "*/", "--", "\n", '"', "pg_advisory_xact_lock(4242)", "x"]

    def content() -> str:
        return "".join(rng.choice(tricky) for _ in range(rng.randint(0, 4)))

    def literal() -> str:
        body = content()
        return rng.choice([
            "'" + body.replace("'", "''") + "'",
            "E'" + body.replace("\\", "\\\\").replace("'", "\\'") + "'",
            "$q$" + body.replace("$q", "") + "$q$",
            "U&'" + body.replace("'", "''").replace("\\", "\\\\") + "'",
            str(rng.randint(0, 9)),
        ])

    def gap() -> str:
        inner = content().replace("*/", "").replace("/*", "")
        return rng.choice([" ", "\n", "", f"/* {inner} */", f"/* /* nested */ {inner} */", "-- " + inner.replace("\n", "") + "\n"])

    items = [literal() for _ in range(rng.randint(1, 4))]
    if rng.random() < 0.5:
        call = rng.choice(["pg_advisory_xact_lock{g}(4242)", '"pg_advisory_xact_lock"{g}(4242)', "pg_catalog{g}.{g}PG_Advisory_Xact_Lock(4242)"])
        items.insert(rng.randrange(len(items) + 1), call.format(g=gap()))
    return "SELECT" + gap() + " " + (gap() + "," + gap()).join(items) + gap()


def test_the_lexer_finds_every_call_the_server_makes(server_db):
    """Differential: each generated query runs on the server, which says whether it took the advisory lock; the lexer
    must have named the function whenever it did, and never when it did not."""
    import random

    from specdb.db.sqlquery import called_functions

    rng = random.Random(20261202)
    took = 0
    with psycopg.connect(server_db) as connection:
        connection.execute("SET standard_conforming_strings = on")
        for _ in range(1500):
            query = _lexer_case(rng)
            try:
                with connection.transaction(force_rollback=True):
                    connection.execute(query.replace("%", "%%"))
                    held = connection.execute("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND objid = 4242 AND pid = pg_backend_pid()").fetchone()[0]
            except psycopg.Error:
                continue
            took += bool(held)
            assert ("pg_advisory_xact_lock" in called_functions(query)) == bool(held), query
    assert took > 300


def test_a_publication_of_a_newer_specdb_is_neither_read_nor_replaced(server_db):
    assert run("build", db=server_db, specs=TEST_SPECS).exit_code == 0
    with psycopg.connect(server_db, autocommit=True) as owner:
        owner.execute("UPDATE specdb.alembic_version SET version_num = '9999'")
    for args in (["list"], ["build"]):
        result = run(*args, db=server_db, specs=TEST_SPECS)
        assert result.exit_code == 3, args
        assert "published by a newer specdb (schema revision 9999)" in result.stderr and "Upgrade specdb" in result.stderr
    with psycopg.connect(server_db) as owner:
        assert owner.execute("SELECT version_num FROM specdb.alembic_version").fetchone() == ("9999",)
