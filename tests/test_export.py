"""specdb export and specdb schema, each checked by the real consumer: frictionless, Datasette, jsonschema."""

import asyncio
import csv
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
import yaml

from specdb.export.tables import TABLES
from specdb.resources import bundled_specs

FRICTIONLESS = Path(sys.executable).with_name("frictionless")


def exported(cli, fmt, folder, *extra):
    result = cli("export", fmt, str(folder), *extra)
    assert result.exit_code == 0, result.output
    return folder


def test_export_help_lists_every_format(cli):
    result = cli("export", "--help", data=False)
    for fmt in ("datapackage", "datasette", "llm-analysis", "aiconfigurator"):
        assert fmt in result.stdout


def test_the_data_package_of_the_bundled_data_passes_frictionless_validate(cli, tmp_path, bundled_db):
    from specdb.cli import app

    folder = tmp_path / "package"
    result = cli.runner.invoke(app, ["export", "datapackage", str(folder), "--db", str(bundled_db)])
    assert result.exit_code == 0, result.output
    checked = subprocess.run([FRICTIONLESS, "validate", "--json", "datapackage.json"], cwd=folder, capture_output=True, text=True)
    report = json.loads(checked.stdout)
    assert checked.returncode == 0 and report["valid"], checked.stdout[:2000]
    package = json.loads((folder / "datapackage.json").read_text())
    assert package["licenses"][0]["name"] == "CC-BY-4.0"
    assert {resource["name"] for resource in package["resources"]} == set(TABLES)
    # Every field of every table says what it holds.
    assert all(field["description"] for resource in package["resources"] for field in resource["schema"]["fields"])
    figure = next(resource for resource in package["resources"] if resource["name"] == "figure")
    assert {"fields": "record_id", "reference": {"resource": "record", "fields": "id"}} in figure["schema"]["foreignKeys"]
    # The 106 bundled sources are the package's sources.
    assert len(package["sources"]) == sum(1 for _ in (bundled_specs() / "source").glob("*.yaml"))
    # TPU v5p memory: 95 GiB = 95 * 2**30 = 102005473280 bytes, printed exactly.
    rows = list(csv.DictReader((folder / "figure.csv").open()))
    tpu = next(row for row in rows if row["record_id"] == "google-tpu-v5p" and row["name"] == "memory_capacity")
    assert tpu["value"] == "102005473280"


def test_frictionless_catches_a_broken_reference_in_an_export(cli, tmp_path):
    import frictionless

    folder = exported(cli, "datapackage", tmp_path / "package")
    assert frictionless.validate(folder / "datapackage.json").valid
    figures = (folder / "figure.csv").read_text()
    (folder / "figure.csv").write_text(figures.replace(",test-gpu,", ",no-such-record,", 1))
    report = frictionless.validate(folder / "datapackage.json")
    assert not report.valid and "foreign-key" in {error.type for task in report.tasks for error in task.errors}


def test_the_datasette_export_describes_every_table_and_column_in_datasettes_json(cli, tmp_path):
    from datasette.app import Datasette

    folder = exported(cli, "datasette", tmp_path / "datasette")
    metadata = json.loads((folder / "metadata.json").read_text())
    datasette = Datasette([str(folder / "specdb.db")], metadata=metadata)

    async def fetch(path):
        response = await datasette.client.get(path)
        assert response.status_code == 200, path
        return response

    async def served():
        return (await fetch("/-/metadata.json")).json(), (await fetch("/specdb/figure.json")).json(), (await fetch("/specdb/figure")).text

    described, figure_json, figure_page = asyncio.run(served())
    tables = described["databases"]["specdb"]["tables"]
    for table, (description, columns) in TABLES.items():
        assert tables[table]["description"] == description
        assert tables[table]["columns"] == columns
    database = sqlite3.connect(folder / "specdb.db")
    for (name,) in database.execute("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')"):
        columns = [row[1] for row in database.execute(f"PRAGMA table_info({name})")]
        assert tables[name]["description"] and sorted(tables[name]["columns"]) == sorted(columns), name
    assert figure_json["license"] == "CC-BY-4.0" and figure_json["license_url"] == "https://creativecommons.org/licenses/by/4.0/"
    assert TABLES["figure"][1]["value"] in figure_page
    assert [row[1] for row in figure_json["rows"] if row[2] == "memory_bandwidth"] == ["test-gpu"]


def test_every_column_of_the_database_is_described(cli, tmp_path):
    cli("build")
    connection = sqlite3.connect(cli.db)
    tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name != 'alembic_version'")}
    assert tables == set(TABLES)
    for table, (_, columns) in TABLES.items():
        assert [row[1] for row in connection.execute(f"PRAGMA table_info({table})")] == list(columns)


@pytest.mark.parametrize("fmt", ["datapackage", "datasette"])
def test_exports_are_deterministic_and_carry_the_licence(fmt, cli, tmp_path):
    first = exported(cli, fmt, tmp_path / "first")
    os.utime(next(cli.specs.rglob("*.yaml")))  # same bytes, new times: a rebuild must not change the export
    second = exported(cli, fmt, tmp_path / "second")
    names = sorted(path.name for path in first.iterdir())
    assert names == sorted(path.name for path in second.iterdir())
    for name in names:
        assert (first / name).read_bytes() == (second / name).read_bytes(), name
    manifest = json.loads((first / "specdb-export.json").read_text())
    assert manifest["format"] == fmt and manifest["data_license"] == "CC-BY-4.0" and "CC-BY-4.0" in manifest["attribution"]
    assert set(manifest["files"]) | {"specdb-export.json"} == set(names)


def test_an_export_replaces_an_earlier_export_but_not_a_foreign_folder(cli, tmp_path):
    folder = exported(cli, "datapackage", tmp_path / "out")
    (folder / "stray.txt").write_text("left by an earlier export run")
    exported(cli, "datasette", folder)
    assert sorted(path.name for path in folder.iterdir()) == ["metadata.json", "specdb-export.json", "specdb.db"]
    foreign = tmp_path / "notes"
    foreign.mkdir()
    (foreign / "mine.txt").write_text("keep me")
    refused = cli("export", "datapackage", str(foreign))
    assert refused.exit_code == 2 and "not empty" in refused.stderr and "--force" in refused.stderr
    assert [path.name for path in foreign.iterdir()] == ["mine.txt"]
    exported(cli, "datapackage", foreign, "--force")
    assert not (foreign / "mine.txt").exists() and (foreign / "datapackage.json").exists()
    a_file = tmp_path / "file"
    a_file.write_text("x")
    assert cli("export", "datapackage", str(a_file)).exit_code == 2
    below_a_file = cli("export", "datapackage", str(a_file / "out"))
    assert below_a_file.exit_code == 3 and "cannot write the export" in below_a_file.stderr
    assert not list(tmp_path.glob(".*exporting*"))


class _Yaml12Loader(yaml.SafeLoader):
    """YAML as an editor's language server reads it (YAML 1.2 core): dates stay strings."""


_Yaml12Loader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def test_every_bundled_spec_file_satisfies_the_json_schema(cli):
    result = cli("schema", data=False)
    schema = json.loads(result.stdout)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    files = sorted(bundled_specs().rglob("*.yaml"))
    assert len(files) > 100
    for path in files:
        errors = list(validator.iter_errors(yaml.load(path.read_text(), Loader=_Yaml12Loader)))
        assert not errors, f"{path}: {errors[0].message}"


@pytest.mark.parametrize("path, value, why", [
    (("figures", "memory_bandwidth", "direction"), "one-way", "'one-way' is not valid"),
    (("figures", "memory_bandwidth", "reviewd"), "2026-07-15", "'reviewd' was unexpected"),
    (("id",), "Test GPU", "'Test GPU' does not match"),
    (("figures", "memory_bandwidth", "as_of"), "July 2026", "'July 2026' does not match"),
])
def test_the_json_schema_rejects_what_validate_rejects(path, value, why, cli, specs):
    schema = json.loads(cli("schema", data=False).stdout)
    record = yaml.load((specs / "accelerator" / "test-gpu.yaml").read_text(), Loader=_Yaml12Loader)
    assert not list(jsonschema.Draft202012Validator(schema).iter_errors(record))
    *parents, key = path
    target = record
    for parent in parents:
        target = target[parent]
    target[key] = value
    errors = list(jsonschema.Draft202012Validator(schema).iter_errors(record))
    assert any(why in error.message for error in errors), [error.message for error in errors]


def test_the_data_package_page_shows_every_export_format():
    from conftest import REPO
    from specdb.export import FORMATS

    page = (REPO / "docs" / "data-package.md").read_text()
    for fmt in FORMATS:
        assert f"`specdb export {fmt} DIR`" in page


def _tree(folder):
    """Every path under folder with the bytes of each file: what a refused export must leave as it was."""
    return {path.relative_to(folder).as_posix(): path.read_bytes() if path.is_file() else None for path in sorted(folder.rglob("*"))}


@pytest.mark.parametrize("force", [(), ("--force",)], ids=["plain", "forced"])
def test_an_empty_folder_name_is_refused_and_the_working_folder_kept(cli, tmp_path, monkeypatch, force):
    work = tmp_path / "work"
    work.mkdir()
    (work / "mine.txt").write_text("keep me")
    monkeypatch.chdir(work)
    result = cli("export", "datapackage", "", *force)
    assert result.exit_code == 2 and "the export folder is empty; name a folder" in result.stderr
    assert _tree(work) == {"mine.txt": b"keep me"}


def test_the_working_folder_and_its_parents_are_never_replaced(cli, tmp_path, monkeypatch):
    folder = exported(cli, "datapackage", tmp_path / "out" / "package")
    (folder / "notes.txt").write_text("the user's, beside an earlier export")
    before = _tree(tmp_path / "out")
    monkeypatch.chdir(folder)
    for name, relation in ((".", "is"), ("..", "holds"), (str(folder), "is"), ("/", "holds")):
        for force in ((), ("--force",)):
            result = cli("export", "datasette", name, *force)
            assert result.exit_code == 2 and f"{relation} the working folder, and an export replaces its folder whole" in result.stderr
    assert _tree(tmp_path / "out") == before


def test_a_folder_that_holds_what_the_export_reads_is_never_replaced(cli, tmp_path):
    before = _tree(tmp_path / "specs")
    # tmp_path holds both the specs and the database.
    for folder, what in ((cli.specs, "is the specs folder the export reads"), (cli.specs / "..", "holds the specs folder the export reads")):
        result = cli("export", "datapackage", str(folder), "--force")
        assert result.exit_code == 2 and what in result.stderr
    assert _tree(tmp_path / "specs") == before
    (tmp_path / "data").mkdir()
    database = tmp_path / "data" / "specdb.sqlite"
    from specdb.cli import app

    result = cli.runner.invoke(app, ["export", "datapackage", str(tmp_path / "data"), "--force", "--specs", str(cli.specs), "--db", str(database)])
    assert result.exit_code == 2 and "holds the database the export reads" in result.stderr
    assert database.exists()


def test_a_broken_link_is_refused_and_nothing_is_written_where_it_points(cli, tmp_path):
    link = tmp_path / "out"
    link.symlink_to(tmp_path / "elsewhere" / "out")
    result = cli("export", "datapackage", str(link))
    assert result.exit_code == 3 and "a broken symbolic link" in result.stderr
    assert link.is_symlink() and not (tmp_path / "elsewhere").exists()


def test_a_link_to_an_earlier_export_is_replaced_through_it(cli, tmp_path):
    real = exported(cli, "datapackage", tmp_path / "real")
    link = tmp_path / "out"
    link.symlink_to(real)
    exported(cli, "datasette", link)
    assert link.is_symlink() and (real / "metadata.json").exists() and not (real / "datapackage.json").exists()


def test_a_full_disk_leaves_the_earlier_export_whole(cli, tmp_path, monkeypatch):
    import errno

    import specdb.export

    folder = exported(cli, "datapackage", tmp_path / "out")
    before = _tree(folder)

    def full(path, value):
        path.write_text("{\n  half")
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(specdb.export, "write_json", full)
    result = cli("export", "datasette", str(folder))
    assert result.exit_code == 3 and f"{folder}: cannot write the export (No space left on device)" in result.stderr
    assert _tree(folder) == before
    assert [path.name for path in tmp_path.iterdir() if path.name.startswith(".")] == []


@pytest.mark.parametrize("fmt", ["datasette", "datapackage"])
def test_a_file_size_limit_leaves_the_earlier_export_whole(cli, tmp_path, fmt):
    import resource
    import signal

    from conftest import REPO

    folder = exported(cli, "llm-analysis", tmp_path / "out")
    before = _tree(folder)

    def limited():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG instead of killing
        resource.setrlimit(resource.RLIMIT_FSIZE, (2048, 2048))

    result = subprocess.run(
        [sys.executable, "-m", "specdb", "export", fmt, str(folder), "--specs", str(cli.specs), "--db", str(cli.db)],
        capture_output=True, text=True, preexec_fn=limited, env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    assert result.returncode == 3 and "cannot write" in result.stderr and "internal error" not in result.stderr, result.stderr
    assert _tree(folder) == before
    assert [path.name for path in tmp_path.iterdir() if path.name.startswith(".")] == []


def test_a_failed_export_leaves_no_folder_it_made(cli, tmp_path, monkeypatch):
    import errno

    import specdb.export

    def full(path, value):
        raise OSError(errno.ENOSPC, "No space left on device")

    assert cli("build").exit_code == 0
    monkeypatch.setattr(specdb.export, "write_json", full)
    result = cli("export", "datapackage", str(tmp_path / "new" / "deeper" / "out"))
    assert result.exit_code == 3 and "No space left on device" in result.stderr
    assert not (tmp_path / "new").exists()


@pytest.mark.parametrize("fmt, record", [("llm-analysis", "test-gpu"), ("aiconfigurator", "test-system")])
def test_a_record_id_altered_into_a_path_writes_nothing_outside_the_folder(cli, tmp_path, fmt, record):
    assert cli("build").exit_code == 0
    # A database file altered by hand, its meta untouched so that it still passes for a build of these specs.
    connection = sqlite3.connect(cli.db)
    with connection:
        for table, column in (("record", "id"), ("figure", "record_id"), ("record_use", "record_id")):
            connection.execute(f"UPDATE {table} SET {column} = '../../escaped' WHERE {column} = ?", (record,))
    connection.close()
    folder = tmp_path / "a" / "b" / "out"
    result = cli("export", fmt, str(folder))
    assert result.exit_code == 3 and "'../../escaped' in the database is not a record id" in result.stderr
    assert not list(tmp_path.rglob("escaped*")) and not (tmp_path / "a").exists()


@pytest.mark.skipif(os.geteuid() == 0, reason="permissions do not bind root")
def test_an_unwritable_folder_is_a_clear_error(cli, tmp_path):
    folder = tmp_path / "locked"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        result = cli("export", "datapackage", str(folder / "out"))
    finally:
        folder.chmod(0o700)
    assert result.exit_code == 3 and "cannot write the export (Permission denied)" in result.stderr
    assert list(folder.iterdir()) == []


def test_a_broken_link_on_the_way_is_refused_and_nothing_made_where_it_points(cli, tmp_path):
    (tmp_path / "exports").symlink_to(tmp_path / "elsewhere")
    result = cli("export", "datapackage", str(tmp_path / "exports" / "out"))
    assert result.exit_code == 3 and f"{tmp_path / 'exports'} is a broken symbolic link" in result.stderr
    assert not (tmp_path / "elsewhere").exists()


def test_a_name_longer_than_a_folder_allows_is_a_clear_error(cli, tmp_path):
    result = cli("export", "datapackage", str(tmp_path / ("y" * 300)))
    assert result.exit_code == 3 and "cannot write the export (File name too long)" in result.stderr
