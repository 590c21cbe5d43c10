"""Record format 1 read as format 2 (each conversion of format/upgrades/f1_to_f2.py), `specdb upgrade`, and one count of
records across validate, build and info."""

import json
import os
import re
import shutil
import subprocess

import pytest
from conftest import REPO

from specdb.db.builder import build
from specdb.db.store import connect_readonly
from specdb.load.dataset import load_specs

# The fabric as InfiniBand HDR's file had it before the figure-name vocabulary: a lane's data rate named lane_rate.
# A comment, a quoted text and a flow mapping are there to be kept by an upgrade.
FABRIC_V1 = """schema: 1
id: test-ib
kind: fabric
name: Test InfiniBand  # the port speed in the name
vendor: Test Vendor
figures:
  port_bandwidth:
    value: 200 Gb/s
    direction: per-direction
    scope: per-port
    status: shipping
    as_of: 2018-11
    reviewed: 2026-07-15
    derived:
      product: [lanes, lane_rate]
    sources:
      - ref: test-datasheet
        quote: "200Gb/s InfiniBand"
  lanes: {value: "4", scope: per-port, status: shipping, as_of: 2018-11, reviewed: 2026-07-15, sources: [{ref: test-datasheet}]}
  # the data rate of one lane, one way
  lane_rate:
    value: 50 Gb/s
    direction: per-direction
    scope: per-lane
    status: shipping
    as_of: 2018-11
    reviewed: 2026-07-15
    sources: [{ref: test-datasheet}]
"""
# The same file as `specdb upgrade` must leave it: the version, the figure's name and the reference to it; nothing else.
FABRIC_V2 = (FABRIC_V1.replace("schema: 1", "schema: 2").replace("[lanes, lane_rate]", "[lanes, lane_bandwidth]")
             .replace("  lane_rate:\n", "  lane_bandwidth:\n"))

# A link as UALink 1.0's file had it: lane_rate a bandwidth, signaling_rate the line rate.
LINK_V1 = """schema: 1
id: test-ualink
kind: link
name: Test UALink
vendor: Test Vendor
figures:
  lane_rate: {value: 200 Gb/s, direction: per-direction, scope: per-lane, status: spec, as_of: 2025-04, reviewed: 2026-07-15, sources: [{ref: test-datasheet}]}
  signaling_rate: {value: 212.5 GT/s, scope: per-lane, status: spec, as_of: 2025-04, reviewed: 2026-07-15, sources: [{ref: test-datasheet}]}
  lanes_per_port: {value: "4", scope: per-port, status: spec, as_of: 2025-04, reviewed: 2026-07-15, sources: [{ref: test-datasheet}]}
  per_port_bandwidth:
    value: 800 Gb/s
    direction: per-direction
    scope: per-port
    status: spec
    as_of: 2025-04
    reviewed: 2026-07-15
    derived: {product: [lane_rate, lanes_per_port]}
    sources: [{ref: test-datasheet}]
"""

# The MI355X's links as format 1 kept them: prefixed figures of amd-infinity-fabric, which the MI355X used.
SHARED_LINK_V1 = """schema: 1
id: amd-infinity-fabric
kind: link
name: Test Infinity Fabric, MI300 and MI350 series
vendor: AMD
family: Infinity Fabric
aliases: [xGMI, XGMI, AMD xGMI]
figures:
  links_per_accelerator: {value: "7", status: shipping, as_of: 2023-12, reviewed: 2026-07-15, sources: [{ref: test-datasheet}]}
  per_link_bandwidth: {value: 64 GB/s, direction: per-direction, scope: per-link, status: shipping, as_of: 2023-12, reviewed: 2026-07-15, sources: [{ref: test-datasheet}]}
  mi355x_per_link_bandwidth: {value: 76.5 GB/s, direction: per-direction, scope: per-link, status: shipping, as_of: 2025-06, reviewed: 2026-07-15, sources: [{ref: test-datasheet}]}
  mi355x_per_accelerator_bandwidth:
    value: 1071 GB/s
    direction: bidirectional
    scope: per-accelerator
    status: shipping
    as_of: 2025-06
    reviewed: 2026-07-15
    derived: {product: [links_per_accelerator, mi355x_per_link_bandwidth], factor: 2}
    sources: [{ref: test-datasheet}]
"""
MI355X_V1 = """schema: 1
id: amd-mi355x
kind: accelerator
name: Test MI355X
vendor: AMD
uses: {scale_up: amd-infinity-fabric}
figures:
  memory_capacity:
    value: 288 GB
    scope: per-accelerator
    status: shipping
    as_of: 2025-06
    reviewed: 2026-07-15
    sources: [{ref: test-datasheet}]
    alternatives:
      - {value: 0.25 TB, reason: a reading in other units, sources: [{ref: test-datasheet}]}
  scale_up_bandwidth:
    value: 1071 GB/s
    direction: bidirectional
    scope: per-accelerator
    status: shipping
    as_of: 2025-06
    reviewed: 2026-07-15
    derived: {product: [amd-infinity-fabric.links_per_accelerator, amd-infinity-fabric.mi355x_per_link_bandwidth], factor: 2}
    sources: [{ref: test-datasheet}]
"""
OLD_FILES = {
    "fabric/test-ib.yaml": FABRIC_V1, "link/test-ualink.yaml": LINK_V1,
    "link/amd-infinity-fabric.yaml": SHARED_LINK_V1, "accelerator/amd-mi355x.yaml": MI355X_V1,
}


@pytest.fixture
def old_specs(specs):
    for relpath, text in OLD_FILES.items():
        (specs / relpath).write_text(text)
    return specs


def _figures(dataset, record_id):
    return dataset.records[record_id].model.figures


def test_a_lane_rate_written_as_a_bandwidth_is_read_as_lane_bandwidth_and_its_references_follow(old_specs):
    dataset = load_specs(old_specs)
    assert dataset.ok, dataset.problems
    fabric = _figures(dataset, "test-ib")
    assert "lane_rate" not in fabric and fabric["lane_bandwidth"].value.value == 50e9 / 8
    assert fabric["port_bandwidth"].derived.product == ["lanes", "lane_bandwidth"]


def test_signaling_rate_becomes_lane_rate_once_lane_rate_is_lane_bandwidth(old_specs):
    link = _figures(load_specs(old_specs), "test-ualink")
    assert (link["lane_rate"].value.text, link["lane_bandwidth"].value.text) == ("212.5 GT/s", "200 Gb/s")
    assert link["per_port_bandwidth"].derived.product == ["lane_bandwidth", "lanes_per_port"]
    assert "signaling_rate" not in link


def test_a_record_with_only_signal_pair_rate_has_it_as_lane_bandwidth(specs):
    (specs / "link" / "test-nvlink.yaml").write_text(LINK_V1.replace("id: test-ualink", "id: test-nvlink").split("  lane_rate:")[0]
                                                     + "  signal_pair_rate: {value: 50 Gb/s, direction: per-direction, scope: per-lane,"
                                                       " status: shipping, as_of: 2020-05, reviewed: 2026-07-15, sources: [{ref: test-datasheet}]}\n")
    dataset = load_specs(specs)
    assert dataset.ok, dataset.problems
    assert _figures(dataset, "test-nvlink")["lane_bandwidth"].value.value == 50e9 / 8


def test_the_mi355x_figures_of_the_shared_link_are_a_record_of_their_own_which_the_mi355x_uses(old_specs):
    dataset = load_specs(old_specs)
    assert dataset.ok, dataset.problems
    shared, split = _figures(dataset, "amd-infinity-fabric"), _figures(dataset, "amd-infinity-fabric-cdna4")
    assert sorted(shared) == ["links_per_accelerator", "per_link_bandwidth"]
    assert sorted(split) == ["per_accelerator_bandwidth", "per_link_bandwidth"]
    assert split["per_link_bandwidth"].value.value == 76.5e9
    # 7 links (still on the shared record) x 76.5 GB/s x 2.
    assert split["per_accelerator_bandwidth"].derived.product == ["amd-infinity-fabric.links_per_accelerator", "per_link_bandwidth"]
    mi355x = dataset.records["amd-mi355x"].model
    assert mi355x.uses["scale_up"] == "amd-infinity-fabric-cdna4"
    assert mi355x.figures["scale_up_bandwidth"].derived.product == ["amd-infinity-fabric.links_per_accelerator", "amd-infinity-fabric-cdna4.per_link_bandwidth"]
    assert dataset.records["amd-infinity-fabric-cdna4"].relpath == "link/amd-infinity-fabric-cdna4.yaml"


def test_a_memory_capacity_in_decimal_units_is_the_binary_amount_and_an_alias_listed_twice_is_kept_once(old_specs):
    dataset = load_specs(old_specs)
    capacity = _figures(dataset, "amd-mi355x")["memory_capacity"]
    assert (capacity.value.text, capacity.value.value) == ("288 GiB", 288 * 2**30)
    assert capacity.alternatives[0].value.value == 0.25 * 2**40
    assert dataset.records["amd-infinity-fabric"].model.aliases == ["xGMI", "AMD xGMI"]


def test_a_format_2_file_is_held_to_format_2_rules(specs):
    (specs / "fabric" / "test-ib.yaml").write_text(FABRIC_V1.replace("schema: 1", "schema: 2"))
    messages = [problem.message for problem in load_specs(specs).problems]
    assert "figures.lane_rate: fabric records cannot have this figure (it belongs to: link)" in messages


def test_validate_and_build_read_an_old_file_and_name_specdb_upgrade(cli, old_specs):
    validated = cli("validate")
    assert validated.exit_code == 0, validated.output
    assert "4 files (" in validated.stderr and "older record format, read as format 2; `specdb upgrade` rewrites them" in validated.stderr
    built = cli("build")
    assert built.exit_code == 0 and "`specdb upgrade`" in built.stderr


def test_upgrade_rewrites_only_what_the_format_changed_keeping_comments_order_and_quoting(old_specs):
    result = _upgrade(old_specs)
    assert result.exit_code == 0, result.output
    assert (old_specs / "fabric" / "test-ib.yaml").read_text() == FABRIC_V2
    assert (old_specs / "link" / "amd-infinity-fabric-cdna4.yaml").exists()
    assert (old_specs / "source" / "test-datasheet.yaml").read_text().startswith("schema: 2\n")


def _app():
    from specdb.cli import app

    return app


def _upgrade(specs, *paths):
    from typer.testing import CliRunner

    return CliRunner().invoke(_app(), ["upgrade", *map(str, paths), "--specs", str(specs)])


def _snapshot(specs):
    return {relpath: path.read_bytes() for relpath, path in ((p.relative_to(specs).as_posix(), p) for p in specs.rglob("*.yaml"))}


def test_upgraded_files_read_as_the_old_ones_did_through_the_conversions_and_a_second_upgrade_changes_nothing(old_specs):
    before = {record_id: (loaded.model.model_dump(exclude={"schema_", "notes"}), loaded.relpath) for record_id, loaded in load_specs(old_specs).records.items()}
    assert _upgrade(old_specs).exit_code == 0
    after = load_specs(old_specs)
    assert after.ok and not after.converted
    assert {record_id: (loaded.model.model_dump(exclude={"schema_", "notes"}), loaded.relpath) for record_id, loaded in after.records.items()} == before
    written = _snapshot(old_specs)
    again = _upgrade(old_specs)
    assert again.exit_code == 0 and "every file is in format 2 already" in again.stderr
    assert _snapshot(old_specs) == written


def test_upgrade_writes_nothing_when_any_file_would_not_validate(old_specs):
    (old_specs / "link" / "test-broken.yaml").write_text(LINK_V1.replace("id: test-ualink", "id: test-broken").replace("lanes_per_port:", "lanes_per_prot:"))
    before = _snapshot(old_specs)
    result = _upgrade(old_specs)
    assert result.exit_code == 1
    assert "unknown figure name 'lanes_per_prot'" in result.output
    assert _snapshot(old_specs) == before


def test_upgrade_of_named_paths_leaves_the_others_and_refuses_a_path_outside_the_specs(old_specs, tmp_path):
    assert _upgrade(old_specs, old_specs / "fabric").exit_code == 0
    assert (old_specs / "fabric" / "test-ib.yaml").read_text() == FABRIC_V2
    assert (old_specs / "link" / "test-ualink.yaml").read_text() == LINK_V1
    outside = tmp_path / "elsewhere.yaml"
    outside.write_text(FABRIC_V1)
    refused = _upgrade(old_specs, outside)
    assert refused.exit_code == 2 and "not inside the specs folder" in refused.output
    assert outside.read_text() == FABRIC_V1


def test_upgrade_names_the_line_and_column_of_a_file_that_is_not_yaml_and_writes_nothing(old_specs):
    (old_specs / "link" / "test-bad.yaml").write_text("schema: 1\nid: [unclosed\n")
    before = _snapshot(old_specs)
    result = _upgrade(old_specs)
    assert result.exit_code == 2 and re.search(r"test-bad\.yaml:3:1: YAML syntax", result.output), result.output
    assert _snapshot(old_specs) == before


def test_upgrade_refuses_to_split_a_record_onto_a_file_that_exists(old_specs):
    (old_specs / "link" / "amd-infinity-fabric-cdna4.yaml").write_text("schema: 2\n")
    before = _snapshot(old_specs)
    result = _upgrade(old_specs)
    assert result.exit_code == 2 and "amd-infinity-fabric-cdna4.yaml, which exists already" in result.output
    assert _snapshot(old_specs) == before


def test_validate_build_and_info_count_the_same_records_sources_and_figures(tmp_path):
    """The bundled data: records are the files of the record folders, sources those of source/."""
    from typer.testing import CliRunner

    specs = REPO / "specs"
    records = sum(1 for path in specs.glob("*/*.yaml") if path.parent.name != "source")
    sources = sum(1 for _ in specs.glob("source/*.yaml"))
    runner, db = CliRunner(), str(tmp_path / "counts.sqlite")
    validated = runner.invoke(_app(), ["validate", "--specs", str(specs)])
    built = runner.invoke(_app(), ["build", "--specs", str(specs), "--db", db])
    info = json.loads(runner.invoke(_app(), ["info", "--specs", str(specs), "--db", db, "--format", "json"]).stdout)
    figures = info["figures"]
    words = f"{records} records, {sources} sources, {figures} figures"
    assert validated.stderr.endswith(f"valid: {words}\n")
    assert built.stderr.endswith(f"built: {words}\n")
    assert (info["records"], info["sources"]) == (records, sources)
    validated_json = json.loads(runner.invoke(_app(), ["validate", "--specs", str(specs), "--format", "json"]).stdout)
    assert (validated_json["records"], validated_json["sources"], validated_json["figures"]) == (records, sources, figures)


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_history_follows_a_figure_back_through_its_format_1_name(specs, tmp_path):
    def git(*args):
        env = {**os.environ, "GIT_AUTHOR_DATE": "2024-01-02T12:00:00+00:00", "GIT_COMMITTER_DATE": "2024-01-02T12:00:00+00:00"}
        return subprocess.run(["git", "-C", str(specs), "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false", *args],
                              check=True, capture_output=True, text=True, env=env).stdout

    git("init", "-q")
    (specs / "fabric" / "test-ib.yaml").write_text(FABRIC_V1)
    git("add", "-A")
    git("commit", "-qm", "The fabric in format 1")
    (specs / "fabric" / "test-ib.yaml").write_text(FABRIC_V2.replace("value: 50 Gb/s", "value: 50.5 Gb/s"))
    git("commit", "-qam", "The fabric in format 2, its lane revised")
    from specdb.versions.history import figure_history

    db = tmp_path / "history.sqlite"
    build(specs, db)
    rows = figure_history(connect_readonly(db), specs, "test-ib", "lane_bandwidth")
    assert [row["value"] for row in rows if row["commit"]] == ["50 Gb/s", "50.5 Gb/s"]


def test_a_full_disk_during_an_upgrade_leaves_every_file_as_it_was(old_specs, monkeypatch):
    import errno

    def full(descriptor):
        raise OSError(errno.ENOSPC, "No space left on device")

    before = _snapshot(old_specs)
    monkeypatch.setattr(os, "fsync", full)
    result = _upgrade(old_specs)
    assert result.exit_code == 3 and "cannot write (No space left on device)" in result.output
    assert _snapshot(old_specs) == before
    assert not [path for path in old_specs.rglob(".*") if path.is_file()]  # no temporary left behind


def test_a_rename_failing_midway_puts_back_the_files_already_replaced(old_specs, monkeypatch):
    import errno

    replace, renamed = os.replace, []

    def fail_on_the_third(source, target):
        if str(target).endswith(".yaml") and not str(source).endswith(".replaced"):
            renamed.append(target)
            if len(renamed) == 3:
                raise OSError(errno.EIO, "Input/output error")
        replace(source, target)

    before = _snapshot(old_specs)
    monkeypatch.setattr(os, "replace", fail_on_the_third)
    result = _upgrade(old_specs)
    assert result.exit_code == 3 and "cannot write (Input/output error)" in result.output
    assert len(renamed) == 3 and _snapshot(old_specs) == before
    assert not [path for path in old_specs.rglob(".*") if path.is_file()]
