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

Rows come back as tuples beside the list of column names: two columns may
share a name (`SELECT f.name, r.name ...`), and each keeps its own value.
`sql_tokens` reads a query as the server's lexer does, to refuse a query that
holds no statement and (on PostgreSQL) to name the functions it calls.
"""

from __future__ import annotations

import re
import sqlite3
import time
from typing import Any, Iterator, NamedTuple

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


Result = tuple[list[str], list[tuple[Any, ...]]]


def run_sql(
    connection: sqlite3.Connection,
    query: str,
    *,
    timeout: float = DEFAULT_TIMEOUT_SECONDS,
    max_rows: int = DEFAULT_MAX_ROWS,
) -> Result:
    """The column names and rows (tuples, in column order) of one read-only statement; no statement, a write, a file,
    a timeout or too many rows is a UsageError."""
    if not timeout > 0 or not max_rows > 0:
        raise UsageError("the time limit and the row limit must be greater than zero")
    require_statement(query)
    if not isinstance(connection, sqlite3.Connection):
        # A PostgreSQL reader: a read-only transaction under a statement timeout (see postgres.py).
        return connection.run_sql(query, timeout, max_rows)
    deadline = time.monotonic() + timeout
    connection.set_authorizer(_authorize)
    connection.set_progress_handler(lambda: int(time.monotonic() > deadline), _CHECK_EVERY)
    previous_length = connection.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, LONGEST_VALUE_BYTES)
    try:
        return fetch_limited(connection.execute(query), max_rows)
    except sqlite3.Error as exc:
        raise UsageError(f"SQL failed: {_reason(exc, timeout)}") from None
    finally:
        connection.set_authorizer(None)
        connection.set_progress_handler(None, 0)
        connection.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, previous_length)


def require_statement(query: str) -> None:
    """Refuse a query of nothing but blanks, comments and `;`, which would otherwise answer "(no rows)"."""
    if all(token.kind == "space" or token.text == ";" for token in sql_tokens(query)):
        raise UsageError("the query is empty (only blanks, comments or ';'); give one SQL statement")


def fetch_limited(cursor: Any, max_rows: int, *, deadline: float | None = None, timeout: float = 0.0) -> Result:
    """A DB-API cursor's column names and rows, fetched in batches; more than max_rows rows, or a batch ending after
    `deadline` (time.monotonic), is a UsageError, not a shortened answer."""
    columns = [description[0] for description in cursor.description or ()]
    rows: list[tuple[Any, ...]] = []
    while batch := cursor.fetchmany(1000):
        rows.extend(tuple(row) for row in batch)
        if len(rows) > max_rows:
            raise UsageError(f"the query returns more than {max_rows:,} rows; add a LIMIT or raise --max-rows")
        if deadline is not None and time.monotonic() > deadline:
            raise UsageError(f"SQL failed: {stopped_at(timeout)}")
    return columns, rows


def stopped_at(timeout: float) -> str:
    return f"stopped after the time limit of {timeout:g} s (raise it with --timeout)"


class Token(NamedTuple):
    kind: str  # "space" (blanks and comments), "string", "name", "quoted" (a "quoted" name), "unicode" (a U&"name"), or "other"
    text: str


# PostgreSQL's lexer (scan.l) as far as token boundaries go; SQLite's differs only where this sees more code than it does.
# A name may hold `$` after its first character, so `a$$b` is one name and a dollar quote starts only between tokens.
_LEXEME = re.compile(
    r"""(?P<space>\s+|--[^\n\r]*)
      | (?P<estring>[eE]'(?:[^'\\]|\\.|'')*'?)
      | (?P<unicode>[uU]&"(?:[^"]|"")*"?)
      | (?P<name>[A-Za-z_\x80-\U0010ffff][\w$\x80-\U0010ffff]*)
      | (?P<string>'(?:[^']|'')*'?)
      | (?P<quoted>"(?:[^"]|"")*"?)
      | (?P<dollar>\$(?:[A-Za-z_\x80-\U0010ffff][\w\x80-\U0010ffff]*)?\$)
      | (?P<other>.)""",
    re.VERBOSE | re.DOTALL,
)


def sql_tokens(query: str) -> Iterator[Token]:
    """The query's tokens in order. Block comments nest, as in PostgreSQL; an unclosed comment, string or dollar quote
    runs to the end of the text, so nothing after it is taken for code the server would not run."""
    position = 0
    while position < len(query):
        if query.startswith("/*", position):
            end = _comment_end(query, position)
            yield Token("space", query[position:end])
            position = end
            continue
        match = _LEXEME.match(query, position)
        kind = match.lastgroup
        end = match.end()
        if kind == "dollar":
            close = query.find(match.group(), end)
            end = len(query) if close < 0 else close + len(match.group())
            kind = "string"
        elif kind == "estring":
            kind = "string"
        yield Token(kind, query[position:end])
        position = end


def _comment_end(query: str, start: int) -> int:
    depth, position = 0, start
    while position < len(query):
        pair = query[position:position + 2]
        if pair == "/*":
            depth, position = depth + 1, position + 2
        elif pair == "*/":
            depth, position = depth - 1, position + 2
            if depth == 0:
                return position
        else:
            position += 1
    return len(query)


def called_functions(query: str) -> set[str]:
    """The names the query calls as functions, as PostgreSQL folds them: each name or "quoted name" followed
    (past blanks and comments) by `(`, the last part of a qualified one; a U&"name" is refused rather than decoded."""
    names: set[str] = set()
    previous: Token | None = None
    for token in sql_tokens(query):
        if token.kind == "space":
            continue
        if token.kind == "unicode":
            raise UsageError('SQL failed: specdb sql does not read U&"..." names; write the name plainly')
        if token.text == "(" and previous is not None and previous.kind in ("name", "quoted"):
            names.add(_folded(previous))
        previous = token
    return names


def _folded(token: Token) -> str:
    """A name as the server stores it: unquoted folded to lower case (ASCII only), quotes undone, cut to 63 bytes."""
    if token.kind == "quoted":
        name = token.text[1:-1].replace('""', '"')
    else:
        name = token.text.translate(_ASCII_LOWER)
    return name.encode()[:63].decode(errors="ignore")


_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def _reason(exc: sqlite3.Error, timeout: float) -> str:
    text = str(exc)
    if "interrupted" in text:
        return stopped_at(timeout)
    if "authoriz" in text:
        return "not allowed: the database is read-only and specdb sql only reads (no writes, ATTACH, VACUUM, transactions or pragma settings)"
    return text
