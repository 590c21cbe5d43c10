"""One version of the data as plain values, read from the database's rows.

Specs are first mapped to rows by `rows.dataset_rows`, exactly as a build
writes them, and a database is read back row for row, so the folder, git
revision and database readings of one version are equal field by field, and
every column of every table (history, alternatives and the citations of each
is among them) is there for `diff` to compare.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from specdb.db.rows import OWNER
from specdb.errors import NotFound
from specdb.names import name_key
from specdb.db.figures import DatabaseFigures, Figures, System
from specdb.format.counting import BASES, Bandwidth
from specdb.analysis.tiers import RATIOS, ratio_rows

if TYPE_CHECKING:
    from specdb.load.dataset import Dataset

# Columns that only tie rows together or repeat what the structure already says.
_LINKS = {
    "record": ("id", "kind", "path"),
    "source": ("id", "path"),
    "figure": ("id", "record_id", "name"),
    "claim": ("id", "figure_id", "claim_kind", "position"),
    "citation": ("id", "figure_id", "claim_id", "position"),
}


@dataclass(frozen=True)
class Citation:
    source_id: str
    quote: str | None
    locator: str | None
    note: str | None


@dataclass(frozen=True)
class Claim:
    """An earlier value (history) or a competing one (alternative), with every field and its citations."""

    fields: dict[str, Any]
    citations: tuple[Citation, ...]

    @property
    def value_text(self) -> str:
        return self.fields["value_text"]


@dataclass(frozen=True)
class FigureState:
    fields: dict[str, Any]
    citations: tuple[Citation, ...]
    history: tuple[Claim, ...] = ()
    alternatives: tuple[Claim, ...] = ()

    @property
    def sources(self) -> tuple[str, ...]:
        return tuple(sorted({citation.source_id for citation in self.citations}))


@dataclass(frozen=True)
class RecordState:
    id: str
    kind: str
    fields: dict[str, Any]
    aliases: tuple[str, ...] = ()
    uses: tuple[tuple[str, str], ...] = ()
    figures: dict[str, FigureState] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return self.fields["name"]


Ratios = dict[str, tuple[float | None, ...]]  # platform -> its tier ratios, in the order of tiers.RATIOS


@dataclass
class Snapshot:
    """A version of the data; a partial one holds only the records that changed, with the ratios of the platforms that may have moved."""

    label: str
    records: dict[str, RecordState]
    content_hash: str = ""
    git_revision: str = ""
    known_ratios: dict[str, Ratios] | None = None  # per basis; None: computed from the records, which are then all of them

    def ratios(self, basis: str) -> Ratios:
        return self.known_ratios[basis] if self.known_ratios is not None else platform_ratios(self, basis)

    # The tier ladder reads a snapshot like a database (see tiers.Figures).
    def resolve(self, name: str) -> str:
        if name in self.records:
            return name
        for record in self.records.values():
            if name_key(name) in (name_key(alias) for alias in record.aliases):
                return record.id
        raise NotFound(f"no record or alias '{name}' in {self.label}")

    def systems(self) -> list[System]:
        found = []
        for record in self.records.values():
            if record.kind == "system":
                accelerator = self.records.get(dict(record.uses).get("accelerator", ""))
                released = record.fields["released_date"] or (accelerator.fields["released_date"] if accelerator else None)
                found.append(System(record.id, record.name, record.fields["vendor"] or "", released))
        return found

    def uses(self, record_id: str) -> dict[str, str]:
        return dict(self.records[record_id].uses)

    def figure(self, record_id: str | None, name: str) -> Bandwidth | None:
        record = self.records.get(record_id or "")
        state = record.figures.get(name) if record else None
        return None if state is None else Bandwidth(state.fields["value"], state.fields["direction"], record.id, name)


def platform_ratios(source: sqlite3.Connection | Figures, basis: str) -> Ratios:
    return {row["platform"]: tuple(row[name] for name, _, _ in RATIOS) for row in ratio_rows(source, basis)}


def from_dataset(dataset: "Dataset", label: str) -> Snapshot:
    from specdb.db.rows import dataset_rows

    return from_rows(dataset_rows(dataset, {"content_hash": dataset.content_hash}), label)


def from_database(connection: sqlite3.Connection, label: str) -> Snapshot:
    tables = {}
    for table in ("meta", *OWNER):
        cursor = connection.execute(f"SELECT * FROM {table}")
        columns = [description[0] for description in cursor.description]
        tables[table] = [dict(zip(columns, row)) for row in cursor]
    return from_rows(tables, label)


def from_database_records(connection: sqlite3.Connection, label: str, record_ids: set[str]) -> Snapshot:
    """The named records of a database, with the ratios of every platform built on one of them (or being one)."""
    chosen = json.dumps(sorted(record_ids))
    tables = {}
    for table in ("meta", *OWNER):
        if table == "meta":
            cursor = connection.execute("SELECT * FROM meta")
        else:
            owner, joins, _ = OWNER[table]
            cursor = connection.execute(f"SELECT t.* FROM {table} t {joins} WHERE {owner} IN (SELECT value FROM json_each(?))", (chosen,))
        columns = [description[0] for description in cursor.description]
        tables[table] = [dict(zip(columns, row)) for row in cursor]
    snapshot = from_rows(tables, label)
    moved = {
        row[0] for row in connection.execute(
            "SELECT id FROM record WHERE kind = 'system' AND (id IN (SELECT value FROM json_each(?1))"
            " OR id IN (SELECT record_id FROM record_use WHERE target_id IN (SELECT value FROM json_each(?1))))",
            (chosen,),
        )
    }
    figures = _SomePlatforms(connection, moved)
    snapshot.known_ratios = {basis: platform_ratios(figures, basis) for basis in BASES}
    return snapshot


class _SomePlatforms(DatabaseFigures):
    """A database's figures, with only some of its systems listed as platforms."""

    def __init__(self, connection: sqlite3.Connection, system_ids: set[str]):
        super().__init__(connection)
        self.system_ids = system_ids

    def systems(self) -> list[System]:
        return [system for system in super().systems() if system.id in self.system_ids]


def from_rows(tables: dict[str, list[dict[str, Any]]], label: str) -> Snapshot:
    """A snapshot from every table's rows, as a build writes them or a database holds them."""
    meta = {row["key"]: row["value"] for row in tables["meta"]}
    citations: dict[tuple[int, int | None], list[tuple[int, Citation]]] = {}
    for row in tables["citation"]:
        cited = Citation(row["source_id"], row["quote"], row["locator"], row["note"])
        citations.setdefault((row["figure_id"], row["claim_id"]), []).append((row["position"], cited))

    def cited(figure_id: int, claim_id: int | None) -> tuple[Citation, ...]:
        return tuple(citation for _, citation in sorted(citations.get((figure_id, claim_id), []), key=lambda pair: pair[0]))

    claims: dict[tuple[int, str], list[tuple[int, Claim]]] = {}
    for row in tables["claim"]:
        claim = Claim(_own(row, "claim"), cited(row["figure_id"], row["id"]))
        claims.setdefault((row["figure_id"], row["claim_kind"]), []).append((row["position"], claim))

    def claimed(figure_id: int, kind: str) -> tuple[Claim, ...]:
        return tuple(claim for _, claim in sorted(claims.get((figure_id, kind), []), key=lambda pair: pair[0]))

    figures: dict[str, dict[str, FigureState]] = {}
    for row in tables["figure"]:
        figures.setdefault(row["record_id"], {})[row["name"]] = FigureState(
            _own(row, "figure"), cited(row["id"], None), claimed(row["id"], "history"), claimed(row["id"], "alternative"),
        )
    aliases: dict[str, list[str]] = {}
    for row in tables["alias"]:
        aliases.setdefault(row["record_id"], []).append(row["alias"])
    uses: dict[str, list[tuple[str, str]]] = {}
    for row in tables["record_use"]:
        uses.setdefault(row["record_id"], []).append((row["role"], row["target_id"]))
    records = {}
    for row in tables["record"]:
        record_id = row["id"]
        records[record_id] = RecordState(
            record_id, row["kind"], _own(row, "record"),
            tuple(sorted(aliases.get(record_id, ()))), tuple(sorted(uses.get(record_id, ()))), figures.get(record_id, {}),
        )
    for row in tables["source"]:
        records[row["id"]] = RecordState(row["id"], "source", _own(row, "source"))
    return Snapshot(label, records, meta.get("content_hash", ""), meta.get("git_revision", ""))


def _own(row: dict[str, Any], table: str) -> dict[str, Any]:
    return {key: value for key, value in row.items() if key not in _LINKS[table]}
