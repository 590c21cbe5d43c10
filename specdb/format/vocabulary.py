"""The figure names a record may use: what each measures, how it must be counted, and what it means.

A name fixes a figure's dimension, so `scale_out_bandwidth: 400 GB` (a size) is
an error rather than a bandwidth printed as 400 GB/s. Where a figure only
makes sense counted one way (an HBM bandwidth is a `total`, an InfiniBand
port figure is `per-direction`), the name says so too. A new figure name is
added here, with its description; `docs/record-format.md` lists them all and a
test keeps the two in step.
"""

from __future__ import annotations

import re
from typing import NamedTuple

ACCELERATOR, LINK, FABRIC, SYSTEM, CLUSTER = "accelerator", "link", "fabric", "system", "cluster"
ONE_WAY = ("per-direction",)
BOTH_WAYS = ("bidirectional",)
EITHER_WAY = ("per-direction", "bidirectional")


class FigureName(NamedTuple):
    dimension: str
    kinds: tuple[str, ...]
    description: str
    directions: tuple[str, ...] | None = None  # bandwidths: the directions it may be counted in
    scope: str | None = None  # the scope it must have, when only one makes sense
    whole: bool = False  # a count of things, so a whole number
    binary: bool = False  # a DRAM size, which memory makers count in powers of two, so written in binary units


def _bandwidth(kinds: tuple[str, ...], directions: tuple[str, ...], scope: str | None, description: str) -> FigureName:
    return FigureName("bandwidth", kinds, description, directions, scope)


def _count(kinds: tuple[str, ...], description: str, scope: str | None = None) -> FigureName:
    return FigureName("count", kinds, description, scope=scope, whole=True)


FIGURES: dict[str, FigureName] = {
    # accelerators
    "memory_capacity": FigureName(
        "size", (ACCELERATOR,), "on-package memory (HBM, GDDR) capacity of one accelerator, in binary units: a vendor's \"80 GB\" of DRAM is 80 GiB", scope="per-accelerator", binary=True
    ),
    "driver_memory_total": FigureName(
        "size", (ACCELERATOR,), "memory total the driver reports to software (nvidia-smi's memory.total), in binary units; below memory_capacity where some is held back", scope="per-accelerator", binary=True
    ),
    "memory_bandwidth": _bandwidth((ACCELERATOR,), ("total",), "per-accelerator", "peak on-package memory (HBM) bandwidth, reads and writes together"),
    "dense_bf16_flops": FigureName("compute", (ACCELERATOR,), "peak dense BF16 matrix throughput of one accelerator"),
    "dense_fp8_flops": FigureName("compute", (ACCELERATOR,), "peak dense FP8 matrix throughput of one accelerator (MXFP8 where that is the vendor's FP8)"),
    "dense_fp4_flops": FigureName("compute", (ACCELERATOR,), "peak dense FP4 matrix throughput of one accelerator (NVFP4 or MXFP4)"),
    "dense_int8_flops": FigureName("compute", (ACCELERATOR,), "peak dense INT8 matrix operations per second of one accelerator (vendors write TOPS)"),
    "dense_fp16_flops": FigureName("compute", (ACCELERATOR,), "peak dense FP16 matrix throughput of one accelerator"),
    "power": FigureName("power", (ACCELERATOR,), "maximum board power (TDP) of one accelerator", scope="per-accelerator"),
    "scale_up_bandwidth": _bandwidth((ACCELERATOR, SYSTEM), EITHER_WAY, "per-accelerator", "scale-up (accelerator-to-accelerator) bandwidth of one accelerator over all its links; on a system, overrides its accelerator's"),
    "scale_up_ports": _count((ACCELERATOR,), "ports of an accelerator given to scale-up links", "per-accelerator"),
    "roce_ports": _count((ACCELERATOR,), "RoCE Ethernet ports built into an accelerator", "per-accelerator"),
    "roce_port_bandwidth": _bandwidth((ACCELERATOR,), ONE_WAY, "per-port", "bandwidth of one built-in RoCE port, one direction"),
    "integrated_scale_out_bandwidth": _bandwidth((ACCELERATOR,), ONE_WAY, "per-accelerator", "scale-out bandwidth of the network ports built into an accelerator, one direction"),
    "measured_hbm_read_bandwidth": _bandwidth((ACCELERATOR,), ("total",), "per-accelerator", "measured memory read bandwidth"),
    "measured_hbm_write_bandwidth": _bandwidth((ACCELERATOR,), ("total",), "per-accelerator", "measured memory write bandwidth"),
    "measured_hbm_copy_bandwidth": _bandwidth((ACCELERATOR,), ("total",), "per-accelerator", "measured device-to-device copy bandwidth, reads plus writes"),
    "measured_host_to_device_bandwidth": _bandwidth((ACCELERATOR,), ONE_WAY, "per-link", "measured pinned host-to-device copy bandwidth over the host link"),
    "measured_device_to_host_bandwidth": _bandwidth((ACCELERATOR,), ONE_WAY, "per-link", "measured pinned device-to-host copy bandwidth over the host link"),
    "measured_host_to_device_pageable_bandwidth": _bandwidth((ACCELERATOR,), ONE_WAY, "per-link", "measured pageable host-to-device copy bandwidth over the host link"),
    "measured_host_link_bidirectional_bandwidth": _bandwidth((ACCELERATOR,), BOTH_WAYS, "per-link", "measured host-link bandwidth with copies both ways at once, added"),
    # links
    "links_per_accelerator": _count((LINK,), "scale-up links of one accelerator", "per-accelerator"),
    "per_link_bandwidth": _bandwidth((LINK,), ONE_WAY, "per-link", "bandwidth of one link, one direction"),
    "per_link_peak_bandwidth": _bandwidth((LINK,), BOTH_WAYS, "per-link", "vendor's peak figure for one link, both directions added"),
    "per_accelerator_bandwidth": _bandwidth((LINK,), EITHER_WAY, "per-accelerator", "bandwidth of all of one accelerator's links of this kind"),
    "per_port_bandwidth": _bandwidth((LINK,), ONE_WAY, "per-port", "bandwidth of one scale-up port, one direction"),
    "max_domain_size": _count((LINK,), "most accelerators one scale-up domain of this link can join"),
    "max_slice_size": _count((LINK,), "most accelerators one slice (a job's share of a pod) can span"),
    "torus_dimensions": _count((LINK,), "dimensions of the torus the links form (2D, 3D): each accelerator has a link to each of its 2 x d neighbours"),
    "lanes": _count((LINK, FABRIC), "lanes of one link or port"),
    "lanes_per_port": _count((LINK,), "lanes of one port", "per-port"),
    "lane_rate": FigureName("transfer_rate", (LINK,), "signalling rate of one lane, in transfers per second (line rate, before encoding)", scope="per-lane"),
    "lane_bandwidth": _bandwidth((LINK, FABRIC), ONE_WAY, "per-lane", "data rate of one lane, one direction"),
    "encoding_efficiency": FigureName("ratio", (LINK,), "share of the line rate left for data after line encoding (128b/130b: 98.46 %)"),
    "flit_efficiency": FigureName("ratio", (LINK,), "share of a flit left for data after CRC and FEC"),
    "x16_per_direction_bandwidth": _bandwidth((LINK,), ONE_WAY, "per-link", "data bandwidth of a x16 link, one direction"),
    "x16_bidirectional_bandwidth": _bandwidth((LINK,), BOTH_WAYS, "per-link", "data bandwidth of a x16 link, both directions added"),
    "latency": FigureName(
        "time", (LINK, FABRIC), "per-step latency, the alpha of the collective model: a library's modelled constant for one step (NCCL's hwLat), not a hardware hop, unless the note says it is one hop"
    ),
    # memory standards (HBM), recorded as the link between an accelerator and one memory stack
    "interface_width": _count((LINK,), "data pins (bits) of one memory stack's interface"),
    "memory_channels": _count((LINK,), "independent channels of one memory stack"),
    "pin_rate": _bandwidth((LINK,), ("total",), "per-lane", "data rate of one data pin of a memory interface, reads and writes sharing it"),
    "stack_bandwidth": _bandwidth((LINK,), ("total",), "per-link", "peak bandwidth of one memory stack, reads and writes together"),
    # fabrics
    "port_bandwidth": _bandwidth((FABRIC,), ONE_WAY, "per-port", "bandwidth of one network port, one direction"),
    "host_lanes": _count((FABRIC,), "host (PCIe) lanes of a NIC"),
    "streaming_aggregation_trees": _count((FABRIC,), "in-network reduction (SHARP) streaming aggregation trees a subnet of the fabric's switches supports"),
    "stack_layers": _count((FABRIC,), "layers of a protocol stack specification"),
    "adapter_bandwidth": _bandwidth((FABRIC,), ONE_WAY, None, "network bandwidth of one adapter (NIC) over all its ports, one direction"),
    # switches: a switch is a fabric element whose port_bandwidth is the speed of each of its switch_ports
    "switch_ports": _count((FABRIC,), "ports of one switch (its radix) at the record's port_bandwidth"),
    "switch_bandwidth": _bandwidth((FABRIC,), EITHER_WAY, "per-system", "switching capacity of one switch, all its ports added"),
    # systems and clusters
    "accelerators": _count((SYSTEM, CLUSTER), "accelerators in the system or cluster"),
    "scale_up_domain": _count((SYSTEM,), "accelerators in one scale-up domain of the system"),
    "network_reduction_nodes": _count((SYSTEM,), "nodes (scale-up domains) one reduction in the scale-out switches spans in the system's reference design (InfiniBand SHARP, NCCL's CollNet); where a system has it, an all-reduce across domains may reduce in the network"),
    "in_network_reduction_domain": _count(
        (SYSTEM,), "accelerators one reduction in the scale-up switches spans (NVLink SHARP, NCCL's NVLS); where a system has it, an all-reduce may reduce in its switches"
    ),
    "scale_up_aggregate_bandwidth": _bandwidth((SYSTEM,), EITHER_WAY, "per-system", "scale-up bandwidth of the whole domain, all accelerators added"),
    "scale_out_bandwidth": _bandwidth((SYSTEM, CLUSTER), ONE_WAY, "per-accelerator", "scale-out (node-to-node) network bandwidth per accelerator, one direction"),
    "scale_out_nics": _count((SYSTEM,), "scale-out NICs in the system"),
    "scale_out_nics_per_compute_tray": _count((SYSTEM,), "scale-out NICs in one compute tray"),
    "scale_out_nic_port_bandwidth": _bandwidth((SYSTEM,), ONE_WAY, "per-port", "bandwidth of one scale-out NIC port, one direction"),
    "compute_trays": _count((SYSTEM,), "compute trays in a rack-scale system"),
    "accelerators_per_server": _count((CLUSTER,), "accelerators in one server of the cluster"),
    "pod_accelerators": _count((CLUSTER,), "accelerators in one pod (the unit below the cluster's top network layer)"),
    "bf16_mfu": FigureName("ratio", (CLUSTER,), "model FLOP utilisation reported for BF16 training on the cluster"),
}


# Families of names, one figure per measured run: the name tells runs apart, the figure's `collective` block says what ran.
FAMILIES: dict[str, tuple[re.Pattern[str], FigureName]] = {
    "measured_<operation>_busbw_<run>": (
        re.compile(r"measured_(all_reduce|all_gather|reduce_scatter|all_to_all|point_to_point)_busbw_[a-z0-9_]+"),
        _bandwidth((SYSTEM, CLUSTER), ONE_WAY, None, "bus bandwidth (nccl-tests' busbw) of one measured collective run, per accelerator or per NIC; its `collective` block says what ran"),
    ),
}


def lookup(name: str) -> FigureName | None:
    if name in FIGURES:
        return FIGURES[name]
    return next((entry for pattern, entry in FAMILIES.values() if pattern.fullmatch(name)), None)


def suggestion(name: str) -> str:
    """'; did you mean ...?' for an unknown name, or a pointer to the list."""
    from specdb.suggest import did_you_mean  # only on this error path

    return did_you_mean(name, FIGURES, n=1) or "; `specdb query names` lists the figure names"


def rows() -> list[dict[str, object]]:
    """The vocabulary as rows, for `specdb query names` and the documentation."""
    return [
        {
            "name": name,
            "dimension": entry.dimension,
            "kinds": ", ".join(entry.kinds),
            "direction": "/".join(entry.directions) if entry.directions else None,
            "scope": entry.scope,
            "whole_number": entry.whole,
            "description": entry.description,
        }
        for name, entry in [*FIGURES.items(), *((family, entry) for family, (_, entry) in FAMILIES.items())]
    ]
