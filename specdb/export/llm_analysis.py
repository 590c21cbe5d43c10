"""One llm-analysis `GPUConfig` JSON per accelerator, in that package's field names and units.

llm-analysis's conventions, read from its code and its bundled gpu_configs:
`mem_per_GPU_in_GB` is multiplied by 1024**3 (so GiB); bandwidths by 10**9
(decimal GB/s); `intra_node_bandwidth_in_GB_per_sec` divides a ring
all-reduce's bytes, so it is one direction per GPU (its H100 SXM file has
450 for NVLink 4's 900 GB/s both ways); `peak_fp16_TFLOPS` is its one 16-bit
tensor rate, dense. A field with no specdb figure behind it is left out when
llm-analysis has a default for it, and named in the manifest either way.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from specdb.format import figure_names
from specdb.export.folder import record_file, write_json
from specdb.format.counting import Bandwidth

GIB = 2**30
GIGA = 1e9
TERA = 1e12
# llm-analysis requires this field and has no default; every GPU file it ships uses this value.
CONSUMER_MESSAGE_LATENCY = 8e-06
# (field, figure names tried in order, divisor to the consumer's unit)
REQUIRED = (
    ("mem_per_GPU_in_GB", (figure_names.MEMORY_CAPACITY,), GIB),
    ("hbm_bandwidth_in_GB_per_sec", (figure_names.MEMORY_BANDWIDTH,), GIGA),
    ("peak_fp16_TFLOPS", (figure_names.DENSE_FP16_FLOPS, figure_names.DENSE_BF16_FLOPS), TERA),
)
OPTIONAL = (("peak_i8_TFLOPS", (figure_names.DENSE_INT8_FLOPS,), TERA),)
LEFT_TO_CONSUMER = {
    "peak_i8_TFLOPS": "no dense INT8 figure; llm-analysis takes 2 x peak_fp16_TFLOPS",
    "peak_i4_TFLOPS": "specdb records no INT4 rates; llm-analysis takes 4 x peak_fp16_TFLOPS",
    "inter_node_bandwidth_in_GB_per_sec": (
        "llm-analysis's own files give it per 8-GPU node (A100: 200 = 8 x 200 Gb/s HDR) and its estimates do not read it; "
        "specdb's scale-out figures are per accelerator, on a platform; left at llm-analysis's default (200)"
    ),
}


def write(connection: sqlite3.Connection, about: dict[str, Any], folder: Path) -> dict[str, Any]:
    accelerators: dict[str, Any] = {}
    skipped: dict[str, list[str]] = {}
    for (record_id,) in connection.execute("SELECT id FROM record WHERE kind = 'accelerator' ORDER BY id"):
        figures = _figures(connection, record_id)
        config, provenance, missing = _config(record_id, figures)
        if missing:
            skipped[record_id] = missing
            continue
        write_json(record_file(folder, record_id, ".json"), config)
        accelerators[record_id] = provenance
    return {
        "open_with": "llm_analysis.config.GPUConfig(**json.load(open(FILE)))",
        "conventions": "mem_per_GPU_in_GB in GiB (llm-analysis multiplies by 1024**3); bandwidths in decimal GB/s; "
                       "intra_node_bandwidth_in_GB_per_sec one direction per GPU; TFLOPS dense",
        "accelerators": accelerators,
        "skipped": skipped,
    }


def _figures(connection: sqlite3.Connection, record_id: str) -> dict[str, tuple[float, str, str | None]]:
    rows = connection.execute("SELECT name, value, value_text, direction FROM figure WHERE record_id = ?", (record_id,))
    return {name: (value, text, direction) for name, value, text, direction in rows}


def _config(record_id: str, figures: dict[str, tuple[float, str, str | None]]) -> tuple[dict[str, Any], dict[str, Any], list[str]]:
    config: dict[str, Any] = {"name": record_id}
    filled: dict[str, str] = {}
    missing: list[str] = []
    for field, names, divisor in REQUIRED + OPTIONAL:
        name = next((name for name in names if name in figures), None)
        if name is None:
            if (field, names, divisor) in REQUIRED:
                missing.append(" or ".join(names))
            continue
        value, text, _ = figures[name]
        config[field] = value / divisor
        filled[field] = f"{record_id}.{name} ({text})"
    scale_up = figures.get(figure_names.SCALE_UP_BANDWIDTH)
    if scale_up is None:
        missing.append(figure_names.SCALE_UP_BANDWIDTH)
    else:
        value, text, direction = scale_up
        one_way = Bandwidth(value, direction, record_id, figure_names.SCALE_UP_BANDWIDTH).on("per-direction")
        config["intra_node_bandwidth_in_GB_per_sec"] = one_way / GIGA
        filled["intra_node_bandwidth_in_GB_per_sec"] = f"{record_id}.scale_up_bandwidth ({text}, {direction}{', halved' if direction == 'bidirectional' else ''})"
    config["intra_node_min_message_latency"] = CONSUMER_MESSAGE_LATENCY
    ordered = {key: config[key] for key in _FIELD_ORDER if key in config}
    left = {field: why for field, why in LEFT_TO_CONSUMER.items() if field not in ordered}
    # A link's `latency` figure is one hop or one collective step, not what a whole message costs.
    left["intra_node_min_message_latency"] = (
        f"no minimum message latency in the data (a link's latency figure is one hop or one collective step); set to "
        f"{CONSUMER_MESSAGE_LATENCY!r} s, the value of every GPU file llm-analysis ships (the field has no default)"
    )
    return ordered, {"file": f"{record_id}.json", "filled_from": filled, "left_to_llm_analysis": left}, missing


_FIELD_ORDER = (
    "name", "mem_per_GPU_in_GB", "hbm_bandwidth_in_GB_per_sec", "intra_node_bandwidth_in_GB_per_sec",
    "intra_node_min_message_latency", "peak_fp16_TFLOPS", "peak_i8_TFLOPS", "peak_i4_TFLOPS", "inter_node_bandwidth_in_GB_per_sec",
)
