"""Efficiency and latency of each tier and algorithm, derived from the measured collective runs in the data.

A measured run is a `measured_*` bus bandwidth figure with a `collective`
block (operation, GPU count, size, algorithm, library), on a platform (a
system record) or on a record that uses one (`uses: {system: ...}`, as
`specdb import nccl-tests` writes). Its efficiency is the
peak bound's transfer time over the measured time, on the tier that bounds
it; a per-port figure (bus bandwidth per NIC) is its share of the port's
bandwidth. Runs of at least LARGE_MESSAGE bytes, or stated without a size as
a large-message peak, give the efficiency; smaller runs give the latency per
step that the efficiency alone does not explain.

A platform without its own run borrows, in order: from platforms on the same
link (scale-up) or fabric (scale-out), from the same vendor, from any
platform. At each step runs of the same operation come first; where there
are none, the other operations' runs there are used and the value names
them. A tree borrows only from platforms of its GPU generation (the same
scale-up link). The tree and collnet algorithms, with nothing to borrow, take
the ring's (the tree's efficiency times NCCL's own tree factor, 0.92). Every value says where it came from. A run whose algorithm the
library chose (`default`), or one on more than HELD_OUT_ABOVE accelerators, is not used here: it checks the estimate.
"""

from __future__ import annotations

import sqlite3
import statistics
from dataclasses import dataclass

from specdb.format import figure_names
from specdb.collective.bound import Topology, bound, bus_factor, even_domains
from specdb.collective.tuner import TREE_FACTOR
from specdb.errors import UsageError
from specdb.db.figures import DatabaseFigures
from specdb.analysis.tiers import platforms

LARGE_MESSAGE = 256 * 2**20
DEFAULT = "default"
# Runs on more accelerators than this check the estimate at scale and calibrate nothing, whatever their algorithm: the
# model's growth with scale is judged on them, never fitted to them. Fixed before any such run was recorded.
HELD_OUT_ABOVE = 256
PEAK_SIZE = 8 * 2**30  # the size at which a run stated without one is compared
# An algorithm with no run of its own takes the efficiency and latency of this one.
STAND_IN = {"tree": "ring", "collnet": "ring"}
# ...and its efficiency times this: NCCL's own model gives a tree all-reduce 0.92 of the bus bandwidth of its graph
# (src/graph/tuning.cc, `if (a == NCCL_ALGO_TREE) busBw = std::min(busBw*.92, ...)`; the nvidia-nccl-tuning-model source).
STAND_IN_FACTOR = {"tree": (TREE_FACTOR, "NCCL's tree bandwidth factor, src/graph/tuning.cc")}
# A tree's rate is borrowed only from platforms of the same GPU generation (the same scale-up link), else it is the
# stand-in's: NCCL's own model caps the tree a channel by generation (perChMaxTreeBws: beyond 2 nodes 36 GB/s for
# Hopper, 24 for Blackwell since NCCL 2.28), so a tree measured on one generation says nothing of another's.
SAME_GENERATION = frozenset({"tree"})


@dataclass(frozen=True)
class Run:
    """One measured collective run, as recorded."""

    figure_id: int
    record_id: str
    platform: str
    figure: str
    operation: str
    accelerators: int
    size_bytes: float | None
    algorithm: str
    library: str
    busbw: float
    scope: str | None
    domains: int | None

    @property
    def label(self) -> str:
        return f"{self.record_id}.{self.figure}"

    @property
    def compared_size(self) -> float:
        return self.size_bytes if self.size_bytes is not None else PEAK_SIZE

    @property
    def measured_seconds(self) -> float:
        return bus_factor(self.operation, self.accelerators) * self.compared_size / self.busbw


@dataclass(frozen=True)
class Derived:
    """One run's contribution: an efficiency (large runs) or a latency per step (small runs), on one tier and algorithm."""

    run: Run
    platform: str
    tier: str
    algorithm: str
    link: str | None
    vendor: str
    scale_up_link: str | None = None  # the platform's, which names its GPU generation
    efficiency: float | None = None
    latency: float | None = None


@dataclass(frozen=True)
class Value:
    value: float
    source: str


class Calibration:
    """Every run in the data (or a chosen subset), turned into efficiencies and latencies to look up."""

    def __init__(self, connection: sqlite3.Connection, exclude: frozenset[int] = frozenset()):
        self.connection = connection
        self.topologies = {found.id: Topology.read(connection, found) for found in platforms(connection)}
        # A run where the library chose the algorithm (`default`), or one at scale, checks the estimate but calibrates nothing.
        self.runs = [run for run in read_runs(connection) if run.figure_id not in exclude and run.platform in self.topologies and not is_held_out(run)]
        self.unused: list[str] = []
        self.derived = [derived for run in self.runs if is_bandwidth_run(run) for derived in [self._derive(self._efficiency, run)] if derived]
        self.derived += [derived for run in self.runs if not is_bandwidth_run(run) for derived in [self._derive(self._latency, run)] if derived]

    def _derive(self, derive, run: Run) -> Derived | None:
        """A run the model cannot place (collnet on a fabric without SHARP in the data, a per-port figure without a port) is set aside and named, not fatal."""
        try:
            return derive(run)
        except UsageError as refused:
            self.unused.append(f"{run.label}: {refused}")
            return None

    def efficiency(self, platform: str, tier: str, algorithm: str, operation: str) -> Value | None:
        return self._lookup(platform, tier, algorithm, operation, "efficiency")

    def latency(self, platform: str, tier: str, algorithm: str, operation: str) -> Value | None:
        return self._lookup(platform, tier, algorithm, operation, "latency")

    def _lookup(self, platform: str, tier: str, algorithm: str, operation: str, quantity: str) -> Value | None:
        found = self._chain(platform, tier, algorithm, operation, quantity)
        stand_in = STAND_IN.get(algorithm)
        if found is None and stand_in:
            found = self._chain(platform, tier, stand_in, operation, quantity)
            if found is not None and quantity == "efficiency" and algorithm in STAND_IN_FACTOR:
                factor, why = STAND_IN_FACTOR[algorithm]
                return Value(found.value * factor, f"{found.source}; the {stand_in}'s x {factor:g} ({why}), no {algorithm} run measured")
            if found is not None:
                return Value(found.value, f"{found.source}; the {stand_in}'s, no {algorithm} run measured")
        return found

    def _chain(self, platform: str, tier: str, algorithm: str, operation: str, quantity: str) -> Value | None:
        topology = self.topologies[platform].platform
        link = topology.scale_up_link if tier == "scale-up" else topology.scale_out_fabric
        candidates = [d for d in self.derived if d.tier == tier and d.algorithm == algorithm and getattr(d, quantity) is not None]
        levels = (
            ("measured on this platform", lambda d: d.platform == platform),
            (f"borrowed from platforms on {link}", lambda d: link is not None and d.link == link),
            (f"borrowed from {topology.vendor} platforms", lambda d: d.vendor == topology.vendor),
            ("borrowed from other vendors' platforms", lambda d: True),
        )
        if algorithm in SAME_GENERATION:
            generation = topology.scale_up_link
            levels = (levels[0], (f"borrowed from platforms of the same GPU generation (on {generation})",
                                  lambda d: generation is not None and d.scale_up_link == generation))
        for how, chosen in levels:
            matches = [d for d in candidates if chosen(d)]
            same = [d for d in matches if d.run.operation == operation]
            if same:
                return _median(same, quantity, how)
            if matches:
                others = ", ".join(sorted({d.run.operation for d in matches}))
                return _median(matches, quantity, f"{how}, {others} runs (no {operation} run)")
        return None

    def _describe(self, run: Run, tier: str, efficiency: float | None = None, latency: float | None = None) -> Derived:
        found = self.topologies[run.platform].platform
        link = found.scale_up_link if tier == "scale-up" else found.scale_out_fabric
        return Derived(run, run.platform, tier, run.algorithm, link, found.vendor, found.scale_up_link, efficiency, latency)

    def _efficiency(self, run: Run) -> Derived | None:
        topology = self.topologies[run.platform]
        if run.scope == "per-port":
            port = self.port_bandwidth(run.platform)
            if port is None:
                fabric = topology.platform.scale_out_fabric or "none in the data"
                raise UsageError(f"a per-port bus bandwidth is a share of the scale-out port, and {run.platform}'s fabric ({fabric}) has no port_bandwidth figure")
            return self._describe(run, "scale-out", efficiency=run.busbw / port)
        slowest = max(_bound_of(topology, run).phases, key=lambda phase: phase.transfer_seconds)
        return self._describe(run, slowest.tier, efficiency=slowest.transfer_seconds / run.measured_seconds)

    def _latency(self, run: Run) -> Derived | None:
        topology = self.topologies[run.platform]
        phases = _bound_of(topology, run).phases
        if len(phases) != 1 or phases[0].steps == 0:
            return None
        phase = phases[0]
        found = self.efficiency(run.platform, phase.tier, run.algorithm, run.operation)
        efficiency = found.value if found else 1.0
        unexplained = run.measured_seconds - phase.bytes_per_accelerator / (phase.per_direction_bandwidth * efficiency)
        return self._describe(run, phase.tier, latency=max(unexplained, 0.0) / phase.steps)

    def port_bandwidth(self, platform: str) -> float | None:
        """One direction of a port of the platform's scale-out fabric: what a per-NIC bus bandwidth is a share of."""
        fabric = self.topologies[platform].platform.scale_out_fabric
        # The vocabulary admits a port figure only per direction.
        found = DatabaseFigures(self.connection).figure(fabric, figure_names.PORT_BANDWIDTH)
        return None if found is None else found.value


def _median(chosen: list[Derived], quantity: str, how: str) -> Value:
    value = statistics.median(getattr(d, quantity) for d in chosen)
    return Value(value, f"{how}: {', '.join(sorted({d.run.label for d in chosen}))}")


def is_held_out(run: Run) -> bool:
    """A run that checks the estimate and calibrates nothing: the library chose its algorithm, or it spans more than HELD_OUT_ABOVE accelerators."""
    return run.algorithm == DEFAULT or run.accelerators > HELD_OUT_ABOVE


def is_bandwidth_run(run: Run) -> bool:
    return run.size_bytes is None or run.size_bytes >= LARGE_MESSAGE


def _bound_of(topology: Topology, run: Run):
    """The peak bound of the run's own configuration, without latency (latency is what small runs measure)."""
    spread = even_domains(run.accelerators, run.domains) if run.domains and run.domains > 1 else None
    return bound(topology, run.operation, size_bytes=run.compared_size, accelerators=run.accelerators, tier="auto",
                 algorithm=run.algorithm, basis="per-direction", assumed_latency=None, domains=spread)


def read_runs(connection: sqlite3.Connection) -> list[Run]:
    return [Run(*row) for row in DatabaseFigures(connection).collective_runs()]
