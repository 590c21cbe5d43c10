"""Readings of audit formats written the way real files write them: a Markdown row's part with an aside in brackets and
a bold cell restating its value in another unit (lijun99/GPU-Resources' NVIDIA_GPU_SM.md), and a peak assigned to an
attribute under device tests, scaled by a local constant, with an `else` whose comment names the device it assumes
(allenai/OLMo-core's speed monitor). Expected values are the files' own numbers, worked by hand; verdicts follow the
figures in specs/ (H100 SXM HBM 3.35 TB/s, A100 BF16 312 TFLOPS dense, H100 SXM BF16 989 TFLOPS dense).
"""

import pytest
from conftest import REPO

import specdb
from specdb.audit import fields as meaning
from specdb.audit.formats import read
from specdb.audit.judge import Data, judge

MARKDOWN = """| GPU Model | SM Count | Memory Bandwidth |
| --- | --- | --- |
| **H100 SXM (Hopper)** | 132 | **3,000 GB/s (3.0 TB/s)** |
| **A100 (80GB)** | 108 | 2,039 GB/s |
| H100 (PCIe) | 114 | 2,000 GB/s |
"""

PYTHON = '''
class SpeedMonitor:
    def pre_train(self, device_name, using_half_precision):
        if using_half_precision:
            dense_correction = 0.5  # listed specs are one-half lower without sparsity
            if "H100" in device_name:
                self.device_peak_flops_per_second = int(1979e12 * dense_correction)
            else:  # for other GPU types, assume A100
                self.device_peak_flops_per_second = int(312e12 * dense_correction)
'''


def test_a_markdown_part_keeps_its_name_without_an_aside_and_its_variant_with_one():
    _, fields = read("table.md", MARKDOWN)
    assert [(field.part, field.value) for field in fields] == [("H100 SXM", 3.0e12), ("A100 (80GB)", 2.039e12),
                                                         ("H100 (PCIe)", 2.0e12)]


def test_a_bold_cell_restating_its_value_in_another_unit_is_judged_on_its_first(data):
    _, fields = read("table.md", MARKDOWN)
    finding = judge(fields, data, "table.md")[0]
    assert (finding.line, finding.verdict, finding.record) == (3, "mismatch", "nvidia-h100-sxm")


@pytest.fixture(scope="module")
def data(bundled_db):
    return Data(specdb.connect(REPO / "specs", bundled_db))


@pytest.fixture
def python_fields():
    return read("speed_monitor.py", PYTHON)[1]


def test_a_peak_assigned_to_an_attribute_and_scaled_by_a_local_constant_is_read(python_fields):
    assert {(field.part, field.value) for field in python_fields} == {("H100", 989.5e12), ("A100", 156e12)}
    assert all(field.meaning == meaning.dense("16bit") for field in python_fields)


def test_an_else_whose_comment_names_its_device_is_judged_as_that_devices_rate(python_fields, data):
    a100 = next(field for field in python_fields if field.part == "A100")
    assert not a100.loose
    finding = next(finding for finding in judge(python_fields, data, "speed_monitor.py") if finding.part == "A100")
    assert finding.verdict == "mismatch"  # 156 TFLOPS: half of the A100's dense 312, halved once too often


def test_a_key_naming_a_number_format_and_the_rate_gives_that_format():
    # torchao's roofline table: "fp8_peak_tops" is the FP8 peak, "bf16_peak_tops" the BF16 one (H100 SXM: 1979 and 989
    # TFLOPS dense); a key of another quantity beside them is no peak.
    text = ('specs = {\n    "NVIDIA H100": {\n        "bf16_peak_tops": 989e12,\n        "fp8_peak_tops": 1979e12,\n'
            '        "peak_mem_bw_bytes_sec": 3.35e12,\n    },\n}\n')
    _, fields = read("roofline.py", text)
    assert {(field.meaning, field.value) for field in fields} == {(meaning.dense("bf16"), 989e12), (meaning.dense("fp8"), 1979e12)}


SCALING_BOOK = """|  GPU  | Generation | HBM BW/chip | HBM capacity/chip |
| :---: | :--------: | :---------: | :---------------: |
| H100  |   Hopper   |   3.4e12    |       80GB        |
| B200  | Blackwell  |   8.0e12    |       192GB       |

| NVLink Gen | NVLink Bandwidth (GB/s, full-duplex) | NVLink Ports / GPU | Node GPU to GPU bandwidth (GB/s full-duplex) |
| :--------: | :----------------------------------: | :----------------: | :------------------------------------------: |
|  **4.0**   |                  25                  |         18         |                     450                      |
"""


def test_unitless_memory_columns_and_a_per_link_column_are_read_as_the_scaling_book_writes_them(data):
    # B200: 7.7 TB/s and 180 GiB held, 8 TB/s and 192 GiB its announced values; NVLink 4: 25 GB/s a link and 450 GB/s a
    # GPU each way ("full-duplex: 25GB/s each way", as the book's footnote says).
    _, fields = read("gpus.md", SCALING_BOOK)
    assert (4, "B200 / HBM BW/chip", 8.0e12) in {(field.line, field.key, field.value) for field in fields}
    verdicts = {(finding.line, finding.key): finding.verdict for finding in judge(fields, data, "gpus.md")}
    assert verdicts[4, "B200 / HBM BW/chip"] == "stale" and verdicts[4, "B200 / HBM capacity/chip"] == "stale"
    assert verdicts[3, "H100 / HBM BW/chip"] == "ok"
    assert verdicts[8, "4.0 / NVLink Bandwidth (GB/s, full-duplex)"] == "ok"


def test_a_bare_tpu_generation_is_not_the_lite_part_alone(data):
    # JAX reports the v5p as "TPU v5" and the v5e as "TPU v5 lite" (specs' runtime names): a table keyed "v5" may mean
    # either, so the v5p's dense BF16 459 TFLOPS under it is no wrong variant; 197 TFLOPS (the v5e's) agrees too.
    text = 'DEVICE_FLOPS = {\n    "v5": {\n        "bf16": 459e12,\n    },\n    "v5litepod": {\n        "bf16": 197e12,\n    },\n}\n'
    findings = judge(read("device_flops.py", text)[1], data, "device_flops.py")
    assert [(finding.line, finding.verdict) for finding in findings] == [(3, "ok"), (6, "ok")]


# Shapes of held-out-7's projects, written small. The data's H100 SXM: dense BF16 989 TFLOPS, FP8 1979, INT8 1978; the
# B200: dense BF16 2.25 PFLOPS; the sparse H100 rates (1979 BF16, 3958 FP8) are twice the dense ones.
def _verdicts(name, text, data):
    return [(finding.line, finding.verdict) for finding in judge(read(name, text)[1], data, name)]


def test_records_built_by_a_call_with_a_unit_in_a_keyword_are_read(data):
    # PyTorch's `DeviceInfo(tops={dtype: N})`, TFLOPS by its docstring; xformers' `DeviceLimit("H100", ..., gemm_tflops=...)`.
    text = ('_device_mapping = {\n    "NVIDIA H100": DeviceInfo(\n        tops={\n            torch.bfloat16: 1979.0,\n'
            '            torch.float8_e5m2: 3958.0,\n            torch.float8_e8m0fnu: 3958.0,\n        },\n'
            '        dram_bw_gbs=3350,\n    ),\n}\n')
    assert _verdicts("device_info.py", text, data) == [(4, "sparse-as-dense"), (5, "sparse-as-dense")]
    text = ('DEVICE_LIMITS = (\n    DeviceLimit(\n        "H100",\n        "https://example.com/datasheet",\n'
            '        gemm_tflops={\n            torch.bfloat16: 1979 // 2,\n            torch.int8: 3958 // 2,\n        },\n    ),\n)\n')
    assert _verdicts("device_limits.py", text, data) == [(6, "ok"), (7, "ok")]


def test_a_switch_key_module_dicts_and_unitless_tflops_are_read(data):
    # tritonbench: dtype dicts in TFLOPS with no unit, mounted by device name under a bool key; the False branch holds
    # memory bandwidth ("values in gbps"), no peak.
    text = ('NV_H100 = {\n    "bf16": 1979 // 2,\n    "fp8": 3958 // 2,\n}\nNV_B200 = {\n    "bf16": 1979 // 2,\n}\n'
            'SPECS = {\n    True: {\n        "NVIDIA H100": NV_H100,\n        "NVIDIA B200": NV_B200,\n    },\n'
            '    False: {\n        # values in gbps\n        "NVIDIA H100": 2000,\n    },\n}\n')
    assert sorted(_verdicts("gpu_utils.py", text, data)) == [(2, "ok"), (3, "ok"), (6, "wrong-variant")]


def test_a_list_of_records_naming_their_device_and_a_rate_key_with_its_unit(data):
    # LLM_Sizing_Guide's `[{"name": "H100 SXM", "fp16_tflops": 1979}, ...]`; GenZ's `{'H100_GPU': {'Flops': 989, ...}}`.
    text = 'gpu_specs = [\n    {"name": "H100 SXM", "fp16_tflops": 1979, "memory_gb": 80},\n    {"name": "H100 SXM", "fp16_tflops": 989},\n]\n'
    assert _verdicts("calculator.py", text, data) == [(2, "sparse-as-dense"), (3, "ok")]
    text = "system_configs = {\n    'H100_GPU': {'Flops': 989, 'Memory_size': 80, 'Memory_BW': 3400},\n}\n"
    assert _verdicts("system_configs.py", text, data) == [(2, "ok")]


def test_tensor_prefixed_keys_leave_the_vector_rates_unread(data):
    # dcgm-profiling: "tf16" is the tensor cores' FP16 rate (here the sparse 1979), "fp16" the vector units' (133.8).
    text = 'GPUSpec = {\n    "H100-SXM": {\n        "fp16": 133.8, "tf16": 1979, "fp64": 34, "tf64": 67,\n    },\n}\n'
    assert _verdicts("gpu_specs.py", text, data) == [(3, "sparse-as-dense")]


def test_a_share_and_a_rate_already_in_flops_under_a_unit_word_are_read_as_written(data):
    text = ('specs = {\n    "NVIDIA H100": {\n        "bf16_peak_tops": 989e12,\n        "pct_achievable_gemm_tops": 0.78,\n'
            '    },\n}\n')
    assert _verdicts("roofline.py", text, data) == [(3, "ok")]


def test_a_markdown_format_column_without_a_unit_is_in_tflops(data):
    table = "|Accelerator | FP16 | BF16 | INT8 |\n|---|---|---|---|\n|NVIDIA H100 SXM | 1,979 | 989 | 3,958 |\n"
    assert _verdicts("README.md", table, data) == [(3, "sparse-as-dense"), (3, "ok"), (3, "sparse-as-dense")]
