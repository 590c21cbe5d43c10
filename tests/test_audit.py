"""`specdb audit` on real tables from other projects (tests/data/audit, with their commits in MANIFEST.yaml): each
format read, each verdict, the exit codes, and a clear error for a file that cannot be read."""

import json
import os
import shutil
import subprocess

import pytest
import yaml
from conftest import REPO
from typer.testing import CliRunner

import specdb
from specdb.audit import FORMATS
from specdb.audit.formats import READERS, read, read_text
from specdb.audit.judge import PASSING, Data, judge
from specdb.cli import app

FIXTURES = REPO / "tests" / "data" / "audit"
_LISTED = yaml.safe_load((FIXTURES / "MANIFEST.yaml").read_text())
MANIFEST = {name: entry for name, entry in _LISTED["files"].items() if entry["set"] not in (_LISTED.get("awaiting_measurement") or [])}


@pytest.fixture(scope="module")
def data(bundled_db):
    return Data(specdb.connect(REPO / "specs", bundled_db))


@pytest.fixture
def audit(bundled_db):
    def run(*args):
        return CliRunner().invoke(app, ["audit", *args, "--specs", str(REPO / "specs"), "--db", str(bundled_db)])
    return run


def fields_of(name):
    path = str(FIXTURES / name)
    return read(path, read_text(path))


def findings_of(name, data):
    _, fields = fields_of(name)
    return {(finding.line, finding.key): finding for finding in judge(fields, data, name)}


def test_every_format_has_a_reader_and_a_real_file_at_a_pinned_commit():
    assert [reader.NAME for reader in READERS] == list(FORMATS)
    detected = {fields_of(name)[0] for name in MANIFEST}
    assert detected == set(FORMATS)
    assert all(len(entry["commit"]) == 40 for entry in MANIFEST.values())


# What each reader takes from its file, read off the file by hand.
@pytest.mark.parametrize("name, line, key, written, value, meaning", [
    ("aiconfigurator-h200_sxm.yaml", 6, "gpu.mem_bw", "4800000000000", 4.8e12, "memory_bandwidth"),
    ("aiconfigurator-h200_sxm.yaml", 10, "gpu.float16_tc_flops", "989000000000000", 989e12, "dense:16bit"),
    ("aiconfigurator-h200_sxm.yaml", 18, "node.inter_node_bw", "50000000000", 50e9, "scale_out_per_direction"),
    ("aiconfigurator-gb200.yaml", 23, "node.inter_node_bw", "900000000000", 900e9, "scale_up_per_direction"),
    ("aiconfigurator-gb200.yaml", 22, "node.inter_rack_bw", "100000000000", 100e9, "scale_out_per_direction"),
    ("llm-analysis-mi250x-128gb.json", 3, "mem_per_GPU_in_GB", "128", 128 * 2**30, "memory_capacity"),
    ("llm-analysis-mi250x-128gb.json", 5, "intra_node_bandwidth_in_GB_per_sec", "400", 400e9, "scale_up_per_direction"),
    ("inferencex-gpu-specs.ts", 57, "H100 SXM.memoryBandwidth", "3.35 TB/s", 3.35e12, "memory_bandwidth"),
    ("inferencex-gpu-specs.ts", 62, "H100 SXM.scaleUpBandwidth", "450 GB/s", 450e9, "scale_up_per_direction"),
    ("huggingface-hardware-7e811fa.ts", 412, "SKUS.GPU.AMD.MI300.tflops", "383.0", 383e12, "dense:16bit"),
    ("huggingface-hardware-7e811fa.ts", 123, "SKUS.GPU.NVIDIA.A100.memory[1]", "40", 40e9, "memory_capacity"),
    ("lightning-throughput-1f2d7a1.py", 320, "_CUDA_FLOPS['h100 sxm'][torch.bfloat16]", "989.4e12", 989.4e12, "dense:bf16"),
    ("lightning-throughput-1f2d7a1.py", 523, "_TPU_FLOPS['v4']", "275e12", 275e12, "dense:16bit"),
    ("torchtitan-utils-62daeb3.py", 98, "get_peak_flops('H100 NVL')", "835e12", 835e12, "dense:16bit"),
    ("torchtitan-utils-62daeb3.py", 124, "get_peak_flops('MI325X')", "1300e12", 1300e12, "dense:16bit"),
    ("ml-engineering-accelerator-README.md", 265, "NVIDIA H100 SXM / bf16", "989", 989e12, "dense:bf16"),
    ("ml-engineering-accelerator-README.md", 484, "NVIDIA H100 SXM / Peak<br>Bandwidth<br>(TBps)", "3.35", 3.35e12, "memory_bandwidth"),
    ("epoch-ml_hardware.csv", 17, "NVIDIA B300 (Blackwell Ultra) / FP4 performance (FLOP/s)", "1.4e+16", 1.4e16, "dense:fp4"),
])
def test_a_reader_takes_each_field_with_its_place_and_meaning(name, line, key, written, value, meaning):
    _, fields = fields_of(name)
    [found] = [field for field in fields if field.line == line and field.key == key]
    assert (found.written, found.meaning) == (written, meaning)
    assert found.value == pytest.approx(value)


def test_a_format_that_does_not_say_how_a_link_counts_leaves_it_out():
    # llm-analysis's inter-node field is per 8-GPU node; InferenceX's scale-out is per NIC.
    assert not [field for field in fields_of("llm-analysis-a100-sxm-40gb.json")[1] if "inter_node" in field.key]
    assert not [field for field in fields_of("inferencex-gpu-specs.ts")[1] if "scaleOut" in field.key]


# Verdicts the annotations (expected/*.yaml) give, each checked against the data's figure by hand.
@pytest.mark.parametrize("name, line, key, verdict, holds, suggestion", [
    ("inferencex-gpu-specs.ts", 97, "B200 SXM.memoryBandwidth", "stale", "7.7 TB/s", "7.7 TB/s"),
    ("inferencex-gpu-specs.ts", 135, "GB200 NVL72.memory", "stale", "186 GiB", "186 GB"),
    ("inferencex-gpu-specs.ts", 222, "MI355X.scaleUpBandwidth", "mismatch", "1075.2 GB/s bidirectional (537.6 GB/s per direction)", "537.6 GB/s"),
    ("llm-analysis-mi250x-128gb.json", 8, "peak_i8_TFLOPS", "sparse-as-dense", "383 TFLOPS", "383"),
    ("ml-engineering-accelerator-README.md", 261, "Intel Gaudi3 / fp8", "mismatch", "1835 TFLOPS", "1835"),
])
def test_a_field_the_data_disagrees_with_gets_its_verdict_the_figure_and_a_replacement_in_the_files_unit(
        data, name, line, key, verdict, holds, suggestion):
    finding = findings_of(name, data)[(line, key)]
    assert (finding.verdict, finding.holds, finding.suggestion) == (verdict, holds, suggestion)
    assert finding.quote and finding.source


def test_a_link_counted_both_ways_where_the_format_means_one_is_mixed_basis(data, tmp_path):
    path = tmp_path / "h100.json"
    path.write_text('{"name": "h100-sxm-80gb", "hbm_bandwidth_in_GB_per_sec": 3350, "intra_node_bandwidth_in_GB_per_sec": 900}')
    _, fields = read(str(path), path.read_text())
    verdicts = {finding.key: finding.verdict for finding in judge(fields, data, str(path))}
    assert verdicts == {"hbm_bandwidth_in_GB_per_sec": "ok", "intra_node_bandwidth_in_GB_per_sec": "mixed-basis"}


def test_a_peak_with_sparsity_where_the_format_means_dense_is_sparse_as_dense(data, tmp_path):
    path = tmp_path / "flops.py"
    path.write_text('PEAKS = {"h100 sxm": {"bf16": 1979e12}, "l4": {"bf16": 121e12}}\n')
    _, fields = read(str(path), path.read_text())
    assert [(finding.verdict, finding.suggestion) for finding in judge(fields, data, str(path))] == [
        ("sparse-as-dense", "989e12"), ("ok", None)]


def test_clean_files_give_no_alarms(data):
    clean = [name for name in MANIFEST if not yaml.safe_load((FIXTURES / "expected" / f"{name}.yaml").read_text())["alarms"]]
    assert len(clean) >= 12
    alarms = {name: [(f.line, f.key, f.verdict) for f in findings_of(name, data).values() if f.verdict not in PASSING] for name in clean}
    assert alarms == {name: [] for name in clean}


def test_exit_codes_clean_findings_and_strict(audit):
    assert audit(str(FIXTURES / "aiconfigurator-h200_sxm.yaml")).exit_code == 0
    found = audit(str(FIXTURES / "inferencex-gpu-specs.ts"))
    assert found.exit_code == 1
    assert "inferencex-gpu-specs.ts (inferencex): 50 fields" in found.stdout and "97:23" in found.stdout
    # H100 PCIe's 16-bit and INT8 rates are not in the data: unmatched passes, and fails with --strict.
    assert audit(str(FIXTURES / "llm-analysis-h100-pcie-80gb.json")).exit_code == 0
    assert audit(str(FIXTURES / "llm-analysis-h100-pcie-80gb.json"), "--strict").exit_code == 1


def test_json_gives_every_finding_with_quote_and_source(audit):
    result = audit(str(FIXTURES / "llm-analysis-mi250x-128gb.json"), "--format", "json")
    [report] = json.loads(result.stdout)
    [alarm] = [finding for finding in report["findings"] if finding["verdict"] != "ok"]
    assert alarm["line"] == 8 and alarm["written"] == "766" and alarm["record"] == "amd-mi250x"
    assert alarm["source"].startswith("https://") and "383.0 TOPS" in alarm["quote"]


def test_markdown_is_a_review_comment(audit):
    result = audit(str(FIXTURES / "inferencex-gpu-specs.ts"), "--format", "markdown")
    assert result.stdout.startswith("**specdb audit** ") and "| 97:23 | B200 SXM.memoryBandwidth | 8 TB/s | stale |" in result.stdout


def test_as_forces_a_format(audit, tmp_path):
    table = tmp_path / "notes.txt"
    table.write_text("| Accelerator | bf16 TFLOPS |\n| --- | ---: |\n| NVIDIA H100 SXM | 1979 |\n")
    result = audit(str(table), "--as", "markdown")
    assert result.exit_code == 1 and "sparse-as-dense" in result.stdout


def test_the_audited_file_is_never_written(audit):
    path = FIXTURES / "inferencex-gpu-specs.ts"
    before = (path.read_bytes(), os.stat(path).st_mtime_ns)
    audit(str(path), "--format", "json")
    assert (path.read_bytes(), os.stat(path).st_mtime_ns) == before


@pytest.mark.parametrize("file_name, text, message", [
    ("bad.json", '{\n  "hbm_bandwidth_in_GB_per_sec": 3350,\n  "mem_per_GPU_in_GB": ,\n}', "bad.json:3:24: JSON syntax: Expecting value"),
    ("bad.yaml", "gpu:\n  mem_bw: [1, 2\nnode:\n  x: 1\n", "bad.yaml:3:5:"),
    ("hardware.ts", "export const SKUS = {\n\tGPU: {\n\t\tNVIDIA: {\n\t\t\tH100: { tflops: 1, \n", "hardware.ts:4:10: '{' never closed"),
    ("gpu-specs.ts", "export const GPU_SPECS = [\n  { name: 'H100 SXM', bf16: 989 }]\n}\n", "gpu-specs.ts:3:1: '}' closes nothing open"),
    ("peaks.py", "PEAKS = {\n    'a100': 312e12,\n", "peaks.py:1:9: Python syntax: '{' was never closed"),
    ("latin1.md", b"| a | b |\n|---|---|\n| \xe9 | 1 |\n", "latin1.md:3:3: not UTF-8"),
    ("notes.txt", "nothing here", "notes.txt: cannot tell the format; name it with --as"),
])
def test_bad_input_is_a_clear_message_with_file_line_and_column_and_exit_2(audit, tmp_path, file_name, text, message):
    path = tmp_path / file_name
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    result = audit(str(path))
    assert result.exit_code == 2
    assert f"{tmp_path}/{message}" in result.output
    assert "Traceback" not in result.output


def test_a_missing_file_or_a_folder_is_a_usage_error(audit, tmp_path):
    assert audit(str(tmp_path / "absent.yaml")).exit_code == 2
    assert "is a folder" in audit(str(tmp_path)).output


def test_python_tables_in_other_shapes_are_read(data, tmp_path):
    path = tmp_path / "peaks.py"
    path.write_text(
        "TERA = 10**12\n"
        "def peak(name):\n"
        "    if name == 'NVIDIA H100 80GB HBM3':\n"
        "        return 1979 * TERA\n"
        "    elif name.startswith('NVIDIA A100') and '40GB' in name:\n"
        "        return 312 * TERA\n"
    )
    _, fields = read(str(path), path.read_text())
    found = [(f.line, f.part, f.verdict, f.record) for f in judge(fields, data, str(path))]
    assert found == [(4, "NVIDIA H100 80GB HBM3", "sparse-as-dense", "nvidia-h100-sxm"), (6, "NVIDIA A100 40GB", "ok", "nvidia-a100-sxm-40gb")]


def test_a_markdown_link_value_may_say_its_own_direction(data, tmp_path):
    path = tmp_path / "links.md"
    path.write_text("| GPU | NVLink (GB/s) |\n|---|---|\n| H100 SXM | 900 unidirectional |\n| H100 SXM | 450 (unidirectional) |\n"
                    "| H100 SXM | 900 |\n")
    _, fields = read(str(path), path.read_text())
    # The third row does not say how it counts, so it is not judged.
    assert [(f.line, f.verdict, f.suggestion) for f in judge(fields, data, str(path))] == [(3, "mixed-basis", "450"), (4, "ok", None)]


def test_brand_words_and_run_together_names_find_the_part(data):
    assert data.parts("Intel Habana Gaudi3")[0] == {"intel-gaudi-3"}
    assert data.parts("AMD Radeon Instinct MI250X")[0] == {"amd-mi250x"}
    assert data.parts("mi250x-128gb")[0] == {"amd-mi250x"}
    assert data.parts("a100_sxm")[0] == {"nvidia-a100-sxm-40gb", "nvidia-a100-sxm-80gb"}
    # AIConfigurator's name before its PR 362: a GB200 comes only as a module, and no name of it says SXM.
    assert data.parts("gb200_sxm")[0] == {"nvidia-gb200"}
    assert data.parts("h800_sxm")[0] == set()
    # A letter after a model number may be another product: the L40S is only a guess for 'l40'; H20 is not the H200.
    assert data.parts("l40")[0::2] == ({"nvidia-l40s"}, True) and data.parts("H20")[0] == {"nvidia-h20"}


def test_a_shorthand_is_judged_only_on_errors_the_data_can_name(data, tmp_path):
    # MI300 can only be the MI300X (1307.4 TFLOPS); 383 is the MI250X's figure. 362.1, the MI250's own figure, is not
    # evidence against the MI250X it may be short for. The L40's 181.05 is half the L40S's 362.05: another product.
    path = tmp_path / "peaks.py"
    path.write_text('PEAK_TFLOPS = {"MI300": 383, "mi300 ": 1307.4, "MI250": 362.1, "L40": 181.05}\n')
    _, fields = read(str(path), path.read_text())
    found = [(f.key, f.verdict, f.record) for f in judge(fields, data, str(path))]
    assert found == [("PEAK_TFLOPS['MI300']", "wrong-variant", "amd-mi300x"), ("PEAK_TFLOPS['mi300 ']", "ok", "amd-mi300x"),
                     ("PEAK_TFLOPS['MI250']", "unmatched", "amd-mi250x"), ("PEAK_TFLOPS['L40']", "unmatched", "nvidia-l40s")]


def test_a_row_whose_capacity_is_another_variants_is_unmatched(data):
    # Epoch's "NVIDIA A100 PCIe" row is the 40 GB card; the data holds only the 80 GB PCIe record.
    row = [f for (line, _), f in findings_of("epoch-ml_hardware.csv", data).items() if line == 174]
    assert row and {f.verdict for f in row} == {"unmatched"}


def test_a_power_of_another_kind_is_unmatched_and_capacities_are_exact(data):
    epoch = findings_of("epoch-ml_hardware.csv", data)
    # MI250X's 500 W TDP (air-cooled) against the data's 560 W peak board power.
    assert epoch[(136, "AMD Radeon Instinct MI250X / TDP (W)")].verdict == "unmatched"
    # 3.28 TB/s is AMD's exact 3.2768, a recorded alternative.
    assert epoch[(136, "AMD Radeon Instinct MI250X / Memory bandwidth (byte/s)")].verdict == "ok"
    # 268 GB is not the B300's 270 GiB; 189471 MiB is what nvidia-smi reports for a GB200, to the MiB.
    assert findings_of("inferencex-gpu-specs.ts", data)[(115, "B300 SXM.memory")].verdict == "mismatch"
    assert findings_of("aiconfigurator-gb200.yaml", data)[(11, "gpu.mem_capacity")].verdict == "ok"


def test_a_rate_the_file_says_is_one_dies_share_agrees(data, tmp_path):
    # torchtitan's MI250X "(per GCD)" is half the package's 383 TFLOPS; without such a comment, half is a mismatch.
    assert findings_of("torchtitan-utils-62daeb3.py", data)[(127, "get_peak_flops('MI250X')")].verdict == "ok"
    path = tmp_path / "peaks.py"
    path.write_text('PEAKS = {\n    # halved: each chip appears as 2 devices\n    "MI250X": {"bf16": 191.5e12},\n}\n'
                    'OTHER = {"MI250X": {"bf16": 191.5e12}}\n')
    _, fields = read(str(path), path.read_text())
    assert [f.verdict for f in judge(fields, data, str(path))] == ["ok", "mismatch"]


def test_pcie_7_rates_after_the_flit_overhead_agree(data):
    network = findings_of("ml-engineering-network-README.md", data)
    assert {f.verdict for (line, _), f in network.items() if line == 258} == {"ok"}


SYNTHETIC = _LISTED["synthetic"]


@pytest.mark.parametrize("name", sorted(SYNTHETIC))
def test_each_class_of_error_is_flagged_on_its_line(data, name):
    expected = {(alarm["line"], alarm["key"]): alarm["verdict"]
                for alarm in yaml.safe_load((FIXTURES / "expected" / f"{name}.yaml").read_text())["alarms"]}
    alarms = {where: f.verdict for where, f in findings_of(name, data).items() if f.verdict not in PASSING}
    assert alarms.keys() == expected.keys()
    assert all(alarms[where] in expected[where] for where in expected)


def test_a_link_table_is_judged_on_rows_that_name_a_link(data, tmp_path):
    # NVLink 4 is 900 GB/s both ways; a one-way column holding 900 counts both directions. PCIe 6's 121 GB/s one way
    # is its raw 128 after a FLIT overhead; the data records 92.2%, and tables count it differently.
    path = tmp_path / "links.md"
    path.write_text("| Interconnect | Uni-dir. (GBps) | Duplex (GBps) |\n|---|---:|---:|\n"
                    "| NVLink 4 | 900 | 900 |\n| PCIe 5 | 63 | 126 |\n| PCIe 6 | 121 | 242 |\n| Grace/Hopper | 450 | 900 |\n")
    _, fields = read(str(path), path.read_text())
    verdicts = [(f.line, f.verdict) for f in judge(fields, data, str(path))]
    assert verdicts == [(3, "mixed-basis"), (3, "ok"), (4, "ok"), (4, "ok"), (5, "ok"), (5, "ok"), (6, "unmatched"), (6, "unmatched")]


def test_a_table_named_for_its_unit_and_a_key_with_a_footnote_digit(data, tmp_path):
    path = tmp_path / "mfu.py"
    path.write_text('GPU_PEAK_TFLOPS = {"h200 sxm1": {"bf16": 1979}, "A100": 312}\n')
    _, fields = read(str(path), path.read_text())
    found = [(f.part, f.verdict, f.record, f.suggestion) for f in judge(fields, data, str(path))]
    assert found[0] == ("h200 sxm1", "sparse-as-dense", "nvidia-h200-sxm", "989")
    assert found[1][1] == "ok"


def test_lightnings_footnoted_h200_keys_are_judged(data):
    findings = findings_of("lightning-throughput-4f87061.py", data)
    assert findings[(330, "_CUDA_FLOPS['h200 sxm1'][torch.bfloat16]")].verdict == "ok"
    # The data holds no H200 NVL: its key stays unmatched rather than borrowing the SXM part's figures.
    assert findings[(338, "_CUDA_FLOPS['h200 nvl1'][torch.bfloat16]")].verdict == "unmatched"


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_a_value_the_figure_had_in_an_earlier_commit_is_stale(tmp_path):
    root = tmp_path / "repo"
    shutil.copytree(REPO / "specs", root / "specs")

    def git(*args):
        subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True)

    git("init", "-q")
    git("add", "-A")
    git("-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false", "commit", "-qm", "data")
    record = root / "specs" / "accelerator" / "nvidia-h100-sxm.yaml"
    text = record.read_text()
    assert "    value: 3.35 TB/s\n" in text
    record.write_text(text.replace("    value: 3.35 TB/s\n", "    value: 3.6 TB/s\n", 1))
    git("-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false", "commit", "-qam", "new bandwidth")
    table = tmp_path / "h100.json"
    table.write_text('{"name": "h100-sxm-80gb", "hbm_bandwidth_in_GB_per_sec": 3350}')
    result = CliRunner().invoke(app, ["audit", str(table), "--format", "json", "--specs", str(root / "specs"), "--db", str(tmp_path / "db.sqlite")])
    [finding] = json.loads(result.stdout)[0]["findings"]
    assert (result.exit_code, finding["verdict"], finding["holds"], finding["suggestion"]) == (1, "stale", "3.6 TB/s", "3600")
    assert "3.35 TB/s (commit " in finding["note"]


def test_python_tables_nested_by_platform_or_by_format_are_read(data, tmp_path):
    path = tmp_path / "flops.py"
    path.write_text('DEVICE_FLOPS = {"gpu": {"H100 SXM": {"bf16": 1979e12, "fp32": 67e12}}, "tpu": {"v4": {"bf16": 275e12}}}\n'
                    'BY_FORMAT = {"bf16": {"H100 SXM": 989e12}}\n')
    _, fields = read(str(path), path.read_text())
    found = [(f.key, f.verdict, f.record) for f in judge(fields, data, str(path))]
    assert found == [
        ("DEVICE_FLOPS['gpu']['H100 SXM']['bf16']", "sparse-as-dense", "nvidia-h100-sxm"),
        ("DEVICE_FLOPS['tpu']['v4']['bf16']", "ok", "google-tpu-v4"),
        ("BY_FORMAT['bf16']['H100 SXM']", "ok", "nvidia-h100-sxm"),
    ]


def test_a_markdown_table_may_name_its_part_in_a_later_column_and_give_units_in_its_cells(data, tmp_path):
    # The architecture comes first and the part second; headers give no unit, the cells do, and a cell may name its
    # own number format. H100 SXM's dense peaks are 989 (BF16) and 1979 (FP8): 1979 and 3958 are the sparse ones. A
    # DGX B200's 1.44 TB under a B200 is eight GPUs' 180 GiB, not a variant of it.
    path = tmp_path / "datasheet.md"
    path.write_text("| Architecture | Name | GPU Memory | FP16 / BF16 | INT8 |\n|---|---|---|---|---|\n"
                    "| Hopper | H100 SXM | 80 GB | 1979 TFLOPS (BF16 / FP16) | 3958 TFLOPS (FP8) |\n"
                    "| Blackwell | B200 | 1.44 TB | 2.25 PFLOPS | |\n")
    _, fields = read(str(path), path.read_text())
    found = [(f.key, f.verdict, f.figure, f.suggestion) for f in judge(fields, data, str(path))]
    assert found == [
        ("H100 SXM / GPU Memory", "ok", "memory_capacity", None),
        ("H100 SXM / FP16 / BF16", "sparse-as-dense", "dense_bf16_flops", "989 TFLOPS"),
        ("H100 SXM / INT8", "sparse-as-dense", "dense_fp8_flops", "1979 TFLOPS"),
        ("B200 / GPU Memory", "mismatch", "memory_capacity", "0.18 TB"),
        ("B200 / FP16 / BF16", "ok", "dense_bf16_flops", None),
    ]


def test_the_readme_shows_what_audit_says_of_its_real_file(audit):
    """The README's example is the summary audit prints today for InferenceX's table, not one from an older data."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    shown = readme.split("$ specdb audit gpu-specs.ts\n", 1)[1].splitlines()[0]
    result = audit(str(FIXTURES / "inferencex-gpu-specs.ts"))
    assert shown == result.stdout.splitlines()[0].replace(str(FIXTURES / "inferencex-gpu-specs.ts"), "gpu-specs.ts")


def test_a_replacement_is_written_as_the_file_writes_its_value_with_or_without_a_space(data, tmp_path):
    path = tmp_path / "gpu-specs.ts"
    path.write_text(
        "export const GPU_SPECS = [\n"
        '  { name: "B200 SXM", memoryBandwidth: "8TB/s" },\n'
        '  { name: "H100 SXM", memoryBandwidth: "4 TB/s" },\n'
        "];\n"
    )
    _, fields = read(str(path), path.read_text(), "inferencex")
    suggestions = {finding.key: finding.suggestion for finding in judge(fields, data, str(path))}
    # B200: 7.7 TB/s shipping (8 TB/s announced); H100 SXM: 3.35 TB/s, not 4.
    assert suggestions == {"B200 SXM.memoryBandwidth": "7.7TB/s", "H100 SXM.memoryBandwidth": "3.35 TB/s"}


def verdicts_of(path, data):
    _, fields = read(str(path), path.read_text())
    return [(f.line, f.key, f.verdict) for f in judge(fields, data, str(path))]


def test_huggingface_per_vendor_tables_are_read_and_cpu_tables_are_not(data, tmp_path):
    # huggingface.js split SKUS into hardware-amd.ts's AMD_GPU_SKUS and others: MI300 at 383 (the MI250X's figure) is
    # found there as it was in SKUS.GPU.AMD; a CPU table's rates are not GPU figures.
    path = tmp_path / "hardware-amd.ts"
    path.write_text('export const AMD_GPU_SKUS: Record<string, AmdGpuHardwareSpec> = {\n\tMI300: {\n\t\ttflops: 383.0,\n'
                    '\t\tmemory: [192],\n\t},\n};\nexport const CPU_AMD_SKUS: Record<string, HardwareSpec> = {\n'
                    '\t"EPYC 9004": { tflops: 5.1, memory: [1024] },\n};\n')
    assert verdicts_of(path, data) == [(3, "AMD_GPU_SKUS.MI300.tflops", "wrong-variant"), (4, "AMD_GPU_SKUS.MI300.memory[0]", "ok")]


def test_composer_mixed_precision_keys_and_a_dict_shared_by_devices_are_read(data, tmp_path):
    # Composer keys formats 'amp_bf16' and gives two devices one dict: each device's rate is judged where the dict
    # writes it. H100 SXM and H200 SXM run BF16 at 989 TFLOPS dense, 1979 with sparsity.
    path = tmp_path / "speed_monitor.py"
    path.write_text("_HSERIES_SXM = {\n    'fp64': 67e12,\n    'amp_bf16': 1.979e15,\n}\n"
                    "GPU_AVAILABLE_FLOPS = {\n    'h200-sxm': _HSERIES_SXM,\n    'h100-sxm': _HSERIES_SXM,\n"
                    "    'a100': {'amp_bf16': 312e12},\n}\n")
    assert verdicts_of(path, data) == [
        (3, "GPU_AVAILABLE_FLOPS['h100-sxm']['amp_bf16']", "sparse-as-dense"),
        (3, "GPU_AVAILABLE_FLOPS['h200-sxm']['amp_bf16']", "sparse-as-dense"),
        (8, "GPU_AVAILABLE_FLOPS['a100']['amp_bf16']", "ok"),
    ]


def test_torchtitan_records_rows_and_a_chip_tested_by_its_own_name_are_read(data, tmp_path):
    # torchtitan kept its BF16 peaks as (rate, source) pairs, as rows of (name, rate, source), as {"flops": rate}
    # records, and under "neuron" tests the chip's own name. B200's dense BF16 is 2.25 PFLOPS (4.5 sparse); A100 312;
    # Trainium2 667 TFLOPS.
    path = tmp_path / "utils.py"
    path.write_text(
        'def peak(device_name):\n'
        '    device_flops = {"A100": (312e12, "https://a"), "B200": (4.5e15, "https://b")}\n'
        '    rows = (("A100", 312e12, "https://a"),)\n'
        '    device_info = {"b200": {"flops": 2.25e15, "source": "https://b"}}\n'
        '    if "neuron" in device_name:\n'
        '        if chip_name in ("trn2", "trn2n"):\n'
        '            return 667e12\n'
    )
    assert verdicts_of(path, data) == [
        (2, "device_flops['A100']", "ok"), (2, "device_flops['B200']", "sparse-as-dense"),
        (3, "rows['A100']", "ok"), (4, "device_info['b200']['flops']", "ok"),
        (7, "peak('trn2')", "ok"), (7, "peak('trn2n')", "unmatched"),
    ]


def test_markdown_delimiters_of_one_hyphen_units_in_cells_and_footnoted_or_listed_parts(data, tmp_path):
    # A delimiter row with "--:" is a table (GitHub reads it so); "GBps" in a cell is bytes, as the table's headers
    # write it; "H100 SXM (1)" is the H100 SXM with a footnote; "H100, H200" gives the row for its first part.
    path = tmp_path / "accelerators.md"
    path.write_text("| Accelerator \\ TFLOPS | bf16 | fp8 |\n| :--- | --: | --: |\n| H100 SXM (1) | 989 | 3958 |\n\n"
                    "| Accelerator | Memory<br> (GBs) | NVLink |\n| :-- | --: | --: |\n"
                    "| H100, H200 | 80 | 450 GBps unidirectional |\n")
    assert verdicts_of(path, data) == [
        (3, "H100 SXM / bf16", "ok"), (3, "H100 SXM / fp8", "sparse-as-dense"),
        (7, "H100 / Memory<br> (GBs)", "ok"), (7, "H100 / NVLink", "ok"),
    ]


def test_a_tables_direction_may_be_said_in_the_sentence_before_it(data, tmp_path):
    # "Here is intra-node unidirectional ... bandwidth": NVLink 4's 900 GB/s is both ways (450 one way), PCIe 5 x16
    # is 63 GB/s one way. A peer-to-peer comparison gives one link's rate (MI300X: 64 GB/s to each of 7 peers), not
    # the accelerator's, and is not judged; nor is a table whose sentence does not say how it counts.
    path = tmp_path / "network.md"
    path.write_text("Here is intra-node unidirectional theoretical peak bandwidth:\n\n**Generally available:**\n\n"
                    "| Interconnect | Accelerator | GBps |\n| :-- | :-- | --: |\n"
                    "| NVIDIA NVLink 4 | H100, H* | 900 |\n| PCIe 5 | | 63 |\n\n"
                    "Here is intra-node unidirectional peer-to-peer peak bandwidth:\n\n"
                    "| Interconnect | Accelerator | GBps |\n| :-- | :-- | --: |\n| AMD XGMI | MI300X | 64 |\n\n"
                    "Intra-node bandwidth:\n\n| Interconnect | GBps |\n| :-- | --: |\n| NVLink 4 | 900 |\n")
    assert verdicts_of(path, data) == [(7, "H100 / GBps", "mixed-basis"), (8, "PCIe 5 / GBps", "ok")]


def test_a_header_naming_a_direction_reads_the_unit_each_cell_gives(data, tmp_path):
    path = tmp_path / "pcie.md"
    path.write_text("| Interconnect | Lane/Direction | Lanes | Unidirection | Duplex |\n| :-- | --: | --: | --: | --: |\n"
                    "| PCIe 5 | ~4.0 GBps | 16 | 126 GBps | 126 GBps |\n")
    # PCIe 5 x16: 63 GB/s one way, 128 both ways; the per-lane column is not judged.
    assert verdicts_of(path, data) == [(3, "PCIe 5 / Unidirection", "mixed-basis"), (3, "PCIe 5 / Duplex", "ok")]


def test_a_link_named_with_its_vendor_is_that_link(data):
    assert data.parts("NVIDIA NVLink 4")[0] == {"nvlink-4"}
    assert data.parts("NVIDIA NVlink 3")[0] == {"nvlink-3"}
    # A shorthand an accelerator's name extends is still taken for the accelerator, not the link named for its series.
    assert data.parts("MI300")[0] == {"amd-mi300x"}


def test_an_aiconfigurator_key_written_twice_is_read_at_its_last_value(data, tmp_path):
    # AIConfigurator loads its systems files with PyYAML, where the last of two equal keys wins.
    path = tmp_path / "h200_sxm.yaml"
    path.write_text("gpu:\n  mem_bw: 8000000000000\n  mem_bw: 4800000000000\nnode:\n  num_gpus_per_node: 8\n"
                    "misc:\n  nccl_mem: 0\n  nccl_mem: 1\n")
    assert verdicts_of(path, data) == [(3, "gpu.mem_bw", "ok")]


def test_a_pcie_rate_the_file_gives_for_another_generation_than_the_datas_is_unmatched(data, tmp_path):
    # AIConfigurator's GB300 gives PCIe 5 one way (64 GB/s, "pcie 5.0") where the data, quoting NVIDIA, records PCIe 6:
    # right for the generation the file names, so the generation is in question, not the figure. An H100 PCIe card's
    # intra-node rate "PCIe Gen5 x16 without NVLink" is its host link one way, 63 GB/s; 128 GB/s is PCIe 5 both ways.
    path = tmp_path / "gb300.yaml"
    path.write_text("gpu:\n  mem_bw: 8000000000000\nnode:\n  pcie_bw: 64000000000  # Byte/s, single direction, pcie 5.0\n")
    [finding] = [f for f in judge(read(str(path), path.read_text())[1], data, str(path)) if f.key == "node.pcie_bw"]
    assert finding.verdict == "unmatched" and "PCIe 5" in finding.note
    card = tmp_path / "h100_pcie.yaml"
    card.write_text("gpu:\n  mem_bw: 2000000000000\nnode:\n"
                    "  intra_node_bw: 64000000000 # Byte/s per GPU, single direction, PCIe Gen5 x16 without NVLink\n"
                    "  pcie_bw: 128000000000 # Byte/s, single direction, PCIe Gen5 x16\n")
    assert verdicts_of(card, data)[1:] == [(4, "node.intra_node_bw", "ok"), (5, "node.pcie_bw", "mixed-basis")]


def test_a_pcie_rate_of_a_newer_generation_than_the_part_has_is_judged_on_the_parts_own(data, tmp_path):
    # The data's B200 has a PCIe 5 host link (63.0 GB/s one way, 128 GB/s both ways). "pcie 6.0" at 128 GB/s one way is a
    # generation the part cannot run: judged on its own link, 128 GB/s is PCIe 5 both ways where one way is meant.
    path = tmp_path / "b200_sxm.yaml"
    path.write_text("gpu:\n  mem_bw: 7700000000000\nnode:\n  pcie_bw: 128000000000  # Byte/s, single direction, pcie 6.0\n")
    [finding] = [f for f in judge(read(str(path), path.read_text())[1], data, str(path)) if f.key == "node.pcie_bw"]
    assert (finding.verdict, finding.record, finding.figure) == ("mixed-basis", "pcie-5", "x16_per_direction_bandwidth")
    assert "PCIe 6" in finding.note


def test_a_rate_returned_as_a_fallback_or_as_a_share_no_whole_number_makes_is_not_an_alarm(data, tmp_path):
    # torchtitan: an unnamed TPU falls back to the A100's 312 TFLOPS; Trainium's 90 TFLOPS "per core" times any whole
    # number of cores is not the chip's 190; TPU v7's 2307 "halve for per-device" is one of its two TensorCores.
    path = tmp_path / "utils.py"
    path.write_text('def peak(name):\n    if name.startswith("TPU"):\n        if "v7" in name:\n'
                    '            # halve for per-device\n            return 2307e12 / 2\n        else:\n'
                    '            return 312e12\n    if "trn1" in name:\n        # 90 BF16 TFLOPS/core\n        return 90e12\n')
    assert verdicts_of(path, data) == [(5, "peak('TPU v7')", "ok"), (7, "peak('TPU')", "unmatched"), (10, "peak('trn1')", "unmatched")]


def test_a_rate_assigned_under_device_tests_is_read_as_returned(data, tmp_path):
    # VeOmni assigns `flops = N` in an if/elif chain and returns it after. H100 SXM's dense BF16 is 989 TFLOPS; B200's
    # is 2.25 PFLOPS, so 2382e12 is wrong; a name saying its unit (peak_tflops) holds TFLOPS; a name that is not the
    # rate (bandwidth) and a value before any test are not read.
    path = tmp_path / "count_flops.py"
    path.write_text(
        'def get_device_flops(device_name):\n'
        '    flops = float("inf")\n'
        '    if "H100" in device_name:\n'
        '        flops = 989e12\n'
        '        bandwidth = 3.35e12\n'
        '    elif "B200" in device_name:\n'
        '        flops = 2382e12\n'
        '    return flops\n'
        'def peak(name):\n'
        '    if name == "B200":\n'
        '        peak_tflops = 2250\n'
        '    return peak_tflops * 1e12\n'
    )
    assert verdicts_of(path, data) == [
        (4, "get_device_flops('H100')", "ok"), (7, "get_device_flops('B200')", "mismatch"), (11, "peak('B200')", "ok"),
    ]


def test_a_dicts_keys_naming_the_rate_or_another_quantity_are_no_device(data, tmp_path):
    # timeflies keys its rates under "compute_ablility" and gives "bandwidth" beside them: the device is the H100, and
    # 3500 * 2**30 B/s is no peak rate. 989 TFLOPS is H100 SXM's dense BF16.
    path = tmp_path / "hardware_spec.py"
    path.write_text('HardwareSpec = {\n    "H100": {\n        "compute_ablility": {"bfloat16": 989e12},\n'
                    '        "bandwidth": 3500 * 2 ** 30,\n    },\n}\n')
    _, fields = read(str(path), path.read_text())
    assert [(f.line, f.part, f.meaning) for f in fields] == [(3, "H100", "dense:bf16")]


def test_a_rate_written_with_a_binary_prefix_is_judged_as_the_figure_it_is(data, tmp_path):
    # 1979 * 2**40 is NVIDIA's sparse 1979 TFLOPS with tera read as 2**40 (2.176e15 FLOP/s): sparse-as-dense. 989 * 2**40
    # is the dense 989 TFLOPS so written, 10% high: a mismatch. Written in decimal, 989e12 is right.
    path = tmp_path / "spec.py"
    path.write_text('SPEC = {"H100 SXM": {"bfloat16": 1979 * 2 ** 40, "float16": 989 * 2 ** 40, "int8": 1979e12}}\n')
    findings = judge(read(str(path), path.read_text())[1], data, str(path))
    assert [(f.key, f.verdict) for f in findings] == [
        ("SPEC['H100 SXM']['bfloat16']", "sparse-as-dense"), ("SPEC['H100 SXM']['float16']", "mismatch"),
        ("SPEC['H100 SXM']['int8']", "ok"),
    ]
    assert "2**40" in findings[0].note and "2**40" in findings[1].note
    # NVLink 4's 900 GB/s both ways, with giga read as 2**30 (966,367,641,600 B/s), where one way (450 GB/s) is meant.
    node = tmp_path / "h100_sxm.yaml"
    node.write_text("gpu:\n  mem_bw: 3350000000000\nnode:\n  intra_node_bw: 966367641600 # Byte/s per GPU, single direction\n")
    assert verdicts_of(node, data) == [(2, "gpu.mem_bw", "ok"), (4, "node.intra_node_bw", "mixed-basis")]


def test_a_name_several_variants_answer_to_is_not_held_to_one_of_them_at_the_precision_written(data, tmp_path):
    # A bare "A100" is the SXM4 40GB (1,555 GB/s), the SXM4 80GB (2,039) and the PCIe 80GB (1,935): 1.6 TB/s is 1,555
    # rounded to the digit written. The SXM4 40GB named alone is held to its figure within 2.5% (1.6 is 2.9% over), and
    # 1.7 TB/s (1.65 to 1.75) is no variant's.
    path = tmp_path / "specs.md"
    path.write_text("| GPU | Memory Bandwidth (TB/s) |\n|---|---|\n| A100 | 1.6 |\n| A100 SXM4 40GB | 1.6 |\n| A100 | 1.7 |\n")
    assert [verdict for _, _, verdict in verdicts_of(path, data)] == ["unmatched", "mismatch", "mismatch"]


def test_markdown_cells_of_dense_and_starred_sparse_peaks_products_and_vector_rates(data, tmp_path):
    # The notes say a star marks the sparse peak, so "1125 / 2250*" is a dense 1125 TFLOPS (B200: 2.25 PFLOPS, a
    # mismatch) and "121 / 242*" the L4's dense 121; "4100 x 2" GB/s is 8.2 TB/s (B200: 7.7 shipping, 8 announced,
    # 2.5% off). "BF16 TFLOPS" beside "BF16 Tensor Core TFLOPS" is the vector rate, not read; "GPU type" is not the part.
    table = ("| Graphics Processor<br/>GPU | GPU type | VRAM, Mb | Bandwidth<br/>GB/s | BF16<br/>TFLOPS | "
             "BF16<br/>Tensor Core<br/>TFLOPS |\n|---|---|---|---|---|---|\n"
             "| NVIDIA B200 | Server | 183359 | 4100 x 2 | 248.3 | 1125 / 2250* |\n"
             "| NVIDIA L4 | Server | 23034 | 300 | 30.3 | 121 / 242* |\n")
    path = tmp_path / "gpus.md"
    path.write_text("1. \\* Effective TOPS / TFLOPS using the Sparsity Feature\n\n" + table)
    assert verdicts_of(path, data) == [
        (5, "NVIDIA B200 / Bandwidth<br/>GB/s", "stale"), (5, "NVIDIA B200 / BF16<br/>Tensor Core<br/>TFLOPS", "mismatch"),
        (6, "NVIDIA L4 / Bandwidth<br/>GB/s", "ok"), (6, "NVIDIA L4 / BF16<br/>Tensor Core<br/>TFLOPS", "ok"),
    ]
    # Without a note saying what the star marks, a pair is not read.
    path.write_text(table)
    assert [key for _, key, _ in verdicts_of(path, data)] == ["NVIDIA B200 / Bandwidth<br/>GB/s", "NVIDIA L4 / Bandwidth<br/>GB/s"]
