"""The database with its Datasette metadata: title, licence, source and a description of every table and column.

Serve it with `datasette serve specdb.db --metadata metadata.json`. The copy
keeps only the meta facts that describe the data (not the paths and file
times of one build), and is rewritten by VACUUM so that the same data gives
the same bytes.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from specdb.errors import SpecdbError, UsageError
from specdb.export.folder import write_json
from specdb.export.tables import STABLE_META, tables
from specdb.licensing import DATA_LICENSE, DATA_LICENSE_URL

DATABASE = "specdb.db"


def write(connection: sqlite3.Connection, about: dict[str, Any], folder: Path) -> dict[str, Any]:
    if not isinstance(connection, sqlite3.Connection):
        raise UsageError("the datasette export is a copy of the SQLite file; export it from a SQLite --db (specdb build --db FILE)")
    target = folder / DATABASE
    try:
        copy = sqlite3.connect(target)
        try:
            connection.backup(copy)
            copy.execute(f"DELETE FROM meta WHERE key NOT IN ({', '.join('?' * len(STABLE_META))})", STABLE_META)
            copy.commit()
            copy.execute("VACUUM")
        finally:
            copy.close()
    except sqlite3.Error as exc:  # a full disk reaches SQLite's writer as an error of its own, not an OSError
        raise SpecdbError(f"the datasette export: cannot write the database copy ({exc})") from None
    write_json(folder / "metadata.json", metadata(connection, about))
    return {"open_with": f"datasette serve {DATABASE} --metadata metadata.json"}


def metadata(connection: sqlite3.Connection, about: dict[str, Any]) -> dict[str, Any]:
    """Datasette's metadata.json for the database named after DATABASE."""
    described = {
        table.name: {"description": table.description, "columns": {column.name: column.description for column in table.columns}}
        for table in tables(connection)
    }
    figure, record = described["figure"]["columns"], described["record"]["columns"]
    described["figure_view"] = {
        "description": "Each figure with its record's kind, name and vendor and the ids of its sources (a view over figure, record and citation).",
        "columns": {
            "record_id": figure["record_id"], "kind": record["kind"], "record_name": "The record's name.", "vendor": record["vendor"],
            "figure": figure["name"], **{name: figure[name] for name in ("value_text", "value", "unit", "direction", "scope", "status", "as_of", "reviewed")},
            "sources": "Ids of the sources cited for the figure, comma-separated.",
        },
    }
    described["alembic_version"] = {
        "description": "The schema revision of this database, kept by the Alembic migrations that created it.",
        "columns": {"version_num": "Alembic revision id."},
    }
    return {
        "title": "specdb: AI hardware figures with their sources",
        "description": (
            "Bandwidths, capacities and compute of AI accelerators, links, fabrics, platforms and clusters. Canonical values "
            "are SI (B/s, B, FLOP/s, s); every bandwidth says its direction and scope. " + about["attribution"]
        ),
        "license": DATA_LICENSE,
        "license_url": DATA_LICENSE_URL,
        "source": f"specdb {about['specdb_version']}, content {about['content_hash'][:12]}",
        "databases": {Path(DATABASE).stem: {"tables": described}},
    }
