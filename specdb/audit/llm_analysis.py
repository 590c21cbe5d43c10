"""llm-analysis's GPU configs (`llm_analysis/gpu_configs/*.json`): one JSON object of its `GPUConfig` fields per GPU.

Field meanings from llm-analysis's code and bundled files, as the exporter reads them
(`specdb.export.llm_analysis`, whose REQUIRED and OPTIONAL tables this module reuses): `mem_per_GPU_in_GB` is
multiplied by 1024**3 (GiB); bandwidths by 10**9; `intra_node_bandwidth_in_GB_per_sec` is one direction per GPU (it
divides a ring all-reduce's bytes); `peak_fp16_TFLOPS` the dense 16-bit tensor rate, `peak_i8_TFLOPS` the dense INT8
rate. `inter_node_bandwidth_in_GB_per_sec` is per 8-GPU node in its own files and `peak_i4_TFLOPS` has no figure in the
data: neither is judged.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from specdb.audit import fields as meaning
from specdb.audit.fields import Field, UnreadableTable
from specdb.export.llm_analysis import GIGA, OPTIONAL, REQUIRED
from specdb.textfile import line_and_column

NAME = "llm-analysis"
_SCALES = {field: divisor for field, _, divisor in REQUIRED + OPTIONAL} | {"intra_node_bandwidth_in_GB_per_sec": GIGA}
_MEANINGS = {
    "mem_per_GPU_in_GB": meaning.MEMORY_CAPACITY,
    "hbm_bandwidth_in_GB_per_sec": meaning.MEMORY_BANDWIDTH,
    "peak_fp16_TFLOPS": meaning.dense("16bit"),  # the exporter fills it from dense FP16, else dense BF16
    "peak_i8_TFLOPS": meaning.dense("int8"),
    "intra_node_bandwidth_in_GB_per_sec": meaning.SCALE_UP_PER_DIRECTION,
}
_UNITS = {"mem_per_GPU_in_GB": "", "peak_fp16_TFLOPS": "", "peak_i8_TFLOPS": ""}


def looks_like(path: str, text: str) -> bool:
    return path.endswith(".json") and "hbm_bandwidth_in_GB_per_sec" in text


def read(path: str, text: str) -> list[Field]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise UnreadableTable(path, f"JSON syntax: {error.msg}", error.lineno, error.colno) from None
    if not isinstance(data, dict):
        raise UnreadableTable(path, "not an llm-analysis GPU config: the file is not a JSON object", 1, 1)
    part = data["name"] if isinstance(data.get("name"), str) else Path(path).stem
    found = []
    for key, quantity in _MEANINGS.items():
        value = data.get(key)
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            continue
        match = re.search(rf'"{key}"\s*:\s*([^,}}\s]+)', text)
        line, column = line_and_column(text, match.start(1)) if match else (1, 1)
        written = match.group(1) if match else str(value)
        found.append(Field(line, column, key, written, value * _SCALES[key], _SCALES[key], _UNITS.get(key, ""), part, quantity))
    return found
