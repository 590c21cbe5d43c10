"""Side-by-side figures of records of one kind, in one basis and one unit, with ratios to the first."""

from __future__ import annotations

import sqlite3
from typing import Any

from specdb.db.catalog import record_figures, record_kind, resolve
from specdb.errors import UsageError
from specdb.format.counting import BASES, Bandwidth
from specdb.format.units import rounded

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
    """One row per figure name any of the records has: values by record id (bandwidths on the basis, in the figure's
    display unit) and each record's ratio to the first."""
    if len(names) < 2:
        raise UsageError("compare needs two or more records")
    if basis not in BASES:
        raise UsageError(f"basis must be one of {', '.join(BASES)}")
    ids = [resolve(connection, name) for name in names]
    kinds = {record_id: record_kind(connection, record_id) for record_id in ids}
    if len(set(kinds.values())) > 1:
        listed = ", ".join(f"{record_id} ({kind})" for record_id, kind in kinds.items())
        raise UsageError(f"compare records of one kind; got {listed}")
    figures: dict[str, dict[str, sqlite3.Row]] = {}
    for record_id in ids:
        for row in record_figures(connection, record_id):
            figures.setdefault(row["name"], {})[record_id] = row
    rows = []
    for name in sorted(figures):
        by_record = figures[name]
        # A figure name has one dimension (see vocabulary), so every record's value converts to one unit.
        row: dict[str, Any] = {"figure": name, "unit": None, "counted": _counted(by_record.values(), basis), "values": {}, "ratio_to_first": {}}
        dimension = next(iter(by_record.values()))["dimension"]
        scale, row["unit"] = _DISPLAY_SCALE[dimension]
        values = {record_id: _on_basis(by_record[record_id], basis) if record_id in by_record else None for record_id in ids}
        row["values"] = {record_id: None if value is None else rounded(value / scale, 4) for record_id, value in values.items()}
        first = values[ids[0]]
        row["ratio_to_first"] = {
            record_id: rounded(values[record_id] / first, 3) if values[record_id] is not None and first else None for record_id in ids[1:]
        }
        rows.append(row)
    return rows


def flatten(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One column per record and per ratio, for tables, CSV and Markdown."""
    flat = []
    for row in rows:
        cells = {"figure": row["figure"], "unit": row["unit"], "counted": row["counted"], **row["values"]}
        first = next(iter(row["values"]))
        cells.update({f"{record_id} / {first}": ratio for record_id, ratio in row["ratio_to_first"].items()})
        flat.append(cells)
    return flat


def _bandwidth(row: sqlite3.Row) -> Bandwidth:
    return Bandwidth(row["value"], row["direction"], row["record_id"], row["name"])


def _on_basis(row: sqlite3.Row, basis: str) -> float:
    return _bandwidth(row).on(basis)


def _counted(rows, basis: str) -> str | None:
    directions = sorted({_bandwidth(row).counted(basis) for row in rows if row["direction"]})
    if not directions:
        return None
    return "/".join(directions) + (" (mixed)" if len(directions) > 1 else "")
