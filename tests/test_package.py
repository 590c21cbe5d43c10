"""specdb as a dependency: which data the API and the CLI read, what `info` says, and numbers printed exactly."""

import csv
import io
import json
import shutil

import pytest

import specdb
from typer.testing import CliRunner

from specdb.cli import app
from specdb.output import render
from specdb.resources import bundled_specs


@pytest.fixture
def unrelated_specs(tmp_path, monkeypatch):
    """A working folder whose `specs/` holds OpenAPI documents, as many projects' do."""
    (tmp_path / "specs").mkdir()
    (tmp_path / "specs" / "openapi.yaml").write_text("openapi: 3.1.0\ninfo: {title: Pets, version: '1'}\npaths: {}\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_the_library_reads_the_bundled_data_whatever_the_working_folder_holds(specs, bundled_db, monkeypatch):
    # The working folder holds a valid specdb specs folder (the 6-record test data): the library still ignores it.
    monkeypatch.chdir(specs.parent)
    about = specdb.info(db=bundled_db)
    assert about["specs"] == str(bundled_specs()) and about["bundled"] is True
    # The release the bundled specs name, or after it their own content hash when they changed since.
    assert specdb.DATA_VERSION and about["data_version"] in (specdb.DATA_VERSION, f"{specdb.DATA_VERSION}+{about['content_hash'][:12]}")
    ids = {row["id"] for row in specdb.records(specdb.connect(db=bundled_db))}
    assert "nvidia-h100-sxm" in ids and "test-gpu" not in ids
    assert specdb.load_specs().ok


def test_the_library_reads_a_named_folder_or_database(specs, tmp_path, monkeypatch):
    named = specdb.info(specs, tmp_path / "named.sqlite")
    assert named["specs"] == str(specs) and named["data_version"] is None and named["records"] == 5
    monkeypatch.setenv("SPECDB_SPECS", str(specs))
    monkeypatch.setenv("SPECDB_DB", str(tmp_path / "env.sqlite"))
    assert [row["id"] for row in specdb.records(specdb.connect(), kind="accelerator")] == ["test-gpu"]
    assert (tmp_path / "env.sqlite").exists()


def test_the_cli_ignores_an_unrelated_specs_folder(unrelated_specs, bundled_db):
    result = CliRunner().invoke(app, ["info", "--format", "json", "--db", str(bundled_db)])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["specs"] == str(bundled_specs())


@pytest.mark.parametrize("marker", ["policy", "record"])
def test_the_cli_takes_a_specs_folder_it_recognises(marker, specs, tmp_path, monkeypatch, cli):
    if marker == "policy":
        shutil.copy(bundled_specs() / "policy.yaml", specs / "policy.yaml")
    monkeypatch.chdir(specs.parent)
    result = cli.runner.invoke(app, ["info", "--format", "json", "--db", str(tmp_path / "x.sqlite")])
    assert json.loads(result.stdout)["specs"] == str(specs)


def test_info_says_which_data_and_licence(specs, cli):
    result = cli("info", "--format", "json")
    assert result.exit_code == 0, result.output
    about = json.loads(result.stdout)
    # The test data: 5 records (gpu, fabric, link, pcie, system), 1 source, 16 figures.
    assert (about["records"], about["sources"], about["figures"]) == (5, 1, 16)
    assert about["database"] == str(cli.db) and about["specs"] == str(specs)
    assert len(about["content_hash"]) == 64 and about["data_version"] is None
    assert (about["code_license"], about["data_license"]) == ("MIT", "CC-BY-4.0")
    assert "CC-BY-4.0" in about["attribution"] and about["content_hash"][:12] in about["attribution"]
    table = cli("info").stdout
    assert "content_hash" in table and about["content_hash"] in table


def test_the_database_states_the_data_licence(specs, db):
    specdb.build(specs, db)
    connection = specdb.connect(specs, db)
    assert connection.execute("SELECT value FROM meta WHERE key = 'data_license'").fetchone()[0] == "CC-BY-4.0"


@pytest.mark.parametrize("fmt", ["csv", "table", "markdown"])
def test_every_text_format_prints_stored_numbers_exactly(fmt):
    # 95 GiB = 95 * 2**30 = 102005473280 bytes; 1.3074 PFLOPS; 1/3; 8 microseconds.
    values = [95 * 2**30 * 1.0, 1.3074e15, 1 / 3, 8e-06, 0.1 + 0.2]
    printed = render([{"value": value} for value in values], fmt)
    for text in ["102005473280", "1307400000000000", "0.3333333333333333", "8e-06", "0.30000000000000004"]:
        assert text in printed
    assert "e+" not in printed and ".0 " not in printed
    if fmt == "csv":
        assert [float(row["value"]) for row in csv.DictReader(io.StringIO(printed))] == values


def test_csv_output_of_a_gib_figure_round_trips(cli):
    result = cli("query", "figures", "--name", "memory_capacity", "--format", "csv")
    # The test GPU's 80 GiB is 80 x 2**30 = 85899345920 bytes.
    assert "85899345920" in result.stdout and "e+10" not in result.stdout
    as_json = json.loads(cli("query", "figures", "--name", "memory_capacity", "--format", "json").stdout)
    assert as_json[0]["value"] == 80 * 2**30 and isinstance(as_json[0]["value"], float)


def test_the_public_api_is_declared_and_documented():
    assert set(specdb.__all__) >= {"connect", "build", "load_specs", "info", "records", "show", "figures", "write_export", "check_text",
                                   "DATA_VERSION", "__version__"}
    for name in specdb.__all__:
        value = getattr(specdb, name)
        if callable(value):
            assert value.__doc__ and value.__annotations__.get("return"), name


def test_the_api_writes_an_export(specs, db, tmp_path):
    result = specdb.write_export("datapackage", tmp_path / "out", specs, db)
    assert result.path == tmp_path / "out" and "figure.csv" in result.files
    # The test data's figures: 16, one CSV row each under the header.
    assert len((tmp_path / "out" / "figure.csv").read_text().splitlines()) == 1 + 16
