"""specdb sql only reads, within limits; options out of range are usage errors, never crashes."""

import json

import pytest

from specdb.load import files as specfiles


@pytest.mark.parametrize("statement", [
    "ATTACH DATABASE '{path}' AS other",
    "VACUUM INTO '{path}'",
])
def test_sql_creates_no_file_anywhere(cli, tmp_path, statement):
    path = tmp_path / "created.sqlite"
    result = cli("sql", statement.format(path=path))
    assert result.exit_code == 2
    assert "specdb sql only reads" in result.stderr
    assert not path.exists()


@pytest.mark.parametrize("statement", ["PRAGMA query_only = 0", "PRAGMA user_version = 7", "BEGIN", "DELETE FROM figure", "DROP TABLE figure"])
def test_sql_refuses_writes_and_settings(cli, db, statement, monkeypatch):
    # No racy window, so no read records the files' times anew: the database's bytes can only change by a write through sql.
    monkeypatch.setattr(specfiles, "RACY_SECONDS", 0)
    assert cli("build").exit_code == 0
    before = db.read_bytes()
    result = cli("sql", statement)
    assert result.exit_code == 2 and result.stderr.startswith("specdb: SQL failed:")
    assert db.read_bytes() == before


def test_sql_may_still_describe_the_tables(cli):
    result = cli("sql", "PRAGMA table_info(figure)", "-f", "json")
    assert result.exit_code == 0
    assert {row["name"] for row in json.loads(result.stdout)} >= {"record_id", "name", "value", "direction", "scope"}


def test_a_runaway_query_stops_at_the_time_limit(cli):
    result = cli("sql", "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c", "--timeout", "0.5")
    assert result.exit_code == 2
    assert "stopped after the time limit of 0.5 s" in result.stderr


def test_an_endless_result_stops_at_the_row_limit(cli):
    result = cli("sql", "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c", "--max-rows", "500")
    assert result.exit_code == 2
    assert "more than 500 rows" in result.stderr


def test_blobs_and_non_finite_numbers_are_strict_json(cli):
    result = cli("sql", "SELECT x'00ff' AS raw, 1e999 AS big, -1e999 AS small, 1.5 AS plain", "-f", "json")
    assert result.exit_code == 0

    def refuse(name):
        raise AssertionError(f"{name} is not JSON")

    [row] = json.loads(result.stdout, parse_constant=refuse)
    # Datasette's form for binary values; 0x00 0xff in base64 is "AP8=".
    assert row == {"raw": {"$base64": True, "encoded": "AP8="}, "big": "Infinity", "small": "-Infinity", "plain": 1.5}
    assert cli("sql", "SELECT x'00ff' AS raw", "-f", "csv").stdout == "raw\nAP8=\n"


@pytest.mark.parametrize("args, message", [
    (["collective", "all-reduce", "--params", "nan", "--platform", "test-system", "--gpus", "8"], "--params must be a finite number greater than zero"),
    (["collective", "all-reduce", "--params", "inf", "--platform", "test-system", "--gpus", "8"], "--params must be a finite number greater than zero"),
    (["collective", "all-reduce", "--params", "1e30", "--platform", "test-system", "--gpus", "8"], "outside the plausible range of a size"),
    (["collective", "all-reduce", "--size", "1e-320B", "--platform", "test-system", "--gpus", "8"], "outside the plausible range of a size"),
    (["collective", "all-reduce", "--size", "1GB", "--platform", "test-gpu", "--gpus", "8"], "'test-gpu' is not a platform (a system record); platforms built on it: test-system"),
    (["query", "ratios", "--platform", "test-gpu"], "'test-gpu' is not a platform"),
    (["stale", "--older-than", "99999999y"], "'99999999y' is longer than 100 years"),
])
def test_out_of_range_options_are_usage_errors(cli, args, message):
    result = cli(*args)
    assert result.exit_code == 2, result.stderr
    assert message in result.stderr


def test_stale_as_of_any_real_date_answers(cli):
    figures = json.loads(cli("query", "figures", "-f", "json").stdout)
    # A year before 1 AD does not exist: nothing was reviewed before it.
    early = cli("stale", "--as-of", "0001-01-01", "--older-than", "1y", "-f", "json")
    assert early.exit_code == 0 and json.loads(early.stdout) == []
    late = cli("stale", "--as-of", "9999-12-31", "--older-than", "1y", "-f", "json")
    assert late.exit_code == 0
    assert len(json.loads(late.stdout)) == len(figures) > 0
