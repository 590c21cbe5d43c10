"""The tier ladder of each platform: memory, scale-up and scale-out bandwidth per accelerator, and their ratios.

On either basis of `format.counting`; a ratio whose sides are counted
differently on the basis asked for says so.
"""

from __future__ import annotations

import sqlite3
from typing import Any, NamedTuple, Sequence

from specdb.format import figure_names
from specdb.db.figures import DatabaseFigures, Figures
from specdb.errors import UsageError
from specdb.names import name_key
from specdb.format.counting import BASES, Bandwidth, same_basis
from specdb.format.units import rounded

TIERS = ("memory", "scale_up", "scale_out")
RATIOS = (
    ("memory_to_scale_up", "memory", "scale_up"),
    ("scale_up_to_scale_out", "scale_up", "scale_out"),
    ("memory_to_scale_out", "memory", "scale_out"),
)
# Every figure `platforms` reads, of a system or of its accelerator.
FIGURES_READ = (
    figure_names.MEMORY_BANDWIDTH, figure_names.SCALE_UP_BANDWIDTH, figure_names.SCALE_UP_DOMAIN,
    figure_names.DENSE_BF16_FLOPS, figure_names.SCALE_OUT_BANDWIDTH,
)
# The columns of a ratio row, in every output format.
RATIO_COLUMNS = (
    "platform", "vendor", "accelerator", "year", "basis",
    *(f"{tier}_{part}" for tier in TIERS for part in ("gbps", "counted")),
    *(name for name, _, _ in RATIOS), "bf16_flop_per_network_byte", "mixed_counting",
)
# The columns a narrow terminal keeps first: the platform, its three tiers and their ratios; the basis is said under the table.
RATIO_PRIORITY = (
    "platform", *(f"{tier}_gbps" for tier in TIERS), *(name for name, _, _ in RATIOS), "year", "bf16_flop_per_network_byte",
    "mixed_counting", "accelerator", *(f"{tier}_counted" for tier in TIERS), "vendor", "basis",
)


class Platform(NamedTuple):
    id: str
    name: str
    vendor: str
    released: str | None
    accelerator: str | None
    scale_up_link: str | None
    scale_out_fabric: str | None
    domain_size: float | None
    tiers: dict[str, Bandwidth | None]
    dense_bf16_flops: float | None


def _figures(source: sqlite3.Connection | Figures) -> Figures:
    # A connection (sqlite3, or the PostgreSQL reader) is read through SQL; anything else already answers for its figures.
    return DatabaseFigures(source) if hasattr(source, "execute") else source  # type: ignore[arg-type]


def platforms(
    source: sqlite3.Connection | Figures, *, vendor: str | None = None, platform: str | Sequence[str] | None = None,
) -> list[Platform]:
    """Every system record with its tiers, or only the platform(s) named, in generation order (release date, then id)."""
    figures = _figures(source)
    named = [platform] if isinstance(platform, str) else list(platform or ())
    every_system = figures.systems()
    system_ids = {system.id for system in every_system}
    chosen = set()
    for name in named:
        record_id = figures.resolve(name)
        if record_id not in system_ids:
            using = sorted(system.id for system in every_system if record_id in figures.uses(system.id).values())
            hint = f"; platforms built on it: {', '.join(using)}" if using else "; `specdb list --kind system` lists the platforms"
            raise UsageError(f"'{name}' is not a platform (a system record){hint}")
        chosen.add(record_id)
    vendors = {name_key(system.vendor): system.vendor for system in every_system}
    if vendor and name_key(vendor) not in vendors:
        from specdb.suggest import did_you_mean  # only on this error path

        raise UsageError(f"--vendor '{vendor}': no platform of this vendor (vendors: {', '.join(sorted(vendors.values()))}){did_you_mean(vendor, vendors.values())}")
    systems = [
        system for system in every_system
        if (not vendor or name_key(system.vendor) == name_key(vendor)) and (not chosen or system.id in chosen)
    ]
    systems.sort(key=lambda system: (system.released is None, system.released or "", system.id))
    found = []
    for system in systems:
        uses = figures.uses(system.id)
        accelerator = uses.get("accelerator")
        scale_up = figures.figure(system.id, figure_names.SCALE_UP_BANDWIDTH) or figures.figure(accelerator, figure_names.SCALE_UP_BANDWIDTH)
        domain = figures.figure(system.id, figure_names.SCALE_UP_DOMAIN)
        flops = figures.figure(accelerator, figure_names.DENSE_BF16_FLOPS)
        found.append(Platform(
            id=system.id,
            name=system.name,
            vendor=system.vendor,
            released=system.released,
            accelerator=accelerator,
            scale_up_link=uses.get("scale_up"),
            scale_out_fabric=uses.get("scale_out"),
            domain_size=domain.value if domain else None,
            tiers={
                "memory": figures.figure(accelerator, figure_names.MEMORY_BANDWIDTH),
                "scale_up": scale_up,
                "scale_out": figures.figure(system.id, figure_names.SCALE_OUT_BANDWIDTH),
            },
            dense_bf16_flops=flops.value if flops else None,
        ))
    return found


def ratio_rows(
    source: sqlite3.Connection | Figures, basis: str = "per-direction", *, vendor: str | None = None, platform: str | Sequence[str] | None = None,
) -> list[dict[str, Any]]:
    """One row per platform: tier bandwidths in GB/s on the basis, the three ratios, and how each side is counted."""
    if basis not in BASES:
        raise ValueError(f"basis must be one of {', '.join(BASES)}")
    rows = []
    for found in platforms(source, vendor=vendor, platform=platform):
        row: dict[str, Any] = {
            "platform": found.id,
            "vendor": found.vendor,
            "accelerator": found.accelerator,
            "year": int(found.released[:4]) if found.released else None,
            "basis": basis,
        }
        for tier in TIERS:
            bandwidth = found.tiers[tier]
            row[f"{tier}_gbps"] = rounded(bandwidth.on(basis) / 1e9, 3) if bandwidth else None
            row[f"{tier}_counted"] = bandwidth.counted(basis) if bandwidth else None
        mixed = []
        for name, upper, lower in RATIOS:
            high, low = found.tiers[upper], found.tiers[lower]
            row[name] = rounded(high.on(basis) / low.on(basis), 2) if high and low else None
            if high and low and not same_basis(high.counted(basis), low.counted(basis)):
                mixed.append(name)
        scale_out = found.tiers["scale_out"]
        row["bf16_flop_per_network_byte"] = (
            _whole(found.dense_bf16_flops / scale_out.on("per-direction")) if found.dense_bf16_flops and scale_out else None
        )
        row["mixed_counting"] = mixed
        rows.append(row)
    return rows


def _whole(value: float) -> float:
    """A whole number of FLOP per byte; a fraction of one, to three significant digits, only when it is less than one."""
    return round(value) if value >= 1 else float(f"{value:.3g}")


def trend(rows: list[dict[str, Any]]) -> list[str]:
    """Per vendor, in generation order: did the cliff at the node edge (scale-up / scale-out) grow or shrink at each step?"""
    lines = []
    by_vendor: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        if row["scale_up_to_scale_out"] is not None:
            by_vendor.setdefault(row["vendor"], []).append(row)
    for vendor, steps in by_vendor.items():
        if len(steps) < 2:
            continue
        parts = [f"{steps[0]['scale_up_to_scale_out']:g}x {steps[0]['platform']}"]
        for before, after in zip(steps, steps[1:]):
            change = after["scale_up_to_scale_out"] / before["scale_up_to_scale_out"]
            verb = "grew" if change > 1.05 else "shrank" if change < 0.95 else "held"
            parts.append(f"{after['scale_up_to_scale_out']:g}x {after['platform']} ({verb})")
        lines.append(f"{vendor} node-edge cliff, scale-up / scale-out: " + " -> ".join(parts))
        flops = [row for row in steps if row["bf16_flop_per_network_byte"]]
        if len(flops) >= 2:
            growth = flops[-1]["bf16_flop_per_network_byte"] / flops[0]["bf16_flop_per_network_byte"]
            lines.append(
                f"{vendor} dense BF16 FLOP per byte of scale-out bandwidth: {flops[0]['bf16_flop_per_network_byte']:,} "
                f"({flops[0]['platform']}) -> {flops[-1]['bf16_flop_per_network_byte']:,} ({flops[-1]['platform']}), x{growth:.1f}"
            )
    return lines


