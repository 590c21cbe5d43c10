"""Which data a connection holds: its version, content hash, where it came from, its size and its licence."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from specdb import __version__
from specdb.db.catalog import counts
from specdb.licensing import CODE_LICENSE, DATA_LICENSE, DATA_LICENSE_URL, attribution
from specdb.load.release import data_version
from specdb.resources import bundled_specs
from specdb.db.store import read_meta


def describe(connection: sqlite3.Connection, specs: Path, db_path: Path) -> dict[str, Any]:
    """The facts `specdb info` prints: data version (see `release.data_version`), content hash, specs folder, database,
    counts and licences."""
    meta = read_meta(connection)
    content_hash = meta.get("content_hash", "")
    version = data_version(specs, content_hash)
    records, sources, figures = counts(connection)
    return {
        "specdb_version": __version__,
        "data_version": version,
        "content_hash": content_hash,
        "specs": str(specs),
        "bundled": specs.resolve() == bundled_specs().resolve(),
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
