"""specdb: a reviewed, versioned database of AI hardware figures.

The Python API (the CLI is a thin layer over it):

    import specdb
    connection = specdb.connect()            # read-only sqlite3 connection to the bundled data, built on demand
    specdb.records(connection, kind="accelerator")
    specdb.show(connection, "NVIDIA H100 80GB HBM3")
    specdb.figures(connection, name="memory_bandwidth")
    specdb.check_text(open("page.md").read(), connection)   # the hardware figures in prose, each with a verdict
    specdb.info()                            # data version, content hash, where the data is, licence
    specdb.write_export("datapackage", "out") # the data for another tool (see specdb.export.FORMATS)

Every call reads the data bundled with the package unless it is given a specs
folder or a database (as an argument, or through $SPECDB_SPECS / $SPECDB_DB);
the working folder never matters. Canonical values are SI (B/s, B, FLOP/s, s).

Heavy libraries (SQLModel, Alembic, pydantic) load only when specs are
validated or a database is built, never on import.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"
# How many of a server's publishes `info` lists.
INFO_PUBLICATIONS = 5

__all__ = [
    "DATA_VERSION",
    "__version__",
    "build",
    "check_text",
    "connect",
    "figures",
    "info",
    "load_specs",
    "peak",
    "records",
    "show",
    "write_export",
]

if TYPE_CHECKING:
    import sqlite3
    from pathlib import Path

    from specdb.db.builder import BuildResult
    from specdb.check.verdicts import Database, Finding
    from specdb.load.dataset import Dataset
    from specdb.export import ExportResult

PathLike = str | os.PathLike[str]


def __getattr__(name: str) -> Any:
    """`DATA_VERSION`: the data release the bundled specs name in their RELEASE file, read when first asked for (None
    without one). `info` says whether the files read are that release's, or changed since."""
    if name == "DATA_VERSION":
        from specdb.load.release import read_release
        from specdb.resources import bundled_specs

        release = read_release(bundled_specs())
        return release.version if release is not None else None
    raise AttributeError(f"module 'specdb' has no attribute {name!r}")


def load_specs(specs: PathLike | None = None) -> Dataset:
    """Read and validate a specs folder (default: $SPECDB_SPECS, else the bundled data).

    Never raises for bad specs: the returned dataset's `.ok` is False and
    `.problems` lists each one as `path:line:column: message`.
    """
    from specdb.load.dataset import load_specs as load
    from specdb.locations import resolve_specs

    return load(resolve_specs(specs))


def build(specs: PathLike | None = None, db: PathLike | None = None) -> BuildResult:
    """Build the database for a specs folder, or confirm it is up to date.

    specs defaults to $SPECDB_SPECS, else the bundled data; db to $SPECDB_DB,
    else a per-user cache file. Raises `specdb.errors.InvalidSpecs` (with
    `.problems`) on bad specs, leaving any existing database untouched.
    """
    from specdb.db.access import build as build_database
    from specdb.locations import resolve_db, resolve_specs

    specs_dir = resolve_specs(specs)
    return build_database(specs_dir, resolve_db(db, specs_dir))


def connect(specs: PathLike | None = None, db: PathLike | None = None, refresh: bool = False) -> sqlite3.Connection:
    """A read-only `sqlite3` connection (rows as `sqlite3.Row`) to the database of a specs folder.

    A SQLite file is built, or rebuilt when the specs changed, before it is
    opened. Defaults as for `build`. For a postgresql:// database it is a
    reader with the same `execute` and rows (see `specdb.db.postgres.Reader`),
    holding one publication until it is closed; the publication is read as
    it is, never published to (when it does not hold the specs, a line on
    stderr says so, once) unless `refresh` asks for a publish first.
    """
    from specdb.locations import resolve_db, resolve_specs
    from specdb.db.access import open_fresh

    specs_dir = resolve_specs(specs)
    return open_fresh(resolve_db(db, specs_dir), specs_dir, refresh=refresh)


def info(specs: PathLike | None = None, db: PathLike | None = None, refresh: bool = False) -> dict[str, Any]:
    """Which data these arguments give: `data_version` (the release the specs folder's RELEASE file names, followed by
    `+` and the first digits of the content hash when the files are not that release's; None without the file),
    `content_hash`, `specs`, `database`, counts of records, sources and figures,
    and the code and data licences with the attribution line to copy. For a server, also
    `publications`: the last few publishes, newest first (when, by whom, content hash, the
    one before it, specdb version). `refresh` as for `connect`.
    """
    from specdb.locations import ServerDatabase, resolve_db, resolve_specs
    from specdb.db.access import open_fresh

    specs_dir = resolve_specs(specs)
    db_path = resolve_db(db, specs_dir)
    connection = open_fresh(db_path, specs_dir, refresh=refresh)
    try:
        facts = _describe(connection, specs_dir, db_path)
        if isinstance(db_path, ServerDatabase):
            from specdb.db.postgres import publications

            facts["publications"] = publications(connection, limit=INFO_PUBLICATIONS)  # type: ignore[arg-type]
        return facts
    finally:
        connection.close()


def write_export(
    fmt: str, folder: PathLike, specs: PathLike | None = None, db: PathLike | None = None, force: bool = False, refresh: bool = False
) -> ExportResult:
    """Write the data in one export format (`datapackage`, `datasette`, `llm-analysis`, `aiconfigurator`) into folder.

    The folder is replaced whole when it holds an earlier export; a non-empty
    folder no export wrote raises `specdb.errors.UsageError` unless force, as
    do an empty name and a folder that holds the working folder, the specs or
    the database. Defaults for specs and db as for `build`, `refresh` as for
    `connect`; the manifest names the content hash of the data exported.
    """
    from specdb.export import export
    from specdb.locations import resolve_db, resolve_specs
    from specdb.db.access import open_fresh

    specs_dir = resolve_specs(specs)
    db_path = resolve_db(db, specs_dir)
    connection = open_fresh(db_path, specs_dir, refresh=refresh)
    try:
        return export(connection, _describe(connection, specs_dir, db_path), fmt, folder, force)
    finally:
        connection.close()


def _describe(connection: Any, specs_dir: Path, db_path: Any) -> dict[str, Any]:
    """What `info` says of the data read; a server's publication of other data than the bundled specs has no data version."""
    from specdb.db.about import describe
    from specdb.locations import ServerDatabase

    facts = describe(connection, specs_dir, db_path)
    if isinstance(db_path, ServerDatabase) and facts["bundled"]:
        from specdb.licensing import attribution
        from specdb.db.publication import holds_specs

        if not holds_specs(connection, specs_dir):
            facts.update(data_version=None, bundled=False, attribution=attribution(None, facts["content_hash"]))
    return facts


def records(connection: sqlite3.Connection, kind: str | None = None) -> list[dict[str, Any]]:
    """One dict per record (id, kind, name, vendor, family, released, figures, last_reviewed), optionally of one kind."""
    from specdb.db.catalog import list_records

    return list_records(connection, kind)


def show(connection: sqlite3.Connection, record: str) -> dict[str, Any]:
    """One record (by id, alias or name) with every figure, its sources, history and alternatives.

    Raises `specdb.errors.NotFound` for an unknown record, naming the closest matches.
    """
    from specdb.db.catalog import show_record

    return show_record(connection, record)


def peak(name: str, dtype: str, sparse: bool = False, *, connection: sqlite3.Connection | None = None) -> dict[str, Any]:
    """A part's peak throughput for one number format, by any name it is known by (what `torch.cuda.get_device_name()`
    or JAX's `device_kind` print): dense unless `sparse`; `value` in FLOP/s, with the figure's counting, review date and sources.

    `connection` defaults to the bundled data (`connect()`). Raises `specdb.errors.NotFound` when the data holds no
    such peak for the part, or does not hold the part; `specdb.errors.AmbiguousName` when the name fits several parts.
    """
    from specdb.analysis.peaks import peak as find_peak

    return find_peak(connection if connection is not None else connect(), name, dtype, sparse)


def figures(connection: sqlite3.Connection, **filters: Any) -> list[dict[str, Any]]:
    """Figures across records; filters: kind, name (a LIKE pattern), vendor, record, status."""
    from specdb.db.catalog import list_figures

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
    from specdb.check.verdicts import check_text as check

    return check(text, connection, **options)
