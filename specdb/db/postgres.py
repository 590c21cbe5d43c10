"""Reading a database published to a PostgreSQL server, through the same functions that read the SQLite file.

The read functions speak DB-API the way the standard library's sqlite3 does:
`connection.execute(sql, params)` with `?` placeholders, rows that unpack like
tuples and index by column name. `Reader` gives them that over psycopg, so
every read command runs unchanged on either back end and prints the same.

The data lives in the schema `specdb`. A build fills a new schema and renames
it into place in one transaction (see `publish.py`); a specdb reader holds a
shared advisory lock for its whole transaction, so that rename waits for it
and every reader sees one published version from its first query to its last.
A dashboard's single statement needs no lock: PostgreSQL resolves its tables
once, under a snapshot taken after the rename committed or before it began.

Imported only for a postgresql:// database; the SQLite path never loads it.
"""

from __future__ import annotations

import re
import threading
import time
from typing import Any

from specdb.errors import DatabaseError, UsageError
from specdb.locations import ServerDatabase, without_passwords
from specdb.db.sqlquery import Result, called_functions, fetch_limited, stopped_at
from specdb.db.store import HEAD_REVISION, refuse_newer

SCHEMA = "specdb"
# Advisory lock keys (any 64-bit numbers, fixed): one serialises builds, one lets a rename wait for readers.
BUILD_LOCK = 0x5EC_DB_0001
READ_LOCK = 0x5EC_DB_0002
CONNECT_TIMEOUT_SECONDS = 10
# How long a reader waits for the read lock, which a publish holds while it renames the new data into place.
LOCK_WAIT_SECONDS = 10.0


def driver() -> Any:
    """The psycopg module; without it, a message saying how to install it."""
    try:
        import psycopg
    except ImportError:
        raise DatabaseError("a postgresql:// database needs the PostgreSQL driver: pip install 'specdb[postgres]'") from None
    return psycopg


def connect_server(db: ServerDatabase, *, read_only: bool) -> Any:
    """A psycopg connection with the published schema on its search path; a failure is one line naming the server, never the password."""
    psycopg = driver()
    options = f"-c search_path={SCHEMA}" + (" -c default_transaction_read_only=on" if read_only else "")
    try:
        connection = psycopg.connect(db.url, connect_timeout=CONNECT_TIMEOUT_SECONDS, options=options)
    except psycopg.ProgrammingError as exc:  # libpq cannot read the URL
        raise UsageError(f"{db}: not a valid server URL ({reason(exc, db)})") from None
    except (psycopg.Error, ValueError) as exc:
        raise DatabaseError(f"{db}: cannot connect ({reason(exc, db)})") from None
    if read_only:
        connection.read_only = True
    return connection


def reason(exc: BaseException, db: ServerDatabase) -> str:
    """The cause a driver error gives, on one line (without the host it tried or libpq's hints), with any password in it blanked."""
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()] or [type(exc).__name__]
    # libpq tells each failed attempt as "connection to server at/on ... failed: <cause>"; the last attempt's cause is the answer.
    causes = [match.group(1) for line in lines if (match := _ATTEMPT.search(line))]
    return without_passwords(causes[-1] if causes else lines[0], db.url)


_ATTEMPT = re.compile(r"connection to server (?:at|on) .*? failed: (?:FATAL:\s+)?(.*)$")


class Row(tuple):
    """A result row as sqlite3.Row behaves: a tuple that also answers row["column"] (the first column of that
    name) and keys() (every column's name, repeats included)."""

    _names: list[str]
    _index: dict[str, int]

    def __new__(cls, values: Any, names: list[str], index: dict[str, int]) -> "Row":
        row = super().__new__(cls, values)
        row._names = names
        row._index = index
        return row

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, str):
            return tuple.__getitem__(self, self._index[key])
        return tuple.__getitem__(self, key)

    def keys(self) -> list[str]:
        return list(self._names)


def _row_factory(cursor: Any) -> Any:
    names = [column.name for column in cursor.description or ()]
    index: dict[str, int] = {}
    for position, name in enumerate(names):
        index.setdefault(name, position)
    return lambda values: Row(values, names, index)


# A quoted literal is kept whole; outside literals `?` is a placeholder; `%` is doubled everywhere, as psycopg wants.
_TOKENS = re.compile(r"'(?:[^']|'')*'|\?|%")


def _placeholders(sql: str) -> str:
    def replace(match: re.Match[str]) -> str:
        token = match.group(0)
        if token == "?":
            return "%s"
        if token == "%":
            return "%%"
        return token.replace("%", "%%")

    return _TOKENS.sub(replace, sql)


class Reader:
    """A read-only connection to a published database that the read functions use like a sqlite3 connection."""

    def __init__(self, connection: Any, db: ServerDatabase, wait: float = LOCK_WAIT_SECONDS):
        self.connection = connection
        self.db = db
        self.wait = wait

    @classmethod
    def open(cls, db: ServerDatabase, *, wait: float = LOCK_WAIT_SECONDS) -> "Reader":
        """A new connection whose transaction holds the shared read lock from its first query on; waiting longer than
        `wait` seconds for any lock (behind a publish that is renaming its data into place) is a DatabaseError."""
        psycopg = driver()
        reader = cls(connect_server(db, read_only=True), db, wait)
        try:
            reader.execute(f"SET LOCAL lock_timeout = {_milliseconds(wait)}")
            reader.connection.execute("SELECT pg_advisory_xact_lock_shared(%s)", (READ_LOCK,))
        except psycopg.errors.LockNotAvailable:
            reader.close()
            raise DatabaseError(f"{db}: waited {wait:g} s for the read lock, held by a publish of new data; try again") from None
        except psycopg.OperationalError as exc:
            reader.close()
            raise DatabaseError(f"{db}: {reason(exc, db)}") from None
        except BaseException:
            reader.close()
            raise
        return reader

    def execute(self, sql: str, params: Any = ()) -> Any:
        cursor = self.connection.cursor(row_factory=_row_factory)
        return self._wrap(lambda: cursor.execute(_placeholders(sql), tuple(params)))

    def _wrap(self, call: Any) -> Any:
        psycopg = driver()
        try:
            return call()
        except psycopg.errors.LockNotAvailable:
            raise DatabaseError(f"{self.db}: waited {self.wait:g} s for a lock on the published tables, held by another session; try again") from None
        except psycopg.OperationalError as exc:
            raise DatabaseError(f"{self.db}: {reason(exc, self.db)}") from None

    def close(self) -> None:
        self.connection.close()

    def __enter__(self) -> "Reader":
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def schema_revision(self) -> str | None:
        """The published schema's Alembic revision; None when nothing is published here."""
        if self.execute("SELECT to_regclass(?)", (f"{SCHEMA}.alembic_version",)).fetchone()[0] is None:
            return None
        row = self.execute("SELECT version_num FROM alembic_version").fetchone()
        return row[0] if row else None

    def table_info(self, table: str) -> list[tuple[Any, ...]]:
        """A table's columns as SQLite's `PRAGMA table_info` gives them (cid, name, type, notnull, default, pk), types named as on SQLite."""
        return [
            (cid, name, _SQLITE_TYPES.get(sql_type, sql_type.upper()), notnull, default, pk)
            for cid, name, sql_type, notnull, default, pk in self.execute(_TABLE_INFO, (SCHEMA, table)).fetchall()
        ]

    def foreign_key_list(self, table: str) -> list[tuple[Any, ...]]:
        """A table's foreign keys as SQLite's `PRAGMA foreign_key_list` gives them (id, seq, table, from, to)."""
        return self.execute(_FOREIGN_KEYS, (SCHEMA, table)).fetchall()

    def run_sql(self, query: str, timeout: float, max_rows: int) -> Result:
        """One query through a server-side cursor (which takes only SELECT, VALUES and TABLE) in this read-only
        transaction, calling no function that can change anything (see `_refuse_side_effects`).

        The time limit is kept twice: as the statement and lock timeouts, and by a clock on this side that cancels
        whatever the query is doing when the time is up, so that nothing the query sets can lift it."""
        psycopg = driver()
        deadline = time.monotonic() + timeout
        finished = threading.Event()
        canceller = threading.Thread(target=self._cancel_after, args=(deadline, finished), daemon=True)
        try:
            self._refuse_side_effects(query)
            milliseconds = _milliseconds(timeout)
            self.connection.execute(f"SET LOCAL statement_timeout = {milliseconds}")
            self.connection.execute(f"SET LOCAL lock_timeout = {milliseconds}")
            # The lexer that found the calls reads backslashes in strings as the server does only with this on.
            self.connection.execute("SET LOCAL standard_conforming_strings = on")
            canceller.start()
            with self.connection.cursor(name="specdb_sql") as cursor:
                cursor.execute(query.replace("%", "%%"), ())
                return fetch_limited(cursor, max_rows, deadline=deadline, timeout=timeout)
        except (psycopg.errors.QueryCanceled, psycopg.errors.LockNotAvailable):
            raise UsageError(f"SQL failed: {stopped_at(timeout)}") from None
        except psycopg.errors.SyntaxError as exc:
            raise UsageError(f"SQL failed: {reason(exc, self.db)} (specdb sql reads: one SELECT, VALUES or TABLE query)") from None
        except psycopg.errors.ReadOnlySqlTransaction:
            raise UsageError("SQL failed: the database is opened read-only; specdb sql only reads") from None
        except psycopg.OperationalError as exc:
            raise DatabaseError(f"{self.db}: {reason(exc, self.db)}") from None
        except psycopg.Error as exc:
            raise UsageError(f"SQL failed: {reason(exc, self.db)}") from None
        finally:
            finished.set()
            if canceller.is_alive():
                canceller.join()

    def _cancel_after(self, deadline: float, finished: threading.Event) -> None:
        """Cancel the running statement at the deadline, and again every tenth of a second until the query returns:
        a cancel that arrives between two fetches cancels nothing."""
        psycopg = driver()
        delay = max(0.0, deadline - time.monotonic())
        while not finished.wait(delay):
            try:
                self.connection.cancel()
            except psycopg.Error:
                return  # the connection is gone: nothing is left running, and the server's statement timeout still holds
            delay = 0.1

    def _refuse_side_effects(self, query: str) -> None:
        """Refuse a query that calls a function PostgreSQL marks VOLATILE (one that may change something: a setting,
        a lock, a notification, a file, another server), except those that only read the clock, draw random numbers,
        wait, or sample a table. The names come from the query's text as the server's lexer reads it."""
        names = called_functions(query) - _HARMLESS_VOLATILE
        if not names:
            return
        volatile = self.connection.execute(
            "SELECT DISTINCT proname FROM pg_catalog.pg_proc WHERE provolatile = 'v' AND proname = ANY(%s) ORDER BY proname", (sorted(names),)
        ).fetchall()
        if volatile:
            listed = ", ".join(f"{name}()" for (name,) in volatile)
            raise UsageError(f"SQL failed: {listed} can change something outside the query (PostgreSQL marks it VOLATILE); specdb sql only reads")


# Functions PostgreSQL marks VOLATILE that change nothing: the clock, random numbers, a sleep (under the time limit), table samples.
_HARMLESS_VOLATILE = frozenset({
    "clock_timestamp", "timeofday", "random", "random_normal", "gen_random_uuid", "pg_sleep", "pg_sleep_for", "pg_sleep_until", "bernoulli", "system",
})


def _milliseconds(seconds: float) -> int:
    return max(1, round(seconds * 1000))


# The type each back end gives one SQLAlchemy column type: String, Float, Integer.
_SQLITE_TYPES = {"character varying": "VARCHAR", "double precision": "FLOAT", "integer": "INTEGER"}
_TABLE_INFO = """
SELECT c.ordinal_position - 1, c.column_name, c.data_type, CASE WHEN c.is_nullable = 'NO' THEN 1 ELSE 0 END, c.column_default,
       COALESCE(array_position(con.conkey, a.attnum), 0)
FROM information_schema.columns c
JOIN pg_class t ON t.relname = c.table_name JOIN pg_namespace n ON n.oid = t.relnamespace AND n.nspname = c.table_schema
JOIN pg_attribute a ON a.attrelid = t.oid AND a.attname = c.column_name
LEFT JOIN pg_constraint con ON con.conrelid = t.oid AND con.contype = 'p'
WHERE c.table_schema = ? AND c.table_name = ? ORDER BY c.ordinal_position
"""
_FOREIGN_KEYS = """
SELECT row_number() OVER (ORDER BY con.conname) - 1, 0, target.relname, a.attname, ta.attname
FROM pg_constraint con JOIN pg_class t ON t.oid = con.conrelid JOIN pg_namespace n ON n.oid = t.relnamespace
JOIN pg_class target ON target.oid = con.confrelid
JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = con.conkey[1]
JOIN pg_attribute ta ON ta.attrelid = con.confrelid AND ta.attnum = con.confkey[1]
WHERE con.contype = 'f' AND n.nspname = ? AND t.relname = ?
"""


def connect_readonly(db: ServerDatabase, *, wait: float = LOCK_WAIT_SECONDS) -> Reader:
    """A reader of the publication as it is; a server with nothing published, or a publication of another schema, is refused.

    Reading never writes: a publication older or newer than this specdb's schema is refused with what to do, never migrated.
    """
    reader = Reader.open(db, wait=wait)
    revision = reader.schema_revision()
    if revision != HEAD_REVISION:
        reader.close()
        if revision is None:
            raise DatabaseError(f"{db}: nothing published here yet (no schema {SCHEMA}); publish with: {publish_command(db)}")
        refuse_newer(db, revision, made="published")
        raise DatabaseError(
            f"{db}: published by an older specdb (schema revision {revision}; this one reads {HEAD_REVISION}); publish again with: {publish_command(db)}"
        )
    return reader


def publish_command(db: ServerDatabase, specs: Any = None) -> str:
    """The command line that publishes to db (from specs, when named), quoted for a shell, the password left out."""
    from shlex import quote

    return "specdb build" + (f" --specs {quote(str(specs))}" if specs is not None else "") + f" --db {quote(str(db))}"


# The publish log: one row a publish, kept in the published schema and carried into each new one (see `publish.py`).
PUBLICATION_TABLE = "publication"


def publications(reader: Reader, limit: int) -> list[dict[str, Any]]:
    """The last `limit` publishes, newest first: when, by whom, which content hash, the one before it, and the specdb that published."""
    if reader.execute("SELECT to_regclass(?)", (f"{SCHEMA}.{PUBLICATION_TABLE}",)).fetchone()[0] is None:
        return []
    rows = reader.execute(
        f"SELECT number, to_char(published_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"') AS published_at, published_by,"
        f" content_hash, previous_content_hash, specdb_version FROM {PUBLICATION_TABLE} ORDER BY number DESC LIMIT ?",
        (limit,),
    ).fetchall()
    return [dict(zip(row.keys(), row)) for row in rows]
