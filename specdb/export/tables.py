"""What each table and column of the database means, and its rows in a stable order, for the exports that describe the data.

Column names, types, keys and nullability are read from the database itself;
only the words are written here, and a test checks every column has them.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Any

from specdb.format.units import CANONICAL_UNIT

# Meta keys that describe the data itself; the others describe one build (paths, file times) and would make exports differ.
STABLE_META = ("content_hash", "data_license", "record_format")

UNITS_NOTE = "canonical SI unit named in `unit`: " + ", ".join(dict.fromkeys(CANONICAL_UNIT.values()))
DIMENSIONS = ", ".join(f"{dimension} ({unit})" for dimension, unit in CANONICAL_UNIT.items())

TABLES: dict[str, tuple[str, dict[str, str]]] = {
    "record": ("One row per accelerator, link, fabric, system (platform) or cluster.", {
        "id": "Record id, e.g. nvidia-h100-sxm.",
        "kind": "accelerator, link, fabric, system or cluster.",
        "name": "Full product or standard name.",
        "vendor": "Vendor or standards body.",
        "family": "Product family or architecture, e.g. Hopper.",
        "released": "Release date as written in the spec: YYYY-MM or YYYY-MM-DD.",
        "released_date": "Release date as an ISO date; a month means its first day.",
        "notes": "Free-text notes on the record.",
        "path": "Spec file the record comes from, relative to the specs folder.",
    }),
    "source": ("Bibliography: one row per source that figures cite.", {
        "id": "Source id, referred to by citation.source_id.",
        "name": "Title of the document or page.",
        "publisher": "Who published it.",
        "url": "Where it can be read.",
        "citation": "Bibliographic citation, for sources without a URL.",
        "published": "Publication date (ISO).",
        "accessed": "Date the source was read (ISO).",
        "notes": "Free-text notes on the source.",
        "path": "Spec file the source comes from, relative to the specs folder.",
        "fingerprint": "SHA-256 of the source's text (normalised) when it was last reviewed, 'sha256:' and 64 hex digits.",
    }),
    "alias": ("Other names a record is known by.", {
        "alias_key": "The alias casefolded, for lookups.",
        "alias": "The alias as written.",
        "record_id": "The record it names.",
    }),
    "runtime_name": ("Names tools report for a part (nvidia-smi, torch, JAX, rocminfo, node labels) and its PCI ids, each with where it was seen.", {
        "name_key": "The name casefolded, for lookups; a PCI id as vendor:device.",
        "reported_by": "The tool that reports the name, or pci for a PCI vendor:device id.",
        "record_id": "The record it names.",
        "name": "The name as the tool prints it.",
        "source_id": "The source where the name was seen.",
    }),
    "record_use": ("The records a record is built from, by role.", {
        "record_id": "The record that uses another.",
        "role": "accelerator, scale_up, host_link, scale_out, nic or system.",
        "target_id": "The record used.",
    }),
    "figure": ("One row per figure of a record: its value, how it is counted, its status and review dates.", {
        "id": "Figure id.",
        "record_id": "The record the figure belongs to.",
        "name": "Figure name, e.g. memory_bandwidth.",
        "value_text": "The value as written in the spec, with its unit, e.g. 3.35 TB/s.",
        "value": f"The value in the {UNITS_NOTE}.",
        "unit": "Canonical unit of `value`.",
        "dimension": f"What the value measures, with its canonical unit: {DIMENSIONS}.",
        "direction": "For bandwidths: per-direction (one way), bidirectional (both directions added) or total (memory).",
        "scope": "per-accelerator, per-link, per-port, per-lane or per-system.",
        "status": "spec (a standard), announced, shipping or measured.",
        "as_of": "Date the source states the figure (ISO).",
        "as_of_text": "as_of as written: YYYY-MM or YYYY-MM-DD.",
        "reviewed": "Date the figure was last checked against its source (ISO).",
        "reviewed_text": "reviewed as written.",
        "precision": "For FLOP/s figures: fp64, fp32, tf32, bf16, fp16, fp8, fp6, fp4 or int8.",
        "sparsity": "For FLOP/s figures: dense or sparse.",
        "method": "For measured figures: how and on what machine.",
        "note": "Free-text note.",
        "uncertainty": "What is not known about the figure, and why.",
        "derived_product": "Space-separated figures whose product (times derived_factor) this figure equals.",
        "derived_factor": "Factor of the derivation (a plain number).",
        "warn_after": "Effective review policy: age after which the figure is due for review, e.g. '6 month'.",
        "error_after": "Effective review policy: age after which the figure is overdue.",
    }),
    "claim": ("Earlier values (history) and competing values (alternative) of a figure.", {
        "id": "Claim id.",
        "figure_id": "The figure the claim is about.",
        "claim_kind": "history or alternative.",
        "position": "Order among the figure's claims of this kind, from 0 (history: newest first).",
        "value_text": "The claimed value as written.",
        "value": f"The claimed value in the {UNITS_NOTE}.",
        "unit": "Canonical unit of `value`.",
        "status": "spec, announced, shipping or measured.",
        "direction": "per-direction, bidirectional or total, when it differs from the figure's.",
        "scope": "Scope, when it differs from the figure's.",
        "as_of": "Date the source states the claim (ISO).",
        "reviewed": "Date the claim was last checked (ISO).",
        "reason": "Why an alternative is not the canonical value.",
        "note": "Free-text note.",
    }),
    "citation": ("A source behind a figure (claim_id empty) or behind one of its claims, with the quoted words.", {
        "id": "Citation id.",
        "figure_id": "The figure cited for.",
        "claim_id": "The claim cited for; empty when the citation backs the figure itself.",
        "position": "Order among the citations of the figure or claim, from 0.",
        "source_id": "The source.",
        "quote": "Exact short quote from the source.",
        "locator": "Where in the source: page, table, section.",
        "note": "Free-text note.",
    }),
    "collective_run": ("What a measured collective bus-bandwidth figure was measured on: one nccl-tests-style run.", {
        "figure_id": "The measured figure (its value is the run's bus bandwidth, B/s).",
        "operation": "all-reduce, all-gather, reduce-scatter, all-to-all or point-to-point.",
        "accelerators": "Accelerators taking part in the run.",
        "size_bytes": "Message size in bytes (B); empty for a large-message peak stated without a size.",
        "size_text": "The message size as written in the source.",
        "algorithm": "ring, tree, nvls (NVLink SHARP) or collnet (InfiniBand SHARP).",
        "library": "Library and version, e.g. NCCL 2.18.5.",
        "domains": "Scale-up domains (nodes) the run spanned; empty when as few as hold its accelerators.",
    }),
    "record_digest": ("A digest of each record's rows, so that two versions of the database are compared record by record.", {
        "id": "The record or source.",
        "digest": "BLAKE2b hash (128 bits, hex) of every row the record owns, in order, leaving out the ids that only number rows.",
    }),
    "meta": ("Facts about the data as a whole.", {
        "key": "content_hash (SHA-256 of the spec files), data_license (SPDX id) or record_format (version of the spec format).",
        "value": "The fact's value.",
    }),
}

DATE_COLUMNS = {"released_date", "published", "accessed", "as_of", "reviewed"}


@dataclass(frozen=True)
class Column:
    name: str
    sql_type: str
    required: bool
    description: str

    @property
    def kind(self) -> str:
        """integer, number, date or string."""
        if self.name in DATE_COLUMNS:
            return "date"
        return {"INTEGER": "integer", "FLOAT": "number"}.get(self.sql_type.upper(), "string")


@dataclass(frozen=True)
class Table:
    name: str
    description: str
    columns: tuple[Column, ...]
    primary_key: tuple[str, ...]
    foreign_keys: tuple[tuple[str, str, str], ...]  # (column, referenced table, referenced column)


def tables(connection: sqlite3.Connection) -> list[Table]:
    """Every data table of the database, described, in a stable order."""
    described = []
    for name, (description, words) in TABLES.items():
        info = _table_info(connection, name)
        columns = tuple(Column(row[1], row[2], bool(row[3]), words[row[1]]) for row in info)
        primary_key = tuple(row[1] for row in sorted((row for row in info if row[5]), key=lambda row: row[5]))
        foreign_keys = tuple(sorted((row[3], row[2], row[4]) for row in _foreign_key_list(connection, name)))
        described.append(Table(name, description, columns, primary_key, foreign_keys))
    return described


def _table_info(connection: sqlite3.Connection, name: str) -> list[tuple[Any, ...]]:
    if isinstance(connection, sqlite3.Connection):
        return connection.execute(f"PRAGMA table_info({name})").fetchall()
    return connection.table_info(name)  # a PostgreSQL reader answers in the pragma's shape (see postgres.py)


def _foreign_key_list(connection: sqlite3.Connection, name: str) -> list[tuple[Any, ...]]:
    if isinstance(connection, sqlite3.Connection):
        return connection.execute(f"PRAGMA foreign_key_list({name})").fetchall()
    return connection.foreign_key_list(name)


def rows(connection: sqlite3.Connection, table: Table) -> list[tuple[Any, ...]]:
    """The table's rows ordered by primary key; for meta, only the facts that describe the data."""
    names = ", ".join(column.name for column in table.columns)
    where = f" WHERE key IN ({', '.join('?' * len(STABLE_META))})" if table.name == "meta" else ""
    order = ", ".join(table.primary_key)
    return connection.execute(f"SELECT {names} FROM {table.name}{where} ORDER BY {order}", STABLE_META if where else ()).fetchall()
