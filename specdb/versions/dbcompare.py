"""Which records differ between two database files, found by SQLite itself over both files attached read-only."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from specdb.db.rows import NUMBERING, OWNER, TABLES


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
    changed: set[str] = set()
    for table, (owner, joins, keys) in OWNER.items():
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
