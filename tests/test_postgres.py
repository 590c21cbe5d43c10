"""Publishing to a real PostgreSQL server: the same commands, the same output, all or nothing.

The server's URL comes from SPECDB_TEST_POSTGRES_URL (`.ci/with-postgres` starts one);
each test gets a database of its own. Without the URL these tests skip, unless
SPECDB_TEST_POSTGRES_REQUIRED is set (as in CI), where a missing server fails.
"""

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
    assert on_server == on_file and revision == "0005"
    # the password is not printed
    password = urlsplit(server_db).password
    assert password and password not in first.stderr and password not in again.stderr


def test_a_changed_spec_is_republished_and_readers_see_it(server_db, tmp_path):
    specs = _edited(tmp_path, "specs", "3.35 TB/s")
    run("build", db=server_db, specs=specs)
    assert published(server_db)[1] == 3.35e12
    gpu = specs / "accelerator" / "test-gpu.yaml"
    gpu.write_text(gpu.read_text().replace("value: 3.35 TB/s", "value: 4 TB/s"))
    shown = run("show", "test-gpu", "--format", "json", db=server_db, specs=specs)
    bandwidth = next(figure for figure in __import__("json").loads(shown.stdout)["figures"] if figure["name"] == "memory_bandwidth")
    assert bandwidth["value"] == 4e12 and published(server_db)[1] == 4e12


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
        from specdb.locations import ServerDatabase
        from specdb.postgres import connect_readonly

        while not done.is_set():
            try:
                # What specdb.connect returns once the data is fresh; read without republishing.
                connection = connect_readonly(ServerDatabase(server_db))
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


def test_specdb_sql_on_the_server_only_reads_and_stops_at_the_time_limit(server_db):
    assert run("build", db=server_db, specs=TEST_SPECS).exit_code == 0
    for query, words in [
        ("DELETE FROM figure", "syntax error"),  # a server-side cursor takes a query only
        ("SELECT nextval('figure_id_seq')", "read-only"),
        ("SELECT set_config('default_transaction_read_only', 'off', false), nextval('figure_id_seq')", "read-only"),
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

    from specdb import models
    from specdb.migrate import migrate
    from specdb.publish import GROUP_CONCAT, NEXT_SCHEMA

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
    assert (head, differences) == ("0005", [])
