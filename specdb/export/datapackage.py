"""A Frictionless Data Package: datapackage.json plus one CSV per table, with types, descriptions, keys, licence and sources.

Follows the Data Package and Table Schema specifications (v1) so that
`frictionless validate datapackage.json` checks every row.
"""

from __future__ import annotations

import csv
import sqlite3
from pathlib import Path
from typing import Any

from specdb.export.folder import write_json
from specdb.export.tables import Table, rows, tables
from specdb.licensing import DATA_LICENSE, DATA_LICENSE_TITLE, DATA_LICENSE_URL
from specdb.output import exact_number


def write(connection: sqlite3.Connection, about: dict[str, Any], folder: Path) -> dict[str, Any]:
    resources = []
    for table in tables(connection):
        _write_csv(folder / f"{table.name}.csv", table, rows(connection, table))
        resources.append(_resource(table))
    write_json(folder / "datapackage.json", {
        "profile": "tabular-data-package",
        "name": "specdb",
        "title": "specdb: AI hardware figures with their sources",
        "description": (
            "Memory, scale-up, host-link and scale-out bandwidths, capacities and compute of AI accelerators, links, "
            "fabrics, platforms and clusters; every figure with its unit, direction, scope, status, review date and "
            f"citations. {about['attribution']}"
        ),
        "version": about["data_version"] or f"{about['specdb_version']}+{about['content_hash'][:12]}",
        "licenses": [{"name": DATA_LICENSE, "path": DATA_LICENSE_URL, "title": DATA_LICENSE_TITLE}],
        "sources": _sources(connection),
        "resources": resources,
    })
    return {"open_with": "frictionless validate datapackage.json"}


def _resource(table: Table) -> dict[str, Any]:
    schema: dict[str, Any] = {
        "fields": [
            {"name": column.name, "type": column.kind, "description": column.description, **({"constraints": {"required": True}} if column.required else {})}
            for column in table.columns
        ],
        "missingValues": [""],
        "primaryKey": list(table.primary_key),
    }
    if table.foreign_keys:
        schema["foreignKeys"] = [
            {"fields": column, "reference": {"resource": referenced, "fields": referenced_column}}
            for column, referenced, referenced_column in table.foreign_keys
        ]
    return {
        "name": table.name,
        "path": f"{table.name}.csv",
        "profile": "tabular-data-resource",
        "description": table.description,
        "format": "csv",
        "mediatype": "text/csv",
        "encoding": "utf-8",
        "schema": schema,
    }


def _write_csv(path: Path, table: Table, values: list[tuple[Any, ...]]) -> None:
    with open(path, "w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(column.name for column in table.columns)
        writer.writerows([_cell(value) for value in row] for row in values)


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return exact_number(value)
    return str(value)


def _sources(connection: sqlite3.Connection) -> list[dict[str, str]]:
    """Every publication the figures cite, as Data Package sources (title, and path where there is a URL)."""
    sources = []
    for source_id, name, publisher, url in connection.execute("SELECT id, name, publisher, url FROM source ORDER BY id"):
        entry = {"title": f"{publisher}: {name}"}
        if url:
            entry["path"] = url
        sources.append(entry)
    return sources
