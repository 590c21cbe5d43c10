"""Which data a connection holds: its version, content hash, where it came from, its size and its licence."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from specdb import DATA_VERSION, __version__
from specdb.db.catalog import counts
from specdb.licensing import CODE_LICENSE, DATA_LICENSE, DATA_LICENSE_URL, attribution
from specdb.resources import bundled_specs
from specdb.db.store import read_meta


def data_version(specs: Path) -> str | None:
    """The bundled data's version (released with the package); None for any other specs folder, told apart by its content hash."""
    return DATA_VERSION if specs.resolve() == bundled_specs().resolve() else None


def describe(connection: sqlite3.Connection, specs: Path, db_path: Path) -> dict[str, Any]:
    """The facts `specdb info` prints: data version, content hash, specs folder, database, counts and licences."""
    meta = read_meta(connection)
    version = data_version(specs)
    content_hash = meta.get("content_hash", "")
    records, sources, figures = counts(connection)
    return {
        "specdb_version": __version__,
        "data_version": version,
        "content_hash": content_hash,
        "specs": str(specs),
        "bundled": version is not None,
        "database": str(db_path),
        "record_format": meta.get("record_format"),
        "git_revision": meta.get("git_revision") or None,
        "records": records,
        "sources": sources,
        "figures": figures,
        "code_license": CODE_LICENSE,
        "data_license": meta.get("data_license", DATA_LICENSE),
        "data_license_url": DATA_LICENSE_URL,
        "attribution": attribution(version, content_hash),
    }
