"""validate, build, upgrade, list and show: the commands over records."""

from __future__ import annotations  # the Typer declarations in the signatures are read only when the full CLI is assembled

import sys
from pathlib import Path
from typing import Annotated, Any, Optional

from specdb.cli.common import emit, lazy_module, locate, open_database
from specdb.errors import EXIT_FINDINGS

typer = lazy_module("typer")
options = lazy_module("specdb.cli.options")

VALIDATE_FORMATS = ("text", "json")


def validate(
    specs: options.SpecsOption = None,
    fmt: Annotated[str, options.choice(VALIDATE_FORMATS, "--format", "-f", help="text (path:line:column: message) or json (a report with a code per problem)")] = "text",
) -> None:
    """Check every spec file and print every problem as path:line:column: message, on standard output.

    Exits 1 when there is any problem. Examples: specdb validate --specs ./specs ; specdb validate --format json
    """
    from dataclasses import asdict

    from specdb.load.dataset import load_specs
    from specdb.output import counted, to_json

    specs_dir, _ = locate(specs, None)
    dataset = load_specs(specs_dir)
    if fmt == "json":
        sys.stdout.write(to_json({
            "valid": dataset.ok,
            "specs": str(specs_dir),
            "records": dataset.record_count,
            "sources": dataset.source_count,
            "figures": dataset.figure_count,
            "converted": dataset.converted,
            "problems": [asdict(problem) for problem in dataset.problems],
            "problems_left_out": sum(dataset.left_out.values()),
        }))
    else:
        sys.stdout.write("".join(f"{problem}\n" for problem in dataset.problems))
    _warn_converted(dataset.converted)
    if not dataset.ok:
        print(f"specdb: {dataset.problem_count:,} problem(s) in the specs", file=sys.stderr)
        raise SystemExit(EXIT_FINDINGS)
    print(f"{specs_dir}: valid: {counted(dataset.record_count, dataset.source_count, dataset.figure_count)}", file=sys.stderr)


def _warn_converted(converted: list[str] | tuple[str, ...]) -> None:
    """Say that files in an older record format were read through its conversion, and how to rewrite them."""
    if converted:
        from specdb.format.upgrades import CURRENT_FORMAT

        files = f"{converted[0]}" if len(converted) == 1 else f"{len(converted):,} files ({converted[0]}, ...)"
        print(f"specdb: warning: {files} in an older record format, read as format {CURRENT_FORMAT}; `specdb upgrade` rewrites them", file=sys.stderr)


def build(specs: options.SpecsOption = None, db: options.DbOption = None) -> None:
    """Validate the specs and build the database from them, atomically.

    Does no work when nothing changed. Example: specdb build --db specdb.sqlite
    """
    from specdb.db.access import build as build_database
    from specdb.output import counted

    specs_dir, db_path = locate(specs, db)
    result = build_database(specs_dir, db_path)
    _warn_converted(result.converted)
    state = "built" if result.changed else "up to date"
    print(f"{db_path}: {state}: {counted(result.records, result.sources, result.figures)}", file=sys.stderr)


def upgrade(
    paths: Annotated[Optional[list[Path]], typer.Argument(help="Spec files or folders inside the specs folder (default: all of it)", show_default=False)] = None,
    specs: options.SpecsOption = None,
) -> None:
    """Rewrite spec files in an older record format in the current one, in place, keeping comments, key order and quoting.

    All files or none: the specs must validate as rewritten before any is written. Files already current are left
    alone. Example: specdb upgrade ; specdb upgrade specs/link
    """
    from specdb.format.upgrades import CURRENT_FORMAT
    from specdb.load.upgrade import upgrade_specs

    specs_dir, _ = locate(specs, None)
    done = upgrade_specs(specs_dir, list(paths or ()))
    for path in done.rewritten:
        print(f"{path}: rewritten in format {CURRENT_FORMAT}", file=sys.stderr)
    for path in done.added:
        print(f"{path}: added (a record format 1 kept in another file)", file=sys.stderr)
    if not done.rewritten:
        print(f"{specs_dir}: every file is in format {CURRENT_FORMAT} already", file=sys.stderr)


def list_records(
    kind: options.KindOption = None,
    vendor: Annotated[Optional[str], typer.Option("--vendor", help="Only records of this vendor")] = None,
    specs: options.SpecsOption = None,
    db: options.DbOption = None,
    refresh: options.RefreshOption = False,
    fmt: options.FormatOption = "table",
) -> None:
    """List records, one row each. Example: specdb list --kind accelerator --vendor NVIDIA"""
    from specdb.db.catalog import list_records as records
    from specdb.db.catalog import list_sources
    from specdb.errors import UsageError

    if kind == "source" and vendor:
        raise UsageError("--vendor lists records; sources have a publisher, not a vendor")
    connection = open_database(specs, db, refresh)
    rows = list_sources(connection) if kind == "source" else records(connection, kind, vendor)
    emit(rows, fmt)


def show(
    record: Annotated[str, typer.Argument(help="Record id or alias, e.g. nvidia-h100-sxm or 'NVIDIA H100 80GB HBM3'", autocompletion=options.complete_record)],
    specs: options.SpecsOption = None,
    db: options.DbOption = None,
    refresh: options.RefreshOption = False,
    fmt: options.FormatOption = "table",
) -> None:
    """Show one record: its figures with how each is counted, sources, history and alternatives.

    Example: specdb show "NVIDIA H100 80GB HBM3"
    """
    from specdb.db.catalog import FIGURE_COLUMNS, figure_rows, show_record, show_source
    from specdb.errors import NotFound

    connection = open_database(specs, db, refresh)
    try:
        shown = show_record(connection, record)
    except NotFound:
        source = show_source(connection, record)
        if source is None:
            raise
        _show_source(source, fmt)
        return
    if fmt == "table":
        sys.stdout.write(_describe(shown))
    else:
        emit(figure_rows(shown), fmt, FIGURE_COLUMNS, document=shown)


def _show_source(source: dict[str, Any], fmt: str) -> None:
    """A source as `show` prints it: what and where, then the figures citing it; JSON is the whole object."""
    if fmt != "table":
        emit(source["cited_by"], fmt, ("record_id", "figure", "quote", "locator"), document=source)
        return
    from specdb.output import terminal_width, wrapped_lines

    lines = [f"{source['name']}  ({source['id']}, source)"]
    lines += [f"  {key}: {source[key]}" for key in ("publisher", "url", "citation", "published", "accessed", "notes") if source.get(key)]
    lines.append(f"\n  cited by {len(source['cited_by'])} figure(s):" if source["cited_by"] else "\n  cited by no figure")
    for cited in source["cited_by"]:
        quote = f' "{cited["quote"]}"' if cited["quote"] else ""
        lines.append(f"    {cited['record_id']}.{cited['figure']}{quote}")
    width = terminal_width(sys.stdout)
    sys.stdout.write(wrapped_lines(lines, width, indent=6))


_TABLE_COLUMNS = ("name", "value_text", "display", "direction", "scope", "status", "as_of", "reviewed")


def _describe(record: dict[str, Any]) -> str:
    from specdb.output import colour_enabled, terminal_width, text_table, wrapped_lines

    width = terminal_width(sys.stdout)
    lines = [f"{record['name']}  ({record['id']}, {record['kind']})"]
    for label, key in (("vendor", "vendor"), ("family", "family"), ("released", "released")):
        if record.get(key):
            lines.append(f"  {label}: {record[key]}")
    if record["aliases"]:
        lines.append(f"  aliases: {', '.join(record['aliases'])}")
    if record["runtime_names"]:
        lines.append("  reported as: " + ", ".join(f"{seen['name']} ({seen['reported_by']})" for seen in record["runtime_names"]))
    if record["uses"]:
        lines.append("  uses: " + ", ".join(f"{role} {target}" for role, target in record["uses"].items()))
    if record.get("notes"):
        lines.append(f"  notes: {record['notes']}")
    lines.append("")
    lines.append(text_table(record["figures"], list(_TABLE_COLUMNS), width, vertical_when_narrow=True, colour=colour_enabled(sys.stdout)).rstrip("\n"))
    for figure in record["figures"]:
        details = [f"    meaning: {figure['description']}"] if figure.get("description") else []
        for key in ("precision", "sparsity", "method", "note", "uncertainty"):
            if figure.get(key):
                details.append(f"    {key}: {figure[key]}")
        if figure.get("derived_product"):
            details.append(f"    derived: {' x '.join(figure['derived_product'].split())} x {figure['derived_factor']:g}")
        for source in figure["sources"]:
            quote = f' "{source["quote"]}"' if source.get("quote") else ""
            details.append(f"    source: {source['source_id']}{quote}")
        for claim in figure["history"]:
            details.append(f"    was {claim['value_text']} as of {claim['as_of']}")
        for claim in figure["alternatives"]:
            details.append(f"    alternative {claim['value_text']}: {claim['reason']}")
        if details:
            lines.append(f"\n  {figure['name']}:")
            lines.extend(details)
    return wrapped_lines(lines, width, indent=6)
