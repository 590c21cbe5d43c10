"""The figures the tier ladder, the collective bound and its calibration read, from a built database."""

from __future__ import annotations

import sqlite3
from typing import Any, NamedTuple, Protocol

from specdb.format.counting import Bandwidth


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
        from specdb.db.catalog import resolve

        return resolve(self.connection, name)

    def systems(self) -> list[System]:
        rows = self.connection.execute(
            "SELECT s.id, s.name, s.vendor, COALESCE(s.released_date, a.released_date)"
            " FROM record s LEFT JOIN record_use u ON u.record_id = s.id AND u.role = 'accelerator'"
            " LEFT JOIN record a ON a.id = u.target_id WHERE s.kind = 'system'"
        )
        return [System(*row) for row in rows]

    def uses(self, record_id: str) -> dict[str, str]:
        from specdb.db.catalog import uses_of

        return uses_of(self.connection, record_id)

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
