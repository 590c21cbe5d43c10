"""One style for every command: the same columns in every format, and validate's findings as its output."""

import csv
import io
import json

import pytest


def _columns(cli, *args):
    """The columns of one command's answer in table, CSV and JSON."""
    table = cli(*args).stdout.splitlines()[0].split()
    header = next(csv.reader(io.StringIO(cli(*args, "-f", "csv").stdout)))
    rows = json.loads(cli(*args, "-f", "json").stdout)
    return table, header, list(rows[0])


@pytest.mark.parametrize("args", [
    ("list",),
    ("list", "--kind", "source"),
    ("query", "figures", "--kind", "accelerator"),
    ("stale", "--since", "2030-01", "--as-of", "2030-02-01"),
    ("history", "test-gpu", "memory_bandwidth"),
    ("sql", "SELECT id, kind FROM record"),
])
def test_table_csv_and_json_have_the_same_columns(cli, args):
    table, header, keys = _columns(cli, *args)
    assert table == header == keys


def test_ratios_have_the_same_columns_in_every_format(cli):
    table, header, keys = _columns(cli, "query", "ratios")
    assert header == keys and table == keys
    assert "vendor" in keys and "mixed_counting" in keys


def test_show_as_csv_keeps_value_and_unit(cli):
    rows = list(csv.DictReader(io.StringIO(cli("show", "test-gpu", "-f", "csv").stdout)))
    memory = next(row for row in rows if row["name"] == "memory_bandwidth")
    # 3.35 TB/s = 3.35e12 B/s, stored in bytes per second
    assert (memory["value"], memory["unit"], memory["value_text"]) == ("3350000000000", "B/s", "3.35 TB/s")
    assert memory["sources"] == "test-datasheet"


def test_sources_are_a_list_of_ids_in_every_json(cli):
    [stale] = [row for row in json.loads(cli("stale", "--since", "2030-01", "--as-of", "2030-02-01", "-f", "json").stdout)
               if row["figure"] == "memory_bandwidth"]
    assert stale["sources"] == ["test-datasheet"]
    history = json.loads(cli("history", "test-gpu", "memory_bandwidth", "-f", "json").stdout)
    assert [row["sources"] for row in history if row["origin"] != "current" or row["commit"] is None][-1] == ["test-datasheet"]
    assert history[0]["origin"] == "history entry" and history[0]["sources"] == ["test-datasheet"]


def test_validate_reports_findings_on_stdout_with_a_code_each(cli, specs):
    gpu = specs / "accelerator" / "test-gpu.yaml"
    gpu.write_text(gpu.read_text().replace("family: Testarch", "famly: Testarch"))
    link = specs / "link" / "test-link.yaml"
    link.write_text(link.read_text().replace("sources: [{ref: test-datasheet}]", "sources: [{ref: no-such-source}]", 1))
    column = link.read_text().splitlines()[6].index("no-such-source") + 1  # the ref on line 7
    result = cli("validate", "-f", "json")
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert report["valid"] is False
    assert {(problem["code"], problem["line"]) for problem in report["problems"]} == {("unknown-key", 6), ("unknown-source", 7)}
    text = cli("validate")
    assert text.exit_code == 1
    assert text.stdout.splitlines() == [
        f"{gpu}:6:1: unknown key 'famly'",
        f"{link}:7:{column}: no source record 'no-such-source' (expected specs/source/no-such-source.yaml)",
    ]
    assert text.stderr == "specdb: 2 problem(s) in the specs\n"


def test_valid_specs_give_an_empty_report(cli):
    result = cli("validate", "-f", "json")
    assert result.exit_code == 0
    report = json.loads(result.stdout)
    # the test data: test-gpu, test-fabric, test-link, test-pcie, test-system, and one source
    assert (report["valid"], report["records"], report["sources"], report["problems"]) == (True, 5, 1, [])
