"""One version of the data as plain values, from validated specs or from a built database.

Both roads give equal snapshots for the same specs, so a diff between two
database files agrees with the diff between the folders they came from.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from specdb.errors import NotFound
from specdb.tiers import Bandwidth, System

if TYPE_CHECKING:
    from specdb.dataset import Dataset


@dataclass(frozen=True)
class FigureState:
    value_text: str
    value: float
    unit: str
    direction: str | None
    scope: str | None
    status: str
    as_of: str
    reviewed: str
    sources: tuple[str, ...]
    history: tuple[tuple[str, str | None], ...] = ()


@dataclass(frozen=True)
class RecordState:
    id: str
    kind: str
    name: str
    vendor: str | None
    released: str | None
    released_date: str | None
    aliases: tuple[str, ...]
    uses: tuple[tuple[str, str], ...]
    figures: dict[str, FigureState] = field(default_factory=dict)


@dataclass
class Snapshot:
    label: str
    records: dict[str, RecordState]
    content_hash: str = ""
    git_revision: str = ""

    # The tier ladder reads a snapshot like a database (see tiers.Figures).
    def resolve(self, name: str) -> str:
        if name in self.records:
            return name
        for record in self.records.values():
            if name.casefold() in (alias.casefold() for alias in record.aliases):
                return record.id
        raise NotFound(f"no record or alias '{name}' in {self.label}")

    def systems(self) -> list[System]:
        found = []
        for record in self.records.values():
            if record.kind == "system":
                accelerator = self.records.get(dict(record.uses).get("accelerator", ""))
                released = record.released_date or (accelerator.released_date if accelerator else None)
                found.append(System(record.id, record.name, record.vendor or "", released))
        return found

    def uses(self, record_id: str) -> dict[str, str]:
        return dict(self.records[record_id].uses)

    def figure(self, record_id: str | None, name: str) -> Bandwidth | None:
        record = self.records.get(record_id or "")
        state = record.figures.get(name) if record else None
        return None if state is None else Bandwidth(state.value, state.direction, record.id, name)


def from_dataset(dataset: "Dataset", label: str) -> Snapshot:
    from specdb.schema import Record, SourceRecord

    records = {}
    for record_id, loaded in dataset.records.items():
        model = loaded.model
        if isinstance(model, SourceRecord):
            records[record_id] = RecordState(record_id, "source", model.name, model.publisher, None, None, (), ())
            continue
        assert isinstance(model, Record)
        figures = {
            name: FigureState(
                value_text=figure.value.text,
                value=figure.value.value,
                unit=figure.value.unit,
                direction=figure.direction,
                scope=figure.scope,
                status=figure.status,
                as_of=figure.as_of.day.isoformat(),
                reviewed=figure.reviewed.day.isoformat(),
                sources=tuple(sorted({citation.ref for citation in figure.sources})),
                history=tuple((entry.value.text, entry.as_of.day.isoformat()) for entry in figure.history),
            )
            for name, figure in model.figures.items()
        }
        records[record_id] = RecordState(
            record_id, model.kind, model.name, model.vendor,
            model.released.text if model.released else None,
            model.released.day.isoformat() if model.released else None,
            tuple(sorted(model.aliases)), tuple(sorted(model.uses.items())), figures,
        )
    return Snapshot(label, records, dataset.content_hash)


def from_database(connection: sqlite3.Connection, label: str) -> Snapshot:
    meta = dict(connection.execute("SELECT key, value FROM meta").fetchall())
    aliases: dict[str, list[str]] = {}
    for alias, record_id in connection.execute("SELECT alias, record_id FROM alias"):
        aliases.setdefault(record_id, []).append(alias)
    uses: dict[str, list[tuple[str, str]]] = {}
    for record_id, role, target in connection.execute("SELECT record_id, role, target_id FROM record_use"):
        uses.setdefault(record_id, []).append((role, target))
    sources: dict[int, set[str]] = {}
    for figure_id, source_id in connection.execute("SELECT figure_id, source_id FROM citation WHERE claim_id IS NULL"):
        sources.setdefault(figure_id, set()).add(source_id)
    history: dict[int, list[tuple[str, str | None]]] = {}
    for figure_id, value_text, as_of in connection.execute(
        "SELECT figure_id, value_text, as_of FROM claim WHERE claim_kind = 'history' ORDER BY figure_id, position"
    ):
        history.setdefault(figure_id, []).append((value_text, as_of))
    figures: dict[str, dict[str, FigureState]] = {}
    for row in connection.execute(
        "SELECT id, record_id, name, value_text, value, unit, direction, scope, status, as_of, reviewed FROM figure"
    ):
        figures.setdefault(row[1], {})[row[2]] = FigureState(
            *row[3:11], sources=tuple(sorted(sources.get(row[0], ()))), history=tuple(history.get(row[0], ())),
        )
    records = {}
    for record_id, kind, name, vendor, released, released_date in connection.execute(
        "SELECT id, kind, name, vendor, released, released_date FROM record"
    ):
        records[record_id] = RecordState(
            record_id, kind, name, vendor, released, released_date,
            tuple(sorted(aliases.get(record_id, ()))), tuple(sorted(uses.get(record_id, ()))), figures.get(record_id, {}),
        )
    for source_id, name, publisher in connection.execute("SELECT id, name, publisher FROM source"):
        records[source_id] = RecordState(source_id, "source", name, publisher, None, None, (), ())
    return Snapshot(label, records, meta.get("content_hash", ""), meta.get("git_revision", ""))
