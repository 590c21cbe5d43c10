"""The CLI as a user meets it: where the data and the database are, output formats, exit codes, the Python API."""

import csv
import io
import json
import sqlite3

import pytest

import specdb
from specdb import __version__
from specdb.cli import COMMANDS


def test_version(cli):
    result = cli("--version", data=False)
    assert result.exit_code == 0 and result.stdout == f"specdb {__version__}\n"


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_command_has_help_with_an_example(cli, command):
    result = cli(command, "--help", data=False)
    assert result.exit_code == 0
    assert "Example" in result.stdout or "Questions" in result.stdout or "Pictures" in result.stdout


def test_an_unknown_option_is_a_usage_error(cli):
    result = cli("list", "--colour", "blue")
    assert result.exit_code == 2 and "No such option" in result.stderr


def test_list_formats(cli):
    rows = json.loads(cli("list", "--format", "json").stdout)
    assert [row["id"] for row in rows] == ["test-gpu", "test-fabric", "test-link", "test-pcie", "test-system"]
    assert set(rows[0]) == {"id", "kind", "name", "vendor", "family", "released", "figures", "last_reviewed"}
    table = list(csv.DictReader(io.StringIO(cli("list", "--kind", "link", "--format", "csv").stdout)))
    assert [row["id"] for row in table] == ["test-link", "test-pcie"]
    sources = json.loads(cli("list", "--kind", "source", "-f", "json").stdout)
    assert sources[0]["id"] == "test-datasheet" and sources[0]["figures"] == 16
    text = cli("list").stdout.splitlines()
    assert text[0].split() == ["id", "kind", "name", "vendor", "family", "released", "figures", "last_reviewed"]


def test_show_by_alias_name_or_loose_spelling(cli):
    for name in ("TEST GPU 80GB HBM3", "test gpu sxm", "Test GPU 80GB", "TEST-GPU"):
        shown = json.loads(cli("show", name, "-f", "json").stdout)
        assert shown["id"] == "test-gpu", name
    figure = {f["name"]: f for f in shown["figures"]}["memory_bandwidth"]
    assert figure["value"] == 3.35e12 and figure["direction"] == "total"
    assert figure["sources"][0]["quote"] == "GPU Memory Bandwidth 3.35TB/s"
    assert figure["history"][0]["value_text"] == "3 TB/s"
    assert {f["name"]: f for f in shown["figures"]}["memory_capacity"]["alternatives"][0]["reason"] == "raw stacks"


def test_show_an_unknown_record_suggests_close_names(cli):
    result = cli("show", "test-gpx")
    assert result.exit_code == 2 and "did you mean 'test-gpu'" in result.stderr


def test_the_database_location_from_option_url_and_environment(specs, tmp_path, monkeypatch, cli):
    by_url = tmp_path / "url.sqlite"
    assert cli("list", "--specs", str(specs), "--db", f"sqlite:///{by_url}", data=False).exit_code == 0
    assert by_url.exists()
    by_env = tmp_path / "env.sqlite"
    monkeypatch.setenv("SPECDB_DB", str(by_env))
    assert cli("list", "--specs", str(specs), data=False).exit_code == 0
    assert by_env.exists()
    result = cli("list", "--specs", str(specs), "--db", "mysql://localhost/specdb", data=False)
    assert result.exit_code == 2 and "a path, a sqlite:/// URL or a postgresql:// URL" in result.stderr


def test_the_specs_location_from_environment_then_the_working_folder(specs, tmp_path, monkeypatch, cli):
    monkeypatch.setenv("SPECDB_SPECS", str(specs))
    rows = json.loads(cli("list", "-f", "json", data=False).stdout)
    assert rows[0]["id"] == "test-gpu"
    monkeypatch.delenv("SPECDB_SPECS")
    monkeypatch.chdir(specs.parent)
    assert json.loads(cli("list", "-f", "json", data=False).stdout)[0]["id"] == "test-gpu"
    monkeypatch.chdir(tmp_path / "specs" / "link")
    bundled = json.loads(cli("list", "-f", "json", data=False).stdout)
    assert "nvidia-h100-sxm" in {row["id"] for row in bundled}


def test_the_default_database_is_a_per_user_cache_file(specs, tmp_path, cli):
    cli("build", "--specs", str(specs), data=False)
    result = cli("build", "--specs", str(specs), data=False)
    path = result.stderr.split(":")[0]
    assert "specdb" in path and path.endswith(".sqlite")
    assert sqlite3.connect(path).execute("SELECT COUNT(*) FROM figure").fetchone()[0] == 16


def test_data_goes_to_stdout_and_diagnostics_to_stderr(cli):
    result = cli("build")
    assert result.stdout == "" and "built: 5 records, 1 source, 16 figures" in result.stderr
    again = cli("build")
    assert "up to date" in again.stderr


def test_the_python_api(specs, db):
    dataset = specdb.load_specs(specs)
    assert dataset.ok and len(dataset.records) == 6
    result = specdb.build(specs, db)
    assert result.changed and result.figures == 16
    connection = specdb.connect(specs, db)
    assert [record["id"] for record in specdb.records(connection, kind="link")] == ["test-link", "test-pcie"]
    assert specdb.show(connection, "Test GPU SXM")["id"] == "test-gpu"
    [row] = specdb.figures(connection, name="port_bandwidth")
    assert row["value"] == 50e9 and row["direction"] == "per-direction"
