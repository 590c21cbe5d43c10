"""Read-only SQL over a specdb database: nothing written anywhere, a time limit, a row limit.

The connection is already read-only (`mode=ro`, `query_only`, extension
loading off as Python's sqlite3 leaves it); SQLite's authorizer adds what
those leave open: `ATTACH` (and `VACUUM INTO`, which attaches) would create a
file at any writable path, and a pragma could be set. Transactions are
refused too, so a write fails before it starts. A progress handler stops a runaway query at the time limit, and rows are
fetched in batches so that an endless result stops at the row limit instead
of filling memory. Limits are set as Datasette sets them (`sql_time_limit_ms`,
`max_returned_rows`), except that a result over the limit is an error, not a
silently shortened answer.
"""

from __future__ import annotations

import sqlite3
import time
from typing import Any

from specdb.errors import UsageError

DEFAULT_TIMEOUT_SECONDS = 10.0
DEFAULT_MAX_ROWS = 100_000
LONGEST_VALUE_BYTES = 16 * 2**20
_CHECK_EVERY = 1000  # virtual machine steps between two looks at the clock

# Pragmas that only report: those that take no argument, and those whose argument names a table or index.
_REPORTING_PRAGMAS = {
    "application_id", "collation_list", "compile_options", "data_version", "database_list", "encoding", "freelist_count",
    "function_list", "module_list", "page_count", "page_size", "pragma_list", "schema_version", "table_list", "user_version",
}
_PRAGMAS_NAMING_A_TABLE = {"foreign_key_check", "foreign_key_list", "index_info", "index_list", "index_xinfo", "integrity_check", "quick_check", "table_info", "table_xinfo"}
_DENIED = {sqlite3.SQLITE_ATTACH, sqlite3.SQLITE_DETACH, sqlite3.SQLITE_TRANSACTION}


def _authorize(action: int, first: str | None, second: str | None, database: str | None, trigger: str | None) -> int:
    if action in _DENIED:
        return sqlite3.SQLITE_DENY
    if action == sqlite3.SQLITE_PRAGMA:
        name = first.lower()
        allowed = name in _PRAGMAS_NAMING_A_TABLE or (name in _REPORTING_PRAGMAS and second is None)
        return sqlite3.SQLITE_OK if allowed else sqlite3.SQLITE_DENY
    return sqlite3.SQLITE_OK


def run_sql(
    connection: sqlite3.Connection,
    query: str,
    *,
    timeout: float = DEFAULT_TIMEOUT_SECONDS,
    max_rows: int = DEFAULT_MAX_ROWS,
) -> tuple[list[str], list[dict[str, Any]]]:
    """The columns and rows of one read-only statement; a write, a file, a timeout or too many rows is a UsageError."""
    if not timeout > 0 or not max_rows > 0:
        raise UsageError("the time limit and the row limit must be greater than zero")
    if not isinstance(connection, sqlite3.Connection):
        # A PostgreSQL reader: a read-only transaction under a statement timeout (see postgres.py).
        return connection.run_sql(query, timeout, max_rows)
    deadline = time.monotonic() + timeout
    connection.set_authorizer(_authorize)
    connection.set_progress_handler(lambda: int(time.monotonic() > deadline), _CHECK_EVERY)
    previous_length = connection.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, LONGEST_VALUE_BYTES)
    try:
        cursor = connection.execute(query)
        columns = [description[0] for description in cursor.description or ()]
        rows: list[dict[str, Any]] = []
        while batch := cursor.fetchmany(1000):
            rows.extend(dict(zip(columns, row)) for row in batch)
            if len(rows) > max_rows:
                raise UsageError(f"the query returns more than {max_rows:,} rows; add a LIMIT or raise --max-rows")
        return columns, rows
    except sqlite3.Error as exc:
        raise UsageError(f"SQL failed: {_reason(exc, timeout)}") from None
    finally:
        connection.set_authorizer(None)
        connection.set_progress_handler(None, 0)
        connection.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, previous_length)


def _reason(exc: sqlite3.Error, timeout: float) -> str:
    text = str(exc)
    if "interrupted" in text:
        return f"stopped after the time limit of {timeout:g} s (raise it with --timeout)"
    if "authoriz" in text:
        return "not allowed: the database is read-only and specdb sql only reads (no writes, ATTACH, VACUUM, transactions or pragma settings)"
    return text
