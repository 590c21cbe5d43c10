"""The llm-analysis and AIConfigurator exports, loaded by the real packages and compared with their own bundled files."""

import json

import pytest

import specdb
from specdb.cli import app
from specdb.resources import bundled_specs


@pytest.fixture(scope="module")
def bundled(tmp_path_factory, bundled_db):
    """Exports of the bundled data, made once for this module."""
    from typer.testing import CliRunner

    root = tmp_path_factory.mktemp("exports")
    folders = {}
    for fmt in ("llm-analysis", "aiconfigurator"):
        result = CliRunner().invoke(app, ["export", fmt, str(root / fmt), "--db", str(bundled_db)])
        assert result.exit_code == 0, result.output
        folders[fmt] = root / fmt
    return folders


def test_every_llm_analysis_file_is_a_gpu_config_that_runs_a_training_estimate(bundled, bundled_db):
    from llm_analysis.analysis import LLMAnalysis
    from llm_analysis.config import GPUConfig, ParallelismConfig, get_model_config_by_name

    manifest = json.loads((bundled["llm-analysis"] / "specdb-export.json").read_text())
    files = sorted(bundled["llm-analysis"].glob("*.json"))
    files.remove(bundled["llm-analysis"] / "specdb-export.json")
    accelerators = {path.stem for path in (bundled_specs() / "accelerator").glob("*.yaml")}
    # Every accelerator is a file, or is skipped because the data lacks a figure llm-analysis requires.
    assert {path.stem for path in files} == set(manifest["accelerators"]) == accelerators - set(manifest["skipped"])
    connection = specdb.connect(db=bundled_db)
    for record, missing in manifest["skipped"].items():
        # Each missing entry names a figure, or figures that could each stand in ("a or b"): the record has none of them.
        names = [name for entry in missing for name in entry.split(" or ")]
        assert names and not any(specdb.figures(connection, record=record, name=name) for name in names), (record, missing)
    model = get_model_config_by_name("EleutherAI_gpt-neo-1.3B")  # bundled with llm-analysis: 24 layers, hidden 2048
    for path in files:
        gpu = GPUConfig(**json.loads(path.read_text()))
        analysis = LLMAnalysis(model, gpu, parallelism_config=ParallelismConfig(tp_size=8), flops_efficiency=0.5, hbm_memory_efficiency=0.9)
        summary = analysis.training(batch_size_per_gpu=4, seq_len=2048, total_num_tokens=1e9)
        assert summary["latency_per_iter"] > 0, path.name
        if gpu.name == "nvidia-h100-sxm":
            # Two tensor-parallel all-reduces a layer, each of 2 * 4 * 2048 * 2048 * 7/8 bf16 elements (2 bytes),
            # over NVLink 4's 450 GB/s a direction: 24 * 2 * 58720256 B / 450e9 B/s = 6.2634940 ms.
            assert summary["latency_fwd_tp_comm"] == pytest.approx(24 * 2 * 58720256 / 450e9, rel=1e-9)


def test_the_h100_gpu_config_agrees_with_the_one_llm_analysis_ships(bundled):
    from llm_analysis.config import get_gpu_config_by_name

    ours = json.loads((bundled["llm-analysis"] / "nvidia-h100-sxm.json").read_text())
    theirs = get_gpu_config_by_name("h100-sxm-80gb")
    # 80 GiB (llm-analysis's "GB" is GiB); 3.35 TB/s HBM3; 900 GB/s NVLink 4 both ways = 450 one way; 989 dense BF16 TFLOPS.
    assert ours["mem_per_GPU_in_GB"] == theirs.mem_per_GPU_in_GB == 80
    assert ours["hbm_bandwidth_in_GB_per_sec"] == theirs.hbm_bandwidth_in_GB_per_sec == 3350
    assert ours["intra_node_bandwidth_in_GB_per_sec"] == theirs.intra_node_bandwidth_in_GB_per_sec == 450
    assert ours["peak_fp16_TFLOPS"] == theirs.peak_fp16_TFLOPS == 989
    # Dense INT8: specdb's 1,978 TOPS against llm-analysis's 1,979 (half the datasheet's 3,958 sparse, rounded either way).
    assert ours["peak_i8_TFLOPS"] == pytest.approx(theirs.peak_i8_TFLOPS, abs=1)
    # A100: 2039 GB/s; NVLink 3's 600 GB/s both ways is 300 one way, as llm-analysis's own a100-sxm-80gb file has.
    a100 = json.loads((bundled["llm-analysis"] / "nvidia-a100-sxm-80gb.json").read_text())
    theirs = get_gpu_config_by_name("a100-sxm-80gb")
    assert (a100["hbm_bandwidth_in_GB_per_sec"], a100["intra_node_bandwidth_in_GB_per_sec"], a100["peak_fp16_TFLOPS"]) == (
        theirs.hbm_bandwidth_in_GB_per_sec, theirs.intra_node_bandwidth_in_GB_per_sec, theirs.peak_fp16_TFLOPS) == (2039, 300, 312)


def test_the_llm_analysis_manifest_says_where_each_field_came_from(bundled):
    manifest = json.loads((bundled["llm-analysis"] / "specdb-export.json").read_text())
    h100 = manifest["accelerators"]["nvidia-h100-sxm"]
    assert h100["filled_from"]["intra_node_bandwidth_in_GB_per_sec"].startswith("nvidia-h100-sxm.scale_up_bandwidth (900 GB/s, bidirectional")
    assert h100["filled_from"]["peak_i8_TFLOPS"].startswith("nvidia-h100-sxm.dense_int8_flops")
    assert set(h100["left_to_llm_analysis"]) == {"peak_i4_TFLOPS", "inter_node_bandwidth_in_GB_per_sec", "intra_node_min_message_latency"}
    assert "peak_i4_TFLOPS" not in json.loads((bundled["llm-analysis"] / "nvidia-h100-sxm.json").read_text())


# specdb platform -> the AIConfigurator system file describing the same machine
SAME_MACHINE = {"nvidia-hgx-h200": "h200_sxm", "nvidia-hgx-h100": "h100_sxm", "nvidia-hgx-a100": "a100_sxm"}
TOLERANCE = 0.02  # PCIe 5.0 x16: specdb 63.0 GB/s (32 GT/s x 16 x 128/130 / 8) against AIConfigurator's rounded 64 GB/s


def test_every_aiconfigurator_file_loads_with_its_loader_and_uses_its_keys(bundled):
    from importlib import resources

    import yaml
    from aiconfigurator_core.sdk.perf_database import load_system_spec
    from aiconfigurator_core.sdk.system_spec import SystemSpec

    shipped = [yaml.safe_load(path.read_text()) for path in (resources.files("aiconfigurator_core") / "systems").iterdir()
               if path.name.endswith(".yaml") and "gpu" in yaml.safe_load(path.read_text())]
    known = {section: set().union(*(spec[section] for spec in shipped)) for section in ("gpu", "node")}
    manifest = json.loads((bundled["aiconfigurator"] / "specdb-export.json").read_text())
    platforms = {path.stem for path in (bundled_specs() / "system").glob("*.yaml")}
    assert set(manifest["systems"]) | set(manifest["skipped"]) == platforms and manifest["systems"]
    for name in manifest["systems"]:
        spec = SystemSpec(load_system_spec(name, systems_paths=[str(bundled["aiconfigurator"])]))
        assert set(spec) == {"gpu", "node"}, name
        assert set(spec["gpu"]) <= known["gpu"] and set(spec["node"]) <= known["node"], name
        assert spec.get_p2p_bandwidth(2) == spec["node"]["intra_node_bw"]


@pytest.mark.parametrize("ours, theirs", SAME_MACHINE.items())
def test_a_platform_both_describe_agrees_with_aiconfigurators_own_file(ours, theirs, bundled):
    from aiconfigurator_core.sdk.perf_database import load_system_spec
    from aiconfigurator_core.sdk.system_spec import SystemSpec

    mine = SystemSpec(load_system_spec(ours, systems_paths=[str(bundled["aiconfigurator"])]))
    shipped = SystemSpec(load_system_spec(theirs))
    for section in ("gpu", "node"):
        for key, value in mine[section].items():
            assert value == pytest.approx(shipped[section][key], rel=TOLERANCE), (section, key)
    # H200: 141 GiB = 151397597184 bytes, the number AIConfigurator's own file has.
    if ours == "nvidia-hgx-h200":
        assert mine["gpu"]["mem_capacity"] == shipped["gpu"]["mem_capacity"] == 141 * 2**30
    # Eight GPUs talk over NVLink one way (H200, H100: 450 GB/s; A100: 300), sixteen over one 400/200 Gb/s NIC each.
    for gpus in (2, 8, 16):
        assert mine.get_p2p_bandwidth(gpus) == shipped.get_p2p_bandwidth(gpus)


def test_a_rack_scale_platform_has_node_rack_and_fabric_tiers(bundled):
    from aiconfigurator_core.sdk.perf_database import load_system_spec
    from aiconfigurator_core.sdk.system_spec import SystemSpec

    nvl72 = SystemSpec(load_system_spec("nvidia-gb200-nvl72", systems_paths=[str(bundled["aiconfigurator"])]))
    # 72 GPUs in 18 compute trays = 4 a node; NVLink 5's 1.8 TB/s both ways = 900 GB/s one way inside the rack;
    # one 400 Gb/s NDR port per GPU = 50 GB/s between racks.
    assert (nvl72["node"]["num_gpus_per_node"], nvl72["node"]["num_gpus_per_rack"]) == (4, 72)
    assert [nvl72.get_p2p_bandwidth(gpus) for gpus in (4, 72, 144)] == [900e9, 900e9, 50e9]
