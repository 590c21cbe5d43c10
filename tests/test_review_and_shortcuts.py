"""Review arithmetic and stale levels at their edges, the metadata shortcut of a fresh read, and sql limits at their edges."""

import datetime as dt
import json

import pytest

from specdb.db import builder

from specdb.load import files as specfiles
from specdb.db.builder import build
from specdb.errors import UsageError
from specdb.format.policy import before, parse_age
from specdb.db.access import open_fresh

D = dt.date


@pytest.mark.parametrize("today, count, period, expected", [
    (D(2026, 12, 1), 6, "month", D(2026, 6, 1)),
    (D(2026, 3, 31), 1, "month", D(2026, 2, 28)),   # no 31 February: the month's last day
    (D(2024, 3, 31), 1, "month", D(2024, 2, 29)),   # a leap year
    (D(2026, 1, 15), 1, "year", D(2025, 1, 15)),
    (D(2026, 1, 15), 13, "month", D(2024, 12, 15)),
    (D(2026, 12, 1), 2, "week", D(2026, 11, 17)),
    (D(2026, 12, 1), 90, "day", D(2026, 9, 2)),     # 30 days of November, 31 of October, 29 of September
    (D(1, 2, 1), 1, "month", D(1, 1, 1)),           # still inside year 1
    (D(1, 6, 1), 1, "year", D.min),                 # before year 1: nothing is older
    (D(1, 1, 5), 10, "day", D.min),
])
def test_before(today, count, period, expected):
    assert before(today, count, period) == expected


@pytest.mark.parametrize("text, expected", [("100y", (100, "year")), ("1200mo", (1200, "month")), ("90d", (90, "day")), ("2 weeks", (2, "week"))])
def test_ages_up_to_a_century(text, expected):
    assert parse_age(text) == expected


@pytest.mark.parametrize("text", ["101y", "1201mo", "36526d"])
def test_ages_beyond_a_century_are_refused(text):
    with pytest.raises(UsageError, match="longer than 100 years"):
        parse_age(text)


def test_a_figure_reviewed_on_the_cut_off_day_is_not_stale(cli):
    # Every test figure was reviewed on 2026-07-15.
    assert json.loads(cli("stale", "--since", "2026-07-15", "-f", "json").stdout) == []
    assert json.loads(cli("stale", "--since", "2026-07-16", "-f", "json").stdout) != []


POLICY = "schema: 2\nreview:\n  accelerator: {error_after: {count: 1, period: day}}\n  link: {warn_after: {count: 1, period: day}}\n"


def test_check_fails_on_errors_and_stale_figures_and_on_warnings_only_when_strict(cli, specs):
    assert cli("stale", "--check", "--since", "2026-08").exit_code == 1
    assert cli("stale", "--check", "--strict", "--since", "2026-08").exit_code == 1
    (specs / "policy.yaml").write_text(POLICY)
    rows = json.loads(cli("stale", "-f", "json").stdout)
    assert {row["level"] for row in rows} == {"error", "warn"}
    assert cli("stale", "--check").exit_code == 1
    assert cli("stale", "--check", "--strict").exit_code == 1
    (specs / "policy.yaml").write_text(POLICY.replace("  accelerator: {error_after: {count: 1, period: day}}\n", ""))
    assert {row["level"] for row in json.loads(cli("stale", "-f", "json").stdout)} == {"warn"}
    assert cli("stale", "--check").exit_code == 0
    assert cli("stale", "--check", "--strict").exit_code == 1


def test_error_levels_alone_fail_a_strict_check(cli, specs):
    (specs / "policy.yaml").write_text("schema: 2\nreview:\n  accelerator: {error_after: {count: 1, period: day}}\n")
    assert {row["level"] for row in json.loads(cli("stale", "-f", "json").stdout)} == {"error"}
    assert cli("stale", "--check", "--strict").exit_code == 1


@pytest.mark.parametrize("args, message", [
    (["--since", "July"], "specdb: 'July' is not a date; write YYYY-MM-DD or YYYY-MM\n"),
    (["--since", "2026-13"], "specdb: '2026-13' is not a real date (month must be in 1..12)\n"),
    (["--older-than", "6 fortnights"], "specdb: '6 fortnights' is not an age; write a count and d, w, mo or y (90d, 6mo, 1y)\n"),
    (["--since", "2026-07", "--older-than", "6mo"], "specdb: give --since or --older-than, not both\n"),
])
def test_stale_usage_errors_say_what_to_write(cli, args, message):
    result = cli("stale", *args)
    assert result.exit_code == 2 and result.stderr == message


def test_a_fresh_database_is_read_without_reading_the_specs(specs, db, monkeypatch):
    monkeypatch.setattr(specfiles, "RACY_SECONDS", 0)
    build(specs, db)

    def no_reading(*args):
        raise AssertionError("the spec files were read although their metadata matched")

    monkeypatch.setattr(builder, "read_specs", no_reading)
    assert open_fresh(db, specs).execute("SELECT COUNT(*) FROM record").fetchone()[0] == 5


def test_a_racy_stamp_makes_a_read_compare_the_bytes(specs, db, monkeypatch):
    build(specs, db)  # the test files were written moments ago: the stamp is racy
    read = []
    original = builder.read_specs
    monkeypatch.setattr(builder, "read_specs", lambda root: read.append(root) or original(root))
    open_fresh(db, specs)
    assert read == [specs]


def test_sql_limits_at_their_edges(cli):
    exactly = cli("sql", "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 500) SELECT x FROM c", "--max-rows", "500", "-f", "json")
    assert exactly.exit_code == 0 and len(json.loads(exactly.stdout)) == 500
    assert cli("sql", "SELECT 1", "--max-rows", "1").exit_code == 0
    for option in ("--timeout", "--max-rows"):
        result = cli("sql", "SELECT 1", option, "0")
        assert result.exit_code == 2 and result.stderr == "specdb: the time limit and the row limit must be greater than zero\n"
    refused = cli("sql", "ATTACH DATABASE ':memory:' AS other")
    assert refused.stderr == (
        "specdb: SQL failed: not allowed: the database is read-only and specdb sql only reads"
        " (no writes, ATTACH, VACUUM, transactions or pragma settings)\n"
    )


@pytest.mark.parametrize("pragma, allowed", [
    ("PRAGMA user_version", True), ("PRAGMA table_list", True), ("PRAGMA index_list(figure)", True),
    ("PRAGMA cache_size", False), ("PRAGMA user_version = 3", False),
])
def test_only_reporting_pragmas_run(cli, pragma, allowed):
    assert cli("sql", pragma).exit_code == (0 if allowed else 2)


def test_a_value_longer_than_the_limit_is_refused_and_the_connection_is_left_as_it_was(specs, db):
    from specdb.db.sqlquery import LONGEST_VALUE_BYTES, run_sql

    connection = open_fresh(db, specs)
    with pytest.raises(UsageError, match="too big"):
        run_sql(connection, f"SELECT zeroblob({LONGEST_VALUE_BYTES + 1})")
    with pytest.raises(UsageError, match="time limit"):
        run_sql(connection, "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c", timeout=0.2)
    # Back to the caller's connection: no authorizer, time limit or length limit left behind.
    assert connection.execute("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 300000) SELECT count(*) FROM c").fetchone()[0] == 300000
    assert len(connection.execute(f"SELECT zeroblob({LONGEST_VALUE_BYTES + 1})").fetchone()[0]) == LONGEST_VALUE_BYTES + 1
    assert connection.execute("PRAGMA cache_size").fetchone() is not None
