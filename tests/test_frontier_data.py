"""The 2026 platforms in the bundled data, and the record shapes they brought: switches, adapters, memory standards."""

import json

import pytest
from typer.testing import CliRunner

from specdb.cli import app
from specdb.resources import bundled_specs
from specdb.db.access import open_fresh
from specdb.analysis.tiers import ratio_rows, trend

SWITCH = """schema: 2
id: test-switch
kind: fabric
name: Test Switch 64 x 400G
vendor: Test Vendor
uses: {scale_out: test-fabric}
figures:
  switch_ports: {value: 64, status: shipping, as_of: 2021-11, reviewed: 2026-07-15, sources: [{ref: test-datasheet}]}
  port_bandwidth: {value: 400 Gb/s, direction: per-direction, scope: per-port, status: shipping, as_of: 2021-11, reviewed: 2026-07-15, sources: [{ref: test-datasheet}]}
  switch_bandwidth: {value: 25.6 Tb/s, direction: per-direction, scope: per-system, status: shipping, as_of: 2021-11, reviewed: 2026-07-15, derived: {product: [switch_ports, port_bandwidth]}, sources: [{ref: test-datasheet}]}
"""

MEMORY = """schema: 2
id: test-hbm
kind: link
name: Test HBM
vendor: Test Standards Body
figures:
  interface_width: {value: 1024, status: spec, as_of: 2022-01, reviewed: 2026-07-15, sources: [{ref: test-datasheet}]}
  pin_rate: {value: 6.4 Gb/s, direction: total, scope: per-lane, status: spec, as_of: 2022-01, reviewed: 2026-07-15, sources: [{ref: test-datasheet}]}
  stack_bandwidth: {value: 819.2 GB/s, direction: total, scope: per-link, status: spec, as_of: 2022-01, reviewed: 2026-07-15, derived: {product: [interface_width, pin_rate]}, sources: [{ref: test-datasheet}]}
"""


@pytest.fixture
def bundled(bundled_db):
    return open_fresh(bundled_db, bundled_specs())


def test_vera_rubin_nvl72_is_the_newest_nvidia_platform_with_its_tiers_counted_one_way(bundled):
    rows = ratio_rows(bundled, "per-direction", vendor="NVIDIA")
    newest = rows[-1]
    assert newest["platform"] == "nvidia-vera-rubin-nvl72" and newest["accelerator"] == "nvidia-rubin"
    # HBM4 22 TB/s; NVLink 6's 3.6 TB/s adds both directions, so 1.8 TB/s each way; ConnectX-9's 1.6 Tb/s is 200 GB/s.
    assert (newest["memory_gbps"], newest["scale_up_gbps"], newest["scale_out_gbps"]) == (22000, 1800, 200)
    # 22,000 / 1,800 = 12.22; 1,800 / 200 = 9; 22,000 / 200 = 110.
    assert (newest["memory_to_scale_up"], newest["scale_up_to_scale_out"], newest["memory_to_scale_out"]) == (12.22, 9, 110)
    assert newest["mixed_counting"] == []
    # HGX B300 (900 / 100 = 9) is the platform before it: the cliff at the node edge holds.
    [nvidia] = [line for line in trend(rows) if line.startswith("NVIDIA node-edge cliff")]
    assert nvidia.endswith("9x nvidia-hgx-b300 (held) -> 9x nvidia-vera-rubin-nvl72 (held)")


def test_as_quoted_the_rack_adds_nvlink_directions_and_counts_the_nic_one_way(bundled):
    [quoted] = ratio_rows(bundled, "as-quoted", platform="nvidia-vera-rubin-nvl72")
    assert (quoted["scale_up_gbps"], quoted["scale_up_counted"], quoted["scale_out_counted"]) == (3600, "bidirectional", "per-direction")
    assert quoted["scale_up_to_scale_out"] == 18 and "scale_up_to_scale_out" in quoted["mixed_counting"]


@pytest.mark.parametrize("name", ["Vera Rubin NVL144", "VR NVL72", "nvidia-vera-rubin-nvl72"])
def test_the_rack_once_named_nvl144_is_found_by_either_name(bundled_db, name):
    result = CliRunner().invoke(app, ["show", name, "--format", "json", "--specs", str(bundled_specs()), "--db", str(bundled_db)])
    assert result.exit_code == 0, result.output
    record = json.loads(result.stdout)
    assert record["id"] == "nvidia-vera-rubin-nvl72"
    [accelerators] = [figure for figure in record["figures"] if figure["name"] == "accelerators"]
    assert [alternative["value"] for alternative in accelerators["alternatives"]] == [144]


def test_hbm4_stack_bandwidth_is_its_pins_times_their_rate(bundled):
    values = dict(bundled.execute("SELECT name, value FROM figure WHERE record_id = 'jedec-hbm4'").fetchall())
    # JESD270-4: 2,048 pins at 8 Gb/s = 16,384 Gb/s = 2.048 TB/s per stack (JEDEC rounds to 2 TB/s).
    assert values["interface_width"] == 2048 and values["pin_rate"] == 1e9
    assert values["stack_bandwidth"] == 2048 * 8e9 / 8


def test_a_switch_is_a_fabric_record_whose_capacity_is_ports_times_port_speed(cli, specs):
    (specs / "fabric" / "test-switch.yaml").write_text(SWITCH)
    assert cli("validate").exit_code == 0
    listed = json.loads(cli("query", "figures", "--record", "test-switch", "--format", "json").stdout)
    capacity = {row["name"]: row for row in listed}["switch_bandwidth"]
    # 64 ports x 400 Gb/s = 25.6 Tb/s = 3.2 TB/s, one direction.
    assert (capacity["value"], capacity["unit"], capacity["direction"]) == (3.2e12, "B/s", "per-direction")


def test_a_memory_standard_is_a_link_record_with_a_derived_stack_bandwidth(cli, specs):
    (specs / "link" / "test-hbm.yaml").write_text(MEMORY)
    # 1,024 pins x 6.4 Gb/s / 8 = 819.2 GB/s (HBM3's headline).
    assert cli("validate").exit_code == 0, cli("validate").stdout


BAD = [
    ("a both-ways capacity labelled one way", SWITCH, "fabric/test-switch.yaml", "value: 25.6 Tb/s", "value: 51.2 Tb/s", "derived: switch_ports x port_bandwidth x 1 = 3.2e+12, but value is 6.4e+12"),
    ("a fractional radix", SWITCH, "fabric/test-switch.yaml", "value: 64,", 'value: "64.5",', "'64.5' must be a whole number"),
    ("a pin rate counted one way", MEMORY, "link/test-hbm.yaml", "value: 6.4 Gb/s, direction: total", "value: 6.4 Gb/s, direction: per-direction", "direction 'per-direction' does not fit; pin_rate is counted total"),
    ("a switch figure on a link", MEMORY, "link/test-hbm.yaml", "interface_width:", "switch_ports:", "link records cannot have this figure (it belongs to: fabric)"),
]


@pytest.mark.parametrize("case, text, relpath, find, replace, message", BAD, ids=[case[0] for case in BAD])
def test_switch_and_memory_figures_that_do_not_fit_are_refused(cli, specs, case, text, relpath, find, replace, message):
    assert find in text
    (specs / relpath).write_text(text.replace(find, replace, 1))
    result = cli("validate")
    assert result.exit_code == 1
    assert f"{relpath}:" in result.stdout and message in result.stdout, result.stdout


def test_helios_tiers_follow_amds_white_paper(bundled):
    [helios] = ratio_rows(bundled, "per-direction", platform="amd-helios")
    # MI455X: 23.3 TB/s HBM4; 3.6 TB/s scale-up both ways = 1.8 TB/s each way; 600 GB/s scale-out both ways = 300 GB/s.
    assert (helios["memory_gbps"], helios["scale_up_gbps"], helios["scale_out_gbps"]) == (23300, 1800, 300)
    # 23,300 / 1,800 = 12.94; 1,800 / 300 = 6; 23,300 / 300 = 77.67; 5.03 PFLOPS / 300 GB/s = 16,767 FLOP per byte.
    assert (helios["memory_to_scale_up"], helios["scale_up_to_scale_out"], helios["memory_to_scale_out"]) == (12.94, 6, 77.67)
    assert helios["bf16_flop_per_network_byte"] == 16767


def test_every_memory_capacity_is_in_binary_units_so_a_gb200_holds_more_than_a_b200(bundled, bundled_db, tmp_path):
    capacities = bundled.execute("SELECT record_id, value_text FROM figure WHERE name IN ('memory_capacity', 'driver_memory_total')").fetchall()
    assert [row["record_id"] for row in capacities if not row["value_text"].endswith("iB")] == []
    result = CliRunner().invoke(app, ["compare", "nvidia-b200", "nvidia-gb200", "--format", "json", "--specs", str(bundled_specs()), "--db", str(bundled_db)])
    assert result.exit_code == 0, result.output
    [capacity] = [row for row in json.loads(result.stdout) if row["figure"] == "memory_capacity"]
    # 186 GiB / 180 GiB = 1.0333: NVIDIA's "186 GB" and "180 GB" are both GiB.
    assert capacity["ratio_to_first"] == {"nvidia-gb200": 1.033}
    exported = CliRunner().invoke(app, ["export", "llm-analysis", str(tmp_path / "llm"), "--db", str(bundled_db)])
    assert exported.exit_code == 0, exported.output
    memory = {name: json.loads((tmp_path / "llm" / f"{name}.json").read_text())["mem_per_GPU_in_GB"] for name in ("nvidia-b200", "nvidia-gb200")}
    # llm-analysis's "GB" is GiB: 180 and 186 as NVIDIA writes them.
    assert memory == {"nvidia-b200": 180, "nvidia-gb200": 186}


def test_a_driver_total_sits_beside_the_capacity_never_in_its_place(bundled):
    rows = bundled.execute("SELECT record_id, name, value FROM figure WHERE name IN ('memory_capacity', 'driver_memory_total') AND record_id = 'nvidia-gb200'").fetchall()
    values = {row["name"]: row["value"] for row in rows}
    # 186 GiB = 199,715,979,264 B quoted; 189,471 MiB = 198,674,743,296 B reported by nvidia-smi.
    assert values == {"memory_capacity": 186 * 2**30, "driver_memory_total": 189471 * 2**20}
