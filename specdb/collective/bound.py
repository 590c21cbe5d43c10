"""The peak bound of a collective: the bytes each phase sends over a platform's tiers, at the links' peak figures.

Alpha-beta: a phase takes steps x alpha + bytes / bandwidth. Bandwidth is the
tier's per-accelerator figure on the chosen basis; alpha is the link's or
fabric's `latency` figure where the data has one, else the value given with
--latency, else 0, and every phase says which.

Beyond the scale-up domain the collective has a phase on each tier, as NCCL
and RCCL run it: the ring is one flat ring of all the accelerators, each of
its channels leaving a domain through one NIC (at most NETWORK_RAILS of them),
so a NIC carries 2(n-1)/n of the buffer over the NICs in use, and its latency
steps are the flat ring's, 2(n-1), of which 2(G-1) cross the network; the tree
is a chain inside each domain and a double binary tree across. Domains are
filled in turn, so 12 GPUs on 8-GPU nodes are a domain of 8 and one of 4; a
partly filled domain reaches the network through the NICs of its whole domain
(NCCL's PXN sends a GPU's traffic through a neighbour's NIC over the scale-up
fabric), so its transfers are not longer than a full one's. The phases are
pipelined: the busiest tier sets the transfer time, while every phase's
latency adds up.

Where the scale-out fabric's switches reduce in the network (InfiniBand
SHARP streaming aggregation), an all-reduce across domains can send each
NIC's share once and receive the result once (NCCL's CollNet), and NVLink
SHARP inside the domains can be combined with it (NCCL's NVLS with SHARP);
without it NCCL keeps NVLS to one domain, and so does the bound.

Point-to-point inside the scale-up domain goes over the links a pair of
accelerators shares: one link of a fully connected mesh (MI300X's xGMI), one
link of a torus between neighbours (TPU ICI), everything through a switch.
"""

from __future__ import annotations

import math
import sqlite3
from dataclasses import dataclass, field, replace

from specdb.format import figure_names
from specdb.errors import UsageError
from specdb.format.terms import COLLECTIVE_ALGORITHMS, COLLECTIVE_OPERATIONS
from specdb.db.figures import DatabaseFigures
from specdb.format.counting import Bandwidth
from specdb.analysis.tiers import Platform

OPERATIONS = COLLECTIVE_OPERATIONS
ALGORITHMS = COLLECTIVE_ALGORITHMS
TIER_CHOICES = ("auto", "scale-up", "scale-out")
# The most accelerators a collective is estimated for: a hundred times the largest clusters built. The sums are
# arithmetic in the count (domains are kept as runs of equal domains), so the limit only keeps the figures meaningful.
MAX_ACCELERATORS = 100_000_000


@dataclass(frozen=True)
class Domains:
    """Domains of equal size, `count` of them with `accelerators` each: 12 GPUs on 8-GPU domains are Domains(8, 1) and Domains(4, 1)."""

    accelerators: int
    count: int


def domain_count(domains: list[Domains]) -> int:
    return sum(run.count for run in domains)


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

    @property
    def latency_left_out(self) -> bool:
        """A ring's or tree's steps grow with the accelerators, so the large-N limit (no count) cannot count them."""
        return self.accelerators is None and self.steps == 0


@dataclass(frozen=True)
class Bound:
    """The phases of one collective on one platform, and its peak-bound time."""

    operation: str
    algorithm: str
    platform: str
    basis: str
    size_bytes: float
    accelerators: int | None
    domains: list[Domains] = field(default_factory=list)  # largest first
    phases: list[Phase] = field(default_factory=list)

    @property
    def seconds(self) -> float:
        return pipelined(self.phases, lambda phase: phase.transfer_seconds, lambda phase: phase.latency_seconds)

    @property
    def bound_by(self) -> str:
        return slowest_phase(self.phases, lambda phase: phase.transfer_seconds + phase.latency_seconds).tier


def pipelined(phases, transfer, latency) -> float:
    """The slowest phase's transfer time plus every phase's latency.

    Pipelined phases overlap, and each tier carries one phase (the reduce-scatter
    and all-gather inside a domain share its links, so they are one phase);
    start-up latencies never overlap.
    """
    return max(transfer(phase) for phase in phases) + sum(latency(phase) for phase in phases)


def slowest_phase(phases, seconds):
    """The phase that takes longest, its transfer and its own latency together: the one a table's `bound by` names."""
    return max(phases, key=seconds)


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
    """What the bound reads of a platform: its tiers, the scale-up link's shape, latency figures and in-network reduction.

    in_network_reduction names the figure saying the scale-out fabric's switches can reduce (InfiniBand SHARP),
    network_reduction the platform's figure saying its reference design enables that, scale_up_reduction the
    platform's figure saying its scale-up switches reduce (NVLink SHARP), each as `record.figure`. The switches'
    capability is what an explicit --algorithm collnet needs; the platform's word is what the automatic choice needs.
    """

    platform: Platform
    domain: int | None
    pair: "Pair | None"
    latencies: dict[str, tuple[float, str] | None]
    in_network_reduction: str | None = None
    scale_up_reduction: str | None = None
    network_reduction: str | None = None

    @classmethod
    def read(cls, connection: sqlite3.Connection, platform: Platform) -> "Topology":
        domain = int(platform.domain_size) if platform.domain_size else None
        figures = DatabaseFigures(connection)
        return cls(platform, domain, _pair(figures, platform, domain), {
            "scale-up": _figure(figures, platform.scale_up_link, figure_names.LATENCY),
            "scale-out": _figure(figures, platform.scale_out_fabric, figure_names.LATENCY),
        }, _named(figures, platform.scale_out_fabric, figure_names.STREAMING_AGGREGATION_TREES),
            _named(figures, platform.id, figure_names.IN_NETWORK_REDUCTION_DOMAIN), _named(figures, platform.id, figure_names.NETWORK_REDUCTION_NODES))

    def without_in_network_reduction(self) -> "Topology":
        """The same platform with neither switch reducing: a cluster that does not enable SHARP, or --no-in-network."""
        return replace(self, in_network_reduction=None, scale_up_reduction=None, network_reduction=None)

    def bandwidth(self, tier: str) -> Bandwidth:
        found = self.platform.tiers[{"scale-up": "scale_up", "scale-out": "scale_out"}[tier]]
        if found is None:
            raise UsageError(f"{self.platform.id} has no {tier} bandwidth in the data")
        return found


@dataclass(frozen=True)
class Pair:
    """The bandwidth two accelerators of one domain have between them when the links are not switched."""

    bandwidth: Bandwidth
    shape: str


def _pair(figures: DatabaseFigures, platform: Platform, domain: int | None) -> Pair | None:
    """A torus (a link to each of 2 x d neighbours) or a fully connected mesh (a link to each peer): a pair shares one link."""
    link = platform.scale_up_link
    if link is None or domain is None:
        return None
    torus, per_accelerator = figures.figure(link, figure_names.TORUS_DIMENSIONS), figures.figure(link, figure_names.PER_ACCELERATOR_BANDWIDTH)
    if torus is not None and per_accelerator is not None:
        neighbours = 2 * int(torus.value)
        return Pair(Bandwidth(per_accelerator.value / neighbours, per_accelerator.direction, link, f"per_accelerator_bandwidth / {neighbours} torus neighbours"),
                    "the one link two neighbours on the torus share")
    links, per_link = figures.figure(link, figure_names.LINKS_PER_ACCELERATOR), figures.figure(link, figure_names.PER_LINK_BANDWIDTH)
    if links is None or per_link is None or int(links.value) != domain - 1:
        return None
    return Pair(per_link, "the one link a pair of accelerators shares")


def _figure(figures: DatabaseFigures, record: str | None, name: str) -> tuple[float, str] | None:
    found = figures.figure(record, name)
    return None if found is None else (found.value, f"{record}.{name}")


def _named(figures: DatabaseFigures, record: str | None, name: str) -> str | None:
    """`record.figure` where the record has the figure (what an in-network reduction relies on), else None."""
    found = _figure(figures, record, name)
    return None if found is None else found[1]


def fill_domains(accelerators: int, domain: int) -> list[Domains]:
    """Domains filled in turn: 12 on 8-GPU domains are one of 8 and one of 4."""
    full, rest = divmod(accelerators, domain)
    return spread_over([(domain, full), (rest, 1 if rest else 0)])


def even_domains(accelerators: int, domains: int) -> list[Domains]:
    """Accelerators spread as evenly as they go over a number of domains (a measured run's nodes): 12 over 5 are 3, 3, 2, 2, 2."""
    share, rest = divmod(accelerators, domains)
    return spread_over([(share + 1, rest), (share, domains - rest)])


def spread_over(runs: list[tuple[int, int]]) -> list[Domains]:
    """Runs of (accelerators, count), the empty ones left out, largest domains first."""
    return sorted((Domains(size, count) for size, count in runs if size and count), key=lambda run: -run.accelerators)


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
    domains: list[Domains] | None = None,
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
        tier = "scale-up" if accelerators <= domain and not (domains and domain_count(domains) > 1) else "hierarchical"
    elif tier == "scale-up" and accelerators is not None and domain is not None and accelerators > domain:
        raise UsageError(f"{accelerators} accelerators do not fit in {platform.id}'s scale-up domain of {domain}; use --tier scale-out or auto")
    if algorithm in ("nvls", "collnet") and tier == "scale-out":
        raise UsageError(f"--algorithm {algorithm} reduces in the switches of a hierarchical all-reduce, not over a flat network ring; use --tier auto")
    if algorithm == "collnet" and tier == "scale-up":
        raise UsageError("collnet reduces in the network switches across scale-up domains; use --gpus beyond one domain, or another algorithm")
    if tier == "hierarchical" and algorithm in ("nvls", "collnet") and topology.in_network_reduction is None:
        fabric = platform.scale_out_fabric or "its scale-out fabric"
        why = " (NCCL runs NVLS across nodes only with SHARP)" if algorithm == "nvls" else ""
        raise UsageError(f"{fabric} has no in-network reduction (SHARP) in the data, so {algorithm} cannot span {platform.id}'s domains{why}; choose ring or tree")
    if tier == "hierarchical":
        assert accelerators is not None and domain is not None
        domains = spread_over([(run.accelerators, run.count) for run in domains]) if domains else fill_domains(accelerators, domain)
        phases = _hierarchical(topology, operation, size_bytes, accelerators, domains, algorithm, basis, assumed_latency)
        return Bound(operation, algorithm, platform.id, basis, size_bytes, accelerators, domains, phases)
    sent, steps = _flat(operation, algorithm, size_bytes, accelerators)
    bandwidth = topology.bandwidth(tier)
    name = f"{operation} ({algorithm})"
    if operation == "point-to-point" and tier == "scale-up" and topology.pair is not None:
        bandwidth = topology.pair.bandwidth
        name = f"point-to-point over {topology.pair.shape}"
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


def _hierarchical(topology: Topology, operation: str, size: float, count: int, domains: list[Domains], algorithm: str, basis: str, assumed: float | None) -> list[Phase]:
    """Inside each domain over scale-up, across domains over the network through network_rails(largest) NICs a domain."""
    largest, groups = domains[0].accelerators, domain_count(domains)
    shape = f"{groups} domains of {largest}" if len(domains) == 1 else (
        f"{groups} domains ({', '.join(str(run.accelerators) if run.count == 1 else f'{run.count} of {run.accelerators}' for run in domains)})")
    up, out = topology.bandwidth("scale-up"), topology.bandwidth("scale-out")

    def phase(tier: str, name: str, algo: str, gpus: int, sent: float, steps: int) -> Phase:
        return _phase(topology, tier, name, algo, gpus, sent, steps, up if tier == "scale-up" else out, basis, assumed)

    rails = network_rails(largest)
    inside_share, inside_steps = (largest - 1) / largest * size, largest - 1
    # One flat ring of all the accelerators, its channels spread over the rails: each NIC carries its rail's share of
    # what every ring member sends, (n - 1)/n of the buffer a pass, whatever the number of domains.
    across_share = (count - 1) / count * size / rails
    # A ring spanning domains is one flat ring of all the accelerators (NCCL's ring latency model): of its n - 1 steps a
    # pass, groups - 1 cross the network and n - groups stay inside a domain, so inside steps grow with the domains.
    ring_inside_steps = count - groups
    shard = f"1/{rails}"
    if operation == "point-to-point":
        return [phase("scale-out", "point-to-point across domains, one NIC", "ring", 2, size, 1)]
    if operation == "all-to-all":
        remote = (count - largest) / count * size
        return [
            phase("scale-up", f"all-to-all inside the domain ({shape})", "ring", largest, (largest - 1) / count * size, 1),
            phase("scale-out", "all-to-all to the other domains, through each accelerator's NIC", "ring", count, remote, 1),
        ]
    if operation == "all-reduce" and algorithm in ("collnet", "nvls"):
        return _in_network_all_reduce(topology, phase, size, domains, shape, algorithm)
    if operation == "all-reduce":
        across_algorithm = "tree" if algorithm == "tree" else "ring"
        if across_algorithm == "tree":
            # NCCL's tree: a chain inside each domain (2 (D - 1) steps) and a double binary tree of 2 log2(groups) across.
            # Each of the two trees carries half the buffer; a domain inside one tree receives from two children and sends
            # to its parent (and back down), a leaf of the other sends and receives once: 2 buffers each way. Of 2
            # domains, each is the root of one tree and the leaf of the other: one buffer each way.
            tree_buffers = 1 if groups == 2 else 2
            across, steps_inside = (tree_buffers * size / rails, 2 * math.ceil(math.log2(max(groups, 2)))), 2 * inside_steps
        else:
            across, steps_inside = (2 * across_share, 2 * (groups - 1)), 2 * ring_inside_steps
        return [
            phase("scale-up", f"reduce-scatter and all-gather inside the domain ({shape})", "ring", largest, 2 * inside_share, steps_inside),
            phase("scale-out", f"all-reduce of {shard} across {groups} domains ({across_algorithm})", across_algorithm, groups, *across),
        ]
    across = phase("scale-out", f"{operation} of {shard} across {groups} domains", "ring", groups, across_share, groups - 1)
    inside = phase("scale-up", f"{operation} inside the domain ({shape})", "ring", largest, inside_share, ring_inside_steps)
    return [across, inside] if operation == "all-gather" else [inside, across]


# A ring or tree leaves a domain through one NIC per channel, and NCCL runs 16 channels on NVSwitch systems: an 8-GPU
# H800 node logs "16 coll channels" (NVIDIA/nccl issue 892), and its maintainer says a multi-node NVLink system uses
# as many as a node, "In MNNVL systems each GPU is still connected to an NVSwitch so there is no difference in the
# number of channels used" (issue 1429). So at most 16 of a domain's NICs carry a ring or tree across domains: all 8
# of an HGX node's, 16 of an NVL72 rack's 72.
NETWORK_RAILS = 16


def network_rails(domain: int) -> int:
    """The NICs of a domain a ring or tree crosses the network through: one per accelerator (PXN), at most NETWORK_RAILS."""
    return min(domain, NETWORK_RAILS)


def _in_network_all_reduce(topology: Topology, phase, size: float, domains: list[Domains], shape: str, algorithm: str) -> list[Phase]:
    """Across domains the switches reduce: each NIC sends its 1/largest share once and receives the sum once (2 steps).

    Inside, collnet keeps the ring's reduce-scatter and all-gather; nvls uses NVLink SHARP, whose bytes (each
    accelerator sends its buffer once and receives the result once) split between its reduce and broadcast halves.
    """
    largest, groups = domains[0].accelerators, domain_count(domains)
    across = phase("scale-out", f"all-reduce of 1/{largest} across {groups} domains, reduced in the network switches ({topology.in_network_reduction})",
                   "collnet", groups, size / largest, 2)
    if algorithm == "nvls":
        return [phase("scale-up", f"reduce-scatter and all-gather inside the domain through the NVSwitch ({shape})", "nvls", largest, size, 2), across]
    inside = (largest - 1) / largest * size
    return [phase("scale-up", f"reduce-scatter and all-gather inside the domain ({shape})", "ring", largest, 2 * inside, 2 * (largest - 1)), across]


LATENCY_LEFT_OUT = "left out: the large-N limit has no GPU count to count steps by; give --gpus to include it"


def _phase(topology: Topology, tier: str, name: str, algorithm: str, count: int | None, sent: float, steps: int, bandwidth: Bandwidth, basis: str, assumed: float | None) -> Phase:
    latency, latency_source = (0.0, LATENCY_LEFT_OUT) if count is None and steps == 0 else _bound_latency(topology, tier, assumed)
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
