"""Which algorithm NCCL itself would run: its tuner's predicted time for each algorithm the topology offers.

NCCL picks the algorithm with the least time in its own cost model (src/graph/tuning.cc of NVIDIA/nccl, commit
5067397c; its maintainer: "we have models of each combination and for each size, we estimate how much time each
would take, then take the lowest", NVIDIA/nccl issue 457), not the one that runs fastest: its model knows the links'
peak figures and its own constants, never a cluster's measured rates. A tree whose measured rate is half the ring's is
still the tree NCCL runs where its model favours it. So the estimate chooses with NCCL's model and then expects the
chosen algorithm's measured rates.

The model here is NCCL's for the Simple protocol, the one it runs large messages with: a base latency, a latency per
step (NVLink, PCI or network; a multi-node ring pays at least three times the network overhead a step inside a node,
and its whole latency times 1.4, "the plateau effect of ring"), and the peak transfer time scaled by each algorithm's
factor (the tree 0.92 and its per-channel cap, NVLink SHARP its `nvlsEfficiency`, CollNet 0.85 from Hopper on).
NCCL counts a node as an NVLink domain (its nodes are the rings' segments, an NVL72 rack under MNNVL), so nodes here
are the bound's domains.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from specdb.collective.bound import NETWORK_RAILS, Bound, domain_count

# ncclTunerConstantsDefaults, Simple protocol, microseconds.
BASE_LATENCY = {"ring": 8.4, "tree": 8.4, "collnet": 0.0, "nvls": 0.0}
STEP_LATENCY = {
    "nvlink": {"ring": 3.4, "tree": 4.0, "collnet": 3.7, "nvls": 25.0},
    "pci": {"ring": 5.7, "tree": 4.0, "collnet": 3.7, "nvls": 0.0},
    "network": {"ring": 14.0, "tree": 14.0, "collnet": 31.0, "nvls": 18.0},
}
# getNetOverhead on an x86 Intel or an Arm host (an AMD host's is 2.0; the data does not say the host's CPU).
NET_OVERHEAD = 1.0
RING_PLATEAU = 1.4  # `lat *= comm->minCompCap < 80 ? 1.9 : 1.4; // Plateau effect of ring`, from Ampere on
TREE_FACTOR = 0.92
COLLNET_FACTOR = 0.85  # CollNet Direct, `if (minCompCap >= 90) busBw *= .85`
NVLS_EFFICIENCY = {"hopper": 0.85, "blackwell": 0.74}
# perChMaxTreeBws, GB/s a channel, for 1, 2 and more nodes. NCCL 2.28.3 lowered Blackwell's from twice Hopper's
# (77.4, 82.8, 72.0 through 2.27.7) to 70.0, 42.8 and 24.0.
TREE_CHANNEL_CAP = {"ampere": (24.0, 23.6, 17.8), "hopper": (38.7, 41.4, 36.0), "blackwell": (70.0, 42.8, 24.0)}
BLACKWELL_TREE_CAP_BEFORE_2_28 = (77.4, 82.8, 72.0)
# treeCorrectionFactor, Simple protocol, by log2(size / 64 B): NCCL applies it to the tree below 23 (under 512 MiB).
TREE_CORRECTION = (.9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5, .5, .5, .5, .6, .7, .8, .7, .7, .8, .9, .9)
# NCCL indexes its constants by the GPU's compute capability; the NVLink generation names it.
GENERATION = {"nvlink-3": "ampere", "nvlink-4": "hopper", "nvlink-5": "blackwell", "nvlink-6": "blackwell"}
_VERSION = re.compile(r"\bNCCL\s+(\d+)\.(\d+)")


@dataclass(frozen=True)
class Choice:
    algorithm: str
    predicted: dict[str, float]  # NCCL's predicted seconds by algorithm
    constants: str  # whose constants: the NCCL version and GPU generation

    def line(self) -> str:
        times = ", ".join(f"{name} {seconds * 1e3:.3g} ms" for name, seconds in self.predicted.items())
        return f"NCCL's tuner's choice: the least time in its own model ({self.constants}, Simple protocol): {times}"


def choose(bounds: dict[str, Bound], scale_up_link: str | None, library: str | None = None) -> Choice:
    """The algorithm NCCL's tuner would pick among the bounds given (one per algorithm), and its predicted times."""
    generation = GENERATION.get(scale_up_link or "")
    version = _version(library)
    predicted = {name: predicted_seconds(found, scale_up_link, generation, version) for name, found in bounds.items()}
    named = f"NCCL {version[0]}.{version[1]}" if version else "NCCL 2.28 and later"
    constants = f"{named}, {generation.capitalize() if generation else 'no NVIDIA generation: no tree cap'}"
    return Choice(min(predicted, key=predicted.__getitem__), predicted, constants)


def predicted_seconds(found: Bound, scale_up_link: str | None, generation: str | None, version: tuple[int, int] | None) -> float:
    """NCCL's predicted time of one algorithm: its latency plus the peak transfer time at its bandwidth factor."""
    algorithm, count, size = found.algorithm, found.accelerators, found.size_bytes
    transfer = max(phase.bytes_per_accelerator / phase.per_direction_bandwidth for phase in found.phases)
    if count is None:
        nodes, latency = 1, 0.0  # the large-N limit counts no steps
    else:
        nodes = domain_count(found.domains) if found.domains else (count if found.phases[0].tier == "scale-out" else 1)
        latency = _latency_us(algorithm, found.operation, count, nodes, size, "pci" if (scale_up_link or "").startswith("pcie") else "nvlink") * 1e-6
    if algorithm == "tree":
        transfer /= TREE_FACTOR
        cap = _tree_cap(generation, version)
        if cap is not None:
            # NCCL caps the tree's bus bandwidth at the cap times its channels; its algbw is half that.
            transfer = max(transfer, size / (0.5 * NETWORK_RAILS * cap[min(nodes, 3) - 1] * 1e9))
        log_size = int(math.log2(size // 64)) if size >= 64 else -1
        if 0 <= log_size < len(TREE_CORRECTION):
            transfer /= TREE_CORRECTION[log_size]
    elif algorithm == "nvls":
        transfer /= NVLS_EFFICIENCY.get(generation or "", 1.0)
    elif algorithm == "collnet" and generation in ("hopper", "blackwell"):
        transfer /= COLLNET_FACTOR
    return latency + transfer


def _latency_us(algorithm: str, operation: str, count: int, nodes: int, size: float, intra_hw: str) -> float:
    per_node = count // nodes  # NCCL's nRanks / nNodes, in integers
    intra, network = STEP_LATENCY[intra_hw][algorithm], STEP_LATENCY["network"][algorithm]
    if algorithm == "ring":
        steps = 2 * (count - 1) if operation == "all-reduce" else count - 1
        network_steps = 0 if nodes == 1 else (2 * (nodes - 1) if operation == "all-reduce" else nodes - 1)
        if nodes > 1:
            intra = max(intra, 3 * NET_OVERHEAD)
        latency = BASE_LATENCY["ring"] + (steps - network_steps) * intra + network_steps * network
        # The plateau applies where each channel's share of a rank is at least 64 bytes: every large message.
        plateau = nodes > 1 and operation == "all-reduce" and size / (NETWORK_RAILS * count) >= 64
        return latency * (RING_PLATEAU if plateau else 1.0)
    if algorithm == "tree":
        return BASE_LATENCY["tree"] + 2 * ((per_node - 1) * intra + int(math.log2(nodes)) * network)
    if algorithm == "collnet":
        return 2 * (min(1, per_node - 1) * intra + (per_node - 1) * 0.4) + network
    return intra + (network if nodes > 1 else 0.0)  # nvls


def _tree_cap(generation: str | None, version: tuple[int, int] | None) -> tuple[float, float, float] | None:
    if generation == "blackwell" and version is not None and version < (2, 28):
        return BLACKWELL_TREE_CAP_BEFORE_2_28
    return TREE_CHANNEL_CAP.get(generation or "")


def _version(library: str | None) -> tuple[int, int] | None:
    found = _VERSION.search(library or "")
    return (int(found.group(1)), int(found.group(2))) if found else None
