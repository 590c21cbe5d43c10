"""The cost of collectives on a platform's tiers: an alpha-beta model of ring and tree algorithms.

Time = steps x alpha + bytes sent per accelerator / bandwidth. Alpha is the
link's or fabric's `latency` figure where the data has one, else the value
given with --latency, else 0 (a bandwidth-only lower bound); every result
says which. Bandwidth is the tier's per-accelerator figure on the chosen
basis: one direction (a ring sends and receives at once, so one direction is
what bounds it), or as quoted by the vendor.
"""

from __future__ import annotations

import math
import sqlite3
from dataclasses import asdict, dataclass, field
from typing import Any

from specdb.errors import UsageError
from specdb.tiers import BASES, Platform, platforms
from specdb.units import UnitError, format_value, parse_quantity

OPERATIONS = ("all-reduce", "all-gather", "reduce-scatter", "all-to-all", "point-to-point")
ALGORITHMS = ("ring", "tree")
TIER_CHOICES = ("auto", "scale-up", "scale-out")
DTYPE_BYTES = {"fp64": 8, "fp32": 4, "tf32": 4, "bf16": 2, "fp16": 2, "fp8": 1, "int8": 1, "fp4": 0.5}


@dataclass(frozen=True)
class Phase:
    """One step of a collective on one tier."""

    name: str
    tier: str
    accelerators: int | None
    bytes_per_accelerator: float
    steps: int
    bandwidth: float
    bandwidth_counted: str
    latency: float
    latency_source: str

    @property
    def seconds(self) -> float:
        return self.steps * self.latency + self.bytes_per_accelerator / self.bandwidth


@dataclass(frozen=True)
class Estimate:
    operation: str
    algorithm: str
    platform: str
    basis: str
    size_bytes: float
    accelerators: int | None
    phases: list[Phase] = field(default_factory=list)

    @property
    def seconds(self) -> float:
        return sum(phase.seconds for phase in self.phases)

    @property
    def bytes_per_accelerator(self) -> float:
        return sum(phase.bytes_per_accelerator for phase in self.phases)

    @property
    def bound_by(self) -> str:
        return max(self.phases, key=lambda phase: phase.seconds).tier

    def as_dict(self) -> dict[str, Any]:
        return {
            "operation": self.operation,
            "algorithm": self.algorithm,
            "platform": self.platform,
            "basis": self.basis,
            "size_bytes": self.size_bytes,
            "accelerators": self.accelerators,
            "bytes_per_accelerator": self.bytes_per_accelerator,
            "seconds": self.seconds,
            "bound_by": self.bound_by,
            "phases": [{**asdict(phase), "seconds": phase.seconds} for phase in self.phases],
        }


def message_bytes(size: str | None = None, params: float | None = None, dtype: str = "bf16") -> float:
    """--size 16GB, or --params 8e9 --dtype bf16 (the gradient of that many parameters)."""
    if (size is None) == (params is None):
        raise UsageError("give --size or --params (with --dtype), not both")
    if params is not None:
        if dtype not in DTYPE_BYTES:
            raise UsageError(f"dtype must be one of {', '.join(DTYPE_BYTES)}")
        if not math.isfinite(params) or params <= 0:
            raise UsageError(f"--params must be a finite number greater than zero, not {params:g}")
        return _plausible_size("--params", params * DTYPE_BYTES[dtype])
    return _option_quantity("--size", size, "size", "a data size (try 16GB or 512MiB)")


def _plausible_size(option: str, size: float) -> float:
    from specdb.units import PLAUSIBLE

    low, high, span = PLAUSIBLE["size"]
    if not low <= size <= high:
        raise UsageError(f"{option} gives a message of {size:g} bytes, outside the plausible range of a size ({span})")
    return size


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


def _ring(operation: str, size: float, count: int | None) -> tuple[float, int]:
    """Bytes each accelerator sends, and the number of steps, for a ring of count (None: the large-ring limit)."""
    share = 1.0 if count is None else (count - 1) / count
    steps = 0 if count is None else count - 1
    if operation == "all-reduce":
        return 2 * share * size, 2 * steps
    if operation in ("all-gather", "reduce-scatter", "all-to-all"):
        return share * size, steps
    return size, 1


def _tree(size: float, count: int | None) -> tuple[float, int]:
    """Pipelined (double binary) tree all-reduce: about 2M sent per accelerator, 2 log2(N) latency steps."""
    return 2 * size, 0 if count is None else 2 * math.ceil(math.log2(max(count, 2)))


def _tier_link(platform: Platform, tier: str) -> str | None:
    return platform.scale_up_link if tier == "scale-up" else platform.scale_out_fabric


def _latency(connection: sqlite3.Connection, platform: Platform, tier: str, assumed: float | None) -> tuple[float, str]:
    record = _tier_link(platform, tier)
    if record is not None:
        row = connection.execute("SELECT value FROM figure WHERE record_id = ? AND name = 'latency'", (record,)).fetchone()
        if row is not None:
            return row[0], f"{record}.latency"
    if assumed is not None:
        return assumed, "--latency"
    return 0.0, f"assumed 0: no latency figure for {record or tier} in the data"


def _phase(connection, platform: Platform, tier: str, name: str, count: int | None, sent: float, steps: int, basis: str, assumed_latency: float | None) -> Phase:
    bandwidth = platform.tiers["scale_up" if tier == "scale-up" else "scale_out"]
    if bandwidth is None:
        raise UsageError(f"{platform.id} has no {tier} bandwidth in the data")
    latency, latency_source = _latency(connection, platform, tier, assumed_latency)
    return Phase(name, tier, count, sent, steps, bandwidth.on(basis), bandwidth.counted(basis), latency, latency_source)


def estimate(
    connection: sqlite3.Connection,
    operation: str,
    *,
    platform: str,
    size_bytes: float,
    accelerators: int | None = None,
    tier: str = "auto",
    algorithm: str = "ring",
    basis: str = "per-direction",
    latency: float | None = None,
) -> Estimate:
    """Estimate one collective. accelerators=None takes the large-ring limit (2(N-1)/N -> 2), as back-of-envelope pages do."""
    for value, allowed, what in ((operation, OPERATIONS, "operation"), (algorithm, ALGORITHMS, "algorithm"), (tier, TIER_CHOICES, "tier"), (basis, BASES, "basis")):
        if value not in allowed:
            raise UsageError(f"{what} must be one of {', '.join(allowed)}")
    if algorithm == "tree" and operation != "all-reduce":
        raise UsageError("--algorithm tree applies to all-reduce only; the other collectives use the ring")
    if accelerators is not None and accelerators < 2:
        raise UsageError("--gpus must be 2 or more")
    [found] = platforms(connection, platform=platform)
    domain = int(found.domain_size) if found.domain_size else None
    result = Estimate(operation, algorithm, found.id, basis, size_bytes, accelerators)
    if tier == "auto":
        if accelerators is None:
            raise UsageError("--tier auto needs --gpus to know whether the collective fits in the scale-up domain")
        if domain is None:
            raise UsageError(f"{found.id} has no scale_up_domain figure; choose --tier")
        tier = "scale-up" if accelerators <= domain else "scale-out"
        if tier == "scale-out" and operation == "all-reduce" and algorithm == "ring" and accelerators % domain == 0:
            result.phases.extend(_hierarchical(connection, found, size_bytes, accelerators, domain, basis, latency))
            return result
    elif tier == "scale-up" and accelerators is not None and domain is not None and accelerators > domain:
        raise UsageError(f"{accelerators} accelerators do not fit in {found.id}'s scale-up domain of {domain}; use --tier scale-out or auto")
    sent, steps = _tree(size_bytes, accelerators) if algorithm == "tree" else _ring(operation, size_bytes, accelerators)
    result.phases.append(_phase(connection, found, tier, f"{operation} ({algorithm})", accelerators, sent, steps, basis, latency))
    return result


def _hierarchical(connection, platform: Platform, size: float, count: int, domain: int, basis: str, latency: float | None) -> list[Phase]:
    """Reduce-scatter inside each domain, all-reduce each shard across domains, all-gather inside: what NCCL-style libraries do."""
    groups = count // domain
    scatter_bytes, scatter_steps = _ring("reduce-scatter", size, domain)
    across_bytes, across_steps = _ring("all-reduce", size / domain, groups) if groups > 1 else (0.0, 0)
    return [
        _phase(connection, platform, "scale-up", "reduce-scatter inside the domain", domain, scatter_bytes, scatter_steps, basis, latency),
        _phase(connection, platform, "scale-out", f"all-reduce of 1/{domain} across {groups} domains", groups, across_bytes, across_steps, basis, latency),
        _phase(connection, platform, "scale-up", "all-gather inside the domain", domain, scatter_bytes, scatter_steps, basis, latency),
    ]


def describe(result: Estimate) -> list[dict[str, Any]]:
    """Rows for a table: one per phase, then the total."""
    rows = []
    for phase in result.phases:
        rows.append({
            "phase": phase.name,
            "tier": phase.tier,
            "gpus": phase.accelerators if phase.accelerators is not None else "large-N limit",
            "sent_per_gpu": format_value(phase.bytes_per_accelerator, "size") if phase.bytes_per_accelerator else "0",
            "bandwidth": f"{format_value(phase.bandwidth, 'bandwidth')} {phase.bandwidth_counted}",
            "latency": f"{phase.steps} x {format_value(phase.latency, 'time') if phase.latency else '0 s'} ({phase.latency_source})",
            "time_ms": round(phase.seconds * 1e3, 2),
        })
    if len(result.phases) > 1:
        rows.append({"phase": "total", "tier": f"bound by {result.bound_by}", "gpus": result.accelerators,
                     "sent_per_gpu": format_value(result.bytes_per_accelerator, "size"), "bandwidth": "", "latency": "",
                     "time_ms": round(result.seconds * 1e3, 2)})
    return rows
