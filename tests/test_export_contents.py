"""What each export holds, field by field, for the small test data; every expected value is worked out from the spec YAML."""

import csv
import json
import sqlite3

import pytest
import yaml

import specdb
from specdb.export.aiconfigurator import NOT_SPECDB_FIGURES
from specdb.export.tables import TABLES

SOURCES = [{"ref": "test-datasheet"}]
SEEN = {"status": "shipping", "as_of": "2024-01", "reviewed": "2026-07-15", "sources": SOURCES}

# Records added to the test data so that every path of the exports is taken: an accelerator with fp16, int8 and a
# one-way scale-up figure; one lacking what llm-analysis requires; a rack-scale platform with its own PCIe 6 host
# link; a box with its own one-way scale-up figure and no host link or fabric; a box with neither of its own that
# falls back on its accelerator's host link; a platform with no scale-up domain and one with no accelerator (so no
# scale-up figure); and a source with a printed citation instead of a URL.
EXTRA = {
    "accelerator/test-tpu.yaml": {
        "schema": 1, "id": "test-tpu", "kind": "accelerator", "name": "Test TPU", "vendor": "Test Vendor",
        "figures": {
            "memory_capacity": {"value": "95 GiB", "scope": "per-accelerator", **SEEN},
            "memory_bandwidth": {"value": "2765 GB/s", "direction": "total", "scope": "per-accelerator", **SEEN},
            "dense_fp16_flops": {"value": "459 TFLOPS", "precision": "fp16", "sparsity": "dense", **SEEN},
            "dense_bf16_flops": {"value": "458 TFLOPS", "precision": "bf16", "sparsity": "dense", **SEEN},
            "dense_int8_flops": {"value": "918 TFLOPS", "precision": "int8", "sparsity": "dense", **SEEN},
            "scale_up_bandwidth": {"value": "600 GB/s", "direction": "per-direction", "scope": "per-accelerator", **SEEN},
        },
    },
    "accelerator/test-npu.yaml": {
        "schema": 1, "id": "test-npu", "kind": "accelerator", "name": "Test NPU", "vendor": "Test Vendor",
        "figures": {
            "memory_bandwidth": {"value": "1.2 TB/s", "direction": "total", "scope": "per-accelerator", **SEEN},
            "power": {"value": "350.5 W", **SEEN},
        },
    },
    "link/test-pcie6.yaml": {
        "schema": 1, "id": "test-pcie6", "kind": "link", "name": "Test PCIe 6.0", "vendor": "Test Standards Body",
        "figures": {"x16_per_direction_bandwidth": {
            "value": "121 GB/s", "direction": "per-direction", "scope": "per-link", **SEEN, "sources": [{"ref": "test-book"}]}},
    },
    "source/test-book.yaml": {
        "schema": 1, "id": "test-book", "kind": "source", "name": "A printed handbook", "publisher": "Test Press",
        "citation": "Test Press, A printed handbook, 2022, p. 12", "published": "2022-06-01",
    },
    "system/test-rack.yaml": {
        "schema": 1, "id": "test-rack", "kind": "system", "name": "Test Rack 72", "vendor": "Test Vendor",
        "uses": {"accelerator": "test-gpu", "scale_up": "test-link", "host_link": "test-pcie6", "scale_out": "test-fabric"},
        "figures": {
            "accelerators": {"value": "72", **SEEN},
            "compute_trays": {"value": "18", **SEEN},
            "scale_up_domain": {"value": "72", **SEEN},
            "scale_out_bandwidth": {"value": "800 Gb/s", "direction": "per-direction", "scope": "per-accelerator", **SEEN},
        },
    },
    "system/test-npu-box.yaml": {
        "schema": 1, "id": "test-npu-box", "kind": "system", "name": "Test NPU Box", "vendor": "Test Vendor",
        "uses": {"accelerator": "test-npu"},
        "figures": {
            "scale_up_domain": {"value": "2", **SEEN},
            "scale_up_bandwidth": {"value": "200 GB/s", "direction": "per-direction", "scope": "per-accelerator", **SEEN},
        },
    },
    "system/test-quad.yaml": {
        "schema": 1, "id": "test-quad", "kind": "system", "name": "Test Quad Box", "vendor": "Test Vendor",
        "uses": {"accelerator": "test-gpu", "scale_up": "test-link"},
        "figures": {"scale_up_domain": {"value": "4", **SEEN}},
    },
    "system/test-half.yaml": {
        "schema": 1, "id": "test-half", "kind": "system", "name": "Test Half Box", "vendor": "Test Vendor",
        "uses": {"accelerator": "test-gpu"},
        "figures": {"accelerators": {"value": "2", **SEEN}},
    },
    "system/test-lonely.yaml": {
        "schema": 1, "id": "test-lonely", "kind": "system", "name": "Test Lonely Box", "vendor": "Test Vendor",
        "figures": {"accelerators": {"value": "1", **SEEN}, "scale_up_domain": {"value": "1", **SEEN}},
    },
}


@pytest.fixture
def richer(cli):
    for path, record in EXTRA.items():
        (cli.specs / path).write_text(json.dumps(record, indent=1))  # JSON is YAML, and has no anchors for shared parts
    return cli


def exported(cli, fmt, folder):
    result = cli("export", fmt, str(folder))
    assert result.exit_code == 0, result.output
    return folder, json.loads((folder / "specdb-export.json").read_text())


def content_hash(cli):
    connection = sqlite3.connect(cli.db)
    try:
        return connection.execute("SELECT value FROM meta WHERE key = 'content_hash'").fetchone()[0]
    finally:
        connection.close()


def attribution(short_hash):
    return (f"AI hardware figures from specdb (custom specs, content {short_hash}), Creative Commons Attribution 4.0 International "
            "(CC-BY-4.0); each figure cites its own sources, listed with it.")


# --- Frictionless Data Package -------------------------------------------------------------------------------------


def test_the_data_package_descriptor_names_the_data_its_licence_version_and_sources(richer, tmp_path):
    folder, manifest = exported(richer, "datapackage", tmp_path / "package")
    package = json.loads((folder / "datapackage.json").read_text())
    short = content_hash(richer)[:12]
    assert len(short) == 12
    assert package["profile"] == "tabular-data-package"
    assert package["name"] == "specdb"
    assert package["title"] == "specdb: AI hardware figures with their sources"
    assert package["description"] == (
        "Memory, scale-up, host-link and scale-out bandwidths, capacities and compute of AI accelerators, links, "
        "fabrics, platforms and clusters; every figure with its unit, direction, scope, status, review date and "
        f"citations. {attribution(short)}"
    )
    # Custom specs have no data version: the code version plus the first 12 hex digits of the content hash.
    assert package["version"] == f"{specdb.__version__}+{short}"
    assert package["licenses"] == [{
        "name": "CC-BY-4.0", "path": "https://creativecommons.org/licenses/by/4.0/",
        "title": "Creative Commons Attribution 4.0 International",
    }]
    # Sources by id (test-book, test-datasheet): "publisher: name", with a path only where the source has a URL.
    assert package["sources"] == [
        {"title": "Test Press: A printed handbook"},
        {"title": "Test Vendor: A datasheet for the tests", "path": "https://example.com/datasheet"},
    ]
    assert [resource["name"] for resource in package["resources"]] == list(TABLES)
    assert manifest["open_with"] == "frictionless validate datapackage.json"
    assert sorted(manifest["files"]) == sorted(["datapackage.json", *(f"{table}.csv" for table in TABLES)])


def test_each_data_package_resource_is_a_utf8_csv_with_typed_fields_and_keys(cli, tmp_path):
    folder, _ = exported(cli, "datapackage", tmp_path / "package")
    resources = {resource["name"]: resource for resource in json.loads((folder / "datapackage.json").read_text())["resources"]}
    figure = resources["figure"]
    assert {key: value for key, value in figure.items() if key != "schema"} == {
        "name": "figure", "path": "figure.csv", "profile": "tabular-data-resource", "description": TABLES["figure"][0],
        "format": "csv", "mediatype": "text/csv", "encoding": "utf-8",
    }
    fields = {field["name"]: field for field in figure["schema"]["fields"]}
    assert list(fields) == list(TABLES["figure"][1])
    # The migration's types: id INTEGER -> integer, value FLOAT -> number, as_of a date, name a string;
    # NOT NULL columns are required, nullable ones (direction) have no constraint.
    assert fields["id"] == {"name": "id", "type": "integer", "description": "Figure id.", "constraints": {"required": True}}
    assert fields["value"]["type"] == "number" and fields["value"]["constraints"] == {"required": True}
    assert fields["as_of"]["type"] == "date" and fields["name"]["type"] == "string"
    assert fields["direction"] == {"name": "direction", "type": "string", "description": TABLES["figure"][1]["direction"]}
    assert fields["derived_factor"]["type"] == "number" and "constraints" not in fields["derived_factor"]
    assert figure["schema"]["missingValues"] == [""]
    assert figure["schema"]["primaryKey"] == ["id"]
    assert figure["schema"]["foreignKeys"] == [{"fields": "record_id", "reference": {"resource": "record", "fields": "id"}}]
    # record_use's key is (record_id, role), in that order; both its ids point at records, sorted by column.
    assert resources["record_use"]["schema"]["primaryKey"] == ["record_id", "role"]
    assert resources["record_use"]["schema"]["foreignKeys"] == [
        {"fields": "record_id", "reference": {"resource": "record", "fields": "id"}},
        {"fields": "target_id", "reference": {"resource": "record", "fields": "id"}},
    ]
    assert resources["citation"]["schema"]["foreignKeys"] == [
        {"fields": "claim_id", "reference": {"resource": "claim", "fields": "id"}},
        {"fields": "figure_id", "reference": {"resource": "figure", "fields": "id"}},
        {"fields": "source_id", "reference": {"resource": "source", "fields": "id"}},
    ]
    # A table that refers to no other has no foreignKeys entry at all.
    assert "foreignKeys" not in resources["record"]["schema"]
    assert {field["name"]: field["type"] for field in resources["source"]["schema"]["fields"]}["published"] == "date"


def test_the_data_package_csvs_hold_each_row_as_the_spec_writes_it(cli, tmp_path):
    folder, _ = exported(cli, "datapackage", tmp_path / "package")
    record = (folder / "record.csv").read_bytes().decode("utf-8")
    lines = record.split("\n")
    assert lines[0] == "id,kind,name,vendor,family,released,released_date,notes,path"
    assert "\r" not in record and record.endswith("\n")
    # test-gpu.yaml: released 2022-09, a month, so its date is the first of the month; no notes, so an empty cell.
    assert "test-gpu,accelerator,Test GPU 80GB,Test Vendor,Testarch,2022-09,2022-09-01,,accelerator/test-gpu.yaml" in lines
    figures = {(row["record_id"], row["name"]): row for row in csv.DictReader((folder / "figure.csv").open(encoding="utf-8"))}
    # 3.35 TB/s = 3.35e12 B/s, printed as a whole number; 80 GiB = 80 * 2**30 = 85899345920 B.
    assert figures["test-gpu", "memory_bandwidth"]["value"] == "3350000000000"
    assert figures["test-gpu", "memory_capacity"]["value"] == "85899345920"
    # 98.4615 % = 0.984615, a fraction that stays a fraction.
    assert figures["test-pcie", "encoding_efficiency"]["value"] == "0.984615"
    assert figures["test-gpu", "memory_capacity"]["direction"] == ""
    assert figures["test-link", "per_accelerator_bandwidth"]["derived_factor"] == "2"
    meta = list(csv.reader((folder / "meta.csv").open(encoding="utf-8")))
    assert [row[0] for row in meta] == ["key", "content_hash", "data_license", "record_format"]


# --- Datasette -----------------------------------------------------------------------------------------------------


def test_the_datasette_metadata_has_the_title_licence_source_and_every_view_column(cli, tmp_path):
    folder, manifest = exported(cli, "datasette", tmp_path / "datasette")
    metadata = json.loads((folder / "metadata.json").read_text())
    short = content_hash(cli)[:12]
    assert metadata["title"] == "specdb: AI hardware figures with their sources"
    assert metadata["description"] == (
        "Bandwidths, capacities and compute of AI accelerators, links, fabrics, platforms and clusters. Canonical values "
        "are SI (B/s, B, FLOP/s, s); every bandwidth says its direction and scope. " + attribution(short)
    )
    assert metadata["license"] == "CC-BY-4.0"
    assert metadata["license_url"] == "https://creativecommons.org/licenses/by/4.0/"
    assert metadata["source"] == f"specdb {specdb.__version__}, content {short}"
    # The database file specdb.db is the Datasette database "specdb".
    assert list(metadata["databases"]) == ["specdb"]
    tables = metadata["databases"]["specdb"]["tables"]
    figure, record = TABLES["figure"][1], TABLES["record"][1]
    assert tables["figure_view"] == {
        "description": "Each figure with its record's kind, name and vendor and the ids of its sources (a view over figure, record and citation).",
        "columns": {
            "record_id": figure["record_id"], "kind": record["kind"], "record_name": "The record's name.", "vendor": record["vendor"],
            "figure": figure["name"], "value_text": figure["value_text"], "value": figure["value"], "unit": figure["unit"],
            "direction": figure["direction"], "scope": figure["scope"], "status": figure["status"], "as_of": figure["as_of"],
            "reviewed": figure["reviewed"], "sources": "Ids of the sources cited for the figure, comma-separated.",
        },
    }
    assert tables["alembic_version"] == {
        "description": "The schema revision of this database, kept by the Alembic migrations that created it.",
        "columns": {"version_num": "Alembic revision id."},
    }
    assert manifest["open_with"] == "datasette serve specdb.db --metadata metadata.json"
    assert sorted(manifest["files"]) == ["metadata.json", "specdb.db"]


def test_the_datasette_database_keeps_only_the_facts_about_the_data(cli, tmp_path):
    folder, _ = exported(cli, "datasette", tmp_path / "datasette")
    copy = sqlite3.connect(folder / "specdb.db")
    try:
        meta = dict(copy.execute("SELECT key, value FROM meta"))
        figures = copy.execute("SELECT value FROM figure WHERE record_id = 'test-gpu' AND name = 'memory_bandwidth'").fetchall()
    finally:
        copy.close()
    assert sorted(meta) == ["content_hash", "data_license", "record_format"]
    assert meta["content_hash"] == content_hash(cli) and meta["data_license"] == "CC-BY-4.0"
    assert figures == [(3.35e12,)]


def test_the_datasette_export_refuses_a_database_that_is_not_a_sqlite_file(tmp_path):
    from specdb.errors import UsageError
    from specdb.export import datasette

    with pytest.raises(UsageError) as refused:
        datasette.write(object(), {}, tmp_path)
    assert str(refused.value) == (
        "the datasette export is a copy of the SQLite file; export it from a SQLite --db (specdb build --db FILE)")
    assert list(tmp_path.iterdir()) == []


def test_a_database_copy_sqlite_cannot_write_is_one_clear_error(cli, tmp_path):
    from specdb.errors import SpecdbError
    from specdb.export import datasette

    class FullDisk(sqlite3.Connection):
        def backup(self, *args, **kwargs):
            raise sqlite3.OperationalError("database or disk is full")

    assert cli("build").exit_code == 0
    connection = sqlite3.connect(cli.db, factory=FullDisk)
    try:
        with pytest.raises(SpecdbError) as failed:
            datasette.write(connection, {}, tmp_path)
    finally:
        connection.close()
    assert str(failed.value) == "the datasette export: cannot write the database copy (database or disk is full)"
    assert failed.value.exit_code == 3 and failed.value.__suppress_context__


# --- llm-analysis --------------------------------------------------------------------------------------------------


def test_the_llm_analysis_config_of_the_test_gpu_is_in_its_units_with_scale_up_halved(cli, tmp_path):
    folder, manifest = exported(cli, "llm-analysis", tmp_path / "llm")
    config = json.loads((folder / "test-gpu.json").read_text())
    assert list(config) == [
        "name", "mem_per_GPU_in_GB", "hbm_bandwidth_in_GB_per_sec", "intra_node_bandwidth_in_GB_per_sec",
        "intra_node_min_message_latency", "peak_fp16_TFLOPS",
    ]
    assert config["name"] == "test-gpu"
    assert config["mem_per_GPU_in_GB"] == 80  # 80 GiB = 80 * 2**30 B, over llm-analysis's 1024**3
    assert config["hbm_bandwidth_in_GB_per_sec"] == pytest.approx(3350, rel=1e-12)  # 3.35 TB/s = 3350e9 B/s over 1e9
    assert config["intra_node_bandwidth_in_GB_per_sec"] == 450  # 900 GB/s both ways, halved to one way
    assert config["intra_node_min_message_latency"] == 8e-06
    assert config["peak_fp16_TFLOPS"] == 989  # no dense fp16 figure: dense bf16's 989e12 FLOP/s over 1e12
    gpu = manifest["accelerators"]["test-gpu"]
    assert gpu["file"] == "test-gpu.json"
    assert gpu["filled_from"] == {
        "mem_per_GPU_in_GB": "test-gpu.memory_capacity (80 GiB)",
        "hbm_bandwidth_in_GB_per_sec": "test-gpu.memory_bandwidth (3.35 TB/s)",
        "peak_fp16_TFLOPS": "test-gpu.dense_bf16_flops (989 TFLOPS)",
        "intra_node_bandwidth_in_GB_per_sec": "test-gpu.scale_up_bandwidth (900 GB/s, bidirectional, halved)",
    }
    left = gpu["left_to_llm_analysis"]
    assert list(left) == ["peak_i8_TFLOPS", "peak_i4_TFLOPS", "inter_node_bandwidth_in_GB_per_sec", "intra_node_min_message_latency"]
    assert left["peak_i8_TFLOPS"] == "no dense INT8 figure; llm-analysis takes 2 x peak_fp16_TFLOPS"
    assert left["intra_node_min_message_latency"] == (
        "no minimum message latency in the data (a link's latency figure is one hop or one collective step); set to "
        "8e-06 s, the value of every GPU file llm-analysis ships (the field has no default)"
    )
    assert manifest["open_with"] == "llm_analysis.config.GPUConfig(**json.load(open(FILE)))"
    assert manifest["conventions"] == (
        "mem_per_GPU_in_GB in GiB (llm-analysis multiplies by 1024**3); bandwidths in decimal GB/s; "
        "intra_node_bandwidth_in_GB_per_sec one direction per GPU; TFLOPS dense"
    )
    assert manifest["skipped"] == {}


def test_llm_analysis_prefers_fp16_takes_int8_and_keeps_a_one_way_scale_up_figure(richer, tmp_path):
    folder, manifest = exported(richer, "llm-analysis", tmp_path / "llm")
    config = json.loads((folder / "test-tpu.json").read_text())
    assert config == {
        "name": "test-tpu",
        "mem_per_GPU_in_GB": 95,  # 95 GiB
        "hbm_bandwidth_in_GB_per_sec": 2765,  # 2765 GB/s
        "intra_node_bandwidth_in_GB_per_sec": 600,  # 600 GB/s already one way: not halved
        "intra_node_min_message_latency": 8e-06,
        "peak_fp16_TFLOPS": 459,  # the fp16 figure (459), not bf16's 458
        "peak_i8_TFLOPS": 918,  # 918e12 over 1e12
    }
    tpu = manifest["accelerators"]["test-tpu"]
    assert tpu["filled_from"]["peak_fp16_TFLOPS"] == "test-tpu.dense_fp16_flops (459 TFLOPS)"
    assert tpu["filled_from"]["peak_i8_TFLOPS"] == "test-tpu.dense_int8_flops (918 TFLOPS)"
    assert tpu["filled_from"]["intra_node_bandwidth_in_GB_per_sec"] == "test-tpu.scale_up_bandwidth (600 GB/s, per-direction)"
    assert list(tpu["left_to_llm_analysis"]) == ["peak_i4_TFLOPS", "inter_node_bandwidth_in_GB_per_sec", "intra_node_min_message_latency"]
    # test-npu has only a memory bandwidth: each required figure it lacks is named, in the fields' order.
    assert manifest["skipped"] == {"test-npu": ["memory_capacity", "dense_fp16_flops or dense_bf16_flops", "scale_up_bandwidth"]}
    assert not (folder / "test-npu.json").exists()
    assert sorted(manifest["accelerators"]) == ["test-gpu", "test-tpu"]


# --- AIConfigurator ------------------------------------------------------------------------------------------------


def test_the_aiconfigurator_system_of_an_8_gpu_box_is_in_si_units_per_gpu_one_way(cli, tmp_path):
    folder, manifest = exported(cli, "aiconfigurator", tmp_path / "aic")
    text = (folder / "test-system.yaml").read_text()
    short = content_hash(cli)[:12]
    lines = text.splitlines()
    assert lines[:2] == [f"# Test System 8-GPU: exported by specdb {specdb.__version__} from data {short}", f"# {attribution(short)}"]
    spec = yaml.safe_load(text)
    assert spec == {
        "gpu": {
            "mem_bw": 3_350_000_000_000,  # 3.35 TB/s in B/s
            "mem_capacity": 85_899_345_920,  # 80 GiB = 80 * 2**30 B
            "bfloat16_tc_flops": 989_000_000_000_000,  # 989 TFLOPS dense bf16
        },
        "node": {
            "num_gpus_per_node": 8,  # the scale-up domain of 8
            "inter_node_bw": 50_000_000_000,  # 400 Gb/s one way = 50 GB/s
            "intra_node_bw": 450_000_000_000,  # 900 GB/s both ways, halved
            "pcie_bw": 63_000_000_000,  # PCIe 5.0 x16, 63 GB/s one way
        },
    }
    # Whole numbers are written as integers, in AIConfigurator's key order, one key a line as its own files have them.
    assert "\ngpu:\n  mem_bw: 3350000000000\n" in text
    assert all(type(value) is int for section in spec.values() for value in section.values())
    assert list(spec) == ["gpu", "node"] and list(spec["node"]) == ["num_gpus_per_node", "inter_node_bw", "intra_node_bw", "pcie_bw"]
    filled = {
        "gpu.mem_bw": "test-gpu.memory_bandwidth (3.35 TB/s)",
        "gpu.mem_capacity": "test-gpu.memory_capacity (80 GiB)",
        "gpu.bfloat16_tc_flops": "test-gpu.dense_bf16_flops (989 TFLOPS)",
        "node.num_gpus_per_node": "test-system.scale_up_domain (8)",
        "node.inter_node_bw": "test-system.scale_out_bandwidth (per-direction)",
        "node.intra_node_bw": "test-gpu.scale_up_bandwidth (bidirectional, halved)",
        "node.pcie_bw": "test-pcie.x16_per_direction_bandwidth (63 GB/s)",
    }
    assert lines[2:9] == [f"# {key}: {origin}" for key, origin in filled.items()]
    assert manifest["systems"]["test-system"] == {
        "file": "test-system.yaml",
        "filled_from": filled,
        "not_filled": {
            **NOT_SPECDB_FIGURES,
            "gpu.int8_tc_flops": "no dense_int8_flops figure for test-gpu",
            "gpu.fp8_tc_flops": "no dense_fp8_flops figure for test-gpu",
            "gpu.fp4_tc_flops": "no dense_fp4_flops figure for test-gpu",
            "gpu.power": "no power figure for test-gpu",
        },
    }
    assert manifest["skipped"] == {}
    assert manifest["open_with"] == "aiconfigurator_core.sdk.perf_database.load_system_spec(NAME, systems_paths=[FOLDER])"
    assert manifest["conventions"] == "SI units; bandwidths per GPU, one direction; node sizes from the platform's records"


def test_a_rack_scale_platform_splits_node_rack_and_fabric_and_uses_its_own_host_link(richer, tmp_path):
    folder, manifest = exported(richer, "aiconfigurator", tmp_path / "aic")
    node = yaml.safe_load((folder / "test-rack.yaml").read_text())["node"]
    assert list(node.items()) == [
        ("num_gpus_per_node", 4),  # 72 accelerators / 18 compute trays
        ("num_gpus_per_rack", 72),  # the scale-up domain
        ("inter_rack_bw", 100_000_000_000),  # 800 Gb/s one way = 100 GB/s
        ("inter_node_bw", 450_000_000_000),  # trays talk over the scale-up link: 900 GB/s both ways, halved
        ("intra_node_bw", 450_000_000_000),
        ("pcie_bw", 121_000_000_000),  # the rack's own PCIe 6 link, not its accelerator's PCIe 5
    ]
    assert all(type(value) is int for value in node.values())
    rack = manifest["systems"]["test-rack"]
    assert {key: origin for key, origin in rack["filled_from"].items() if key.startswith("node.")} == {
        "node.num_gpus_per_node": "test-rack.accelerators / test-rack.compute_trays (72 / 18)",
        "node.num_gpus_per_rack": "test-rack.scale_up_domain (72)",
        "node.inter_node_bw": "test-gpu.scale_up_bandwidth (bidirectional, halved)",
        "node.inter_rack_bw": "test-rack.scale_out_bandwidth (per-direction)",
        "node.intra_node_bw": "test-gpu.scale_up_bandwidth (bidirectional, halved)",
        "node.pcie_bw": "test-pcie6.x16_per_direction_bandwidth (121 GB/s)",
    }
    assert not any(key.startswith("node.") and key != "node.p2p_latency" for key in rack["not_filled"])


def test_a_box_without_fabric_or_host_link_names_what_it_leaves_out(richer, tmp_path):
    folder, manifest = exported(richer, "aiconfigurator", tmp_path / "aic")
    spec = yaml.safe_load((folder / "test-npu-box.yaml").read_text())
    # test-npu: 1.2 TB/s memory and a 350.5 W power figure, which stays a fraction.
    assert spec == {
        "gpu": {"mem_bw": 1_200_000_000_000, "power": 350.5},
        "node": {"num_gpus_per_node": 2, "intra_node_bw": 200_000_000_000},  # the box's own 200 GB/s, already one way
    }
    box = manifest["systems"]["test-npu-box"]
    assert box["filled_from"]["node.intra_node_bw"] == "test-npu-box.scale_up_bandwidth (per-direction)"
    assert box["filled_from"]["gpu.power"] == "test-npu.power (350.5 W)"
    assert {key: why for key, why in box["not_filled"].items() if key.startswith("node.") and key != "node.p2p_latency"} == {
        "node.inter_node_bw": "no scale-out bandwidth for the platform",
        "node.pcie_bw": "no host link with a x16_per_direction_bandwidth figure",
    }
    assert box["not_filled"]["gpu.mem_capacity"] == "no memory_capacity figure for test-npu"
    # test-half has no scale-up domain and test-lonely no accelerator (so no scale-up bandwidth): skipped, with the reason.
    reason = "needs its accelerator's figures, a scale-up bandwidth and a scale_up_domain"
    assert manifest["skipped"] == {"test-half": reason, "test-lonely": reason}
    assert not (folder / "test-half.yaml").exists() and not (folder / "test-lonely.yaml").exists()
    assert sorted(manifest["systems"]) == ["test-npu-box", "test-quad", "test-rack", "test-system"]


def test_a_platform_without_its_own_host_link_takes_its_accelerators(richer, tmp_path):
    folder, manifest = exported(richer, "aiconfigurator", tmp_path / "aic")
    node = yaml.safe_load((folder / "test-quad.yaml").read_text())["node"]
    # test-quad names no host link; its accelerator test-gpu uses test-pcie, 63 GB/s one way.
    assert node == {"num_gpus_per_node": 4, "intra_node_bw": 450_000_000_000, "pcie_bw": 63_000_000_000}
    assert manifest["systems"]["test-quad"]["filled_from"]["node.pcie_bw"] == "test-pcie.x16_per_direction_bandwidth (63 GB/s)"
