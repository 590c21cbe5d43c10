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
from pathlib import Path
from typing import TYPE_CHECKING, Any

from specdb.errors import NotFound
from specdb.names import name_key
from specdb.tiers import BASES, RATIOS, Bandwidth, DatabaseFigures, Figures, System, ratio_rows

if TYPE_CHECKING:
    from specdb.dataset import Dataset

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
    from specdb.rows import dataset_rows

    return from_rows(dataset_rows(dataset, {"content_hash": dataset.content_hash}), label)


def from_database(connection: sqlite3.Connection, label: str) -> Snapshot:
    tables = {}
    for table in ("meta", *_OWNER):
        cursor = connection.execute(f"SELECT * FROM {table}")
        columns = [description[0] for description in cursor.description]
        tables[table] = [dict(zip(columns, row)) for row in cursor]
    return from_rows(tables, label)


# Each table's rows (as `t`) with the record they belong to: the owner column, the joins that find it, and the columns
# that place a row within its record; ids that only number rows within one database (`rows.NUMBERING`) are left out.
_OWNER = {
    "record": ("t.id", "", ()),
    "source": ("t.id", "", ()),
    "alias": ("t.record_id", "", ()),
    "record_use": ("t.record_id", "", ()),
    "figure": ("t.record_id", "", ()),
    "collective_run": ("f.record_id", "JOIN figure f ON f.id = t.figure_id", ("f.name",)),
    "claim": ("f.record_id", "JOIN figure f ON f.id = t.figure_id", ("f.name",)),
    "citation": (
        "f.record_id", "JOIN figure f ON f.id = t.figure_id LEFT JOIN claim c ON c.id = t.claim_id", ("f.name", "c.claim_kind", "c.position"),
    ),
}


def changed_records(old: Path, new: Path) -> set[str]:
    """Ids of the records and sources that differ in any row between two database files, or are in one only.

    Two databases of one specdb version and schema, each with a digest for every record, are compared by those
    digests, which the build writes with the rows; otherwise by the rows themselves (see `_changed_rows`).
    """
    connection = sqlite3.connect(":memory:", uri=True)
    try:
        for name, path in (("old", old), ("new", new)):
            connection.execute(f"ATTACH ? AS {name}", (f"{path.as_uri()}?mode=ro",))
        if _digests_comparable(connection):
            one_side_only = "SELECT id, digest FROM {0}.record_digest EXCEPT SELECT id, digest FROM {1}.record_digest"
            query = f"SELECT id FROM ({one_side_only.format('old', 'new')}) UNION SELECT id FROM ({one_side_only.format('new', 'old')})"
            return {row[0] for row in connection.execute(query)}
        return _changed_rows(connection)
    finally:
        connection.close()


def _digests_comparable(connection: sqlite3.Connection) -> bool:
    """Whether the attached databases were written by one specdb version, with one schema, and hold a digest for every record."""
    from specdb.rows import TABLES

    for table in TABLES:
        columns = [[row[1] for row in connection.execute(f"PRAGMA {name}.table_info({table})")] for name in ("old", "new")]
        if columns[0] != columns[1]:
            return False
    if not columns[0]:  # record_digest, the last table, is in neither: both made before digests were written
        return False
    versions = [
        connection.execute(f"SELECT value FROM {name}.meta WHERE key = 'specdb_version'").fetchone() for name in ("old", "new")
    ]
    if versions[0] is None or versions[0] != versions[1]:
        return False
    counts = "SELECT (SELECT count(*) FROM {0}.record) + (SELECT count(*) FROM {0}.source) = (SELECT count(*) FROM {0}.record_digest)"
    return all(connection.execute(counts.format(name)).fetchone()[0] for name in ("old", "new"))


def _changed_rows(connection: sqlite3.Connection) -> set[str]:
    """The records whose rows differ between the attached databases `old` and `new`.

    SQLite compares the rows itself, each with the record it belongs to and the keys that place it there, so no two
    rows of one record are alike: a record whose rows are as many on both sides and which has no new row missing
    from the old side is unchanged. Two databases whose tables have different columns (made by different specdb
    versions) have every record compared.
    """
    from specdb.rows import NUMBERING

    changed: set[str] = set()
    for table, (owner, joins, keys) in _OWNER.items():
        numbering = NUMBERING.get(table, ())
        columns = [[row[1] for row in connection.execute(f"PRAGMA {name}.table_info({table})")] for name in ("old", "new")]
        if columns[0] != columns[1]:
            return {row[0] for name in ("old", "new") for table in ("record", "source") for row in connection.execute(f"SELECT id FROM {name}.{table}")}
        values = ", ".join([owner, *keys, *(f"t.{column}" for column in columns[0] if column not in numbering)])
        old_rows, new_rows = (f"SELECT {values} FROM {name}.{table} t {joins.replace('JOIN ', f'JOIN {name}.')}" for name in ("old", "new"))
        old_counts, new_counts = (f"SELECT {owner}, count(*) FROM {name}.{table} t {joins.replace('JOIN ', f'JOIN {name}.')} GROUP BY {owner}" for name in ("old", "new"))
        query = f"SELECT * FROM ({old_counts} EXCEPT {new_counts}) UNION ALL SELECT * FROM ({new_counts} EXCEPT {old_counts})"
        changed.update(row[0] for row in connection.execute(query))
        changed.update(row[0] for row in connection.execute(f"{new_rows} EXCEPT {old_rows}"))
    return changed


def from_database_records(connection: sqlite3.Connection, label: str, record_ids: set[str]) -> Snapshot:
    """The named records of a database, with the ratios of every platform built on one of them (or being one)."""
    chosen = json.dumps(sorted(record_ids))
    tables = {}
    for table in ("meta", *_OWNER):
        if table == "meta":
            cursor = connection.execute("SELECT * FROM meta")
        else:
            owner, joins, _ = _OWNER[table]
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
