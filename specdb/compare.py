"""Side-by-side figures of records of one kind, in one basis and one unit, with ratios to the first."""

from __future__ import annotations

import sqlite3
from typing import Any

from specdb.catalog import resolve
from specdb.errors import UsageError
from specdb.tiers import BASES

_DISPLAY_SCALE = {
    "bandwidth": (1e9, "GB/s"),
    "size": (1e9, "GB"),
    "compute": (1e12, "TFLOP/s"),
    "transfer_rate": (1e9, "GT/s"),
    "symbol_rate": (1e9, "GBd"),
    "time": (1e-9, "ns"),
    "power": (1.0, "W"),
    "frequency": (1e6, "MHz"),
    "ratio": (0.01, "%"),
    "count": (1.0, ""),
}


def compare(connection: sqlite3.Connection, names: list[str], basis: str = "per-direction") -> list[dict[str, Any]]:
    """One row per figure name any of the records has; bandwidths on the basis, every value in the figure's display unit."""
    if len(names) < 2:
        raise UsageError("compare needs two or more records")
    if basis not in BASES:
        raise UsageError(f"basis must be one of {', '.join(BASES)}")
    ids = [resolve(connection, name) for name in names]
    kinds = {record_id: connection.execute("SELECT kind FROM record WHERE id = ?", (record_id,)).fetchone()[0] for record_id in ids}
    if len(set(kinds.values())) > 1:
        listed = ", ".join(f"{record_id} ({kind})" for record_id, kind in kinds.items())
        raise UsageError(f"compare records of one kind; got {listed}")
    figures: dict[str, dict[str, sqlite3.Row]] = {}
    for record_id in ids:
        for row in connection.execute("SELECT * FROM figure WHERE record_id = ? ORDER BY name", (record_id,)):
            figures.setdefault(row["name"], {})[record_id] = row
    rows = []
    for name in sorted(figures):
        by_record = figures[name]
        dimension = next(iter(by_record.values()))["dimension"]
        if any(row["dimension"] != dimension for row in by_record.values()):
            continue
        scale, unit = _DISPLAY_SCALE[dimension]
        row: dict[str, Any] = {"figure": name, "unit": unit, "counted": _counted(by_record.values(), basis)}
        values = {record_id: _on_basis(by_record[record_id], basis) if record_id in by_record else None for record_id in ids}
        for record_id in ids:
            row[record_id] = None if values[record_id] is None else round(values[record_id] / scale, 4)
        first = values[ids[0]]
        for record_id in ids[1:]:
            value = values[record_id]
            row[f"{record_id}/{ids[0]}"] = round(value / first, 3) if value is not None and first else None
        rows.append(row)
    return rows


def _on_basis(row: sqlite3.Row, basis: str) -> float:
    if basis == "per-direction" and row["direction"] == "bidirectional":
        return row["value"] / 2
    return row["value"]


def _counted(rows, basis: str) -> str | None:
    directions = sorted({row["direction"] for row in rows if row["direction"]})
    if not directions:
        return None
    if basis == "per-direction":
        directions = sorted({"per-direction" if d == "bidirectional" else d for d in directions})
    return "/".join(directions) + (" (mixed)" if len(directions) > 1 else "")


