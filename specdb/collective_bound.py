"""The peak bound of a collective: the bytes each phase sends over a platform's tiers, at the links' peak figures.

Alpha-beta: a phase takes steps x alpha + bytes / bandwidth. Bandwidth is the
tier's per-accelerator figure on the chosen basis; alpha is the link's or
fabric's `latency` figure where the data has one, else the value given with
--latency, else 0, and every phase says which.

Beyond the scale-up domain the collective is hierarchical, as NCCL and RCCL
run it: inside each domain over the scale-up links, across domains over the
network, one network rail per accelerator. Domains are filled in turn, so 12
GPUs on 8-GPU nodes are a domain of 8 and one of 4; a partly filled domain
reaches the network through the NICs of its whole domain (NCCL's PXN sends a
GPU's traffic through a neighbour's NIC over the scale-up fabric), so it is
not slower than a full one. The phases of a hierarchical collective are
pipelined: the busiest tier sets the transfer time, while every phase's
latency adds up.
"""

from __future__ import annotations

import math
import sqlite3
from dataclasses import dataclass, field

from specdb.errors import UsageError
from specdb.terms import COLLECTIVE_OPERATIONS
from specdb.tiers import Bandwidth, Platform

OPERATIONS = COLLECTIVE_OPERATIONS
ALGORITHMS = ("ring", "tree", "nvls")
TIER_CHOICES = ("auto", "scale-up", "scale-out")


@dataclass(frozen=True)
class Phase:
    """One step of a collective on one tier: what each accelerator (or NIC) sends, how fast, and how many latency steps."""

    name: str
    tier: str
    algorithm: str
    accelerators: int | None
    bytes_per_accelerator: float
    steps: int
    bandwidth: float
    bandwidth_counted: str
    bandwidth_source: str
    per_direction_bandwidth: float
    latency: float
    latency_source: str

    @property
    def transfer_seconds(self) -> float:
        return self.bytes_per_accelerator / self.bandwidth

    @property
    def latency_seconds(self) -> float:
        return self.steps * self.latency


@dataclass(frozen=True)
class Bound:
    """The phases of one collective on one platform, and its peak-bound time."""

    operation: str
    algorithm: str
    platform: str
    basis: str
    size_bytes: float
    accelerators: int | None
    domains: list[int] = field(default_factory=list)
    phases: list[Phase] = field(default_factory=list)

    @property
    def seconds(self) -> float:
        return pipelined(self.phases, lambda phase: phase.transfer_seconds, lambda phase: phase.latency_seconds)

    @property
    def bound_by(self) -> str:
        return busiest_tier(self.phases, lambda phase: phase.transfer_seconds)


def pipelined(phases, transfer, latency) -> float:
    """The busiest tier's transfer time plus every phase's latency.

    Pipelined phases overlap on different tiers, but phases on the same tier
    (the reduce-scatter and all-gather inside a domain) share its links, so
    their transfer times add up; start-up latencies never overlap.
    """
    return max(tier_loads(phases, transfer).values()) + sum(latency(phase) for phase in phases)


def tier_loads(phases, transfer) -> dict[str, float]:
    """Transfer time per tier: the phases sharing a tier's links, added up."""
    loads: dict[str, float] = {}
    for phase in phases:
        loads[phase.tier] = loads.get(phase.tier, 0.0) + transfer(phase)
    return loads


def busiest_tier(phases, transfer) -> str:
    loads = tier_loads(phases, transfer)
    return max(loads, key=loads.__getitem__)


def bus_factor(operation: str, accelerators: int | None) -> float:
    """nccl-tests' busbw / algbw: 2(n-1)/n for all-reduce, (n-1)/n for all-gather, reduce-scatter and all-to-all, 1 otherwise."""
    share = 1.0 if accelerators is None else (accelerators - 1) / accelerators
    if operation == "all-reduce":
        return 2 * share
    if operation in ("all-gather", "reduce-scatter", "all-to-all"):
        return share
    return 1.0


@dataclass(frozen=True)
class Topology:
    """What the bound reads of a platform: its tiers, the scale-up link's shape, and latency figures."""

    platform: Platform
    domain: int | None
    direct_pair: Bandwidth | None
    latencies: dict[str, tuple[float, str] | None]

    @classmethod
    def read(cls, connection: sqlite3.Connection, platform: Platform) -> "Topology":
        domain = int(platform.domain_size) if platform.domain_size else None
        return cls(platform, domain, _direct_pair(connection, platform, domain), {
            "scale-up": _latency_figure(connection, platform.scale_up_link),
            "scale-out": _latency_figure(connection, platform.scale_out_fabric),
        })

    def bandwidth(self, tier: str) -> Bandwidth:
        found = self.platform.tiers["scale_up" if tier == "scale-up" else "scale_out"]
        if found is None:
            raise UsageError(f"{self.platform.id} has no {tier} bandwidth in the data")
        return found


def _direct_pair(connection: sqlite3.Connection, platform: Platform, domain: int | None) -> Bandwidth | None:
    """A fully connected mesh (a link to each peer, as MI300X's xGMI): a pair of accelerators shares one link."""
    link = platform.scale_up_link
    if link is None or domain is None:
        return None
    links = connection.execute("SELECT value FROM figure WHERE record_id = ? AND name = 'links_per_accelerator'", (link,)).fetchone()
    per_link = connection.execute("SELECT value, direction FROM figure WHERE record_id = ? AND name = 'per_link_bandwidth'", (link,)).fetchone()
    if links is None or per_link is None or int(links[0]) != domain - 1:
        return None
    return Bandwidth(per_link[0], per_link[1], link, "per_link_bandwidth")


def _latency_figure(connection: sqlite3.Connection, record: str | None) -> tuple[float, str] | None:
    if record is None:
        return None
    row = connection.execute("SELECT value FROM figure WHERE record_id = ? AND name = 'latency'", (record,)).fetchone()
    return None if row is None else (row[0], f"{record}.latency")


def fill_domains(accelerators: int, domain: int) -> list[int]:
    """Domains filled in turn: 12 on 8-GPU domains are [8, 4]."""
    full, rest = divmod(accelerators, domain)
    return [domain] * full + ([rest] if rest else [])


def without_count(tier: str, accelerators: int | None) -> str:
    """auto with no accelerator count is the large-ring limit inside the scale-up domain."""
    return "scale-up" if tier == "auto" and accelerators is None else tier


def bound(
    topology: Topology,
    operation: str,
    *,
    size_bytes: float,
    accelerators: int | None,
    tier: str,
    algorithm: str,
    basis: str,
    assumed_latency: float | None = None,
    domains: list[int] | None = None,
) -> Bound:
    """The phases and peak-bound time of one collective.

    tier is auto, scale-up or scale-out; accelerators=None takes the large-ring limit, which auto places in
    the scale-up domain (the back-of-envelope reading: "how fast is this link for a big ring").
    domains, when given, is how the accelerators were spread over domains (a measured run's nodes) instead of filling them in turn.
    """
    platform, domain = topology.platform, topology.domain
    tier = without_count(tier, accelerators)
    if tier == "auto":
        if domain is None:
            raise UsageError(f"{platform.id} has no scale_up_domain figure; choose --tier")
        tier = "scale-up" if accelerators <= domain and not (domains and len(domains) > 1) else "hierarchical"
    elif tier == "scale-up" and accelerators is not None and domain is not None and accelerators > domain:
        raise UsageError(f"{accelerators} accelerators do not fit in {platform.id}'s scale-up domain of {domain}; use --tier scale-out or auto")
    if algorithm == "nvls" and tier != "scale-up":
        raise UsageError("NVLink SHARP (nvls) reduces inside one scale-up domain; use --gpus within the domain or another algorithm")
    if tier == "hierarchical":
        assert accelerators is not None and domain is not None
        domains = sorted(domains, reverse=True) if domains else fill_domains(accelerators, domain)
        phases = _hierarchical(topology, operation, size_bytes, accelerators, domains, algorithm, basis, assumed_latency)
        return Bound(operation, algorithm, platform.id, basis, size_bytes, accelerators, domains, phases)
    sent, steps = _flat(operation, algorithm, size_bytes, accelerators)
    bandwidth = topology.bandwidth(tier)
    name = f"{operation} ({algorithm})"
    if operation == "point-to-point" and tier == "scale-up" and topology.direct_pair is not None:
        bandwidth = topology.direct_pair
        name = "point-to-point over the one link a pair of accelerators shares"
    phase = _phase(topology, tier, name, algorithm, accelerators, sent, steps, bandwidth, basis, assumed_latency)
    return Bound(operation, algorithm, platform.id, basis, size_bytes, accelerators, [], [phase])


def _flat(operation: str, algorithm: str, size: float, count: int | None) -> tuple[float, int]:
    """Bytes each accelerator sends, and latency steps, inside one tier (count None: the large-ring limit)."""
    share = 1.0 if count is None else (count - 1) / count
    ring_steps = 0 if count is None else count - 1
    if operation == "all-reduce":
        if algorithm == "nvls":
            # The switch reduces: each accelerator sends its buffer once and receives the result once.
            return size, 2
        if algorithm == "tree":
            return 2 * size, 0 if count is None else 2 * math.ceil(math.log2(max(count, 2)))
        return 2 * share * size, 2 * ring_steps
    if operation == "all-to-all":
        # Every message is posted at once: one round of latency, not one per peer.
        return share * size, 1
    if operation in ("all-gather", "reduce-scatter"):
        return share * size, ring_steps
    return size, 1


def _hierarchical(topology: Topology, operation: str, size: float, count: int, domains: list[int], algorithm: str, basis: str, assumed: float | None) -> list[Phase]:
    """Inside each domain over scale-up, across domains over the network (one rail per accelerator of a domain)."""
    largest, groups = domains[0], len(domains)
    shape = f"{groups} domains of {largest}" if len(set(domains)) == 1 else f"{groups} domains ({', '.join(map(str, domains))})"
    up, out = topology.bandwidth("scale-up"), topology.bandwidth("scale-out")

    def phase(tier: str, name: str, algo: str, gpus: int, sent: float, steps: int) -> Phase:
        return _phase(topology, tier, name, algo, gpus, sent, steps, up if tier == "scale-up" else out, basis, assumed)

    inside_share, inside_steps = (largest - 1) / largest * size, largest - 1
    across_share = (groups - 1) / groups * size / largest
    if operation == "point-to-point":
        return [phase("scale-out", "point-to-point across domains, one NIC", "ring", 2, size, 1)]
    if operation == "all-to-all":
        remote = (count - largest) / count * size
        return [
            phase("scale-up", f"all-to-all inside the domain ({shape})", "ring", largest, (largest - 1) / count * size, 1),
            phase("scale-out", "all-to-all to the other domains, through each accelerator's NIC", "ring", count, remote, 1),
        ]
    if operation == "all-reduce":
        across_algorithm = "tree" if algorithm == "tree" else "ring"
        if across_algorithm == "tree":
            across = (2 * size / largest, 2 * math.ceil(math.log2(max(groups, 2))))
        else:
            across = (2 * across_share, 2 * (groups - 1))
        return [
            phase("scale-up", f"reduce-scatter inside the domain ({shape})", "ring", largest, inside_share, inside_steps),
            phase("scale-out", f"all-reduce of 1/{largest} across {groups} domains ({across_algorithm})", across_algorithm, groups, *across),
            phase("scale-up", "all-gather inside the domain", "ring", largest, inside_share, inside_steps),
        ]
    across = phase("scale-out", f"{operation} of 1/{largest} across {groups} domains", "ring", groups, across_share, groups - 1)
    inside = phase("scale-up", f"{operation} inside the domain ({shape})", "ring", largest, inside_share, inside_steps)
    return [across, inside] if operation == "all-gather" else [inside, across]


def _phase(topology: Topology, tier: str, name: str, algorithm: str, count: int | None, sent: float, steps: int, bandwidth: Bandwidth, basis: str, assumed: float | None) -> Phase:
    latency, latency_source = _bound_latency(topology, tier, assumed)
    return Phase(
        name, tier, algorithm, count, sent, steps, bandwidth.on(basis), bandwidth.counted(basis),
        f"{bandwidth.record_id}.{bandwidth.figure}", bandwidth.on("per-direction"), latency, latency_source,
    )


def _bound_latency(topology: Topology, tier: str, assumed: float | None) -> tuple[float, str]:
    figure = topology.latencies.get(tier)
    if figure is not None:
        return figure
    if assumed is not None:
        return assumed, "--latency"
    record = topology.platform.scale_up_link if tier == "scale-up" else topology.platform.scale_out_fabric
    return 0.0, f"assumed 0: no latency figure for {record or tier} in the data"
