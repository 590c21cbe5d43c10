"""Options shared by every command, declared once, and the plumbing that turns errors into exit codes."""

import sqlite3
import sys
from enum import Enum
from pathlib import Path
from typing import Annotated, Any, Optional, Sequence

import typer

from specdb.errors import SpecdbError


class Format(str, Enum):
    table = "table"
    json = "json"
    csv = "csv"


class FormatWithMarkdown(str, Enum):
    table = "table"
    json = "json"
    csv = "csv"
    markdown = "markdown"


class Kind(str, Enum):
    accelerator = "accelerator"
    link = "link"
    fabric = "fabric"
    system = "system"
    cluster = "cluster"
    source = "source"


class Status(str, Enum):
    spec = "spec"
    announced = "announced"
    shipping = "shipping"
    measured = "measured"


KindOption = Annotated[Optional[Kind], typer.Option("--kind", "-k", help="Record kind")]
DbOption = Annotated[
    Optional[str],
    typer.Option("--db", help="Database path, sqlite:/// URL or postgresql:// URL [env: SPECDB_DB; default: a per-user cache file]", show_default=False),
]
SpecsOption = Annotated[
    Optional[str],
    typer.Option("--specs", help="Specs folder [env: SPECDB_SPECS; default: ./specs if it is a specdb specs folder, else the bundled data]", show_default=False),
]
FormatOption = Annotated[Format, typer.Option("--format", "-f", help="Output format")]
MarkdownFormatOption = Annotated[FormatWithMarkdown, typer.Option("--format", "-f", help="Output format")]


def locate(specs: Optional[str], db: Optional[str]) -> tuple[Path, Path]:
    from specdb.locations import resolve_db, resolve_specs

    specs_dir = resolve_specs(specs, working_folder=True)
    return specs_dir, resolve_db(db, specs_dir)


def open_database(specs: Optional[str], db: Optional[str]) -> sqlite3.Connection:
    """The database for these options, built or refreshed first when the specs changed."""
    from specdb import connect

    return connect(*locate(specs, db))


def emit(rows: Sequence[dict[str, Any]], fmt: Enum, columns: Sequence[str] | None = None) -> None:
    from specdb.output import render

    sys.stdout.write(render(rows, fmt.value, columns))


def fail(error: SpecdbError) -> None:
    """Print an error the way every command does and exit with its code."""
    from specdb.errors import InvalidSpecs

    if isinstance(error, InvalidSpecs):
        for problem in error.problems:
            print(problem, file=sys.stderr)
    print(f"specdb: {error}", file=sys.stderr)
    raise typer.Exit(error.exit_code)
