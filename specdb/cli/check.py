"""check: the hardware figures in prose, against the database."""

from __future__ import annotations  # the Typer declarations in the signatures are read only when the full CLI is assembled

import sys
from typing import Annotated, Optional

from specdb.check.verdicts import FORMATS
from specdb.cli.common import lazy_module, open_database
from specdb.errors import EXIT_FINDINGS

typer = lazy_module("typer")
options = lazy_module("specdb.cli.options")


def check(
    paths: Annotated[list[str], typer.Argument(help="Plain text, Markdown or HTML files; - reads standard input", show_default=False)],
    as_of: Annotated[Optional[str], typer.Option("--as-of", help="Check against the values in force on this date (YYYY-MM or YYYY-MM-DD), for an old page")] = None,
    reviewed: Annotated[Optional[str], typer.Option("--reviewed", help="The page's review date, when the text does not state it")] = None,
    strict: Annotated[bool, typer.Option("--strict", help="ambiguous-basis and unmatched findings fail too")] = False,
    specs: options.SpecsOption = None,
    db: options.DbOption = None,
    refresh: options.RefreshOption = False,
    fmt: Annotated[str, options.choice(FORMATS, "--format", "-f", help="text (path:line:column: verdict ...), json or markdown (a review comment)")] = "text",
) -> None:
    """Find the hardware figures in prose and say which are ok, wrong (mismatch), stale, counted ambiguously or on mixed bases, or unmatched.

    Exit 1 when a claim is a mismatch, stale or mixed-basis (with --strict, also ambiguous-basis or unmatched).

    Examples: specdb check page.md ; specdb check --format markdown notes/*.html ; cat page.txt | specdb check - --as-of 2025-01
    """
    from specdb.check.render import render, summary
    from specdb.check.verdicts import Database, check_text, failing
    from specdb.format.policy import parse_cutoff

    when = parse_cutoff(as_of) if as_of else None
    page_date = parse_cutoff(reviewed) if reviewed else None
    texts = [(path, _read(path)) for path in paths]
    database = Database(open_database(specs, db, refresh), when)
    findings = [finding for path, text in texts for finding in check_text(text, database, path=path, reviewed=page_date)]
    sys.stdout.write(render(findings, fmt))
    print(summary(findings), file=sys.stderr)
    if failing(findings, strict=strict):
        raise SystemExit(EXIT_FINDINGS)


def _read(path: str) -> str:
    from specdb.check.verdicts import MAX_PAGE_BYTES
    from specdb.textfile import read_text

    return read_text(path, MAX_PAGE_BYTES, name_instead="the files to check", too_large="the most check reads of one page; check it in parts")
