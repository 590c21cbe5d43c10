"""stale: figures whose last review is too old."""

from __future__ import annotations  # the Typer declarations in the signatures are read only when the full CLI is assembled

import datetime as dt
import sys
from typing import Annotated, Optional

from specdb.cli.common import emit, lazy_module, open_database
from specdb.errors import EXIT_FINDINGS

typer = lazy_module("typer")
options = lazy_module("specdb.cli.options")


def stale(
    since: Annotated[Optional[str], typer.Option("--since", help="Cut-off: figures reviewed before this date (2026-07 means 2026-07-01)")] = None,
    older_than: Annotated[Optional[str], typer.Option("--older-than", help="Cut-off as an age: 90d, 6mo, 1y")] = None,
    check: Annotated[bool, typer.Option("--check", help="Exit 1 when a figure is stale (or past its error_after, or cites a changed source)")] = False,
    strict: Annotated[bool, typer.Option("--strict", help="With --check, warn rows fail too")] = False,
    as_of: Annotated[Optional[str], typer.Option("--as-of", help="Judge ages as of this date instead of today (YYYY-MM-DD)")] = None,
    specs: options.SpecsOption = None,
    db: options.DbOption = None,
    refresh: options.RefreshOption = False,
    fmt: options.FormatOption = "table",
) -> None:
    """Figures that need re-review. With no cut-off, each figure's review policy marks it warn or error; a figure citing a source whose
    text changed since its review (as `specdb sources check` last read it; stale itself never fetches) is marked changed.

    Examples: specdb stale --since 2026-07 ; specdb stale --older-than 6mo ; specdb stale --check --strict
    """
    from specdb.analysis.stale import STALE_COLUMNS, failing, stale_figures
    from specdb.db.catalog import source_fingerprints
    from specdb.format.policy import parse_cutoff

    today = parse_cutoff(as_of) if as_of else dt.date.today()
    connection = open_database(specs, db, refresh)
    reviewed = source_fingerprints(connection)
    # Without a fingerprinted source there is nothing to compare, and the cache folder need not even be located.
    changed: set[str] = set()
    if reviewed:
        from specdb.sources.cache import SourceCache, changed_since_review

        changed = changed_since_review(SourceCache(), reviewed)
    rows = stale_figures(connection, since=since, older_than=older_than, today=today, changed_sources=changed)
    emit(rows, fmt, STALE_COLUMNS)
    if fmt == "table":
        levels = {level: sum(1 for row in rows if row["level"] == level) for level in ("stale", "error", "changed", "warn")}
        summary = ", ".join(f"{count} {level}" for level, count in levels.items() if count) or "nothing stale"
        print(f"{summary} (as of {today.isoformat()})", file=sys.stderr)
    if check and failing(rows, strict=strict):
        raise SystemExit(EXIT_FINDINGS)
