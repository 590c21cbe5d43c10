"""query ratios and query figures: the questions asked most, without SQL."""

from __future__ import annotations  # the Typer declarations in the signatures are read only when the full CLI is assembled

import sys
from typing import Annotated, Any, Optional

from specdb.cli.common import emit, lazy_module, open_database

typer = lazy_module("typer")
options = lazy_module("specdb.cli.options")

_BASIS_TEXT = {
    "per-direction": "basis: per-direction (every link counted one way, memory as its total)",
    "as-quoted": "basis: as-quoted (vendors' headline figures; ratios marked * compare figures counted differently)",
}

def ratios(
    basis: options.BasisOption = "per-direction",
    vendor: Annotated[Optional[str], typer.Option("--vendor", help="Only platforms of this vendor")] = None,
    platform: Annotated[Optional[list[str]], typer.Option("--platform", help="Only this platform (id or alias); repeat for several")] = None,
    specs: options.SpecsOption = None,
    db: options.DbOption = None,
    refresh: options.RefreshOption = False,
    fmt: options.FormatOption = "table",
) -> None:
    """Tier bandwidths and their ratios for every platform, in generation order.

    Example: specdb query ratios --basis as-quoted --format markdown
    """
    from specdb.analysis.tiers import RATIO_COLUMNS, RATIO_PRIORITY, ratio_rows, trend

    rows = ratio_rows(open_database(specs, db, refresh), basis, vendor=vendor, platform=platform)
    if fmt in ("json", "csv"):
        emit(rows, fmt, RATIO_COLUMNS)
        return
    shown = [_marked(row) for row in rows]
    emit(shown, fmt, RATIO_COLUMNS, priority=RATIO_PRIORITY)
    notes = [_BASIS_TEXT[basis], "bandwidths in GB/s per accelerator; bf16_flop_per_network_byte: dense BF16 FLOP/s over per-direction scale-out B/s"]
    notes += trend(rows)
    prefix = "> " if fmt == "markdown" else ""
    from specdb.output import terminal_width, wrapped

    width = terminal_width(sys.stdout) if fmt == "table" else None
    sys.stdout.write("\n" + "".join(f"{prefix}{part}\n" for line in notes for part in wrapped(line, width)))

def _marked(row: dict[str, Any]) -> dict[str, Any]:
    shown = dict(row)
    for name in row["mixed_counting"]:
        shown[name] = f"{row[name]:g}*"
    return shown

def figures(
    kind: options.KindOption = None,
    name: Annotated[Optional[str], typer.Option("--name", "-n", help="Figure name (`specdb query names` lists them); % is a wildcard (%bandwidth)")] = None,
    vendor: Annotated[Optional[str], typer.Option("--vendor", help="Vendor (case-insensitive)")] = None,
    record: Annotated[Optional[str], typer.Option("--record", "-r", help="One record (id or alias)")] = None,
    status: options.StatusOption = None,
    specs: options.SpecsOption = None,
    db: options.DbOption = None,
    refresh: options.RefreshOption = False,
    fmt: options.FormatOption = "table",
) -> None:
    """Figures across records, filtered. Example: specdb query figures --name memory_bandwidth --kind accelerator"""
    from specdb.db.catalog import list_figures

    rows = list_figures(
        open_database(specs, db, refresh), kind=kind, name=name, vendor=vendor, record=record, status=status,
    )
    emit(rows, fmt)

def names(
    kind: options.KindOption = None,
    fmt: options.FormatOption = "table",
) -> None:
    """The figure names a record may use: dimension, record kinds, how each is counted, and what it means.

    Example: specdb query names --kind fabric
    """
    from specdb.format.vocabulary import rows

    emit([row for row in rows() if kind is None or kind in str(row["kinds"]).split(", ")], fmt)

def __getattr__(name: str):
    """The `query` group, built with Typer only when the full CLI is assembled (the fast path calls its commands directly)."""
    if name == "query_app":
        query_app = typer.Typer(help="Questions over the figures: tier ratios, figures across records.", no_args_is_help=True)
        for command in (ratios, figures, names):
            query_app.command(command.__name__)(command)
        return query_app
    raise AttributeError(name)

def compare(
    records: Annotated[list[str], typer.Argument(help="Two or more records of one kind (ids or aliases)", autocompletion=options.complete_record)],
    basis: options.BasisOption = "per-direction",
    specs: options.SpecsOption = None,
    db: options.DbOption = None,
    refresh: options.RefreshOption = False,
    fmt: options.FormatOption = "table",
) -> None:
    """Figures of two or more records side by side, in one basis and unit, with ratios to the first.

    Example: specdb compare nvidia-h100-sxm nvidia-b200
    """
    from specdb.analysis.compare import compare as compare_records
    from specdb.analysis.compare import flatten

    rows = compare_records(open_database(specs, db, refresh), records, basis)
    flat = flatten(rows)
    emit(flat, fmt, list(dict.fromkeys(key for row in flat for key in row)), document=rows)
    if fmt in ("table", "markdown"):
        sys.stdout.write(f"\n{_BASIS_TEXT[basis].split(';')[0]}\n")

def sql(
    query: Annotated[str, typer.Argument(help="One SQL statement; the connection is read-only")],
    timeout: Annotated[float, typer.Option("--timeout", help="Stop the query after this many seconds")] = 10.0,
    max_rows: Annotated[int, typer.Option("--max-rows", help="Refuse a result of more rows than this")] = 100_000,
    specs: options.SpecsOption = None,
    db: options.DbOption = None,
    refresh: options.RefreshOption = False,
    fmt: options.FormatOption = "table",
) -> None:
    """Run read-only SQL against the database: no writes, no ATTACH, a time and a row limit.

    Example: specdb sql "SELECT record_id, value_text FROM figure WHERE name = 'memory_bandwidth'"
    """
    from specdb.db.sqlquery import require_statement, run_sql

    require_statement(query)
    columns, rows = run_sql(open_database(specs, db, refresh, wait=timeout), query, timeout=timeout, max_rows=max_rows)
    emit(rows, fmt, columns)
    if fmt == "json":
        from specdb.output import json_keys

        renamed = [f"{key} (column {position})" for position, (column, key) in enumerate(zip(columns, json_keys(columns)), 1) if key != column]
        if renamed:
            print(f"specdb: note: JSON keys must differ, so repeated column names are keyed {', '.join(renamed)}", file=sys.stderr)
