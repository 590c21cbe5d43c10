"""A server's address is checked before anything connects, and no message ever shows a password, whatever form it takes."""

import socket
from pathlib import Path

import pytest

from specdb.errors import UsageError
from specdb.locations import ServerDatabase, resolve_db, without_passwords

SECRET = "hunter2x7"


def _refused_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.mark.parametrize("text, shown", [
    (f"postgresql://u:{SECRET}@h:5432/db", "postgresql://u:***@h:5432/db"),
    (f"postgres://u:{SECRET}@h/db", "postgres://u:***@h/db"),
    (f"postgresql+psycopg://u:{SECRET}@h/db", "postgresql+psycopg://u:***@h/db"),
    (f"POSTGRESQL://u:{SECRET}@h/db", "POSTGRESQL://u:***@h/db"),
    (f"postgresql://h/db?password={SECRET}&sslmode=require", "postgresql://h/db?password=***&sslmode=require"),
    (f"postgresql://h/db?sslpassword={SECRET}", "postgresql://h/db?sslpassword=***"),
    ("postgresql://u:hun@ter2x7@h/db", "postgresql://u:***@h/db"),  # an unescaped @: libpq reads host "ter2x7@h"
    (f"postgresql://u:12/{SECRET}@h/db", "postgresql://u:***@h/db"),  # an unescaped /: the password runs into the path
    (f"host=h password={SECRET} dbname=db", "host=h password=*** dbname=db"),
    (f"host=h password = '{SECRET} x' dbname=db", "host=h password = *** dbname=db"),
    (f"host=h sslpassword={SECRET}", "host=h sslpassword=***"),
])
def test_each_form_of_credential_is_masked(text, shown):
    assert without_passwords(text) == shown
    assert without_passwords(f'invalid connection: "{text}"', text) == f'invalid connection: "{shown}"'


def test_a_secret_of_the_connection_is_masked_wherever_a_driver_repeats_it():
    url = "postgresql://u:p%40ss%20w@h/db"
    assert without_passwords('password authentication failed: "p@ss w" and p%40ss%20w', url) == 'password authentication failed: "***" and ***'
    keywords = r"host=h password='it\'s x'"
    assert without_passwords("it's x", keywords) == "***"


@pytest.mark.parametrize("text", [
    "postgresql://u:hunter2x7@h/db",
    "POSTGRESQL://u:hunter2x7@h/db",
    "Postgres://u:hunter2x7@h/db?sslpassword=hunter2x7",
])
def test_a_server_url_of_any_case_is_a_server_printed_without_its_password(text):
    db = resolve_db(text, Path("."))
    assert isinstance(db, ServerDatabase) and db.url.startswith(("postgresql://", "postgres://"))
    assert SECRET[:6] not in str(db) and ":***@" in str(db)


@pytest.mark.parametrize("text", [
    "postgresql://u:hunter2x7@[::1:1/x",  # an IPv6 address without its ]
    "postgresql://u:hunter2x7@h:99999/db",
    "postgresql://u:hunter2x7@h:port/db",
    "postgresql://u:hun@ter2x7@h/db",
    "postgresql://u:12/hunter2x7@h/db",
    "postgresql://u:hunter2x7@h/db#frag",
    "postgresql://u:hunter 2x7@h/db",
    "postgresql://u:12?hunter2x7@h/db",
    "postgresql://u:12?a=hunter2x7@h/db",  # libpq reads the password `12?a=hunter2x7`, Python a query
    "postgresql://u:hun@ter 2x7\"@h/db",  # a space and a quote end a URL in a message; the password is still masked
    "postgresql://u:hunter2x7%BE@h/db",  # percent-encoded bytes that are not UTF-8
])
def test_a_malformed_server_url_is_a_usage_error_without_the_password(cli, text):
    result = cli("list", "--db", text, data=False)
    assert result.exit_code == 2, result.stderr
    assert "not a valid server URL" in result.stderr and result.stderr.count("\n") == 1
    for fragment in ("hunter", "2x7", "ter2"):
        assert fragment not in result.stderr


@pytest.mark.parametrize("text", [
    "host=/tmp password=hunter2x7 dbname=specdb",
    "dbname=specdb",
    "  host = db.example.org  port=5432 user='a b' password='hunter2x7'",
])
def test_a_libpq_keyword_string_is_refused_and_no_file_is_made(cli, tmp_path, monkeypatch, text):
    monkeypatch.chdir(tmp_path)
    result = cli("list", "--db", text, data=False)
    assert result.exit_code == 2
    assert "postgresql://" in result.stderr and "hunter" not in result.stderr
    assert list(tmp_path.iterdir()) == [tmp_path / "specs"]


def test_a_file_name_with_an_equals_sign_is_still_a_file(tmp_path):
    assert resolve_db(str(tmp_path / "notes=1.sqlite"), tmp_path) == tmp_path / "notes=1.sqlite"
    assert resolve_db("version=2", tmp_path) == Path("version=2").resolve()


@pytest.mark.parametrize("text", ["postgresql+psycopg://u:hunter2x7@h/db", "postgres:u:hunter2x7@h/db"])
def test_other_spellings_of_a_server_are_refused(text):
    with pytest.raises(UsageError) as error:
        resolve_db(text, Path("."))
    assert "postgresql:// URL" in str(error.value)


@pytest.mark.parametrize("url", [
    f"postgresql://u@127.0.0.1:{{port}}/db?password={SECRET}",
    f"postgresql://u@127.0.0.1:{{port}}/db?sslpassword={SECRET}&password={SECRET}",
    f"postgresql://u:{SECRET}@127.0.0.1:{{port}}/db",
    f"postgresql://u:{SECRET}@127.0.0.1:{{port}}/db?nosuchoption=1",  # libpq cannot read it, and says so quoting the URL
])
def test_a_failed_connection_names_the_server_without_its_password(cli, url):
    pytest.importorskip("psycopg")
    result = cli("sql", "SELECT 1", "--specs", str(cli.specs), "--db", url.format(port=_refused_port()), data=False)
    assert result.exit_code in (2, 3) and result.stderr.count("\n") == 1, result.stderr
    assert SECRET not in result.stderr and "***" in result.stderr
