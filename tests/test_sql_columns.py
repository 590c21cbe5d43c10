"""specdb sql shows every column of a result, in order, under its own name, whatever names repeat; an empty query is a usage error."""

import csv
import io
import json

import pytest

from specdb.output import render

# The test data's first two figures by id, with the name of the record each belongs to (tests/data/specs).
JOIN = "SELECT f.name, r.name FROM figure f JOIN record r ON r.id = f.record_id WHERE f.record_id = 'test-gpu' ORDER BY f.name LIMIT 2"


def test_two_columns_of_one_name_keep_their_own_values_in_every_format(cli):
    table = cli("sql", JOIN)
    assert table.exit_code == 0, table.stderr
    lines = table.stdout.splitlines()
    assert lines[0].split() == ["name", "name"]
    assert all(line.rstrip().endswith("Test GPU 80GB") for line in lines[2:]) and len(lines) == 4
    assert lines[2].split()[0] != "Test"

    rows = list(csv.reader(io.StringIO(cli("sql", JOIN, "-f", "csv").stdout)))
    assert rows[0] == ["name", "name"] and [row[1] for row in rows[1:]] == ["Test GPU 80GB", "Test GPU 80GB"]
    assert rows[1][0] != rows[1][1]

    markdown = cli("sql", JOIN, "-f", "markdown").stdout.splitlines()
    assert markdown[0] == "| name | name |" and markdown[2].endswith("| Test GPU 80GB |") and "Test GPU" not in markdown[2].split("|")[1]


def test_json_suffixes_a_repeated_name_and_says_so(cli):
    result = cli("sql", "SELECT 1 AS a, 2 AS a, 3 AS a_2", "-f", "json")
    assert result.exit_code == 0
    assert json.loads(result.stdout) == [{"a": 1, "a_3": 2, "a_2": 3}]
    assert "a_3 (column 2)" in result.stderr


def test_json_of_distinct_names_says_nothing(cli):
    result = cli("sql", "SELECT 1 AS a, 2 AS b", "-f", "json")
    assert json.loads(result.stdout) == [{"a": 1, "b": 2}] and result.stderr == ""


def test_select_star_over_a_join_keeps_each_tables_id(cli):
    result = cli("sql", "SELECT * FROM figure f JOIN record r ON r.id = f.record_id WHERE f.record_id = 'test-gpu' LIMIT 1", "-f", "csv")
    header, row = list(csv.reader(io.StringIO(result.stdout)))
    assert header.count("id") == 2
    first, second = (index for index, name in enumerate(header) if name == "id")
    assert row[first].isdigit() and row[second] == "test-gpu"


def test_a_plain_table_of_two_equal_names_prints_both_values():
    text = render([(1, 2)], "table", ["a", "a"])
    assert text.splitlines()[2].split() == ["1", "2"]


def test_json_keys_never_collide():
    from specdb.output import json_keys

    assert json_keys(["a", "a", "a", "a_2", "b"]) == ["a", "a_3", "a_4", "a_2", "b"]
    assert json_keys(["?column?", "?column?"]) == ["?column?", "?column?_2"]


@pytest.mark.parametrize("query", ["", "   \n\t", "\n-- only a comment", ";", " ; ; ", "/* only a comment */"])
def test_a_query_with_no_statement_is_a_usage_error(cli, query):
    result = cli("sql", query)
    assert result.exit_code == 2
    assert "the query is empty" in result.stderr and result.stdout == ""


def test_a_markdown_header_escapes_a_pipe_as_its_cells_do(cli):
    result = cli("sql", "SELECT 'x|y' AS \"a|b\"", "-f", "markdown")
    assert result.stdout.splitlines() == ["| a\\|b |", "|---|", "| x\\|y |"]
