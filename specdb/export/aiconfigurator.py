"""One NVIDIA AIConfigurator system YAML per platform, in the shape of its `systems/*.yaml`.

AIConfigurator's conventions, read from its bundled systems files: SI units
(B/s, B, FLOP/s, s); bandwidths per GPU and one direction; a `gpu` section for
the accelerator and a `node` section for the platform. `get_p2p_bandwidth`
picks `intra_node_bw` up to `num_gpus_per_node`, `inter_node_bw` up to
`num_gpus_per_rack`, then `inter_rack_bw`. Keys that are measured
corrections, performance-data paths or figures specdb does not hold are left
out, and named in the manifest.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from specdb.format import figure_names
from specdb.export.folder import record_file
from specdb.analysis.tiers import Platform, platforms

# gpu key -> accelerator figure (canonical SI already)
GPU_FIGURES = (
    ("mem_bw", figure_names.MEMORY_BANDWIDTH),
    ("mem_capacity", figure_names.MEMORY_CAPACITY),
    ("bfloat16_tc_flops", figure_names.DENSE_BF16_FLOPS),
    ("int8_tc_flops", figure_names.DENSE_INT8_FLOPS),
    ("fp8_tc_flops", figure_names.DENSE_FP8_FLOPS),
    ("fp4_tc_flops", figure_names.DENSE_FP4_FLOPS),
    ("power", figure_names.POWER),
)
NOT_SPECDB_FIGURES = {
    "data_dir": "AIConfigurator's measured kernel performance data for the system; not hardware figures",
    "gpu.mem_bw_empirical_scaling_factor": "an empirical correction in AIConfigurator's own files",
    "gpu.mem_empirical_constant_latency": "an empirical correction in AIConfigurator's own files",
    "gpu.sm_version": "CUDA compute capability; not a figure specdb records",
    "node.p2p_latency": "an empirical correction in AIConfigurator's own files (10 us), not a link's latency",
    "misc": "NCCL and framework memory overheads measured by AIConfigurator",
}


def write(connection: sqlite3.Connection, about: dict[str, Any], folder: Path) -> dict[str, Any]:
    import yaml

    systems: dict[str, Any] = {}
    skipped: dict[str, str] = {}
    for platform in platforms(connection):
        spec, filled = _system(connection, platform)
        if "gpu" not in spec or "node" not in spec:
            skipped[platform.id] = "needs its accelerator's figures, a scale-up bandwidth and a scale_up_domain"
            continue
        header = [f"# {platform.name}: exported by specdb {about['specdb_version']} from data {about['content_hash'][:12]}",
                  f"# {about['attribution']}"]
        header += [f"# {key}: {origin}" for key, origin in filled.items()]
        body = yaml.safe_dump(spec, sort_keys=False, default_flow_style=False, allow_unicode=True)
        record_file(folder, platform.id, ".yaml").write_text("\n".join(header) + "\n" + body, encoding="utf-8")
        left = dict(NOT_SPECDB_FIGURES)
        left.update({f"gpu.{key}": f"no {name} figure for {platform.accelerator}" for key, name in GPU_FIGURES if key not in spec["gpu"]})
        left.update({f"node.{key}": why for key, why in _node_gaps(spec["node"]).items()})
        systems[platform.id] = {"file": f"{platform.id}.yaml", "filled_from": filled, "not_filled": left}
    return {
        "open_with": "aiconfigurator_core.sdk.perf_database.load_system_spec(NAME, systems_paths=[FOLDER])",
        "conventions": "SI units; bandwidths per GPU, one direction; node sizes from the platform's records",
        "systems": systems,
        "skipped": skipped,
    }


def _number(value: float) -> int | float:
    return int(value) if value.is_integer() else value


def _system(connection: sqlite3.Connection, platform: Platform) -> tuple[dict[str, Any], dict[str, str]]:
    filled: dict[str, str] = {}
    spec: dict[str, Any] = {}
    gpu: dict[str, Any] = {}
    figures = _figures(connection, platform.accelerator)
    for key, name in GPU_FIGURES:
        if name in figures:
            value, text = figures[name]
            gpu[key] = _number(value)
            filled[f"gpu.{key}"] = f"{platform.accelerator}.{name} ({text})"
    if gpu:
        spec["gpu"] = gpu
    scale_up, scale_out = platform.tiers["scale_up"], platform.tiers["scale_out"]
    own = _figures(connection, platform.id)
    if scale_up is None or figure_names.SCALE_UP_DOMAIN not in own:
        return spec, filled
    domain = own[figure_names.SCALE_UP_DOMAIN][0]
    node: dict[str, Any] = {}
    if figure_names.COMPUTE_TRAYS in own and figure_names.ACCELERATORS in own:
        # A rack-scale domain: GPUs in a tray form the node, the NVLink domain the rack, and the fabric joins racks.
        node["num_gpus_per_node"] = _number(own[figure_names.ACCELERATORS][0] / own[figure_names.COMPUTE_TRAYS][0])
        node["num_gpus_per_rack"] = _number(domain)
        filled["node.num_gpus_per_node"] = f"{platform.id}.accelerators / {platform.id}.compute_trays ({own[figure_names.ACCELERATORS][1]} / {own[figure_names.COMPUTE_TRAYS][1]})"
        filled["node.num_gpus_per_rack"] = f"{platform.id}.scale_up_domain ({own['scale_up_domain'][1]})"
        node["inter_node_bw"] = _number(scale_up.on("per-direction"))
        filled["node.inter_node_bw"] = _bandwidth_origin(scale_up)
        if scale_out is not None:
            node["inter_rack_bw"] = _number(scale_out.on("per-direction"))
            filled["node.inter_rack_bw"] = _bandwidth_origin(scale_out)
    else:
        node["num_gpus_per_node"] = _number(domain)
        filled["node.num_gpus_per_node"] = f"{platform.id}.scale_up_domain ({own['scale_up_domain'][1]})"
        if scale_out is not None:
            node["inter_node_bw"] = _number(scale_out.on("per-direction"))
            filled["node.inter_node_bw"] = _bandwidth_origin(scale_out)
    node["intra_node_bw"] = _number(scale_up.on("per-direction"))
    filled["node.intra_node_bw"] = _bandwidth_origin(scale_up)
    host = _host_link(connection, platform)
    if host is not None:
        node["pcie_bw"] = _number(host[0])
        filled["node.pcie_bw"] = host[1]
    spec["node"] = _ordered(node)
    return spec, filled


_NODE_ORDER = ("num_gpus_per_node", "num_gpus_per_rack", "inter_rack_bw", "inter_node_bw", "intra_node_bw", "pcie_bw")


def _ordered(node: dict[str, Any]) -> dict[str, Any]:
    return {key: node[key] for key in _NODE_ORDER if key in node}


def _node_gaps(node: dict[str, Any]) -> dict[str, str]:
    gaps = {}
    if "inter_node_bw" not in node:
        gaps["inter_node_bw"] = "no scale-out bandwidth for the platform"
    if "pcie_bw" not in node:
        gaps["pcie_bw"] = "no host link with a x16_per_direction_bandwidth figure"
    return gaps


def _bandwidth_origin(bandwidth: Any) -> str:
    halved = ", halved" if bandwidth.direction == "bidirectional" else ""
    return f"{bandwidth.record_id}.{bandwidth.figure} ({bandwidth.direction}{halved})"


def _figures(connection: sqlite3.Connection, record_id: str | None) -> dict[str, tuple[float, str]]:
    if record_id is None:
        return {}
    rows = connection.execute("SELECT name, value, value_text FROM figure WHERE record_id = ?", (record_id,))
    return {name: (value, text) for name, value, text in rows}


def _host_link(connection: sqlite3.Connection, platform: Platform) -> tuple[float, str] | None:
    """The host link's one-direction x16 bandwidth: the platform's host link, else its accelerator's."""
    row = connection.execute(
        "SELECT f.record_id, f.value, f.value_text FROM record_use u JOIN figure f ON f.record_id = u.target_id"
        " AND f.name = 'x16_per_direction_bandwidth' WHERE u.role = 'host_link' AND u.record_id IN (?, ?)"
        " ORDER BY u.record_id = ? DESC LIMIT 1",
        (platform.id, platform.accelerator or "", platform.id),
    ).fetchone()
    return None if row is None else (row[1], f"{row[0]}.x16_per_direction_bandwidth ({row[2]})")
