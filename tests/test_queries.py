"""query ratios, query figures, compare and sql, on the test data and on the bundled data."""

import csv
import io
import json

import pytest

from specdb.load import files as specfiles
from specdb.db.access import open_fresh
from specdb.analysis.tiers import ratio_rows


@pytest.fixture
def connection(specs, db):
    return open_fresh(db, specs)


def test_as_quoted_reproduces_the_seed_ratios_and_flags_the_mixed_ones(connection):
    [row] = ratio_rows(connection, "as-quoted")
    # The seed: 3,350 / 900 = 3.7x, 900 / 50 = 18x, 3,350 / 50 = 67x.
    assert (round(row["memory_to_scale_up"], 1), row["scale_up_to_scale_out"], row["memory_to_scale_out"]) == (3.7, 18, 67)
    assert (row["memory_gbps"], row["scale_up_gbps"], row["scale_out_gbps"]) == (3350, 900, 50)
    assert row["scale_up_counted"] == "bidirectional" and row["scale_out_counted"] == "per-direction"
    assert row["mixed_counting"] == ["memory_to_scale_up", "scale_up_to_scale_out"]


def test_per_direction_explains_the_seed_on_one_basis(connection):
    [row] = ratio_rows(connection, "per-direction")
    # NVLink's 900 GB/s is both directions added: 450 GB/s each way.
    assert row["scale_up_gbps"] == 450
    assert (row["memory_to_scale_up"], row["scale_up_to_scale_out"], row["memory_to_scale_out"]) == (7.44, 9, 67)
    assert row["mixed_counting"] == []
    assert row["basis"] == "per-direction"
    assert row["bf16_flop_per_network_byte"] == 989e12 / 50e9


def test_the_bundled_hgx_h100_gives_the_seed_numbers(tmp_path):
    from specdb.resources import bundled_specs

    connection = open_fresh(tmp_path / "bundled.sqlite", bundled_specs())
    [quoted] = ratio_rows(connection, "as-quoted", platform="nvidia-hgx-h100")
    [one_way] = ratio_rows(connection, "per-direction", platform="nvidia-hgx-h100")
    assert (round(quoted["memory_to_scale_up"], 1), quoted["scale_up_to_scale_out"], quoted["memory_to_scale_out"]) == (3.7, 18, 67)
    assert (one_way["memory_to_scale_up"], one_way["scale_up_to_scale_out"]) == (7.44, 9)


def test_ratios_table_prints_the_basis_and_marks_mixed_ratios(cli):
    quoted = cli("query", "ratios", "--basis", "as-quoted")
    assert quoted.exit_code == 0
    assert "basis: as-quoted" in quoted.stdout
    assert "3.72*" in quoted.stdout and "18*" in quoted.stdout
    one_way = cli("query", "ratios")
    assert "basis: per-direction" in one_way.stdout
    assert "*" not in one_way.stdout.split("basis:")[0]


def test_ratios_json_csv_and_markdown(cli):
    rows = json.loads(cli("query", "ratios", "--format", "json").stdout)
    assert rows[0]["platform"] == "test-system" and rows[0]["basis"] == "per-direction"
    assert all(key == key.lower() and " " not in key for key in rows[0])
    table = list(csv.DictReader(io.StringIO(cli("query", "ratios", "--format", "csv", "--basis", "as-quoted").stdout)))
    assert table[0]["scale_up_to_scale_out"] == "18" and table[0]["basis"] == "as-quoted"
    markdown = cli("query", "ratios", "--format", "markdown").stdout
    assert markdown.startswith("| platform | vendor | accelerator | year | basis |")
    assert "> basis: per-direction" in markdown


def test_ratios_filters(cli):
    assert json.loads(cli("query", "ratios", "--vendor", "test vendor", "-f", "json").stdout)[0]["platform"] == "test-system"
    nobody = cli("query", "ratios", "--vendor", "Test Vendr", "-f", "json")
    assert nobody.exit_code == 2 and nobody.stdout == ""
    assert "--vendor 'Test Vendr': no platform of this vendor (vendors: Test Vendor); did you mean 'Test Vendor'?" in nobody.stderr
    missing = cli("query", "ratios", "--platform", "no-such-platform")
    assert missing.exit_code == 2 and "no record or alias 'no-such-platform'" in missing.stderr


def test_trend_lines_say_whether_the_node_edge_cliff_grew(specs, db):
    newer = specs / "system" / "test-system-2.yaml"
    newer.write_text(
        (specs / "system" / "test-system.yaml").read_text()
        .replace("id: test-system", "id: test-system-2").replace("released: 2022-09", "released: 2024-09")
        .replace("value: 400 Gb/s", "value: 200 Gb/s").replace("derived: {product: [test-fabric.port_bandwidth]}", "derived: {product: [test-fabric.port_bandwidth], factor: 0.5}")
    )
    from specdb.analysis.tiers import trend

    rows = ratio_rows(open_fresh(db, specs))
    assert trend(rows) == [
        "Test Vendor node-edge cliff, scale-up / scale-out: 9x test-system -> 18x test-system-2 (grew)",
        "Test Vendor dense BF16 FLOP per byte of scale-out bandwidth: 19,780 (test-system) -> 39,560 (test-system-2), x2.0",
    ]


def test_query_figures_filters_by_kind_name_vendor_and_record(cli):
    rows = json.loads(cli("query", "figures", "--name", "%bandwidth", "--kind", "link", "-f", "json").stdout)
    assert {(row["record_id"], row["name"]) for row in rows} == {
        ("test-link", "per_accelerator_bandwidth"), ("test-link", "per_link_bandwidth"),
        ("test-pcie", "x16_bidirectional_bandwidth"), ("test-pcie", "x16_per_direction_bandwidth"),
    }
    by_alias = json.loads(cli("query", "figures", "--record", "TEST GPU 80GB HBM3", "--name", "memory_bandwidth", "-f", "json").stdout)
    assert [(row["record_id"], row["value"], row["unit"], row["direction"]) for row in by_alias] == [("test-gpu", 3.35e12, "B/s", "total")]


def _second_gpu(specs, memory_bandwidth: str) -> None:
    """test-gpu-2: the test GPU under another id, without aliases, with another memory bandwidth."""
    (specs / "accelerator" / "test-gpu-2.yaml").write_text(
        (specs / "accelerator" / "test-gpu.yaml").read_text().replace("id: test-gpu", "id: test-gpu-2")
        .replace("aliases: [TEST GPU 80GB HBM3, Test GPU SXM]", "aliases: []").replace("value: 3.35 TB/s", f"value: {memory_bandwidth}")
    )


def test_compare_puts_records_side_by_side_on_one_basis(cli, specs):
    _second_gpu(specs, "6.7 TB/s")
    rows = {row["figure"]: row for row in json.loads(cli("compare", "test-gpu", "test-gpu-2", "-f", "json").stdout)}
    assert rows["memory_bandwidth"]["ratio_to_first"] == {"test-gpu-2": 2}
    assert rows["memory_bandwidth"]["unit"] == "GB/s" and rows["memory_bandwidth"]["values"]["test-gpu"] == 3350
    assert rows["scale_up_bandwidth"]["values"]["test-gpu"] == 450 and rows["scale_up_bandwidth"]["counted"] == "per-direction"
    quoted = {row["figure"]: row for row in json.loads(cli("compare", "test-gpu", "test-gpu-2", "--basis", "as-quoted", "-f", "json").stdout)}
    assert quoted["scale_up_bandwidth"]["values"]["test-gpu"] == 900 and quoted["scale_up_bandwidth"]["counted"] == "bidirectional"
    table = list(csv.DictReader(io.StringIO(cli("compare", "test-gpu", "test-gpu-2", "-f", "csv").stdout)))
    assert {row["figure"]: row["test-gpu-2 / test-gpu"] for row in table}["memory_bandwidth"] == "2"


def test_compare_refuses_records_of_different_kinds(cli):
    result = cli("compare", "test-gpu", "test-link")
    assert result.exit_code == 2
    assert "compare records of one kind" in result.stderr


def test_sql_reads_and_never_writes(cli, db, monkeypatch):
    # No racy window, so no read records the files' times anew: the database's bytes can only change by a write through sql.
    monkeypatch.setattr(specfiles, "RACY_SECONDS", 0)
    rows = json.loads(cli("sql", "SELECT record_id, value_text FROM figure WHERE name = 'memory_bandwidth'", "-f", "json").stdout)
    assert rows == [{"record_id": "test-gpu", "value_text": "3.35 TB/s"}]
    before = db.read_bytes()
    result = cli("sql", "DELETE FROM figure")
    assert result.exit_code == 2
    assert "read-only" in result.stderr
    bad = cli("sql", "SELEC nonsense")
    assert bad.exit_code == 2 and "SQL failed" in bad.stderr
    assert db.read_bytes() == before


def test_compare_rounds_values_and_ratios_and_leaves_gaps_empty(cli, specs):
    _second_gpu(specs, "3.12345678 TB/s")
    rows = {row["figure"]: row for row in json.loads(cli("compare", "test-gpu", "test-gpu-2", "-f", "json").stdout)}
    # 3.12345678 TB/s = 3123.45678 GB/s, shown to 4 places; 3123.45678 / 3350 = 0.93237516..., to 3 places.
    assert rows["memory_bandwidth"]["values"] == {"test-gpu": 3350, "test-gpu-2": 3123.4568}
    assert rows["memory_bandwidth"]["ratio_to_first"] == {"test-gpu-2": 0.932}
    header = next(csv.reader(io.StringIO(cli("compare", "test-gpu", "test-gpu-2", "-f", "csv").stdout)))
    assert header == ["figure", "unit", "counted", "test-gpu", "test-gpu-2", "test-gpu-2 / test-gpu"]


def test_compare_of_records_without_shared_figures_leaves_the_gaps_empty(cli):
    rows = {row["figure"]: row for row in json.loads(cli("compare", "test-link", "test-pcie", "-f", "json").stdout)}
    # per_link_bandwidth is a figure of test-link only; lanes of test-pcie only
    assert rows["per_link_bandwidth"]["values"] == {"test-link": 25, "test-pcie": None}
    assert rows["per_link_bandwidth"]["ratio_to_first"] == {"test-pcie": None}
    assert rows["lanes"]["values"] == {"test-link": None, "test-pcie": 16}
    assert rows["lanes"]["ratio_to_first"] == {"test-pcie": None}


@pytest.mark.parametrize("args, message", [
    (("compare", "test-gpu"), "specdb: compare needs two or more records\n"),
    (("compare", "test-gpu", "test-link"), "specdb: compare records of one kind; got test-gpu (accelerator), test-link (link)\n"),
])
def test_compare_refusals_say_why(cli, args, message):
    result = cli(*args)
    assert result.exit_code == 2 and result.stderr == message


def test_ratios_for_several_platforms_gives_each_of_them(bundled_db):
    from typer.testing import CliRunner

    from specdb.cli import app

    # Each --platform adds a platform; "DGX H100" is NVIDIA's name for the HGX H100 8-GPU platform.
    result = CliRunner().invoke(app, [
        "query", "ratios", "--platform", "DGX H100", "--platform", "nvidia-hgx-b200", "-f", "json", "--db", str(bundled_db),
    ])
    assert result.exit_code == 0, result.output
    assert [row["platform"] for row in json.loads(result.stdout)] == ["nvidia-hgx-h100", "nvidia-hgx-b200"]
