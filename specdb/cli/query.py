"""query ratios and query figures: the questions asked most, without SQL."""

import sys
from enum import Enum
from typing import Annotated, Any, Optional

import typer

from specdb.cli.common import (
    DbOption, Format, FormatOption, FormatWithMarkdown, KindOption, MarkdownFormatOption, SpecsOption, Status, emit, open_database,
)

query_app = typer.Typer(help="Questions over the figures: tier ratios, figures across records.", no_args_is_help=True)


class Basis(str, Enum):
    per_direction = "per-direction"
    as_quoted = "as-quoted"


BasisOption = Annotated[
    Basis,
    typer.Option("--basis", help="per-direction: every link one way, memory as its total; as-quoted: the vendors' headline figures"),
]

_BASIS_TEXT = {
    "per-direction": "basis: per-direction (every link counted one way, memory as its total)",
    "as-quoted": "basis: as-quoted (vendors' headline figures; ratios marked * compare figures counted differently)",
}
_RATIO_COLUMNS = (
    "platform", "accelerator", "year", "memory_gbps", "scale_up_gbps", "scale_out_gbps",
    "memory_to_scale_up", "scale_up_to_scale_out", "memory_to_scale_out", "bf16_flop_per_network_byte",
)


@query_app.command("ratios")
def ratios(
    basis: BasisOption = Basis.per_direction,
    vendor: Annotated[Optional[str], typer.Option("--vendor", help="Only platforms of this vendor")] = None,
    platform: Annotated[Optional[str], typer.Option("--platform", help="Only this platform (id or alias)")] = None,
    specs: SpecsOption = None,
    db: DbOption = None,
    fmt: MarkdownFormatOption = FormatWithMarkdown.table,
) -> None:
    """Tier bandwidths and their ratios for every platform, in generation order.

    Example: specdb query ratios --basis as-quoted --format markdown
    """
    from specdb.tiers import ratio_rows, trend

    rows = ratio_rows(open_database(specs, db), basis.value, vendor=vendor, platform=platform)
    if fmt.value in ("json", "csv"):
        emit(rows, fmt)
        return
    shown = [_marked(row) for row in rows]
    emit(shown, fmt, _RATIO_COLUMNS)
    notes = [_BASIS_TEXT[basis.value], "bandwidths in GB/s per accelerator; bf16_flop_per_network_byte: dense BF16 FLOP/s over per-direction scale-out B/s"]
    notes += trend(rows)
    prefix = "> " if fmt.value == "markdown" else ""
    sys.stdout.write("\n" + "".join(f"{prefix}{line}\n" for line in notes))


def _marked(row: dict[str, Any]) -> dict[str, Any]:
    shown = dict(row)
    for name in row["mixed_counting"]:
        shown[name] = f"{row[name]:g}*"
    return shown


@query_app.command("figures")
def figures(
    kind: KindOption = None,
    name: Annotated[Optional[str], typer.Option("--name", "-n", help="Figure name (`specdb query names` lists them); % is a wildcard (%bandwidth)")] = None,
    vendor: Annotated[Optional[str], typer.Option("--vendor", help="Vendor (case-insensitive)")] = None,
    record: Annotated[Optional[str], typer.Option("--record", "-r", help="One record (id or alias)")] = None,
    status: Annotated[Optional[Status], typer.Option("--status", help="What kind of figure")] = None,
    specs: SpecsOption = None,
    db: DbOption = None,
    fmt: FormatOption = Format.table,
) -> None:
    """Figures across records, filtered. Example: specdb query figures --name memory_bandwidth --kind accelerator"""
    from specdb.catalog import list_figures

    rows = list_figures(
        open_database(specs, db), kind=kind.value if kind else None, name=name, vendor=vendor, record=record, status=status.value if status else None,
    )
    emit(rows, fmt)


@query_app.command("names")
def names(
    kind: KindOption = None,
    fmt: MarkdownFormatOption = FormatWithMarkdown.table,
) -> None:
    """The figure names a record may use: dimension, record kinds, how each is counted, and what it means.

    Example: specdb query names --kind fabric
    """
    from specdb.vocabulary import rows

    emit([row for row in rows() if kind is None or kind.value in str(row["kinds"]).split(", ")], fmt)


def compare(
    records: Annotated[list[str], typer.Argument(help="Two or more records of one kind (ids or aliases)")],
    basis: BasisOption = Basis.per_direction,
    specs: SpecsOption = None,
    db: DbOption = None,
    fmt: MarkdownFormatOption = FormatWithMarkdown.table,
) -> None:
    """Figures of two or more records side by side, in one basis and unit, with ratios to the first.

    Example: specdb compare nvidia-h100-sxm nvidia-b200
    """
    from specdb.compare import compare as compare_records
    from specdb.compare import flatten

    rows = compare_records(open_database(specs, db), records, basis.value)
    if fmt.value == "json":
        emit(rows, fmt)
        return
    flat = flatten(rows)
    emit(flat, fmt, list(dict.fromkeys(key for row in flat for key in row)))
    if fmt.value in ("table", "markdown"):
        sys.stdout.write(f"\n{_BASIS_TEXT[basis.value].split(';')[0]}\n")


def sql(
    query: Annotated[str, typer.Argument(help="One SQL statement; the connection is read-only")],
    timeout: Annotated[float, typer.Option("--timeout", help="Stop the query after this many seconds")] = 10.0,
    max_rows: Annotated[int, typer.Option("--max-rows", help="Refuse a result of more rows than this")] = 100_000,
    specs: SpecsOption = None,
    db: DbOption = None,
    fmt: MarkdownFormatOption = FormatWithMarkdown.table,
) -> None:
    """Run read-only SQL against the database: no writes, no ATTACH, a time and a row limit.

    Example: specdb sql "SELECT record_id, value_text FROM figure WHERE name = 'memory_bandwidth'"
    """
    from specdb.sqlquery import run_sql

    columns, rows = run_sql(open_database(specs, db), query, timeout=timeout, max_rows=max_rows)
    emit(rows, fmt, columns)
