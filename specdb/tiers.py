"""The tier ladder of each platform: memory, scale-up and scale-out bandwidth per accelerator, and their ratios.

Two bases. `per-direction` counts every link one way (a bidirectional figure
is halved) and memory as its total: the basis to reason on. `as-quoted`
takes the vendors' headline figures as they are, to reproduce a published
page; a ratio whose sides are then counted differently says so.
"""

from __future__ import annotations

import sqlite3
from typing import Any, NamedTuple, Protocol, Sequence

from specdb.errors import UsageError
from specdb.names import name_key
from specdb.units import rounded

BASES = ("per-direction", "as-quoted")
TIERS = ("memory", "scale_up", "scale_out")
RATIOS = (
    ("memory_to_scale_up", "memory", "scale_up"),
    ("scale_up_to_scale_out", "scale_up", "scale_out"),
    ("memory_to_scale_out", "memory", "scale_out"),
)
# The columns of a ratio row, in every output format.
RATIO_COLUMNS = (
    "platform", "vendor", "accelerator", "year", "basis",
    *(f"{tier}_{part}" for tier in TIERS for part in ("gbps", "counted")),
    *(name for name, _, _ in RATIOS), "bf16_flop_per_network_byte", "mixed_counting",
)
_ONE_WAY = ("total", "per-direction")


class Bandwidth(NamedTuple):
    """A bandwidth as stored: B/s with its direction, and the record and figure it came from."""

    value: float
    direction: str
    record_id: str
    figure: str

    def on(self, basis: str) -> float:
        if basis == "per-direction" and self.direction == "bidirectional":
            return self.value / 2
        return self.value

    def counted(self, basis: str) -> str:
        if basis == "per-direction" and self.direction == "bidirectional":
            return "per-direction"
        return self.direction


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


class System(NamedTuple):
    id: str
    name: str
    vendor: str
    released: str | None  # ISO date: the system's own, else its accelerator's


class Figures(Protocol):
    """What the tier ladder reads: a built database, or a snapshot of specs (for diffs)."""

    def resolve(self, name: str) -> str: ...
    def systems(self) -> list[System]: ...
    def uses(self, record_id: str) -> dict[str, str]: ...
    def figure(self, record_id: str | None, name: str) -> Bandwidth | None: ...


class DatabaseFigures:
    def __init__(self, connection: sqlite3.Connection):
        self.connection = connection

    def resolve(self, name: str) -> str:
        from specdb.catalog import resolve

        return resolve(self.connection, name)

    def systems(self) -> list[System]:
        rows = self.connection.execute(
            "SELECT s.id, s.name, s.vendor, COALESCE(s.released_date, a.released_date)"
            " FROM record s LEFT JOIN record_use u ON u.record_id = s.id AND u.role = 'accelerator'"
            " LEFT JOIN record a ON a.id = u.target_id WHERE s.kind = 'system'"
        )
        return [System(*row) for row in rows]

    def uses(self, record_id: str) -> dict[str, str]:
        return dict(self.connection.execute("SELECT role, target_id FROM record_use WHERE record_id = ?", (record_id,)).fetchall())

    def figure(self, record_id: str | None, name: str) -> Bandwidth | None:
        if record_id is None:
            return None
        row = self.connection.execute("SELECT value, direction FROM figure WHERE record_id = ? AND name = ?", (record_id, name)).fetchone()
        return None if row is None else Bandwidth(row[0], row[1], record_id, name)

    def collective_runs(self) -> list[tuple[Any, ...]]:
        """Each measured collective: its figure's id, record and platform (the system the record measures, else the
        record itself), figure name, operation, accelerators, size in bytes, algorithm, library, value, scope and domains."""
        return self.connection.execute(
            "SELECT f.id, f.record_id,"
            " COALESCE((SELECT u.target_id FROM record_use u WHERE u.record_id = f.record_id AND u.role = 'system'), f.record_id),"
            " f.name, c.operation, c.accelerators, c.size_bytes, c.algorithm, c.library, f.value, f.scope, c.domains"
            " FROM collective_run c JOIN figure f ON f.id = c.figure_id ORDER BY f.record_id, f.name"
        ).fetchall()


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
        scale_up = figures.figure(system.id, "scale_up_bandwidth") or figures.figure(accelerator, "scale_up_bandwidth")
        domain = figures.figure(system.id, "scale_up_domain")
        flops = figures.figure(accelerator, "dense_bf16_flops")
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
                "memory": figures.figure(accelerator, "memory_bandwidth"),
                "scale_up": scale_up,
                "scale_out": figures.figure(system.id, "scale_out_bandwidth"),
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


def same_basis(one: str, other: str) -> bool:
    """Memory totals and one-way link figures are one basis; a bidirectional figure is not, beside either."""
    return (one in _ONE_WAY) == (other in _ONE_WAY)


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


