"""specdb: a reviewed, versioned database of AI hardware figures.

The Python API (the CLI is a thin layer over it):

    import specdb
    dataset = specdb.load_specs()            # validate the bundled specs (or a folder)
    connection = specdb.connect()            # read-only sqlite3 connection, built on demand
    specdb.records(connection, kind="accelerator")
    specdb.show(connection, "NVIDIA H100 80GB HBM3")
    specdb.figures(connection, name="memory_bandwidth")
    specdb.check_text(open("page.md").read(), connection)   # the hardware figures in prose, each with a verdict

Heavy libraries (SQLModel, Alembic, pydantic) load only when specs are
validated or a database is built, never on import.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

if TYPE_CHECKING:
    import sqlite3

    from specdb.builder import BuildResult
    from specdb.check import Database, Finding
    from specdb.dataset import Dataset


def load_specs(specs: str | Path | None = None) -> "Dataset":
    """Read and validate a specs folder (default: ./specs, else the bundled data); problems are in `.problems`."""
    from specdb.dataset import load_specs as load
    from specdb.locations import resolve_specs

    return load(resolve_specs(specs))


def build(specs: str | Path | None = None, db: str | Path | None = None) -> "BuildResult":
    """Build (or confirm up to date) the database for a specs folder; raises InvalidSpecs on bad specs."""
    from specdb.builder import build as build_database
    from specdb.locations import resolve_db, resolve_specs

    specs_dir = resolve_specs(specs)
    return build_database(specs_dir, resolve_db(db, specs_dir))


def connect(specs: str | Path | None = None, db: str | Path | None = None) -> "sqlite3.Connection":
    """A read-only connection to the database of a specs folder, built or refreshed first when needed."""
    from specdb.locations import resolve_db, resolve_specs
    from specdb.store import open_fresh

    specs_dir = resolve_specs(specs)
    return open_fresh(resolve_db(db, specs_dir), specs_dir)


def records(connection: "sqlite3.Connection", kind: str | None = None) -> list[dict[str, Any]]:
    from specdb.catalog import list_records

    return list_records(connection, kind)


def show(connection: "sqlite3.Connection", record: str) -> dict[str, Any]:
    """One record (by id or alias) with every figure, its sources, history and alternatives."""
    from specdb.catalog import show_record

    return show_record(connection, record)


def figures(connection: "sqlite3.Connection", **filters: Any) -> list[dict[str, Any]]:
    """Figures across records; filters: kind, name (LIKE pattern), vendor, record, status."""
    from specdb.catalog import list_figures

    return list_figures(connection, **filters)


def check_text(text: str, connection: "sqlite3.Connection | Database", **options: Any) -> list["Finding"]:
    """The hardware figures claimed in `text` (plain text, Markdown or HTML), each with its verdict against the database.

    Verdicts: ok, mismatch, stale, ambiguous-basis (a bandwidth whose counting
    the text does not state, where the two counts differ), mixed-basis (a ratio
    or a derived time that mixes figures counted differently) and unmatched
    (hardware, or a kind of figure, the database does not hold). Options:
    `path` (for locations and the format guess), `fmt` ("text", "markdown",
    "html"), `as_of` (a date: check against the values then, from the
    figures' history), `reviewed` (the page's review date when the text does
    not state it). Each Finding has path, line, column, claim, verdict,
    record_id, figure, expected, basis, note and a suggested correction.
    """
    from specdb.check import check_text as check

    return check(text, connection, **options)
