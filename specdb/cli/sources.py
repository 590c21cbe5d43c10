"""sources check and review: whether the sources still say what the figures quote, and recording a re-review."""

from __future__ import (
    annotations,  # the Typer declarations in the signatures are read only when the full CLI is assembled
)

import datetime as dt
import os
import sys
from pathlib import Path
from typing import Annotated, Optional

from specdb.cli.common import emit, lazy_module, locate, open_database
from specdb.errors import EXIT_FINDINGS

typer = lazy_module("typer")
options = lazy_module("specdb.cli.options")


def check(
    record: Annotated[Optional[str], typer.Option("--record", help="Only the sources this record cites (id or alias)", autocompletion=options.complete_record)] = None,
    source: Annotated[Optional[str], typer.Option("--source", help="Only this source (its id)")] = None,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="Addresses fetched at once", min=1, max=16)] = 4,
    timeout: Annotated[float, typer.Option("--timeout", help="Seconds to wait to connect, and for each read", min=0.1, max=600)] = 20.0,
    offline: Annotated[bool, typer.Option("--offline", help="Check against what the cache holds, without the network")] = False,
    specs: options.SpecsOption = None,
    db: options.DbOption = None,
    refresh: options.RefreshOption = False,
    fmt: options.FormatOption = "table",
) -> None:
    """Fetch each source's address and look for every quote that cites it; exit 1 when a quote is missing or a source is gone or moved.

    Sources are ok, moved, gone, unreachable or changed (since the fingerprint of the last review); quotes are quote-found,
    quote-missing or not-checkable. Reports are grouped by record, most urgent first. The cache is in the per-user cache folder
    (or $SPECDB_SOURCES_CACHE). Examples: specdb sources check ; specdb sources check --record nvidia-h100-sxm --format markdown
    """
    from specdb.sources.check import check_sources, failing
    from specdb.sources.report import COLUMNS, document, markdown, rows, summary

    results = check_sources(open_database(specs, db, refresh), record_id=record, source_id=source, offline=offline, jobs=jobs, timeout=timeout)
    if fmt == "markdown":
        sys.stdout.write(markdown(results))
    else:
        emit(rows(results), fmt, COLUMNS, document=document(results) if fmt == "json" else None, priority=("record_id", "source", "source_status", "quote_status", "figures"))
    if fmt == "table":
        print(summary(results), file=sys.stderr)
    if failing(results):
        raise SystemExit(EXIT_FINDINGS)


def review(
    record: Annotated[str, typer.Argument(help="The record reviewed (id or alias)", autocompletion=options.complete_record)],
    source: Annotated[str, typer.Option("--source", help="The source the figures were checked against (its id)")],
    figures: Annotated[Optional[list[str]], typer.Argument(help="Its figures reviewed; default: every figure citing the source", autocompletion=options.complete_figure)] = None,
    force: Annotated[bool, typer.Option("--force", help="Record the review although a quote is not found or the source cannot be read (needs --note)")] = False,
    note: Annotated[Optional[str], typer.Option("--note", help="With --force: why the review stands; written on each citation whose quote was not found")] = None,
    timeout: Annotated[float, typer.Option("--timeout", help="Seconds to wait to connect, and for each read", min=0.1, max=600)] = 20.0,
    specs: options.SpecsOption = None,
    db: options.DbOption = None,
) -> None:
    """Record a re-review: read the source, find each quote, then set the figures' reviewed: to today and the source's accessed: and
    fingerprint:, keeping every other byte of the files. Refused (exit 1, nothing written) when a quote is not found, unless --force --note.

    The specs folder is the one named (--specs, SPECDB_SPECS or ./specs), never the bundled data.
    Example: specdb review nvidia-h100-sxm memory_capacity --source nvidia-h100-architecture-whitepaper
    """
    from specdb.errors import UsageError
    from specdb.locations import SPECS_ENV, is_specs_folder
    from specdb.sources.review import review as record_review

    if not source.strip():
        raise UsageError("give --source SOURCE: the source the figures were checked against")
    if specs is None and not os.environ.get(SPECS_ENV) and not is_specs_folder(Path("specs")):
        raise UsageError("no specs folder to write into: give --specs DIR (or SPECDB_SPECS), or run where ./specs is one")
    specs_dir, _ = locate(specs, db)
    done = record_review(
        open_database(specs, db), specs_dir, record, list(figures or []), source, today=dt.date.today(), force=force, note=note, timeout=timeout,
    )
    lines = [f"{done.record_path}: reviewed {', '.join(done.figures)} ({dt.date.today().isoformat()})", f"{done.source_path}: accessed, fingerprint {done.fingerprint or 'not taken (no text)'}"]
    if done.missing:
        lines.append(f"quotes not found, noted on their citations: {len(done.missing)}")
    print("\n".join(lines), file=sys.stderr)


def __getattr__(name: str):
    """The `sources` group, built with Typer only when the full CLI is assembled (the fast path calls its command directly)."""
    if name == "sources_app":
        sources_app = typer.Typer(help="Whether the sources still say what the figures quote. Example: specdb sources check --format markdown", no_args_is_help=True)
        sources_app.command("check")(check)
        return sources_app
    raise AttributeError(name)
