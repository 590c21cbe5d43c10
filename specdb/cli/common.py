"""Options shared by every command, declared once from the library's own word lists, and the plumbing that turns errors into exit codes."""

import sqlite3
import sys
from pathlib import Path
from typing import Annotated, Any, Optional, Sequence

import click
import typer

from specdb.errors import SpecdbError
from specdb.output import FORMATS
from specdb.terms import KINDS, STATUSES
from specdb.tiers import BASES


class Choice(click.Choice):
    """One of a fixed set of words; a misspelling is refused with the closest word (and shell completion offers them)."""

    def convert(self, value: Any, param: Optional[click.Parameter], ctx: Optional[click.Context]) -> Any:
        try:
            return super().convert(value, param, ctx)
        except click.BadParameter:
            from specdb.suggest import did_you_mean

            self.fail(f"'{value}' is not one of {', '.join(self.choices)}{did_you_mean(str(value), self.choices, n=1)}", param, ctx)


def choice(words: Sequence[str], *flags: str, help: str) -> Any:
    """A typer option taking one of `words`, shown as {a|b|c} in the help."""
    return typer.Option(*flags, click_type=Choice(list(words)), help=help)


def choice_argument(words: Sequence[str], *, help: str) -> Any:
    return typer.Argument(click_type=Choice(list(words)), help=help, show_default=False)


KindOption = Annotated[Optional[str], choice(KINDS, "--kind", "-k", help="Record kind")]
StatusOption = Annotated[Optional[str], choice(STATUSES, "--status", help="What kind of figure")]
BasisOption = Annotated[
    str,
    choice(BASES, "--basis", help="per-direction: every link one way, memory as its total; as-quoted: the vendors' headline figures"),
]
DbOption = Annotated[
    Optional[str],
    typer.Option("--db", help="Database path, sqlite:/// URL or postgresql:// URL [env: SPECDB_DB; default: a per-user cache file]", show_default=False),
]
SpecsOption = Annotated[
    Optional[str],
    typer.Option("--specs", help="Specs folder [env: SPECDB_SPECS; default: ./specs if it is a specdb specs folder, else the bundled data]", show_default=False),
]
# Every command that prints rows offers the same formats, with the same columns in each.
FormatOption = Annotated[str, choice(FORMATS, "--format", "-f", help="Output format: a table for people, json, csv or markdown")]


def locate(specs: Optional[str], db: Optional[str]) -> tuple[Path, Path]:
    from specdb.locations import resolve_db, resolve_specs

    specs_dir = resolve_specs(specs, working_folder=True)
    return specs_dir, resolve_db(db, specs_dir)


def open_database(specs: Optional[str], db: Optional[str]) -> sqlite3.Connection:
    """The database for these options, built or refreshed first when the specs changed."""
    from specdb import connect

    return connect(*locate(specs, db))


def emit(rows: Sequence[dict[str, Any]], fmt: str, columns: Sequence[str] | None = None, document: Any = None) -> None:
    """Rows in the chosen format; `document`, when given, is what JSON prints instead (a single object, in full)."""
    from specdb.output import render, terminal_width

    sys.stdout.write(render(rows, fmt, columns, document, width=terminal_width(sys.stdout)))


def fail(error: SpecdbError) -> None:
    """Print an error the way every command does and exit with its code."""
    from specdb.errors import InvalidSpecs

    if isinstance(error, InvalidSpecs):
        for problem in error.problems:
            print(problem, file=sys.stderr)
    print(f"specdb: {error}", file=sys.stderr)
    raise typer.Exit(error.exit_code)
