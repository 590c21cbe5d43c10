"""How long a collective takes on a platform: the peak bound, and the time to expect.

The bound (`collective_bound`) sends each phase's bytes at the links' peak
figures. The expectation divides each phase's bandwidth by an efficiency and
adds a latency per step, both derived from the measured runs in the data
(`calibration`); where nothing was measured for a tier and algorithm, the
expectation is the bound and says so. Bandwidths are reported as nccl-tests
does: algbw = size / time, busbw = algbw x 2(n-1)/n for all-reduce, (n-1)/n
for all-gather, reduce-scatter and all-to-all.
"""

from __future__ import annotations

import math
import re
import sqlite3
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from specdb.collective.calibration import Calibration
from specdb.collective.tuner import Choice, choose
from specdb.collective.bound import (
    ALGORITHMS,
    MAX_ACCELERATORS,
    NETWORK_RAILS,
    OPERATIONS,
    TIER_CHOICES,
    Bound,
    Phase,
    Topology,
    bound,
    bus_factor,
    domain_count,
    even_domains,
    network_rails,
    pipelined,
    slowest_phase,
    without_count,
)
from specdb.errors import UsageError
from specdb.format.figure_names import IN_NETWORK_REDUCTION_DOMAIN
from specdb.format.counting import BASES
from specdb.analysis.tiers import platforms
from specdb.format.units import UnitError, format_value, parse_quantity

ALGORITHM_CHOICES = ("auto", *ALGORITHMS)
DTYPE_BYTES = {"fp64": 8, "fp32": 4, "tf32": 4, "bf16": 2, "fp16": 2, "fp8": 1, "int8": 1, "fp4": 0.5}


@dataclass(frozen=True)
class Expected:
    """A phase with the efficiency and latency to expect, and where each came from."""

    phase: Phase
    efficiency: float
    efficiency_source: str
    latency: float
    latency_source: str

    @property
    def tier(self) -> str:
        return self.phase.tier

    @property
    def transfer_seconds(self) -> float:
        return self.phase.bytes_per_accelerator / (self.phase.per_direction_bandwidth * self.efficiency)

    @property
    def latency_seconds(self) -> float:
        return self.phase.steps * self.latency

    @property
    def seconds(self) -> float:
        return self.transfer_seconds + self.latency_seconds

    @property
    def efficiency_on_basis(self) -> float:
        """The expected bandwidth as a share of the peak bandwidth shown, on the estimate's basis (so the bound's transfer
        time over the expected one). The calibrated `efficiency` is a share of one direction; counted both ways
        (as-quoted NVLink) the same expectation is half as large a share."""
        return self.efficiency * self.phase.per_direction_bandwidth / self.phase.bandwidth


@dataclass(frozen=True)
class Estimate:
    bound: Bound
    expected: list[Expected] = field(default_factory=list)
    considered: dict[str, float] = field(default_factory=dict)
    unused_runs: list[str] = field(default_factory=list)
    assumptions: list[str] = field(default_factory=list)
    tuner_predicted: dict[str, float] = field(default_factory=dict)  # NCCL's own predicted time of each algorithm considered

    @property
    def seconds(self) -> float:
        return pipelined(self.expected, lambda e: e.transfer_seconds, lambda e: e.latency_seconds)

    @property
    def bound_seconds(self) -> float:
        return self.bound.seconds

    @property
    def phases(self) -> list[Phase]:
        return self.bound.phases

    @property
    def algbw(self) -> float:
        return self.bound.size_bytes / self.seconds

    @property
    def busbw(self) -> float:
        return self.algbw * bus_factor(self.bound.operation, self.bound.accelerators)

    @property
    def bytes_per_accelerator(self) -> float:
        return sum(phase.bytes_per_accelerator for phase in self.bound.phases)

    @property
    def bound_by(self) -> str:
        """The tier of the phase expected to take longest."""
        return slowest_phase(self.expected, lambda e: e.seconds).tier

    @property
    def peak_bound_by(self) -> str:
        """The tier of the phase whose peak bound is longest; it can differ from bound_by where efficiencies differ by tier."""
        return self.bound.bound_by

    def as_dict(self) -> dict[str, Any]:
        result = self.bound
        return {
            "operation": result.operation,
            "algorithm": result.algorithm,
            "algorithms_considered_ms": {name: round(seconds * 1e3, 6) for name, seconds in self.considered.items()},
            "nccl_tuner_predicted_ms": {name: round(seconds * 1e3, 6) for name, seconds in self.tuner_predicted.items()},
            "platform": result.platform,
            "basis": result.basis,
            "size_bytes": result.size_bytes,
            "accelerators": result.accelerators,
            "domains": [{"accelerators": run.accelerators, "count": run.count} for run in result.domains],
            "seconds": self.seconds,
            "bound_seconds": self.bound_seconds,
            "algbw_gbps": round(self.algbw / 1e9, 3),
            "busbw_gbps": round(self.busbw / 1e9, 3),
            "bytes_per_accelerator": self.bytes_per_accelerator,
            "bound_by": self.bound_by,
            "peak_bound_by": self.peak_bound_by,
            "assumptions": self.assumptions,
            "runs_not_used": self.unused_runs,
            "phases": [
                {
                    **asdict(e.phase),
                    "bound_seconds": e.phase.transfer_seconds + e.phase.latency_seconds,
                    "efficiency": e.efficiency_on_basis,
                    "per_direction_efficiency": e.efficiency,
                    "efficiency_source": e.efficiency_source,
                    "expected_latency": e.latency,
                    "expected_latency_source": e.latency_source,
                    "seconds": e.seconds,
                }
                for e in self.expected
            ],
        }


def message_bytes(size: str | None = None, params: float | None = None, dtype: str = "bf16") -> float:
    """--size 16GB, or --params 8e9 --dtype bf16 (the gradient of that many parameters)."""
    if size is None and params is None:
        raise UsageError("missing the message size: give --size (e.g. 16GB) or --params (with --dtype)")
    if size is not None and params is not None:
        raise UsageError("give --size or --params (with --dtype), not both")
    if params is not None:
        if dtype not in DTYPE_BYTES:
            raise UsageError(f"dtype must be one of {', '.join(DTYPE_BYTES)}")
        if not math.isfinite(params) or params <= 0:
            raise UsageError(f"--params must be a finite number greater than zero, not {params:g}")
        return _plausible_size("--params", params * DTYPE_BYTES[dtype])
    return _option_quantity("--size", size, "size", "a data size (try 16GB or 512MiB)")


def _plausible_size(option: str, size: float) -> float:
    from specdb.format.units import PLAUSIBLE

    low, high, span = PLAUSIBLE["size"]
    if not low <= size <= high:
        raise UsageError(f"{option} gives a message of {size:g} bytes, outside the plausible range of a size ({span})")
    return size


def nccl_library(version: str) -> str:
    """--nccl-version 2.26.2 as a run's library is named ("NCCL 2.26.2"); what is not a version is a usage error."""
    if not re.fullmatch(r"[0-9]{1,3}\.[0-9]{1,3}(\.[0-9]{1,3})?", version):
        raise UsageError(f"--nccl-version '{version}' is not a version (try 2.26.2)")
    return f"NCCL {version}"


def parse_latency(text: str) -> float:
    return _option_quantity("--latency", text, "time", "a time (try 2us or 500ns)")


def _option_quantity(option: str, text: str, dimension: str, expected: str) -> float:
    try:
        quantity = parse_quantity(text)
    except UnitError as exc:
        raise UsageError(f"{option} {exc}") from None
    if quantity.dimension != dimension:
        raise UsageError(f"{option} '{text}' is not {expected}")
    return quantity.value


def estimate(
    connection: sqlite3.Connection,
    operation: str,
    *,
    platform: str,
    size_bytes: float,
    accelerators: int | None = None,
    tier: str = "auto",
    algorithm: str = "auto",
    basis: str = "per-direction",
    latency: float | None = None,
    in_network: bool = True,
    calibration: Calibration | None = None,
    domains: int | None = None,
    library: str | None = None,
) -> Estimate:
    """Estimate one collective; `seconds` is the time to expect, `bound_seconds` the peak bound.

    accelerators=None takes the large-ring limit (2(N-1)/N -> 2), as back-of-envelope pages do.
    algorithm="auto" picks, among the algorithms the platform's topology offers, the one NCCL's tuner would run: the
    least time in NCCL's own cost model (`tuner`), whose constants are those of `library` ("NCCL 2.26.2") where given;
    in_network=False leaves out reduction in the switches (NVLink and InfiniBand SHARP).
    domains, when given, spreads the accelerators evenly over that many scale-up domains (a measured run's nodes).
    """
    for value, allowed, what in ((operation, OPERATIONS, "operation"), (algorithm, ALGORITHM_CHOICES, "algorithm"), (tier, TIER_CHOICES, "tier"), (basis, BASES, "basis")):
        if value not in allowed:
            raise UsageError(f"{what} must be one of {', '.join(allowed)}")
    if algorithm in ("tree", *IN_NETWORK) and operation != "all-reduce":
        raise UsageError(f"--algorithm {algorithm} applies to all-reduce only; the other collectives use the ring")
    if algorithm in IN_NETWORK and not in_network:
        raise UsageError(f"--algorithm {algorithm} reduces in the switches, which --no-in-network leaves out; choose ring or tree")
    if accelerators is not None and not 2 <= accelerators <= MAX_ACCELERATORS:
        raise UsageError(f"--gpus must be from 2 to {MAX_ACCELERATORS:,}")
    tier = without_count(tier, accelerators)
    [found] = platforms(connection, platform=platform)
    calibration = calibration or Calibration(connection)
    offered = calibration.topologies[found.id]
    topology = offered if in_network else offered.without_in_network_reduction()
    if algorithm == "nvls" and topology.scale_up_reduction is None:
        raise UsageError(f"{found.id} has no {IN_NETWORK_REDUCTION_DOMAIN} figure: its scale-up switches do not reduce (no NVLink SHARP) in the data; choose ring or tree")
    spread = even_domains(accelerators, domains) if domains and accelerators and domains > 1 else None
    candidates = [algorithm] if algorithm != "auto" else _candidates(operation, topology, accelerators, tier)
    results = {}
    for name in candidates:
        result = bound(topology, operation, size_bytes=size_bytes, accelerators=accelerators, tier=tier, algorithm=name, basis=basis, assumed_latency=latency,
                       domains=spread)
        results[name] = Estimate(result, [_expect(calibration, found.id, operation, phase) for phase in result.phases])
    choice = choose({name: result.bound for name, result in results.items()}, found.scale_up_link, library) if len(results) > 1 else None
    best = results[choice.algorithm] if choice else results[candidates[0]]
    considered = {name: result.seconds for name, result in results.items()} if choice else {}
    chosen = Estimate(best.bound, best.expected, considered, calibration.unused, tuner_predicted=choice.predicted if choice else {})
    return replace(chosen, assumptions=assumptions(chosen, offered, asked=algorithm, in_network=in_network, choice=choice))


IN_NETWORK = ("nvls", "collnet")


def _candidates(operation: str, topology: Topology, accelerators: int | None, tier: str) -> list[str]:
    """The algorithms the topology offers: the ring and tree everywhere, NVLink SHARP where the scale-up switches reduce,
    CollNet (and NVLS beyond one domain) where the platform's reference design has the scale-out switches reduce too."""
    if operation != "all-reduce":
        return ["ring"]
    names = ["ring", "tree"]
    inside = tier == "scale-up" or (tier == "auto" and accelerators is not None and topology.domain is not None and accelerators <= topology.domain)
    across = tier == "auto" and not inside and topology.in_network_reduction is not None and topology.network_reduction is not None
    if across:
        names.append("collnet")
    if (inside or across) and topology.scale_up_reduction is not None:
        names.append("nvls")
    return names


def assumptions(result: Estimate, topology: Topology, *, asked: str, in_network: bool, choice: Choice | None = None) -> list[str]:
    """What the estimate assumes, one line each: the algorithm and why, the in-network reduction, and for each phase where
    its efficiency and its latency come from (measured here, borrowed from another operation or platform, or the bound)."""
    bound_ = result.bound
    if asked != "auto":
        why = f"as asked with --algorithm {asked}"
    elif choice is not None:
        why = choice.line()
    elif bound_.operation in ("all-gather", "reduce-scatter"):
        why = f"NCCL runs {bound_.operation} as a ring"
    else:
        why = f"{bound_.operation} sends to each peer directly: there is no algorithm to choose"
    lines = [f"algorithm: {bound_.algorithm}, {why}", f"in-network reduction: {_in_network_line(bound_, topology, in_network)}"]
    across = _across_domains_line(bound_)
    if across:
        lines.append(f"across domains: {across}")
    for e in result.expected:
        lines.append(f"efficiency of {e.phase.name}: {e.efficiency:.0%} of one direction, {e.efficiency_source}")
        lines.append(f"latency of {e.phase.name}: {e.latency_source}")
    return lines


def _across_domains_line(result: Bound) -> str | None:
    """How a ring or tree spanning domains counts its latency steps and the NICs it crosses the network through, as NCCL
    does (src/graph/tuning.cc for the steps, src/init.cc for the rings); None inside one domain or with in-network reduction."""
    if not result.domains or result.algorithm not in ("ring", "tree") or result.operation not in ("all-reduce", "all-gather", "reduce-scatter"):
        return None
    largest, groups, count = result.domains[0].accelerators, domain_count(result.domains), result.accelerators
    rails = network_rails(largest)
    nics = (f"each domain reaches the network through {rails} NICs, one per accelerator" if rails == largest else
            f"each domain reaches the network through {rails} of its {largest} NICs (NCCL runs {NETWORK_RAILS} channels on NVSwitch systems, "
             "each leaving a domain through one NIC)")
    passes = 2 if result.operation == "all-reduce" else 1
    if result.algorithm == "tree":
        tree_steps = 2 * math.ceil(math.log2(max(groups, 2)))
        steps = (f"the tree's latency steps are NCCL's: a chain of 2 x {largest - 1} inside each domain and a double binary tree of "
                 f"{tree_steps} across {groups} domains")
    else:
        total, network = passes * (count - 1), passes * (groups - 1)
        steps = (f"the ring's latency steps are one flat ring's of {count}, as NCCL counts them: {total}, of which {network} cross the network "
                 f"and {total - network} stay inside the domains")
    return f"{steps}; {nics}"


def _in_network_line(result: Bound, topology: Topology, in_network: bool) -> str:
    up, out, enabled = topology.scale_up_reduction, topology.in_network_reduction, topology.network_reduction
    nvlink = f"NVLink SHARP in the scale-up switches ({up})"
    infiniband = f"InfiniBand SHARP in the scale-out switches ({out}" + (f", enabled in the reference design: {enabled})" if enabled else ")")
    across = any(phase.algorithm == "collnet" for phase in result.phases)
    assumed = [name for name, used in ((nvlink, result.algorithm == "nvls"), (infiniband, across)) if used]
    if assumed:
        asked = "" if enabled or not across else "; the platform's record does not say its reference design enables InfiniBand SHARP, so only --algorithm assumes it"
        return f"assumed: {' and '.join(assumed)}{asked}; --no-in-network leaves it out"
    offered = [name for name, figure in ((nvlink, up), (infiniband, out and enabled)) if figure]
    unstated = (f"; {out.split('.')[0]}'s switches can reduce ({out}), but {result.platform}'s record does not say its reference design "
                "enables InfiniBand SHARP, so it is not assumed (--algorithm collnet assumes it)") if out and not enabled and in_network else ""
    if not in_network:
        dropped = [name for name, figure in ((nvlink, up), (f"InfiniBand SHARP in the scale-out switches ({out})", out)) if figure]
        return f"none: --no-in-network leaves out {' and '.join(dropped)}" if dropped else f"none: {result.platform} has no reduction in its switches in the data"
    if not offered:
        return f"none: {result.platform} has no reduction in its switches in the data{unstated}"
    if result.operation != "all-reduce":
        return f"none: only an all-reduce reduces in the switches here ({result.platform} offers {' and '.join(offered)}){unstated}"
    return f"none in the chosen algorithm ({result.platform} offers {' and '.join(offered)}){unstated}"


def _expect(calibration: Calibration, platform: str, operation: str, phase: Phase) -> Expected:
    efficiency = calibration.efficiency(platform, phase.tier, phase.algorithm, operation)
    latency = None if phase.latency_left_out else calibration.latency(platform, phase.tier, phase.algorithm, operation)
    return Expected(
        phase,
        efficiency.value if efficiency else 1.0,
        efficiency.source if efficiency else "no measured run: the peak bound",
        latency.value if latency else phase.latency,
        latency.source if latency else phase.latency_source if phase.latency_left_out else f"no small-message run: {phase.latency_source}",
    )


def describe(result: Estimate) -> list[dict[str, Any]]:
    """Rows for a table: one per phase, then the total."""
    rows = []
    for e in result.expected:
        phase = e.phase
        rows.append({
            "phase": phase.name,
            "tier": phase.tier,
            "gpus": phase.accelerators if phase.accelerators is not None else "large-N limit",
            "sent_per_gpu": format_value(phase.bytes_per_accelerator, "size"),
            "peak_bandwidth": f"{format_value(phase.bandwidth, 'bandwidth')} {phase.bandwidth_counted}",
            "efficiency": f"{e.efficiency_on_basis:.1%}",
            "peak_latency": "left out" if phase.latency_left_out else _steps(phase.steps, phase.latency),
            "latency": "left out" if phase.latency_left_out else _steps(phase.steps, e.latency),
            "bound_ms": round(phase.transfer_seconds * 1e3 + phase.latency_seconds * 1e3, 3),
            "expected_ms": round(e.seconds * 1e3, 3),
        })
    if len(result.expected) > 1:
        tiers = result.bound_by if result.bound_by == result.peak_bound_by else f"{result.bound_by} (peak bound: {result.peak_bound_by})"
        rows.append({"phase": "total (phases pipelined)", "tier": f"bound by {tiers}", "gpus": result.bound.accelerators,
                     "sent_per_gpu": "", "peak_bandwidth": "", "efficiency": "", "peak_latency": "", "latency": "",
                     "bound_ms": round(result.bound_seconds * 1e3, 3), "expected_ms": round(result.seconds * 1e3, 3)})
    return rows


def _steps(steps: int, latency: float) -> str:
    return f"{steps} x {format_value(latency, 'time') if latency else '0 s'}"


def footer(result: Estimate) -> list[str]:
    """The lines under the table: each assumption, then the measured runs set aside."""
    return result.assumptions + [f"measured run not used: {unused}" for unused in result.unused_runs]
