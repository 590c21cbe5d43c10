"""The build writes records as it validates them: every problem still comes in one pass, and the schema is the migrations'."""

import gc
import json
import os
import sqlite3

import pytest

from specdb.db import builder

from specdb.db import sqlschema
from specdb.db.builder import build
from specdb.db.migrate import migrate_file
from specdb.load.dataset import load_specs, load_tree
from specdb.errors import DatabaseError, InvalidSpecs
from specdb.load.files import current_stamp, read_specs, walk

# A system whose one figure fails validation, and which also names a link and a source that do not exist and
# derives a figure that does not match. Columns counted by hand from the text below.
BROKEN_SYSTEM = """\
schema: 2
id: test-system
kind: system
name: Test System 8-GPU
vendor: Test Vendor
released: 2022-09
uses: {accelerator: test-gpu, scale_up: test-nolink, host_link: test-pcie, scale_out: test-fabric}
figures:
  accelerators: {value: eight, status: shipping, as_of: 2023-01, reviewed: 2026-07-15, sources: [{ref: test-datasheet}]}
  scale_out_bandwidth:
    value: 300 Gb/s
    direction: per-direction
    scope: per-accelerator
    status: shipping
    as_of: 2023-01
    reviewed: 2026-07-15
    derived: {product: [test-fabric.port_bandwidth]}
    sources: [{ref: test-missing}]
"""
ONE_PASS = [
    # value 'eight' on line 9: "  accelerators: {value: " is 24 characters
    ("invalid-value", 9, 25),
    # 'test-nolink' on line 7: "uses: {accelerator: test-gpu, scale_up: " is 40 characters
    ("unknown-record", 7, 41),
    # the product list on line 17: "    derived: {product: " is 23 characters; 400 Gb/s (test-fabric) is not 300 Gb/s
    ("derived-mismatch", 17, 24),
    # 'test-missing' on line 18: "    sources: [{ref: " is 20 characters
    ("unknown-source", 18, 21),
]
SYSTEM = os.path.join("system", "test-system.yaml")


def _located(problems):
    return sorted((problem.code, problem.line, problem.column) for problem in problems)


def test_validate_reports_a_failed_records_references_in_the_same_pass(specs, cli):
    (specs / SYSTEM).write_text(BROKEN_SYSTEM)
    assert _located(load_specs(specs).problems) == sorted(ONE_PASS)
    result = cli("validate", "--format", "json")
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert sorted((p["code"], p["line"], p["column"]) for p in report["problems"]) == sorted(ONE_PASS)
    assert all(p["path"].endswith(SYSTEM) for p in report["problems"])


def test_build_reports_the_same_problems_and_leaves_the_database_alone(specs, db, cli):
    build(specs, db)
    before = db.read_bytes()
    (specs / SYSTEM).write_text(BROKEN_SYSTEM)
    with pytest.raises(InvalidSpecs) as raised:
        build(specs, db)
    assert _located(raised.value.problems) == sorted(ONE_PASS)
    result = cli("build")
    assert result.exit_code == 1
    for code, line, column in ONE_PASS:
        assert f"{SYSTEM}:{line}:{column}: " in result.stderr, code
    assert db.read_bytes() == before


def test_citations_in_a_figure_that_fails_validation_are_checked(specs):
    """Citations written in a figure that fails validation are still checked against the sources."""
    text = BROKEN_SYSTEM.replace("{value: eight, status: shipping, as_of: 2023-01, reviewed: 2026-07-15, sources: [{ref: test-datasheet}]}",
                                 "{value: eight, status: shipping, as_of: 2023-01, reviewed: 2026-07-15, sources: [{ref: test-gone}]}")
    (specs / SYSTEM).write_text(text)
    # 'test-gone' on line 9: "  accelerators: {value: eight, status: shipping, as_of: 2023-01, reviewed: 2026-07-15, sources: [{ref: " is 103 characters
    assert ("unknown-source", 9, 104) in _located(load_specs(specs).problems)


@pytest.mark.parametrize("batch", [1, builder.ROWS_PER_BATCH])
def test_two_aliases_differing_in_case_are_a_located_problem_not_a_refused_row(specs, db, monkeypatch, batch):
    """With batches of one row the database refuses the second alias while the records stream in; the problem is still the one reported."""
    monkeypatch.setattr(builder, "ROWS_PER_BATCH", batch)
    link = specs / "link" / "test-link.yaml"
    link.write_text(link.read_text().replace("vendor: Test Vendor\n", "vendor: Test Vendor\naliases: [Shared Name]\n", 1))
    pcie = specs / "link" / "test-pcie.yaml"
    pcie.write_text(pcie.read_text().replace("kind: link\n", "kind: link\naliases: [shared name]\n", 1))
    with pytest.raises(InvalidSpecs) as raised:
        build(specs, db)
    # test-pcie's alias on line 4, after "aliases: [" (10 characters); test-link's file comes first and keeps the name.
    assert [(p.path.endswith("test-pcie.yaml"), p.code, p.line, p.column) for p in raised.value.problems] == [(True, "duplicate-alias", 4, 11)]
    assert not db.exists()


def test_a_read_only_database_reports_the_specs_problems_first(specs, db):
    build(specs, db)
    db.chmod(0o444)
    (specs / SYSTEM).write_text(BROKEN_SYSTEM)
    with pytest.raises(InvalidSpecs):
        build(specs, db)
    (specs / SYSTEM).write_text(BROKEN_SYSTEM.replace("value: eight", 'value: "8"').replace("300 Gb/s", "400 Gb/s")
                                .replace("test-nolink", "test-link").replace("test-missing", "test-datasheet"))
    with pytest.raises(DatabaseError, match="read-only"):
        build(specs, db)


def test_the_build_counts_what_it_wrote(specs, db):
    """6 files: 5 records and 1 source; figures counted in the test data by hand (test-gpu 6, test-link 3, test-pcie 2, test-fabric 2, test-system 3)."""
    result = build(specs, db)
    # The test data: five records and one source (test-datasheet), sixteen figures.
    assert (result.records, result.sources, result.figures) == (5, 1, 16)
    connection = sqlite3.connect(db)
    assert connection.execute("SELECT COUNT(*) FROM figure").fetchone() == (16,)
    connection.close()


def test_the_build_counts_every_source(specs, db):
    (specs / "source" / "test-brief.yaml").write_text(
        "schema: 2\nid: test-brief\nkind: source\nname: A brief\npublisher: Test Vendor\nurl: https://example.com/brief\npublished: 2024-01-02\n"
    )
    # 5 records and 2 sources now; the figures as before.
    assert build(specs, db)[2:5] == (5, 2, 16)


@pytest.mark.parametrize("enabled", [True, False])
def test_the_garbage_collector_is_left_as_it_was(specs, db, enabled):
    (gc.enable if enabled else gc.disable)()
    try:
        build(specs, db)
        assert gc.isenabled() is enabled
        (specs / SYSTEM).write_text(BROKEN_SYSTEM)
        with pytest.raises(InvalidSpecs):
            build(specs, db)
        assert gc.isenabled() is enabled
        assert gc.get_freeze_count() == 0
    finally:
        gc.enable()


def test_the_schema_script_is_what_the_migrations_make_now():
    assert sqlschema.SCRIPT.read_text(encoding="utf-8") == sqlschema.script_from_migrations()


def _described(path):
    """Everything SQLite says about a database's schema: its objects, columns, indexes and foreign keys, and its revision."""
    connection = sqlite3.connect(path)
    try:
        objects = connection.execute("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name").fetchall()
        tables = [name for kind, name, _, _ in objects if kind == "table"]
        described = {"objects": objects, "revision": connection.execute("SELECT * FROM alembic_version").fetchall()}
        for table in tables:
            indexes = connection.execute(f"PRAGMA index_list({table})").fetchall()
            described[table] = {
                "columns": connection.execute(f"PRAGMA table_xinfo({table})").fetchall(),
                "indexes": sorted(indexes),
                "index columns": {index[1]: connection.execute(f"PRAGMA index_xinfo({index[1]})").fetchall() for index in indexes},
                "foreign keys": connection.execute(f"PRAGMA foreign_key_list({table})").fetchall(),
            }
        return described
    finally:
        connection.close()


def test_a_new_database_has_the_schema_the_migrations_make(tmp_path):
    migrated, scripted = tmp_path / "migrated.sqlite", tmp_path / "scripted.sqlite"
    migrate_file(migrated)
    connection = sqlite3.connect(scripted)
    sqlschema.create(connection)
    connection.close()
    assert _described(scripted) == _described(migrated)
    assert _described(migrated)["revision"] == [("0006",)]


def test_a_row_the_database_refuses_is_never_dropped_silently(specs, db, monkeypatch):
    """Should a check across records ever miss a problem, the refused row stops the build instead of going missing."""
    from specdb.load import dataset

    monkeypatch.setattr(builder, "ROWS_PER_BATCH", 1)
    monkeypatch.setattr(dataset, "_check_references", lambda loaded: None)
    link = specs / "link" / "test-link.yaml"
    link.write_text(link.read_text().replace("vendor: Test Vendor\n", "vendor: Test Vendor\naliases: [Shared Name]\n", 1))
    pcie = specs / "link" / "test-pcie.yaml"
    pcie.write_text(pcie.read_text().replace("kind: link\n", "kind: link\naliases: [shared name]\n", 1))
    with pytest.raises(DatabaseError, match=r"refused a row the validation let through \(UNIQUE constraint failed: alias.alias_key\)"):
        build(specs, db)
    assert not db.exists()


def test_a_file_changed_after_it_was_validated_has_its_later_problems_on_the_whole_file(specs):
    """Its bytes are not held: read again to place a problem, they must be the bytes validated, or no position is given."""
    system = specs / SYSTEM
    system.write_text(BROKEN_SYSTEM)
    as_validated = current_stamp(walk(specs))
    tree, files = read_specs(specs)

    def edit_when_all_are_read(done, total):
        if done == total:
            system.write_text("# edited\n" + BROKEN_SYSTEM)

    problems = load_tree(specs, tree, files, progress=edit_when_all_are_read).problems
    # The file's own problem is placed while it is read; the rest are found once every file is read.
    assert _located(problems) == [("derived-mismatch", 0, 0), ("invalid-value", 9, 25), ("unknown-record", 0, 0), ("unknown-source", 0, 0)]
    assert [problem.message for problem in problems if problem.code == "unknown-source"] == ["no source record 'test-missing' (expected specs/source/test-missing.yaml)"]
    # The stamp keeps the metadata of the bytes validated, not of the file read again to place a problem.
    assert files.stamp().digest == as_validated != current_stamp(walk(specs))
