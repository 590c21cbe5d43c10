"""diff and history: what changed in the data between versions, and every value a figure has had."""

from __future__ import annotations  # the Typer declarations in the signatures are read only when the full CLI is assembled

import sys
from contextlib import contextmanager
from typing import Annotated, Callable, Iterator, Optional

from specdb.cli.common import emit, lazy_module, locate
from specdb.versions.diff import FORMATS
from specdb.errors import EXIT_FINDINGS

typer = lazy_module("typer")
options = lazy_module("specdb.cli.options")


def diff(
    old: Annotated[str, typer.Argument(help="A git revision (v0.1, HEAD~3), a specs folder, or a database file")],
    new: Annotated[Optional[str], typer.Argument(help="The same kinds of version; default: the working tree of the specs")] = None,
    fmt: Annotated[str, options.choice(FORMATS, "--format", "-f", help="summary, json (one object per change) or markdown (a changelog)")] = "summary",
    stat: Annotated[bool, typer.Option("--stat", help="Counts of changes only")] = False,
    exit_code: Annotated[bool, typer.Option("--exit-code", help="Exit 1 when there are differences, 0 when none, 2 on error (like git diff)")] = False,
    only: Annotated[Optional[list[str]], typer.Option("--only", help="Report only these groups (repeat or comma-separate): records, values, counting, sources, review, prose, history, ratios")] = None,
    basis: options.BasisOption = "per-direction",
    validate: Annotated[bool, typer.Option("--validate", help="Between two git revisions, check each one never read whole before against every rule, not only the records the change reaches")] = False,
    specs: options.SpecsOption = None,
) -> None:
    """Show what changed in the data between two versions: every change to records, figures, counting, sources, review dates, notes, history, and the tier ratios that moved.

    Examples: specdb diff HEAD~1 ; specdb diff HEAD~3 HEAD --stat ; specdb diff old.sqlite new.sqlite --format json ; specdb diff HEAD~1 --only values,counting --exit-code
    """
    from specdb.versions.diff import compare_versions, render

    specs_dir, _ = locate(specs, None)
    groups = tuple(group.strip() for option in only for group in option.split(",") if group.strip()) if only else None
    with progress_bar() as progress:
        before, after, changes = compare_versions(old, new, specs_dir, basis=basis, only=groups, progress=progress, validate=validate)
    sys.stdout.write(render(changes, "stat" if stat else fmt, before, after))
    if exit_code and changes:
        raise SystemExit(EXIT_FINDINGS)


def history(
    record: Annotated[str, typer.Argument(help="Record id or alias", autocompletion=options.complete_record)],
    figure: Annotated[str, typer.Argument(help="Figure name, e.g. memory_bandwidth", autocompletion=options.complete_figure)],
    specs: options.SpecsOption = None,
    db: options.DbOption = None,
    refresh: options.RefreshOption = False,
    fmt: options.FormatOption = "table",
) -> None:
    """Every value a figure has had: its history entries and, where the specs are in git, each commit that changed it.

    Example: specdb history nvidia-h100-sxm memory_bandwidth
    """
    from specdb.cli.common import open_database
    from specdb.versions.history import figure_history

    specs_dir, _ = locate(specs, db)
    with progress_bar() as progress:
        rows = figure_history(open_database(specs, db, refresh), specs_dir, record, figure, progress=progress)
    emit(rows, fmt)


# Back to the start of the line and erase it (ANSI EL): each progress line replaces the last, and the last is erased.
CLEAR_LINE = "\r\033[K"


@contextmanager
def progress_bar() -> Iterator[Callable[[str, int, int], None] | None]:
    """A progress line on stderr for long reads, each replacing the last and erased when done; none when stderr is not a
    terminal (piped, or in a script).

    Written by hand rather than with Click's bar: diff and history are read commands, which start without Click.
    """
    if not sys.stderr.isatty():
        yield None
        return
    shown: list[str] = []  # the label of the line on screen, if one is

    def show(label: str, done: int, total: int) -> None:
        shown[:] = [label]
        sys.stderr.write(f"{CLEAR_LINE}{label}  {done}/{total} ({100 * done // max(total, 1)}%)")
        sys.stderr.flush()

    try:
        yield show
    finally:
        if shown:  # the line is gone when the work is done: what follows starts on a clean line
            sys.stderr.write(CLEAR_LINE)
            sys.stderr.flush()
